// Table descent (algorithms.hpp): no search, the goal's exact distance table (goal_table.hpp) read
// along one optimal path; packed boards (Domain) only.
#pragma once

#include <cstdint>

#include "tilespace/goal_table.hpp"
#include "tilespace/search/domain.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"
#include "tilespace/state.hpp"

namespace tilespace::search {

// Descent on the goal's exact distance table (`table` answers d.goal by relabelling, and through a
// symmetry when it is another cell's: goal_table.hpp). Records, when traced, every neighbour
// looked at with its exact distance as h.
inline Result table_descent(const Domain& d, const GoalTable& table, const State& start, const Limits& limits,
                            Trace* trace) {
  Result r;
  Budget budget(limits);
  r.path = table.descend(start, d.goal);
  r.solved = !r.path.empty();
  r.expanded = r.path.empty() ? 0 : r.path.size() - 1;
  r.generated = 1;  // the start, as in the searches
  std::uint32_t at = trace ? trace->root(start.packed(), table.distance(start, d.goal).value_or(0)) : Trace::kNone;
  for (std::size_t i = 0; i + 1 < r.path.size(); ++i) {
    const State& s = r.path[i];
    const std::uint64_t next = r.path[i + 1].packed();
    if (trace) trace->expand(at);
    std::uint32_t chosen = Trace::kNone;
    const auto& nb = d.moves(s.blank);
    for (int k = 0; k < nb.count; ++k) {
      ++r.generated;
      if (!trace) continue;
      const State n = s.slid(nb.cell[k]);
      const std::uint32_t id = trace->node(n.packed(), at, static_cast<int>(i) + 1, table.distance(n, d.goal).value_or(0));
      if (n.packed() == next) chosen = id;
    }
    at = chosen;
  }
  if (trace && r.solved) trace->solved_at(at);
  r.seconds = budget.elapsed();
  return r;
}

}  // namespace tilespace::search
