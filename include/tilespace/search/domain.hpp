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
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "tilespace/board.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/state.hpp"

namespace tilespace::search {

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

  // Packed: throws InputError (require_packed) above kMaxCells cells.
  explicit BasicDomain(const State& g) : board(g.board), goal(g) {
    if constexpr (kPacked) require_packed(board);
    goal_packed = pack(g);
    for (int c = 0; c < g.cells(); ++c) goal_cell[g.tiles[c]] = static_cast<std::uint8_t>(c);
  }
  int cells() const noexcept { return board.cells(); }

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
decltype(auto) with_domain(const State& goal, F&& f) {
  if (is_packed(goal.board)) return f(Domain(goal));
  return f(WideDomain(goal));
}

}  // namespace tilespace::search
