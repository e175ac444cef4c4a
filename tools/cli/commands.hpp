// The subcommands of the `tilespace` command, one function each, called by main() after
// parsing. Each returns the exit code (errors.hpp) or throws; main() maps exceptions to codes.
#pragma once

#include <cstdint>
#include <string>

#include "cli/common.hpp"

namespace tilespace::cli {

// Options of `solve` beyond the common ones.
struct SolveFlags {
  std::string algorithm, heuristic = "manhattan", max_memory, result, pattern, batch;
  bool animate = false;
  int delay_ms = 400;
  double weight = 2.0, max_seconds = 0;
  int depth_limit = 50;
  std::uint64_t max_nodes = 0;
};

// Options of `verify` and `compare` beyond the common ones.
struct LabFlags {
  std::string algorithms, suite;
  std::uint64_t sample = 0, seed = 1;
  bool csv = false, md = false;
  double max_seconds = 0;
  std::uint64_t max_nodes = 0;
};

// tables.cpp
// build: the distance table for the goal (or, with all_goals, one per blank cell).
int cmd_build(Common& c, bool all_goals);
// query START: the optimal number of moves to the goal; exit 1 if unreachable.
int cmd_query(Common& c, const std::string& start_arg);
// query --batch FILE: one answer a line ('-' for stdin); exit 2 if any line was bad.
int cmd_batch(Common& c, const std::string& file);
// stats: histogram, radius, mean and farthest states (with all_goals, the radius per goal).
int cmd_stats(Common& c, bool all_goals);

// solve.cpp
// solve START (or --batch FILE): one instance, or many in parallel as JSON lines.
int cmd_solve(Common& c, const std::string& start_arg, const SolveFlags& f);

// lab.cpp
// verify: check solvers against the exhaustive table on every (or a sample of) state.
int cmd_verify(Common& c, const LabFlags& f);
// compare: run algorithms x heuristics on one instance or a suite; print a table.
int cmd_compare(Common& c, const std::string& start_arg, const LabFlags& f);

}  // namespace tilespace::cli
