// The depth-first searches (algorithms.hpp), which store only the current path: `depth_limited`,
// a DFS to a depth limit with a cycle check on that path (not optimal), and `iterative_deepening`,
// depth_limited with limits 0, 1, 2, ... (optimal).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tilespace/search/concepts.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"
#include "tilespace/state.hpp"

namespace tilespace::search {

namespace detail {

// Depth-first search below `path.back()` to `limit` moves; cycle check on the current path.
// Returns true when the goal is found (path then ends with it), false otherwise; sets
// r.stopped when a limit is hit.
// `tr`/`tid`: the trace and this node's id in it (kTraced only: untraced runs compile without it).
// `prev`: the blank's cell before the last move (-1 at the root); in the multi-tile metric no move
// goes along the last move's line (two such moves make one or none: no shortest path has them).
template <bool kTraced, SearchDomain D>
bool dfs(const D& d, std::vector<typename D::Word>& path, int blank, int prev, int limit, Result& r, Budget& budget,
         Trace* tr, std::uint32_t tid) {
  using W = typename D::Word;
  const W p = path.back();
  if (p == d.goal_packed) {
    if constexpr (kTraced) tr->solved_at(tid);
    return true;
  }
  if (static_cast<int>(path.size()) - 1 >= limit) return false;
  if (!budget.step(r, path.capacity() * sizeof(W))) return false;
  ++r.expanded;
  if constexpr (kTraced) tr->expand(tid);
  const int g = static_cast<int>(path.size());  // of the children
  const auto& nb = d.moves(blank);
  for (int k = 0; k < nb.count; ++k) {
    if (d.multi() && d.continues_line(prev, blank, nb.horizontal[k])) continue;
    const W q = d.slide(p, blank, nb.cell[k]);
    ++r.generated;
    bool on_path = false;  // no early exit: the compiler vectorises the scan
    for (const W x : path) on_path |= x == q;
    std::uint32_t cid = Trace::kNone;
    if constexpr (kTraced) cid = tr->node(D::trace_word(q), tid, g, 0, on_path);
    if (on_path) continue;
    path.push_back(q);
    r.peak_open = std::max<std::uint64_t>(r.peak_open, path.size());
    if (dfs<kTraced>(d, path, nb.cell[k], blank, limit, r, budget, tr, cid)) return true;
    path.pop_back();
    if (r.stopped != Stop::None) return false;
  }
  return false;
}

// dfs from the root, traced or not.
template <SearchDomain D>
bool dfs_root(const D& d, std::vector<typename D::Word>& path, int blank, int limit, Result& r, Budget& budget,
              Trace* tr) {
  if (tr) return dfs<true>(d, path, blank, -1, limit, r, budget, tr, tr->root(D::trace_word(path.back()), 0));
  return dfs<false>(d, path, blank, -1, limit, r, budget, nullptr, Trace::kNone);
}

template <SearchDomain D>
void finish_dfs(const D& d, const std::vector<typename D::Word>& path, Result& r) {
  for (const auto p : path) r.path.push_back(d.state(p));
  r.solved = true;
}

}  // namespace detail

template <SearchDomain D>
Result depth_limited(const D& d, const State& start, int limit, const Limits& limits, Trace* tr = nullptr) {
  Result r;
  Budget budget(limits);
  std::vector<typename D::Word> path{D::pack(start)};
  path.reserve(static_cast<std::size_t>(limit) + 1);
  r.generated = 1;
  if (detail::dfs_root(d, path, start.blank, limit, r, budget, tr)) detail::finish_dfs(d, path, r);
  r.seconds = budget.elapsed();
  return r;
}

template <SearchDomain D>
Result iterative_deepening(const D& d, const State& start, int max_limit, const Limits& limits, Trace* tr = nullptr) {
  Result r;
  Budget budget(limits);
  std::vector<typename D::Word> path;
  path.reserve(static_cast<std::size_t>(max_limit) + 1);
  r.generated = 1;
  for (int limit = 0; limit <= max_limit && r.stopped == Stop::None; ++limit) {
    path.assign(1, D::pack(start));
    if (tr && limit > 0) tr->next_iteration();
    if (detail::dfs_root(d, path, start.blank, limit, r, budget, tr)) {
      detail::finish_dfs(d, path, r);
      break;
    }
  }
  r.seconds = budget.elapsed();
  return r;
}

}  // namespace tilespace::search
