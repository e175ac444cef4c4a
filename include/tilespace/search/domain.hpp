// The search domain: a board, a goal, and states as words of a fixed number of bits a cell.
//
// Two domains share one code: `Domain` packs a state of a board of at most 16 cells into a
// 64-bit word (4 bits a cell), `WideDomain` a state of up to 25 cells (the 24-puzzle) into a
// 128-bit word (5 bits a cell). Every algorithm and heuristic is a template over the domain, so
// the node loop is the same machine code shape on both and has no virtual call.
//
// A move is the blank's new cell `to`: the tile there slides into the old blank cell, so
// word' = word ^ (t << B*to) ^ (t << B*blank) (the blank's field is 0). Undoing it is the move
// back to the old blank cell.
//
// A domain counts moves in one metric (board.hpp Metric). Its move list from each blank cell
// (`moves`) holds the board's neighbours in the single-tile metric and every cell of the blank's
// row and column in the multi-tile one (a direction's nearest cell first, in U, D, L, R order);
// `slide` makes either kind of move, and `Ops::slide` (concepts.hpp) updates a heuristic over the
// one-cell steps a multi-tile move is made of.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "tilespace/board.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/state.hpp"

namespace tilespace::search {

// The moves of the blank from one cell: the target cells, their directions and whether each
// travels along the blank's row (horizontal) or column.
inline constexpr int kMaxMoves = kMaxBoardCells / 2;  // (W-1) + (H-1) on 2x12
struct MoveList {
  std::uint8_t count = 0;
  std::array<std::uint8_t, kMaxMoves> cell{};
  std::array<Dir, kMaxMoves> dir{};
  std::array<bool, kMaxMoves> horizontal{};
};

template <class W>
struct BasicDomain {
  using Word = W;
  static constexpr bool kPacked = sizeof(W) == 8;  // the words are State::packed()
  static constexpr int kBits = kPacked ? 4 : 5;
  static constexpr int kCells = kPacked ? kMaxCells : kMaxBoardCells;  // the largest board it takes
  static constexpr W kMask = (W{1} << kBits) - 1;

  Board board;
  State goal;
  W goal_packed = 0;
  std::array<std::uint8_t, kMaxBoardCells> goal_cell{};  // where each tile stands in the goal
  Metric metric = Metric::single;
  std::array<MoveList, kMaxBoardCells> moves_{};  // the metric's moves from each blank cell
  std::array<std::uint8_t, kMaxBoardCells> row_{};

  // Packed: throws InputError (require_packed) above kMaxCells cells.
  explicit BasicDomain(const State& g, Metric m = Metric::single) : board(g.board), goal(g), metric(m) {
    if constexpr (kPacked) require_packed(board);
    goal_packed = pack(g);
    for (int c = 0; c < g.cells(); ++c) goal_cell[g.tiles[c]] = static_cast<std::uint8_t>(c);
    const int reach = m == Metric::multi ? std::max(board.width(), board.height()) : 2;
    for (int c = 0; c < board.cells(); ++c) {
      row_[c] = static_cast<std::uint8_t>(board.row(c));
      MoveList& l = moves_[c];
      for (int d = 0; d < 4; ++d)
        for (int to = board.step(c, static_cast<Dir>(d)), k = 1; to >= 0 && k < reach; to = board.step(to, static_cast<Dir>(d)), ++k) {
          l.cell[l.count] = static_cast<std::uint8_t>(to);
          l.dir[l.count] = static_cast<Dir>(d);
          l.horizontal[l.count] = d >= static_cast<int>(Dir::Left);
          ++l.count;
        }
    }
  }
  int cells() const noexcept { return board.cells(); }
  bool multi() const noexcept { return metric == Metric::multi; }
  // The moves of the metric from blank cell `blank`.
  const MoveList& moves(int blank) const noexcept { return moves_[blank]; }
  // Whether the blank's move from `from` to `to` (a cell of its row or column) is along its row.
  bool along_row(int from, int to) const noexcept { return row_[from] == row_[to]; }
  // Whether a move along the blank's row (`horizontal`) or column from `blank` goes along the line
  // of the last move, from `prev` (-1 at a root): two such moves make one move or none, so the
  // multi-tile searches that keep to shortest paths never make the second.
  bool continues_line(int prev, int blank, bool horizontal) const noexcept {
    return prev >= 0 && along_row(prev, blank) == horizontal;
  }
  // The one-cell step toward `to` from `blank` (a cell of its row or column): +-1 or +-width.
  int step_toward(int blank, int to) const noexcept {
    const int s = along_row(blank, to) ? 1 : board.width();
    return to > blank ? s : -s;
  }
  // The state after the blank travels from `blank` to `to`, a move of the metric.
  W slide(W p, int blank, int to) const noexcept {
    const int s = step_toward(blank, to);
    if (blank + s == to) return move(p, blank, to);
    for (int c = blank; c != to; c += s) p = move(p, c, c + s);
    return p;
  }

  static int tile_at(W p, int cell) noexcept { return static_cast<int>((p >> (kBits * cell)) & kMask); }
  // The state after the blank (on `blank`) moves to `to`.
  static W move(W p, int blank, int to) noexcept {
    const W t = (p >> (kBits * to)) & kMask;
    return p ^ (t << (kBits * to)) ^ (t << (kBits * blank));
  }
  static W pack(const State& s) noexcept {
    W p = 0;
    for (int c = 0; c < s.cells(); ++c) p |= W{s.tiles[c]} << (kBits * c);
    return p;
  }
  State state(W p) const {
    State s{board, {}, 0};
    for (int c = 0; c < board.cells(); ++c) {
      s.tiles[c] = static_cast<std::uint8_t>(tile_at(p, c));
      if (s.tiles[c] == 0) s.blank = c;
    }
    return s;
  }
  // The word a trace records (trace.hpp stores 64-bit words: traces are for packed boards).
  static std::uint64_t trace_word(W p) noexcept { return static_cast<std::uint64_t>(p); }
};

using Domain = BasicDomain<std::uint64_t>;
__extension__ typedef unsigned __int128 Word128;  // GCC and Clang
using WideDomain = BasicDomain<Word128>;

// Calls f(domain) with the domain of `goal`'s board: packed up to 16 cells, wide above.
template <class F>
decltype(auto) with_domain(const State& goal, F&& f, Metric metric = Metric::single) {
  if (is_packed(goal.board)) return f(Domain(goal, metric));
  return f(WideDomain(goal, metric));
}

}  // namespace tilespace::search
