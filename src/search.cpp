#include "tilespace/search/solve.hpp"

#include <cmath>

#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/search/algorithms.hpp"
#include "tilespace/search/heuristics.hpp"
#include "heuristic_dispatch.hpp"

namespace tilespace::search {

const char* stop_name(Stop s) noexcept {
  switch (s) {
    case Stop::Nodes: return "max-nodes";
    case Stop::Time: return "max-seconds";
    case Stop::Memory: return "max-memory";
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

const std::vector<AlgorithmInfo>& algorithm_catalog() {
  static const std::vector<AlgorithmInfo> catalog{
      {"table", true, false, "descent on the exact distance table"},
      {"bfs", true, false, "breadth-first search"},
      {"bibfs", true, false, "bidirectional breadth-first search"},
      {"dfs", false, false, "depth-first search to --depth-limit, cycle check on the path"},
      {"iddfs", true, false, "iterative deepening depth-first search"},
      {"greedy", false, true, "greedy best-first search on h"},
      {"astar", true, true, "A*: best-first on f = g + h"},
      {"wastar", false, true, "weighted A*: f = g + w*h (--weight)"},
      {"idastar", true, true, "IDA*: iterative deepening on f = g + h"},
  };
  return catalog;
}

const AlgorithmInfo* find_algorithm(std::string_view name) noexcept {
  for (const auto& a : algorithm_catalog())
    if (a.name == name) return &a;
  return nullptr;
}

namespace {

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
  const Domain d(goal);
  const std::string& a = o.algorithm;
  if (a == "table") {
    if (!o.table) throw InputError("the table algorithm needs the distance table of the goal");
    Budget budget(o.limits);
    r.path = o.table->descend(start, goal);
    r.solved = !r.path.empty();
    r.expanded = r.path.empty() ? 0 : r.path.size() - 1;
    r.generated = 1;  // the start, as in the searches
    // Each step looks at every neighbour's distance and moves to one a step closer.
    std::uint32_t at = o.trace ? o.trace->root(start.packed(), o.table->distance(start, goal).value_or(0)) : Trace::kNone;
    for (std::size_t i = 0; i + 1 < r.path.size(); ++i) {
      const State& s = r.path[i];
      const std::uint64_t next = r.path[i + 1].packed();
      if (o.trace) o.trace->expand(at);
      std::uint32_t chosen = Trace::kNone;
      const auto& nb = d.board.neighbours(s.blank);
      for (int k = 0; k < nb.count; ++k) {
        ++r.generated;
        if (!o.trace) continue;
        const State n = s.moved(nb.cell[k]);
        const std::uint32_t id = o.trace->node(n.packed(), at, static_cast<int>(i) + 1, o.table->distance(n, goal).value_or(0));
        if (n.packed() == next) chosen = id;
      }
      at = chosen;
    }
    if (o.trace && r.solved) o.trace->solved_at(at);
    r.seconds = budget.elapsed();
  } else if (a == "bfs") {
    r = breadth_first(d, start, o.limits, o.trace);
  } else if (a == "bibfs") {
    r = bidirectional(d, start, o.limits, o.trace);
  } else if (a == "dfs") {
    r = depth_limited(d, start, o.depth_limit, o.limits, o.trace);
  } else if (a == "iddfs") {
    r = iterative_deepening(d, start, o.depth_limit, o.limits, o.trace);
  } else {
    const int w100 = static_cast<int>(std::lround(o.weight * 100));
    r = with_heuristic(d, o.heuristic, o.table, [&](const auto& hp) {
      const auto& h = *hp;
      if (a == "greedy") return best_first(d, h, start, 0, 1, o.limits, o.trace);
      if (a == "astar") return best_first(d, h, start, 1, 1, o.limits, o.trace);
      if (a == "wastar") return best_first(d, h, start, 100, w100, o.limits, o.trace);
      return ida_star(d, h, start, o.limits, o.trace);
    });
  }
  fill_moves(r);
  return r;
}

}  // namespace tilespace::search
