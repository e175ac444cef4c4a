// Zero-aware pattern databases at one bit an entry (Clausecker & Reinefeld, SoCS 2021).
//
// An additive pattern database (build.hpp) keeps, for each placement of its tiles, the fewest
// moves of those tiles over every region the blank may be in. A zero-aware database keeps each
// region's own cost: its entries are (placement, the blank's region), so a state whose blank is
// cut off from where the pattern's tiles must go gets the higher value. It stays additive (only
// the pattern's tiles' moves are counted) and consistent, and is never below the additive value.
//
// The index (ZeroAwareIndex): the set of cells the tiles cover (a k-subset of the n cells, ranked
// in colex order), the blank's region among the regions that set cuts the free cells into
// (numbered by their lowest cell), and the order of the tiles on the set's cells (a permutation of
// k, ranked by its Lehmer code): entry = permutation * slots + slot, slot = the set's first slot + the
// region's number. Tiles near a corner or an edge often cut cells off, so there are more entries
// than placements: 6 tiles of 5x5 have 181,008,000 entries for 127,512,000 placements (1.42x), at a
// bit each 22.6 MB against the additive database's 127.5 MB. The permutation is the high part:
// a move rarely changes the tiles' order on their cells, so a node's children are looked up near
// each other (24-puzzle instance 38, 6-6-6-6, IDA* on one thread: 66.5 ns a generated node, against
// 85.5 ns with the set as the high part; the additive databases: 35.5 ns).
//
// One bit an entry. A pattern tile's move moves one tile one cell, so it flips the parity of the
// sum of the tiles' row and column numbers; the value has that parity (relative to the goal's), and
// consistency (a change of at most 1) then leaves only +1 and -1: every pattern move changes a
// zero-aware value by exactly one. (In an additive database, which forgets the blank's region, a
// move can leave the value as it is.) So value mod 2 is known from the placement, value mod 4 from
// one stored bit more (floor(value / 2) mod 2, as in the one-bit distance tables), and a search
// that knows the value before a move knows the value after it: the one of value + 1 and value - 1
// whose bit is stored (`next`). The first value is found by descent (`value`): from any entry but
// the goal's a move leads one lower, and the number of such steps to the goal's entry is the value.
//
// Patterns have at most n - 3 tiles: with two tiles outside the pattern (besides the blank) every
// entry is reached from the goal, and none is wasted (with one, half the entries of a divided
// free area could not occur).
//
// Memory model: a ZeroAwareIndex is a few tables (one word per set of cells, two per slot: about
// 3 MB for 6 tiles of 5x5), immutable and shared between threads. A ZeroAwareDatabase holds its bits
// (entries / 8 bytes) as PatternDatabase holds its bytes: built, mapped or copied into PageMemory;
// immutable once made.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "tilespace/memory.hpp"
#include "tilespace/pdb/build.hpp"
#include "tilespace/pdb/pattern.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/state.hpp"

namespace tilespace::pdb {

// The most tiles a zero-aware pattern may have (its permutations are ranked in 32 bits).
inline constexpr int kMaxZeroAwareTiles = 12;

class ZeroAwareIndex {
 public:
  // Precondition checked (InputError): 1 <= tiles <= min(kMaxZeroAwareTiles, cells - 3).
  ZeroAwareIndex(const Board& board, int tiles);

  int cells() const noexcept { return n_; }
  int tiles() const noexcept { return k_; }
  std::uint64_t size() const noexcept { return slots_ * perms_; }
  std::uint64_t slots() const noexcept { return slots_; }
  const CellGrid& grid() const noexcept { return grid_; }

  // The entry of the tiles on cells pos[0..k) (pattern order) with the blank on `blank`.
  // Precondition: distinct cells, the blank on none of them.
  std::uint64_t rank(const std::uint8_t* pos, int blank) const noexcept {
    CellMask cover = 0;
    for (int i = 0; i < k_; ++i) cover |= CellMask{1} << pos[i];
    // Tile i's place p[i] among the covered cells gives its term of the set's colex rank,
    // C(cell, p[i] + 1), and its Lehmer digit: the later tiles whose places are below p[i] (a
    // suffix of place bits, so no chain through the earlier digits).
    std::array<std::uint32_t, kMaxZeroAwareTiles> p{};
    std::uint32_t set = 0;
    for (int i = 0; i < k_; ++i) {
      p[i] = static_cast<std::uint32_t>(std::popcount(cover & ((CellMask{1} << pos[i]) - 1)));
      set += binom_[pos[i]][p[i] + 1];
    }
    std::uint32_t later = 0, perm = 0;
    for (int i = k_ - 1; i >= 0; --i) {
      perm += static_cast<std::uint32_t>(std::popcount(later & ((1u << p[i]) - 1))) * weight_[i];
      later |= 1u << p[i];
    }
    std::uint32_t slot = base_[set];
    // A divided free area: the blank's region is one of the set's next slots (by lowest cell).
    for (const std::uint32_t end = base_[set + 1]; slot + 1 < end && !((region_[slot] >> blank) & 1u);) ++slot;
    return perm * slots_ + slot;
  }

  // Inverse of rank: writes the tiles' cells to pos[0..k) and returns the blank's region.
  // Precondition: entry < size().
  CellMask unrank(std::uint64_t entry, std::uint8_t* pos) const noexcept {
    auto perm = static_cast<std::uint32_t>(entry / slots_);
    const std::uint64_t slot = entry - perm * slots_;
    std::array<std::uint8_t, kMaxZeroAwareTiles> digit{};
    for (int i = k_ - 1; i >= 0; --i) {
      const auto radix = static_cast<std::uint32_t>(k_ - i);
      digit[i] = static_cast<std::uint8_t>(perm % radix);
      perm /= radix;
    }
    const CellMask cover = cover_[slot];
    std::uint32_t avail = (1u << k_) - 1;
    for (int i = 0; i < k_; ++i) {
      const int p = select_bit(avail, digit[i]);
      avail &= ~(1u << p);
      pos[i] = static_cast<std::uint8_t>(select_bit(cover, p));
    }
    return region_[slot];
  }

 private:
  CellGrid grid_;
  int n_, k_;
  std::uint64_t slots_ = 0, perms_ = 1;
  std::array<std::uint32_t, kMaxZeroAwareTiles> weight_{};  // (k-1-i)!: the Lehmer digits' weights
  std::array<std::array<std::uint32_t, kMaxZeroAwareTiles + 1>, kMaxPdbCells + 1> binom_{};
  std::vector<std::uint32_t> base_;           // per cell set (colex rank): its first slot; one more at the end
  std::vector<CellMask> cover_, region_;      // per slot: the cells the tiles cover, the blank's region
};

struct BuiltZeroAware {
  PageMemory memory;                     // owns the values
  std::span<std::uint8_t> values;        // values[entry]: fewest pattern-tile moves; entry by ZeroAwareIndex
  std::vector<std::uint64_t> histogram;  // entries at each value, from 0
  double seconds = 0;
};

// Time and memory of a build, known before it starts: the entries (ZeroAwareIndex::size()) times
// the measured rate (zero_aware.cpp), a byte an entry of working memory plus the bits, and the file.
BuildEstimate estimate_zero_aware(const Board& board, const Pattern& pattern, int threads);

// The full-width values: a breadth-first search over the entries from the goal's (all tiles home,
// the blank in the goal blank's region), one byte an entry, by cost layers on the layered engines'
// driver. Deterministic for any thread count. Throws InputError for a pattern the index refuses,
// ResourceError when it does not fit in memory (checked first).
BuiltZeroAware build_zero_aware_values(const State& goal, const Pattern& pattern, const BuildOptions& options = {});

class ZeroAwareDatabase {
 public:
  // Builds the values (build_zero_aware_values) and keeps their bits.
  static ZeroAwareDatabase build(const State& goal, const Pattern& pattern, const BuildOptions& options = {});
  // The bits of full-width values (build_zero_aware_values' for `goal` and `pattern`).
  static ZeroAwareDatabase from_values(const State& goal, const Pattern& pattern, std::span<const std::uint8_t> values,
                                       std::vector<std::uint64_t> histogram);
  // Maps and validates `path` (kind 6 of database.hpp) and checks that it holds `pattern` for
  // `goal`; the bits are copied into PageMemory on boards above 16 cells, as PatternDatabase does.
  // Throws DataError naming the file on any corrupt, truncated or foreign file.
  static ZeroAwareDatabase load(const std::filesystem::path& path, const State& goal, const Pattern& pattern);
  // Writes the file atomically (temporary file, fsync, rename). Throws DataError on failure.
  void save(const std::filesystem::path& path) const;

  const State& goal() const noexcept { return goal_; }
  const Pattern& pattern() const noexcept { return pattern_; }
  const ZeroAwareIndex& index() const noexcept { return *index_; }
  const std::vector<std::uint64_t>& histogram() const noexcept { return histogram_; }
  std::span<const std::uint64_t> words() const noexcept { return words_; }

  // floor(value / 2) mod 2 of an entry.
  int bit(std::uint64_t entry) const noexcept { return static_cast<int>((words_[entry >> 6] >> (entry & 63)) & 1u); }

  // The value with the tiles on pos[0..k) and the blank on `blank`, one move of a pattern tile
  // after a state of value `before`. One lookup.
  int next(int before, const std::uint8_t* pos, int blank) const noexcept {
    const int up = before + 1;
    return ((up >> 1) & 1) == bit(index_->rank(pos, blank)) ? up : before - 1;
  }

  // The value with the tiles on pos[0..k) and the blank on `blank`, by descent to the goal's
  // entry: about value x (moves of the pattern's tiles) lookups. Throws DataError if the bits lead
  // nowhere (a file that passed its checksums but holds other values).
  int value(const std::uint8_t* pos, int blank) const;

 private:
  ZeroAwareDatabase(State goal, Pattern pattern);
  int value_of_entry(std::uint64_t entry) const;
  State goal_;
  Pattern pattern_;
  std::shared_ptr<const ZeroAwareIndex> index_;
  std::uint64_t goal_entry_ = 0;
  std::vector<std::uint64_t> histogram_;
  std::shared_ptr<const void> owner_;  // the bits built, copied or mapped
  std::span<const std::uint64_t> words_;
};

}  // namespace tilespace::pdb
