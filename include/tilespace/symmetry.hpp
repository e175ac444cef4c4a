// The symmetries of a board, and the blank classes they make.
//
// A symmetry of a W x H grid is an isometry of it: the identity, the left-right and up-down
// mirrors and the half turn; a square board also has the two diagonal reflections and the two
// quarter turns. It keeps neighbouring cells neighbours, so moving each cell's tile to sigma(cell)
// maps states to states and moves to moves: distance(start, goal) = distance(sigma(start),
// sigma(goal)) for every pair, and solvability is kept. A *blank class* is an orbit of cells under
// the symmetries; its smallest cell is its representative. One distance table of any cell of a
// class answers every goal whose blank is in the class (goal_table.hpp): 2x7 has 4 classes for its
// 14 cells, 3x3 has 3 (corners, edges, centre), 3x4 and 4x3 have 4, 2x5 has 3. A non-square
// board and its transpose are the same puzzle too (transposition below).
//
// Any board up to kMaxBoardCells cells. Thread-safety: plain values.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/state.hpp"

namespace tilespace {

struct Symmetry {
  std::array<std::uint8_t, kMaxBoardCells> to{}, from{};  // cell c goes to to[c]; from is the inverse
  int cells = 0;

  bool identity() const noexcept;
  // sigma(s): the tile on cell c moved to cell to[c]. O(N).
  State apply(const State& s) const noexcept;
  // The inverse: the tile on cell c moved to cell from[c]. O(N).
  State undo(const State& s) const noexcept;
};

// Every symmetry of the board, the identity first: 4 on a rectangle, 8 on a square.
std::vector<Symmetry> board_symmetries(const Board& board);

// The blank classes of the board: each class's cells increasing, the classes ordered by their
// representative (smallest cell).
std::vector<std::vector<int>> blank_classes(const Board& board);

// The class of `cell`, increasing (its first cell is the representative).
std::vector<int> blank_class(const Board& board, int cell);

// A symmetry taking cell `from` to cell `to`: the identity when they are equal, else the first of
// board_symmetries that does; nullopt when the cells are in different classes.
std::optional<Symmetry> symmetry_taking(const Board& board, int from, int to);

// The board turned over its diagonal: W x H becomes H x W.
Board transposed(const Board& board);
// The transposition of `board` onto transposed(board): the tile on row r, column c goes to row c,
// column r. Rows become columns, so moves become moves of the same length in both metrics, and a
// table of either board answers the other's goals (goal_table.hpp). apply() and undo() keep the
// state's board: a caller mapping between the two boards sets it (GoalTable does).
Symmetry transposition(const Board& board);
// `first`, then `second`: cell c goes to second.to[first.to[c]].
Symmetry compose(const Symmetry& first, const Symmetry& second);

}  // namespace tilespace
