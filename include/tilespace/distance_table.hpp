// The exact distance of every state to one goal, by rank, and what follows from it.
//
// A table is built for the canonical goal with the blank on one cell (rank.hpp); any other goal
// with its blank on that cell is served by relabelling the tiles (Labelling), so one table per
// blank cell answers every (start, goal) pair of a board.
//
// Memory model: the depths are a read-only byte span owned by `storage` (a vector after a build,
// a memory mapping after a load). Thread-safety: all members are const and may be shared.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "tilespace/bfs.hpp"
#include "tilespace/database.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/state.hpp"

namespace tilespace {

// Bytes of physical memory on this machine (0 if unknown).
std::uint64_t physical_memory();

class DistanceTable {
 public:
  DistanceTable(const Ranker& ranker, std::span<const std::uint8_t> depths, std::vector<std::uint64_t> histogram,
                std::shared_ptr<const void> storage);

  // Runs the BFS for the canonical goal with the blank on `goal_blank`.
  // Throws InputError for a board of more than kMaxCells cells (require_packed), ResourceError if
  // the table does not fit in memory.
  static DistanceTable build(const Board& board, int goal_blank, const BfsOptions& options = {});
  // Wraps a validated database; throws DataError if it is not a distance table of a canonical goal.
  static DistanceTable from_database(LoadedDatabase db);

  // Memory a build needs (table + search words), in bytes. Throws InputError as build does.
  static std::uint64_t build_bytes(const Board& board);
  // Throws InputError for a board of more than kMaxCells cells (require_packed), ResourceError if
  // a build of this board would not fit in this machine's memory.
  static void check_fits(const Board& board);

  const Ranker& ranker() const noexcept { return ranker_; }
  const Board& board() const noexcept { return ranker_.board(); }
  State goal() const { return canonical_goal(board(), ranker_.goal_blank()); }
  std::span<const std::uint8_t> depths() const noexcept { return depths_; }
  const std::vector<std::uint64_t>& histogram() const noexcept { return histogram_; }
  int radius() const noexcept { return static_cast<int>(histogram_.size()) - 1; }
  DatabaseInfo info() const;

  // Optimal number of moves from `start` to `goal`, or nullopt when unreachable.
  // Precondition: both on this board, goal.blank == ranker().goal_blank(). O(N).
  std::optional<int> distance(const State& start, const State& goal) const {
    return distance(start, Labelling(goal));
  }
  std::optional<int> distance(const State& start, const Labelling& goal) const noexcept {
    const std::uint64_t r = ranker_.rank_if_reachable(goal.sequence(start), start.blank);
    if (r == Ranker::kUnreachable) return std::nullopt;
    return depths_[r];
  }

  // One optimal path from start to goal (both included), found by descending the table; empty
  // when unreachable. Ties go to the first of U, D, L, R.
  std::vector<State> descend(const State& start, const State& goal) const;

  // The states at the largest distance, in the labels of `goal` (at most `limit` of them).
  std::vector<State> farthest(const State& goal, std::size_t limit) const;

 private:
  Ranker ranker_;
  std::span<const std::uint8_t> depths_;
  std::vector<std::uint64_t> histogram_;
  std::shared_ptr<const void> storage_;
};

}  // namespace tilespace
