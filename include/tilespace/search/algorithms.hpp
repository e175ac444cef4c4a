// The solvers, as templates over the domain (domain.hpp: packed words up to 16 cells, 128-bit
// words up to 25) and the heuristic (heuristics.hpp, pattern_heuristic.hpp), so that the node loop
// has no virtual call and one code serves every board. All honour Limits, fill the same Result,
// and record their search tree into a Trace when given one (trace.hpp; packed boards only).
// Preconditions: start and goal are on dom.board and solvable (the caller answers unreachable
// pairs by parity, see solve.hpp).
//
//   breadth_first     optimal; goal test on generation; CLOSED = every generated state
//   bidirectional     breadth-first from both ends, whole layers, smaller side first; optimal
//   depth_limited     DFS to a depth limit with a cycle check on the current path; not optimal
//   iterative_deepening  depth_limited with limits 0, 1, 2, ...; optimal
//   best_first        OPEN ordered by wg*g + wh*h (A*: 1,1; weighted A*: 100,100w; greedy: 0,1),
//                     ties to the deeper node; a cheaper path to a known state reopens it
//   ida_star          iterative deepening on f = g + h, never undoing the last move and, given a
//                     move automaton (automaton.hpp), never taking a move string it rejects;
//                     optimal with an admissible heuristic
//   hybrid            A*+IDA* (Bu & Korf 2019): A* until its node store is full, then IDA* from
//                     every frontier node in order of f (ties: smaller h first) with one shared
//                     bound, the frontier shared out among threads; optimal with a consistent
//                     heuristic (every one here that is admissible)
//   table_descent     the exact distance table: from the start, always to a neighbour one move
//                     closer (U, D, L, R order); optimal, one expansion a move
#pragma once

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <type_traits>
#include <vector>

#include "tilespace/goal_table.hpp"
#include "tilespace/search/domain.hpp"
#include "tilespace/search/heuristics.hpp"
#include "tilespace/search/node_map.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"

namespace tilespace::search {

namespace detail {

template <class D>
void path_from(const D& d, const std::vector<BasicNode<typename D::Word>>& nodes, std::uint32_t i, Result& r) {
  std::vector<State> rev;
  for (; i != NodeMap::kAbsent; i = nodes[i].parent) rev.push_back(d.state(nodes[i].packed));
  r.path.assign(rev.rbegin(), rev.rend());
  r.solved = true;
}

template <class N, class M>
std::uint64_t store_bytes(const std::vector<N>& nodes, const M& map) {
  return nodes.capacity() * sizeof(Node) + map.bytes();
}

}  // namespace detail

// Breadth-first search; keeps its storage between runs (verify runs it thousands of times).
template <class D>
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
      if (!budget.step(r, detail::store_bytes(nodes_, seen_))) break;
      ++r.expanded;
      const BasicNode<W> n = nodes_[head];
      if (tr) tr->expand(tid_[head]);
      const auto& nb = d_.board.neighbours(n.blank);
      for (int k = 0; k < nb.count; ++k) {
        const W p = D::move(n.packed, n.blank, nb.cell[k]);
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
  const D& d_;
  std::vector<BasicNode<W>> nodes_;
  BasicNodeMap<W> seen_;
  std::vector<std::uint32_t> tid_;  // trace id of each node (only when tracing)
};

template <class D>
Result breadth_first(const D& d, const State& start, const Limits& limits, Trace* tr = nullptr) {
  return BreadthFirst<D>(d).run(start, limits, tr);
}

// Traced as two trees (roots: the start, then the goal); the solution runs down the first to the
// meeting state, then up the second.
template <class D>
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
      const std::uint64_t bytes = detail::store_bytes(side[0].nodes, side[0].seen) +
                                  detail::store_bytes(side[1].nodes, side[1].seen);
      if (!budget.step(r, bytes)) {
        stopped = true;
        break;
      }
      ++r.expanded;
      const BasicNode<W> n = me.nodes[i];
      if (tr) tr->expand(me.tid[i]);
      const auto& nb = d.board.neighbours(n.blank);
      for (int k = 0; k < nb.count; ++k) {
        const W p = D::move(n.packed, n.blank, nb.cell[k]);
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

namespace detail {

// Depth-first search below `path.back()` to `limit` moves; cycle check on the current path.
// Returns true when the goal is found (path then ends with it), false otherwise; sets
// r.stopped when a limit is hit.
// `tr`/`tid`: the trace and this node's id in it (kTraced only: untraced runs compile without it).
template <bool kTraced, class D>
bool dfs(const D& d, std::vector<typename D::Word>& path, int blank, int limit, Result& r, Budget& budget,
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
  const auto& nb = d.board.neighbours(blank);
  for (int k = 0; k < nb.count; ++k) {
    const W q = D::move(p, blank, nb.cell[k]);
    ++r.generated;
    bool on_path = false;  // no early exit: the compiler vectorises the scan
    for (const W x : path) on_path |= x == q;
    std::uint32_t cid = Trace::kNone;
    if constexpr (kTraced) cid = tr->node(D::trace_word(q), tid, g, 0, on_path);
    if (on_path) continue;
    path.push_back(q);
    r.peak_open = std::max<std::uint64_t>(r.peak_open, path.size());
    if (dfs<kTraced>(d, path, nb.cell[k], limit, r, budget, tr, cid)) return true;
    path.pop_back();
    if (r.stopped != Stop::None) return false;
  }
  return false;
}

// dfs from the root, traced or not.
template <class D>
bool dfs_root(const D& d, std::vector<typename D::Word>& path, int blank, int limit, Result& r, Budget& budget,
              Trace* tr) {
  if (tr) return dfs<true>(d, path, blank, limit, r, budget, tr, tr->root(D::trace_word(path.back()), 0));
  return dfs<false>(d, path, blank, limit, r, budget, nullptr, Trace::kNone);
}

template <class D>
void finish_dfs(const D& d, const std::vector<typename D::Word>& path, Result& r) {
  for (const auto p : path) r.path.push_back(d.state(p));
  r.solved = true;
}

}  // namespace detail

template <class D>
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

template <class D>
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

// Best-first search with storage that is kept between runs (no allocation once warm): OPEN is a
// bucket queue indexed by the integer key, each bucket a stack. A cheaper path to a known state
// reopens it (lazy deletion: a popped entry whose g is not the node's current g is skipped).
// `store_limit` (0: none) caps the nodes stored: the search then stops with Stop::Memory, and
// frontier() lists OPEN for the hybrid search.
template <class D, class H>
class BestFirst {
 public:
  using W = typename D::Word;
  using V = typename Ops<H>::Value;
  // The bytes a stored node costs: the node, its h, its two hash slots, an OPEN entry.
  static constexpr std::size_t kBytesPerNode = sizeof(BasicNode<W>) + 4 + 2 * (sizeof(W) + 4) + 8;

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
        out.push_back({n.packed, e->node, n.g, static_cast<std::uint16_t>(hval_[e->node]), n.blank, pb});
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
  }
  std::uint64_t bytes() const noexcept { return detail::store_bytes(nodes_, seen_) + hval_.capacity() * 4; }

 private:
  template <bool kTraced>
  Result run_impl(const State& start, const Limits& limits, Trace* tr, std::size_t store_limit) {
    Result r;
    Budget budget(limits);
    nodes_.clear();
    hval_.clear();
    seen_.clear();
    for (auto& b : buckets_) b.clear();
    open_size_ = 0;
    std::size_t peak_open_bytes = 0;
    const W s = D::pack(start);
    nodes_.push_back({s, NodeMap::kAbsent, 0, static_cast<std::uint8_t>(start.blank), 0});
    hval_.push_back(static_cast<std::uint32_t>(Ops<H>::h(h_.eval(s, start.blank))));
    seen_.insert(s, 0);
    if constexpr (kTraced) tid_.assign(1, tr->root(D::trace_word(s), static_cast<int>(hval_[0])));
    min_key_ = key(0);
    push(0);
    r.generated = 1;
    while (open_size_ > 0) {
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
      peak_open_bytes = std::max(peak_open_bytes, open_size_ * sizeof(Entry));
      const std::uint64_t bytes = detail::store_bytes(nodes_, seen_) + hval_.capacity() * 4 + peak_open_bytes;
      if (!budget.step(r, bytes)) {
        push(e.node);  // back into OPEN, so the frontier stays whole
        break;
      }
      n.closed = 1;
      ++r.expanded;
      const BasicNode<W> cur = n;
      V vcur;
      if constexpr (std::is_same_v<V, int>) vcur = static_cast<int>(hval_[e.node]);
      else vcur = h_.eval(cur.packed, cur.blank);
      const int back = cur.parent != NodeMap::kAbsent ? nodes_[cur.parent].blank : -1;
      std::uint32_t tcur = Trace::kNone;
      if constexpr (kTraced) {
        tcur = tid_[e.node];
        tr->expand(tcur);
      }
      const auto& nb = d_.board.neighbours(cur.blank);
      for (int k = 0; k < nb.count; ++k) {
        const int to = nb.cell[k];
        if (to == back) continue;  // undoing the last move
        const W p = D::move(cur.packed, cur.blank, to);
        ++r.generated;
        const auto g = static_cast<std::uint16_t>(cur.g + 1);
        const auto idx = static_cast<std::uint32_t>(nodes_.size());
        const std::uint32_t at = seen_.insert(p, idx);
        if (at == idx) {
          if (store_limit && nodes_.size() == nodes_.capacity() && 2 * nodes_.size() > store_limit) {
            nodes_.reserve(store_limit);  // no doubling past the budget
            hval_.reserve(store_limit);
          }
          nodes_.push_back({p, e.node, g, static_cast<std::uint8_t>(to), 0});
          const int tile = D::tile_at(cur.packed, to);
          const int hv = Ops<H>::h(Ops<H>::update(h_, vcur, p, to, tile, to, cur.blank, 1 << 20));
          hval_.push_back(static_cast<std::uint32_t>(hv));
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
    if (k >= buckets_.size()) buckets_.resize(std::max<std::size_t>(k + 1, 2 * buckets_.size()));
    buckets_[k].push_back({i, nodes_[i].g});
    if (k < min_key_) min_key_ = k;  // only with an inconsistent heuristic or weights
    ++open_size_;
  }

  const D& d_;
  const H& h_;
  int wg_, wh_;
  std::vector<BasicNode<W>> nodes_;
  std::vector<std::uint32_t> hval_;
  std::vector<std::uint32_t> tid_;  // trace id of each node's latest generation (only when tracing)
  BasicNodeMap<W> seen_;
  std::vector<std::vector<Entry>> buckets_;
  std::size_t open_size_ = 0;
  std::uint32_t min_key_ = 0;
};

template <class D, class H>
Result best_first(const D& d, const H& h, const State& start, int wg, int wh, const Limits& limits,
                  Trace* tr = nullptr) {
  return BestFirst<D, H>(d, h, wg, wh).run(start, limits, tr);
}

// No move automaton: IDA* then only never undoes its last move.
struct NoAutomaton {};

namespace detail {

// A board whose shape is known at compile time. IDA* unrolls its node loop over such a board by
// the blank's cell and the previous blank's cell (template parameters): every neighbour, shift and
// table offset is then a constant and the "never undo the last move" test disappears. Measured on
// Korf's instance 7 with Manhattan (367 M nodes, one core, 4 paired runs against the run-time
// loop): 0.66 of its time (0.55-0.77). IdaStar::static_entries lists the boards that have one (3x3, 4x4,
// 5x5); every other board takes the run-time loop, which visits the same nodes in the same order.
template <int Wd, int Ht>
struct StaticBoard {
  static constexpr int kCells = Wd * Ht;
  // The blank's neighbour from `cell` in direction d (Board's order: Up, Down, Left, Right), or -1.
  static constexpr int step(int cell, int d) { return Board::grid_step(Wd, Ht, cell, static_cast<Dir>(d)); }
  static bool is(const Board& b) noexcept { return b.width() == Wd && b.height() == Ht; }
};

// The IDA* recursion over domain D, heuristic H and move automaton A (NoAutomaton, or
// MoveAutomaton of automaton.hpp: `next(state, Dir)`, `kDead`). A node costs one word update, one
// heuristic update and one automaton step; children above the bound are counted and dropped
// before any call. The path is kept as the blank's cells (a move is the blank's new cell), written
// as the recursion unwinds from the goal. Limits (and `cancel`, shared by the threads of a hybrid
// search) are checked every 4096 expansions, outside the hot path.
template <class D, class H, class A, bool kTraced>
struct IdaStar {
  using W = typename D::Word;
  using O = Ops<H>;
  using V = typename O::Value;
  using VArg = std::conditional_t<sizeof(V) <= 8, V, const V&>;  // small values in registers
  static constexpr bool kFsm = !std::is_same_v<A, NoAutomaton>;
  enum : int { kOn = 0, kFound = 1, kStopped = 2 };  // what a subtree's search returns

  const D& d;
  const H& h;
  const A* fsm;
  Result& r;
  Budget& budget;
  Trace* tr;                                   // used only when kTraced
  std::atomic<bool>* cancel = nullptr;         // set by another thread: stop
  std::atomic<std::uint64_t>* shared = nullptr;  // expansions of every thread (node limit)
  std::vector<std::uint8_t> blanks;            // blanks[k]: the blank's cell after k moves
  int bound = 0;
  int next_bound = 0;
  std::uint64_t expanded = 0, generated = 0, reported = 0;
  bool stop = false;
  // Set from d: the goal word, and the static board's entries (null: the run-time loop).
  using Entry = int (IdaStar::*)(W, int, VArg, std::uint32_t, std::uint32_t);
  const W goal_ = d.goal_packed;
  const Entry* entries_ = static_entries(d.board);

  // Precondition: g + h(v) <= bound; blanks[g] == blank. Returns true when the goal is found below
  // `p` (blanks[g+1..] then holds the rest of the path); sets `stop` when a limit stopped it.
  // `prev_blank`: the blank's cell before the move into `p` (-1 at a root), never gone back to.
  // `tid`: this node's trace id (kNone when not tracing).
  bool search(W p, int blank, int prev_blank, int g, VArg v, std::uint32_t q, std::uint32_t tid) {
    int res;
    if (entries_) {
      int k = 4;  // the entry for (blank, the direction of prev_blank, 4 for none)
      const auto& nb = d.board.neighbours(blank);
      for (int i = 0; i < nb.count; ++i)
        if (nb.cell[i] == prev_blank) k = static_cast<int>(nb.dir[i]);
      res = (this->*entries_[5 * blank + k])(p, g, v, q, tid);
    } else {
      res = node(p, blank, prev_blank, g, v, q, tid);
    }
    stop = res == kStopped;
    return res == kFound;
  }

 private:
  bool tick() {
    if (cancel && cancel->load(std::memory_order_relaxed)) return false;
    std::uint64_t total = expanded;
    if (shared) total = shared->fetch_add(expanded - reported, std::memory_order_relaxed) + (expanded - reported);
    reported = expanded;
    r.expanded = total;
    return budget.check(r, blanks.capacity());
  }

  // A node's own work before its children: the goal test, the limits, the trace.
  int enter(W p, std::uint32_t tid) {
    if (p == goal_) {
      if constexpr (kTraced) tr->solved_at(tid);
      return kFound;
    }
    if ((++expanded & 4095) == 0 && !tick()) return kStopped;
    if constexpr (kTraced) tr->expand(tid);
    return kOn;
  }

  // The child where the blank moves from `blank` to `to` (direction `dir`); `below` searches it.
  template <class Below>
  [[gnu::always_inline]] int child(W p, int blank, int to, Dir dir, int g, VArg v, std::uint32_t q,
                                   std::uint32_t tid, int cap, Below&& below) {
    std::uint32_t cq = 0;
    if constexpr (kFsm) {
      cq = fsm->next(q, dir);
      if (cq == A::kDead) return kOn;
    }
    const int tile = D::tile_at(p, to);
    const W c = D::move(p, blank, to);
    ++generated;
    const V cv = O::update(h, v, c, to, tile, to, blank, cap);
    const int hc = O::h(cv);
    std::uint32_t cid = Trace::kNone;
    if constexpr (kTraced) cid = tr->node(D::trace_word(c), tid, g + 1, hc);
    if (hc > cap) {
      next_bound = std::min(next_bound, g + 1 + hc);
      return kOn;
    }
    const int res = below(c, cv, cq, cid);
    if (res == kFound) blanks[static_cast<std::size_t>(g) + 1] = static_cast<std::uint8_t>(to);
    return res;
  }

  // A node of any board: the loop over the blank's neighbour table.
  int node(W p, int blank, int prev_blank, int g, VArg v, std::uint32_t q, std::uint32_t tid) {
    if (const int e = enter(p, tid)) return e;
    const int cap = bound - g - 1;
    const auto& nb = d.board.neighbours(blank);
    for (int k = 0; k < nb.count; ++k) {
      const int to = nb.cell[k];
      if (to == prev_blank) continue;
      const int res = child(p, blank, to, nb.dir[k], g, v, q, tid, cap, [&](W c, VArg cv, std::uint32_t cq, std::uint32_t cid) {
        return node(c, to, blank, g + 1, cv, cq, cid);
      });
      if (res) return res;
    }
    return kOn;
  }

  // A node of static board SB with the blank on B, come from Prev (-1: a root): the four
  // directions unrolled, those off the board or back to Prev compiled away.
  template <class SB, int B, int Prev>
  int node_static(W p, int g, VArg v, std::uint32_t q, std::uint32_t tid) {
    if (const int e = enter(p, tid)) return e;
    const int cap = bound - g - 1;
    int res = kOn;
    [&]<int... K>(std::integer_sequence<int, K...>) {
      (void)((res = direction<SB, B, Prev, K>(p, g, v, q, tid, cap)) || ...);  // up to the first result
    }(std::make_integer_sequence<int, 4>{});
    return res;
  }
  template <class SB, int B, int Prev, int K>
  [[gnu::always_inline]] int direction(W p, int g, VArg v, std::uint32_t q, std::uint32_t tid, int cap) {
    constexpr int To = SB::step(B, K);
    if constexpr (To < 0 || To == Prev) {
      return kOn;
    } else {
      return child(p, B, To, static_cast<Dir>(K), g, v, q, tid, cap,
                   [&](W c, VArg cv, std::uint32_t cq, std::uint32_t cid) { return node_static<SB, To, B>(c, g + 1, cv, cq, cid); });
    }
  }

  // The entries of static board SB: entry 5*B + k starts at blank B come from direction k's
  // neighbour (k = 4: from nowhere).
  template <class SB>
  static const Entry* entries_of() {
    static constexpr auto table = []<int... I>(std::integer_sequence<int, I...>) {
      return std::array<Entry, sizeof...(I)>{
          &IdaStar::template node_static<SB, I / 5, (I % 5 < 4 ? SB::step(I / 5, I % 5) : -1)>...};
    }(std::make_integer_sequence<int, 5 * SB::kCells>{});
    return table.data();
  }
  // Unrolled only where it pays and compiles quickly: untraced, and heuristics that opt in
  // (`static constexpr bool kUnrolled = true;`: Manhattan, the pattern databases).
  static const Entry* static_entries(const Board& b) {
    if constexpr (kTraced || !requires { H::kUnrolled; }) {
      return nullptr;
    } else if constexpr (D::kPacked) {
      if (StaticBoard<4, 4>::is(b)) return entries_of<StaticBoard<4, 4>>();
      if (StaticBoard<3, 3>::is(b)) return entries_of<StaticBoard<3, 3>>();
    } else {
      if (StaticBoard<5, 5>::is(b)) return entries_of<StaticBoard<5, 5>>();
    }
    return nullptr;
  }
};

template <class D, class H, class A, bool kTraced>
Result ida_star(const D& d, const H& h, const A* fsm, const State& start, const Limits& limits, Trace* tr) {
  Result r;
  Budget budget(limits);
  IdaStar<D, H, A, kTraced> ida{d, h, fsm, r, budget, tr, nullptr, nullptr, {}};
  const typename D::Word s = D::pack(start);
  const auto v0 = h.eval(s, start.blank);
  const int h0 = Ops<H>::h(v0);
  ida.bound = h0;
  constexpr int kNoBound = 1 << 30;
  std::uint32_t q0 = 0;
  if constexpr (IdaStar<D, H, A, kTraced>::kFsm) q0 = fsm->start();
  while (!ida.stop) {
    ida.blanks.assign(static_cast<std::size_t>(ida.bound) + 2, 0);
    ida.blanks[0] = static_cast<std::uint8_t>(start.blank);
    ida.next_bound = kNoBound;
    std::uint32_t root = Trace::kNone;
    if constexpr (kTraced) {
      if (ida.bound > h0) tr->next_iteration();
      root = tr->root(D::trace_word(s), h0);
    }
    if (ida.search(s, start.blank, -1, 0, v0, q0, root)) {
      State cur = start;
      r.path.push_back(cur);
      // The path length is the bound at which the goal was met (every step had f <= bound).
      for (std::size_t k = 1; k < ida.blanks.size() && !(cur == d.goal); ++k) {
        cur = cur.moved(ida.blanks[k]);
        r.path.push_back(cur);
      }
      r.solved = true;
      break;
    }
    if (ida.next_bound == kNoBound) break;  // nothing left below any bound
    ida.bound = ida.next_bound;
  }
  r.expanded = ida.expanded;
  r.generated = ida.generated + 1;
  if (r.stopped == Stop::None && ida.stop) r.stopped = Stop::Time;
  r.peak_open = r.path.size();
  r.peak_bytes = std::max<std::uint64_t>(r.peak_bytes, ida.blanks.capacity());
  r.seconds = budget.elapsed();
  return r;
}

}  // namespace detail

// IDA*. Untraced runs compile without the trace (a separate instantiation). With a move
// automaton (`fsm`, not null), move strings it rejects are never followed.
template <class D, class H, class A = NoAutomaton>
Result ida_star(const D& d, const H& h, const State& start, const Limits& limits, Trace* tr = nullptr,
                const A* fsm = nullptr) {
  if constexpr (!std::is_same_v<A, NoAutomaton>) {
    if (!fsm) return ida_star(d, h, start, limits, tr, static_cast<const NoAutomaton*>(nullptr));
  }
  if constexpr (D::kPacked) {
    if (tr) return detail::ida_star<D, H, A, true>(d, h, fsm, start, limits, tr);
  }
  return detail::ida_star<D, H, A, false>(d, h, fsm, start, limits, nullptr);
}

namespace detail {

// One thread's share of a hybrid search.
struct HybridLocal {
  Result r;
  std::uint64_t generated = 0;
  int next_bound = 1 << 30;
};

}  // namespace detail

// What the hybrid search needs beyond the limits.
struct HybridOptions {
  std::uint64_t memory = 0;  // bytes for A*'s nodes (0: 1 GiB)
  int threads = 1;           // threads of the IDA* phase (0: all cores)
};

// A*+IDA* (Bu & Korf 2019). A* stores nodes until `memory` is full (it may solve the instance
// itself); then, with bound t = the smallest f in OPEN, an IDA* iteration runs below every OPEN
// node with f <= t (its g as start, never undoing the move into it, the automaton from its start),
// in order of f and then h, the nodes shared out among threads; the first solution found ends every
// thread; else t becomes the smallest f seen above it. Every solution found at bound t has length t,
// so the length is the same whatever the threads (the path may differ). With a consistent heuristic
// every optimal path leaves A*'s closed nodes through an OPEN node with its optimal g, so the
// search is optimal.
template <class D, class H, class A = NoAutomaton>
Result hybrid(const D& d, const H& h, const State& start, const Limits& limits, const HybridOptions& options,
              const A* fsm = nullptr) {
  if constexpr (!std::is_same_v<A, NoAutomaton>) {
    if (!fsm) return hybrid(d, h, start, limits, options, static_cast<const NoAutomaton*>(nullptr));
  }
  using BF = BestFirst<D, H>;
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t memory = options.memory ? options.memory : (std::uint64_t{1} << 30);
  BF astar(d, h, 1, 1);
  Result r = astar.run(start, limits, nullptr, std::max<std::size_t>(64, memory / BF::kBytesPerNode));
  if (r.solved || r.stopped != Stop::Memory) return r;

  // The IDA* phase.
  const auto frontier = astar.frontier();
  const std::uint64_t astar_bytes = astar.bytes();
  astar.release_index();
  r.stopped = Stop::None;
  r.peak_open = frontier.size();
  r.peak_bytes = astar_bytes + frontier.capacity() * sizeof(typename BF::Frontier);
  Limits rest = limits;  // what is left of the limits after A*
  // max_nodes stays: the threads count every expansion, A*'s included (`shared`)
  if (rest.max_seconds > 0) rest.max_seconds = std::max(1e-3, rest.max_seconds - r.seconds);
  rest.max_bytes = 0;  // A*'s memory is the budget; IDA* adds a path per thread

  using Ida = detail::IdaStar<D, H, A, false>;
  constexpr int kNoBound = 1 << 30;
  std::atomic<bool> found{false}, stopped{false};
  std::atomic<std::uint64_t> shared{r.expanded};
  std::mutex solution_mutex;
  std::vector<State> solution;
  using Local = detail::HybridLocal;
  tbb::enumerable_thread_specific<Local> locals;
  Budget budget(rest);
  const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();
  tbb::task_arena arena(threads);
  int t = frontier.empty() ? kNoBound : frontier.front().g + frontier.front().h;
  while (t < kNoBound && !found && !stopped) {
    std::size_t end = 0;  // the frontier nodes with f <= t (a prefix: it is sorted by f)
    while (end < frontier.size() && frontier[end].g + frontier[end].h <= t) ++end;
    for (Local& l : locals) l.next_bound = kNoBound;
    // The threads take the frontier nodes in order (an atomic cursor), so that the whole team
    // works on the most promising nodes first, as one thread would.
    std::atomic<std::size_t> cursor{0};
    arena.execute([&] {
      tbb::parallel_for(0, threads, [&](int) {
        Local& l = locals.local();
        Budget b = budget;
        Ida ida{d, h, fsm, l.r, b, nullptr, &found, &shared, {}};
        ida.bound = t;
        ida.next_bound = kNoBound;
        ida.blanks.assign(static_cast<std::size_t>(t) + 2, 0);
        for (std::size_t i; (i = cursor.fetch_add(1, std::memory_order_relaxed)) < end;) {
          if (found.load(std::memory_order_relaxed) || ida.stop) break;
          const auto& fn = frontier[i];
          ida.blanks[fn.g] = fn.blank;
          std::uint32_t q0 = 0;
          if constexpr (Ida::kFsm) q0 = fsm->start();
          const auto v = h.eval(fn.packed, fn.blank);
          if (fn.g + Ops<H>::h(v) > t) {
            ida.next_bound = std::min(ida.next_bound, fn.g + Ops<H>::h(v));
            continue;
          }
          if (ida.search(fn.packed, fn.blank, fn.parent_blank == 255 ? -1 : fn.parent_blank, fn.g, v, q0, Trace::kNone)) {
            const std::lock_guard lock(solution_mutex);
            if (!found.exchange(true)) {
              solution = astar.path_to(fn.node);
              for (int k = fn.g + 1; k <= t && !(solution.back() == d.goal); ++k)
                solution.push_back(solution.back().moved(ida.blanks[static_cast<std::size_t>(k)]));
            }
            break;
          }
        }
        l.generated += ida.generated;
        l.next_bound = std::min(l.next_bound, ida.next_bound);
        if (ida.stop && !found.load()) {
          stopped = true;
          if (l.r.stopped == Stop::None) l.r.stopped = Stop::Time;
        }
        shared.fetch_add(ida.expanded - ida.reported, std::memory_order_relaxed);
      });
    });
    int next = end < frontier.size() ? frontier[end].g + frontier[end].h : kNoBound;
    for (const Local& l : locals) next = std::min(next, l.next_bound);
    t = next;
  }
  r.expanded = shared.load();
  for (const Local& l : locals) {
    r.generated += l.generated;
    if (r.stopped == Stop::None && l.r.stopped != Stop::None && !found) r.stopped = l.r.stopped;
  }
  if (found) {
    r.path = std::move(solution);
    r.solved = true;
    r.stopped = Stop::None;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

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
    const auto& nb = d.board.neighbours(s.blank);
    for (int k = 0; k < nb.count; ++k) {
      ++r.generated;
      if (!trace) continue;
      const State n = s.moved(nb.cell[k]);
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
