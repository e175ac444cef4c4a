#include "tilespace/search/heuristics.hpp"

#include <algorithm>

namespace tilespace::search {

namespace {

// Length of the longest strictly increasing subsequence of v[0..n).
int lis(const std::uint8_t* v, int n) noexcept {
  std::array<int, kMaxCells> best{};
  int longest = 0;
  for (int i = 0; i < n; ++i) {
    best[i] = 1;
    for (int j = 0; j < i; ++j)
      if (v[j] < v[i]) best[i] = std::max(best[i], best[j] + 1);
    longest = std::max(longest, best[i]);
  }
  return longest;
}

// The tiles of a packed state in row-major order, blank skipped.
int sequence(std::uint64_t p, int cells, std::array<std::uint8_t, kMaxCells>& out) noexcept {
  int k = 0;
  for (int c = 0; c < cells; ++c)
    if (const int t = Domain::tile_at(p, c)) out[k++] = static_cast<std::uint8_t>(t);
  return k;
}

}  // namespace

int LinearConflict::eval(std::uint64_t p, int blank) const noexcept {
  const Board& b = d->board;
  int removals = 0;
  std::array<std::uint8_t, kMaxCells> goal_pos{};
  for (int r = 0; r < b.height(); ++r) {  // rows: tiles whose goal row is r, by column
    int k = 0;
    for (int c = 0; c < b.width(); ++c) {
      const int cell = r * b.width() + c;
      if (cell == blank) continue;
      const int g = d->goal_cell[Domain::tile_at(p, cell)];
      if (b.row(g) == r) goal_pos[k++] = static_cast<std::uint8_t>(b.col(g));
    }
    removals += k - lis(goal_pos.data(), k);
  }
  for (int c = 0; c < b.width(); ++c) {  // columns
    int k = 0;
    for (int r = 0; r < b.height(); ++r) {
      const int cell = r * b.width() + c;
      if (cell == blank) continue;
      const int g = d->goal_cell[Domain::tile_at(p, cell)];
      if (b.col(g) == c) goal_pos[k++] = static_cast<std::uint8_t>(b.row(g));
    }
    removals += k - lis(goal_pos.data(), k);
  }
  return md.eval(p, blank) + 2 * removals;
}

int inversions(std::uint64_t p, int cells) noexcept {
  std::array<std::uint8_t, kMaxCells> s{};
  const int n = sequence(p, cells, s);
  int inv = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) inv += s[i] > s[j];
  return inv;
}

int weighted_inversions(std::uint64_t p, int cells) noexcept {
  std::array<std::uint8_t, kMaxCells> s{};
  const int n = sequence(p, cells, s);
  int w = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (s[i] > s[j]) w += s[i] - s[j];
  return w;
}

int MisplacedSharedPairs::eval(std::uint64_t p, int blank) const noexcept {
  // Position of each tile in the state's and the goal's row-major order.
  std::array<std::uint8_t, kMaxCells> pos{};
  for (int c = 0; c < d->cells(); ++c) pos[Domain::tile_at(p, c)] = static_cast<std::uint8_t>(c);
  int shared = 0;
  for (int a = 2; a < d->cells(); ++a)
    for (int b = 1; b < a; ++b)  // a > b: value-inverted when a comes first in the goal
      if (d->goal_cell[a] < d->goal_cell[b] && pos[a] < pos[b]) ++shared;
  return std::max(0, mis.eval(p, blank) - shared);
}

}  // namespace tilespace::search
