// The byte engine (bfs.hpp): Expander, one layer's expansion over a block of groups, and the
// layer loop around it. The loop is detail::LayerDriver's (engine/layer_kernel.hpp), shared with the two-bit
// engine and the pattern-database builder: one oneTBB arena for the whole search, one pass a layer
// (a parallel_reduce over blocks of groups, or of bitmap words on small boards; with one thread a
// direct call of the unshared instantiation), and the per-layer report with the layer's time and
// the size of the space, from which the CLI estimates the time left. The search picks its
// Expander once: Small (boards of at most 10 cells: code table and mark bitmaps) and Ring (off only
// with one thread on boards whose words fit in cache, where targets are updated at once).
#include "tilespace/bfs.hpp"

#include <tbb/blocked_range.h>
#include <tbb/cache_aligned_allocator.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "tilespace/errors.hpp"
#include "tilespace/engine/layer_kernel.hpp"

namespace tilespace {
namespace {

using detail::Geometry;
using detail::GroupCursor;
using detail::NibbleCode;
using detail::with_width;

constexpr int kVisited = 0;           // bit offset of the visited lane
constexpr std::uint64_t kLane = 0xFFFF;
constexpr int kMaxDepth = 254;        // depths are bytes; 255 means "not reached"
// Boards with at most this many groups (3x3, 2x5: 4 MiB of words at most) skip the prefetch ring.
constexpr std::uint64_t kCachedGroups = std::uint64_t{1} << 19;

int current_lane(int depth) { return 16 + 16 * (depth & 1); }
int next_lane(int depth) { return 16 + 16 * ((depth + 1) & 1); }


// The search's working memory.
struct Space {
  std::uint64_t* words;  // one per group (see bfs.hpp)
  // Small boards only (unused otherwise): marks[i], one bit per group, is set when the group has
  // frontier bits in the lane of layers of parity i; codes, every group's pack()ed code.
  std::uint64_t* marks[2];
  const std::uint64_t* codes;
  std::uint8_t* depth;
  const detail::VerticalTables* vertical;  // the O(1) vertical deltas' tables (cursor boards)
};

// Small boards' code table: variant 0 of every group in one word, the entries in nibbles 0..n-1,
// then the Lehmer digits of positions 0..n-3 (those of n-2 and n-1 are 0 in variant 0): 8n-8
// bits, so n <= 9.
std::uint64_t pack(const GroupCursor& cursor, int n) {
  std::uint64_t code = 0;
  for (int i = 0; i < n; ++i) code |= std::uint64_t{cursor.seq(0)[i]} << (4 * i);
  for (int i = 0; i < n - 2; ++i) code |= std::uint64_t{cursor.digits(0)[i]} << (4 * (n + i));
  return code;
}

// The two variants of a group (lexranks 2g and 2g+1), as the expander sees them: code(v) and the
// parity of variant 0.
struct TableGroup {
  NibbleCode v0, v1;
  template <int W>
  const NibbleCode& code(unsigned v) const {
    return v ? v1 : v0;
  }
  unsigned parity0() const { return static_cast<unsigned>(std::popcount(v0.d & 0x1111'1111'1111'1111u)) & 1u; }
};
struct CursorGroup {
  const GroupCursor& cursor;
  const detail::VerticalTables& vertical;
  // The O(1) deltas from width kPrefixDeltaWidth on, the loops below it (layer_kernel.hpp).
  template <int W>
  auto code(unsigned v) const {
    if constexpr (W >= detail::kPrefixDeltaWidth) {
      return detail::PrefixCode::of(cursor, v, vertical);
    } else {
      return detail::ByteCode{cursor.seq(v), cursor.digits(v)};
    }
  }
  unsigned parity0() const { return cursor.parity0(); }
};

// Where the expander gets a group's variants: unpacked from the table (small boards, returned by
// value so that they stay in registers), or decoded by a cursor (larger boards, groups visited in
// increasing order).
class TableCodes {
 public:
  TableCodes(const Space& space, int n, bool) : table_(space.codes), n_(n) {}

  TableGroup group(std::uint64_t g) const {
    const std::uint64_t code = table_[g];
    const NibbleCode v0{code & ((std::uint64_t{1} << (4 * n_)) - 1u), code >> (4 * n_)};
    // Variant 1: the last two entries swapped, Lehmer digit n-2 set to 1.
    const int a = 4 * (n_ - 2);
    const std::uint64_t x = ((v0.s >> a) ^ (v0.s >> (a + 4))) & 15u;
    return {v0, {v0.s ^ (x << a) ^ (x << (a + 4)), v0.d | (std::uint64_t{1} << a)}};
  }

 private:
  const std::uint64_t* table_;
  int n_;
};

class CursorCodes {
 public:
  // prefixes: the board's width takes the O(1) deltas (CursorGroup::code).
  CursorCodes(const Space& space, int n, bool prefixes) : cursor_(n, prefixes), vertical_(*space.vertical) {}

  CursorGroup group(std::uint64_t g) {
    cursor_.go_to(g);
    return {cursor_, vertical_};
  }

 private:
  GroupCursor cursor_;
  const detail::VerticalTables& vertical_;
};



// Expands the frontier of one layer over a range of the groups. W is the board width, fixed at
// compile time so the Lehmer-delta loops unroll. Small: the groups come from the marks and their
// codes from the table; otherwise every word of the range is scanned and a cursor decodes the
// groups. Shared: several threads, so words and marks of the next layer are updated with relaxed
// atomics; with one thread plain loads and stores. Ring: targets go through the prefetch ring
// (words not in cache); otherwise they are updated at once.
template <int W, bool Small, bool Shared, bool Ring, bool Multi>
class Expander {
 public:
  // Small: expands the groups marked in mark words [begin, end) and clears those marks; else the
  // groups [begin, end) with frontier bits. Returns the number of states expanded.
  static std::uint64_t run(const Geometry& g, const Space& space, int layer, std::uint64_t begin, std::uint64_t end) {
    // A local object, with its own copy of the geometry, so that the compiler may keep fields in
    // registers: the depth stores are bytes, which may alias anything it cannot see is private.
    Expander ex(g, space, layer);
    for (std::uint64_t i = begin; i < end; ++i) {
      if constexpr (Small) {
        std::uint64_t m = ex.marks_[i];
        if (!m) continue;
        ex.marks_[i] = 0;
        for (; m; m &= m - 1) ex.expand(64 * i + static_cast<std::uint64_t>(std::countr_zero(m)));
      } else {
        ex.expand(i);
      }
    }
    ex.flush();
    return ex.expanded_;
  }

 private:
  static constexpr int kRing = 32;  // prefetch distance
  struct Target {
    std::uint64_t group;
    std::uint32_t bit;
  };
  using Codes = std::conditional_t<Small, TableCodes, CursorCodes>;

  Expander(const Geometry& g, const Space& space, int layer)
      : G_(g), words_(space.words), marks_(space.marks[layer & 1]), next_marks_(space.marks[(layer + 1) & 1]),
        depth_(space.depth), layer_(layer), cur_(current_lane(layer)), next_(next_lane(layer)),
        codes_(space, g.n, W >= detail::kPrefixDeltaWidth) {}

  void expand(std::uint64_t g) {
    const std::uint64_t w = std::atomic_ref<std::uint64_t>(words_[g]).load(std::memory_order_relaxed);
    const auto f = static_cast<std::uint32_t>((w >> cur_) & kLane);
    if (!Small && !f) return;  // a marked group always has frontier bits
    expanded_ += static_cast<std::uint64_t>(std::popcount(f));
    if constexpr (Shared) {
      std::atomic_ref<std::uint64_t>(words_[g]).fetch_and(~(kLane << cur_), std::memory_order_relaxed);
    } else {
      words_[g] &= ~(kLane << cur_);
    }

    const std::uint64_t base = g * static_cast<std::uint64_t>(G_.cells);
    for (std::uint32_t m = f; m; m &= m - 1) depth_[base + std::countr_zero(m)] = static_cast<std::uint8_t>(layer_);

    // Horizontal moves keep the sequence: shift the lane (multi-tile: by every k the row allows).
    // Only states not visited before this layer: `w` was read during this layer, so it already
    // shows every earlier layer's states. A state found twice in this layer (by two threads) just
    // gets its bits set twice; layers are counted when they are scanned, not when found.
    std::uint32_t across = ((f & G_.can_right) << 1) | ((f & G_.can_left) >> 1);
    if constexpr (Multi)
      for (int k = 2; k < W; ++k) across |= ((f & G_.right_by[k]) << k) | ((f & G_.left_by[k]) >> k);
    const std::uint32_t h = across & ~static_cast<std::uint32_t>(w >> kVisited);
    if (h) {
      const std::uint64_t bits = (std::uint64_t{h} << kVisited) | (std::uint64_t{h} << next_);
      if constexpr (Shared) {
        std::atomic_ref<std::uint64_t>(words_[g]).fetch_or(bits, std::memory_order_relaxed);
      } else {
        words_[g] |= bits;
      }
      mark(g);
    }

    // Vertical moves: new rank by the Lehmer delta. Blank cells in `odd` hold variant 1.
    const auto variants = codes_.group(g);
    const std::uint32_t odd = G_.odd_parity_cells ^ (variants.parity0() ? ~0u : 0u);
    const std::uint64_t lex0 = 2 * g;
    for (std::uint32_t m = f; m; m &= m - 1) {
      const int b = std::countr_zero(m);
      const unsigned v = (odd >> b) & 1u;
      const auto& c = variants.template code<W>(v);
      const auto lex = static_cast<std::int64_t>(lex0 + v);
      detail::vertical_moves<W, Multi>(G_, c, b, [&](int to, std::int64_t delta) {
        push(static_cast<std::uint64_t>(lex + delta) >> 1, 1u << to);
      });
    }
  }

  // Small boards: marks group g for the next layer.
  void mark(std::uint64_t g) {
    if constexpr (!Small) return;
    const std::uint64_t bit = std::uint64_t{1} << (g & 63);
    if constexpr (Shared) {
      std::atomic_ref<std::uint64_t> m(next_marks_[g >> 6]);
      if (!(m.load(std::memory_order_relaxed) & bit)) m.fetch_or(bit, std::memory_order_relaxed);
    } else {
      next_marks_[g >> 6] |= bit;
    }
  }

  // Vertical targets go through the prefetch ring (words not in cache) or are settled at once.
  void push(std::uint64_t group, std::uint32_t bit) {
    if constexpr (!Ring) return settle({group, bit});
    ring_.push({group, bit}, &words_[group], [this](const Target& t) { settle(t); });
  }
  void flush() {
    if constexpr (Ring) ring_.flush([this](const Target& t) { settle(t); });
  }

  void settle(const Target& t) {
    if constexpr (!Shared) {  // branch-free: an already visited target gets no new bits
      std::uint64_t& plain = words_[t.group];
      const std::uint64_t w = plain, fresh = t.bit & ~(w >> kVisited);
      plain = w | (fresh << kVisited) | (fresh << next_);
      if constexpr (Small) next_marks_[t.group >> 6] |= std::uint64_t{fresh != 0} << (t.group & 63);
      return;
    }
    std::atomic_ref<std::uint64_t> word(words_[t.group]);
    if (word.load(std::memory_order_relaxed) & (std::uint64_t{t.bit} << kVisited)) return;
    // The old value is not needed, so this is a plain `lock or`, not a compare-and-swap loop.
    word.fetch_or((std::uint64_t{t.bit} << kVisited) | (std::uint64_t{t.bit} << next_), std::memory_order_relaxed);
    mark(t.group);
  }

  const Geometry G_;
  std::uint64_t* words_;
  std::uint64_t* marks_;       // this layer's
  std::uint64_t* next_marks_;  // the next layer's
  std::uint8_t* depth_;
  int layer_, cur_, next_;
  Codes codes_;
  detail::PrefetchRing<Target, kRing> ring_;
  std::uint64_t expanded_ = 0;
};

// The working arrays. TBB's allocator keeps freed large blocks for reuse, so a repeated search
// does not fault in fresh pages every time.
using Words = std::vector<std::uint64_t, tbb::cache_aligned_allocator<std::uint64_t>>;

// Small boards, at most 10 cells (n <= 9 entries): every group is decoded once, into a table of one
// word a group, and the frontier's groups are marked in bitmaps instead of found by a scan.
bool is_small(int n) { return n <= 9; }

std::uint64_t mark_words(std::uint64_t groups) { return (groups + 63) / 64; }

// What a block of a pass returns: the states it expanded (of the layer being expanded).
struct ExpandTally {
  std::uint64_t expanded = 0;
  void join(const ExpandTally& o) { expanded += o.expanded; }
};

}  // namespace

void require_single_tile(const BfsOptions& options, const char* what) {
  if (options.metric != Metric::single)
    throw InputError(std::string(what) + " counts single-tile moves only, not the " +
                     std::string(metric_name(options.metric)) + "-tile metric");
}

std::uint64_t bfs_work_bytes(const Ranker& ranker) {
  const std::uint64_t groups = ranker.groups();
  const std::uint64_t small = is_small(ranker.seq_len()) ? groups + 2 * mark_words(groups) : 0;  // codes, marks
  return (groups + small) * sizeof(std::uint64_t);
}

BfsResult bfs_distances(const Ranker& ranker, std::span<std::uint8_t> depth, const BfsOptions& options) {
  detail::LayerDriver driver(options.threads);  // its clock starts here: seconds include the set-up
  const Geometry G(ranker);
  const std::uint64_t groups = ranker.groups();
  const bool small = is_small(G.n);
  const bool multi = options.metric == Metric::multi;
  Words words, marks[2], codes;
  try {
    words.assign(groups, 0);
    if (small) {
      for (Words& m : marks) m.assign(mark_words(groups), 0);
      codes.resize(groups);
    }
  } catch (const std::bad_alloc&) {
    throw ResourceError("cannot allocate " + std::to_string(bfs_work_bytes(ranker) >> 20) + " MiB for the search");
  }
  const detail::VerticalTables vertical(G);
  const Space space{words.data(), {marks[0].data(), marks[1].data()}, codes.data(), depth.data(), &vertical};

  BfsResult result;
  driver.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, depth.size(), 1u << 20),
                      [&](const auto& r) { std::fill(depth.begin() + r.begin(), depth.begin() + r.end(), 0xFF); });
    if (small) {
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, groups, 1u << 14), [&](const auto& r) {
        GroupCursor cursor(G.n);
        for (std::uint64_t g = r.begin(); g < r.end(); ++g) {
          cursor.go_to(g);
          codes[g] = pack(cursor, G.n);
        }
      });
    }

    // The goal: identity sequence (group 0, variant 0 is lexrank 0), blank on its cell.
    Sequence id{};
    for (int i = 0; i < G.n; ++i) id[i] = static_cast<std::uint8_t>(i);
    const std::uint64_t goal = ranker.rank(id, ranker.goal_blank()), goal_group = goal / G.cells;
    const std::uint64_t gbit = std::uint64_t{1} << (goal % G.cells);
    words[goal_group] = (gbit << kVisited) | (gbit << current_lane(0));
    if (small) marks[0][goal_group >> 6] = std::uint64_t{1} << (goal_group & 63);

    // A pass runs over the mark words (small boards) or the words: both are split into blocks.
    const std::uint64_t items = small ? mark_words(groups) : groups;
    const std::uint64_t grain =
        std::max<std::uint64_t>(small ? 1 : 64, std::min<std::uint64_t>(1u << 14, items / 64 + 1));
    const bool ring = !(groups <= kCachedGroups && driver.threads() == 1);
    driver.start_layer();  // the first layer's time does not include the set-up above
    // Each pass expands layer `layer` (writing its depths) and marks layer + 1; it returns the
    // size of the layer it expanded, so an empty pass ends the search.
    std::uint64_t total = 0;
    for (int layer = 0;; ++layer) {
      if (layer > kMaxDepth) throw ResourceError("search deeper than " + std::to_string(kMaxDepth) + " moves");
      const ExpandTally tally = driver.pass<ExpandTally>(
          items, grain, [&]<bool Shared>(std::uint64_t begin, std::uint64_t end, ExpandTally& t) {
            t.expanded += with_width(G.w, [&](auto w) {
              auto go = [&]<bool Small, bool Ring>() {
                if (multi) return Expander<decltype(w)::value, Small, Shared, Ring, true>::run(G, space, layer, begin, end);
                return Expander<decltype(w)::value, Small, Shared, Ring, false>::run(G, space, layer, begin, end);
              };
              if (small) return ring ? go.template operator()<true, true>() : go.template operator()<true, false>();
              return ring ? go.template operator()<false, true>() : go.template operator()<false, false>();
            });
          });
      const std::uint64_t size = tally.expanded;
      if (size == 0) break;
      total += size;
      result.histogram.push_back(size);
      driver.report(options.on_layer, layer, size, total, ranker.size());
    }
  });
  result.seconds = driver.seconds();
  return result;
}

}  // namespace tilespace
