// The heuristics: estimates of the moves left to the goal, each declaring whether it is
// admissible (never overestimates). Algorithms are templates over them, so no call is virtual.
//
// Contract of a heuristic H:
//   static constexpr bool kAdmissible;  explicit H(const Domain&);
//   int eval(std::uint64_t packed, int blank) const;              // from scratch
//   int update(int h, std::uint64_t after, int blank_after,       // after tile `tile` moved
//              int tile, int from, int to) const;                  // from cell `from` to `to`
// `update` is O(1) where the heuristic allows (misplaced, Manhattan); others recompute.
// Thread-safety: immutable after construction.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "tilespace/distance_table.hpp"
#include "tilespace/search/domain.hpp"
#include "tilespace/search/registry.hpp"

namespace tilespace::search {

// Number of misplaced tiles (the blank excluded).
struct Misplaced {
  static constexpr bool kAdmissible = true;
  const Domain* d;
  explicit Misplaced(const Domain& dom) : d(&dom) {}
  int eval(std::uint64_t p, int blank) const noexcept {
    int h = 0;
    for (int c = 0; c < d->cells(); ++c) h += c != blank && d->goal_cell[Domain::tile_at(p, c)] != c;
    return h;
  }
  int update(int h, std::uint64_t, int, int tile, int from, int to) const noexcept {
    return h - (d->goal_cell[tile] != from) + (d->goal_cell[tile] != to);
  }
};

// Sum of the tiles' Manhattan distances to their goal cells; per move, one table entry.
struct Manhattan {
  static constexpr bool kAdmissible = true;
  std::array<std::array<std::uint8_t, kMaxCells>, kMaxCells> dist{};  // dist[tile][cell]
  explicit Manhattan(const Domain& dom) {
    const Board& b = dom.board;
    for (int t = 1; t < dom.cells(); ++t)
      for (int c = 0; c < dom.cells(); ++c) {
        const int g = dom.goal_cell[t];
        dist[t][c] = static_cast<std::uint8_t>(std::abs(b.row(c) - b.row(g)) + std::abs(b.col(c) - b.col(g)));
      }
  }
  int eval(std::uint64_t p, int blank) const noexcept {
    int h = 0;
    for (int c = 0; c < kMaxCells; ++c)
      if (c != blank) h += dist[Domain::tile_at(p, c)][c];
    return h;
  }
  int update(int h, std::uint64_t, int, int tile, int from, int to) const noexcept {
    return h - dist[tile][from] + dist[tile][to];
  }
};

// Manhattan plus 2 for every tile that must leave its row (column) to let the others of that
// line that belong there pass: per line, (tiles in their goal line) - (longest increasing run of
// their goal positions). This is the exact minimum, so the sum stays admissible.
struct LinearConflict {
  static constexpr bool kAdmissible = true;
  const Domain* d;
  Manhattan md;
  explicit LinearConflict(const Domain& dom) : d(&dom), md(dom) {}
  int eval(std::uint64_t p, int blank) const noexcept;
  int update(int, std::uint64_t after, int blank_after, int, int, int) const noexcept {
    return eval(after, blank_after);
  }
};

// Inversions: pairs of tiles (blank excluded) in row-major order whose labels are out of order.
int inversions(std::uint64_t p, int cells) noexcept;
// Sum over inverted pairs of the difference of their labels.
int weighted_inversions(std::uint64_t p, int cells) noexcept;

// The classic course heuristics built on inversions (none is admissible).
struct Inversions {
  static constexpr bool kAdmissible = false;
  int goal_inv, weight, cells;
  explicit Inversions(const Domain& dom, int w = 3)
      : goal_inv(inversions(dom.goal_packed, dom.cells())), weight(w), cells(dom.cells()) {}
  int eval(std::uint64_t p, int) const noexcept { return std::abs(inversions(p, cells) - goal_inv) * weight; }
  int update(int, std::uint64_t after, int b, int, int, int) const noexcept { return eval(after, b); }
};

struct InversionsWeighted {
  static constexpr bool kAdmissible = false;
  int goal_w, cells;
  explicit InversionsWeighted(const Domain& dom)
      : goal_w(weighted_inversions(dom.goal_packed, dom.cells())), cells(dom.cells()) {}
  int eval(std::uint64_t p, int) const noexcept { return std::abs(weighted_inversions(p, cells) - goal_w); }
  int update(int, std::uint64_t after, int b, int, int, int) const noexcept { return eval(after, b); }
};

struct MisplacedInversions {
  static constexpr bool kAdmissible = false;
  Misplaced mis;
  Inversions inv;
  explicit MisplacedInversions(const Domain& dom) : mis(dom), inv(dom, 3) {}
  int eval(std::uint64_t p, int b) const noexcept { return mis.eval(p, b) + inv.eval(p, b); }
  int update(int, std::uint64_t after, int b, int, int, int) const noexcept { return eval(after, b); }
};

// Misplaced tiles minus the value-inverted pairs (a > b, a before b in the goal) that already
// stand in their goal order, at least 0. Never above Misplaced, so admissible.
struct MisplacedSharedPairs {
  static constexpr bool kAdmissible = true;
  const Domain* d;
  Misplaced mis;
  explicit MisplacedSharedPairs(const Domain& dom) : d(&dom), mis(dom) {}
  int eval(std::uint64_t p, int blank) const noexcept;
  int update(int, std::uint64_t after, int b, int, int, int) const noexcept { return eval(after, b); }
};

// Sum over tiles of |index in the state - index in the goal|, ignoring the board's geometry.
struct IndexDistance {
  static constexpr bool kAdmissible = false;
  const Domain* d;
  explicit IndexDistance(const Domain& dom) : d(&dom) {}
  int eval(std::uint64_t p, int blank) const noexcept {
    int h = 0;
    for (int c = 0; c < d->cells(); ++c)
      if (c != blank) h += std::abs(c - d->goal_cell[Domain::tile_at(p, c)]);
    return h;
  }
  int update(int h, std::uint64_t, int, int tile, int from, int to) const noexcept {
    return h - std::abs(from - d->goal_cell[tile]) + std::abs(to - d->goal_cell[tile]);
  }
};

// The exact distance from the distance table (perfect: A* walks straight to the goal).
struct Exact {
  static constexpr bool kAdmissible = true;
  const Domain* d;
  const DistanceTable* table;
  Labelling labels;
  Exact(const Domain& dom, const DistanceTable& t) : d(&dom), table(&t), labels(dom.goal) {}
  int eval(std::uint64_t p, int) const {
    const auto v = table->distance(d->state(p), labels);
    return v ? *v : 0;
  }
  int update(int, std::uint64_t after, int b, int, int, int) const { return eval(after, b); }
};

}  // namespace tilespace::search
