// Breadth-first search (algorithms.hpp): the goal test on generation, every generated state stored
// (CLOSED); optimal. `BreadthFirst` keeps its storage between runs (lab.hpp's solvers).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tilespace/search/algorithms/common.hpp"
#include "tilespace/search/concepts.hpp"
#include "tilespace/search/node_map.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"
#include "tilespace/state.hpp"

namespace tilespace::search {

// Breadth-first search; keeps its storage between runs (verify runs it thousands of times).
template <SearchDomain D>
class BreadthFirst {
 public:
  using W = typename D::Word;
  explicit BreadthFirst(const D& d) : d_(d) {}

  Result run(const State& start, const Limits& limits, Trace* tr = nullptr) {
    Result r;
    Budget budget(limits);
    nodes_.clear();
    seen_.clear();
    const W s = D::pack(start);
    nodes_.push_back({s, NodeMap::kAbsent, 0, static_cast<std::uint8_t>(start.blank), 0});
    seen_.insert(s, 0);
    if (tr) tid_.assign(1, tr->root(D::trace_word(s), 0));
    r.generated = 1;
    if (s == d_.goal_packed) {
      detail::path_from(d_, nodes_, 0, r);
      if (tr) tr->solved_at(tid_[0]);
    }
    for (std::size_t head = 0; !r.solved && head < nodes_.size(); ++head) {
      r.peak_open = std::max<std::uint64_t>(r.peak_open, nodes_.size() - head);
      if (!budget.step(r, bytes())) break;
      if ((nodes_.size() + kMaxMoves > nodes_.capacity() || !seen_.fits(kMaxMoves)) &&
          !make_room(r, limits.max_bytes, tr != nullptr)) {
        r.stopped = Stop::Memory;
        break;
      }
      ++r.expanded;
      const BasicNode<W> n = nodes_[head];
      if (tr) tr->expand(tid_[head]);
      const auto& nb = d_.moves(n.blank);
      for (int k = 0; k < nb.count; ++k) {
        const W p = d_.slide(n.packed, n.blank, nb.cell[k]);
        ++r.generated;
        const auto idx = static_cast<std::uint32_t>(nodes_.size());
        if (seen_.insert(p, idx) != idx) {
          if (tr) tr->node(D::trace_word(p), tid_[head], n.g + 1, 0, true);
          continue;
        }
        nodes_.push_back({p, static_cast<std::uint32_t>(head), static_cast<std::uint16_t>(n.g + 1), nb.cell[k], 0});
        if (tr) tid_.push_back(tr->node(D::trace_word(p), tid_[head], n.g + 1, 0));
        if (p == d_.goal_packed) {
          detail::path_from(d_, nodes_, idx, r);
          if (tr) tr->solved_at(tid_[idx]);
          break;
        }
      }
    }
    r.closed = seen_.size();
    r.seconds = budget.elapsed();
    return r;
  }

 private:
  std::uint64_t bytes() const noexcept { return detail::store_bytes(nodes_, seen_) + tid_.capacity() * 4; }
  // Room for one expansion's children within `limit` (common.hpp); false when it does not fit.
  bool make_room(Result& r, std::uint64_t limit, bool traced) {
    const std::size_t need = nodes_.size() + kMaxMoves;
    if (need > nodes_.capacity()) {
      const std::size_t c = detail::grown_capacity(need, 2 * nodes_.capacity(), bytes(),
                                                   sizeof(BasicNode<W>) + (traced ? 4 : 0), limit, r);
      if (!c) return false;
      nodes_.reserve(c);
      if (traced) tid_.reserve(c);
    }
    return seen_.fits(kMaxMoves) || detail::map_room(seen_, kMaxMoves, bytes(), limit, r);
  }

  const D& d_;
  std::vector<BasicNode<W>> nodes_;
  BasicNodeMap<W> seen_;
  std::vector<std::uint32_t> tid_;  // trace id of each node (only when tracing)
};

template <SearchDomain D>
Result breadth_first(const D& d, const State& start, const Limits& limits, Trace* tr = nullptr) {
  return BreadthFirst<D>(d).run(start, limits, tr);
}

}  // namespace tilespace::search
