#include "tilespace/rank.hpp"

#include <array>
#include <stdexcept>

namespace tilespace {

Labelling::Labelling(const State& goal) : goal_blank(goal.blank) {
  require_packed(goal.board);
  int k = 0;
  for (int c = 0; c < goal.cells(); ++c)
    if (c != goal.blank) label[goal.tiles[c]] = static_cast<std::uint8_t>(k++);
}

State Labelling::state(const Board& board, const Sequence& seq, int blank) const {
  std::array<std::uint8_t, kMaxCells> tile_of{};  // label -> tile
  for (int t = 1; t < board.cells(); ++t) tile_of[label[t]] = static_cast<std::uint8_t>(t);
  State s{board, {}, blank};
  for (int c = 0, k = 0; c < board.cells(); ++c)
    if (c != blank) s.tiles[c] = tile_of[seq[k++]];
  return s;
}

namespace {

// The board, once require_packed has accepted it (the members below index kFactorial by it).
const Board& packed_board(const Board& board) {
  require_packed(board);
  return board;
}

}  // namespace

Ranker::Ranker(const Board& board, int goal_blank)
    : board_(packed_board(board)),
      goal_blank_(goal_blank),
      cells_(board.cells()),
      goal_row_(board.row(goal_blank)),
      odd_row_flip_(board.width() % 2 == 0 ? 1u : 0u),
      groups_(kFactorial[board.cells() - 1] / 2) {
  if (goal_blank < 0 || goal_blank >= cells_) throw std::invalid_argument("goal blank cell out of range");
}

int Ranker::unrank(std::uint64_t r, Sequence& s) const noexcept {
  const int n = seq_len();
  const auto blank = static_cast<int>(r % static_cast<std::uint64_t>(cells_));
  const std::uint64_t group = r / static_cast<std::uint64_t>(cells_);
  lex_unrank(group * 2, n, s);
  if (permutation_parity(s, n) != parity_for(blank)) std::swap(s[n - 2], s[n - 1]);
  return blank;
}

bool solvable(const State& start, const State& goal) {
  // The start's sequence (tiles row-major, blank skipped) in the goal's order, as in Labelling
  // and Ranker::reachable but sized for every board.
  const Board& b = goal.board;
  const int n = b.cells();
  std::array<std::uint8_t, kMaxBoardCells> label{};
  for (int c = 0, k = 0; c < n; ++c)
    if (c != goal.blank) label[goal.tiles[c]] = static_cast<std::uint8_t>(k++);
  std::array<std::uint8_t, kMaxBoardCells> seq{};
  int len = 0;
  for (int c = 0; c < n; ++c)
    if (c != start.blank) seq[len++] = label[start.tiles[c]];
  unsigned inversions = 0;
  for (int i = 0; i < len; ++i)
    for (int j = i + 1; j < len; ++j) inversions += seq[j] < seq[i];
  // A horizontal move keeps the sequence; a vertical one rotates W entries (W-1 transpositions).
  const unsigned row_flip = b.width() % 2 == 0 ? static_cast<unsigned>(b.row(start.blank) ^ b.row(goal.blank)) : 0u;
  return (inversions & 1u) == (row_flip & 1u);
}

}  // namespace tilespace
