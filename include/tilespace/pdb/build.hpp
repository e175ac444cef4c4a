// The only builder of pattern databases: a parallel breadth-first search over placements.
//
// The abstract state is a placement of the pattern's tiles plus the blank; moving a pattern tile
// costs 1 and moving any other tile costs 0 (Korf & Felner's additive databases). So the blank
// roams for free through its *region* (the connected set of cells free of pattern tiles around
// it), and a state is (placement, region). The search goes by cost layers over placement ranks:
// expanding (placement, region) at cost d moves each pattern tile next to the region into it, which
// gives (placement', region of the tile's old cell) at cost d+1. The database stores, for every
// placement, the lowest cost over its regions.
//
// Memory model: two bytes per placement, in PageMemory (memory.hpp: huge pages, since successors are
// met at random). `values` (the result) and one mark byte: bits 0-5 the
// regions already reached (region i = the i-th region in order of its lowest cell; regions 5, 6, ...
// share bit 5, which only merges those rare regions, a relaxation that may lower a value, never
// raise it), bits 6-7 "expand at an even / odd layer". A mark bit added while its placement
// still waits to be expanded in the current layer is held in a per-thread list until the layer ends,
// so each region is expanded at exactly its own cost. Results do not depend on the thread count.
//
// Threads: one oneTBB arena; each layer is one pass of the layer driver shared with the BFS engines
// (tilespace/engine/layer_kernel.hpp: a parallel_reduce over blocks of ranks); marks are updated with relaxed
// byte atomics; successors are prefetched a few dozen ahead.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "tilespace/bfs.hpp"
#include "tilespace/memory.hpp"
#include "tilespace/pdb/pattern.hpp"
#include "tilespace/state.hpp"

namespace tilespace::pdb {

// The layered engines' one options struct (bfs.hpp): threads (0: all cores) and `on_layer`, here
// called after each cost layer, from the calling thread.
using BuildOptions = BfsOptions;

struct BuildEstimate {
  std::uint64_t entries = 0;  // placements: n!/(n-k)!
  std::uint64_t bytes = 0;    // peak working memory of the build: 2 bytes a placement
  std::uint64_t disk = 0;     // the file: its header and one byte a placement
  double seconds = 0;         // rough time on this machine class, from measured rates
};

// Time: the placements times a cost per placement and thread, divided by `threads` (0 or more than
// the cores: all cores). The costs, measured on the 2-core reference machine (whole builds through
// `tilespace build --pdb`, including the write), whose speed varies by about 1.5x from day to day:
//   boards of at most 16 cells (region tables): kNsPerPlacementSmall
//     4x4 7-8 (`build --board 4x4 --goal "0 1 ... 15" --pdb 7-8`, marks and values in huge pages):
//     7 tiles (57,657,600) in 10.5 s, 8 tiles (518,918,400) in 105.5 s on 2 threads -> 0.36-0.41 us
//     (116 s in all; the same day, with 4 KiB pages and a read of the value a successor: 135 s);
//     on a slower day, 7-8 took 181-190 s -> 0.63 us. 6-6-3 (11,534,880) in 2.3 s -> 0.40 us.
//   bigger boards (flood fills): kNsPerPlacementLarge
//     5x5 6-6-6-6 (4 x 127,512,000): 27-30 s a pattern on 2 threads -> 0.42-0.48 us (the same day);
//     46 s a pattern on a slower day -> 0.72 us.
// The constants sit between the fast and the slow days: 7-8 is estimated at 144 s, 6-6-6-6 at 153 s.
// Precondition: the pattern's tiles are tiles of a board with at most kMaxPdbCells cells.
// Multi-tile databases (`metric` multi): the placements of the pattern's tiles and the blank, a byte
// each, and kNsPerPlacementMulti: 4x4 7-7 (`build --board 4x4 --goal "0 1 ... 15" --metric multi`)
// 2 x 518,918,400 in 36.5 and 35.7 s on 2 threads -> 0.14 us; 6-6 (2 x 57,657,600) 3.5-4.2 s
// -> 0.12-0.15 us. Estimated at 0.2 us for the slower days, 7-7 at 104 s.
inline constexpr double kNsPerPlacementSmall = 500, kNsPerPlacementLarge = 600, kNsPerPlacementMulti = 200;
BuildEstimate estimate_build(const Board& board, const Pattern& pattern, int threads, Metric metric = Metric::single);

// Throws InputError unless `pattern` is 1 to N-2 (multi-tile: N-3) distinct tiles (not the blank)
// of `board`, a board of at most kMaxPdbCells cells.
void check_pattern(const Board& board, const Pattern& pattern, Metric metric = Metric::single);

struct BuiltDatabase {
  PageMemory memory;                     // owns the values
  std::span<std::uint8_t> values;        // values[rank] = fewest pattern-tile moves; rank by PlacementRanker
  std::vector<std::uint64_t> histogram;  // placements at each value, from 0
  double seconds = 0;
};

// How many of `values` hold each byte value (256 counts), on every core: a built database's
// histogram before its unused top is cut.
std::vector<std::uint64_t> count_values(std::span<const std::uint8_t> values);

// Builds the database of `pattern` for `goal` in `options.metric`: the single-tile one above, or
// build_multi_tile_database. Deterministic: the same bytes for any thread count.
// Throws ResourceError if the build does not fit in memory (checked before allocating),
// InputError if the pattern is not valid for the goal's board.
BuiltDatabase build_pattern_database(const State& goal, const Pattern& pattern, const BuildOptions& options = {});

// The multi-tile database of `pattern` (Metric::multi): the abstract state is the cell of the blank
// and of each pattern tile, the other tiles alike; a move takes the blank k >= 1 cells along its row
// or column, sliding the k tiles it passes one cell back, and costs 1 whatever they are. values[r]
// is the fewest such moves from placement r (PlacementRanker over tiles + 1 items: the blank's cell
// first, then the pattern's tiles) to the goal's. A lower bound of the multi-tile distance of every
// state with that placement, and it changes by at most 1 a move: admissible and consistent. Unlike
// single-tile databases, two patterns' values do not add up (one move may slide tiles of both), so
// searches take their maximum (search/pattern_heuristic.hpp: MultiTileDatabases). One byte a
// placement; a breadth-first search over them (src/pdb/multi_build.cpp).
BuiltDatabase build_multi_tile_database(const State& goal, const Pattern& pattern, const BuildOptions& options = {});

}  // namespace tilespace::pdb
