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
// single-tile metric; a few milliseconds). Incremental: a node carries both abstractions' keys and
// distances, and a one-cell step changes one key by two count fields and the blank's line, then
// looks that key up in an open-addressing table (eval from scratch, at the root: O(N) and two
// lookups).
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
  for (const auto& [lines, cap] : {std::pair{b.height(), b.width()}, std::pair{b.width(), b.height()}})
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
    std::unordered_map<std::uint64_t, std::uint8_t> dist;  // built by the BFS
    // The distances again, for lookups during searches: linear probing in a power-of-two table at
    // most half full, kEmpty marking free slots (no key is all ones: the counts of a line sum to
    // at most its size).
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
    std::vector<std::uint64_t> slot_key;
    std::vector<std::uint8_t> slot_dist;
    int slot_shift = 64;
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
      int log2 = 1;
      while ((std::size_t{1} << log2) < 2 * dist.size()) ++log2;
      slot_key.assign(std::size_t{1} << log2, kEmpty);
      slot_dist.assign(std::size_t{1} << log2, 0);
      slot_shift = 64 - log2;
      for (const auto& [k, v] : dist) {
        std::size_t i = slot(k);
        while (slot_key[i] != kEmpty) i = (i + 1) & (slot_key.size() - 1);
        slot_key[i] = k;
        slot_dist[i] = v;
      }
    }
    std::size_t slot(std::uint64_t k) const noexcept {
      return static_cast<std::size_t>((k * 0x9E37'79B9'7F4A'7C15u) >> slot_shift);
    }
    // The distance of an abstract state (0 for a key never reached: every reachable state's
    // abstraction is in the table).
    int lookup(std::uint64_t k) const noexcept {
      for (std::size_t i = slot(k);; i = (i + 1) & (slot_key.size() - 1)) {
        if (slot_key[i] == k) return slot_dist[i];
        if (slot_key[i] == kEmpty) return 0;
      }
    }
    // The key after the tile on cell `from` slides to the blank's cell `to` (a one-cell step): the
    // tile's count moves from its line to the blank's, and the blank takes the tile's line. Only
    // the counts of goal lines 0..lines-2 are fields; the last one's follow from the lines' sizes.
    std::uint64_t stepped(std::uint64_t k, int tile, int from, int to) const noexcept {
      const int g = goal_line[tile], lf = line_of[from], lt = line_of[to];
      if (g + 1 < lines) {
        const int base = blank_bits + g * bits;
        k += (std::uint64_t{1} << (base + lt * (lines - 1) * bits)) - (std::uint64_t{1} << (base + lf * (lines - 1) * bits));
      }
      return (k & ~((std::uint64_t{1} << blank_bits) - 1)) | static_cast<std::uint64_t>(lf);
    }
    std::uint64_t key_of(W p, int blank) const noexcept {
      Counts c{};
      for (int cell = 0; cell < lines * cap; ++cell)
        if (cell != blank) ++c[line_of[cell]][goal_line[D::tile_at(p, cell)]];
      return key(c, line_of[blank]);
    }

    int distance(W p, int blank) const { return lookup(key_of(p, blank)); }
  };

  // What a node carries: both keys and both distances, so that a step looks up only the key it
  // changes.
  struct Value {
    int h = 0;
    std::uint8_t row_dist = 0, col_dist = 0;
    std::uint64_t row_key = 0, col_key = 0;
  };
  static int value(const Value& v) noexcept { return v.h; }

  Lines rows, cols;
  explicit WalkingDistance(const D& d) {
    rows.build(d, true);
    cols.build(d, false);
  }
  Value eval(W p, int blank) const {
    Value v;
    v.row_key = rows.key_of(p, blank);
    v.col_key = cols.key_of(p, blank);
    v.row_dist = static_cast<std::uint8_t>(rows.lookup(v.row_key));
    v.col_dist = static_cast<std::uint8_t>(cols.lookup(v.col_key));
    v.h = v.row_dist + v.col_dist;
    return v;
  }
  // The tile on `from` slides to `to`, one cell: a vertical step changes the row abstraction only,
  // a horizontal one the column abstraction only.
  Value update(const Value& v, W, int, int tile, int from, int to) const noexcept {
    Value n = v;
    if (rows.line_of[from] != rows.line_of[to]) {
      n.row_key = rows.stepped(v.row_key, tile, from, to);
      n.row_dist = static_cast<std::uint8_t>(rows.lookup(n.row_key));
    } else {
      n.col_key = cols.stepped(v.col_key, tile, from, to);
      n.col_dist = static_cast<std::uint8_t>(cols.lookup(n.col_key));
    }
    n.h = n.row_dist + n.col_dist;
    return n;
  }
  // The abstractions' sizes (tests, docs).
  std::size_t abstract_states() const noexcept { return rows.dist.size() + cols.dist.size(); }
  // The bytes of its tables (a search's memory limit counts them): the distances' hash map (a
  // node of key, distance and link a state, and its buckets) and the lookup slots.
  std::uint64_t table_bytes() const noexcept {
    std::uint64_t n = 0;
    for (const Lines* l : {&rows, &cols})
      n += l->dist.size() * 32 + l->dist.bucket_count() * sizeof(void*) + l->slot_key.size() * 9;
    return n;
  }
};

}  // namespace tilespace::search
