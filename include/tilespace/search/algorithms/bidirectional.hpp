// Bidirectional breadth-first search (algorithms.hpp): whole layers from both ends, the side with
// the smaller frontier first, until they meet; optimal.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "tilespace/search/algorithms/common.hpp"
#include "tilespace/search/concepts.hpp"
#include "tilespace/search/node_map.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"
#include "tilespace/state.hpp"

namespace tilespace::search {

// Traced as two trees (roots: the start, then the goal); the solution runs down the first to the
// meeting state, then up the second.
template <SearchDomain D>
Result bidirectional(const D& d, const State& start, const Limits& limits, Trace* tr = nullptr) {
  using W = typename D::Word;
  Result r;
  Budget budget(limits);
  struct Side {
    std::vector<BasicNode<W>> nodes;
    BasicNodeMap<W> seen;
    std::size_t layer_begin = 0;
    std::vector<std::uint32_t> tid;  // trace ids (only when tracing)
  };
  Side side[2];
  const auto bytes = [&] {
    return detail::store_bytes(side[0].nodes, side[0].seen) + detail::store_bytes(side[1].nodes, side[1].seen) +
           (side[0].tid.capacity() + side[1].tid.capacity()) * 4;
  };
  // Room for one expansion's children on side `me` within the memory limit (common.hpp).
  const auto make_room = [&](Side& me) {
    const std::size_t need = me.nodes.size() + kMaxMoves;
    if (need > me.nodes.capacity()) {
      const std::size_t c = detail::grown_capacity(need, 2 * me.nodes.capacity(), bytes(),
                                                   sizeof(BasicNode<W>) + (tr ? 4 : 0), limits.max_bytes, r);
      if (!c) return false;
      me.nodes.reserve(c);
      if (tr) me.tid.reserve(c);
    }
    return me.seen.fits(kMaxMoves) || detail::map_room(me.seen, kMaxMoves, bytes(), limits.max_bytes, r);
  };
  const W ends[2] = {D::pack(start), d.goal_packed};
  const int blanks[2] = {start.blank, d.goal.blank};
  for (int s = 0; s < 2; ++s) {
    side[s].nodes.push_back({ends[s], NodeMap::kAbsent, 0, static_cast<std::uint8_t>(blanks[s]), 0});
    side[s].seen.insert(ends[s], 0);
    if (tr) side[s].tid.push_back(tr->root(D::trace_word(ends[s]), 0));
  }
  r.generated = 2;
  std::uint32_t meet[2] = {NodeMap::kAbsent, NodeMap::kAbsent};
  int best = ends[0] == ends[1] ? 0 : -1;
  if (best == 0) meet[0] = meet[1] = 0;
  bool stopped = false;
  while (best < 0 && !stopped) {
    // Expand the whole current layer of the side with the smaller frontier.
    const int s = (side[0].nodes.size() - side[0].layer_begin) <= (side[1].nodes.size() - side[1].layer_begin) ? 0 : 1;
    Side& me = side[s];
    Side& other = side[1 - s];
    const std::size_t end = me.nodes.size();
    if (me.layer_begin == end) break;  // cannot happen for solvable pairs
    for (std::size_t i = me.layer_begin; i < end && !stopped; ++i) {
      if (!budget.step(r, bytes())) {
        stopped = true;
        break;
      }
      if ((me.nodes.size() + kMaxMoves > me.nodes.capacity() || !me.seen.fits(kMaxMoves)) && !make_room(me)) {
        r.stopped = Stop::Memory;
        stopped = true;
        break;
      }
      ++r.expanded;
      const BasicNode<W> n = me.nodes[i];
      if (tr) tr->expand(me.tid[i]);
      const auto& nb = d.moves(n.blank);
      for (int k = 0; k < nb.count; ++k) {
        const W p = d.slide(n.packed, n.blank, nb.cell[k]);
        ++r.generated;
        const auto idx = static_cast<std::uint32_t>(me.nodes.size());
        if (me.seen.insert(p, idx) != idx) {
          if (tr) tr->node(D::trace_word(p), me.tid[i], n.g + 1, 0, true);
          continue;
        }
        me.nodes.push_back({p, static_cast<std::uint32_t>(i), static_cast<std::uint16_t>(n.g + 1), nb.cell[k], 0});
        if (tr) me.tid.push_back(tr->node(D::trace_word(p), me.tid[i], n.g + 1, 0));
        if (const auto j = other.seen.find(p); j != NodeMap::kAbsent) {
          const int total = n.g + 1 + other.nodes[j].g;
          if (best < 0 || total < best) {
            best = total;
            meet[s] = idx;
            meet[1 - s] = j;
          }
        }
      }
    }
    me.layer_begin = end;
    r.peak_open = std::max<std::uint64_t>(
        r.peak_open, (side[0].nodes.size() - side[0].layer_begin) + (side[1].nodes.size() - side[1].layer_begin));
  }
  if (best >= 0 && !stopped) {
    Result half;
    detail::path_from(d, side[0].nodes, meet[0], half);  // start .. meeting state
    for (std::uint32_t i = side[1].nodes[meet[1]].parent; i != NodeMap::kAbsent; i = side[1].nodes[i].parent)
      half.path.push_back(d.state(side[1].nodes[i].packed));
    r.path = std::move(half.path);
    r.solved = true;
    if (tr) {
      std::vector<std::uint32_t> ids;
      bool whole = true;
      for (std::uint32_t i = meet[0]; i != NodeMap::kAbsent; i = side[0].nodes[i].parent) {
        ids.push_back(side[0].tid[i]);
        whole &= side[0].tid[i] != Trace::kNone;
      }
      std::reverse(ids.begin(), ids.end());
      for (std::uint32_t i = side[1].nodes[meet[1]].parent; i != NodeMap::kAbsent; i = side[1].nodes[i].parent) {
        ids.push_back(side[1].tid[i]);
        whole &= side[1].tid[i] != Trace::kNone;
      }
      tr->set_solution(whole ? std::move(ids) : std::vector<std::uint32_t>{});
    }
  }
  r.closed = side[0].seen.size() + side[1].seen.size();
  r.seconds = budget.elapsed();
  return r;
}

}  // namespace tilespace::search
