// A puzzle state: which tile stands on each cell of a Board, 0 for the blank.
//
// Tiles are numbered 1..N-1 for an N-cell board, N <= kMaxBoardCells (up to 5x5). Parsing accepts
// the common spellings ("1 2 3 4 5 6 7 8 0", "123456780", "12345678_", rows split by '/' or
// newlines, commas; the blank as 0, _ or .) and reports bad input as InputError with a one-line
// message. Only packing (packed / unpack) is limited to boards of at most kMaxCells cells.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/errors.hpp"

namespace tilespace {

using Tiles = std::array<std::uint8_t, kMaxBoardCells>;  // tile on each cell; cells >= N are 0

struct State {
  Board board{3, 3};
  Tiles tiles{};
  int blank = 0;

  int cells() const noexcept { return board.cells(); }

  // 4 bits per cell, cell c in bits 4c..4c+3: equality and hashing in one word.
  // Precondition (both): a packed board, cells() <= kMaxCells (asserted in debug builds only;
  // callers on larger boards guard with require_packed, board.hpp).
  std::uint64_t packed() const noexcept;
  static State unpack(const Board& board, std::uint64_t packed);

  // The state after the blank moves to the neighbouring cell `to`.
  State moved(int to) const noexcept;
  // The state after the blank travels to `to`, a cell of its row or column (a multi-tile move:
  // every tile between slides one cell toward the blank's old cell); moved() when `to` is a
  // neighbour. Precondition: `to` is in the blank's row or column.
  State slid(int to) const noexcept;

  // "1 2 3 4 5 6 7 8 0" style (blank written as 0).
  std::string to_string() const;
  // "123456780" for boards of at most 10 cells, else "1-2-...-0": used in file names.
  std::string compact() const;

  friend bool operator==(const State& a, const State& b) noexcept {
    return a.board == b.board && a.tiles == b.tiles;
  }
};

// Whether `b` is `a` after one move of `metric` (same board).
bool is_move(const State& a, const State& b, Metric metric) noexcept;

// The moves of a path (each step one move of `metric`) in the notation of answers and `check`:
// the letter of the direction the blank travels (U, D, L, R), then, for a multi-tile move of more
// than one cell, the number of cells. single: the letters run together ("RRDLU"); multi: moves
// are separated by spaces ("R2 D L U3").
std::string path_moves(const std::vector<State>& path, Metric metric);

// The goal with tiles 1..N-1 in row-major order and the blank on `blank_cell`
// (blank_cell = N-1 gives "1 2 ... N-1 0"; 0 gives "0 1 2 ... N-1").
State canonical_goal(const Board& board, int blank_cell);

// The value of one tile token: a number written with digits only, or 0 for the blank spellings
// _ and .; nullopt for anything else (signs included). Does not check the range. Inline: it is
// the inner loop of batch parsing.
inline std::optional<int> tile_value(std::string_view t) noexcept {
  if (t.size() == 1 && (t[0] == '_' || t[0] == '.')) return 0;
  if (t.empty() || t.size() > 9) return std::nullopt;
  int v = 0;
  for (const char c : t) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

// Parses one state of up to kMaxBoardCells tiles. Rows (split by '/' or newlines) must have equal
// lengths. With `board` given the tile count must match it, and rows its rows; otherwise the board is taken from the rows (if split by '/' or newlines: equal rows of at
// least 2 tiles, at most kMaxBoardCells in all) or from a square tile count (4, 9, 16 or 25).
// The form without separators ("123456780", "123/456/780") has at most 10 cells.
// Throws InputError naming the problem (wrong count, duplicate, unknown symbol, no blank).
State parse_state(std::string_view text, const std::optional<Board>& board = std::nullopt);

// How the tiles of a state are written: names[t] for tile t, names[0] the blank.
struct Labels {
  std::vector<std::string> names;
  bool numeric() const;  // the usual 0..N-1 (or empty)
  std::string name(int tile) const;
  std::string format(const State& s) const;  // "A B C _ ..." in row-major order
};

// True when the text has a token that is not a number or a blank symbol (a labelled state).
bool has_labels(std::string_view text);

struct LabelledPair {
  State start, goal;
  Labels labels;
};

// A start and a goal whose tiles have arbitrary names (letters, words), the same set in both.
// The blank is `blank_token`, or one of 0 _ . when empty. Tiles are numbered in the goal's
// row-major order, so the goal becomes 1..N-1 around its blank. Throws InputError naming a
// label missing from the goal, a duplicate, a wrong count or a missing blank.
LabelledPair parse_labelled_pair(std::string_view start, std::string_view goal, const std::optional<Board>& board,
                                 std::string_view blank_token = "");

}  // namespace tilespace
