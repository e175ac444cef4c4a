#include "tilespace/distance_table.hpp"

#include <tbb/info.h>

#include <algorithm>
#include <cstdio>
#include <new>

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

}  // namespace

DistanceTable::DistanceTable(const Ranker& ranker, std::span<const std::uint8_t> depths,
                             std::vector<std::uint64_t> histogram, std::shared_ptr<const void> storage)
    : ranker_(ranker), depths_(depths), histogram_(std::move(histogram)), storage_(std::move(storage)) {}

DistanceTable::DistanceTable(const Ranker& ranker, std::span<const std::uint64_t> fields,
                             std::vector<std::uint64_t> histogram, std::vector<std::uint64_t> farthest,
                             std::shared_ptr<const void> storage, std::shared_ptr<const ChunkVerifier> chunks)
    : ranker_(ranker), fields_(fields), histogram_(std::move(histogram)), farthest_(std::move(farthest)),
      storage_(std::move(storage)), chunks_(std::move(chunks)), goal_rank_(goal_rank_of(ranker)) {}

std::uint64_t DistanceTable::build_bytes(const Board& board, Engine engine) {
  const Ranker r(board, 0);  // throws InputError above kMaxCells cells
  if (engine == Engine::two_bit) return two_bit_build_bytes(r);  // fields, marks, buffers (bfs.hpp)
  return r.size() + bfs_work_bytes(r);
}

Engine DistanceTable::choose_engine(const Board& board, Engine requested) {
  require_packed(board);
  if (requested == Engine::automatic)
    requested = fits(build_bytes(board, Engine::byte)) ? Engine::byte : Engine::two_bit;
  require_memory(build_bytes(board, requested),
                 "the " + board.name() + " table with the " + (requested == Engine::byte ? "byte" : "two-bit") + " engine");
  return requested;
}

void DistanceTable::check_fits(const Board& board) { (void)choose_engine(board); }

BuildCost DistanceTable::estimate_build(const Board& board, Engine engine, int threads) {
  require_packed(board);
  if (engine == Engine::automatic) engine = fits(build_bytes(board, Engine::byte)) ? Engine::byte : Engine::two_bit;
  const Ranker r(board, 0);
  const int cores = std::max(1, static_cast<int>(tbb::info::default_concurrency()));
  const int t = threads > 0 ? std::min(threads, cores) : cores;
  const bool byte = engine == Engine::byte;
  BuildCost c;
  c.seconds = static_cast<double>(r.size()) * (byte ? kByteNsPerState : kTwoBitNsPerState) * 1e-9 / t;
  c.memory = build_bytes(board, engine);
  // The file: header, payload and, for two bits, the chunk checksums and at most kFarthestKept ranks.
  const std::uint64_t payload = byte ? r.size() : two_bit_bytes(r);
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
  return DistanceTable(ranker, depths, std::move(res.histogram), std::shared_ptr<const void>(data, data.get()));
}

DistanceTable DistanceTable::build_two_bit(const Board& board, int goal_blank, const TwoBitOptions& options,
                                           std::shared_ptr<FieldArray> resume_fields, const TwoBitProgress* resume) {
  const Ranker ranker(board, goal_blank);
  (void)choose_engine(board, Engine::two_bit);
  auto fields = resume_fields ? std::move(resume_fields) : std::make_shared<FieldArray>(two_bit_words(ranker));
  TwoBitResult res = bfs_two_bit(ranker, fields->span(), options, resume);
  const std::span<const std::uint64_t> f = fields->span();
  return DistanceTable(ranker, f, std::move(res.histogram), std::move(res.farthest),
                       std::shared_ptr<const void>(fields, fields.get()), nullptr);
}

DistanceTable DistanceTable::from_database(LoadedDatabase db) {
  const State& g = db.info.goal;
  const bool two = db.info.kind == kKindTwoBitTable;
  if ((db.info.kind != kKindDistanceTable && !two) || !(g == canonical_goal(g.board, g.blank)))
    throw DataError("not a distance table for a canonical goal");
  const std::span<const std::uint8_t> payload = db.payload;
  const Ranker ranker(g.board, g.blank);
  if (two) {
    if (reinterpret_cast<std::uintptr_t>(payload.data()) % 8 != 0) throw DataError("misaligned two-bit payload");
    const std::span<const std::uint64_t> fields(reinterpret_cast<const std::uint64_t*>(payload.data()),
                                                payload.size() / 8);
    return DistanceTable(ranker, fields, std::move(db.info.histogram), std::move(db.info.farthest),
                         std::shared_ptr<const void>(db.file, db.file.get()), std::move(db.chunks));
  }
  return DistanceTable(ranker, payload, std::move(db.info.histogram), std::shared_ptr<const void>(db.file, db.file.get()));
}

DatabaseInfo DistanceTable::info() const {
  DatabaseInfo i;
  i.kind = two_bit() ? kKindTwoBitTable : kKindDistanceTable;
  i.goal = goal();
  i.entries = ranker_.size();
  i.histogram = histogram_;
  if (two_bit()) i.farthest = farthest_;
  return i;
}

std::span<const std::uint8_t> DistanceTable::payload() const noexcept {
  if (!two_bit()) return depths_;
  return {reinterpret_cast<const std::uint8_t*>(fields_.data()), fields_.size() * 8};
}

void DistanceTable::verify_all(int threads) const {
  if (chunks_) chunks_->verify_all(threads);
}

unsigned DistanceTable::field(std::uint64_t r) const {
  if (chunks_) chunks_->touch((r >> 5) * 8);
  return two_bit_field(fields_.data(), r);
}

bool DistanceTable::closer(unsigned v, int blank, std::uint64_t nr) const {
  // D even: the closer neighbour's field differs (floor((D-1)/2) = D/2 - 1); D odd: it is equal.
  const unsigned nv = field(nr);
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
  int steps = 0;
  while (r != goal_rank_) {
    const unsigned v = field(r);
    if (v == 0 || v == 3 || steps >= radius())
      throw DataError("the two-bit " + b.name() + " table is inconsistent at rank " + std::to_string(r));
    const auto& nb = b.neighbours(blank);
    bool stepped = false;
    // Horizontal neighbours first: the same group, rank +-1, no re-ranking.
    for (int pass = 0; pass < 2 && !stepped; ++pass) {
      for (int i = 0; i < nb.count; ++i) {
        const int c = nb.cell[i];
        const bool horizontal = c == blank - 1 || c == blank + 1;
        if (horizontal != (pass == 0)) continue;
        Sequence next = seq;
        std::uint64_t nr;
        if (horizontal) {
          nr = r + static_cast<std::uint64_t>(c - blank);
        } else {
          move_sequence(next, blank, c);
          nr = ranker_.rank(next, c);
        }
        if (closer(v, blank, nr)) {
          seq = next;
          blank = c;
          r = nr;
          stepped = true;
          break;
        }
      }
    }
    if (!stepped) throw DataError("the two-bit " + b.name() + " table is inconsistent: no neighbour one move closer");
    ++steps;
  }
  return steps;
}

int DistanceTable::depth_of_rank(std::uint64_t r) const {
  if (!two_bit()) return depths_[r];
  Sequence seq{};
  const int blank = ranker_.unrank(r, seq);
  return descent_length(seq, blank, r);
}

std::vector<State> DistanceTable::descend(const State& start, const State& goal) const {
  const Labelling lab(goal);
  auto d = distance(start, lab);
  if (!d) return {};
  if (two_bit()) {  // the same choices as below: the first closer neighbour in U, D, L, R order
    std::vector<State> path{start};
    State s = start;
    for (int left = *d; left > 0; --left) {
      const std::uint64_t r = ranker_.rank(lab.sequence(s), s.blank);
      const unsigned v = field(r);
      const auto& nb = board().neighbours(s.blank);
      bool stepped = false;
      for (int i = 0; i < nb.count && !stepped; ++i) {
        const State next = s.moved(nb.cell[i]);
        if (closer(v, s.blank, ranker_.rank(lab.sequence(next), next.blank))) {
          s = next;
          path.push_back(s);
          stepped = true;
        }
      }
      if (!stepped) throw DataError("table is inconsistent: no neighbour one move closer to the goal");
    }
    if (!(s == goal)) throw DataError("table is inconsistent: the descent does not end at the goal");  // as below
    return path;
  }
  std::vector<State> path{start};
  State s = start;
  while (*d > 0) {
    const auto& nb = board().neighbours(s.blank);
    bool stepped = false;
    for (int i = 0; i < nb.count && !stepped; ++i) {
      const State next = s.moved(nb.cell[i]);
      const auto dn = distance(next, lab);
      if (dn && *dn == *d - 1) {
        s = next;
        d = dn;
        path.push_back(s);
        stepped = true;
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
  const std::uint64_t n = two_bit() ? farthest_.size() : depths_.size();
  for (std::uint64_t i = 0; i < n && out.size() < limit; ++i) {
    const std::uint64_t r = two_bit() ? farthest_[i] : i;
    if (!two_bit() && depths_[r] != top) continue;
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
