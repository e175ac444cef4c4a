// JSON shapes shared by `solve --json`, `solve --trace` and the HTTP service (serve.cpp): one
// solve result, and the search tree of a traced run in the viewer's shape (data/process/moves).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "tilespace/goal_table.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"
#include "tilespace/state.hpp"

namespace tilespace::app {

// board, start, goal, algorithm, heuristic (null for uninformed ones), solvable, length (null
// unless solved), moves (U/D/L/R: where the blank went), expanded, generated, peak_open, closed,
// peak_bytes, seconds, stopped (null or the limit's name).
nlohmann::json result_json(const State& start, const State& goal, const std::string& algorithm,
                           const std::string& heuristic, const search::Result& r);

// The path as a list of states (start .. goal).
nlohmann::json path_json(const search::Result& r);

// result_json plus the path, and with the goal's table (may be null) optimal_length and
// remaining (the exact distance of every path state): the answer of `solve --trace` and /api/solve.
nlohmann::json solve_json(const State& start, const State& goal, const std::string& algorithm,
                          const std::string& heuristic, const search::Result& r, const GoalTable* table);

// The mean distance to the goal over the table's states.
double mean_depth(const GoalTable& t);

// How many states at the radius `stats`, /api/stats and the Python module list.
inline constexpr std::size_t kFarthestListed = 1000;

// board, goal, states, radius, histogram, farthest_count, farthest (the given states at the
// radius) and metric of a distribution: what stats_json and `build --count-only --json` share.
nlohmann::json distribution_json(const State& goal, Metric metric, std::uint64_t states,
                                 const std::vector<std::uint64_t>& histogram, const std::vector<State>& farthest);

// distribution_json of the goal's table (at most kFarthestListed states at the radius), with its
// mean: the answer of `stats --json` and /api/stats.
nlohmann::json stats_json(const GoalTable& t, const State& goal, const std::vector<State>& farthest);

// `j` as compact JSON text (invalid UTF-8 replaced): how every JSON answer is written.
std::string json_text(const nlohmann::json& j);

// Why a search gave no answer, in English: "stopped by --max-nodes 1000 before a solution was
// found" (the value when the option was given): the command's line (cli::Messages::stopped) and
// the server's batch line alike.
std::string stopped_line(const std::string& option, const std::string& value = "");

// The answer of `solve --trace` and /api/solve?trace=1: `head` (solve_json) with, when `trace` is
// given, the trace's members among its keys: data [{id, state, g, h, f, parent, step, dup?}],
// process [{parent, children, iteration}], solution [ids], trace_truncated, trace_limit. The
// trace is written straight as text, a few hundred bytes a node at most
// (Trace::document_bytes_per_node), not built as json values first.
std::string solve_document(const nlohmann::json& head, const search::Trace* trace, const Board& board);

// Writes `text` to `file` atomically with the library's one writer (database.hpp:
// write_atomically: a temporary file in the same folder, fsync, rename; a device or pipe in
// place); DataError naming the file if it cannot be written (exit 3), leaving nothing behind.
void write_file_atomic(const std::string& file, const std::string& text);
// Throws the DataError write_file_atomic would throw for `file` — no folder, a folder of that name,
// no permission to write there — before any work is done (check --junit refuses before any line).
void require_writable(const std::string& file);

// Removes `file` when it is a regular file — the report of an earlier run, which a run that stops
// with an error must not leave looking current — unless it is `input` under any name (the file
// the run reads); a device, a folder or a missing file is left alone. Never throws.
void remove_stale_output(const std::string& file, const std::string& input = "");

}  // namespace tilespace::app
