// The additive pattern-database heuristic's tables: which database counts each tile, and the
// reflection. The search uses them through search::PatternDatabases (search/pattern_heuristic.hpp),
// a heuristic like the others, with every algorithm.
//
// The heuristic is the sum of the partition's databases, each looked up with the placement of its
// tiles (zero-aware databases, zero_aware.hpp: with the blank's cell too); where the goal allows it (a square board with the goal's blank on the main diagonal) also
// the same sum for the state reflected about the main diagonal, and the maximum of the two
// (Korf & Felner 2002). Both sums are admissible and change by at most 1 per move, so IDA* needs no
// re-expansion tricks.
//
// A catalogue (pattern.hpp: Partition::groups) takes the largest of its partitions' sums, each with
// its reflection.
//
// Memory model: a PdbHeuristic shares the databases (read-only) and a few small tables. It is
// immutable and may be shared by searches in several threads.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "tilespace/pdb/database.hpp"
#include "tilespace/pdb/zero_aware.hpp"

namespace tilespace::pdb {

inline constexpr int kMaxPatterns = 8;            // in a partition
inline constexpr int kMaxCataloguePatterns = 16;  // distinct patterns of a catalogue
inline constexpr int kMaxCataloguePartitions = 8;

class PdbHeuristic {
 public:
  // Precondition: the databases are distinct patterns built for `goal`; `groups` are the
  // catalogue's partitions as indices into them (empty: one partition of them all). Throws
  // InputError if the patterns of a partition overlap, or a partition has more than kMaxPatterns
  // of them (a catalogue: more than kMaxCataloguePatterns or kMaxCataloguePartitions).
  PdbHeuristic(const State& goal, std::vector<std::shared_ptr<const PatternDatabase>> databases,
               std::vector<std::vector<int>> groups = {});
  // The same over zero-aware databases (zero_aware() is then true and databases() empty).
  PdbHeuristic(const State& goal, std::vector<std::shared_ptr<const ZeroAwareDatabase>> databases,
               std::vector<std::vector<int>> groups = {});

  const State& goal() const noexcept { return goal_; }
  bool reflects() const noexcept { return reflect_; }
  // The heuristic value of `s` (same board as the goal).
  int evaluate(const State& s) const;
  // The sum without reflection, and the reflected sum (equal to the sum when !reflects()); for a
  // catalogue the largest over its partitions.
  int direct(const State& s) const;
  int reflected(const State& s) const;

  struct Slot {
    std::int8_t pattern = -1;  // which database counts the tile (-1: none)
    std::uint8_t index = 0;    // its position in that pattern
  };
  const std::vector<std::shared_ptr<const PatternDatabase>>& databases() const noexcept { return dbs_; }
  bool zero_aware() const noexcept { return !zdbs_.empty(); }
  const std::vector<std::shared_ptr<const ZeroAwareDatabase>>& zero_aware_databases() const noexcept { return zdbs_; }
  // The patterns, in order, whichever the kind.
  std::vector<const Pattern*> patterns() const;
  // The patterns that count the tile (one per partition that does, each pattern once).
  const std::vector<Slot>& slots(int tile) const noexcept { return slots_[tile]; }
  // The partitions, as indices into patterns() (one for a plain partition).
  const std::vector<std::vector<int>>& partitions() const noexcept { return groups_; }
  int mirror_tile(int tile) const noexcept { return sigma_[tile]; }  // tile whose goal cell is the transposed one
  int mirror_cell(int cell) const noexcept { return transpose_[cell]; }

 private:
  void place(const std::vector<const Pattern*>& patterns);  // the partitions, the slots and the reflection
  int sum(const std::array<std::uint8_t, kMaxPdbCells>& cell_of_tile) const;
  State goal_;
  std::vector<std::shared_ptr<const PatternDatabase>> dbs_;
  std::vector<std::shared_ptr<const ZeroAwareDatabase>> zdbs_;
  std::vector<std::vector<int>> groups_;
  std::array<std::vector<Slot>, kMaxPdbCells> slots_{};
  bool reflect_ = false;
  std::array<std::uint8_t, kMaxPdbCells> sigma_{}, transpose_{};
};

// Builds or loads (through `store`) the databases of `partition` (or catalogue) for `goal` (zero-aware ones with
// `zero_aware`; multi-tile ones from a multi-tile store, each pattern then its own group, so that
// evaluate() and the search take the largest value: build.hpp, build_multi_tile_database):
// PdbStore::get, which refuses (DataError naming the build command) missing databases that take
// over a minute to build.
PdbHeuristic make_heuristic(PdbStore& store, const State& goal, const Partition& partition, bool zero_aware = false);

}  // namespace tilespace::pdb
