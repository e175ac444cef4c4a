// The subcommands of the `tilespace` command, one function each, called by main() after
// parsing. Each returns the exit code (errors.hpp) or throws; main() maps exceptions to codes.
// They are written on the application layer (tools/app/); `serve` is the server's (tools/server/).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/terminal.hpp"
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

// A distribution as `stats` prints it: the labelled lines (board, goal, states, radius, then
// `mean` or `seconds` when given, then the metric when it is multi-tile), every layer's size, and
// the states at the radius (the first 20 of `farthest`, and how many more). `stats` and
// `build --count-only` print theirs with it.
struct DistributionText {
  const State& goal;
  Metric metric;
  std::uint64_t states;
  const std::vector<std::uint64_t>& histogram;
  const std::vector<State>& farthest;
  std::optional<double> mean, seconds;
};
void print_distribution(const std::string& lang, const DistributionText& d);

// Options of `build` beyond the common ones.
struct BuildFlags {
  bool all_goals = false;
  int bits = 0;                   // 0: automatic (8 where the byte engine fits, else 1), 8, 2 or 1
  double checkpoint_every = 300;  // seconds between checkpoints of a two-bit build (0: none)
  bool checkpoint_given = false, resume = false;
  std::string pdb;                // the pattern databases of this partition instead of a distance table
  std::string zpdb;               // the zero-aware pattern databases of this partition
  bool force = false;             // rebuild files that exist (valid or not)
  bool automaton = false;         // the move automaton (search/automaton.hpp) instead of a table
  std::optional<std::string> automaton_depth;  // its depth, as given (checked strictly)
  bool threads_given = false;     // --threads was given (it does not apply to the automaton)
  std::optional<std::string> max_memory;  // the memory the build may use (memory.hpp memory_budget)
  bool count_only = false;        // count the layers with the two-bit engine; no table is written
};

// build.cpp, query.cpp, stats.cpp
// build: the distance table for the goal (or, with all_goals, one per blank class), with --pdb
// the pattern databases of a partition, or with --automaton the move automaton of every board. A
// valid existing file is "up to date" (loaded, so checked) and kept unless --force; a bad one is a
// data error unless --force, which replaces it.
int cmd_build(Common& c, const BuildFlags& f);
// query START: the optimal number of moves to the goal (no START: read from standard input, as
// solve and compare read it); exit 1 if unreachable. On 4x4 and 5x5 (no
// exact table can exist) the answer is searched (app/oracle.hpp) within `limits` (max_seconds,
// max_nodes); exit 4 when a limit stops it.
int cmd_query(Common& c, const std::optional<std::string>& start_arg, const search::SolveRequest& limits);
// query --batch FILE: one answer a line ('-' for stdin); exit 2 if any line was bad, else 4 if a
// limit stopped a searched line, else 1 if any pair was unreachable.
int cmd_batch(Common& c, const std::string& file, const search::SolveRequest& limits);
// stats: histogram, radius, mean and farthest states (with all_goals, those of every blank class,
// the radius per goal blank cell and the longest optimal solution between any two states).
int cmd_stats(Common& c, bool all_goals);

// solve.cpp
// solve START (or --batch FILE): one instance, or many in parallel as JSON lines.
int cmd_solve(Common& c, const std::optional<std::string>& start_arg, const SolveFlags& f);

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

// random: N start states, uniform over the reachable ones or at exactly --depth from the goal.
int cmd_random(Common& c, const RandomFlags& f);

// lab.cpp
// verify: check solvers against the exhaustive table on every (or a sample of) state.
int cmd_verify(Common& c, const LabFlags& f);
// compare: run algorithms x heuristics on one instance or a suite; print a table.
int cmd_compare(Common& c, const std::optional<std::string>& start_arg, const LabFlags& f);

}  // namespace tilespace::cli
