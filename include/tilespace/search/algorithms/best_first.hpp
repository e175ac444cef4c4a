// Best-first search (algorithms.hpp): OPEN ordered by wg*g + wh*h, which makes it A* (1, 1),
// weighted A* (100, 100w) or greedy (0, 1). `BestFirst` keeps its storage between runs (lab.hpp's
// solvers) and is the A* phase of the hybrid search (hybrid.hpp: its store limit and frontier).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "tilespace/search/algorithms/common.hpp"
#include "tilespace/search/concepts.hpp"
#include "tilespace/search/node_map.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"
#include "tilespace/state.hpp"

namespace tilespace::search {

// Best-first search with storage that is kept between runs (no allocation once warm): OPEN is a
// bucket queue indexed by the integer key, each bucket a stack. A cheaper path to a known state
// reopens it (lazy deletion: a popped entry whose g is not the node's current g is skipped).
// `store_limit` (0: none) caps the nodes stored: the search then stops with Stop::Memory, and
// frontier() lists OPEN for the hybrid search. The memory limit (Limits::max_bytes) counts the
// node arrays, the hash map and OPEN's buckets, growths included (common.hpp); a bucket of OPEN
// that cannot grow within it stops the search after that expansion, without that entry (so
// frontier() is for store-limit stops, which the hybrid search makes without a byte limit).
template <SearchDomain D, Heuristic<D> H>
class BestFirst {
 public:
  using W = typename D::Word;
  using V = typename Ops<H>::Value;
  using S = StoredValue<H>;
  static constexpr bool kStored = StoredValueHeuristic<H, W>;  // a compact copy of each node's value is kept
  // The bytes a stored node costs: the node, its h (and stored value), its two hash slots, an OPEN entry.
  static constexpr std::size_t kBytesPerNode =
      sizeof(BasicNode<W>) + 4 + (kStored ? sizeof(S) : 0) + 2 * (sizeof(W) + 4) + 8;

  BestFirst(const D& d, const H& h, int wg, int wh) : d_(d), h_(h), wg_(wg), wh_(wh) {}

  Result run(const State& start, const Limits& limits, Trace* tr = nullptr, std::size_t store_limit = 0) {
    if constexpr (D::kPacked) {
      if (tr) return run_impl<true>(start, limits, tr, store_limit);
    }
    return run_impl<false>(start, limits, nullptr, store_limit);
  }

  // One node of OPEN: where the hybrid search goes on from.
  struct Frontier {
    W packed;
    std::uint32_t node;  // its index, for the path (path_to)
    std::uint16_t g, h;
    std::uint8_t blank, parent_blank;  // parent_blank: 255 for the start
    S stored{};                        // its value's compact copy (StoredValueHeuristic)
  };
  // OPEN after a run stopped on its store limit, in order of f, then smaller h first.
  std::vector<Frontier> frontier() const {
    std::vector<Frontier> out;
    for (std::size_t k = min_key_; k < buckets_.size(); ++k) {
      const auto& b = buckets_[k];
      for (auto e = b.rbegin(); e != b.rend(); ++e) {  // a bucket is a stack: newest first
        const BasicNode<W>& n = nodes_[e->node];
        if (n.closed || n.g != e->g) continue;
        const std::uint8_t pb = n.parent == NodeMap::kAbsent ? 255 : nodes_[n.parent].blank;
        out.push_back({n.packed, e->node, n.g, static_cast<std::uint16_t>(hval_[e->node]), n.blank, pb, {}});
        if constexpr (kStored) out.back().stored = vstore_[e->node];
      }
    }
    if (wg_ != 1 || wh_ != 1)  // the A* key already orders by f, then by depth (= smaller h)
      std::stable_sort(out.begin(), out.end(), [](const Frontier& a, const Frontier& b) {
        return a.g + a.h != b.g + b.h ? a.g + a.h < b.g + b.h : a.h < b.h;
      });
    return out;
  }
  // The states from the start to stored node i.
  std::vector<State> path_to(std::uint32_t i) const {
    Result r;
    detail::path_from(d_, nodes_, i, r);
    return std::move(r.path);
  }
  // Frees the hash map and OPEN (the nodes stay, for path_to).
  void release_index() {
    seen_ = BasicNodeMap<W>(16);
    std::vector<std::vector<Entry>>().swap(buckets_);
    open_size_ = 0;
    open_bytes_ = 0;
  }
  // What the search structures hold: the node arrays, the hash map, OPEN (its buckets' capacity).
  std::uint64_t bytes() const noexcept {
    return detail::store_bytes(nodes_, seen_) + hval_.capacity() * 4 + vstore_.capacity() * sizeof(S) +
           tid_.capacity() * 4 + buckets_.capacity() * sizeof(std::vector<Entry>) + open_bytes_;
  }

 private:
  template <bool kTraced>
  Result run_impl(const State& start, const Limits& limits, Trace* tr, std::size_t store_limit) {
    Result r;
    Budget budget(limits);
    nodes_.clear();
    hval_.clear();
    vstore_.clear();
    seen_.clear();
    open_bytes_ = 0;
    for (auto& b : buckets_) {
      b.clear();
      open_bytes_ += b.capacity() * sizeof(Entry);
    }
    open_size_ = 0;
    limit_ = limits.max_bytes;
    over_ = false;
    r_ = &r;
    const W s = D::pack(start);
    nodes_.push_back({s, NodeMap::kAbsent, 0, static_cast<std::uint8_t>(start.blank), 0});
    const V v0 = h_.eval(s, start.blank);
    hval_.push_back(static_cast<std::uint32_t>(Ops<H>::h(v0)));
    if constexpr (kStored) vstore_.push_back(h_.store(v0));
    seen_.insert(s, 0);
    if constexpr (kTraced) tid_.assign(1, tr->root(D::trace_word(s), static_cast<int>(hval_[0])));
    min_key_ = key(0);
    push(0);
    r.generated = 1;
    if (over_) {  // not even OPEN's first bucket fits
      r.stopped = Stop::Memory;
      r.peak_bytes = std::max(r.peak_bytes, bytes());
    }
    while (!over_ && open_size_ > 0) {
      while (buckets_[min_key_].empty()) ++min_key_;
      const Entry e = buckets_[min_key_].back();
      BasicNode<W>& n = nodes_[e.node];
      if (n.closed || n.g != e.g) {  // stale entry
        buckets_[min_key_].pop_back();
        --open_size_;
        continue;
      }
      if (n.packed == d_.goal_packed) {
        detail::path_from(d_, nodes_, e.node, r);
        if constexpr (kTraced) tr->solved_at(tid_[e.node]);
        break;
      }
      if (store_limit && nodes_.size() + 4 > store_limit) {  // full: the entry stays in OPEN
        r.stopped = Stop::Memory;
        break;
      }
      buckets_[min_key_].pop_back();
      --open_size_;
      if (!budget.step(r, bytes())) {
        push(e.node);  // back into OPEN (its bucket has the room), so the frontier stays whole
        break;
      }
      if ((nodes_.size() + kMaxMoves > nodes_.capacity() || !seen_.fits(kMaxMoves)) &&
          !make_room(r, store_limit, kTraced)) {
        push(e.node);
        r.stopped = Stop::Memory;
        break;
      }
      nodes_[e.node].closed = 1;  // not n: make_room may have moved the nodes
      ++r.expanded;
      const BasicNode<W> cur = nodes_[e.node];
      V vcur;
      if constexpr (std::is_same_v<V, int>) vcur = static_cast<int>(hval_[e.node]);
      else if constexpr (kStored) vcur = h_.restore(cur.packed, cur.blank, vstore_[e.node]);
      else vcur = h_.eval(cur.packed, cur.blank);
      const int back = cur.parent != NodeMap::kAbsent ? nodes_[cur.parent].blank : -1;
      std::uint32_t tcur = Trace::kNone;
      if constexpr (kTraced) {
        tcur = tid_[e.node];
        tr->expand(tcur);
      }
      const auto& nb = d_.moves(cur.blank);
      for (int k = 0; k < nb.count; ++k) {
        const int to = nb.cell[k];
        if (to == back) continue;  // undoing the last move
        const W p = d_.slide(cur.packed, cur.blank, to);
        ++r.generated;
        const auto g = static_cast<std::uint16_t>(cur.g + 1);
        const auto idx = static_cast<std::uint32_t>(nodes_.size());
        const std::uint32_t at = seen_.insert(p, idx);
        if (at == idx) {
          nodes_.push_back({p, e.node, g, static_cast<std::uint8_t>(to), 0});
          W after{};
          const V vchild = Ops<H>::slide(h_, d_, vcur, cur.packed, cur.blank, to, 1 << 20, after);
          const int hv = Ops<H>::h(vchild);
          hval_.push_back(static_cast<std::uint32_t>(hv));
          if constexpr (kStored) vstore_.push_back(h_.store(vchild));
          if constexpr (kTraced) tid_.push_back(tr->node(D::trace_word(p), tcur, g, hv));
          push(idx);
        } else if (wg_ > 0 && g < nodes_[at].g) {  // a cheaper path: (re)open it
          nodes_[at].g = g;
          nodes_[at].parent = e.node;
          nodes_[at].closed = 0;
          if constexpr (kTraced) tid_[at] = tr->node(D::trace_word(p), tcur, g, static_cast<int>(hval_[at]));
          push(at);
        } else if constexpr (kTraced) {
          tr->node(D::trace_word(p), tcur, g, static_cast<int>(hval_[at]), true);
        }
      }
      r.peak_open = std::max<std::uint64_t>(r.peak_open, open_size_);
      if (over_) {  // a bucket of OPEN could not grow within the memory limit
        r.stopped = Stop::Memory;
        break;
      }
    }
    r.closed = seen_.size();
    r.seconds = budget.elapsed();
    return r;
  }

  struct Entry {
    std::uint32_t node;
    std::uint16_t g;
  };
  // A*: f in the high bits and 255 - g in the low byte, so equal f pops the deepest node first;
  // other weights: the plain key (ties go to the most recent node).
  std::uint32_t key(std::uint32_t i) const noexcept {
    const std::uint32_t k = static_cast<std::uint32_t>(wg_) * nodes_[i].g + static_cast<std::uint32_t>(wh_) * hval_[i];
    if (wg_ == 1 && wh_ == 1) return (k << 8) | (255u - std::min<std::uint32_t>(nodes_[i].g, 255u));
    return k;
  }
  void push(std::uint32_t i) {
    const std::uint32_t k = key(i);
    if (k >= buckets_.size() && !grow_buckets(k)) return;
    std::vector<Entry>& b = buckets_[k];
    if (b.size() == b.capacity() && !grow_bucket(b)) return;
    b.push_back({i, nodes_[i].g});
    if (k < min_key_) min_key_ = k;  // only with an inconsistent heuristic or weights
    ++open_size_;
  }
  // The growths of OPEN within the memory limit, the old and the new buffer held at once (false,
  // and over_ set, when they do not fit).
  bool grow_buckets(std::uint32_t k) {
    const std::size_t n = std::max<std::size_t>(k + 1, 2 * buckets_.size());
    const std::uint64_t peak = bytes() + n * sizeof(std::vector<Entry>);
    if (!detail::within(peak, limit_)) return !(over_ = true);
    r_->peak_bytes = std::max(r_->peak_bytes, peak);
    buckets_.reserve(n);
    buckets_.resize(n);
    return true;
  }
  bool grow_bucket(std::vector<Entry>& b) {
    const std::size_t c = std::max<std::size_t>(8, 2 * b.capacity());
    const std::uint64_t peak = bytes() + c * sizeof(Entry);
    if (!detail::within(peak, limit_)) return !(over_ = true);
    r_->peak_bytes = std::max(r_->peak_bytes, peak);
    open_bytes_ += (c - b.capacity()) * sizeof(Entry);
    b.reserve(c);
    return true;
  }
  // Room for one expansion's children in the node arrays and the hash map, within the memory
  // limit (common.hpp) and, with a store limit, with no doubling past it.
  bool make_room(Result& r, std::size_t store_limit, bool traced) {
    const std::size_t need = nodes_.size() + kMaxMoves;
    if (need > nodes_.capacity()) {
      std::size_t want = 2 * nodes_.capacity();
      if (store_limit) want = std::min(want, store_limit);
      const std::size_t per_node = sizeof(BasicNode<W>) + 4 + (kStored ? sizeof(S) : 0) + (traced ? 4 : 0);
      const std::size_t c = detail::grown_capacity(need, want, bytes(), per_node, limit_, r);
      if (!c) return false;
      nodes_.reserve(c);
      hval_.reserve(c);
      if constexpr (kStored) vstore_.reserve(c);
      if (traced) tid_.reserve(c);
    }
    return seen_.fits(kMaxMoves) || detail::map_room(seen_, kMaxMoves, bytes(), limit_, r);
  }

  const D& d_;
  const H& h_;
  int wg_, wh_;
  std::vector<BasicNode<W>> nodes_;
  std::vector<std::uint32_t> hval_;
  std::vector<S> vstore_;           // each node's stored value (only when kStored)
  std::vector<std::uint32_t> tid_;  // trace id of each node's latest generation (only when tracing)
  BasicNodeMap<W> seen_;
  std::vector<std::vector<Entry>> buckets_;
  std::size_t open_size_ = 0;
  std::uint64_t open_bytes_ = 0;  // the buckets' capacity, in bytes
  std::uint32_t min_key_ = 0;
  std::uint64_t limit_ = 0;  // the run's memory limit (0: none)
  bool over_ = false;        // a push did not fit the memory limit
  Result* r_ = nullptr;      // the run's result (its peak bytes)
};

template <SearchDomain D, Heuristic<D> H>
Result best_first(const D& d, const H& h, const State& start, int wg, int wh, const Limits& limits,
                  Trace* tr = nullptr) {
  return BestFirst<D, H>(d, h, wg, wh).run(start, limits, tr);
}

}  // namespace tilespace::search
