// The engines' shared parts (include/tilespace/engine/: used by the library and tilespace-mpi,
// not installed, not an API): the two-bit engine's layer expansion (field layout in bfs.hpp), shared
// by the threaded engine (bfs2.cpp) and the MPI engine (tools/mpi/). A process holds the fields of
// some global words, at places its Layout gives (threaded: all of them, in place); targets outside
// go to a Remote sink.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tilespace/engine/layer_kernel.hpp"
#include "tilespace/bfs.hpp"
#include "tilespace/errors.hpp"

namespace tilespace::detail {

// The deepest layer a two-bit search expands: a database header lists at most 480 layer sizes.
inline constexpr int kMaxTwoBitDepth = 479;

inline constexpr std::uint64_t kLowBits = 0x5555'5555'5555'5555u;  // the low bit of every field
// Blocks of 512 words (4 KiB of fields, 16384 ranks): a layer visits only the blocks marked as
// holding open fields of its parity, so sparse layers (the first and last dozens) cost almost
// nothing and untouched pages are never read.
inline constexpr int kBlockLog2 = 9;
inline constexpr std::uint64_t kBlockWords = std::uint64_t{1} << kBlockLog2;
inline std::uint64_t block_count(std::uint64_t words) { return (words + kBlockWords - 1) >> kBlockLog2; }
inline std::uint64_t mark_word_count(std::uint64_t words) { return (block_count(words) + 63) / 64; }

// Low bit of every field equal to 11 (open) / 00 (unseen).
inline std::uint64_t open_fields(std::uint64_t x) noexcept { return x & (x >> 1) & kLowBits; }
inline std::uint64_t unseen_fields(std::uint64_t x) noexcept { return ~(x | (x >> 1)) & kLowBits; }

// The multi-tile metric's fields (bfs.hpp): depth mod 3 plus one (01, 10, 11; 00 unseen), and
// one "open" bit a state, set while it is in the layer being expanded or found for the next one.
inline unsigned multi_value(int layer) noexcept { return static_cast<unsigned>(layer % 3) + 1u; }
// Low bit of every field equal to v (1, 2 or 3).
inline std::uint64_t fields_equal(std::uint64_t x, unsigned v) noexcept {
  const std::uint64_t lo = v & 1u ? x : ~x, hi = v & 2u ? x >> 1 : ~(x >> 1);
  return lo & hi & kLowBits;
}
// The field bits of value v (1, 2 or 3) at the low bits `f`.
inline std::uint64_t fields_of(std::uint64_t f, unsigned v) noexcept { return (v & 1u ? f : 0) | (v & 2u ? f << 1 : 0); }
// The open bitmap (bfs.hpp) of the multi-tile metric: bit r % 64 of word r / 64, so field word i
// has its 32 bits in half i % 2 of bitmap word i / 2. spread(): bit k to bit 2k (a field's low
// bit); gather() the reverse.
inline std::uint64_t spread_bits(std::uint64_t x) noexcept {
  x &= 0xFFFF'FFFFu;
  x = (x | (x << 16)) & 0x0000'FFFF'0000'FFFFu;
  x = (x | (x << 8)) & 0x00FF'00FF'00FF'00FFu;
  x = (x | (x << 4)) & 0x0F0F'0F0F'0F0F'0F0Fu;
  x = (x | (x << 2)) & 0x3333'3333'3333'3333u;
  return (x | (x << 1)) & kLowBits;
}
inline std::uint64_t gather_bits(std::uint64_t x) noexcept {
  x &= kLowBits;
  x = (x | (x >> 1)) & 0x3333'3333'3333'3333u;
  x = (x | (x >> 2)) & 0x0F0F'0F0F'0F0F'0F0Fu;
  x = (x | (x >> 4)) & 0x00FF'00FF'00FF'00FFu;
  x = (x | (x >> 8)) & 0x0000'FFFF'0000'FFFFu;
  return (x | (x >> 16)) & 0xFFFF'FFFFu;
}
// The open bits of field word i (low 32 bits) from its bitmap word, open[i / 2].
inline std::uint64_t open_half(std::uint64_t bitmap_word, std::uint64_t i) noexcept {
  return (bitmap_word >> (32 * (i & 1))) & 0xFFFF'FFFFu;
}
// Words of the open bitmap for `words` field words.
inline std::uint64_t open_word_count(std::uint64_t words) noexcept { return (words + 1) / 2; }

// Per word, what depends on the blank cell of its first rank (o = 32 * word mod N): which fields
// have an odd-parity blank, which can move left / right (by k cells: left_by[k], right_by[k], the
// multi-tile metric's), the blank and the group offset of field k.
struct TwoBitGeometry {
  Geometry G;
  VerticalTables V;  // the O(1) vertical deltas' tables
  int n_cells;
  std::uint64_t size;   // ranks
  std::uint64_t words;  // ceil(size / 32)
  std::array<std::uint64_t, kMaxCells> odd{}, can_left{}, can_right{};
  std::array<std::array<std::uint64_t, kMaxCells>, 8> left_by{}, right_by{};
  std::array<std::array<std::uint8_t, 32>, kMaxCells> blank{}, group_add{};
  std::array<std::uint8_t, kMaxCells> next_o{}, group_step{};
  std::uint64_t goal_rank = 0;

  explicit TwoBitGeometry(const Ranker& r)
      : G(r), V(G), n_cells(r.cells()), size(r.size()), words((r.size() + 31) / 32) {
    const int N = n_cells, w = r.board().width();
    for (int o = 0; o < N; ++o) {
      for (int k = 0; k < 32; ++k) {
        const int b = (o + k) % N;
        blank[o][k] = static_cast<std::uint8_t>(b);
        group_add[o][k] = static_cast<std::uint8_t>((o + k) / N);
        const std::uint64_t bit = std::uint64_t{1} << (2 * k);
        if (blank_parity(r, b)) odd[o] |= bit;
        if (b % w != 0) can_left[o] |= bit;
        if (b % w != w - 1) can_right[o] |= bit;
        for (int by = 1; by < w; ++by) {
          if (b % w - by >= 0) left_by[by][o] |= bit;
          if (b % w + by <= w - 1) right_by[by][o] |= bit;
        }
      }
      next_o[o] = static_cast<std::uint8_t>((o + 32) % N);
      group_step[o] = static_cast<std::uint8_t>((o + 32) / N);
    }
    Sequence id{};
    for (int i = 0; i < r.seq_len(); ++i) id[i] = static_cast<std::uint8_t>(i);
    goal_rank = r.rank(id, r.goal_blank());
  }
};

// Marks (marks[parity]: one bit a block of local words) the blocks of `words` local words, the
// first of them global word `lo`, that hold open fields of each parity: for a search continued from
// a checkpoint. Sequential; bitmaps of mark_word_count(words) words, cleared by the caller.
inline void mark_open_blocks(const TwoBitGeometry& T, const std::uint64_t* local, std::uint64_t lo, std::uint64_t words,
                             std::uint64_t* marks0, std::uint64_t* marks1) {
  for (std::uint64_t i = 0; i < words; ++i) {
    const std::uint64_t open = open_fields(local[i]);
    if (!open) continue;
    const auto o = static_cast<int>((32 * (lo + i)) % static_cast<std::uint64_t>(T.n_cells));
    const std::uint64_t block = i >> kBlockLog2, bit = std::uint64_t{1} << (block & 63);
    if (open & T.odd[o]) marks1[block >> 6] |= bit;
    if (open & ~T.odd[o]) marks0[block >> 6] |= bit;
  }
}

// What one block of a layer found.
struct TwoBitTally {
  std::uint64_t expanded = 0;        // open fields of the layer's parity, now settled
  std::uint64_t found = 0;           // unseen fields opened for the next layer
  std::uint64_t vertical = 0;        // vertical targets generated (this process's)
  std::vector<std::uint64_t> ranks;  // the expanded ranks, when collecting (small layers)
  void join(TwoBitTally& o) {
    expanded += o.expanded;
    found += o.found;
    vertical += o.vertical;
    ranks.insert(ranks.end(), o.ranks.begin(), o.ranks.end());
  }
};

// Targets that all belong to this process (the threaded engine).
struct NoRemote {
  void operator()(std::uint64_t) const noexcept {}
};

// Which global words a process holds and where: words [lo, hi) at local_[w - lo] (the threaded
// engine: [0, words)). A Layout has mine(w) and local(w), the index of global word w in `local`;
// tilespace-mpi's (checkpoint.hpp's CheckpointSlice) deals small units of words round-robin.
struct ContiguousWords {
  std::uint64_t lo, hi;
  bool mine(std::uint64_t w) const noexcept { return w >= lo && w < hi; }
  std::uint64_t local(std::uint64_t w) const noexcept { return w - lo; }
};

// Expands layer `layer` over the global words [begin, end), which this process holds one after
// another (one unit of the layout). `local` points at its fields, placed as `layout` says. W: the
// board width, fixed at compile time. Shared: several threads update the fields (relaxed atomics);
// else plain loads and stores. Remote: called with every target rank whose word is not mine.
// Multi: the multi-tile metric, with its fields and open bitmap (multi_value, set_open; the
// threaded engine only).
template <int W, bool Shared, class Remote, class Layout = ContiguousWords, bool Multi = false>
class TwoBitExpander {
 public:
  TwoBitExpander(const TwoBitGeometry& T, std::uint64_t* local, const Layout& layout, int layer, bool collect,
                 Remote& remote)
      : T_(T), G_(T.G), local_(local), layout_(layout), layer_(layer), collect_(collect), remote_(remote),
        cursor_(T.G.n, W >= kPrefixDeltaWidth) {}

  // Marks the blocks (of the local words) that get fields opened, for the next layer; none if unset.
  void set_marks(std::uint64_t* next_marks) noexcept { next_marks_ = next_marks; }
  // Multi: the open bitmap (open_word_count of the local words; bfs.hpp).
  void set_open(std::uint64_t* open) noexcept { open_ = open; }
  // The back bits (single-tile, boards of two rows; laid out as the open bitmap): every state has
  // one vertical move, and a state's bit is set when a vertical move of the layer before reaches it,
  // so that its own leads back to that layer and is not computed when it is expanded. Each vertical
  // edge is then computed once, from its shallower end.
  void set_back(std::uint64_t* back) noexcept {
    if constexpr (!Multi) back_ = back;
  }

  // Targets still in flight (prefetched) are settled before it returns, unless `more` runs follow
  // (as the units of a block in tilespace-mpi): then by a later run or flush().
  void run(std::uint64_t begin, std::uint64_t end, TwoBitTally& tally, bool more = false) {
    const int N = T_.n_cells;
    int o = static_cast<int>((32 * begin) % static_cast<std::uint64_t>(N));
    std::uint64_t g0 = 32 * begin / static_cast<std::uint64_t>(N);
    const bool odd_layer = layer_ & 1;
    // Settled value of this layer: 01 when floor(d/2) is even (clear the high bit), else 10.
    const bool high = (layer_ >> 1) & 1;
    const std::uint64_t to_local = layout_.local(begin) - begin;  // global word i is local word i + to_local
    for (std::uint64_t i = begin; i < end; ++i, g0 += T_.group_step[o], o = T_.next_o[o]) {
      std::uint64_t& word = local_[i + to_local];
      std::uint64_t x, f;
      if constexpr (Multi) {
        // The open states of this layer's value (those of the next layer's are open too); the
        // field keeps its value, the open bit is cleared.
        const std::uint64_t li = i + to_local;
        const std::uint64_t open = open_half(load(open_[li >> 1]), li);
        if (!open) continue;
        x = load(word);
        f = fields_equal(x, multi_value(layer_)) & spread_bits(open);
        if (!f) continue;
        and_word(open_[li >> 1], ~(gather_bits(f) << (32 * (li & 1))));
      } else {
        x = load(word);
        const std::uint64_t open = open_fields(x);
        if (!open) continue;
        f = open & (odd_layer ? T_.odd[o] : ~T_.odd[o]);
        if (!f) continue;
        and_word(word, ~(high ? f : f << 1));
      }
      tally.expanded += static_cast<std::uint64_t>(std::popcount(f));

      // Horizontal moves keep the group: the neighbouring fields (multi-tile: k fields away, for
      // every k the row allows), across words at the ends.
      if constexpr (Multi) {
        std::uint64_t h = 0;
        for (int by = 1; by < W; ++by) {
          const std::uint64_t left = f & T_.left_by[by][o], right = f & T_.right_by[by][o];
          h |= (left >> (2 * by)) | (right << (2 * by));
          // Fields shifted out of the word: the first `by` to the left, the last `by` to the right.
          for (std::uint64_t m = left & ((std::uint64_t{1} << (2 * by)) - 1u); m; m &= m - 1)
            target(32 * i + static_cast<std::uint64_t>(std::countr_zero(m) >> 1) - static_cast<std::uint64_t>(by), tally);
          for (std::uint64_t m = right >> (64 - 2 * by); m; m &= m - 1)
            target(32 * i + 32 + static_cast<std::uint64_t>(std::countr_zero(m) >> 1), tally);
        }
        h &= unseen_fields(x);
        if (h) open_in(i + to_local, h, tally);
      } else {
        const std::uint64_t left = f & T_.can_left[o], right = f & T_.can_right[o];
        const std::uint64_t h = ((left >> 2) | (right << 2)) & unseen_fields(x);
        if (h) open_in(i + to_local, h, tally);
        if (left & 1u) target(32 * i - 1, tally);
        if (right >> 62) target(32 * i + 32, tally);
      }

      // Vertical moves: the group's permutation (cursor) and the Lehmer delta; not those that
      // lead back (back bits), unless the layer's ranks are collected here.
      std::uint64_t vertical = f;
      if constexpr (!Multi)
        if (back_ && !collect_) {
          const std::uint64_t li = i + to_local;
          vertical &= ~spread_bits(open_half(load(back_[li >> 1]), li));
        }
      for (std::uint64_t m = vertical; m; m &= m - 1) {
        const int k = std::countr_zero(m) >> 1;
        const int b = T_.blank[o][k];
        const std::uint64_t g = g0 + T_.group_add[o][k];
        if (g != cursor_g_) {
          cursor_.go_to(g);
          cursor_g_ = g;
          odd_ = G_.odd_parity_cells ^ (cursor_.parity0() ? ~0u : 0u);
        }
        if (collect_) tally.ranks.push_back(32 * i + static_cast<std::uint64_t>(k));
        const unsigned v = (odd_ >> b) & 1u;
        const auto lex = static_cast<std::int64_t>(2 * g + v);
        const auto moves = [&](const auto& c) {
          vertical_moves<W, Multi>(G_, c, b, [&](int to, std::int64_t delta) {
            push((static_cast<std::uint64_t>(lex + delta) >> 1) * N + static_cast<std::uint64_t>(to), tally);
          });
        };
        if constexpr (W >= kPrefixDeltaWidth) {
          moves(PrefixCode::of(cursor_, v, T_.V));
        } else {
          moves(ByteCode{cursor_.seq(v), cursor_.digits(v)});
        }
      }
    }
    if (!more) flush(tally);
  }
  void flush(TwoBitTally& tally) {
    ring_.flush([&](std::uint64_t t) { settle_pushed(t, tally); });
  }

  // Opens rank t if unseen (a target this process owns, e.g. received from another one).
  void settle(std::uint64_t t, TwoBitTally& tally) {
    const std::uint64_t i = layout_.local(t >> 5);
    const std::uint64_t bit = std::uint64_t{1} << (2 * (t & 31));
    if (unseen_fields(load(local_[i])) & bit) open_in(i, bit, tally);
  }

 private:
  static std::uint64_t load(std::uint64_t& w) {
    if constexpr (Shared) return std::atomic_ref<std::uint64_t>(w).load(std::memory_order_relaxed);
    return w;
  }
  static void and_word(std::uint64_t& w, std::uint64_t mask) {
    if constexpr (Shared) {
      std::atomic_ref<std::uint64_t>(w).fetch_and(mask, std::memory_order_relaxed);
    } else {
      w &= mask;
    }
  }
  static void or_word(std::uint64_t& w, std::uint64_t bits) {
    if constexpr (Shared) {
      std::atomic_ref<std::uint64_t>(w).fetch_or(bits, std::memory_order_relaxed);
    } else {
      w |= bits;
    }
  }
  // Opens the fields `h` (low bits; unseen when read) of local word i, counting those this call
  // opened, and marks the word's block. Open is 11, or in the multi-tile metric the next layer's
  // value.
  void open_in(std::uint64_t i, std::uint64_t h, TwoBitTally& tally) {
    std::uint64_t& w = local_[i];
    if (next_marks_) {
      const std::uint64_t block = i >> kBlockLog2, bit = std::uint64_t{1} << (block & 63);
      std::uint64_t& m = next_marks_[block >> 6];
      if (!(load(m) & bit)) {
        if constexpr (Shared) {
          std::atomic_ref<std::uint64_t>(m).fetch_or(bit, std::memory_order_relaxed);
        } else {
          m |= bit;
        }
      }
    }
    std::uint64_t bits = h | (h << 1);
    if constexpr (Multi) bits = fields_of(h, multi_value(layer_ + 1));
    std::uint64_t old;
    if constexpr (Shared) {
      old = std::atomic_ref<std::uint64_t>(w).fetch_or(bits, std::memory_order_relaxed);
    } else {
      old = w;
      w = old | bits;
    }
    const std::uint64_t opened = h & unseen_fields(old);
    tally.found += static_cast<std::uint64_t>(std::popcount(opened));
    // Multi: the states this call opened join the open bitmap (the fields alone cannot tell them
    // from those three layers nearer the goal).
    if constexpr (Multi)
      if (opened) or_word(open_[i >> 1], gather_bits(opened) << (32 * (i & 1)));
  }
  bool mine(std::uint64_t t) const noexcept { return layout_.mine(t >> 5); }
  void target(std::uint64_t t, TwoBitTally& tally) {
    if (mine(t)) {
      settle(t, tally);
    } else {
      remote_(t);
    }
  }
  void push(std::uint64_t t, TwoBitTally& tally) {
    ++tally.vertical;
    if (!mine(t)) return remote_(t);
    const std::uint64_t i = layout_.local(t >> 5);
    if (back_) __builtin_prefetch(&back_[i >> 1], 1, 3);
    ring_.push(t, &local_[i], [&](std::uint64_t u) { settle_pushed(u, tally); });
  }
  // A vertical target out of the ring: opened if unseen; with back bits, its bit set unless it is
  // settled (then it is in the layer before; an open field of the other parity is of the next layer).
  void settle_pushed(std::uint64_t t, TwoBitTally& tally) {
    if (!back_) return settle(t, tally);
    const std::uint64_t i = layout_.local(t >> 5);
    const unsigned k = static_cast<unsigned>(t & 31);
    const std::uint64_t x = load(local_[i]);
    const std::uint64_t bit = std::uint64_t{1} << (2 * k);
    if (((x ^ (x >> 1)) & bit) != 0) return;  // settled (01 or 10)
    if (unseen_fields(x) & bit) open_in(i, bit, tally);
    or_word(back_[i >> 1], std::uint64_t{1} << (32 * (i & 1) + k));
  }

  const TwoBitGeometry& T_;
  const Geometry G_;  // a local copy, so that the compiler may keep fields in registers
  std::uint64_t* local_;
  const Layout layout_;
  int layer_;
  bool collect_;
  Remote& remote_;
  std::uint64_t* next_marks_ = nullptr;
  std::uint64_t* open_ = nullptr;
  std::uint64_t* back_ = nullptr;
  GroupCursor cursor_;
  std::uint64_t cursor_g_ = ~std::uint64_t{0};
  std::uint32_t odd_ = 0;
  PrefetchRing<std::uint64_t, 32> ring_;
};

// What one layer of a two-bit search found, summed over every process.
struct LayerCounts {
  std::uint64_t expanded = 0, found = 0;
};

// The layer loop of a two-bit search, shared by the threaded engine (bfs2.cpp) and tilespace-mpi:
// from p.next_layer until no state is pending, each layer expanded by `expand(layer, collect,
// ranks)`, which returns the whole search's counts and, when `collect`, leaves this process's ranks
// of the layer in `ranks`; then checked (a layer holds exactly the states found before it), counted
// into `p` and `total`, its ranks kept in `farthest` while layers are small, and handed to
// `after(layer, expanded, total)`. `agreed(check)` runs a check every process must pass alike (the
// threaded engine: the check itself).
template <class Expand, class Agreed, class After>
void two_bit_layers(TwoBitProgress& p, std::uint64_t& total, std::vector<std::uint64_t>& farthest, Expand&& expand,
                    Agreed&& agreed, After&& after) {
  for (int layer = p.next_layer; p.pending > 0; ++layer) {
    agreed([&] {
      if (layer > kMaxTwoBitDepth)
        throw ResourceError("search deeper than " + std::to_string(kMaxTwoBitDepth) + " moves");
    });
    const bool collect = p.pending <= kFarthestKept;
    std::vector<std::uint64_t> ranks;
    const LayerCounts n = expand(layer, collect, ranks);
    agreed([&] {
      if (n.expanded != p.pending)
        throw std::logic_error("two-bit search: layer " + std::to_string(layer) + " has " + std::to_string(n.expanded) +
                               " states, " + std::to_string(p.pending) + " were found");
    });
    p.histogram.push_back(n.expanded);
    total += n.expanded;
    p.pending = n.found;
    p.next_layer = layer + 1;
    if (collect) {
      farthest = std::move(ranks);
    } else {
      farthest.clear();
    }
    after(layer, n.expanded, total);
  }
}

}  // namespace tilespace::detail
