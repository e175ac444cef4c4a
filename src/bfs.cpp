#include "tilespace/bfs.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <new>
#include <string>
#include <type_traits>

#include "tilespace/errors.hpp"

namespace tilespace {
namespace {

constexpr int kVisited = 0;           // bit offset of the visited lane
constexpr std::uint64_t kLane = 0xFFFF;
constexpr int kMaxDepth = 254;        // depths are bytes; 255 means "not reached"
// Boards with at most this many groups (3x3, 2x5: 4 MiB of words at most) skip the prefetch ring.
constexpr std::uint64_t kCachedGroups = std::uint64_t{1} << 19;

int current_lane(int depth) { return 16 + 16 * (depth & 1); }
int next_lane(int depth) { return 16 + 16 * ((depth + 1) & 1); }

// Everything about the board that the inner loop needs, precomputed.
struct Geometry {
  int w, cells, n;
  std::uint32_t can_right, can_left;  // blank cells not in the last / first column
  std::uint32_t odd_parity_cells;     // blank cells whose reachable sequences are odd
  std::array<std::uint64_t, kMaxCells> weight{};  // weight[i] = (n-1-i)!

  explicit Geometry(const Ranker& r)
      : w(r.board().width()), cells(r.cells()), n(r.seq_len()), can_right(0), can_left(0), odd_parity_cells(0) {
    for (int c = 0; c < cells; ++c) {
      if (r.board().col(c) != w - 1) can_right |= 1u << c;
      if (r.board().col(c) != 0) can_left |= 1u << c;
      if (r.parity_for(c)) odd_parity_cells |= 1u << c;
    }
    for (int i = 0; i < n; ++i) weight[i] = kFactorial[n - 1 - i];
  }
};

// The permutations of one group (lexicographic ranks 2g and 2g+1) with their Lehmer digits,
// kept up to date while the scan walks the groups in increasing order.
class GroupCursor {
 public:
  explicit GroupCursor(int n) : n_(n) {}

  // Forward jumps add to the digits (a few small divisions at most); only the first group of a
  // block is decoded from scratch.
  void go_to(std::uint64_t g) {
    if (g_ != kNone && g > g_ && g - g_ < (1u << 20)) {
      advance(static_cast<std::uint32_t>(g - g_));
    } else {
      seek(g);
    }
    materialize();
  }

  // Variant 0: lexrank 2g; variant 1: 2g+1 (last two entries swapped).
  const std::uint8_t* seq(unsigned v) const { return s_[v].data(); }
  const std::uint8_t* digits(unsigned v) const { return d_[v].data(); }
  unsigned parity0() const { return parity0_; }

 private:
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};

  void seek(std::uint64_t g) {
    std::uint64_t lex = 2 * g;
    sum_ = 0;
    for (int i = 0; i < n_; ++i) {
      const std::uint64_t f = kFactorial[n_ - 1 - i];
      d_[0][i] = static_cast<std::uint8_t>(lex / f);
      lex -= d_[0][i] * f;
      sum_ += d_[0][i];
    }
    g_ = g;
    dirty_ = 0;
    suffix_[0] = (1u << n_) - 1u;
  }
  void advance(std::uint32_t k) {  // mixed-radix +k on digits 0..n-3 (digit i has radix n-i)
    int i = n_ - 3;
    std::uint32_t v = d_[0][i] + k;
    while (v >= static_cast<std::uint32_t>(n_ - i)) {
      const std::uint32_t radix = static_cast<std::uint32_t>(n_ - i), carry = v / radix;
      sum_ += v - carry * radix - d_[0][i];
      d_[0][i] = static_cast<std::uint8_t>(v - carry * radix);
      --i;
      v = d_[0][i] + carry;
    }
    sum_ += v - d_[0][i];
    d_[0][i] = static_cast<std::uint8_t>(v);
    dirty_ = std::min(dirty_, i);
    g_ += k;
  }
  // Rebuilds the entries from position dirty_ on; the elements there are suffix_[dirty_]
  // because the prefix did not change.
  void materialize() {
    if (dirty_ >= n_) return;
    std::uint32_t avail = suffix_[dirty_];
    for (int i = dirty_; i < n_; ++i) {
      suffix_[i] = avail;
      const int e = select_bit(avail, d_[0][i]);
      s_[0][i] = static_cast<std::uint8_t>(e);
      avail &= ~(1u << e);
    }
    dirty_ = n_;
    parity0_ = sum_ & 1u;
    s_[1] = s_[0];
    std::swap(s_[1][n_ - 2], s_[1][n_ - 1]);
    d_[1] = d_[0];
    d_[1][n_ - 2] = 1;
  }

  int n_;
  std::uint64_t g_ = kNone;
  int dirty_ = 0;
  unsigned parity0_ = 0, sum_ = 0;   // sum_: of the Lehmer digits of variant 0 (its parity)
  std::array<Sequence, 2> s_{}, d_{};
  std::array<std::uint32_t, kMaxCells> suffix_{};  // elements at positions >= i
};

// Change of the lexicographic rank when the blank, on cell p+W, moves up: the entry at sequence
// position p moves to p+W-1 and the W-1 entries after it shift left.
template <int W>
inline std::int64_t delta_up(const Geometry& G, const std::uint8_t* s, const std::uint8_t* d, int p) {
  const int t = s[p];
  int smaller = 0;
  std::int64_t delta = 0;
  for (int k = 1; k < W; ++k) {
    const int e = s[p + k];
    delta += static_cast<std::int64_t>(d[p + k] + (t < e)) * static_cast<std::int64_t>(G.weight[p + k - 1]) -
             static_cast<std::int64_t>(d[p + k]) * static_cast<std::int64_t>(G.weight[p + k]);
    smaller += e < t;
  }
  const int q = p + W - 1;
  return delta + static_cast<std::int64_t>(d[p] - smaller) * static_cast<std::int64_t>(G.weight[q]) -
         static_cast<std::int64_t>(d[p]) * static_cast<std::int64_t>(G.weight[p]);
}

// The blank, on cell b, moves down: the entry at position q = b+W-1 moves to b and the W-1
// entries before it shift right.
template <int W>
inline std::int64_t delta_down(const Geometry& G, const std::uint8_t* s, const std::uint8_t* d, int b) {
  const int q = b + W - 1;
  const int t = s[q];
  int smaller = 0;
  std::int64_t delta = 0;
  for (int k = 0; k < W - 1; ++k) {
    const int e = s[b + k];
    delta += static_cast<std::int64_t>(d[b + k] - (t < e)) * static_cast<std::int64_t>(G.weight[b + k + 1]) -
             static_cast<std::int64_t>(d[b + k]) * static_cast<std::int64_t>(G.weight[b + k]);
    smaller += e < t;
  }
  return delta + static_cast<std::int64_t>(d[q] + smaller) * static_cast<std::int64_t>(G.weight[b]) -
         static_cast<std::int64_t>(d[q]) * static_cast<std::int64_t>(G.weight[q]);
}

// Expands the frontier groups of one block of the scan. W is the board width, fixed at compile
// time so the Lehmer-delta loops unroll. Shared: several threads, so a word is updated with
// relaxed atomics; with one thread plain loads and stores. Ring: targets go through the prefetch
// ring (words not in cache); small boards update them at once.
template <int W, bool Shared, bool Ring>
class Expander {
 public:
  Expander(const Geometry& g, std::uint64_t* words, std::uint8_t* depth, int layer)
      : G_(g), words_(words), depth_(depth), layer_(layer), cur_(current_lane(layer)), next_(next_lane(layer)),
        cursor_(g.n) {}

  std::uint64_t run(std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t g = begin; g < end; ++g) {
      const std::uint64_t w = std::atomic_ref<std::uint64_t>(words_[g]).load(std::memory_order_relaxed);
      const auto f = static_cast<std::uint32_t>((w >> cur_) & kLane);
      if (f) {
        expanded_ += std::popcount(f);
        expand(g, f, w);
      }
    }
    flush();
    return expanded_;
  }

 private:
  static constexpr int kRing = 32;  // prefetch distance
  struct Target {
    std::uint64_t group;
    std::uint32_t bit;
  };

  void expand(std::uint64_t g, std::uint32_t f, std::uint64_t w) {
    cursor_.go_to(g);
    std::atomic_ref<std::uint64_t> word(words_[g]);
    word.fetch_and(~(kLane << cur_), std::memory_order_relaxed);

    const std::uint64_t base = g * static_cast<std::uint64_t>(G_.cells);
    for (std::uint32_t m = f; m; m &= m - 1) depth_[base + std::countr_zero(m)] = static_cast<std::uint8_t>(layer_);

    // Horizontal moves keep the sequence: shift the lane.
    // Only states not visited before this layer: `w` was read during this layer, so it already
    // shows every earlier layer's states. A state found twice in this layer (by two threads) just
    // gets its bits set twice; layers are counted when they are scanned, not when found.
    const std::uint32_t h =
        (((f & G_.can_right) << 1) | ((f & G_.can_left) >> 1)) & ~static_cast<std::uint32_t>(w >> kVisited);
    if (h) word.fetch_or((std::uint64_t{h} << kVisited) | (std::uint64_t{h} << next_), std::memory_order_relaxed);

    // Vertical moves: new rank by the Lehmer delta.
    const std::uint64_t lex0 = 2 * g;
    for (std::uint32_t m = f; m; m &= m - 1) {
      const int b = std::countr_zero(m);
      const unsigned v = ((G_.odd_parity_cells >> b) & 1u) ^ cursor_.parity0();
      const std::uint8_t* s = cursor_.seq(v);
      const std::uint8_t* d = cursor_.digits(v);
      const std::uint64_t lex = lex0 + v;
      if (b >= W) {
        const auto to = static_cast<std::uint64_t>(static_cast<std::int64_t>(lex) + delta_up<W>(G_, s, d, b - W));
        push(to >> 1, 1u << (b - W));
      }
      if (b + W < G_.cells) {
        const auto to = static_cast<std::uint64_t>(static_cast<std::int64_t>(lex) + delta_down<W>(G_, s, d, b));
        push(to >> 1, 1u << (b + W));
      }
    }
  }

  // Targets wait in a ring while their cache lines are fetched; head_ is the oldest.
  void push(std::uint64_t group, std::uint32_t bit) {
    if constexpr (!Ring) return settle({group, bit});
    __builtin_prefetch(&words_[group], 1, 3);
    if (pending_ == kRing) {
      settle(ring_[head_]);
      ring_[head_] = {group, bit};
      head_ = (head_ + 1) % kRing;
    } else {
      ring_[(head_ + pending_) % kRing] = {group, bit};
      ++pending_;
    }
  }
  void flush() {
    for (; pending_ > 0; --pending_, head_ = (head_ + 1) % kRing) settle(ring_[head_]);
  }

  void settle(const Target& t) {
    if constexpr (!Shared) {  // branch-free: an already visited target gets no new bits
      std::uint64_t& plain = words_[t.group];
      const std::uint64_t w = plain, fresh = t.bit & ~(w >> kVisited);
      plain = w | (fresh << kVisited) | (fresh << next_);
      return;
    }
    std::atomic_ref<std::uint64_t> word(words_[t.group]);
    if (word.load(std::memory_order_relaxed) & (std::uint64_t{t.bit} << kVisited)) return;
    // The old value is not needed, so this is a plain `lock or`, not a compare-and-swap loop.
    word.fetch_or((std::uint64_t{t.bit} << kVisited) | (std::uint64_t{t.bit} << next_), std::memory_order_relaxed);
  }

  const Geometry& G_;
  std::uint64_t* words_;
  std::uint8_t* depth_;
  int layer_, cur_, next_;
  GroupCursor cursor_;
  std::array<Target, kRing> ring_{};
  int head_ = 0, pending_ = 0;
  std::uint64_t expanded_ = 0;
};

// Calls f(std::integral_constant<int, w>) for the board width w (2..8).
template <class F>
std::uint64_t with_width(int w, F&& f) {
  switch (w) {
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 5: return f(std::integral_constant<int, 5>{});
    case 6: return f(std::integral_constant<int, 6>{});
    case 7: return f(std::integral_constant<int, 7>{});
    default: return f(std::integral_constant<int, 8>{});
  }
}

}  // namespace

std::uint64_t bfs_work_bytes(const Ranker& ranker) { return ranker.groups() * sizeof(std::uint64_t); }

BfsResult bfs_distances(const Ranker& ranker, std::span<std::uint8_t> depth, const BfsOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  const Geometry G(ranker);
  const std::uint64_t groups = ranker.groups();
  std::vector<std::uint64_t> words;
  try {
    words.assign(groups, 0);
  } catch (const std::bad_alloc&) {
    throw ResourceError("cannot allocate " + std::to_string(bfs_work_bytes(ranker) >> 20) + " MiB for the search");
  }

  const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();
  tbb::task_arena arena(threads);
  BfsResult result;
  arena.execute([&] {
    const std::uint64_t grain = std::max<std::uint64_t>(64, std::min<std::uint64_t>(1u << 14, groups / 64 + 1));
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, depth.size(), 1u << 20),
                      [&](const auto& r) { std::fill(depth.begin() + r.begin(), depth.begin() + r.end(), 0xFF); });

    // The goal: identity sequence (group 0, variant 0 is lexrank 0), blank on its cell.
    Sequence id{};
    for (int i = 0; i < G.n; ++i) id[i] = static_cast<std::uint8_t>(i);
    const std::uint64_t goal = ranker.rank(id, ranker.goal_blank());
    const std::uint64_t gbit = std::uint64_t{1} << (goal % G.cells);
    words[goal / G.cells] = (gbit << kVisited) | (gbit << current_lane(0));

    // Each pass expands layer `layer` (writing its depths) and marks layer + 1; it returns the
    // size of the layer it expanded, so an empty pass ends the search.
    std::uint64_t total = 0;
    for (int layer = 0;; ++layer) {
      if (layer > kMaxDepth) throw ResourceError("search deeper than " + std::to_string(kMaxDepth) + " moves");
      const bool cached = groups <= kCachedGroups && threads == 1;
    auto expand_range = [&]<bool Shared>(std::uint64_t begin, std::uint64_t end) {
      return with_width(G.w, [&](auto w) {
        auto go = [&]<bool Ring>() {
          Expander<decltype(w)::value, Shared, Ring> ex(G, words.data(), depth.data(), layer);
          return ex.run(begin, end);
        };
        return cached ? go.template operator()<false>() : go.template operator()<true>();
      });
    };
      const std::uint64_t size =
          threads == 1 ? expand_range.template operator()<false>(0, groups)
                       : tbb::parallel_reduce(
                             tbb::blocked_range<std::uint64_t>(0, groups, grain), std::uint64_t{0},
                             [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t acc) {
                               return acc + expand_range.template operator()<true>(r.begin(), r.end());
                             },
                             std::plus<>());
      if (size == 0) break;
      total += size;
      result.histogram.push_back(size);
      if (options.on_layer)
        options.on_layer({layer, size, total,
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()});
    }
  });
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace tilespace
