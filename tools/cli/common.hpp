// The pieces of the `tilespace` command that several subcommands share: the common options, the
// problem (start and goal) from the command line or a file, board printing, the result file, the
// animation and memory limits. Errors are thrown as InputError (errors.hpp); main() maps them.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/state.hpp"
#include "tilespace/table_store.hpp"

namespace CLI {
class App;
}

namespace tilespace::cli {

// Options every subcommand shares.
struct Common {
  std::string board, goal, db = "out", blank, lang = "en";
  std::string source;  // the file the start (and goal) came from, for messages
  int threads = 0;
  bool progress = false, json = false;
};

// The start (if given) and the goal, on one board.
struct Problem {
  std::optional<State> start;
  State goal;
  Labels labels;  // how to write the tiles (numbers unless the input named them)
};

// Registers --board, --db, --threads, --progress and, if asked, --goal/--blank and --json on `app`.
void add_common(CLI::App* app, Common& c, bool goal = true, bool json_flag = true);

// The --board option, if given; InputError if it is not WxH within the limits.
std::optional<Board> board_option(const Common& c);

// The distance-table store over --db, with --threads, BFS progress on stderr and notes.
// Per-layer progress lines ("  depth   3  ... states ...") when stderr is a terminal or with
// --progress; empty otherwise. `layer` and `items` must be string literals.
std::function<void(const LayerReport&)> layer_progress(const Common& c, const char* layer, const char* items);
// "tilespace: <s>" on stderr: the notices of the database stores.
void note_on_stderr(const std::string& s);
StoreOptions store_options(const Common& c);
TableStore make_store(const Common& c);

// Start (empty: none) and goal from `start_text` and --goal/--board/--blank; default goal 1..N-1 0.
Problem parse_problem(const Common& c, const std::string& start_text);

// parse_problem, with the source file (c.source) named in any InputError.
Problem read_problem(const Common& c, const std::string& start_text);

// A START argument may name a file holding the start (and the goal, on its second line): returns
// the start text, sets c.source and, unless given, c.goal. Anything else is returned unchanged.
std::string resolve_start(const std::string& arg, Common& c);

// The start (and goal) from START, a file named by START, or standard input ("-" or none).
std::string read_start(const std::string& arg, Common& c);

// The tiles of `s` as a JSON array, cell by cell.
nlohmann::json tiles_json(const State& s);

// The board as rows of right-aligned names, the blank as '.' (or its given name).
std::string board_text(const State& s, const Labels& labels, const std::string& indent = "  ");

// board_text on stdout.
void print_board(const State& s, const Labels& labels = {});

// Writes every board of the path to `file` (result.txt), atomically: temporary file, rename.
void write_result(const std::string& file, const std::vector<State>& path, const Labels& labels);

// Plays the path board by board: in place on a terminal, frame after frame otherwise.
void animate(const std::vector<State>& path, const Labels& labels, int delay_ms);

// The search memory limit without --max-memory: 3/4 of physical memory.
std::uint64_t default_memory_limit();

// "512M", "2G", "100000" -> bytes ("" -> 0); InputError naming --max-memory otherwise.
std::uint64_t parse_bytes(const std::string& text);

}  // namespace tilespace::cli
