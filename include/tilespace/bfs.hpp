// The parallel layer-by-layer breadth-first search over rank space.
//
// Memory model: one 64-bit word per group (see rank.hpp): bits 0-15 "visited", bits 16-31 and
// 32-47 the frontier of even and odd layers, one bit per blank cell. A state's word is the only
// place the search touches for it, so a neighbour costs one cache line and one atomic fetch_or.
// Horizontal moves stay inside the group and are shifts of the frontier lane; a vertical move's
// new rank is the old one plus a Lehmer-code delta over the W rotated entries (O(W), no re-rank),
// from the group's permutation and Lehmer digits packed in nibbles.
// In the multi-tile metric (BfsOptions::metric) the blank travels k cells at once: a horizontal
// move is a shift of the lane by k, a vertical one a Lehmer delta that is the sum of the k rows'
// one-row deltas, kept as a running sum (engine/layer_kernel.hpp vertical_moves, O(W) a target);
// up to W-1 + H-1 targets a state. Tall boards pay for the extra vertical targets, each a random
// access, but hidden by the prefetch ring: 3x4 and 2x6 take about the single-tile build's time; on
// wide boards the extra moves are lane shifts (4x3 and 6x2 take less, having fewer layers).
// Small boards (at most 10 cells: 3x3, 2x5, 5x2 and smaller) decode every group once, into a table
// of one word a group (entries and digits), and keep two bitmaps, one bit per group, of the groups
// with frontier bits in the even / odd layers' lane: a layer visits only those groups, in rank
// order, and looks their permutation up. Larger boards scan all words every layer and decode the
// groups with frontier bits with a mixed-radix counter (the groups come in rank order, so the
// permutation is mostly updated rather than decoded); their vertical targets are prefetched a few
// dozen ahead. Boards whose words fit in cache (at most 2^19 groups) update the targets at once
// with one thread (with two threads the lines move between cores, and the prefetch still pays).
// Total memory: N!/2 bytes of depths (the caller's) + (N-1)!/2 * 8 bytes of words; small boards
// add (N-1)!/2 * 8 bytes of codes and 2 * ceil((N-1)!/2 / 64) * 8 bytes of bitmaps
// (bfs_work_bytes(); 3x3, 20160 groups: 20160 * 16 + 630 * 8 bytes).
//
// Threads: oneTBB parallel_reduce over blocks of groups (of bitmap words on small boards) inside
// one task_arena; words and bitmaps of the next layer are updated with relaxed atomics (load, then
// `lock or` only for unvisited targets). With one thread the pass runs directly, with plain loads
// and stores and a branch-free target update. Every result is independent of the number of
// threads and of scheduling.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "tilespace/memory.hpp"
#include "tilespace/rank.hpp"

namespace tilespace {

struct LayerReport {
  int depth;               // the layer just found
  std::uint64_t states;    // states at that depth
  std::uint64_t total;     // states found so far
  double seconds;          // since the search started (a resumed search: since it was resumed)
  std::uint64_t space = 0;  // states in the whole space (N!/2), for an estimate of the time left
  double layer_seconds = 0;  // the time this layer took
};

struct BfsOptions {
  int threads = 0;                                  // 0: all cores
  std::function<void(const LayerReport&)> on_layer;  // called after each layer, from the calling thread
  // How moves are counted (board.hpp). The byte and two-bit engines and the (non-zero-aware)
  // pattern-database builders take both metrics; the zero-aware builder and one-bit tables count
  // single-tile moves and refuse multi (InputError).
  Metric metric = Metric::single;
};

// Throws InputError naming `what` unless the options count single-tile moves.
void require_single_tile(const BfsOptions& options, const char* what);

struct BfsResult {
  std::vector<std::uint64_t> histogram;  // states at each depth, from 0
  double seconds = 0;
};

// Bytes the search needs besides the depth table (words, and the codes and bitmaps of small boards).
std::uint64_t bfs_work_bytes(const Ranker& ranker);

// Fills depth[r] with the distance from state r (ranker's ranking) to the ranker's goal, the
// canonical goal with the blank on ranker.goal_blank(). Precondition: depth.size() == ranker.size().
// Throws ResourceError if the working memory cannot be allocated.
BfsResult bfs_distances(const Ranker& ranker, std::span<std::uint8_t> depth, const BfsOptions& options = {});

// ---------------------------------------------------------------------------------------------
// The two-bit engine (src/bfs2.cpp): the same search in two bits a state, for boards whose byte
// table does not fit (2x7: 43,589,145,600 states in 10.9 GB).
//
// Fields: rank r owns bits 2(r mod 32) and 2(r mod 32)+1 of word r / 32. Values:
//   00  unseen
//   11  open: in the layer being expanded, or found for the next one
//   01  settled, depth D with floor(D/2) even
//   10  settled, depth D with floor(D/2) odd
// Every move takes the blank to a neighbouring cell, so D mod 2 is the parity of the blank's
// Manhattan distance to the goal's blank cell (blank_parity()): the parity tells the layer being
// expanded (D = d) from the layer being found (D = d + 1) among the open fields, so a layer is
// exactly its open fields of parity d mod 2 — no earlier layer is expanded again, and the next
// layer needs no second array. This is the role of Korf's depth mod 3 (the frontier, its parents'
// and its children's layers told apart by three values), with the third value spent on the
// settled states' depth instead: D mod 2 (the blank) and floor(D/2) mod 2 (the field) give D mod 4,
// and a neighbour is one move closer exactly when its field differs from this state's field
// (D even) or equals it (D odd). So the finished table gives the exact distance by descending to
// the goal (DistanceTable), and one optimal path.
//
// The multi-tile metric (BfsOptions::metric): a move of k cells keeps the blank's parity when k is
// even, so the parity no longer tells the layers apart, and a neighbour may be as far as the state
// itself. The fields keep D mod 3 instead, which tells a neighbour one move closer (D - 1) from an
// equal one and one further:
//   00  unseen
//   01, 10, 11  depth D with D mod 3 = 0, 1, 2 (the value D mod 3 + 1)
// and the search keeps one more bit a state, "open": set when a state is found, cleared when it is
// expanded (an open bitmap after the fields, open_word_count(two_bit_words) words: bit r % 64 of
// word r / 64). Layer d is the open states of value d mod 3 + 1; the open states of the next
// layer have the next value. The fields of a finished search are the table (DistanceTable
// descends it), and the bitmap, all zero by then, is given back. 3 bits a state while building:
// 2x7, 16.3 GB. Checkpoints hold the bitmap too. Not in tilespace-mpi.
//
// Memory: two_bit_bytes() = ceil(N!/2 / 32) * 8 bytes for the fields (mapped lazily: pages appear
// on first touch) + two bitmaps of one bit per block of 512 words (16384 states; a layer visits
// only the blocks marked for its parity): 2 * ceil(words / 512 / 64) * 8 bytes + per thread a
// 32-entry prefetch ring and a group cursor (under 1 KiB) + in the last layers at most
// kFarthestKept ranks (8 KB). 2x7: 10,897,286,400 + 2 * 332,560 bytes. The multi-tile metric adds
// the open bitmap, ceil(words / 2) * 8 bytes (2x7: 5,448,643,200 more, 16.3 GB in all).
//
// Back bits (single-tile, boards of two rows: 7x2, not 2x7): every state has one vertical move,
// and every vertical edge joins two layers, so one bit a state (laid out as the open bitmap, the
// same ceil(words / 2) * 8 bytes) set when a vertical move reaches a state not settled says that
// the state's own vertical move leads back; it is then not computed. Each vertical edge is computed
// once, from its shallower end: half the vertical moves (7x2 built in 826 s instead of 978 s, peak
// 15.2 GiB instead of 10.2). Used where the bits fit within nine tenths of the memory budget beside
// the fields, else the search computes every vertical move (TwoBitOptions::back_bits). On taller
// boards one bit cannot say which of a state's two vertical moves leads back; marking only moves
// of the blank down, to skip the move up, left a quarter of the vertical moves out and was slower
// on 2x6, 3x4 and 4x3 (docs/scale.md).
//
// Far targets: a vertical move whose target lies more than 2^21 ranks from its source leaves the
// cache (on 2x7, 0.57 of the 1.0 vertical moves a state: `tilespace_scale_estimate 7x2`), but with
// sources swept in rank order the far targets of one move form a few monotone streams, which the
// prefetch ring and the hardware prefetchers follow: deferring them to per-region buckets
// (propagation blocking) made a whole 2x7 BFS 1,333 s against 1,028-1,033 s without, and was
// removed (docs/scale.md).
//
// Threads: oneTBB parallel_reduce over the marked blocks in one task_arena. Horizontal moves are
// word-level shifts of the open fields; vertical moves a Lehmer-code delta from a group cursor,
// targets prefetched through a ring. Fields are updated with relaxed atomics (load, then `lock or`
// only for unseen fields; `lock and` to settle the expanded fields). The fields, histogram and
// farthest states are the same for every thread count and schedule.

inline constexpr std::size_t kFarthestKept = 1000;  // states at the radius a two-bit table lists

std::uint64_t two_bit_words(const Ranker& ranker);  // ceil(N!/2 / 32)
std::uint64_t two_bit_bytes(const Ranker& ranker);  // two_bit_words * 8
// Words a two-bit search of `metric` works in (bfs_two_bit's `search`): the fields, and in the
// multi-tile metric the open bitmap after them (ceil(two_bit_words / 2) more).
std::uint64_t two_bit_search_words(const Ranker& ranker, Metric metric = Metric::single);
// Memory a two-bit search needs: its words, the block bitmaps and per-thread buffers (the back
// bits, two_bit_back_words, are taken on top where they fit).
std::uint64_t two_bit_build_bytes(const Ranker& ranker, Metric metric = Metric::single);
// Words of the back bits a single-tile two-bit search of a board of two rows takes besides its
// search words where they fit (TwoBitOptions::back_bits; not part of a checkpoint, not counted by
// two_bit_build_bytes); 0 on other boards and metrics.
std::uint64_t two_bit_back_words(const Ranker& ranker, Metric metric = Metric::single);

// The two bits of rank r.
inline unsigned two_bit_field(const std::uint64_t* words, std::uint64_t r) noexcept {
  return static_cast<unsigned>(words[r >> 5] >> (2 * (r & 31))) & 3u;
}

// Depth mod 2 of every state whose blank is on `cell`, for the goal blank of `ranker`.
inline unsigned blank_parity(const Ranker& ranker, int cell) noexcept {
  const Board& b = ranker.board();
  const int g = ranker.goal_blank();
  return static_cast<unsigned>(b.row(cell) + b.col(cell) + b.row(g) + b.col(g)) & 1u;
}

// Zero-filled memory for the fields of a two-bit search (memory.hpp's PageMemory: pages appear on
// first touch, huge pages where the kernel gives them). Throws ResourceError naming the bytes if it
// cannot be mapped.
class FieldArray {
 public:
  explicit FieldArray(std::uint64_t words) : memory_(8 * words, "the two-bit search") {}
  std::span<std::uint64_t> span() const noexcept { return memory_.as<std::uint64_t>(); }
  // Keeps the first `words` (rounded up to whole pages; a table packed to one bit a state,
  // distance_table.hpp) and gives the rest of the memory back.
  void shrink(std::uint64_t words) noexcept { memory_.shrink(8 * words); }

 private:
  PageMemory memory_;
};

// A two-bit search between two layers: with the fields, everything a checkpoint holds.
struct TwoBitProgress {
  int next_layer = 0;                    // the layer to expand next
  std::vector<std::uint64_t> histogram;  // the sizes of layers 0 .. next_layer-1
  std::uint64_t pending = 0;             // the states found for layer next_layer
};

struct TwoBitOptions {
  BfsOptions bfs;
  // Single-tile, boards of two rows: one more bit a state (two_bit_back_words), where it fits
  // within nine tenths of the memory budget beside the fields, records which states were reached
  // by their one vertical move, whose vertical move is then not computed (it leads back): each
  // vertical edge is computed once, from its shallower end. False: every vertical move is
  // computed (for measurements).
  bool back_bits = true;
  // Called between two layers, while the search's words (fields and, multi-tile, the open bitmap)
  // are consistent (for checkpoints); may be empty.
  std::function<void(const TwoBitProgress&, std::span<const std::uint64_t> search)> between_layers;
};

struct TwoBitResult {
  std::vector<std::uint64_t> histogram;
  std::vector<std::uint64_t> farthest;  // ranks at the radius, increasing (empty when more than kFarthestKept)
  double seconds = 0;
  // Vertical moves generated (each a target outside the word); a resumed search counts its own
  // layers only.
  std::uint64_t vertical_targets = 0;
  bool back_bits = false;  // whether the search had its back bits (TwoBitOptions::back_bits)
};

// Fills the fields, the first two_bit_words(ranker) of the `search` words
// (two_bit_search_words(ranker, options.bfs.metric) of them), with the finished table for the
// ranker's goal. A new search needs all-zero words; with `resume`, the words and progress of a
// checkpoint.
TwoBitResult bfs_two_bit(const Ranker& ranker, std::span<std::uint64_t> search, const TwoBitOptions& options = {},
                         const TwoBitProgress* resume = nullptr);

}  // namespace tilespace
