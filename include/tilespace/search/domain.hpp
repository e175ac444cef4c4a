// The search domain: a board, a goal, and states as packed 64-bit words (4 bits a cell).
//
// A move is the blank's new cell `to`: the tile there slides into the old blank cell, so
// packed' = packed ^ (t << 4*to) ^ (t << 4*blank) (the blank's nibble is 0). Undoing it is the move
// back to the old blank cell, so "never undo the last move" costs nothing. Packed words limit the
// domain to boards of at most kMaxCells cells.
#pragma once

#include <array>
#include <cstdint>

#include "tilespace/board.hpp"
#include "tilespace/state.hpp"

namespace tilespace::search {

struct Domain {
  Board board;
  State goal;
  std::uint64_t goal_packed = 0;
  std::array<std::uint8_t, kMaxCells> goal_cell{};  // where each tile stands in the goal

  // Throws InputError (require_packed) if the goal's board has more than kMaxCells cells.
  explicit Domain(const State& g) : board(g.board), goal(g) {
    require_packed(board);
    goal_packed = g.packed();
    for (int c = 0; c < g.cells(); ++c) goal_cell[g.tiles[c]] = static_cast<std::uint8_t>(c);
  }
  int cells() const noexcept { return board.cells(); }

  static int tile_at(std::uint64_t p, int cell) noexcept { return static_cast<int>((p >> (4 * cell)) & 15u); }
  // The state after the blank (on `blank`) moves to `to`.
  static std::uint64_t move(std::uint64_t p, int blank, int to) noexcept {
    const std::uint64_t t = (p >> (4 * to)) & 15u;
    return p ^ (t << (4 * to)) ^ (t << (4 * blank));
  }
  static int blank_of(std::uint64_t p, int cells) noexcept {
    for (int c = 0; c < cells; ++c)
      if (tile_at(p, c) == 0) return c;
    return -1;
  }
  State state(std::uint64_t p) const { return State::unpack(board, p); }
};

}  // namespace tilespace::search
