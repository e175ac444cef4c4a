// The heuristics: estimates of the moves left to the goal, each declaring whether it is
// admissible (never overestimates). Algorithms are templates over them and over the domain
// (domain.hpp: packed 64-bit words up to 16 cells, 128-bit words up to 25), so no call is virtual.
//
// Contract of a heuristic H over a domain D (word W):
//   static constexpr bool kAdmissible;  explicit H(const D&);
//   using Value = ...;             // optional (default int): what a node carries so that its
//                                  // children are evaluated incrementally
//   static int value(const Value&);                                // optional (default: the int)
//   Value eval(W packed, int blank) const;                         // from scratch
//   Value update(const Value& v, W after, int blank_after,         // after tile `tile` moved
//                int tile, int from, int to [, int cap]) const;    // from cell `from` to `to`
// With the optional `cap`, update may stop early once the value is known to exceed cap (IDA*
// prunes such a child anyway); the value it then returns is still a lower bound of the true one.
// `update` is O(1) where the heuristic allows (misplaced, Manhattan, one or two pattern-database
// lookups); others recompute.
// Optional: `static constexpr bool kUnrolled = true;` lets IDA* unroll its node loop on the boards
// of static shape (algorithms/ida_star.hpp, StaticBoard); set by the heuristics of the long searches.
// In code: the concept Heuristic<H, D> (concepts.hpp), which the algorithms require, and one
// concept per optional part; `Ops<H>` (concepts.hpp) is how algorithms call any heuristic.
// Thread-safety: immutable after construction.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "tilespace/goal_table.hpp"
#include "tilespace/search/concepts.hpp"
#include "tilespace/search/domain.hpp"
#include "tilespace/search/registry.hpp"

namespace tilespace::search {

namespace detail {

// Length of the longest strictly increasing subsequence of v[0..n).
inline int lis(const std::uint8_t* v, int n) noexcept {
  std::array<int, kMaxBoardCells> best{};
  int longest = 0;
  for (int i = 0; i < n; ++i) {
    best[i] = 1;
    for (int j = 0; j < i; ++j)
      if (v[j] < v[i]) best[i] = std::max(best[i], best[j] + 1);
    longest = std::max(longest, best[i]);
  }
  return longest;
}

// The tiles of a state in row-major order, blank skipped.
template <class D>
int sequence(typename D::Word p, int cells, std::array<std::uint8_t, kMaxBoardCells>& out) noexcept {
  int k = 0;
  for (int c = 0; c < cells; ++c)
    if (const int t = D::tile_at(p, c)) out[k++] = static_cast<std::uint8_t>(t);
  return k;
}

}  // namespace detail

// Number of misplaced tiles (the blank excluded).
template <class D>
struct Misplaced {
  static constexpr bool kAdmissible = true;
  const D* d;
  explicit Misplaced(const D& dom) : d(&dom) {}
  int eval(typename D::Word p, int blank) const noexcept {
    int h = 0;
    for (int c = 0; c < d->cells(); ++c) h += c != blank && d->goal_cell[D::tile_at(p, c)] != c;
    return h;
  }
  int update(int h, typename D::Word, int, int tile, int from, int to) const noexcept {
    return h - (d->goal_cell[tile] != from) + (d->goal_cell[tile] != to);
  }
};

// Sum of the tiles' Manhattan distances to their goal cells; per move, one table entry:
// delta[from][to][tile], the change (+1 or -1) when `tile` slides from `from` to its neighbour `to`.
// In IDA*'s unrolled loop `from` and `to` are constants, so a move costs one byte load. (Korf's
// instances 1-10, 1.51 G generated on one core, 3 paired runs: 5.17-5.84 s, against 5.33-5.99 s
// with two loads from the distance table.)
template <class D>
struct Manhattan {
  static constexpr bool kAdmissible = true;
  static constexpr bool kUnrolled = true;  // IDA* unrolls its node loop on static boards
  std::array<std::array<std::uint8_t, kMaxBoardCells>, kMaxBoardCells> dist{};  // dist[tile][cell]
  std::array<std::array<std::array<std::int8_t, kMaxBoardCells>, kMaxBoardCells>, kMaxBoardCells> delta{};
  explicit Manhattan(const D& dom) {
    const Board& b = dom.board;
    for (int t = 1; t < dom.cells(); ++t)
      for (int c = 0; c < dom.cells(); ++c) {
        const int g = dom.goal_cell[t];
        dist[t][c] = static_cast<std::uint8_t>(std::abs(b.row(c) - b.row(g)) + std::abs(b.col(c) - b.col(g)));
      }
    for (int from = 0; from < dom.cells(); ++from) {
      const auto& nb = b.neighbours(from);
      for (int k = 0; k < nb.count; ++k)
        for (int t = 1; t < dom.cells(); ++t)
          delta[from][nb.cell[k]][t] = static_cast<std::int8_t>(dist[t][nb.cell[k]] - dist[t][from]);
    }
  }
  int eval(typename D::Word p, int blank) const noexcept {
    int h = 0;
    for (int c = 0; c < D::kCells; ++c)
      if (c != blank) h += dist[D::tile_at(p, c)][c];
    return h;
  }
  int update(int h, typename D::Word, int, int tile, int from, int to) const noexcept { return h + delta[from][to][tile]; }
};

// Manhattan plus 2 for every tile that must leave its row (column) to let the others of that
// line that belong there pass: per line, (tiles in their goal line) - (longest increasing run of
// their goal positions). This is the exact minimum, so the sum stays admissible.
template <class D>
struct LinearConflict {
  static constexpr bool kAdmissible = true;
  const D* d;
  Manhattan<D> md;
  explicit LinearConflict(const D& dom) : d(&dom), md(dom) {}
  int eval(typename D::Word p, int blank) const noexcept {
    const Board& b = d->board;
    int removals = 0;
    std::array<std::uint8_t, kMaxBoardCells> goal_pos{};
    for (int r = 0; r < b.height(); ++r) {  // rows: tiles whose goal row is r, by column
      int k = 0;
      for (int c = 0; c < b.width(); ++c) {
        const int cell = r * b.width() + c;
        if (cell == blank) continue;
        const int g = d->goal_cell[D::tile_at(p, cell)];
        if (b.row(g) == r) goal_pos[k++] = static_cast<std::uint8_t>(b.col(g));
      }
      removals += k - detail::lis(goal_pos.data(), k);
    }
    for (int c = 0; c < b.width(); ++c) {  // columns
      int k = 0;
      for (int r = 0; r < b.height(); ++r) {
        const int cell = r * b.width() + c;
        if (cell == blank) continue;
        const int g = d->goal_cell[D::tile_at(p, cell)];
        if (b.col(g) == c) goal_pos[k++] = static_cast<std::uint8_t>(b.row(g));
      }
      removals += k - detail::lis(goal_pos.data(), k);
    }
    return md.eval(p, blank) + 2 * removals;
  }
  int update(int, typename D::Word after, int blank_after, int, int, int) const noexcept {
    return eval(after, blank_after);
  }
};


// Inversions: pairs of tiles (blank excluded) in row-major order whose labels are out of order.
template <class D>
int inversions(typename D::Word p, int cells) noexcept {
  std::array<std::uint8_t, kMaxBoardCells> s{};
  const int n = detail::sequence<D>(p, cells, s);
  int inv = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) inv += s[i] > s[j];
  return inv;
}

// Sum over inverted pairs of the difference of their labels.
template <class D>
int weighted_inversions(typename D::Word p, int cells) noexcept {
  std::array<std::uint8_t, kMaxBoardCells> s{};
  const int n = detail::sequence<D>(p, cells, s);
  int w = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (s[i] > s[j]) w += s[i] - s[j];
  return w;
}

// The classic course heuristics built on inversions (none is admissible).
template <class D>
struct Inversions {
  static constexpr bool kAdmissible = false;
  int goal_inv, weight, cells;
  explicit Inversions(const D& dom, int w = 3)
      : goal_inv(inversions<D>(dom.goal_packed, dom.cells())), weight(w), cells(dom.cells()) {}
  int eval(typename D::Word p, int) const noexcept { return std::abs(inversions<D>(p, cells) - goal_inv) * weight; }
  int update(int, typename D::Word after, int b, int, int, int) const noexcept { return eval(after, b); }
};

template <class D>
struct InversionsWeighted {
  static constexpr bool kAdmissible = false;
  int goal_w, cells;
  explicit InversionsWeighted(const D& dom)
      : goal_w(weighted_inversions<D>(dom.goal_packed, dom.cells())), cells(dom.cells()) {}
  int eval(typename D::Word p, int) const noexcept { return std::abs(weighted_inversions<D>(p, cells) - goal_w); }
  int update(int, typename D::Word after, int b, int, int, int) const noexcept { return eval(after, b); }
};

template <class D>
struct MisplacedInversions {
  static constexpr bool kAdmissible = false;
  Misplaced<D> mis;
  Inversions<D> inv;
  explicit MisplacedInversions(const D& dom) : mis(dom), inv(dom, 3) {}
  int eval(typename D::Word p, int b) const noexcept { return mis.eval(p, b) + inv.eval(p, b); }
  int update(int, typename D::Word after, int b, int, int, int) const noexcept { return eval(after, b); }
};

// Misplaced tiles minus the value-inverted pairs (a > b, a before b in the goal) that already
// stand in their goal order, at least 0. Never above Misplaced, so admissible.
template <class D>
struct MisplacedSharedPairs {
  static constexpr bool kAdmissible = true;
  const D* d;
  Misplaced<D> mis;
  explicit MisplacedSharedPairs(const D& dom) : d(&dom), mis(dom) {}
  int eval(typename D::Word p, int blank) const noexcept {
    // Position of each tile in the state's and the goal's row-major order.
    std::array<std::uint8_t, kMaxBoardCells> pos{};
    for (int c = 0; c < d->cells(); ++c) pos[D::tile_at(p, c)] = static_cast<std::uint8_t>(c);
    int shared = 0;
    for (int a = 2; a < d->cells(); ++a)
      for (int b = 1; b < a; ++b)  // a > b: value-inverted when a comes first in the goal
        if (d->goal_cell[a] < d->goal_cell[b] && pos[a] < pos[b]) ++shared;
    return std::max(0, mis.eval(p, blank) - shared);
  }
  int update(int, typename D::Word after, int b, int, int, int) const noexcept { return eval(after, b); }
};

// Sum over tiles of |index in the state - index in the goal|, ignoring the board's geometry.
template <class D>
struct IndexDistance {
  static constexpr bool kAdmissible = false;
  const D* d;
  explicit IndexDistance(const D& dom) : d(&dom) {}
  int eval(typename D::Word p, int blank) const noexcept {
    int h = 0;
    for (int c = 0; c < d->cells(); ++c)
      if (c != blank) h += std::abs(c - d->goal_cell[D::tile_at(p, c)]);
    return h;
  }
  int update(int h, typename D::Word, int, int tile, int from, int to) const noexcept {
    return h - std::abs(from - d->goal_cell[tile]) + std::abs(to - d->goal_cell[tile]);
  }
};

// A lower bound in the multi-tile metric (board.hpp Metric), admissible and consistent in both
// metrics. A horizontal move changes no tile's row and moves at most W-1 tiles one column each;
// a vertical move changes no column and moves at most H-1 tiles one row. So at least
// ceil(C / (W-1)) horizontal moves remain, C the sum of the tiles' column distances to their goal
// columns, and ceil(R / (H-1)) vertical ones (R by rows), and h is their sum; a move changes one
// of the two by at most one. Incremental: two table lookups a one-cell step.
template <class D>
struct MultiManhattan {
  static constexpr bool kAdmissible = true;
  struct Value {
    int h = 0;
    std::uint16_t across = 0, down = 0;  // C and R
  };
  static int value(const Value& v) noexcept { return v.h; }
  std::array<std::array<std::uint8_t, kMaxBoardCells>, kMaxBoardCells> dcol{}, drow{};  // [tile][cell]
  std::array<std::uint8_t, kMaxBoardCells * kMaxBoardCells> moves_across{}, moves_down{};  // ceil(C/(W-1)), ceil(R/(H-1))
  explicit MultiManhattan(const D& dom) {
    const Board& b = dom.board;
    for (int t = 1; t < dom.cells(); ++t)
      for (int c = 0; c < dom.cells(); ++c) {
        const int g = dom.goal_cell[t];
        dcol[t][c] = static_cast<std::uint8_t>(std::abs(b.col(c) - b.col(g)));
        drow[t][c] = static_cast<std::uint8_t>(std::abs(b.row(c) - b.row(g)));
      }
    for (int s = 0; s < kMaxBoardCells * kMaxBoardCells; ++s) {
      moves_across[s] = static_cast<std::uint8_t>((s + b.width() - 2) / (b.width() - 1));
      moves_down[s] = static_cast<std::uint8_t>((s + b.height() - 2) / (b.height() - 1));
    }
  }
  Value with(int across, int down) const noexcept {
    return {moves_across[across] + moves_down[down], static_cast<std::uint16_t>(across), static_cast<std::uint16_t>(down)};
  }
  Value eval(typename D::Word p, int blank) const noexcept {
    int across = 0, down = 0;
    for (int c = 0; c < D::kCells; ++c)
      if (c != blank) {
        across += dcol[D::tile_at(p, c)][c];
        down += drow[D::tile_at(p, c)][c];
      }
    return with(across, down);
  }
  Value update(const Value& v, typename D::Word, int, int tile, int from, int to) const noexcept {
    return with(v.across + dcol[tile][to] - dcol[tile][from], v.down + drow[tile][to] - drow[tile][from]);
  }
};

// The exact distance from the goal's distance table (perfect: A* walks straight to the goal).
template <class D>
struct Exact {
  static constexpr bool kAdmissible = true;
  const D* d;
  const GoalTable* table;
  Labelling labels;
  Exact(const D& dom, const GoalTable& t) : d(&dom), table(&t), labels(t.labelling(dom.goal)) {
    t.require_metric(dom.metric);
  }
  int eval(typename D::Word p, int) const {
    const auto v = table->distance(d->state(p), labels);
    return v ? *v : 0;
  }
  int update(int, typename D::Word after, int b, int, int, int) const { return eval(after, b); }
};

}  // namespace tilespace::search
