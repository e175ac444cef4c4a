// The subcommands of the `tilespace` command, one function each, called by main() after
// parsing. Each returns the exit code (errors.hpp) or throws; main() maps exceptions to codes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/common.hpp"
#include "tilespace/check.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"

namespace tilespace::cli {

// Options of `solve` beyond the common ones. The search options are kept as given, as text, for
// the registry's planning step (search/registry.hpp), which validates them.
struct SolveFlags {
  search::SolveRequest request;
  std::string result, batch, trace;
  bool animate = false, delay_given = false;
  int delay_ms = 400;
};

// Options of `verify` and `compare` beyond the common ones.
struct LabFlags {
  std::string algorithms, suite;
  std::optional<std::string> sample, seed, max_seconds, max_nodes;  // as given, checked strictly
  bool csv = false, md = false;
};

// Options of `build` beyond the common ones.
struct BuildFlags {
  bool all_goals = false;
  int bits = 0;                   // 0: automatic (8 where the byte engine fits, else 1), 8, 2 or 1
  double checkpoint_every = 300;  // seconds between checkpoints of a two-bit build (0: none)
  bool checkpoint_given = false, resume = false;
  std::string pdb;                // the pattern databases of this partition instead of a distance table
  bool force = false;             // rebuild files that exist (valid or not)
  bool automaton = false;         // the move automaton (search/automaton.hpp) instead of a table
  std::optional<std::string> automaton_depth;  // its depth, as given (checked strictly)
  bool threads_given = false;     // --threads was given (it does not apply to the automaton)
  std::optional<std::string> max_memory;  // the memory the build may use (memory.hpp memory_budget)
};

// tables.cpp
// build: the distance table for the goal (or, with all_goals, one per blank class), with --pdb
// the pattern databases of a partition, or with --automaton the move automaton of every board. A
// valid existing file is "up to date" (loaded, so checked) and kept unless --force; a bad one is a
// data error unless --force, which replaces it.
int cmd_build(Common& c, const BuildFlags& f);
// query START: the optimal number of moves to the goal; exit 1 if unreachable.
int cmd_query(Common& c, const std::optional<std::string>& start_arg);
// query --batch FILE: one answer a line ('-' for stdin); exit 2 if any line was bad, else 1 if any
// pair was unreachable.
int cmd_batch(Common& c, const std::string& file);
// stats: histogram, radius, mean and farthest states (with all_goals, those of every blank class,
// the radius per goal blank cell and the longest optimal solution between any two states).
int cmd_stats(Common& c, bool all_goals);

// solve.cpp
// solve START (or --batch FILE): one instance, or many in parallel as JSON lines.
int cmd_solve(Common& c, const std::optional<std::string>& start_arg, const SolveFlags& f);

// One solve of `p` as `tilespace solve START` makes it, for the command and the Python module:
// planned with the command line's defaults (the exact table where it is at hand), its databases
// prepared through `sources` (`announce`: their loading time on stderr), with --threads, and
// traced when the request asks.
struct SolveOutcome {
  search::SolvePlan plan;
  std::string heuristic;  // as reported ("pdb:7-8" for plain "pdb")
  search::Result result;
  const GoalTable* table = nullptr;  // the goal's table when the plan used it
  std::unique_ptr<search::Trace> trace;  // when the plan asked for one
};
SolveOutcome solve_problem(Common& c, SearchSources& sources, const Problem& p, const search::SolveRequest& request,
                           bool announce);
// The answer of `solve --json`: result_json (report.hpp) with the path, and the tiles' names
// when the problem named them.
nlohmann::json solve_answer_json(const Problem& p, const std::string& algorithm, const std::string& heuristic,
                                 const search::Result& r);

// check.cpp
// Options of `check` and `random` beyond the common ones, as given (checked strictly).
struct CheckFlags {
  std::string junit;
  std::optional<std::string> max_seconds;
};
struct RandomFlags {
  std::optional<std::string> count, depth, seed;
};
// check FILE: verdict per answer line, summary, --junit; exit 1 if any line fails, 2 if one is malformed.
int cmd_check(Common& c, const std::string& file, const CheckFlags& f);

// What a check keeps of one line (for --junit, --json and the Python module: a few dozen bytes,
// so a million lines fit).
struct CheckLine {
  std::uint64_t line = 0;
  Verdict verdict = Verdict::ok;
  int answered = -1, optimal = -1;
  std::string error;    // a malformed line: the message, in English
  std::string message;  // the verdict's reason in English (when kept)
  double seconds = 0;   // to decide it (JUnit's time)
};
struct CheckRun {
  std::vector<CheckLine> lines;  // as kept
  CheckSummary summary;
  std::uint64_t counted = 0, malformed = 0;
  double seconds = 0;
  std::uint64_t undecided() const { return summary.by_verdict[static_cast<int>(Verdict::undecided)]; }
  std::uint64_t failed() const { return summary.failed() - undecided(); }
};
// Which lines a check keeps: none (the text report), with the reasons of failures (--junit), or
// every line with its reason (--json, Python).
enum class Keep { nothing, failures, everything };
// Each line as it is decided, in order: its verdict, or for a malformed line the error (about the
// line's field, not yet about the file's line), and the goal.
using CheckLineSink = std::function<void(const CheckLine&, const LineVerdict*, const InputError*, const State& goal)>;
// The one check of every front end: decides every START<TAB>GOAL<TAB>ANSWER line of `input` (the
// optimum from the goal's table, or proven by pattern-database search within `max_seconds` a
// line); InputError about the file when it holds no answer.
CheckRun run_check(Common& c, const InputText& input, double max_seconds, Keep keep, const CheckLineSink& each = {});
// The answer of `check --json`.
nlohmann::json check_json(const CheckRun& run);
// random: N start states, uniform over the reachable ones or at exactly --depth from the goal.
int cmd_random(Common& c, const RandomFlags& f);

// serve.cpp: the HTTP service and the viewer.
struct ServeFlags {
  std::string host = "127.0.0.1", static_dir, max_memory = "1G";
  int port = 8080;
  int workers = 16;      // threads that answer long requests (searches, statistics, batches)
  int io_threads = 0;    // threads that hold the connections (0: one per two cores)
  int max_connections = 4096;  // open connections at once
  int max_solves = 0;    // searches at once (0: the number of cores)
  std::uint64_t max_nodes = 5'000'000;  // per /api/solve, expansions
  double max_seconds = 10;              // per /api/solve
  std::size_t trace_limit = 20000;      // per /api/solve?trace=1, nodes
  std::string max_request = "64M";      // bytes of a POST /api/query body
};
int cmd_serve(Common& c, const ServeFlags& f);

// lab.cpp
// verify: check solvers against the exhaustive table on every (or a sample of) state.
int cmd_verify(Common& c, const LabFlags& f);
// compare: run algorithms x heuristics on one instance or a suite; print a table.
int cmd_compare(Common& c, const std::optional<std::string>& start_arg, const LabFlags& f);

}  // namespace tilespace::cli
