// One entry point for every solver, chosen by name at run time (the only dynamic dispatch:
// the chosen template is then instantiated for the chosen heuristic).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tilespace/distance_table.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"

namespace tilespace::search {

struct SolveOptions {
  std::string algorithm = "astar";
  std::string heuristic = "manhattan";
  double weight = 2.0;    // wastar: f = g + weight * h (two decimals)
  int depth_limit = 50;   // dfs: the limit; iddfs: the largest limit tried
  Limits limits;
  const DistanceTable* table = nullptr;  // for "table" and the "exact" heuristic: the goal's table
  Trace* trace = nullptr;  // records the search tree when set (trace.hpp); "table" records its descent
};

// The options of a validated plan (registry.hpp); the table and the trace are the caller's.
SolveOptions solve_options(const SolvePlan& plan);

// Solves start -> goal. Unreachable pairs are answered by parity without search
// (Result::unreachable). Throws InputError for an unknown algorithm or heuristic, a heuristic
// given to an algorithm without one, or "table"/"exact" without a table.
Result solve(const State& start, const State& goal, const SolveOptions& options);

}  // namespace tilespace::search
