// Walking distance (Takahashi's heuristic for the 15-puzzle), in the domain's metric: admissible
// in both the single-tile and the multi-tile metric.
//
// A state is abstracted twice. By rows: how many tiles of each goal row stand in each row, and the
// blank's row; a vertical move changes that abstraction and a horizontal one does not. By
// columns: the same with columns and horizontal moves. The abstraction's moves are the domain's:
// the blank goes up or down one row (single-tile) or k rows (multi-tile), and each row it crosses
// gives one tile, of any goal row it holds, to the row below (above) it; the choice of which tile
// ignores columns, so every real move is one abstract move (a relaxation). The distance of a
// state's row abstraction to the goal's, found by a BFS over the abstraction at construction, is
// then a lower bound of the vertical moves left, the column one of the horizontal moves, and
// their sum is admissible and consistent. It dominates Manhattan in the single-tile metric and
// multi-manhattan in the multi-tile one on most states.
//
// Cost: the BFS at construction (the 15-puzzle's row abstraction has 24,964 states in the
// single-tile metric; a few milliseconds), and two hash lookups a node (eval from scratch: O(N)).
// Boards walking_distance_takes refuses (above 16 cells; 2x7 and longer thin boards, whose
// abstraction does not pack into 64 bits) are refused with an InputError, and so, as a guard, is
// an abstraction of more than kMaxAbstractStates states.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tilespace/errors.hpp"
#include "tilespace/search/domain.hpp"

namespace tilespace::search {

// Whether walking distance takes `board`: at most 16 cells (the 24-puzzle's abstractions have
// millions of states), and each abstraction's counts pack into 64 bits (2x7 and longer do not).
inline bool walking_distance_takes(const Board& b) noexcept {
  if (b.cells() > kMaxCells) return false;
  for (const auto [lines, cap] : {std::pair{b.height(), b.width()}, std::pair{b.width(), b.height()}})
    if (std::bit_width(static_cast<unsigned>(lines - 1)) + lines * (lines - 1) * std::bit_width(static_cast<unsigned>(cap)) > 64)
      return false;
  return true;
}

template <class D>
struct WalkingDistance {
  static constexpr bool kAdmissible = true;
  using W = typename D::Word;
  static constexpr int kMaxLines = kMaxBoardCells / 2;
  // The largest abstraction built (about 60 MB of hash table): the 15-puzzle's has 24,964 states;
  // the 24-puzzle's, millions, and is refused.
  static constexpr std::size_t kMaxAbstractStates = 1'000'000;

  // One abstraction: `lines` lines (rows or columns) of `cap` cells.
  struct Lines {
    int lines = 0, cap = 0, bits = 0, blank_bits = 0;
    bool multi = false;
    std::array<std::uint8_t, kMaxBoardCells> line_of{};    // cell -> its line
    std::array<std::uint8_t, kMaxBoardCells> goal_line{};  // tile -> its goal line
    std::unordered_map<std::uint64_t, std::uint8_t> dist;
    using Counts = std::array<std::array<std::uint8_t, kMaxLines>, kMaxLines>;  // [line][goal line]

    // The key: the blank's line, then counts [i][j] for j < lines - 1 (the last follows from the
    // line's size).
    std::uint64_t key(const Counts& c, int blank_line) const noexcept {
      std::uint64_t k = static_cast<std::uint64_t>(blank_line);
      int shift = blank_bits;
      for (int i = 0; i < lines; ++i)
        for (int j = 0; j + 1 < lines; ++j, shift += bits) k |= static_cast<std::uint64_t>(c[i][j]) << shift;
      return k;
    }
    int decode(std::uint64_t k, Counts& c) const noexcept {
      const int blank_line = static_cast<int>(k & ((std::uint64_t{1} << blank_bits) - 1));
      int shift = blank_bits;
      const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
      for (int i = 0; i < lines; ++i) {
        int sum = 0;
        for (int j = 0; j + 1 < lines; ++j, shift += bits) {
          c[i][j] = static_cast<std::uint8_t>((k >> shift) & mask);
          sum += c[i][j];
        }
        c[i][lines - 1] = static_cast<std::uint8_t>(cap - (i == blank_line) - sum);
      }
      return blank_line;
    }

    // The moves of the blank from line `b` in direction `dir` (-1: toward line 0) over `k` lines:
    // each crossed line gives one tile of any goal line it holds to the line it moves into.
    template <class F>
    void moves(Counts& c, int b, F&& f) const {
      const int reach = multi ? lines - 1 : 1;
      for (const int dir : {-1, 1}) give(c, b, dir, reach, f);
    }
    // The blank has reached line `at` (tiles already moved from the lines it crossed); one more
    // line, up to `left`: line at+dir gives one tile to line at.
    template <class F>
    void give(Counts& c, int at, int dir, int left, F&& f) const {
      const int from = at + dir;
      if (left == 0 || from < 0 || from >= lines) return;
      for (int j = 0; j < lines; ++j) {
        if (!c[from][j]) continue;
        --c[from][j];
        ++c[at][j];
        f(c, from);  // the blank now on line `from`
        give(c, from, dir, left - 1, f);
        ++c[from][j];
        --c[at][j];
      }
    }

    void build(const D& d, bool by_rows) {
      const Board& b = d.board;
      lines = by_rows ? b.height() : b.width();
      cap = by_rows ? b.width() : b.height();
      multi = d.multi();
      bits = std::bit_width(static_cast<unsigned>(cap));
      blank_bits = std::bit_width(static_cast<unsigned>(lines - 1));
      if (!walking_distance_takes(b))
        throw InputError("walking-distance: takes boards of at most 16 cells whose row and column abstractions pack "
                         "into 64 bits (3x3, 3x4, 2x6, 4x4), not " + b.name());
      for (int c = 0; c < b.cells(); ++c) line_of[c] = static_cast<std::uint8_t>(by_rows ? b.row(c) : b.col(c));
      for (int t = 1; t < b.cells(); ++t) goal_line[t] = line_of[d.goal_cell[t]];
      Counts c{};
      for (int t = 1; t < b.cells(); ++t) ++c[goal_line[t]][goal_line[t]];
      const std::uint64_t start = key(c, line_of[d.goal.blank]);
      dist.emplace(start, 0);
      std::vector<std::uint64_t> frontier{start}, next;
      for (int depth = 1; !frontier.empty(); ++depth) {
        next.clear();
        for (const std::uint64_t k : frontier) {
          const int bl = decode(k, c);
          moves(c, bl, [&](const Counts& n, int nb) {
            const std::uint64_t nk = key(n, nb);
            if (dist.emplace(nk, static_cast<std::uint8_t>(depth)).second) next.push_back(nk);
          });
          if (dist.size() > kMaxAbstractStates)
            throw InputError("walking-distance: the " + b.name() + " board's " + (by_rows ? "row" : "column") +
                             " abstraction has more than " + std::to_string(kMaxAbstractStates) +
                             " states (5x5 and larger): use another heuristic");
        }
        frontier.swap(next);
      }
    }

    int distance(W p, int blank) const {
      Counts c{};
      for (int cell = 0; cell < lines * cap; ++cell)
        if (cell != blank) ++c[line_of[cell]][goal_line[D::tile_at(p, cell)]];
      const auto it = dist.find(key(c, line_of[blank]));
      return it == dist.end() ? 0 : it->second;  // every reachable state's abstraction is in the table
    }
  };

  Lines rows, cols;
  explicit WalkingDistance(const D& d) {
    rows.build(d, true);
    cols.build(d, false);
  }
  int eval(W p, int blank) const { return rows.distance(p, blank) + cols.distance(p, blank); }
  int update(int, W after, int blank_after, int, int, int) const { return eval(after, blank_after); }
  // The abstractions' sizes (tests, docs).
  std::size_t abstract_states() const noexcept { return rows.dist.size() + cols.dist.size(); }
};

}  // namespace tilespace::search
