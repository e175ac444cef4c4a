// The engines' shared parts (include/tilespace/engine/: used by the library and tilespace-mpi,
// not installed, not an API): the pieces of the rank-space BFS that every layered engine shares (the
// byte engine in bfs.cpp, the two-bit engine in bfs2.cpp, the MPI engine in tools/mpi/): the
// board geometry, the group cursor (a group's two permutations with their Lehmer digits, kept up
// to date while a scan walks the groups in increasing order), the Lehmer-code deltas of vertical
// moves, the compile-time board width and the prefetch ring. Not installed; not a public API.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "tilespace/bfs.hpp"

#include "tilespace/rank.hpp"

namespace tilespace::detail {

// Everything about the board that the inner loop needs, precomputed.
struct Geometry {
  int w, cells, n;
  std::uint32_t can_right, can_left;  // blank cells not in the last / first column
  std::uint32_t odd_parity_cells;     // blank cells whose reachable sequences are odd
  // Multi-tile moves: the blank cells from which the blank can travel k >= 2 cells right / left
  // (k = 1: can_right, can_left).
  std::array<std::uint32_t, 8> right_by{}, left_by{};
  std::array<std::uint64_t, kMaxCells> weight{};  // weight[i] = (n-1-i)!

  explicit Geometry(const Ranker& r)
      : w(r.board().width()), cells(r.cells()), n(r.seq_len()), can_right(0), can_left(0), odd_parity_cells(0) {
    for (int c = 0; c < cells; ++c) {
      const int col = r.board().col(c);
      if (col != w - 1) can_right |= 1u << c;
      if (col != 0) can_left |= 1u << c;
      if (r.parity_for(c)) odd_parity_cells |= 1u << c;
      for (int k = 2; k < w && k < 8; ++k) {
        if (col + k <= w - 1) right_by[k] |= 1u << c;
        if (col - k >= 0) left_by[k] |= 1u << c;
      }
    }
    for (int i = 0; i < n; ++i) weight[i] = kFactorial[n - 1 - i];
  }
};

// The permutations of one group (lexicographic ranks 2g and 2g+1) with their Lehmer digits,
// kept up to date while the scan walks the groups in increasing order.
class GroupCursor {
 public:
  // prefixes: keep the prefix sums of the O(1) vertical deltas too (PrefixCode; boards of width
  // kPrefixDeltaWidth or more).
  explicit GroupCursor(int n, bool prefixes = false) : n_(n), prefixes_(prefixes) {}

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
  // The prefix sums of the O(1) vertical deltas (PrefixCode): down_prefix()[i] =
  // sum over j < i of d_j (w_{j+1} - w_j), the same for both variants; up_prefix(v)[i] = sum over
  // 1 <= j < i of d_j (w_{j-1} - w_j), which variant 1 exceeds by 1 from i = n-1 on (its digit n-2
  // is 1, and w_{n-3} - w_{n-2} = 1).
  const std::int64_t* down_prefix() const { return down_.data(); }
  const std::int64_t* up_prefix(unsigned v) const { return up_[v].data(); }

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
      // Small steps (the common case: groups visited in order) carry 1 without a division.
      const std::uint32_t radix = static_cast<std::uint32_t>(n_ - i), carry = v < 2 * radix ? 1u : v / radix;
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
    // Positions n-2 and n-1 hold Lehmer digits 0 in variant 0: the two elements left, in order.
    for (int i = dirty_; i < n_ - 2; ++i) {
      suffix_[i] = avail;
      const int e = select_bit(avail, d_[0][i]);
      s_[0][i] = static_cast<std::uint8_t>(e);
      avail &= ~(1u << e);
    }
    if (dirty_ <= n_ - 2) suffix_[n_ - 2] = avail;
    s_[0][n_ - 2] = static_cast<std::uint8_t>(std::countr_zero(avail));
    s_[0][n_ - 1] = static_cast<std::uint8_t>(31 - std::countl_zero(avail));
    suffix_[n_ - 1] = std::uint32_t{1} << s_[0][n_ - 1];
    if (prefixes_) {
      // The prefix sums from the first changed digit on (those before it did not change).
      for (int i = dirty_; i < n_ - 1; ++i)
        down_[i + 1] = down_[i] + static_cast<std::int64_t>(d_[0][i]) * down_step_[i];
      for (int i = std::max(dirty_, 1); i < n_; ++i)
        up_[0][i + 1] = up_[0][i] + static_cast<std::int64_t>(d_[0][i]) * up_step_[i];
      up_[1] = up_[0];
      up_[1][n_ - 1] += 1;
      up_[1][n_] += 1;
    }
    dirty_ = n_;
    parity0_ = sum_ & 1u;
    s_[1] = s_[0];
    std::swap(s_[1][n_ - 2], s_[1][n_ - 1]);
    d_[1] = d_[0];
    d_[1][n_ - 2] = 1;
  }

  // The weights' differences of the prefix sums: w_{i+1} - w_i and w_{i-1} - w_i (w_i = (n-1-i)!).
  static std::array<std::int64_t, kMaxCells> steps(int n, int dir) {
    std::array<std::int64_t, kMaxCells> out{};
    const auto w = [n](int i) { return static_cast<std::int64_t>(kFactorial[n - 1 - i]); };
    for (int i = 0; i < n; ++i)
      if (i + dir >= 0 && i + dir < n) out[i] = w(i + dir) - w(i);
    return out;
  }

  int n_;
  bool prefixes_;
  std::uint64_t g_ = kNone;
  int dirty_ = 0;
  unsigned parity0_ = 0, sum_ = 0;   // sum_: of the Lehmer digits of variant 0 (its parity)
  std::array<Sequence, 2> s_{}, d_{};
  std::array<std::uint32_t, kMaxCells> suffix_{};  // elements at positions >= i
  std::array<std::int64_t, kMaxCells> down_step_ = steps(n_, 1), up_step_ = steps(n_, -1);
  std::array<std::int64_t, kMaxCells + 1> down_{};
  std::array<std::array<std::int64_t, kMaxCells + 1>, 2> up_{};
};

// A permutation with its Lehmer digits, in two forms with the same interface: byte arrays (a
// cursor's) and nibbles packed in two words (the code table's; n <= 15).
struct ByteCode {
  const std::uint8_t *s, *d;
  unsigned entry(int i) const { return s[i]; }
  unsigned digit(int i) const { return d[i]; }
};
struct NibbleCode {
  std::uint64_t s = 0, d = 0;  // nibble i: the entry at position i, its Lehmer digit
  unsigned entry(int i) const { return static_cast<unsigned>(s >> (4 * i)) & 15u; }
  unsigned digit(int i) const { return static_cast<unsigned>(d >> (4 * i)) & 15u; }
};

// Change of the lexicographic rank when the blank, on cell p+W, moves up: the entry at sequence
// position p moves to p+W-1 and the W-1 entries after it shift left.
template <int W, class Code>
inline std::int64_t delta_up(const Geometry& G, const Code& c, int p) {
  const unsigned t = c.entry(p);
  int smaller = 0;
  std::int64_t delta = 0;
  for (int k = 1; k < W; ++k) {
    const unsigned e = c.entry(p + k);
    const auto d = static_cast<std::int64_t>(c.digit(p + k));
    delta += (d + (t < e)) * static_cast<std::int64_t>(G.weight[p + k - 1]) -
             d * static_cast<std::int64_t>(G.weight[p + k]);
    smaller += e < t;
  }
  const int q = p + W - 1;
  const auto d = static_cast<std::int64_t>(c.digit(p));
  return delta + (d - smaller) * static_cast<std::int64_t>(G.weight[q]) - d * static_cast<std::int64_t>(G.weight[p]);
}

// The blank, on cell b, moves down: the entry at position q = b+W-1 moves to b and the W-1
// entries before it shift right.
template <int W, class Code>
inline std::int64_t delta_down(const Geometry& G, const Code& c, int b) {
  const int q = b + W - 1;
  const unsigned t = c.entry(q);
  int smaller = 0;
  std::int64_t delta = 0;
  for (int k = 0; k < W - 1; ++k) {
    const unsigned e = c.entry(b + k);
    const auto d = static_cast<std::int64_t>(c.digit(b + k));
    delta += (d - (t < e)) * static_cast<std::int64_t>(G.weight[b + k + 1]) -
             d * static_cast<std::int64_t>(G.weight[b + k]);
    smaller += e < t;
  }
  const auto d = static_cast<std::int64_t>(c.digit(q));
  return delta + (d + smaller) * static_cast<std::int64_t>(G.weight[b]) - d * static_cast<std::int64_t>(G.weight[q]);
}

// O(1) deltas. The O(W) loops above add, for each of the W-1 entries the moved tile passes, that
// entry's digit times a difference of weights, and one weight for each entry bigger (down) or
// smaller (up) than the tile. With the digits' prefix sums (GroupCursor::down_prefix, up_prefix)
// the first part is two loads; the second depends only on the position and on which of the W-1
// entries are smaller than the tile, a (W-1)-bit mask M that one SIMD compare gives
// (PrefixCode::below), so it is a table entry. Down, tile t from q = b+W-1 to b:
//   delta = (P[q] - P[b]) + d_q (w_b - w_q) + popcount(M) w_b - sum_k (1 - M_k) w_{b+1+k}
// Up, tile t from p to q = p+W-1:
//   delta = (R[q+1] - R[p+1]) + d_p (w_q - w_p) - popcount(M) w_q + sum_k (1 - M_k) w_{p+k}
// (k = 0..W-2 over the window: b..q-1 down, p+1..q up). tests/test_bfs.cpp compares it with the
// loops on every group of the small boards and with the rank's definition on the larger ones.
// The O(1) deltas replace the loops from this board width on. Measured with
// tilespace_engine_split (one thread, the expansions' compute-only time, 3x4 to 6x2): 8 % faster
// on width 6, 5 % on width 4, 8-11 % slower on widths 2 and 3, whose loops pass one or two entries.
inline constexpr int kPrefixDeltaWidth = 4;

struct VerticalTables {
  int w = 0;
  // [b << (W-1) | M]: the table parts above, for b (down) or p (up) in [0, n-W].
  std::array<std::int64_t, kMaxCells * 128> down{}, up{};
  std::array<std::int64_t, kMaxCells> down_weight{}, up_weight{};  // w_b - w_q; w_q - w_p

  explicit VerticalTables(const Geometry& G) : w(G.w) {
    const int W = G.w;
    const auto weight = [&](int i) { return static_cast<std::int64_t>(G.weight[i]); };
    for (int b = 0; b + W - 1 < G.n; ++b) {
      const int q = b + W - 1;
      down_weight[b] = weight(b) - weight(q);
      up_weight[b] = weight(q) - weight(b);
      for (std::uint32_t M = 0; M < (1u << (W - 1)); ++M) {
        const auto m = static_cast<std::int64_t>(std::popcount(M));
        std::int64_t dn = m * weight(b), u = -m * weight(q);
        for (int k = 0; k < W - 1; ++k)
          if (!((M >> k) & 1u)) {
            dn -= weight(b + 1 + k);
            u += weight(b + k);
          }
        down[(static_cast<std::size_t>(b) << (W - 1)) | M] = dn;
        up[(static_cast<std::size_t>(b) << (W - 1)) | M] = u;
      }
    }
  }
};

// A group variant for the O(1) deltas: the cursor's entries, digits and prefix sums, and the
// board's tables.
struct PrefixCode {
  const std::uint8_t *s, *d;  // s: kMaxCells bytes (the cursor's Sequence)
  const std::int64_t *P, *R;
  const VerticalTables* V;
  unsigned entry(int i) const { return s[i]; }
  unsigned digit(int i) const { return d[i]; }
  // Bit i set when the entry at position i is smaller than t (positions past n hold 0: masked off
  // by the callers).
  std::uint32_t below(unsigned t) const {
#if defined(__SSE2__)
    const __m128i seq = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set1_epi8(static_cast<char>(t)), seq)));
#else
    std::uint32_t m = 0;
    for (int i = 0; i < kMaxCells; ++i) m |= static_cast<std::uint32_t>(s[i] < t) << i;
    return m;
#endif
  }
  static PrefixCode of(const GroupCursor& c, unsigned v, const VerticalTables& V) {
    return {c.seq(v), c.digits(v), c.down_prefix(), c.up_prefix(v), &V};
  }
};

template <int W>
inline std::int64_t delta_up(const Geometry&, const PrefixCode& c, int p) {
  const int q = p + W - 1;
  const std::uint32_t M = (c.below(c.s[p]) >> (p + 1)) & ((1u << (W - 1)) - 1u);
  return c.R[q + 1] - c.R[p + 1] + static_cast<std::int64_t>(c.d[p]) * c.V->up_weight[p] +
         c.V->up[(static_cast<std::size_t>(p) << (W - 1)) | M];
}

template <int W>
inline std::int64_t delta_down(const Geometry&, const PrefixCode& c, int b) {
  const int q = b + W - 1;
  const std::uint32_t M = (c.below(c.s[q]) >> b) & ((1u << (W - 1)) - 1u);
  return c.P[q] - c.P[b] + static_cast<std::int64_t>(c.d[q]) * c.V->down_weight[b] +
         c.V->down[(static_cast<std::size_t>(b) << (W - 1)) | M];
}

// The vertical moves of the blank on cell b: f(to, delta) for each target cell `to`, with delta the
// change of the lexicographic rank. Single-tile (Multi false): one row up and down, delta_up and
// delta_down. Multi-tile: the blank travels k rows at once, 1 <= k. The sequence positions that
// change are then one segment of k*W, and the move rotates each of its k rows by one place on its
// own: up, a row's first entry (the column's tile) goes to the row's end and the others one place
// back, as delta_up's one row; down, the reverse, as delta_down's. An entry's Lehmer digit counts
// the smaller entries after it, and the set after its row is the same before and after the move,
// whatever the other rows do. So the change is the sum of the k rows' one-row changes, kept as a
// running sum as the blank goes one row further: O(W) a target, as in the single-tile metric.
template <int W, bool Multi, class Code, class F>
inline void vertical_moves(const Geometry& G, const Code& c, int b, F&& f) {
  std::int64_t up = 0, down = 0;
  for (int to = b - W; to >= 0; to -= W) {
    up += delta_up<W>(G, c, to);
    f(to, up);
    if constexpr (!Multi) break;
  }
  for (int row = b, to = b + W; to < G.cells; row += W, to += W) {
    down += delta_down<W>(G, c, row);
    f(to, down);
    if constexpr (!Multi) break;
  }
}

// Calls f(std::integral_constant<int, w>) for the board width w (2..8).
template <class F>
auto with_width(int w, F&& f) {
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

// Targets wait in a ring while their cache lines are fetched: push() prefetches the target's
// address (for writing) and settles the oldest target once the ring is full; flush() settles the
// rest, oldest first. Used by every engine whose targets are random accesses into a large array
// (the byte and two-bit engines' words, the pattern-database builder's marks).
template <class Target, int N = 32>
class PrefetchRing {
 public:
  template <class Settle>
  void push(const Target& t, const void* address, Settle&& settle) {
    __builtin_prefetch(address, 1, 3);
    if (pending_ == N) {
      settle(ring_[head_]);
      ring_[head_] = t;
      head_ = (head_ + 1) % N;
    } else {
      ring_[(head_ + pending_) % N] = t;
      ++pending_;
    }
  }
  template <class Settle>
  void flush(Settle&& settle) {
    for (; pending_ > 0; --pending_, head_ = (head_ + 1) % N) settle(ring_[head_]);
  }

 private:
  std::array<Target, N> ring_{};
  int head_ = 0, pending_ = 0;
};

// The layer loop every layered engine runs (byte and two-bit BFS, pattern-database builder): one
// oneTBB arena for the whole search, one pass a layer over [0, items) split into blocks, a Tally
// per block joined in order, and the per-layer report. With one thread the pass runs directly,
// and the engine's code is its unshared (plain loads and stores) instantiation. The clock starts
// when the driver is made (seconds()); a layer's time runs from the previous report or
// start_layer(), whichever came last (from the driver's making if neither did).
class LayerDriver {
 public:
  explicit LayerDriver(int threads)
      : threads_(threads > 0 ? threads : tbb::info::default_concurrency()), arena_(threads_),
        t0_(std::chrono::steady_clock::now()), last_(t0_) {}

  int threads() const noexcept { return threads_; }

  // Runs f() inside the arena (the whole search, so that blocks reuse the same worker threads).
  template <class F>
  void execute(F&& f) {
    arena_.execute(std::forward<F>(f));
  }

  // One pass: block(begin, end, tally) as block.template operator()<Shared>(...) over [0, items).
  template <class Tally, class Block>
  Tally pass(std::uint64_t items, std::uint64_t grain, Block&& block) {
    Tally total{};
    if (threads_ == 1) {
      block.template operator()<false>(std::uint64_t{0}, items, total);
      return total;
    }
    return tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, items, grain), std::move(total),
        [&](const tbb::blocked_range<std::uint64_t>& r, Tally acc) {
          block.template operator()<true>(r.begin(), r.end(), acc);
          return acc;
        },
        [](Tally a, Tally b) {
          a.join(b);
          return a;
        });
  }

  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

  // Starts the next layer's time now (so that set-up before the first layer is not counted in it).
  void start_layer() { last_ = std::chrono::steady_clock::now(); }

  // Reports a finished layer (its time is the time since the previous report or start_layer()).
  void report(const std::function<void(const LayerReport&)>& on_layer, int layer, std::uint64_t states,
              std::uint64_t total, std::uint64_t space) {
    const auto now = std::chrono::steady_clock::now();
    const double layer_seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    if (on_layer) on_layer({layer, states, total, seconds(), space, layer_seconds});
  }

 private:
  int threads_;
  tbb::task_arena arena_;
  std::chrono::steady_clock::time_point t0_, last_;
};

}  // namespace tilespace::detail
