// The solvers, as templates over the heuristic (heuristics.hpp) so that the node loop has no
// virtual call. All work on packed states of boards of at most 16 cells, honour Limits, fill the
// same Result, and record their search tree into a Trace when given one (trace.hpp). Preconditions: start and goal are on dom.board and solvable (the caller
// answers unreachable pairs by parity, see solve.hpp).
//
//   breadth_first     optimal; goal test on generation; CLOSED = every generated state
//   bidirectional     breadth-first from both ends, whole layers, smaller side first; optimal
//   depth_limited     DFS to a depth limit with a cycle check on the current path; not optimal
//   iterative_deepening  depth_limited with limits 0, 1, 2, ...; optimal
//   best_first        OPEN ordered by wg*g + wh*h (A*: 1,1; weighted A*: 100,100w; greedy: 0,1),
//                     ties to the deeper node; a cheaper path to a known state reopens it
//   ida_star          iterative deepening on f = g + h, never undoing the last move; optimal
//                     with an admissible heuristic
//   table_descent     the exact distance table: from the start, always to a neighbour one move
//                     closer (U, D, L, R order); optimal, one expansion a move
#pragma once

#include <algorithm>
#include <vector>

#include "tilespace/distance_table.hpp"
#include "tilespace/search/domain.hpp"
#include "tilespace/search/node_map.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"

namespace tilespace::search {

namespace detail {

inline void path_from(const Domain& d, const std::vector<Node>& nodes, std::uint32_t i, Result& r) {
  std::vector<State> rev;
  for (; i != NodeMap::kAbsent; i = nodes[i].parent) rev.push_back(d.state(nodes[i].packed));
  r.path.assign(rev.rbegin(), rev.rend());
  r.solved = true;
}

inline std::uint64_t store_bytes(const std::vector<Node>& nodes, const NodeMap& map) {
  return nodes.capacity() * sizeof(Node) + map.bytes();
}

}  // namespace detail

// Breadth-first search; keeps its storage between runs (verify runs it thousands of times).
class BreadthFirst {
 public:
  explicit BreadthFirst(const Domain& d) : d_(d) {}

  Result run(const State& start, const Limits& limits, Trace* tr = nullptr) {
    Result r;
    Budget budget(limits);
    nodes_.clear();
    seen_.clear();
    nodes_.push_back({start.packed(), NodeMap::kAbsent, 0, static_cast<std::uint8_t>(start.blank), 0});
    seen_.insert(start.packed(), 0);
    if (tr) tid_.assign(1, tr->root(start.packed(), 0));
    r.generated = 1;
    if (start.packed() == d_.goal_packed) {
      detail::path_from(d_, nodes_, 0, r);
      if (tr) tr->solved_at(tid_[0]);
    }
    for (std::size_t head = 0; !r.solved && head < nodes_.size(); ++head) {
      r.peak_open = std::max<std::uint64_t>(r.peak_open, nodes_.size() - head);
      if (!budget.step(r, detail::store_bytes(nodes_, seen_))) break;
      ++r.expanded;
      const Node n = nodes_[head];
      if (tr) tr->expand(tid_[head]);
      const auto& nb = d_.board.neighbours(n.blank);
      for (int k = 0; k < nb.count; ++k) {
        const std::uint64_t p = Domain::move(n.packed, n.blank, nb.cell[k]);
        ++r.generated;
        const auto idx = static_cast<std::uint32_t>(nodes_.size());
        if (seen_.insert(p, idx) != idx) {
          if (tr) tr->node(p, tid_[head], n.g + 1, 0, true);
          continue;
        }
        nodes_.push_back({p, static_cast<std::uint32_t>(head), static_cast<std::uint16_t>(n.g + 1), nb.cell[k], 0});
        if (tr) tid_.push_back(tr->node(p, tid_[head], n.g + 1, 0));
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
  const Domain& d_;
  std::vector<Node> nodes_;
  NodeMap seen_;
  std::vector<std::uint32_t> tid_;  // trace id of each node (only when tracing)
};

inline Result breadth_first(const Domain& d, const State& start, const Limits& limits, Trace* tr = nullptr) {
  return BreadthFirst(d).run(start, limits, tr);
}

// Traced as two trees (roots: the start, then the goal); the solution runs down the first to the
// meeting state, then up the second.
inline Result bidirectional(const Domain& d, const State& start, const Limits& limits, Trace* tr = nullptr) {
  Result r;
  Budget budget(limits);
  struct Side {
    std::vector<Node> nodes;
    NodeMap seen;
    std::size_t layer_begin = 0;
    std::vector<std::uint32_t> tid;  // trace ids (only when tracing)
  };
  Side side[2];
  const std::uint64_t ends[2] = {start.packed(), d.goal_packed};
  const int blanks[2] = {start.blank, d.goal.blank};
  for (int s = 0; s < 2; ++s) {
    side[s].nodes.push_back({ends[s], NodeMap::kAbsent, 0, static_cast<std::uint8_t>(blanks[s]), 0});
    side[s].seen.insert(ends[s], 0);
    if (tr) side[s].tid.push_back(tr->root(ends[s], 0));
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
      const Node n = me.nodes[i];
      if (tr) tr->expand(me.tid[i]);
      const auto& nb = d.board.neighbours(n.blank);
      for (int k = 0; k < nb.count; ++k) {
        const std::uint64_t p = Domain::move(n.packed, n.blank, nb.cell[k]);
        ++r.generated;
        const auto idx = static_cast<std::uint32_t>(me.nodes.size());
        if (me.seen.insert(p, idx) != idx) {
          if (tr) tr->node(p, me.tid[i], n.g + 1, 0, true);
          continue;
        }
        me.nodes.push_back({p, static_cast<std::uint32_t>(i), static_cast<std::uint16_t>(n.g + 1), nb.cell[k], 0});
        if (tr) me.tid.push_back(tr->node(p, me.tid[i], n.g + 1, 0));
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
template <bool kTraced>
bool dfs(const Domain& d, std::vector<std::uint64_t>& path, int blank, int limit, Result& r, Budget& budget,
         Trace* tr, std::uint32_t tid) {
  const std::uint64_t p = path.back();
  if (p == d.goal_packed) {
    if constexpr (kTraced) tr->solved_at(tid);
    return true;
  }
  if (static_cast<int>(path.size()) - 1 >= limit) return false;
  if (!budget.step(r, path.capacity() * sizeof(std::uint64_t))) return false;
  ++r.expanded;
  if constexpr (kTraced) tr->expand(tid);
  const int g = static_cast<int>(path.size());  // of the children
  const auto& nb = d.board.neighbours(blank);
  for (int k = 0; k < nb.count; ++k) {
    const std::uint64_t q = Domain::move(p, blank, nb.cell[k]);
    ++r.generated;
    bool on_path = false;  // no early exit: the compiler vectorises the scan
    for (const std::uint64_t x : path) on_path |= x == q;
    std::uint32_t cid = Trace::kNone;
    if constexpr (kTraced) cid = tr->node(q, tid, g, 0, on_path);
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
inline bool dfs_root(const Domain& d, std::vector<std::uint64_t>& path, int blank, int limit, Result& r,
                     Budget& budget, Trace* tr) {
  if (tr) return dfs<true>(d, path, blank, limit, r, budget, tr, tr->root(path.back(), 0));
  return dfs<false>(d, path, blank, limit, r, budget, nullptr, Trace::kNone);
}

inline void finish_dfs(const Domain& d, const std::vector<std::uint64_t>& path, Result& r) {
  for (const auto p : path) r.path.push_back(d.state(p));
  r.solved = true;
}

}  // namespace detail

inline Result depth_limited(const Domain& d, const State& start, int limit, const Limits& limits,
                            Trace* tr = nullptr) {
  Result r;
  Budget budget(limits);
  std::vector<std::uint64_t> path{start.packed()};
  path.reserve(static_cast<std::size_t>(limit) + 1);
  r.generated = 1;
  if (detail::dfs_root(d, path, start.blank, limit, r, budget, tr)) detail::finish_dfs(d, path, r);
  r.seconds = budget.elapsed();
  return r;
}

inline Result iterative_deepening(const Domain& d, const State& start, int max_limit, const Limits& limits,
                                  Trace* tr = nullptr) {
  Result r;
  Budget budget(limits);
  std::vector<std::uint64_t> path;
  path.reserve(static_cast<std::size_t>(max_limit) + 1);
  r.generated = 1;
  for (int limit = 0; limit <= max_limit && r.stopped == Stop::None; ++limit) {
    path.assign(1, start.packed());
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
// bucket queue indexed by the integer key, each bucket a stack. A cheaper path to a known state reopens it (lazy deletion: a popped
// entry whose g is not the node's current g is skipped).
template <class H>
class BestFirst {
 public:
  BestFirst(const Domain& d, const H& h, int wg, int wh) : d_(d), h_(h), wg_(wg), wh_(wh) {}

  Result run(const State& start, const Limits& limits, Trace* tr = nullptr) {
    return tr ? run_impl<true>(start, limits, tr) : run_impl<false>(start, limits, nullptr);
  }

 private:
  template <bool kTraced>
  Result run_impl(const State& start, const Limits& limits, Trace* tr) {
    Result r;
    Budget budget(limits);
    nodes_.clear();
    hval_.clear();
    seen_.clear();
    for (auto& b : buckets_) b.clear();
    open_size_ = 0;
    std::size_t peak_open_bytes = 0;
    const std::uint64_t s = start.packed();
    nodes_.push_back({s, NodeMap::kAbsent, 0, static_cast<std::uint8_t>(start.blank), 0});
    hval_.push_back(static_cast<std::uint32_t>(h_.eval(s, start.blank)));
    seen_.insert(s, 0);
    if constexpr (kTraced) tid_.assign(1, tr->root(s, static_cast<int>(hval_[0])));
    min_key_ = key(0);
    push(0);
    r.generated = 1;
    while (open_size_ > 0) {
      while (buckets_[min_key_].empty()) ++min_key_;
      const Entry e = buckets_[min_key_].back();
      buckets_[min_key_].pop_back();
      --open_size_;
      Node& n = nodes_[e.node];
      if (n.closed || n.g != e.g) continue;  // stale entry
      if (n.packed == d_.goal_packed) {
        detail::path_from(d_, nodes_, e.node, r);
        if constexpr (kTraced) tr->solved_at(tid_[e.node]);
        break;
      }
      peak_open_bytes = std::max(peak_open_bytes, open_size_ * sizeof(Entry));
      const std::uint64_t bytes = detail::store_bytes(nodes_, seen_) + hval_.capacity() * 4 + peak_open_bytes;
      if (!budget.step(r, bytes)) break;
      n.closed = 1;
      ++r.expanded;
      const Node cur = n;
      const int hcur = static_cast<int>(hval_[e.node]);
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
        const std::uint64_t p = Domain::move(cur.packed, cur.blank, to);
        ++r.generated;
        const auto g = static_cast<std::uint16_t>(cur.g + 1);
        const auto idx = static_cast<std::uint32_t>(nodes_.size());
        const std::uint32_t at = seen_.insert(p, idx);
        if (at == idx) {
          nodes_.push_back({p, e.node, g, static_cast<std::uint8_t>(to), 0});
          const int tile = Domain::tile_at(cur.packed, to);
          hval_.push_back(static_cast<std::uint32_t>(h_.update(hcur, p, to, tile, to, cur.blank)));
          if constexpr (kTraced) tid_.push_back(tr->node(p, tcur, g, static_cast<int>(hval_.back())));
          push(idx);
        } else if (wg_ > 0 && g < nodes_[at].g) {  // a cheaper path: (re)open it
          nodes_[at].g = g;
          nodes_[at].parent = e.node;
          nodes_[at].closed = 0;
          if constexpr (kTraced) tid_[at] = tr->node(p, tcur, g, static_cast<int>(hval_[at]));
          push(at);
        } else if constexpr (kTraced) {
          tr->node(p, tcur, g, static_cast<int>(hval_[at]), true);
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

  const Domain& d_;
  const H& h_;
  int wg_, wh_;
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> hval_;
  std::vector<std::uint32_t> tid_;  // trace id of each node's latest generation (only when tracing)
  NodeMap seen_;
  std::vector<std::vector<Entry>> buckets_;
  std::size_t open_size_ = 0;
  std::uint32_t min_key_ = 0;
};

template <class H>
Result best_first(const Domain& d, const H& h, const State& start, int wg, int wh, const Limits& limits,
                  Trace* tr = nullptr) {
  return BestFirst<H>(d, h, wg, wh).run(start, limits, tr);
}

namespace detail {

// The IDA* recursion. The path is kept as the blank's cells (a move is the blank's new cell), so a
// node costs one packed-word update and one heuristic update; limits are checked every 4096
// expansions, outside the hot path.
template <class H, bool kTraced>
struct IdaStar {
  const Domain& d;
  const H& h;
  Result& r;
  Budget& budget;
  Trace* tr;                         // used only when kTraced
  std::vector<std::uint8_t> blanks;  // blanks[k]: the blank's cell after k moves
  int bound = 0;
  int next_bound = 0;
  std::uint64_t expanded = 0, generated = 0;
  bool stop = false;

  // Returns true when the goal is found below `p` (blanks then holds the whole path).
  // `tid`: this node's trace id (kNone when not tracing).
  bool search(std::uint64_t p, int blank, int prev_blank, int g, int hv, std::uint32_t tid) {
    const int f = g + hv;
    if (f > bound) {
      next_bound = std::min(next_bound, f);
      return false;
    }
    if (p == d.goal_packed) {
      if constexpr (kTraced) tr->solved_at(tid);
      return true;
    }
    if ((++expanded & 4095) == 0) {
      r.expanded = expanded;
      if (!budget.step(r, blanks.capacity())) {
        stop = true;
        return false;
      }
    }
    if constexpr (kTraced) tr->expand(tid);
    const auto& nb = d.board.neighbours(blank);
    for (int k = 0; k < nb.count; ++k) {
      const int to = nb.cell[k];
      if (to == prev_blank) continue;
      const int tile = Domain::tile_at(p, to);
      const std::uint64_t q = Domain::move(p, blank, to);
      ++generated;
      blanks[static_cast<std::size_t>(g) + 1] = static_cast<std::uint8_t>(to);
      const int hq = h.update(hv, q, to, tile, to, blank);
      std::uint32_t cid = Trace::kNone;
      if constexpr (kTraced) cid = tr->node(q, tid, g + 1, hq);
      if (search(q, to, blank, g + 1, hq, cid)) return true;
      if (stop) return false;
    }
    return false;
  }
};

}  // namespace detail

namespace detail {

template <class H, bool kTraced>
Result ida_star(const Domain& d, const H& h, const State& start, const Limits& limits, Trace* tr) {
  Result r;
  Budget budget(limits);
  detail::IdaStar<H, kTraced> ida{d, h, r, budget, tr, {}, 0, 0};
  const std::uint64_t s = start.packed();
  const int h0 = h.eval(s, start.blank);
  ida.bound = h0;
  constexpr int kNoBound = 1 << 30;
  while (!ida.stop) {
    ida.blanks.assign(static_cast<std::size_t>(ida.bound) + 2, 0);
    ida.blanks[0] = static_cast<std::uint8_t>(start.blank);
    ida.next_bound = kNoBound;
    std::uint32_t root = Trace::kNone;
    if constexpr (kTraced) {
      if (ida.bound > h0) tr->next_iteration();
      root = tr->root(s, h0);
    }
    if (ida.search(s, start.blank, -1, 0, h0, root)) {
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

// Untraced runs compile without the trace (a separate instantiation).
template <class H>
Result ida_star(const Domain& d, const H& h, const State& start, const Limits& limits, Trace* tr = nullptr) {
  return tr ? detail::ida_star<H, true>(d, h, start, limits, tr) : detail::ida_star<H, false>(d, h, start, limits, nullptr);
}

// Descent on the goal's exact distance table (`table` answers d.goal by relabelling). Records,
// when traced, every neighbour looked at with its exact distance as h.
inline Result table_descent(const Domain& d, const DistanceTable& table, const State& start, const Limits& limits,
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
