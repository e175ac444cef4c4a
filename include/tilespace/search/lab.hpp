// The solver lab: reusable solvers, algorithm:heuristic combinations, verification of solvers
// against the exhaustive distance table, and comparisons on one instance.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tilespace/goal_table.hpp"
#include "tilespace/search/solve.hpp"

namespace tilespace::search {

// "astar:manhattan" or "bfs": an algorithm and, where it takes one, a heuristic.
struct Combo {
  std::string algorithm, heuristic;
  SolvePlan plan;  // as planned by parse_combos (what the front end prepares: databases, automaton)
  std::string name() const { return heuristic.empty() ? algorithm : algorithm + ":" + heuristic; }
  // True when the algorithm is optimal with this heuristic (or without one).
  bool claims_optimal() const;
};

// Parses "bfs,astar:manhattan,idastar:linear-conflict" for `board` (a comma before a digit belongs
// to a pattern's tiles: "idastar:pdb:1,2,3/4,5,6,astar"), each entry through the
// registry's planning step (plan_solve: a heuristic-taking algorithm without one gets its
// default; a heuristic given to an algorithm without one is an error). Throws InputError about
// the --algorithms option naming the bad entry.
// In `metric` (the multi-tile one takes the algorithms and heuristics that count its moves).
std::vector<Combo> parse_combos(std::string_view list, const Board& board, Metric metric = Metric::single);
// Every combination that claims optimality on `board` in `metric` (for `verify` without
// --algorithms), planned.
std::vector<Combo> admissible_combos(const Board& board, Metric metric = Metric::single);

// A solver for one combination and goal that keeps its search storage between runs.
// Not thread-safe: one per thread.
class Solver {
 public:
  Solver(const Combo& combo, const State& goal, const SolveOptions& base);
  Result run(const State& start);

 private:
  std::function<Result(const State&)> run_;
  std::shared_ptr<void> keep_;  // the heuristic and search storage the function uses
};

struct VerifyReport {
  Combo combo;
  bool claims_optimal = false;
  std::uint64_t states = 0;     // instances run
  std::uint64_t optimal = 0;    // legal paths of the table's length
  std::uint64_t longer = 0;     // legal paths longer than optimal
  std::uint64_t failed = 0;     // illegal path, wrong end, shorter than the table (impossible), or no solution
  std::uint64_t stopped = 0;    // hit a limit
  std::uint64_t total_excess = 0, max_excess = 0;  // moves beyond optimal, over the longer ones
  std::uint64_t expanded = 0, generated = 0;
  double seconds = 0;           // wall time of this combination
  bool ok() const { return failed == 0 && stopped == 0 && (!claims_optimal || longer == 0); }
};

// Runs `combo` from every state of `ranks` (ranks of the table's ranker; GoalTable::state_of_rank)
// to `goal` (the table's goal blank cell), in parallel on `threads` (0: all cores), and checks
// every path: legal moves, ends at the goal, length against the table.
VerifyReport verify(const GoalTable& table, const State& goal, const Combo& combo, const std::vector<std::uint64_t>& ranks,
                    const SolveOptions& base, int threads);

// The heuristic value of each of `states` for `goal`, with the heuristic of `o` (o.heuristic and
// its sources, o.table and o.pdb, as prepared for a search): what `compare --sample` averages.
// Throws InputError for an unknown heuristic or missing sources.
std::vector<int> heuristic_values(const State& goal, const SolveOptions& o, const std::vector<State>& states);

}  // namespace tilespace::search
