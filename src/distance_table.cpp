#include "tilespace/distance_table.hpp"

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstdio>
#include <new>
#include <stdexcept>

#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"

namespace tilespace {

namespace {

std::uint64_t goal_rank_of(const Ranker& r) {
  Sequence id{};
  for (int i = 0; i < r.seq_len(); ++i) id[i] = static_cast<std::uint8_t>(i);
  return r.rank(id, r.goal_blank());
}

bool fits(std::uint64_t need) {
  const std::uint64_t have = memory_budget();
  return !have || need <= have / 10 * 9;
}

// The high bits of the 32 fields of a word, in order, in its low 32 bits (the classic compaction
// by halves); `bad` collects the fields of ranks (the `valid` mask of their low bits) that are not
// settled, whose two bits are equal, and the fields after the last rank that are not 00.
inline std::uint64_t high_bits(std::uint64_t w, std::uint64_t valid, std::uint64_t& bad) noexcept {
  constexpr std::uint64_t low = 0x5555'5555'5555'5555u;
  bad |= (~(w ^ (w >> 1)) & valid) | (w & ~(valid | valid << 1));
  std::uint64_t x = (w >> 1) & low;
  x = (x | (x >> 1)) & 0x3333'3333'3333'3333u;
  x = (x | (x >> 2)) & 0x0F0F'0F0F'0F0F'0F0Fu;
  x = (x | (x >> 4)) & 0x00FF'00FF'00FF'00FFu;
  x = (x | (x >> 8)) & 0x0000'FFFF'0000'FFFFu;
  return (x | (x >> 16)) & 0xFFFF'FFFFu;
}

// Output words [b, e) of pack_one_bit: word k from fields 2k and 2k + 1 (the latter may be past
// the end). In place for b <= k: word k is written after words 2k and 2k + 1 are read.
void pack_words(std::uint64_t* f, std::uint64_t words, std::uint64_t states, std::uint64_t b, std::uint64_t e) {
  constexpr std::uint64_t low = 0x5555'5555'5555'5555u;
  const std::uint64_t full = states / 32;  // fields words whose 32 fields are all ranks
  const std::uint64_t last = (std::uint64_t{1} << (2 * (states % 32))) - 1;  // the partial word's ranks (both bits)
  std::uint64_t bad = 0;
  for (std::uint64_t k = b; k < e; ++k) {
    const std::uint64_t i = 2 * k;
    const std::uint64_t v0 = i < full ? low : i == full ? last & low : 0;
    const std::uint64_t v1 = i + 1 < full ? low : i + 1 == full ? last & low : 0;
    const std::uint64_t lo = high_bits(f[i], v0, bad);
    const std::uint64_t hi = i + 1 < words ? high_bits(f[i + 1], v1, bad) : 0;
    f[k] = lo | hi << 32;
  }
  if (bad) throw std::logic_error("pack_one_bit: a field of the two-bit table is not settled");
}

}  // namespace

std::uint64_t one_bit_words(const Ranker& ranker) { return (ranker.size() + 63) / 64; }

void pack_one_bit(std::span<std::uint64_t> fields, std::uint64_t states, int threads) {
  const std::uint64_t words = fields.size(), out = (states + 63) / 64;
  if (words != (states + 31) / 32) throw std::invalid_argument("pack_one_bit: fields of the wrong size");
  // Round 0 packs [0, c) in order (each word k is written after its inputs 2k, 2k + 1 are read);
  // round [c, 2c) reads [2c, 4c), which no round has written yet, and writes over inputs of
  // [c/2, c), packed in the round before: every word of a round in parallel.
  constexpr std::uint64_t first = std::uint64_t{1} << 17;  // 1 MiB of output
  std::uint64_t c = std::min(first, out);
  pack_words(fields.data(), words, states, 0, c);
  tbb::task_arena arena(threads > 0 ? threads : tbb::info::default_concurrency());
  arena.execute([&] {
    for (; c < out; c *= 2) {
      const std::uint64_t e = std::min(2 * c, out);
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(c, e, 1u << 14), [&](const auto& r) {
        pack_words(fields.data(), words, states, r.begin(), r.end());
      });
    }
  });
}

DistanceTable::DistanceTable(const Ranker& ranker, std::span<const std::uint8_t> depths,
                             std::vector<std::uint64_t> histogram, std::shared_ptr<const void> storage, Metric metric)
    : ranker_(ranker), depths_(depths), metric_(metric), histogram_(std::move(histogram)), storage_(std::move(storage)) {}

DistanceTable::DistanceTable(const Ranker& ranker, std::span<const std::uint64_t> words,
                             std::vector<std::uint64_t> histogram, std::vector<std::uint64_t> farthest,
                             std::shared_ptr<const void> storage, std::shared_ptr<const ChunkVerifier> chunks, int bits,
                             Metric metric)
    : ranker_(ranker), words_(words), bits_(bits), metric_(metric), histogram_(std::move(histogram)),
      farthest_(std::move(farthest)), storage_(std::move(storage)), chunks_(std::move(chunks)),
      goal_rank_(goal_rank_of(ranker)) {
  if ((bits != 1 && bits != 2) || words.size() != (bits == 1 ? one_bit_words(ranker) : two_bit_words(ranker)))
    throw std::invalid_argument("DistanceTable: not the words of a two-bit or one-bit table of this board");
  if (bits == 1 && metric != Metric::single) throw std::invalid_argument("DistanceTable: a multi-tile one-bit table");
}

std::uint64_t DistanceTable::build_bytes(const Board& board, Engine engine, Metric metric) {
  const Ranker r(board, 0);  // throws InputError above kMaxCells cells
  if (engine == Engine::two_bit || engine == Engine::one_bit)  // fields, open bitmap, marks, buffers (bfs.hpp)
    return two_bit_build_bytes(r, metric);
  return r.size() + bfs_work_bytes(r);
}

bool DistanceTable::byte_engine_fits(const Board& board) { return fits(build_bytes(board, Engine::byte)); }

Engine DistanceTable::automatic_engine(const Board& board, Metric metric) {
  if (byte_engine_fits(board)) return Engine::byte;
  return metric == Metric::single ? Engine::one_bit : Engine::two_bit;
}

Engine DistanceTable::choose_engine(const Board& board, Engine requested, Metric metric) {
  require_packed(board);
  if (requested == Engine::automatic) requested = automatic_engine(board, metric);
  if (requested == Engine::one_bit && metric != Metric::single)
    throw option_error("bits", "1 keeps single-tile tables only (one bit cannot hold the multi-tile metric's depth mod "
                               "3); --bits 2 builds a multi-tile two-bit table");
  require_memory(build_bytes(board, requested, metric),
                 "the " + board.name() + (metric == Metric::multi ? " multi-tile" : "") + " table with the " +
                     (requested == Engine::byte ? "byte" : "two-bit") + " engine");
  return requested;
}

void DistanceTable::check_fits(const Board& board, Metric metric) { (void)choose_engine(board, Engine::automatic, metric); }

BuildCost DistanceTable::estimate_build(const Board& board, Engine engine, int threads, Metric metric) {
  require_packed(board);
  if (engine == Engine::automatic) engine = automatic_engine(board, metric);
  const Ranker r(board, 0);
  const int cores = std::max(1, static_cast<int>(tbb::info::default_concurrency()));
  const int t = threads > 0 ? std::min(threads, cores) : cores;
  const bool byte = engine == Engine::byte;
  BuildCost c;
  c.seconds = static_cast<double>(r.size()) * (byte ? kByteNsPerState : kTwoBitNsPerState) * 1e-9 / t;
  if (metric == Metric::multi) c.seconds *= kMultiTileCost;
  c.memory = build_bytes(board, engine, metric);
  // The file: header, payload and, for two bits or one, the chunk checksums and at most
  // kFarthestKept ranks.
  const std::uint64_t payload = byte ? r.size() : engine == Engine::one_bit ? 8 * one_bit_words(r) : two_bit_bytes(r);
  c.disk = kHeaderSize + payload +
           (byte ? 0 : 8 * (((payload + (std::uint64_t{1} << kChunkLog2) - 1) >> kChunkLog2) + kFarthestKept));
  return c;
}

DistanceTable DistanceTable::build(const Board& board, int goal_blank, const BfsOptions& options) {
  const Ranker ranker(board, goal_blank);
  (void)choose_engine(board, Engine::byte);
  std::shared_ptr<std::uint8_t[]> data;
  try {
    data.reset(new std::uint8_t[ranker.size()]);
  } catch (const std::bad_alloc&) {
    throw ResourceError("cannot allocate " + byte_words(ranker.size()) + " for the " + board.name() + " table");
  }
  const std::span<std::uint8_t> depths(data.get(), ranker.size());
  BfsResult res = bfs_distances(ranker, depths, options);
  return DistanceTable(ranker, depths, std::move(res.histogram), std::shared_ptr<const void>(data, data.get()),
                       options.metric);
}

DistanceTable DistanceTable::build_two_bit(const Board& board, int goal_blank, const TwoBitOptions& options,
                                           std::shared_ptr<FieldArray> resume_fields, const TwoBitProgress* resume,
                                           int bits) {
  if (bits != 1 && bits != 2) throw std::invalid_argument("build_two_bit: a table of 2 bits or 1 a state");
  const Metric metric = options.bfs.metric;
  const Ranker ranker(board, goal_blank);
  (void)choose_engine(board, bits == 1 ? Engine::one_bit : Engine::two_bit, metric);
  auto fields = resume_fields ? std::move(resume_fields)
                              : std::make_shared<FieldArray>(two_bit_search_words(ranker, metric));
  TwoBitResult res = bfs_two_bit(ranker, fields->span(), options, resume);
  std::span<const std::uint64_t> words = fields->span();
  if (metric == Metric::multi) {  // the open bitmap after the fields, all zero now, is given back
    fields->shrink(two_bit_words(ranker));
    words = words.first(two_bit_words(ranker));
  }
  if (bits == 1) {
    pack_one_bit(fields->span(), ranker.size(), options.bfs.threads);
    fields->shrink(one_bit_words(ranker));
    words = fields->span().first(one_bit_words(ranker));
  }
  return DistanceTable(ranker, words, std::move(res.histogram), std::move(res.farthest),
                       std::shared_ptr<const void>(fields, fields.get()), nullptr, bits, metric);
}

DistanceTable DistanceTable::from_database(LoadedDatabase db) {
  const State& g = db.info.goal;
  const int bits = db.info.kind == kKindTwoBitTable ? 2 : db.info.kind == kKindOneBitTable ? 1 : 8;
  if ((db.info.kind != kKindDistanceTable && bits == 8) || !(g == canonical_goal(g.board, g.blank)))
    throw DataError("not a distance table for a canonical goal");
  const std::span<const std::uint8_t> payload = db.payload;
  const Ranker ranker(g.board, g.blank);
  if (bits != 8) {
    if (reinterpret_cast<std::uintptr_t>(payload.data()) % 8 != 0) throw DataError("misaligned payload");
    const std::span<const std::uint64_t> words(reinterpret_cast<const std::uint64_t*>(payload.data()),
                                               payload.size() / 8);
    return DistanceTable(ranker, words, std::move(db.info.histogram), std::move(db.info.farthest),
                         std::shared_ptr<const void>(db.file, db.file.get()), std::move(db.chunks), bits,
                         db.info.metric);
  }
  return DistanceTable(ranker, payload, std::move(db.info.histogram), std::shared_ptr<const void>(db.file, db.file.get()),
                       db.info.metric);
}

DatabaseInfo DistanceTable::info() const {
  DatabaseInfo i;
  i.kind = bits_ == 2 ? kKindTwoBitTable : bits_ == 1 ? kKindOneBitTable : kKindDistanceTable;
  i.goal = goal();
  i.entries = ranker_.size();
  i.histogram = histogram_;
  i.metric = metric_;
  if (by_descent()) i.farthest = farthest_;
  return i;
}

std::span<const std::uint8_t> DistanceTable::payload() const noexcept {
  if (!by_descent()) return depths_;
  return {reinterpret_cast<const std::uint8_t*>(words_.data()), words_.size() * 8};
}

void DistanceTable::verify_all(int threads) const {
  if (chunks_) chunks_->verify_all(threads);
}

bool DistanceTable::closer(unsigned v, int blank, std::uint64_t nr) const {
  const unsigned nv = field(nr);
  // Multi-tile: the fields are D mod 3 + 1, and the closer neighbour's is (D - 1) mod 3 + 1.
  if (metric_ == Metric::multi) return nv == (v == 1 ? 3u : v - 1);
  // D even: the closer neighbour's field differs (floor((D-1)/2) = D/2 - 1); D odd: it is equal.
  return blank_parity(ranker_, blank) ? nv == v : (nv ^ v) == 3u;
}

namespace {

// The sequence after the blank, on cell b, moves to cell nb (one move): horizontal moves keep it;
// a vertical move rotates the W entries between the two cells.
void move_sequence(Sequence& s, int b, int nb) {
  if (nb < b - 1) {  // up: the entry at position nb moves to b-1
    std::rotate(s.begin() + nb, s.begin() + nb + 1, s.begin() + b);
  } else if (nb > b + 1) {  // down: the entry at position nb-1 moves to b
    std::rotate(s.begin() + b, s.begin() + nb - 1, s.begin() + nb);
  }
}

}  // namespace

int DistanceTable::descent_length(Sequence seq, int blank, std::uint64_t r) const {
  const Board& b = board();
  // Multi-tile: a move takes the blank up to W-1 or H-1 cells; each further cell is one more
  // single-cell step of the sequence.
  const int reach = metric_ == Metric::multi ? std::max(b.width(), b.height()) - 1 : 1;
  const char* what = bits_ == 1 ? "one-bit " : "two-bit ";
  int steps = 0;
  while (r != goal_rank_) {
    const unsigned v = field(r);
    if (v == 0 || (v == 3 && metric_ == Metric::single) || steps >= radius())
      throw DataError("the " + std::string(what) + b.name() + " table is inconsistent at rank " + std::to_string(r));
    bool stepped = false;
    // Horizontal moves first: the same group, rank + (cells moved), no re-ranking.
    for (const Dir d : {Dir::Left, Dir::Right, Dir::Up, Dir::Down}) {
      const bool horizontal = d == Dir::Left || d == Dir::Right;
      Sequence next = seq;
      int at = blank;
      for (int k = 0; k < reach && !stepped; ++k) {
        const int c = b.step(at, d);
        if (c < 0) break;
        std::uint64_t nr;
        if (horizontal) {
          nr = r + static_cast<std::uint64_t>(c - blank);
        } else {
          move_sequence(next, at, c);
          nr = ranker_.rank(next, c);
        }
        at = c;
        if (closer(v, blank, nr)) {
          seq = next;
          blank = c;
          r = nr;
          stepped = true;
        }
      }
      if (stepped) break;
    }
    if (!stepped)
      throw DataError("the " + std::string(what) + b.name() + " table is inconsistent: no neighbour one move closer");
    ++steps;
  }
  return steps;
}

int DistanceTable::depth_of_rank(std::uint64_t r) const {
  if (!by_descent()) return depths_[r];
  Sequence seq{};
  const int blank = ranker_.unrank(r, seq);
  return descent_length(seq, blank, r);
}

std::vector<State> DistanceTable::descend(const State& start, const State& goal) const {
  const Labelling lab(goal);
  const auto d = distance(start, lab);
  if (!d) return {};
  // One move a step, to the first neighbour one move closer in U, D, L, R order (multi-tile: in
  // each direction, the nearest cell first): by the depths of a byte table, by the fields of a
  // two-bit or one-bit one (closer()).
  auto rank_of = [&](const State& s) { return ranker_.rank(lab.sequence(s), s.blank); };
  const int reach = metric_ == Metric::multi ? board().cells() : 1;
  std::vector<State> path{start};
  State s = start;
  for (int left = *d; left > 0; --left) {
    const std::uint64_t r = rank_of(s);
    const unsigned v = bits_ == 8 ? depths_[r] : field(r);
    bool stepped = false;
    for (int dir = 0; dir < 4 && !stepped; ++dir) {
      State next = s;
      for (int k = 0; k < reach && !stepped; ++k) {
        const int to = board().step(next.blank, static_cast<Dir>(dir));
        if (to < 0) break;
        next = next.moved(to);
        const std::uint64_t nr = rank_of(next);
        if (bits_ == 8 ? depths_[nr] + 1u == v : closer(v, s.blank, nr)) {
          s = next;
          path.push_back(s);
          stepped = true;
        }
      }
    }
    if (!stepped) throw DataError("table is inconsistent: no neighbour one move closer to the goal");
  }
  // A state at distance 0 is the goal in a consistent table; a lying one (valid checksums around
  // wrong values) could end the path elsewhere, and `solve` would print it as a solution.
  if (!(s == goal)) throw DataError("table is inconsistent: the descent does not end at the goal");
  return path;
}

std::vector<State> DistanceTable::farthest(const State& goal, std::size_t limit) const {
  const Labelling lab(goal);
  std::array<std::uint8_t, kMaxCells> tile_of{};  // label -> tile of `goal`
  for (int t = 1; t < goal.cells(); ++t) tile_of[lab.label[t]] = static_cast<std::uint8_t>(t);
  std::vector<State> out;
  const auto top = static_cast<std::uint8_t>(radius());
  const std::uint64_t n = by_descent() ? farthest_.size() : depths_.size();
  for (std::uint64_t i = 0; i < n && out.size() < limit; ++i) {
    const std::uint64_t r = by_descent() ? farthest_[i] : i;
    if (!by_descent() && depths_[r] != top) continue;
    Sequence seq{};
    const int blank = ranker_.unrank(r, seq);
    State s{board(), {}, blank};
    int k = 0;
    for (int c = 0; c < board().cells(); ++c)
      if (c != blank) s.tiles[c] = tile_of[seq[k++]];
    out.push_back(s);
  }
  return out;
}

}  // namespace tilespace
