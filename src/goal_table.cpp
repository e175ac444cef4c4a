#include "tilespace/goal_table.hpp"

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <utility>

#include "tilespace/errors.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace {

void GoalTable::require_metric(Metric m) const {
  if (metric() != m)
    throw InputError("the distance table of " + board().name() + " counts " + std::string(metric_name(metric())) +
                     "-tile moves, not " + std::string(metric_name(m)) + "-tile ones");
}


namespace {

Symmetry symmetry_for(const DistanceTable& table, const Board& board, int goal_blank) {
  const Board& own = table.board();
  const int cell = table.ranker().goal_blank();
  if (board == own) {
    const auto s = symmetry_taking(own, goal_blank, cell);
    if (!s)
      throw std::invalid_argument("GoalTable: the table of cell " + std::to_string(cell) +
                                  " does not serve goals with the blank on cell " + std::to_string(goal_blank));
    return *s;
  }
  if (!(board == transposed(own)))
    throw std::invalid_argument("GoalTable: a table of " + own.name() + " does not serve goals of " + board.name());
  const Symmetry turn = transposition(board);
  const auto s = symmetry_taking(own, turn.to[goal_blank], cell);
  if (!s)
    throw std::invalid_argument("GoalTable: the table of " + own.name() + " cell " + std::to_string(cell) +
                                " does not serve goals of " + board.name() + " with the blank on cell " +
                                std::to_string(goal_blank));
  return compose(turn, *s);
}

}  // namespace

GoalTable::GoalTable(const DistanceTable& table, int goal_blank) : GoalTable(table, table.board(), goal_blank) {}

GoalTable::GoalTable(const DistanceTable& table, const Board& board, int goal_blank)
    : table_(&table),
      board_(board),
      goal_blank_(goal_blank),
      sym_(symmetry_for(table, board, goal_blank)),
      base_(table.goal()) {
  transposed_ = !(board == table.board());
  direct_ = sym_.identity() && !transposed_;
}

std::vector<State> GoalTable::descend(const State& start, const State& goal) const {
  if (direct_) return table_->descend(start, goal);
  std::vector<State> path = table_->descend(to_table(start), to_table(goal));
  for (State& s : path) s = from_table(s);
  return path;
}

std::vector<State> GoalTable::farthest(const State& goal, std::size_t limit) const {
  if (direct_) return table_->farthest(goal, limit);
  std::vector<State> out = table_->farthest(to_table(goal), limit);
  for (State& s : out) s = from_table(s);
  return out;
}

State GoalTable::state_of_rank(std::uint64_t r, const State& goal) const {
  Sequence seq{};
  const int blank = table_->ranker().unrank(r, seq);  // on the table's cells
  return from_table(labelling(goal).state(table_->board(), seq, blank));
}

// ---- TableStore's lookups by goal (table_store.hpp), beside the view they hand out ----

int TableStore::serving_cell(const Board& board, int goal_blank) const {
  std::error_code ec;
  auto has = [&](int cell) { return loaded(board, cell) || std::filesystem::exists(path_for(board, cell), ec); };
  if (has(goal_blank)) return goal_blank;
  for (const int cell : blank_class(board, goal_blank))
    if (cell != goal_blank && has(cell)) return cell;
  return -1;
}

std::optional<std::pair<Board, int>> TableStore::serving(const Board& board, int goal_blank) const {
  if (const int cell = serving_cell(board, goal_blank); cell >= 0) return std::pair{board, cell};
  const Board turned = transposed(board);
  if (turned == board) return std::nullopt;  // a square: the transposition is one of its symmetries
  if (const int cell = serving_cell(turned, transposition(board).to[goal_blank]); cell >= 0)
    return std::pair{turned, cell};
  return std::nullopt;
}

bool TableStore::at_hand(const Board& board, int goal_blank) const {
  if (!table_can_exist(board)) return false;
  if (serving(board, goal_blank)) return true;  // its own, its class's, or its transpose's
  return DistanceTable::estimate_build(board, options_.engine, options_.bfs.threads, options_.bfs.metric).seconds <=
         options_.max_auto_build_seconds;
}

const GoalTable* TableStore::goal_loaded(const Board& board, int goal_blank) const noexcept {
  const auto it = goals_.find(key(board, goal_blank));
  if (it == goals_.end()) return nullptr;
  const GoalTable& g = it->second;
  // A table replaced by build() since (freed: compared, not read): the view is stale.
  const Board table_board = g.transposed() ? transposed(board) : board;
  return loaded(table_board, g.symmetry().to[goal_blank]) == &g.table() ? &g : nullptr;
}

const GoalTable& TableStore::goal(const Board& board, int goal_blank) {
  if (const GoalTable* g = goal_loaded(board, goal_blank)) return *g;
  const auto at = serving(board, goal_blank);
  const DistanceTable& t = at ? table(at->first, at->second) : table(board, goal_blank);
  return goals_.insert_or_assign(key(board, goal_blank), GoalTable(t, board, goal_blank)).first->second;
}

}  // namespace tilespace
