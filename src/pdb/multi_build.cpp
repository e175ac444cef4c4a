// The multi-tile pattern-database builder (pdb/build.hpp: build_pattern_database in the multi-tile
// metric): a breadth-first search over the placements of the blank and the pattern's tiles, in
// which every move of the blank by k cells along its row or column costs 1, whichever tiles it
// slides. One byte a placement, 0xFF until reached; a pass per layer (byte_layers.hpp, on the
// layer driver of engine/layer_kernel.hpp shared with the BFS engines) expands the placements of
// the layer and writes the next layer's value on the successors not reached yet (relaxed byte
// compare-and-swap when shared, so each placement is counted once); successors wait in a
// prefetch ring.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "tilespace/engine/layer_kernel.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"
#include "tilespace/pdb/build.hpp"
#include "byte_layers.hpp"

namespace tilespace::pdb {
namespace {

constexpr std::uint8_t kMultiUnset = 0xFF;
constexpr int kMultiMaxCost = 254;
constexpr std::uint8_t kNoItem = 0xFF;  // a cell without a pattern tile or the blank

// Expands the placements of one block of ranks whose value is `layer`; run() returns how many it
// found (set to layer + 1).
template <bool Shared>
class MultiExpander {
 public:
  MultiExpander(const Board& board, const PlacementRanker& ranker, std::uint8_t* values, int layer)
      : board_(board), ranker_(ranker), values_(values), layer_(layer), next_(static_cast<std::uint8_t>(layer + 1)) {}

  std::uint64_t run(std::uint64_t begin, std::uint64_t end) {
    found_ = 0;
    const std::uint64_t layer8 = 0x0101010101010101ull * static_cast<std::uint8_t>(layer_);
    for (std::uint64_t r = begin; r < end; ++r) {
      if ((r & 7) == 0 && r + 8 <= end) {  // skip 8 values at a time when none is this layer's
        std::uint64_t w;
        std::memcpy(&w, values_ + r, 8);
        const std::uint64_t x = w ^ layer8;  // a zero byte where the value is the layer's
        if (!((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull)) {
          r += 7;
          continue;
        }
      }
      if (load(values_[r]) != layer_) continue;
      expand(r);
    }
    ring_.flush([this](std::uint64_t t) { settle(t); });
    return found_;
  }

 private:
  static std::uint8_t load(std::uint8_t& b) {
    if constexpr (Shared) return std::atomic_ref<std::uint8_t>(b).load(std::memory_order_relaxed);
    else return b;
  }

  void expand(std::uint64_t r) {
    const int items = ranker_.tiles();
    std::array<std::uint8_t, kMaxPdbCells> pos{}, cur{};
    ranker_.unrank(r, pos.data());
    std::array<std::uint8_t, kMaxPdbCells> on{};
    on.fill(kNoItem);
    for (int i = 0; i < items; ++i) on[pos[i]] = static_cast<std::uint8_t>(i);
    const int w = board_.width(), h = board_.height(), b = pos[0];
    const int row = b / w, col = b % w;
    // The four directions: the step and how many cells the blank may travel.
    const std::array<std::pair<int, int>, 4> dirs{{{-w, row}, {w, h - 1 - row}, {-1, col}, {1, w - 1 - col}}};
    for (const auto& [step, reach] : dirs) {
      std::copy(pos.begin(), pos.begin() + items, cur.begin());
      int c = b;
      for (int k = 0; k < reach; ++k) {
        const int nc = c + step;
        if (const std::uint8_t i = on[nc]; i != kNoItem) cur[i] = static_cast<std::uint8_t>(c);
        cur[0] = static_cast<std::uint8_t>(nc);
        c = nc;
        const std::uint64_t t = ranker_.rank(cur.data());
        ring_.push(t, &values_[t], [this](std::uint64_t x) { settle(x); });
      }
    }
  }

  void settle(std::uint64_t t) { found_ += detail::claim<Shared>(values_[t], kMultiUnset, next_); }

  const Board& board_;
  const PlacementRanker& ranker_;
  std::uint8_t* values_;
  int layer_;
  std::uint8_t next_;
  std::uint64_t found_ = 0;
  detail::PrefetchRing<std::uint64_t, 32> ring_;
};

}  // namespace

BuiltDatabase build_multi_tile_database(const State& goal, const Pattern& pattern, const BuildOptions& options) {
  detail::LayerDriver driver(options.threads);
  const Board& board = goal.board;
  check_pattern(board, pattern, Metric::multi);
  const PlacementRanker ranker(board.cells(), static_cast<int>(pattern.tiles.size()) + 1);
  const std::uint64_t size = ranker.size();
  require_memory(size, "building multi-tile pattern " + pattern.name());

  BuiltDatabase db;
  db.memory = PageMemory(size, "the values of multi-tile pattern " + pattern.name() + " (" + byte_words(size) + ")");
  db.values = db.memory.bytes().first(size);
  const auto home = placement_of(goal, pattern);
  std::array<std::uint8_t, kMaxPdbCells> start{};
  start[0] = static_cast<std::uint8_t>(goal.blank);
  std::copy(home.begin(), home.begin() + static_cast<std::ptrdiff_t>(pattern.tiles.size()), start.begin() + 1);
  db.histogram = detail::byte_layers(
      driver, options, db.values, kMultiUnset, ranker.rank(start.data()), kMultiMaxCost, "multi-tile pattern " + pattern.name(),
      [&]<bool Shared>(int layer, std::uint64_t begin, std::uint64_t end) {
        return MultiExpander<Shared>(board, ranker, db.values.data(), layer).run(begin, end);
      });
  db.seconds = driver.seconds();
  return db;
}

}  // namespace tilespace::pdb
