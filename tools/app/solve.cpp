// One solve, as every front end makes it (solve.hpp).
#include "app/solve.hpp"

#include "app/report.hpp"
#include "tilespace/search/solve.hpp"

namespace tilespace::app {

using nlohmann::json;

search::PlanContext default_plan_context() {
  search::PlanContext ctx;
  ctx.default_max_bytes = default_memory_limit();
  ctx.default_hybrid_bytes = default_hybrid_memory();
  return ctx;
}

Metric request_metric(const search::SolveRequest& request) {
  return request.metric ? parse_metric(*request.metric).value_or(Metric::single) : Metric::single;
}

SolveOutcome solve_problem(Common& c, SearchSources& sources, const Problem& p, const search::SolveRequest& request,
                           const SolveSettings& settings) {
  auto step = [&](SolveStep s) {
    if (settings.step) *settings.step = s;
  };
  step(SolveStep::planning);
  SolveOutcome out;
  search::PlanContext ctx = settings.context;
  ctx.board = p.goal.board;
  ctx.table_available = sources.table_at_hand(p.goal.board, p.goal.blank, request_metric(request));  // a 2x7 table once built
  out.plan = search::plan_solve(request, ctx);
  const State& s = *p.start;
  search::SolveOptions o = search::solve_options(out.plan);
  o.threads = c.threads;
  out.heuristic = out.plan.heuristic;
  step(SolveStep::preparing);
  if (solvable(s, p.goal)) out.heuristic = sources.prepare(out.plan, p.goal, o, settings.announce);
  if (out.plan.trace) {
    out.trace = std::make_unique<search::Trace>(out.plan.trace_limit);
    o.trace = out.trace.get();
  }
  out.table = o.table;
  if (settings.before_search) settings.before_search();
  step(SolveStep::searching);
  out.result = search::solve(s, p.goal, o);
  return out;
}

json solve_answer_json(const Problem& p, const std::string& algorithm, const std::string& heuristic,
                       const search::Result& r) {
  json j = result_json(*p.start, p.goal, algorithm, heuristic, r);
  j["path"] = path_json(r);
  if (!p.labels.names.empty() && !p.labels.numeric()) j["labels"] = p.labels.names;
  return j;
}

}  // namespace tilespace::app
