#include "tilespace/pdb/heuristic.hpp"

#include <algorithm>

#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"

namespace tilespace::pdb {

PdbHeuristic::PdbHeuristic(const State& goal, std::vector<std::shared_ptr<const PatternDatabase>> databases,
                           std::vector<std::vector<int>> groups)
    : goal_(goal), dbs_(std::move(databases)), groups_(std::move(groups)) {
  place(patterns());
}

PdbHeuristic::PdbHeuristic(const State& goal, std::vector<std::shared_ptr<const ZeroAwareDatabase>> databases,
                           std::vector<std::vector<int>> groups)
    : goal_(goal), zdbs_(std::move(databases)), groups_(std::move(groups)) {
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
  const int count = static_cast<int>(patterns.size());
  if (groups_.empty()) {
    groups_.emplace_back(static_cast<std::size_t>(count));
    for (int j = 0; j < count; ++j) groups_[0][static_cast<std::size_t>(j)] = j;
  }
  const bool catalogue = groups_.size() > 1;
  if (catalogue && count > kMaxCataloguePatterns)
    throw InputError("a catalogue has at most " + std::to_string(kMaxCataloguePatterns) + " distinct patterns, not " +
                     std::to_string(count));
  if (static_cast<int>(groups_.size()) > kMaxCataloguePartitions)
    throw InputError("a catalogue has at most " + std::to_string(kMaxCataloguePartitions) + " partitions, not " +
                     std::to_string(groups_.size()));
  for (int j = 0; j < count; ++j)
    for (int i = 0; i < j; ++i)
      if (*patterns[static_cast<std::size_t>(i)] == *patterns[static_cast<std::size_t>(j)])
        throw InputError("pattern " + patterns[static_cast<std::size_t>(j)]->name() + " is given twice");
  for (const auto& group : groups_) {
    if (group.size() > static_cast<std::size_t>(kMaxPatterns))
      throw InputError("at most " + std::to_string(kMaxPatterns) + " patterns, not " + std::to_string(group.size()));
    std::array<bool, kMaxPdbCells> seen{};
    for (const int j : group) {
      if (j < 0 || j >= count) throw InputError("a catalogue's partition names a pattern it does not have");
      for (const auto t : patterns[static_cast<std::size_t>(j)]->tiles) {
        if (seen[t]) throw InputError("the patterns overlap on tile " + std::to_string(t));
        seen[t] = true;
      }
    }
  }
  for (int j = 0; j < count; ++j) {
    const auto& tiles = patterns[static_cast<std::size_t>(j)]->tiles;
    for (std::size_t i = 0; i < tiles.size(); ++i)
      slots_[tiles[i]].push_back({static_cast<std::int8_t>(j), static_cast<std::uint8_t>(i)});
  }
  const Board& b = goal_.board;
  reflect_ = b.width() == b.height() && b.row(goal_.blank) == b.col(goal_.blank);
  for (int c = 0; c < b.cells(); ++c) transpose_[c] = static_cast<std::uint8_t>(reflect_ ? b.col(c) * b.width() + b.row(c) : c);
  std::array<std::uint8_t, kMaxPdbCells> goal_cell{};
  for (int c = 0; c < b.cells(); ++c) goal_cell[goal_.tiles[c]] = static_cast<std::uint8_t>(c);
  for (int t = 0; t < b.cells(); ++t) sigma_[t] = goal_.tiles[transpose_[goal_cell[t]]];
}

// cell_of_tile[0] is the blank's cell. The largest of the partitions' sums.
int PdbHeuristic::sum(const std::array<std::uint8_t, kMaxPdbCells>& cell_of_tile) const {
  std::array<int, kMaxCataloguePatterns> value{};
  std::array<std::uint8_t, kMaxPdbCells> pos{};
  auto place_tiles = [&](const Pattern& p, std::size_t first = 0) {
    for (std::size_t i = 0; i < p.tiles.size(); ++i) pos[first + i] = cell_of_tile[p.tiles[i]];
  };
  int j = 0;
  for (const auto& db : dbs_) {
    const bool multi = db->metric() == Metric::multi;  // the blank's cell first
    pos[0] = cell_of_tile[0];
    place_tiles(db->pattern(), multi ? 1 : 0);
    value[static_cast<std::size_t>(j++)] = db->value(pos.data());
  }
  for (const auto& db : zdbs_) {
    place_tiles(db->pattern());
    value[static_cast<std::size_t>(j++)] = db->value(pos.data(), cell_of_tile[0]);
  }
  int h = 0;
  for (const auto& group : groups_) {
    int s = 0;
    for (const int k : group) s += value[static_cast<std::size_t>(k)];
    h = std::max(h, s);
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
  if (zero_aware) return PdbHeuristic(goal, store.get_zero_aware(goal, partition), partition.groups);
  if (store.options().build.metric == Metric::multi) {
    std::vector<std::vector<int>> each;
    for (int j = 0; j < static_cast<int>(partition.patterns.size()); ++j) each.push_back({j});
    return PdbHeuristic(goal, store.get(goal, partition), std::move(each));
  }
  return PdbHeuristic(goal, store.get(goal, partition), partition.groups);
}

}  // namespace tilespace::pdb
