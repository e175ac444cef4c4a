// One entry point for every solver, chosen by name at run time (the only dynamic dispatch:
// the chosen template is then instantiated for the chosen heuristic).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tilespace/goal_table.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"

namespace tilespace::pdb {
class PdbHeuristic;
}

namespace tilespace::search {

class MoveAutomaton;

// What heuristics are made from besides the goal: the exact table ("exact"), the pattern
// databases ("pdb", "pdb:SPEC").
struct HeuristicSources {
  const GoalTable* table = nullptr;
  const pdb::PdbHeuristic* pdb = nullptr;
};

struct SolveOptions {
  std::string algorithm = "astar";
  std::string heuristic = "manhattan";
  double weight = 2.0;    // wastar: f = g + weight * h (two decimals)
  int depth_limit = 50;   // dfs: the limit; iddfs: the largest limit tried
  Limits limits;
  const GoalTable* table = nullptr;  // for "table" and the "exact" heuristic: the goal's (TableStore::goal)
  Trace* trace = nullptr;  // records the search tree when set (trace.hpp); "table" records its descent
  const pdb::PdbHeuristic* pdb = nullptr;     // for "pdb" heuristics: the databases of the goal
  const MoveAutomaton* automaton = nullptr;   // idastar, aidastar: prune the move strings it rejects
  int threads = 1;                            // aidastar: threads of the IDA* phase (0: all cores)
  Metric metric = Metric::single;             // how moves are counted; the table's must be the same
};

// The options of a validated plan (registry.hpp); the table and the trace are the caller's.
SolveOptions solve_options(const SolvePlan& plan);

// Solves start -> goal on any board up to 5x5 (domain.hpp). Unreachable pairs are answered by
// parity without search (Result::unreachable). limits.max_bytes counts the tables the search
// reads (the pattern databases, the distance table, the move automaton given in `options`, and the
// walking-distance tables it builds) besides its nodes, and so does the peak_bytes it reports.
// aidastar takes limits.max_bytes as A*'s memory (1 GiB when 0), not as a limit. Throws InputError for an unknown algorithm or heuristic,
// "table"/"exact" without a table (or above 16 cells), "pdb" without databases, a trace above 16
// cells.
Result solve(const State& start, const State& goal, const SolveOptions& options);

}  // namespace tilespace::search
