#include "tilespace/pdb/heuristic.hpp"

#include <algorithm>

#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"

namespace tilespace::pdb {

PdbHeuristic::PdbHeuristic(const State& goal, std::vector<std::shared_ptr<const PatternDatabase>> databases)
    : goal_(goal), dbs_(std::move(databases)) {
  if (dbs_.size() > static_cast<std::size_t>(kMaxPatterns))
    throw InputError("at most " + std::to_string(kMaxPatterns) + " patterns, not " + std::to_string(dbs_.size()));
  for (std::size_t j = 0; j < dbs_.size(); ++j) {
    const auto& tiles = dbs_[j]->pattern().tiles;
    for (std::size_t i = 0; i < tiles.size(); ++i) {
      if (slot_[tiles[i]].pattern >= 0) throw InputError("the patterns overlap on tile " + std::to_string(tiles[i]));
      slot_[tiles[i]] = {static_cast<std::int8_t>(j), static_cast<std::uint8_t>(i)};
    }
  }
  const Board& b = goal.board;
  reflect_ = b.width() == b.height() && b.row(goal.blank) == b.col(goal.blank);
  for (int c = 0; c < b.cells(); ++c) transpose_[c] = static_cast<std::uint8_t>(reflect_ ? b.col(c) * b.width() + b.row(c) : c);
  std::array<std::uint8_t, kMaxPdbCells> goal_cell{};
  for (int c = 0; c < b.cells(); ++c) goal_cell[goal.tiles[c]] = static_cast<std::uint8_t>(c);
  for (int t = 0; t < b.cells(); ++t) sigma_[t] = goal.tiles[transpose_[goal_cell[t]]];
}

int PdbHeuristic::sum(const std::array<std::uint8_t, kMaxPdbCells>& cell_of_tile) const {
  int h = 0;
  std::array<std::uint8_t, kMaxPdbCells> pos{};
  for (const auto& db : dbs_) {
    const auto& tiles = db->pattern().tiles;
    for (std::size_t i = 0; i < tiles.size(); ++i) pos[i] = cell_of_tile[tiles[i]];
    h += db->value(pos.data());
  }
  return h;
}

int PdbHeuristic::direct(const State& s) const {
  std::array<std::uint8_t, kMaxPdbCells> cell_of{};
  for (int c = 0; c < s.cells(); ++c) cell_of[s.tiles[c]] = static_cast<std::uint8_t>(c);
  return sum(cell_of);
}

int PdbHeuristic::reflected(const State& s) const {
  if (!reflect_) return direct(s);
  std::array<std::uint8_t, kMaxPdbCells> cell_of{};  // tile sigma(t) stands on transpose(cell of t)
  for (int c = 0; c < s.cells(); ++c) cell_of[sigma_[s.tiles[c]]] = transpose_[c];
  return sum(cell_of);
}

int PdbHeuristic::evaluate(const State& s) const { return std::max(direct(s), reflected(s)); }

PdbHeuristic make_heuristic(PdbStore& store, const State& goal, const Partition& partition) {
  return PdbHeuristic(goal, store.get(goal, partition));
}

}  // namespace tilespace::pdb
