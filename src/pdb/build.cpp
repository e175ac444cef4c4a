// The pattern-database builder (pdb/build.hpp): Expander, one cost layer's expansion over a block
// of placement ranks, and the layer loop around it. The loop is detail::LayerDriver's
// (engine/layer_kernel.hpp), shared with the byte and two-bit engines: one oneTBB arena for the whole
// build, one pass a layer (a parallel_reduce over blocks of ranks; with one thread a direct call of
// the unshared instantiation), and the per-layer report; successors wait in a detail::PrefetchRing
// while their mark bytes are fetched. After each pass the regions deferred by every thread are
// added (OR, so their order does not matter), and the histogram is counted from the values at the
// end: the result is the same for every thread count.
#include "tilespace/pdb/build.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>

#include "tilespace/engine/layer_kernel.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"

namespace tilespace::pdb {
namespace {

constexpr std::uint8_t kUnset = 0xFF;
constexpr int kRegionBits = 6;  // regions 0..4 own a bit; 5, 6, ... share bit 5
constexpr std::uint8_t kRegionMask = (1u << kRegionBits) - 1;
constexpr int kMaxCost = 254;

std::uint8_t expand_flag(int layer) { return static_cast<std::uint8_t>(1u << (kRegionBits + (layer & 1))); }

// The region index, capped: regions kRegionBits-1 and above share the last bit.
int region_index(const CellGrid& grid, CellMask r, CellMask free) noexcept {
  return grid.region_number(r, free, kRegionBits - 1);
}

// For boards of at most 16 cells, the regions of every set of free cells, looked up instead of
// flood-filled: labels[free] holds 4 bits per cell, the cell's region index (capped at
// kRegionBits-1) or 15 for a cell that is not free. 2^16 words (512 KiB) at most.
// connected[free / 64] bit free % 64: the `free` cells form one region, the common case. Only
// sets of exactly `free_cells` cells occur; 2^N bits (4 MiB for 5x5). Boards of at most 25 cells.
std::vector<std::uint64_t> connected_sets(const CellGrid& grid, int cells, int free_cells) {
  std::vector<std::uint64_t> bits;
  if (cells > 25) return bits;
  bits.assign((std::size_t{1} << cells) / 64 + 1, 0);
  for (CellMask free = 1; free < (CellMask{1} << cells); ++free)
    if (std::popcount(free) == free_cells && grid.fill(free & (0u - free), free) == free)
      bits[free / 64] |= std::uint64_t{1} << (free % 64);
  return bits;
}

// For boards of at most 16 cells, the regions of the sets of `free_cells` cells, looked up
// instead of flood-filled: labels[free] holds 4 bits per cell, the cell's region index (capped at
// kRegionBits-1) or 15 for a cell that is not free. 2^16 words (512 KiB) at most.
std::vector<std::uint64_t> region_labels(const CellGrid& grid, int cells, int free_cells) {
  std::vector<std::uint64_t> labels;
  if (cells > 16) return labels;
  labels.assign(std::size_t{1} << cells, ~std::uint64_t{0});
  for (CellMask free = 0; free < (CellMask{1} << cells); ++free) {
    if (std::popcount(free) != free_cells) continue;
    std::uint64_t l = ~std::uint64_t{0};
    CellMask rest = free;
    for (int i = 0; rest; i = std::min(i + 1, kRegionBits - 1)) {
      const CellMask region = grid.fill(rest & (0u - rest), free);
      rest &= ~region;
      for (CellMask m = region; m; m &= m - 1) {
        const int c = std::countr_zero(m);
        l = (l & ~(std::uint64_t{15} << (4 * c))) | (static_cast<std::uint64_t>(i) << (4 * c));
      }
    }
    labels[free] = l;
  }
  return labels;
}

struct Deferred {
  std::uint64_t rank;
  std::uint8_t bits;
};
using DeferredLists = tbb::enumerable_thread_specific<std::vector<Deferred>>;

// What a block of a pass returns.
struct LayerCount {
  std::uint64_t found = 0;     // placements whose value is this layer (expanded for the first time)
  std::uint64_t expanded = 0;  // placements expanded (also those that gained a region later)
  void join(const LayerCount& o) {
    found += o.found;
    expanded += o.expanded;
  }
};

// Expands the placements of one block of ranks flagged for `layer`. Shared: several threads, so
// bytes are updated with relaxed atomics; otherwise plain loads and stores.
template <bool Shared>
class Expander {
 public:
  Expander(const CellGrid& grid, const std::uint64_t* connected, const std::uint64_t* labels, const PlacementRanker& ranker,
           std::uint64_t* mark_words, std::uint8_t* values, int layer, std::vector<Deferred>& deferred)
      : grid_(grid), connected_(connected), labels_(labels), ranker_(ranker), mark_words_(mark_words),
        mark_(reinterpret_cast<std::uint8_t*>(mark_words)), values_(values), layer_(layer), cur_(expand_flag(layer)),
        next_(expand_flag(layer + 1)), deferred_(deferred) {}

  // Expands the flagged placements of ranks [begin, end). The count is a local (not the caller's
  // tally) so that it stays in registers: the mark and value stores are bytes, which may alias it.
  LayerCount run(std::uint64_t begin, std::uint64_t end) {
    LayerCount n;
    const std::uint64_t flags8 = 0x0101010101010101ull * cur_;
    for (std::uint64_t r = begin; r < end; ++r) {
      if ((r & 7) == 0 && r + 8 <= end) {  // skip 8 marks at a time (expand flags are not set during a layer)
        const std::uint64_t w = std::atomic_ref<std::uint64_t>(mark_words_[r / 8]).load(std::memory_order_relaxed);
        if (!(w & flags8)) {
          r += 7;
          continue;
        }
      }
      if (!(load(mark_[r]) & cur_)) continue;
      const std::uint8_t m = take(mark_[r]);
      ++n.expanded;
      n.found += load(values_[r]) == layer_;
      expand(r, m & kRegionMask);
    }
    flush();
    return n;
  }

 private:
  static constexpr int kRing = 32;  // prefetch distance
  struct Target {
    std::uint64_t rank;
    std::uint8_t bit;
  };

  static std::uint8_t load(std::uint8_t& b) {
    if constexpr (Shared) return std::atomic_ref<std::uint8_t>(b).load(std::memory_order_relaxed);
    return b;
  }
  std::uint8_t take(std::uint8_t& b) const {  // clears the expand flag, returns the old mark
    if constexpr (Shared)
      return std::atomic_ref<std::uint8_t>(b).fetch_and(static_cast<std::uint8_t>(~cur_), std::memory_order_relaxed);
    const std::uint8_t old = b;
    b = static_cast<std::uint8_t>(old & ~cur_);
    return old;
  }

  void expand(std::uint64_t r, std::uint8_t regions) {
    const int k = ranker_.tiles();
    ranker_.unrank(r, pos_.data());
    rank_ = r;
    CellMask occ = 0;
    for (int i = 0; i < k; ++i) {
      const CellMask bit = CellMask{1} << pos_[i];
      before_[i] = occ;
      digit_[i] = pos_[i] - std::popcount(occ & (bit - 1));
      occ |= bit;
      tile_on_[pos_[i]] = static_cast<std::uint8_t>(i);
    }
    const CellMask free = grid_.all & ~occ;
    if (connected_ && connected(free)) return expand_region(free, occ);
    if (labels_) {  // small boards: the regions from the table
      std::array<CellMask, kRegionBits> region{};
      const std::uint64_t l = labels_[free];
      for (CellMask m = free; m; m &= m - 1) {
        const int c = std::countr_zero(m);
        region[(l >> (4 * c)) & 15] |= CellMask{1} << c;
      }
      for (int i = 0; i < kRegionBits; ++i)
        if (region[i] && (regions & (1u << i))) expand_region(region[i], occ);
      return;
    }
    CellMask rest = free;
    for (int i = 0; rest; i = std::min(i + 1, kRegionBits - 1)) {
      const CellMask region = grid_.fill(rest & (0u - rest), free);
      rest &= ~region;
      if (regions & (1u << i)) expand_region(region, occ);
    }
  }

  // Every pattern tile next to `region` slides into each of its neighbouring cells in the region.
  void expand_region(CellMask region, CellMask occ) {
    for (CellMask tiles = grid_.around(region) & occ; tiles; tiles &= tiles - 1) {
      const int from = std::countr_zero(tiles);
      const int i = tile_on_[from];
      for (CellMask to = grid_.around(CellMask{1} << from) & region; to; to &= to - 1) {
        const int c = std::countr_zero(to);
        const std::uint64_t r2 = moved_rank(i, from, c, occ);
        const CellMask free2 = grid_.all & ~(occ ^ (CellMask{1} << from) ^ (CellMask{1} << c));
        const int blank_region = connected_ && connected(free2) ? 0
                           : labels_                      ? static_cast<int>((labels_[free2] >> (4 * from)) & 15)
                                   : region_index(grid_, grid_.fill(CellMask{1} << from, free2), free2);
        push(r2, static_cast<std::uint8_t>(1u << blank_region));
      }
    }
  }

  // The rank after pattern tile i moves from `from` to the free cell `to`, from the current rank:
  // tile i's digit changes, and each later tile j standing between the two cells counts one more
  // (or one fewer) earlier tile below it, so its digit moves by one. O(cells between), no re-rank.
  std::uint64_t moved_rank(int i, int from, int to, CellMask occ) const noexcept {
    const CellMask to_bit = CellMask{1} << to;
    const int digit = to - std::popcount(before_[i] & (to_bit - 1));
    std::int64_t delta = static_cast<std::int64_t>(digit - digit_[i]) * static_cast<std::int64_t>(ranker_.weight(i));
    const int lo = std::min(from, to), hi = std::max(from, to);
    const std::int64_t sign = from < to ? 1 : -1;
    for (CellMask m = occ & ((CellMask{1} << hi) - 1) & ~((CellMask{2} << lo) - 1); m; m &= m - 1) {
      const int j = tile_on_[std::countr_zero(m)];
      if (j > i) delta += sign * static_cast<std::int64_t>(ranker_.weight(j));
    }
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(rank_) + delta);
  }

  bool connected(CellMask free) const noexcept { return (connected_[free / 64] >> (free % 64)) & 1u; }

  // Successors wait in the ring while their mark bytes are fetched.
  void push(std::uint64_t rank, std::uint8_t bit) {
    ring_.push({rank, bit}, &mark_[rank], [this](const Target& t) { settle(t); });
  }
  void flush() {
    ring_.flush([this](const Target& t) { settle(t); });
  }

  void settle(const Target& t) {
    std::uint8_t& mark = mark_[t.rank];
    const std::uint8_t old = load(mark);
    if (old & t.bit) return;
    if (old & cur_) {  // still to be expanded in this layer: add the region after the layer
      deferred_.push_back({t.rank, t.bit});
      return;
    }
    // A placement has a value exactly when its mark has a region: a mark without one is met for the
    // first time, and only then is its value written (no read of the value). Two threads meeting it
    // in the same layer write the same value.
    if constexpr (Shared) {
      std::atomic_ref<std::uint8_t>(mark).fetch_or(static_cast<std::uint8_t>(t.bit | next_), std::memory_order_relaxed);
      if (!(old & kRegionMask))
        std::atomic_ref<std::uint8_t>(values_[t.rank]).store(static_cast<std::uint8_t>(layer_ + 1), std::memory_order_relaxed);
    } else {
      mark = static_cast<std::uint8_t>(old | t.bit | next_);
      if (!(old & kRegionMask)) values_[t.rank] = static_cast<std::uint8_t>(layer_ + 1);
    }
  }

  const CellGrid& grid_;
  const std::uint64_t* connected_;  // boards of <= 25 cells: connected sets of free cells, else null
  const std::uint64_t* labels_;     // boards of <= 16 cells: region labels, else null
  const PlacementRanker& ranker_;
  std::uint64_t* mark_words_;
  std::uint8_t* mark_;  // the same memory, one mark byte per placement
  std::uint8_t* values_;
  int layer_;
  std::uint8_t cur_, next_;
  std::vector<Deferred>& deferred_;
  std::array<std::uint8_t, kMaxPdbCells> pos_{}, tile_on_{};
  std::uint64_t rank_ = 0;                        // of the placement being expanded
  std::array<CellMask, kMaxPdbCells> before_{};   // cells of the tiles before tile i
  std::array<int, kMaxPdbCells> digit_{};         // tile i's digit of rank_
  detail::PrefetchRing<Target, kRing> ring_;
};

}  // namespace

void check_pattern(const Board& board, const Pattern& pattern, Metric metric) {
  const int n = board.cells(), k = static_cast<int>(pattern.tiles.size());
  if (n > kMaxPdbCells) throw InputError("pattern databases handle boards of at most 32 cells");
  // A multi-tile pattern of N-2 tiles with the blank leaves one other tile: the whole puzzle, half
  // of whose placements cannot be reached.
  const int most = metric == Metric::multi ? n - 3 : n - 2;
  if (k < 1 || k > most)
    throw InputError(std::string("a ") + (metric == Metric::multi ? "multi-tile " : "") + "pattern on the " +
                     board.name() + " board has 1 to " + std::to_string(most) + " tiles");
  std::uint32_t seen = 0;
  for (const auto t : pattern.tiles) {
    if (t == 0 || t >= n || ((seen >> t) & 1u))
      throw InputError("pattern " + pattern.name() + " is not a set of tiles of the " + board.name() + " board");
    seen |= 1u << t;
  }
}

BuildEstimate estimate_build(const Board& board, const Pattern& pattern, int threads, Metric metric) {
  check_pattern(board, pattern, metric);
  const bool multi = metric == Metric::multi;
  const PlacementRanker ranker(board.cells(), static_cast<int>(pattern.tiles.size()) + (multi ? 1 : 0));
  BuildEstimate e;
  e.entries = ranker.size();
  e.bytes = (multi ? 1 : 2) * e.entries;
  e.disk = kHeaderSize + e.entries;
  // The rates measured on the 2-core reference machine (build.hpp).
  const int cores = std::max(1, static_cast<int>(tbb::info::default_concurrency()));
  const int t = threads > 0 ? std::min(threads, cores) : cores;
  const double per = (multi ? kNsPerPlacementMulti : board.cells() <= 16 ? kNsPerPlacementSmall : kNsPerPlacementLarge) * 1e-9;
  e.seconds = static_cast<double>(e.entries) * per / t;
  return e;
}

std::vector<std::uint64_t> count_values(std::span<const std::uint8_t> values) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, values.size(), 1u << 20), std::vector<std::uint64_t>(256, 0),
      [&](const auto& r, std::vector<std::uint64_t> h) {
        for (std::uint64_t i = r.begin(); i < r.end(); ++i) ++h[values[i]];
        return h;
      },
      [](std::vector<std::uint64_t> a, const std::vector<std::uint64_t>& b) {
        for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
        return a;
      });
}

BuiltDatabase build_pattern_database(const State& goal, const Pattern& pattern, const BuildOptions& options) {
  if (options.metric == Metric::multi) return build_multi_tile_database(goal, pattern, options);
  detail::LayerDriver driver(options.threads);  // its clock starts here: seconds include the set-up
  const Board& board = goal.board;
  check_pattern(board, pattern);
  const PlacementRanker ranker(board.cells(), static_cast<int>(pattern.tiles.size()));
  const std::uint64_t size = ranker.size();
  require_memory(2 * size, "building pattern " + pattern.name());

  BuiltDatabase db;
  // The marks live in 64-bit words so that the scan may test 8 of them at once; they are
  // addressed as bytes through `mark`. Both arrays are PageMemory (huge pages: the marks and values
  // of successors are met at random all over them).
  const std::string what = "the marks and values of pattern " + pattern.name() + " (" + byte_words(2 * size) + " in all)";
  const PageMemory marks(8 * (size / 8 + 1), what);
  db.memory = PageMemory(size, what);
  db.values = db.memory.bytes();
  auto* mark_words = marks.as<std::uint64_t>().data();
  auto* mark = marks.data();
  const CellGrid grid(board);
  const int free_cells = board.cells() - static_cast<int>(pattern.tiles.size());
  const std::vector<std::uint64_t> labels = region_labels(grid, board.cells(), free_cells);
  const std::uint64_t* lab = labels.empty() ? nullptr : labels.data();
  const std::vector<std::uint64_t> connected = connected_sets(grid, board.cells(), free_cells);
  const std::uint64_t* con = connected.empty() ? nullptr : connected.data();

  driver.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, size, 1u << 20), [&](const auto& r) {
      std::fill(mark + r.begin(), mark + r.end(), 0);  // zero already: the pages are touched on every core
      std::fill(db.values.begin() + static_cast<std::ptrdiff_t>(r.begin()),
                db.values.begin() + static_cast<std::ptrdiff_t>(r.end()), kUnset);
    });

    // The goal: every pattern tile home, the blank's region the one around the goal's blank.
    const auto home = placement_of(goal, pattern);
    CellMask occ = 0;
    for (std::size_t i = 0; i < pattern.tiles.size(); ++i) occ |= CellMask{1} << home[i];
    const CellMask free = grid.all & ~occ;
    const int region = region_index(grid, grid.fill(CellMask{1} << goal.blank, free), free);
    const std::uint64_t start = ranker.rank(home.data());
    mark[start] = static_cast<std::uint8_t>((1u << region) | expand_flag(0));
    db.values[start] = 0;

    DeferredLists deferred;
    const std::uint64_t grain = std::max<std::uint64_t>(1024, std::min<std::uint64_t>(1u << 16, size / 256 + 1));
    driver.start_layer();  // the first layer's time does not include the set-up above
    std::uint64_t total = 0;
    for (int layer = 0;; ++layer) {
      if (layer > kMaxCost) throw ResourceError("pattern " + pattern.name() + ": costs above " + std::to_string(kMaxCost));
      const LayerCount n = driver.pass<LayerCount>(
          size, grain, [&]<bool Shared>(std::uint64_t begin, std::uint64_t end, LayerCount& count) {
            count.join(Expander<Shared>(grid, con, lab, ranker, mark_words, db.values.data(), layer,
                                        deferred.local())
                           .run(begin, end));
          });
      // Regions found for placements that were still waiting: they join the next layer.
      bool any_deferred = false;
      for (auto& list : deferred) {
        for (const Deferred& d : list)
          mark[d.rank] = static_cast<std::uint8_t>(mark[d.rank] | d.bits | expand_flag(layer + 1));
        any_deferred = any_deferred || !list.empty();
        list.clear();
      }
      // Only expansions (and deferred regions) flag placements for the next layer.
      if (n.expanded == 0 && !any_deferred) break;
      total += n.found;
      // A layer that found no new value is not reported; its time counts in the next report's.
      // No space is given (0): the CLI prints no estimate of the time left for a build.
      if (n.found > 0) driver.report(options.on_layer, layer, n.found, total, 0);
    }

    db.histogram = count_values(db.values);
  });
  if (db.histogram[kUnset] != 0)
    throw std::logic_error("pattern " + pattern.name() + ": " + std::to_string(db.histogram[kUnset]) +
                           " placements were never reached");
  while (!db.histogram.empty() && db.histogram.back() == 0) db.histogram.pop_back();
  db.seconds = driver.seconds();
  return db;
}

}  // namespace tilespace::pdb
