// Patterns (which tiles a pattern database counts), partitions into disjoint patterns, and the
// perfect hash of a pattern's placements.
//
// A *placement* of a pattern of k tiles is the cell of each of its tiles, in the pattern's order:
// k distinct cells of an n-cell board, n!/(n-k)! placements in all. `PlacementRanker` maps them
// bijectively to [0, n!/(n-k)!) as a mixed-radix number: digit i is the cell of tile i counted
// among the cells not taken by tiles 0..i-1 (radix n-i), so rank and unrank are O(k) with one
// popcount or one bit-select per tile and no allocation.
//
// Memory model: all types here are small values (a few hundred bytes at most), immutable after
// construction and safe to share between threads.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/state.hpp"

namespace tilespace::pdb {

// Boards of up to 32 cells fit the 32-bit cell masks used here (5x5 is 25).
inline constexpr int kMaxPdbCells = 32;
using CellMask = std::uint32_t;

// The tiles of one pattern, in the order their cells are ranked. Tiles are the goal's labels
// (1..N-1); the blank is never part of a pattern.
struct Pattern {
  std::vector<std::uint8_t> tiles;
  std::string name() const;  // "1,2,3,4,5,6,7"
  friend bool operator==(const Pattern&, const Pattern&) = default;
};

// Disjoint patterns whose databases add up to an admissible heuristic; or a *catalogue*: several
// such partitions whose largest sum is taken (Clausecker & Reinefeld 2021), still admissible and
// consistent, with the patterns they share stored and looked up once.
struct Partition {
  std::string name;               // "7-8", "max7", or the tiles as given ("1,2,3/4,5,6")
  std::vector<Pattern> patterns;  // distinct; pairwise disjoint within each partition
  // A catalogue's partitions: the indices in `patterns` of each one's patterns. Empty for a plain
  // partition (one partition of every pattern).
  std::vector<std::vector<int>> groups;
  bool catalogue() const noexcept { return groups.size() > 1; }
  // The partitions as indices, a plain partition as one group of every pattern.
  std::vector<std::vector<int>> partitions() const;
};

// The partition or catalogue named by `spec` for `goal`:
//   - a stock name: "7-8", "6-6-3", "5-5-5" (4x4), "6-6-6-6" (5x5), "4-4" (3x3), and for multi-tile
//     databases "6-6", "7-7" (4x4; stock_partitions); a stock catalogue:
//     "max7" (5x5: seven 6-6-6-6 partitions, fourteen patterns);
//   - or tiles: patterns split by '/', tiles by ',' ("1,2,3,4,5,6,7/8,9,10,11,12,13,14,15");
//   - several of these joined by '+' make a catalogue ("6-6-6-6+1,2,3,4,5,6/...").
// Stock partitions are defined for the goal with the blank in the top-left corner (Korf's goal,
// "0 1 2 ... N-1"), where they are blocks of cells; for a goal with the blank in another corner
// the board is mirrored so the blocks keep their shape. The tiles of a stock pattern are the
// goal's tiles on those cells. Throws InputError naming the problem (unknown name, tile out of
// range or the blank, a tile in two patterns of a partition, an empty pattern or partition, a
// pattern of more than N-2 tiles, a stock name for another board or a goal whose blank is not in
// a corner).
Partition parse_partition(std::string_view spec, const State& goal);

// The stock partition names for a board, e.g. {"5-5-5", "6-6-3", "7-8"} for 4x4 (multi-tile
// databases, `metric` multi: {"6-6", "7-7"}); the stock catalogues ({"max7"} for 5x5).
std::vector<std::string> stock_partitions(const Board& board, Metric metric = Metric::single);
std::vector<std::string> stock_catalogues(const Board& board);

// The cell of every pattern tile in a state (board order), i.e. its placement.
// Precondition: pattern tiles are tiles of `s`.
std::array<std::uint8_t, kMaxPdbCells> placement_of(const State& s, const Pattern& p);

// The board's cells as bit masks, and the flood fill of free cells: the *regions* a set of pattern
// tiles cuts the free cells into (the blank roams through its region without moving a pattern tile).
struct CellGrid {
  int w;
  CellMask all = 0, not_first_col = 0, not_last_col = 0;
  explicit CellGrid(const Board& b) : w(b.width()) {
    for (int c = 0; c < b.cells(); ++c) {
      all |= CellMask{1} << c;
      if (b.col(c) != 0) not_first_col |= CellMask{1} << c;
      if (b.col(c) != b.width() - 1) not_last_col |= CellMask{1} << c;
    }
  }
  // The cells next to a cell of m.
  CellMask around(CellMask m) const noexcept {
    return ((m >> w) | (m << w) | ((m >> 1) & not_last_col) | ((m << 1) & not_first_col)) & all;
  }
  // The cells of `allowed` connected to `seed` (seed must be inside allowed).
  CellMask fill(CellMask seed, CellMask allowed) const noexcept {
    for (;;) {
      const CellMask next = (seed | around(seed)) & allowed;
      if (next == seed) return seed;
      seed = next;
    }
  }
  // The number of the region `r` among the regions of `free` in order of their lowest cells
  // (0 for the region of the lowest free cell), at most `cap`.
  int region_number(CellMask r, CellMask free, int cap = kMaxPdbCells) const noexcept {
    if (r == free) return 0;
    CellMask lower = free & ~r & ((r & (0u - r)) - 1);
    int i = 0;
    while (lower && i < cap) {
      lower &= ~fill(lower & (0u - lower), free);
      ++i;
    }
    return i;
  }
};

// Perfect hash of the placements of k tiles on n cells (1 <= k < n <= 32).
class PlacementRanker {
  __extension__ using Wide = unsigned __int128;  // GCC/Clang: the high half of a 64x64 product

 public:
  PlacementRanker(int cells, int tiles);

  int cells() const noexcept { return n_; }
  int tiles() const noexcept { return k_; }
  std::uint64_t size() const noexcept { return size_; }  // n!/(n-k)!
  std::uint64_t weight(int i) const noexcept { return weight_[i]; }  // (n-1-i)!/(n-k)!

  // Precondition: pos[0..k) are distinct cells < n.
  std::uint64_t rank(const std::uint8_t* pos) const noexcept {
    CellMask used = 0;
    std::uint64_t r = 0;
    for (int i = 0; i < k_; ++i) {
      const CellMask bit = CellMask{1} << pos[i];
      r += static_cast<std::uint64_t>(pos[i] - std::popcount(used & (bit - 1))) * weight_[i];
      used |= bit;
    }
    return r;
  }

  // Inverse of rank. Precondition: r < size(). Below 2^32 placements the digits come from
  // multiplications by precomputed reciprocals (exact for 32-bit numerators), not divisions.
  void unrank(std::uint64_t r, std::uint8_t* pos) const noexcept {
    std::array<std::uint8_t, kMaxPdbCells> digit{};
    if (size_ <= (std::uint64_t{1} << 32)) {
      auto x = static_cast<std::uint32_t>(r);
      for (int i = k_ - 1; i >= 0; --i) {
        const auto q = static_cast<std::uint32_t>((static_cast<Wide>(reciprocal_[i]) * x) >> 64);
        digit[i] = static_cast<std::uint8_t>(x - q * static_cast<std::uint32_t>(n_ - i));
        x = q;
      }
    } else {
      for (int i = k_ - 1; i >= 0; --i) {
        digit[i] = static_cast<std::uint8_t>(r % static_cast<std::uint64_t>(n_ - i));
        r /= static_cast<std::uint64_t>(n_ - i);
      }
    }
    CellMask avail = n_ == 32 ? ~CellMask{0} : (CellMask{1} << n_) - 1;
    for (int i = 0; i < k_; ++i) {
      const int c = select_bit(avail, digit[i]);
      pos[i] = static_cast<std::uint8_t>(c);
      avail &= ~(CellMask{1} << c);
    }
  }

 private:
  int n_, k_;
  std::uint64_t size_;
  std::array<std::uint64_t, kMaxPdbCells> weight_{};
  std::array<std::uint64_t, kMaxPdbCells> reciprocal_{};  // 2^64 / (n-i), rounded up
};

}  // namespace tilespace::pdb
