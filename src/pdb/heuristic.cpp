#include "tilespace/pdb/heuristic.hpp"

#include <algorithm>

#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"

namespace tilespace::pdb {

PdbHeuristic::PdbHeuristic(const State& goal, std::vector<std::shared_ptr<const PatternDatabase>> databases)
    : goal_(goal), dbs_(std::move(databases)) {
  place(patterns());
}

PdbHeuristic::PdbHeuristic(const State& goal, std::vector<std::shared_ptr<const ZeroAwareDatabase>> databases)
    : goal_(goal), zdbs_(std::move(databases)) {
  if (zdbs_.empty()) throw InputError("no zero-aware pattern database");
  place(patterns());
}

std::vector<const Pattern*> PdbHeuristic::patterns() const {
  std::vector<const Pattern*> p;
  for (const auto& db : dbs_) p.push_back(&db->pattern());
  for (const auto& db : zdbs_) p.push_back(&db->pattern());
  return p;
}

void PdbHeuristic::place(const std::vector<const Pattern*>& patterns) {
  if (patterns.size() > static_cast<std::size_t>(kMaxPatterns))
    throw InputError("at most " + std::to_string(kMaxPatterns) + " patterns, not " + std::to_string(patterns.size()));
  for (std::size_t j = 0; j < patterns.size(); ++j) {
    const auto& tiles = patterns[j]->tiles;
    for (std::size_t i = 0; i < tiles.size(); ++i) {
      if (slot_[tiles[i]].pattern >= 0) throw InputError("the patterns overlap on tile " + std::to_string(tiles[i]));
      slot_[tiles[i]] = {static_cast<std::int8_t>(j), static_cast<std::uint8_t>(i)};
    }
  }
  const Board& b = goal_.board;
  reflect_ = b.width() == b.height() && b.row(goal_.blank) == b.col(goal_.blank);
  for (int c = 0; c < b.cells(); ++c) transpose_[c] = static_cast<std::uint8_t>(reflect_ ? b.col(c) * b.width() + b.row(c) : c);
  std::array<std::uint8_t, kMaxPdbCells> goal_cell{};
  for (int c = 0; c < b.cells(); ++c) goal_cell[goal_.tiles[c]] = static_cast<std::uint8_t>(c);
  for (int t = 0; t < b.cells(); ++t) sigma_[t] = goal_.tiles[transpose_[goal_cell[t]]];
}

// cell_of_tile[0] is the blank's cell.
int PdbHeuristic::sum(const std::array<std::uint8_t, kMaxPdbCells>& cell_of_tile) const {
  int h = 0;
  std::array<std::uint8_t, kMaxPdbCells> pos{};
  auto place_tiles = [&](const Pattern& p) {
    for (std::size_t i = 0; i < p.tiles.size(); ++i) pos[i] = cell_of_tile[p.tiles[i]];
  };
  for (const auto& db : dbs_) {
    place_tiles(db->pattern());
    h += db->value(pos.data());
  }
  for (const auto& db : zdbs_) {
    place_tiles(db->pattern());
    h += db->value(pos.data(), cell_of_tile[0]);
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

PdbHeuristic make_heuristic(PdbStore& store, const State& goal, const Partition& partition, bool zero_aware) {
  if (zero_aware) return PdbHeuristic(goal, store.get_zero_aware(goal, partition));
  return PdbHeuristic(goal, store.get(goal, partition));
}

}  // namespace tilespace::pdb
