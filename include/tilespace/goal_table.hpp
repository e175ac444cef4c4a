// One distance table as it answers the goals with their blank on one cell: the cell's own table,
// or the table of another cell of its blank class seen through a board symmetry (symmetry.hpp),
// or a table of the transposed board (W x H for H x W) seen through the transposition and a
// symmetry of that board: the same puzzle turned over its diagonal.
//
// A table of cell t answers a goal whose blank is on cell b of t's class by a symmetry sigma
// with sigma(b) = t: distance(start, goal) = table's distance(sigma(start), sigma(goal)), and a
// path found in the table is mapped back by sigma's inverse. TableStore::goal hands these out, so
// every reader of the tables (query, --batch, solve and the solvers that use a table, check, stats,
// verify, random, the server, Python) gets the symmetry without repeating it.
//
// Cost: a direct table (the cell's own) is asked as before; through a symmetry a lookup reads the
// start's cells in the permuted order (one more byte load a cell, no allocation).
// Thread-safety: immutable; the table must outlive the view.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tilespace/distance_table.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/symmetry.hpp"

namespace tilespace {

class GoalTable {
 public:
  // `table` seen from goal blank cell `goal_blank`: directly when it is the table's own cell, else
  // through a symmetry taking `goal_blank` to it. std::invalid_argument when the cells are in
  // different blank classes.
  GoalTable(const DistanceTable& table, int goal_blank);
  // `table` seen from goal blank cell `goal_blank` of `board`: the table's own board, as above, or
  // its transpose (through the transposition, then a symmetry of the table's board).
  // std::invalid_argument for any other board.
  GoalTable(const DistanceTable& table, const Board& board, int goal_blank);

  const DistanceTable& table() const noexcept { return *table_; }
  // The goals' board (the table's, or its transpose's: transposed()).
  const Board& board() const noexcept { return board_; }
  // True when the table is of the transposed board (known without reading the table).
  bool transposed() const noexcept { return transposed_; }
  Metric metric() const noexcept { return table_->metric(); }
  // Throws InputError when the table counts moves in another metric than `m`.
  void require_metric(Metric m) const;
  int goal_blank() const noexcept { return goal_blank_; }
  // True when the table is the goal blank cell's own (no symmetry, the same board).
  bool direct() const noexcept { return direct_; }
  // Takes this goal blank cell's states (on board()) to the table's cells.
  const Symmetry& symmetry() const noexcept { return sym_; }
  // A state of board() on the table's cells and board, and back.
  State to_table(const State& s) const noexcept {
    State t = sym_.apply(s);
    t.board = table_->board();
    return t;
  }
  State from_table(const State& s) const noexcept {
    State t = sym_.undo(s);
    t.board = board_;
    return t;
  }

  // A symmetry keeps distances, so these are the table's.
  const std::vector<std::uint64_t>& histogram() const noexcept { return table_->histogram(); }
  int radius() const noexcept { return table_->radius(); }
  std::uint64_t states() const noexcept { return table_->ranker().size(); }

  // The goal prepared for many lookups: its labelling in the table's cells.
  // Precondition (every member below): goal.blank == goal_blank(), start on the same board.
  Labelling labelling(const State& goal) const noexcept {
    Labelling lab = base_;
    lab.goal_blank = sym_.to[goal.blank];
    for (int c = 0, k = 0; c < sym_.cells; ++c) {
      const int from = sym_.from[c];
      if (from != goal.blank) lab.label[goal.tiles[from]] = static_cast<std::uint8_t>(k++);
    }
    return lab;
  }
  // The rank in table() of `start` for the goal `lab` (labelling()), or Ranker::kUnreachable. O(N),
  // no allocation: the batch queries' hot path.
  std::uint64_t rank_if_reachable(const State& start, const Labelling& lab) const noexcept {
    Sequence seq{};
    const int blank = sym_.to[start.blank];
    for (int c = 0, k = 0; c < sym_.cells; ++c)
      if (c != blank) seq[k++] = lab.label[start.tiles[sym_.from[c]]];
    return table_->ranker().rank_if_reachable(seq, blank);
  }

  // Optimal number of moves from `start` to the goal, or nullopt when unreachable. O(N) on a byte
  // table; a two-bit table descends (distance_table.hpp).
  std::optional<int> distance(const State& start, const Labelling& lab) const {
    if (direct_) return table_->distance(start, lab);
    const std::uint64_t r = rank_if_reachable(start, lab);
    if (r == Ranker::kUnreachable) return std::nullopt;
    return table_->depth_of_rank(r);
  }
  std::optional<int> distance(const State& start, const State& goal) const { return distance(start, labelling(goal)); }

  // One optimal path from start to goal (both included), empty when unreachable: the table's
  // descent, mapped back.
  std::vector<State> descend(const State& start, const State& goal) const;
  // The states at the radius, labelled like `goal` (DistanceTable::farthest, mapped back).
  std::vector<State> farthest(const State& goal, std::size_t limit) const;
  // The state of rank r of the table (r < states()), labelled like `goal`, on this goal's cells.
  State state_of_rank(std::uint64_t r, const State& goal) const;

 private:
  const DistanceTable* table_;
  Board board_;
  int goal_blank_;
  bool transposed_;
  bool direct_;
  Symmetry sym_;
  Labelling base_;  // a labelling to fill (Labelling has no empty constructor)
};

}  // namespace tilespace
