// IDA* (algorithms.hpp): iterative deepening on f = g + h, never undoing the last move and, given a
// move automaton (automaton.hpp), never taking a move string it rejects. The node loop of the long
// searches: on the boards of static shape (`StaticBoard`: 3x3, 4x4, 5x5) it is unrolled for the
// heuristics that opt in. `detail::IdaStar` is also the IDA* phase of the hybrid search (hybrid.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/search/concepts.hpp"
#include "tilespace/search/domain.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"
#include "tilespace/state.hpp"

namespace tilespace::search {

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
template <SearchDomain D, Heuristic<D> H, class A, bool kTraced>
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
  const Entry* entries_ = d.multi() ? nullptr : static_entries(d.board);

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
    } else if (d.multi()) {
      res = node<true>(p, blank, prev_blank, g, v, q, tid);
    } else {
      res = node<false>(p, blank, prev_blank, g, v, q, tid);
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

  // The child where the blank moves from `blank` to `to` (direction `dir`; kMulti: any cell of its
  // row or column); `below` searches it.
  template <bool kMulti = false, class Below>
  [[gnu::always_inline]] int child(W p, int blank, int to, Dir dir, int g, VArg v, std::uint32_t q,
                                   std::uint32_t tid, int cap, Below&& below) {
    std::uint32_t cq = 0;
    if constexpr (kFsm) {
      cq = fsm->next(q, dir);
      if (cq == A::kDead) return kOn;
    }
    W c{};
    const V cv = [&] {
      if constexpr (kMulti) {
        return O::slide(h, d, v, p, blank, to, cap, c);
      } else {
        const int tile = D::tile_at(p, to);
        c = D::move(p, blank, to);
        return O::update(h, v, c, to, tile, to, blank, cap);
      }
    }();
    ++generated;
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

  // A node of any board: the loop over the domain's move list. Single-tile: never back to the
  // previous cell. Multi-tile: never along the last move's line (two moves along one line make one
  // move or none, so an optimal path never has them).
  template <bool kMulti>
  int node(W p, int blank, int prev_blank, int g, VArg v, std::uint32_t q, std::uint32_t tid) {
    if (const int e = enter(p, tid)) return e;
    const int cap = bound - g - 1;
    const MoveList& nb = d.moves(blank);
    for (int k = 0; k < nb.count; ++k) {
      const int to = nb.cell[k];
      if constexpr (kMulti) {
        if (d.continues_line(prev_blank, blank, nb.horizontal[k])) continue;
      } else {
        if (to == prev_blank) continue;
      }
      const int res = child<kMulti>(p, blank, to, nb.dir[k], g, v, q, tid, cap, [&](W c, VArg cv, std::uint32_t cq, std::uint32_t cid) {
        return node<kMulti>(c, to, blank, g + 1, cv, cq, cid);
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
  // (UnrolledHeuristic, concepts.hpp: Manhattan, the pattern databases).
  static const Entry* static_entries(const Board& b) {
    if constexpr (kTraced || !UnrolledHeuristic<H>) {
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

template <SearchDomain D, Heuristic<D> H, class A, bool kTraced>
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
        cur = cur.slid(ida.blanks[k]);
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
// automaton (`fsm`), move strings it rejects are never followed; A = MoveAutomaton with a null
// `fsm` runs on MoveAutomaton::accept_all(), the same nodes as A = NoAutomaton.
template <SearchDomain D, Heuristic<D> H, class A = NoAutomaton>
Result ida_star(const D& d, const H& h, const State& start, const Limits& limits, Trace* tr = nullptr,
                const A* fsm = nullptr) {
  if constexpr (!std::is_same_v<A, NoAutomaton>) {
    if (!fsm) fsm = &A::accept_all();  // one instantiation, not two (automaton.hpp)
  }
  if constexpr (D::kPacked) {
    if (tr) return detail::ida_star<D, H, A, true>(d, h, fsm, start, limits, tr);
  }
  return detail::ida_star<D, H, A, false>(d, h, fsm, start, limits, nullptr);
}

}  // namespace tilespace::search
