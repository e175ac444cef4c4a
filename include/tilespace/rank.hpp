// Perfect hash of the states reachable from one goal: a bijection with [0, N!/2).
//
// A state is split into its blank cell b and its *sequence*: the tiles read row-major, skipping
// the blank, relabelled 0..n-1 (n = N-1) so that the goal's sequence is 0,1,...,n-1. A horizontal
// move leaves the sequence unchanged; a vertical move rotates W consecutive entries. Hence the
// sequence's parity is fixed by the blank's row (odd W: always even; even W: the row parity
// relative to the goal's), and exactly one of the two permutations with lexicographic ranks 2g
// and 2g+1 (they differ by swapping the last two entries) is reachable for each blank cell. So
//
//     rank = (lexrank(sequence) / 2) * N + b          ("group" g = lexrank/2, "lane" b)
//
// is dense over the reachable half. All N blank positions of one group are adjacent, which makes
// horizontal moves local bit operations in the BFS (see bfs.hpp).
//
// Complexity: rank and unrank are O(n) (one popcount / select a position); no allocation.
// Thread-safety: a Ranker is immutable after construction.
// Board size: ranking needs a packed board (at most kMaxCells cells; N!/2 fits 64 bits and the
// masks 32); Ranker and Labelling throw InputError for larger boards. `solvable` takes any board.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "tilespace/board.hpp"
#include "tilespace/state.hpp"

namespace tilespace {

inline constexpr std::array<std::uint64_t, 21> kFactorial = [] {
  std::array<std::uint64_t, 21> f{};
  f[0] = 1;
  for (std::uint64_t i = 1; i < f.size(); ++i) f[i] = f[i - 1] * i;
  return f;
}();

using Sequence = std::array<std::uint8_t, kMaxCells>;  // entries 0..n-1, n = cells-1

// Lexicographic rank of a permutation of 0..n-1 (n <= 16): O(n) with popcounts.
inline std::uint64_t lex_rank(const Sequence& s, int n) noexcept {
  std::uint32_t used = 0;
  std::uint64_t r = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t below = (1u << s[i]) - 1u;
    const auto d = s[i] - std::popcount(used & below);
    r += static_cast<std::uint64_t>(d) * kFactorial[n - 1 - i];
    used |= 1u << s[i];
  }
  return r;
}

// Lexicographic rank and parity (sum of the Lehmer digits = number of inversions) in one pass.
inline std::uint64_t lex_rank_parity(const Sequence& s, int n, unsigned& parity) noexcept {
  std::uint32_t used = 0;
  std::uint64_t r = 0;
  unsigned sum = 0;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t below = (1u << s[i]) - 1u;
    const auto d = static_cast<unsigned>(s[i] - std::popcount(used & below));
    sum += d;
    r += d * kFactorial[n - 1 - i];
    used |= 1u << s[i];
  }
  parity = sum & 1u;
  return r;
}

// The k-th (from 0) set bit of m; precondition: popcount(m) > k.
inline int select_bit(std::uint32_t m, int k) noexcept {
#if defined(__BMI2__)
  return std::countr_zero(_pdep_u32(1u << k, m));
#else
  for (; k > 0; --k) m &= m - 1;
  return std::countr_zero(m);
#endif
}

// Inverse of lex_rank. Precondition: r < n!.
inline void lex_unrank(std::uint64_t r, int n, Sequence& s) noexcept {
  std::uint32_t avail = (n >= 32) ? ~0u : ((1u << n) - 1u);
  for (int i = 0; i < n; ++i) {
    const std::uint64_t f = kFactorial[n - 1 - i];
    const int d = static_cast<int>(r / f);
    r -= static_cast<std::uint64_t>(d) * f;
    const int e = select_bit(avail, d);
    s[i] = static_cast<std::uint8_t>(e);
    avail &= ~(1u << e);
  }
}

// Parity of a permutation of 0..n-1 (0 even, 1 odd).
inline unsigned permutation_parity(const Sequence& s, int n) noexcept {
  unsigned inv = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) inv += s[j] < s[i];
  return inv & 1u;
}

// Maps states to sequences for one goal: label[tile] = the tile's index in the goal's sequence.
struct Labelling {
  int goal_blank = 0;
  std::array<std::uint8_t, kMaxCells> label{};
  // Throws InputError (require_packed) if the goal's board has more than kMaxCells cells.
  explicit Labelling(const State& goal);
  // The start's sequence under this labelling (tiles row-major, blank skipped).
  Sequence sequence(const State& start) const noexcept {
    Sequence s{};
    int k = 0;
    for (int c = 0; c < start.cells(); ++c)
      if (c != start.blank) s[k++] = label[start.tiles[c]];
    return s;
  }
  // The state of `board` whose sequence is `seq` with the blank on `blank`: sequence()'s inverse.
  State state(const Board& board, const Sequence& seq, int blank) const;
};

class Ranker {
 public:
  // The ranking of the states reachable from a goal whose blank is on `goal_blank`.
  // Throws InputError (require_packed) for a board of more than kMaxCells cells, and
  // std::invalid_argument for a blank cell off the board.
  Ranker(const Board& board, int goal_blank);

  const Board& board() const noexcept { return board_; }
  int goal_blank() const noexcept { return goal_blank_; }
  int cells() const noexcept { return cells_; }
  int seq_len() const noexcept { return cells_ - 1; }
  std::uint64_t groups() const noexcept { return groups_; }        // (N-1)!/2
  std::uint64_t size() const noexcept { return groups_ * cells_; }  // N!/2

  // The parity a reachable state's sequence has when the blank stands on `cell`.
  unsigned parity_for(int cell) const noexcept { return odd_row_flip_ & (board_.row(cell) ^ goal_row_); }

  // True when (sequence, blank) is reachable from the goal: the exact parity criterion.
  bool reachable(const Sequence& s, int blank) const noexcept {
    return permutation_parity(s, seq_len()) == parity_for(blank);
  }

  // Precondition: reachable(s, blank). Otherwise the result names a different state.
  std::uint64_t rank(const Sequence& s, int blank) const noexcept {
    return (lex_rank(s, seq_len()) >> 1) * static_cast<std::uint64_t>(cells_) + static_cast<std::uint64_t>(blank);
  }

  // rank(s, blank) if the state is reachable from the goal, else kUnreachable: one pass.
  static constexpr std::uint64_t kUnreachable = ~std::uint64_t{0};
  std::uint64_t rank_if_reachable(const Sequence& s, int blank) const noexcept {
    unsigned parity = 0;
    const std::uint64_t lex = lex_rank_parity(s, seq_len(), parity);
    if (parity != parity_for(blank)) return kUnreachable;
    return (lex >> 1) * static_cast<std::uint64_t>(cells_) + static_cast<std::uint64_t>(blank);
  }

  // Inverse of rank: fills s, returns the blank cell. Precondition: r < size().
  int unrank(std::uint64_t r, Sequence& s) const noexcept;

 private:
  Board board_;
  int goal_blank_, cells_, goal_row_;
  unsigned odd_row_flip_;  // 1 for even widths (a vertical move flips the parity), else 0
  std::uint64_t groups_;
};

// The exact solvability criterion for any board (up to kMaxBoardCells cells) and any goal: can
// `goal` be reached from `start`? The permutation parity of the start's tiles (row-major, blank
// skipped), relabelled by their order in the goal, must be even on odd widths and equal the
// parity of the blank's row difference on even widths. Precondition: same board.
// O(N^2) compares (at most 276 on 5x5); no allocation; no Ranker, so any board size works.
bool solvable(const State& start, const State& goal);

}  // namespace tilespace
