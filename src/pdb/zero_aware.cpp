// Zero-aware pattern databases (pdb/zero_aware.hpp): the index's tables, the breadth-first build
// over entries on the layered engines' driver, the bits, the descent and the file (kind 6).
#include "tilespace/pdb/zero_aware.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "tilespace/database.hpp"
#include "tilespace/engine/layer_kernel.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/pdb/database.hpp"
#include "byte_layers.hpp"

namespace tilespace::pdb {
namespace {

constexpr std::uint8_t kNotReached = 0xFF;
constexpr int kMostLayers = 254;

// Tiles a zero-aware pattern may have on `board`, checked with the tiles themselves.
void check_zero_aware(const Board& board, const Pattern& pattern) {
  const int n = board.cells(), k = static_cast<int>(pattern.tiles.size());
  const int most = std::min(kMaxZeroAwareTiles, n - 3);
  if (n > kMaxPdbCells) throw InputError("pattern databases handle boards of at most 32 cells");
  if (k < 1 || k > most)
    throw InputError("a zero-aware pattern on the " + board.name() + " board has 1 to " + std::to_string(most) + " tiles");
  std::uint32_t seen = 0;
  for (const auto t : pattern.tiles) {
    if (t == 0 || t >= n || ((seen >> t) & 1u))
      throw InputError("pattern " + pattern.name() + " is not a set of tiles of the " + board.name() + " board");
    seen |= 1u << t;
  }
}

// The cost of a build per entry and thread (estimate_zero_aware), measured on the 2-core reference
// machine through the command (`tilespace build --board 5x5 --zpdb 1,2,5,6,7,12`, 181,008,000
// entries, build, bits and file): 34.1 s on 2 threads -> 0.38 us, when the additive database of
// the same pattern took 26.6 s (0.42 us a placement). Set, as the additive builder's constants are,
// between the fast and the slow days (about 1.5x apart).
constexpr double kNsPerEntry = 500;

}  // namespace

ZeroAwareIndex::ZeroAwareIndex(const Board& board, int tiles) : grid_(board), n_(board.cells()), k_(tiles) {
  const int most = std::min(kMaxZeroAwareTiles, n_ - 3);
  if (n_ > kMaxPdbCells || k_ < 1 || k_ > most)
    throw InputError("a zero-aware pattern on the " + board.name() + " board has 1 to " + std::to_string(most) + " tiles");
  for (int c = 0; c <= kMaxPdbCells; ++c) {
    binom_[c][0] = 1;
    for (int j = 1; j <= kMaxZeroAwareTiles; ++j)
      binom_[c][j] = c == 0 ? 0 : binom_[c - 1][j - 1] + binom_[c - 1][j];
  }
  for (int i = 2; i <= k_; ++i) perms_ *= static_cast<std::uint64_t>(i);
  for (int i = k_ - 1, w = 1; i >= 0; --i) {
    weight_[i] = static_cast<std::uint32_t>(w);
    w *= k_ - i;
  }
  // Every k-subset of the cells in increasing order of its mask, which is its colex order
  // (Gosper's hack), with the regions of its free cells by lowest cell.
  const std::uint32_t sets = binom_[n_][k_];
  base_.reserve(sets + 1);
  CellMask cover = (CellMask{1} << k_) - 1;
  for (std::uint32_t s = 0; s < sets; ++s) {
    base_.push_back(static_cast<std::uint32_t>(cover_.size()));
    const CellMask free = grid_.all & ~cover;
    for (CellMask rest = free; rest;) {
      const CellMask region = grid_.fill(rest & (0u - rest), free);
      cover_.push_back(cover);
      region_.push_back(region);
      rest &= ~region;
    }
    if (s + 1 < sets) {
      const CellMask low = cover & (0u - cover), ripple = cover + low;
      cover = (((ripple ^ cover) >> 2) / low) | ripple;
    }
  }
  base_.push_back(static_cast<std::uint32_t>(cover_.size()));
  slots_ = cover_.size();
}

namespace {

// Expands the entries of value `layer` in a block: every pattern tile next to the blank's region
// slides into each of its neighbouring cells in the region; the blank's new region is the one
// around the tile's old cell. Successors wait in a prefetch ring while their bytes are fetched.
template <bool Shared>
class ZeroAwareExpander {
 public:
  ZeroAwareExpander(const ZeroAwareIndex& index, std::uint8_t* values, int layer)
      : index_(index), grid_(index.grid()), values_(values), layer_(static_cast<std::uint8_t>(layer)),
        next_(static_cast<std::uint8_t>(layer + 1)) {}

  std::uint64_t run(std::uint64_t begin, std::uint64_t end) {
    const std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull, want = ones * layer_;
    for (std::uint64_t e = begin; e < end; ++e) {
      if ((e & 7) == 0 && e + 8 <= end) {  // no byte of these 8 equals the layer: skip them
        std::uint64_t w;
        std::memcpy(&w, values_ + e, 8);  // a racing store only turns kNotReached into layer + 1
        const std::uint64_t x = w ^ want;
        if (!((x - ones) & ~x & highs)) {
          e += 7;
          continue;
        }
      }
      if (load(values_[e]) == layer_) expand(e);
    }
    ring_.flush([this](std::uint64_t t) { settle(t); });
    return found_;
  }

 private:
  static std::uint8_t load(std::uint8_t& b) {
    if constexpr (Shared) return std::atomic_ref<std::uint8_t>(b).load(std::memory_order_relaxed);
    return b;
  }

  void expand(std::uint64_t entry) {
    const int k = index_.tiles();
    const CellMask region = index_.unrank(entry, pos_.data());
    CellMask cover = 0;
    for (int i = 0; i < k; ++i) {
      cover |= CellMask{1} << pos_[i];
      tile_on_[pos_[i]] = static_cast<std::uint8_t>(i);
    }
    for (CellMask tiles = grid_.around(region) & cover; tiles; tiles &= tiles - 1) {
      const int from = std::countr_zero(tiles);
      const int i = tile_on_[from];
      for (CellMask to = grid_.around(CellMask{1} << from) & region; to; to &= to - 1) {
        pos_[i] = static_cast<std::uint8_t>(std::countr_zero(to));
        const std::uint64_t t = index_.rank(pos_.data(), from);
        ring_.push(t, &values_[t], [this](std::uint64_t x) { settle(x); });
      }
      pos_[i] = static_cast<std::uint8_t>(from);
    }
  }

  void settle(std::uint64_t t) { found_ += detail::claim<Shared>(values_[t], kNotReached, next_); }

  const ZeroAwareIndex& index_;
  const CellGrid& grid_;
  std::uint8_t* values_;
  std::uint8_t layer_, next_;
  std::uint64_t found_ = 0;
  std::array<std::uint8_t, kMaxPdbCells> pos_{}, tile_on_{};
  detail::PrefetchRing<std::uint64_t, 32> ring_;
};

}  // namespace

BuildEstimate estimate_zero_aware(const Board& board, const Pattern& pattern, int threads) {
  check_zero_aware(board, pattern);
  const ZeroAwareIndex index(board, static_cast<int>(pattern.tiles.size()));
  BuildEstimate e;
  e.entries = index.size();
  e.bytes = e.entries + (e.entries + 63) / 64 * 8;
  const std::uint64_t payload = (e.entries + 63) / 64 * 8, chunk = std::uint64_t{1} << kChunkLog2;
  e.disk = kHeaderSize + payload + 8 * ((payload + chunk - 1) / chunk);
  const int cores = std::max(1, static_cast<int>(tbb::info::default_concurrency()));
  const int t = threads > 0 ? std::min(threads, cores) : cores;
  e.seconds = static_cast<double>(e.entries) * kNsPerEntry * 1e-9 / t;
  return e;
}

BuiltZeroAware build_zero_aware_values(const State& goal, const Pattern& pattern, const BuildOptions& options) {
  require_single_tile(options, "a zero-aware pattern database");
  detail::LayerDriver driver(options.threads);
  const Board& board = goal.board;
  check_zero_aware(board, pattern);
  const ZeroAwareIndex index(board, static_cast<int>(pattern.tiles.size()));
  const std::uint64_t size = index.size();
  require_memory(size, "building zero-aware pattern " + pattern.name());
  BuiltZeroAware db;
  db.memory = PageMemory(size, "the values of zero-aware pattern " + pattern.name() + " (" + byte_words(size) + ")");
  db.values = db.memory.bytes().first(size);
  std::uint8_t* values = db.values.data();

  const auto home = placement_of(goal, pattern);
  db.histogram = detail::byte_layers(driver, options, db.values, kNotReached, index.rank(home.data(), goal.blank), kMostLayers,
                                     "zero-aware pattern " + pattern.name(),
                                     [&]<bool Shared>(int layer, std::uint64_t begin, std::uint64_t end) {
                                       return ZeroAwareExpander<Shared>(index, values, layer).run(begin, end);
                                     });
  db.seconds = driver.seconds();
  return db;
}

ZeroAwareDatabase::ZeroAwareDatabase(State goal, Pattern pattern)
    : goal_(std::move(goal)), pattern_(std::move(pattern)),
      index_(std::make_shared<const ZeroAwareIndex>(goal_.board, static_cast<int>(pattern_.tiles.size()))) {
  const auto home = placement_of(goal_, pattern_);
  goal_entry_ = index_->rank(home.data(), goal_.blank);
}

ZeroAwareDatabase ZeroAwareDatabase::from_values(const State& goal, const Pattern& pattern,
                                                 std::span<const std::uint8_t> values,
                                                 std::vector<std::uint64_t> histogram) {
  check_zero_aware(goal.board, pattern);
  ZeroAwareDatabase db(goal, pattern);
  const std::uint64_t size = db.index_->size(), words = (size + 63) / 64;
  if (values.size() != size) throw std::invalid_argument("ZeroAwareDatabase::from_values: not one value an entry");
  auto bits = std::make_shared<PageMemory>(8 * words, "the bits of zero-aware pattern " + pattern.name());
  const std::span<std::uint64_t> w = bits->as<std::uint64_t>().first(words);
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, words, 1u << 14), [&](const auto& r) {
    for (std::uint64_t i = r.begin(); i < r.end(); ++i) {
      std::uint64_t x = 0;
      const std::uint64_t end = std::min<std::uint64_t>(64, size - 64 * i);
      for (std::uint64_t b = 0; b < end; ++b) x |= static_cast<std::uint64_t>((values[64 * i + b] >> 1) & 1u) << b;
      w[i] = x;
    }
  });
  db.words_ = w;
  db.owner_ = std::move(bits);
  db.histogram_ = std::move(histogram);
  return db;
}

ZeroAwareDatabase ZeroAwareDatabase::build(const State& goal, const Pattern& pattern, const BuildOptions& options) {
  BuiltZeroAware built = build_zero_aware_values(goal, pattern, options);
  return from_values(goal, pattern, built.values, std::move(built.histogram));
}

int ZeroAwareDatabase::value(const std::uint8_t* pos, int blank) const {
  return value_of_entry(index_->rank(pos, blank));
}

int ZeroAwareDatabase::value_of_entry(std::uint64_t entry) const {
  const int k = index_->tiles();
  const CellGrid& grid = index_->grid();
  std::array<std::uint8_t, kMaxPdbCells> pos{};
  // value mod 4: the bit, and the parity of the tiles' row + column sum against the goal's.
  CellMask odd = 0;
  for (int c = 0; c < goal_.cells(); ++c)
    if ((goal_.board.row(c) + goal_.board.col(c)) & 1) odd |= CellMask{1} << c;
  auto parity = [&] {
    CellMask cover = 0;
    for (int i = 0; i < k; ++i) cover |= CellMask{1} << pos[i];
    return std::popcount(cover & odd) & 1;
  };
  index_->unrank(goal_entry_, pos.data());
  const int goal_parity = parity();
  const int radius = static_cast<int>(histogram_.size()) - 1;
  int steps = 0;
  CellMask region = index_->unrank(entry, pos.data());
  int mod4 = (bit(entry) << 1) | (parity() ^ goal_parity);
  while (entry != goal_entry_) {
    if (steps > radius)
      throw DataError("zero-aware pattern database " + pattern_.name() + ": no way down to the goal: the values are inconsistent");
    const int want = (mod4 + 3) & 3;  // one lower
    CellMask cover = 0;
    std::array<std::uint8_t, kMaxPdbCells> tile_on{};
    for (int i = 0; i < k; ++i) {
      cover |= CellMask{1} << pos[i];
      tile_on[pos[i]] = static_cast<std::uint8_t>(i);
    }
    bool down = false;
    for (CellMask tiles = grid.around(region) & cover; tiles && !down; tiles &= tiles - 1) {
      const int from = std::countr_zero(tiles), i = tile_on[from];
      for (CellMask to = grid.around(CellMask{1} << from) & region; to; to &= to - 1) {
        pos[i] = static_cast<std::uint8_t>(std::countr_zero(to));
        const std::uint64_t t = index_->rank(pos.data(), from);
        // A move changes the parity: the one lower has bit (want >> 1).
        if (bit(t) == (want >> 1)) {
          entry = t;
          mod4 = want;
          down = true;
          break;
        }
      }
      if (!down) pos[i] = static_cast<std::uint8_t>(from);
    }
    if (!down)
      throw DataError("zero-aware pattern database " + pattern_.name() + ": no way down to the goal: the values are inconsistent");
    region = index_->unrank(entry, pos.data());
    ++steps;
  }
  return steps;
}

ZeroAwareDatabase ZeroAwareDatabase::load(const std::filesystem::path& path, const State& goal, const Pattern& pattern) {
  LoadedDatabase file = load_pattern_file(path, kKindZeroAwareDatabase, goal, pattern);
  const std::string name = path.string();
  check_zero_aware(goal.board, pattern);
  ZeroAwareDatabase db(goal, pattern);
  if (file.info.entries != db.index_->size())
    throw DataError(name + ": holds " + std::to_string(file.info.entries) + " entries, zero-aware pattern " +
                    pattern.name() + " of the " + goal.board.name() + " board has " + std::to_string(db.index_->size()));
  db.histogram_ = std::move(file.info.histogram);
  const auto [bytes, owner] = resident_payload(file, PatternDatabase::residence_for(goal.board), "zero-aware pattern database " + name);
  db.words_ = {reinterpret_cast<const std::uint64_t*>(bytes.data()), (db.index_->size() + 63) / 64};
  db.owner_ = owner;
  return db;
}

void ZeroAwareDatabase::save(const std::filesystem::path& path) const {
  DatabaseInfo info;
  info.kind = kKindZeroAwareDatabase;
  info.goal = goal_;
  info.entries = index_->size();
  info.pattern = pattern_.tiles;
  info.histogram = histogram_;
  save_database(path, info,
                std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(words_.data()), 8 * words_.size()));
}

}  // namespace tilespace::pdb
