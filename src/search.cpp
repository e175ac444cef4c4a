#include "tilespace/search/solve.hpp"

#include <cmath>

#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/search/algorithms.hpp"
#include "tilespace/search/automaton.hpp"
#include "tilespace/search/heuristics.hpp"
#include "heuristic_dispatch.hpp"

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

void fill_moves(Result& r) {
  r.moves.clear();
  for (std::size_t i = 1; i < r.path.size(); ++i) {
    const int d = r.path[i].blank - r.path[i - 1].blank, w = r.path[i].board.width();
    r.moves += d == -w ? 'U' : d == w ? 'D' : d == -1 ? 'L' : 'R';
  }
}



SolveOptions solve_options(const SolvePlan& plan) {
  SolveOptions o;
  o.algorithm = plan.algorithm;
  o.heuristic = plan.heuristic.empty() ? "manhattan" : plan.heuristic;  // unused by uninformed ones
  o.weight = plan.weight;
  o.depth_limit = plan.depth_limit;
  o.limits = plan.limits;
  return o;
}

namespace {

template <class D>
Result run(const D& d, const State& start, const SolveOptions& o) {
  const std::string& a = o.algorithm;
  if constexpr (!D::kPacked) {
    if (o.trace) throw option_error("trace", "traces are recorded on boards of at most 16 cells");
  }
  if (a == "table") {
    if constexpr (D::kPacked) {
      if (!o.table) throw InputError("the table algorithm needs the distance table of the goal");
      return table_descent(d, *o.table, start, o.limits, o.trace);
    } else {
      throw InputError("the table algorithm needs a distance table: boards of at most 16 cells");
    }
  }
  if (a == "bfs") return breadth_first(d, start, o.limits, o.trace);
  if (a == "bibfs") return bidirectional(d, start, o.limits, o.trace);
  if (a == "dfs") return depth_limited(d, start, o.depth_limit, o.limits, o.trace);
  if (a == "iddfs") return iterative_deepening(d, start, o.depth_limit, o.limits, o.trace);
  const int w100 = static_cast<int>(std::lround(o.weight * 100));
  return with_heuristic(d, o.heuristic, HeuristicSources{o.table, o.pdb}, [&](const auto& hp) {
    const auto& h = *hp;
    if (a == "greedy") return best_first(d, h, start, 0, 1, o.limits, o.trace);
    if (a == "astar") return best_first(d, h, start, 1, 1, o.limits, o.trace);
    if (a == "wastar") return best_first(d, h, start, 100, w100, o.limits, o.trace);
    if (a == "aidastar") {
      if (o.trace) throw option_error("trace", "is not recorded by aidastar");
      Limits limits = o.limits;
      const HybridOptions hybrid_options{limits.max_bytes, o.threads};
      limits.max_bytes = 0;
      return hybrid(d, h, start, limits, hybrid_options, o.automaton);
    }
    return ida_star(d, h, start, o.limits, o.trace, o.automaton);
  });
}

}  // namespace

Result solve(const State& start, const State& goal, const SolveOptions& o) {
  const AlgorithmInfo* alg = find_algorithm(o.algorithm);
  if (!alg) throw InputError("unknown algorithm '" + o.algorithm + "'");
  if (alg->uses_heuristic && !find_heuristic(o.heuristic)) throw InputError("unknown heuristic '" + o.heuristic + "'");
  if (!(start.board == goal.board)) throw InputError("start and goal are on different boards");
  if (o.depth_limit < 0 || o.depth_limit > 1000) throw InputError("depth limit must be between 0 and 1000");
  if (!(o.weight >= 1.0 && o.weight <= 100.0)) throw InputError("weight must be between 1 and 100");

  Result r;
  if (!solvable(start, goal)) {
    r.unreachable = true;
    return r;
  }
  const std::string& a = o.algorithm;
  r = with_domain(goal, [&](const auto& d) { return run(d, start, o); });
  // dfs and iddfs that exhaust their depth limit on a solvable pair stopped at a limit.
  if ((a == "dfs" || a == "iddfs") && !r.solved && r.stopped == Stop::None) r.stopped = Stop::Depth;
  fill_moves(r);
  return r;
}

}  // namespace tilespace::search
