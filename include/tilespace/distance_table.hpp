// The exact distance of every state to one goal, by rank, and what follows from it.
//
// A table is built for the canonical goal with the blank on one cell (rank.hpp); any other goal
// with its blank on that cell is served by relabelling the tiles (Labelling), so one table per
// blank cell answers every (start, goal) pair of a board.
//
// Three representations: byte tables (the depth of every rank, one byte each; the byte engine),
// two-bit tables (the two-bit engine's fields, bfs.hpp) and one-bit tables (those fields packed to
// floor(D/2) mod 2, one bit a state). In both of the last a state's distance is found by
// descending to the goal, one neighbour one move closer per step, O(distance * N): the descent
// needs D mod 4 of the neighbours, which the blank's cell (D mod 2, blank_parity) and the stored
// bit give, so a settled field's second bit (01 or 10: always the first one negated) is
// redundant. The descent reads the table only through `field(r)`, the two-bit value of rank r from
// either representation. All three answer every member alike.
// Multi-tile tables are byte or two-bit tables; a multi-tile two-bit table's fields are D mod 3 + 1
// (bfs.hpp), which tell the neighbour one move closer (D - 1) from those as far (D) or one
// further, so the same descent serves it, over the multi-tile moves. There are no multi-tile
// one-bit tables: one bit cannot hold D mod 3.
//
// Memory model: the depths (or words) are a read-only span owned by `storage` (a vector or the
// field array after a build, a memory mapping after a load; a loaded two-bit or one-bit table
// verifies each chunk on first touch). Thread-safety: all members are const and may be shared.
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

// Which table a build makes, named by its bits a state, and so which engine builds it: byte = the
// byte engine (8); two_bit = the two-bit engine's fields as they are (2); one_bit = the two-bit
// engine, its finished fields packed in place to one bit a state (1: half the file and the memory
// it keeps). automatic: the byte engine where its build fits in memory, else one_bit.
enum class Engine { automatic = 0, byte = 8, two_bit = 2, one_bit = 1 };

// One-bit tables: bit r % 64 of word r / 64 is floor(D/2) mod 2 of rank r (D its distance), 0
// after the last rank; ceil(N!/2 / 64) words.
std::uint64_t one_bit_words(const Ranker& ranker);
// The two-bit engine's settled field (bfs.hpp: 01 or 10) of rank r of a one-bit table.
inline unsigned one_bit_field(const std::uint64_t* words, std::uint64_t r) noexcept {
  return 1u + (static_cast<unsigned>(words[r >> 6] >> (r & 63)) & 1u);
}
// Packs the finished fields of a two-bit search of `states` states (two_bit_words of them) into a
// one-bit table in the same memory: afterwards words [0, ceil(states / 64)) hold it, the rest is
// garbage. Words [2k, 2k + 2) become word k, so the words are packed in rounds that double: the
// first 2^17 output words in order, then each round [c, 2c) in parallel on `threads` threads (0:
// all cores), whose inputs [2c, 4c) no round has overwritten yet and whose outputs overwrite only
// inputs already packed. No memory besides the fields; about one pass over them. Throws
// std::logic_error if a field of a rank is not settled (01 or 10) or one after the last is not 00.
void pack_one_bit(std::span<std::uint64_t> fields, std::uint64_t states, int threads = 0);

class DistanceTable {
 public:
  DistanceTable(const Ranker& ranker, std::span<const std::uint8_t> depths, std::vector<std::uint64_t> histogram,
                std::shared_ptr<const void> storage, Metric metric = Metric::single);
  // A two-bit table (`bits` 2: `words` are the fields, two_bit_words of them) or a one-bit table
  // (`bits` 1: one_bit_words), with the ranks at the radius (if listed); `chunks` verifies a
  // mapped file's chunks on first touch (null after a build). std::invalid_argument for other bits
  // or a size that does not match.
  DistanceTable(const Ranker& ranker, std::span<const std::uint64_t> words, std::vector<std::uint64_t> histogram,
                std::vector<std::uint64_t> farthest, std::shared_ptr<const void> storage,
                std::shared_ptr<const ChunkVerifier> chunks, int bits = 2, Metric metric = Metric::single);

  // Runs the BFS for the canonical goal with the blank on `goal_blank`, in options.metric.
  // Throws InputError for a board of more than kMaxCells cells (require_packed), ResourceError if
  // the table does not fit in memory.
  static DistanceTable build(const Board& board, int goal_blank, const BfsOptions& options = {});
  // Wraps a validated database; throws DataError if it is not a distance table of a canonical goal.
  static DistanceTable from_database(LoadedDatabase db);

  // The two-bit engine (bfs_two_bit) with its options (checkpoints) and, to continue a
  // checkpoint, the fields and progress read from it (moved in). `bits` 2: the table is the
  // fields; 1: they are packed in place into a one-bit table (pack_one_bit, on the options'
  // threads) and the memory of the other half is given back, so the build's peak is the fields'
  // and the table then holds half of it. In options.bfs.metric: a multi-tile search works in the
  // fields and the open bitmap (two_bit_search_words; a checkpoint's fields hold both), and the
  // bitmap's memory is given back at the end; a multi-tile one-bit table is an InputError.
  static DistanceTable build_two_bit(const Board& board, int goal_blank, const TwoBitOptions& options,
                                     std::shared_ptr<FieldArray> resume_fields = nullptr,
                                     const TwoBitProgress* resume = nullptr, int bits = 2);

  // Memory a build with `engine` needs, in bytes: byte engine, N!/2 + bfs_work_bytes; two-bit
  // and one-bit, two_bit_bytes + the block bitmaps + per-thread buffers (the formula in bfs.hpp;
  // packing to one bit takes nothing more). Throws InputError as build does.
  // A multi-tile two-bit build adds the open bitmap, one bit a state (bfs.hpp).
  static std::uint64_t build_bytes(const Board& board, Engine engine = Engine::byte, Metric metric = Metric::single);
  // The automatic choice: the byte engine where it fits in memory, else one_bit (single-tile) or
  // two_bit (multi-tile, which has no one-bit tables).
  static Engine automatic_engine(const Board& board, Metric metric = Metric::single);
  // The engine a build uses: `requested`, or automatic_engine. Throws InputError for a board of
  // more than kMaxCells cells or a one-bit multi-tile table, ResourceError (naming the bytes
  // needed) if the chosen engine's build would not fit in this machine's memory.
  static Engine choose_engine(const Board& board, Engine requested = Engine::automatic,
                              Metric metric = Metric::single);
  // The byte engine's build of `board` fits in memory (the memory budget's nine tenths).
  static bool byte_engine_fits(const Board& board);
  // choose_engine for the automatic choice, for callers that only need to know a table can exist.
  static void check_fits(const Board& board, Metric metric = Metric::single);

  // What a build with `engine` (automatic: the one choose_engine takes, without its memory check)
  // on `threads` threads (0 or more than the cores: all cores) costs: time, build_bytes of memory,
  // and the size of the database file it writes (one-bit: half the two-bit file). The time is the
  // reachable states times a cost per state and thread, divided by the threads (linear scaling is
  // what the measurements show on 2 cores; more cores are assumed to scale alike, which is
  // optimistic for these memory-bound passes).
  // The costs were measured on the 2-core reference machine, whole builds including the write:
  //   byte engine:    3x4, 239,500,800 states in 6.9 s on 2 threads    -> kByteNsPerState = 57.6 ns
  //   two-bit engine: 2x7, 43,589,145,600 states in 17 min 50 s on 2 threads, writing the two-bit
  //                   file (`tilespace build --board 2x7 --bits 2 --checkpoint-every 0`)
  //                   -> kTwoBitNsPerState = 49.1 ns
  // (per state and thread; a one-bit build is counted alike: packing the fields, about one pass
  // over them, is offset by writing half the bytes). Checked with `/usr/bin/time tilespace build
  // --board 3x4 --bits 8|2 --threads 2 --force` while other jobs kept the 2 cores busy (load
  // average 2.5-5): byte 15.7 s of CPU (65 ns a state; 17.9 s wall), two-bit 13.0 s of CPU (54 ns a
  // state; 13.0 s wall), against
  // the 6.9 s and 5.9 s estimated for 2 free cores; 2x5 (1,814,400 states) took 0.17 s / 0.21 s,
  // estimated 52 / 45 ms (process start and the write dominate a board that small).
  // Throws InputError as build does.
  static constexpr double kByteNsPerState = 57.6, kTwoBitNsPerState = 49.1;
  // A multi-tile build costs about this many times a single-tile one: up to W-1 + H-1 targets a
  // state instead of at most 4, over fewer layers. Whole builds on 2 threads (docs/benchmarks.md):
  // byte engine 3x4 1.03x, 2x6 1.06x, 4x3 0.86x, 6x2 0.67-0.77x; two-bit tables 3x4 1.25x, 2x6
  // 1.39x, 2x7 0.84x.
  static constexpr double kMultiTileCost = 1.1;
  static BuildCost estimate_build(const Board& board, Engine engine = Engine::automatic, int threads = 0,
                                  Metric metric = Metric::single);

  const Ranker& ranker() const noexcept { return ranker_; }
  const Board& board() const noexcept { return ranker_.board(); }
  State goal() const { return canonical_goal(board(), ranker_.goal_blank()); }
  // How its distances count moves: single-tile, or multi-tile (byte and two-bit tables).
  Metric metric() const noexcept { return metric_; }
  // Bits a state: 8 (a byte table), 2 (two-bit) or 1 (one-bit).
  int bits() const noexcept { return bits_; }
  // A table of the two-bit engine, two bits or one a state: distances by descent.
  bool by_descent() const noexcept { return bits_ != 8; }
  // Byte tables only (empty otherwise): the depth of every rank.
  std::span<const std::uint8_t> depths() const noexcept { return depths_; }
  // Two-bit tables only (empty otherwise): the fields (bfs.hpp).
  std::span<const std::uint64_t> fields() const noexcept {
    return bits_ == 2 ? words_ : std::span<const std::uint64_t>();
  }
  // One-bit tables only (empty otherwise): the bits (one_bit_words).
  std::span<const std::uint64_t> one_bits() const noexcept {
    return bits_ == 1 ? words_ : std::span<const std::uint64_t>();
  }
  // The payload as stored in a database file.
  std::span<const std::uint8_t> payload() const noexcept;
  // The distance of the state of rank r (a byte read, or a descent on a two-bit or one-bit table).
  int depth_of_rank(std::uint64_t r) const;
  const std::vector<std::uint64_t>& histogram() const noexcept { return histogram_; }
  int radius() const noexcept { return static_cast<int>(histogram_.size()) - 1; }
  DatabaseInfo info() const;

  // Optimal number of moves from `start` to `goal`, or nullopt when unreachable.
  // Precondition: both on this board, goal.blank == ranker().goal_blank(). O(N).
  std::optional<int> distance(const State& start, const State& goal) const {
    return distance(start, Labelling(goal));
  }
  // Two-bit and one-bit tables: throws DataError if a chunk of a mapped file is corrupt.
  std::optional<int> distance(const State& start, const Labelling& goal) const {
    const Sequence seq = goal.sequence(start);
    const std::uint64_t r = ranker_.rank_if_reachable(seq, start.blank);
    if (r == Ranker::kUnreachable) return std::nullopt;
    if (bits_ == 8) return depths_[r];
    return descent_length(seq, start.blank, r);
  }

  // One optimal path from start to goal (both included), found by descending the table; empty
  // when unreachable. Ties go to the first of U, D, L, R (multi-tile: a step may move the blank
  // several cells; in each direction the nearest cell comes first).
  std::vector<State> descend(const State& start, const State& goal) const;

  // The states at the largest distance, in the labels of `goal` (at most `limit` of them; a
  // two-bit or one-bit table lists them only when the radius holds at most kFarthestKept states).
  std::vector<State> farthest(const State& goal, std::size_t limit) const;

  // Two-bit and one-bit tables read from a file: checks every chunk now (in parallel); else
  // nothing to do.
  void verify_all(int threads = 0) const;

 private:
  // Two-bit and one-bit: the field of rank r (01 or 10 when settled, bfs.hpp; multi-tile 01, 10 or
  // 11), its chunk verified:
  // the only read of the table the descent makes.
  unsigned field(std::uint64_t r) const {
    if (bits_ == 1) {
      if (chunks_) chunks_->touch((r >> 6) * 8);
      return one_bit_field(words_.data(), r);
    }
    if (chunks_) chunks_->touch((r >> 5) * 8);
    return two_bit_field(words_.data(), r);
  }
  int descent_length(Sequence seq, int blank, std::uint64_t r) const;
  // Two-bit and one-bit: true when the neighbour of rank nr is one move closer than a state of field v whose
  // blank is on `blank`.
  bool closer(unsigned v, int blank, std::uint64_t nr) const;

  Ranker ranker_;
  std::span<const std::uint8_t> depths_;
  std::span<const std::uint64_t> words_;  // two-bit fields or one-bit bits
  int bits_ = 8;
  Metric metric_ = Metric::single;
  std::vector<std::uint64_t> histogram_, farthest_;
  std::shared_ptr<const void> storage_;
  std::shared_ptr<const ChunkVerifier> chunks_;
  std::uint64_t goal_rank_ = 0;
};

}  // namespace tilespace
