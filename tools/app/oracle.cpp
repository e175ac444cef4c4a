// The optimum of a pair on any board (oracle.hpp).
#include "app/oracle.hpp"

#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::app {

Oracle::Oracle(SearchSources& sources, int threads, const search::Limits& limits, bool announce,
               const search::PlanContext& context, Metric metric)
    : sources_(sources), threads_(threads), limits_(limits), announce_(announce), context_(context), metric_(metric) {}

bool Oracle::searches(const Board& board) { return !table_can_exist(board); }

search::Limits Oracle::limits(const search::SolveRequest& request, const Board& board,
                              const search::PlanContext& context) {
  for (const search::Option o : {search::Option::max_seconds, search::Option::max_nodes})
    if (request.given(o) && !searches(board))
      throw option_error(std::string(search::option_name(o)),
                         "applies where answers are searched (4x4, 5x5), not on " + board.name() +
                             ", whose answers come from its exact table");
  search::SolveRequest q;
  q.heuristic = "pdb";
  q.max_seconds = request.max_seconds;
  q.max_nodes = request.max_nodes;
  search::PlanContext ctx = context;
  ctx.board = board;
  const search::Limits planned = search::plan_solve(q, ctx).limits;
  search::Limits l;
  l.max_seconds = planned.max_seconds;
  l.max_nodes = planned.max_nodes;
  return l;
}

Distance Oracle::operator()(const State& start, const State& goal) {
  const GoalTable* t = nullptr;
  const search::SolveOptions* o = nullptr;
  {
    const std::lock_guard lock(mu_);
    const std::string key = goal.board.name() + "/" + std::to_string(goal.blank);
    auto it = tables_by_goal_.find(key);
    if (it == tables_by_goal_.end())  // where no table can exist (4x4, 5x5): the search
      it = tables_by_goal_.emplace(key, searches(goal.board) ? nullptr : &sources_.tables(metric_).goal(goal.board, goal.blank)).first;
    t = it->second;
    if (!t) o = &search_for(goal);
  }
  Distance d;
  if (t) {
    const auto n = t->distance(start, goal);
    d.optimum = {n.has_value(), n.value_or(0)};
    return d;
  }
  const search::Result r = search::solve(start, goal, *o);
  d.searched = true;
  d.optimum = {r.solved, r.solved ? r.length() : 0};
  if (!r.solved) d.stopped = r.stopped == search::Stop::None ? search::Stop::Time : r.stopped;
  return d;
}

// The search options of `goal` (the board's default optimal search with pattern databases), made
// once per goal. Called under mu_.
const search::SolveOptions& Oracle::search_for(const State& goal) {
  const std::string key = goal.board.name() + "|" + goal.to_string();
  if (const auto it = options_.find(key); it != options_.end()) return it->second;
  search::SolveRequest q;  // the board's default search: the fastest pattern databases built (pdb::choose_default)
  q.metric = std::string(metric_name(metric_));
  search::PlanContext ctx = context_;
  ctx.default_heuristic.clear();  // a front end's lighter default (the server's) is not a proof's
  ctx.board = goal.board;
  search::SolvePlan plan = search::plan_solve(q, ctx);
  plan.limits.max_seconds = limits_.max_seconds;
  plan.limits.max_nodes = limits_.max_nodes;
  search::SolveOptions o = search::solve_options(plan);
  o.threads = threads_;
  const std::string heuristic = sources_.prepare(plan, goal, o, false);
  if (announce_ && announced_.insert(goal.board.name()).second)
    sources_.note("no exact table can exist for " + goal.board.name() + ": each answer is searched (" +
                   plan.algorithm + ", " + heuristic + ")");
  return options_.emplace(key, o).first->second;
}

}  // namespace tilespace::app
