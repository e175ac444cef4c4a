// The optimal length of a pair on any board, for every front end that answers "how far": `query`
// and its batches, `check`, the server's /api/query, Python's distance(). From the goal's exact
// table where one can exist (table_can_exist: boards of up to 16 cells but 4x4), else proven by
// the board's default optimal search with pattern databases and the move automaton, planned and
// prepared as `tilespace solve` plans and prepares it (the same databases, the one-minute rule).
#pragma once

#include <map>
#include <mutex>
#include <set>
#include <string>

#include "app/common.hpp"
#include "app/solve.hpp"
#include "tilespace/check.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/state.hpp"

namespace tilespace::app {

// One pair's optimum as an oracle knows it: `known` (exact) or not decided, and why not.
struct Distance {
  Optimum optimum;
  search::Stop stopped = search::Stop::None;  // what stopped the search when it is not known
  bool searched = false;                      // proven by search (no table can exist)
};

class Oracle {
 public:
  // Tables, databases and the automaton come from `sources` (which must outlive the oracle);
  // `limits`: the search's --max-seconds and --max-nodes (0: none), other limits from `context`
  // (the front end's defaults and ceilings). `announce`: once per board searched, a note on
  // stderr that each answer is searched.
  // `metric`: how the answers count moves (the multi-tile metric's searched boards: 4x4 with its
  // multi-tile pattern databases, require_answer_metric).
  Oracle(SearchSources& sources, int threads, const search::Limits& limits, bool announce = false,
         const search::PlanContext& context = default_plan_context(), Metric metric = Metric::single);

  // The optimum of a pair that is reachable (solvable(start, goal)): from the goal's table, or
  // searched within the limits. Safe to call from several threads.
  Distance operator()(const State& start, const State& goal);
  // Whether answers on `board` are searched (no exact table can exist).
  static bool searches(const Board& board);
  // The limits of `request` (its max_seconds and max_nodes; the rest is ignored), checked as
  // `solve` checks them on `board` under `context`; InputError naming the option when out of
  // range, or when given on a board whose answers are not searched (it would do nothing there).
  static search::Limits limits(const search::SolveRequest& request, const Board& board,
                               const search::PlanContext& context = default_plan_context());

 private:
  const search::SolveOptions& search_for(const State& goal);

  SearchSources& sources_;
  int threads_;
  search::Limits limits_;
  bool announce_;
  search::PlanContext context_;
  Metric metric_;
  std::mutex mu_;  // guards the maps and the table store
  std::map<std::string, const GoalTable*> tables_by_goal_;
  std::map<std::string, search::SolveOptions> options_;
  std::set<std::string> announced_;  // boards whose note is out
};

}  // namespace tilespace::app
