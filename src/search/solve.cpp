#include "tilespace/search/solve.hpp"

#include <cmath>

#include "run.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"

namespace tilespace::search {

const char* stop_name(Stop s) noexcept {
  switch (s) {
    case Stop::Nodes: return "max-nodes";
    case Stop::Time: return "max-seconds";
    case Stop::Memory: return "max-memory";
    case Stop::Depth: return "depth-limit";
    default: return "";
  }
}

void fill_moves(Result& r, Metric metric) { r.moves = path_moves(r.path, metric); }

SolveOptions solve_options(const SolvePlan& plan) {
  SolveOptions o;
  o.algorithm = plan.algorithm;
  o.heuristic = plan.heuristic.empty() ? "manhattan" : plan.heuristic;  // unused by uninformed ones
  o.weight = plan.weight;
  o.depth_limit = plan.depth_limit;
  o.limits = plan.limits;
  o.metric = plan.metric;
  return o;
}

Result solve(const State& start, const State& goal, const SolveOptions& o) {
  const AlgorithmInfo* alg = find_algorithm(o.algorithm);
  if (!alg) throw InputError("unknown algorithm '" + o.algorithm + "'");
  if (alg->uses_heuristic && !find_heuristic(o.heuristic)) throw InputError("unknown heuristic '" + o.heuristic + "'");
  if (!(start.board == goal.board)) throw InputError("start and goal are on different boards");
  if (o.depth_limit < 0 || o.depth_limit > 1000) throw InputError("depth limit must be between 0 and 1000");
  if (!(o.weight >= 1.0 && o.weight <= 100.0)) throw InputError("weight must be between 1 and 100");

  Result r;
  r.metric = o.metric;
  if (!solvable(start, goal)) {
    r.unreachable = true;
    return r;
  }
  r = with_domain(goal, [&](const auto& d) { return detail::run(d, start, o); }, o.metric);
  r.metric = o.metric;
  fill_moves(r, o.metric);
  return r;
}

}  // namespace tilespace::search
