#include "tilespace/rank.hpp"

#include <stdexcept>

namespace tilespace {

Labelling::Labelling(const State& goal) : goal_blank(goal.blank) {
  int k = 0;
  for (int c = 0; c < goal.cells(); ++c)
    if (c != goal.blank) label[goal.tiles[c]] = static_cast<std::uint8_t>(k++);
}

Ranker::Ranker(const Board& board, int goal_blank)
    : board_(board),
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
  const Labelling lab(goal);
  return Ranker(goal.board, goal.blank).reachable(lab.sequence(start), start.blank);
}

}  // namespace tilespace
