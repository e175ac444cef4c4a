#include "tilespace/table_store.hpp"

#include "tilespace/errors.hpp"

namespace tilespace {

TableStore::TableStore(StoreOptions options) : options_(std::move(options)) {}

std::filesystem::path TableStore::path_for(const Board& board, int goal_blank) const {
  return options_.dir / (board.name() + "-" + canonical_goal(board, goal_blank).compact() + ".tsdb");
}

const DistanceTable* TableStore::loaded(const Board& board, int goal_blank) const noexcept {
  const auto it = tables_.find(key(board, goal_blank));
  return it == tables_.end() ? nullptr : it->second.get();
}

const DistanceTable& TableStore::table(const Board& board, int goal_blank) {
  if (auto it = tables_.find(key(board, goal_blank)); it != tables_.end()) return *it->second;
  const auto path = path_for(board, goal_blank);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    DistanceTable::check_fits(board);
    if (options_.note) options_.note("no database " + path.string() + " yet: building it first");
    const auto& t = build(board, goal_blank);
    if (options_.note)
      options_.note("built " + path.string() + ": " + std::to_string(t.ranker().size()) + " states, radius " +
                    std::to_string(t.radius()));
    return t;
  }
  auto t = std::make_unique<DistanceTable>(DistanceTable::from_database(load_database(path)));
  if (!(t->board() == board) || t->ranker().goal_blank() != goal_blank)
    throw DataError(path.string() + ": holds the table of another board or goal");
  return *(tables_[key(board, goal_blank)] = std::move(t));
}

const DistanceTable& TableStore::build(const Board& board, int goal_blank) {
  auto t = std::make_unique<DistanceTable>(DistanceTable::build(board, goal_blank, options_.bfs));
  const auto path = path_for(board, goal_blank);
  save_database(path, t->info(), t->depths());
  return *(tables_[key(board, goal_blank)] = std::move(t));
}

}  // namespace tilespace
