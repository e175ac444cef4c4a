#include "tilespace/goal_table.hpp"

#include <filesystem>
#include <stdexcept>

#include "tilespace/errors.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace {

void GoalTable::require_metric(Metric m) const {
  if (metric() != m)
    throw InputError("the distance table of " + board().name() + " counts " + std::string(metric_name(metric())) +
                     "-tile moves, not " + std::string(metric_name(m)) + "-tile ones");
}


namespace {

Symmetry symmetry_for(const DistanceTable& table, int goal_blank) {
  const auto s = symmetry_taking(table.board(), goal_blank, table.ranker().goal_blank());
  if (!s)
    throw std::invalid_argument("GoalTable: the table of cell " + std::to_string(table.ranker().goal_blank()) +
                                " does not serve goals with the blank on cell " + std::to_string(goal_blank));
  return *s;
}

}  // namespace

GoalTable::GoalTable(const DistanceTable& table, int goal_blank)
    : table_(&table),
      goal_blank_(goal_blank),
      sym_(symmetry_for(table, goal_blank)),
      base_(table.goal()) {
  direct_ = sym_.identity();
}

std::vector<State> GoalTable::descend(const State& start, const State& goal) const {
  if (direct_) return table_->descend(start, goal);
  std::vector<State> path = table_->descend(sym_.apply(start), sym_.apply(goal));
  for (State& s : path) s = sym_.undo(s);
  return path;
}

std::vector<State> GoalTable::farthest(const State& goal, std::size_t limit) const {
  if (direct_) return table_->farthest(goal, limit);
  std::vector<State> out = table_->farthest(sym_.apply(goal), limit);
  for (State& s : out) s = sym_.undo(s);
  return out;
}

State GoalTable::state_of_rank(std::uint64_t r, const State& goal) const {
  Sequence seq{};
  const int blank = table_->ranker().unrank(r, seq);  // on the table's cells
  return sym_.undo(labelling(goal).state(goal.board, seq, blank));
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

bool TableStore::at_hand(const Board& board, int goal_blank) const {
  if (!table_can_exist(board)) return false;
  if (serving_cell(board, goal_blank) >= 0) return true;  // its own, or its class's
  return DistanceTable::estimate_build(board, options_.engine, options_.bfs.threads, options_.bfs.metric).seconds <=
         options_.max_auto_build_seconds;
}

const GoalTable* TableStore::goal_loaded(const Board& board, int goal_blank) const noexcept {
  const auto it = goals_.find(key(board, goal_blank));
  if (it == goals_.end()) return nullptr;
  const GoalTable& g = it->second;
  // A table replaced by build() since (freed: compared, not read): the view is stale.
  return loaded(board, g.symmetry().to[goal_blank]) == &g.table() ? &g : nullptr;
}

const GoalTable& TableStore::goal(const Board& board, int goal_blank) {
  if (const GoalTable* g = goal_loaded(board, goal_blank)) return *g;
  const int cell = serving_cell(board, goal_blank);
  const DistanceTable& t = table(board, cell >= 0 ? cell : goal_blank);
  return goals_.insert_or_assign(key(board, goal_blank), GoalTable(t, goal_blank)).first->second;
}

}  // namespace tilespace
