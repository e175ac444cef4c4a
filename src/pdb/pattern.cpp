#include <algorithm>
#include <charconv>
#include <map>

#include "tilespace/errors.hpp"
#include "tilespace/pdb/pattern.hpp"

namespace tilespace::pdb {
namespace {

// Stock partitions as blocks of cells for the goal with the blank on cell 0; a stock catalogue has
// several partitions.
// `metrics`: the metrics whose stock it is (bit 0 single-tile, bit 1 multi-tile); a multi-tile
// database holds the blank too (build.hpp), so its patterns are smaller: 4x4's 8 tiles and the
// blank would be 4.15 G placements.
struct Stock {
  int w, h;
  const char* name;
  std::vector<std::vector<std::vector<int>>> partitions;
  unsigned metrics = 1;
};
constexpr unsigned kSingle = 1, kMulti = 2;

const std::vector<Stock>& stock() {
  static const std::vector<Stock> s{
      {3, 3, "4-4", {{{1, 2, 4, 5}, {3, 6, 7, 8}}}, kSingle | kMulti},
      {4, 4, "5-5-5", {{{1, 2, 3, 6, 7}, {4, 5, 8, 9, 12}, {10, 11, 13, 14, 15}}}},
      {4, 4, "6-6-3", {{{1, 4, 5, 8, 9, 12}, {2, 3, 6, 7, 10, 11}, {13, 14, 15}}}},
      {4, 4, "7-8", {{{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}}}},
      // Multi-tile (mpdb): the top rows' and the next rows' tiles, the last tiles left to walking
      // distance and the reflection.
      {4, 4, "6-6", {{{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}}}, kMulti},
      {4, 4, "7-7", {{{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14}}}, kMulti},
      // Korf & Felner (2002): four 2x3-ish blocks around the blank's corner.
      {5, 5, "6-6-6-6", {{{1, 2, 5, 6, 7, 12}, {3, 4, 8, 9, 13, 14}, {10, 11, 15, 16, 20, 21}, {17, 18, 19, 22, 23, 24}}}},
  };
  return s;
}

// Stock catalogues. max7: seven partitions of the 24-puzzle into four 6-tile blocks, fourteen
// distinct patterns (the "small-compound" catalogue of the public clausecker/24puzzle repository,
// Clausecker & Reinefeld 2021).
const std::vector<Stock>& stock_catalogue_table() {
  static const std::vector<Stock> s{
      {5, 5, "max7",
       {{{1, 5, 6, 10, 11, 12}, {2, 3, 4, 7, 8, 9}, {13, 14, 18, 19, 23, 24}, {15, 16, 17, 20, 21, 22}},
        {{1, 2, 5, 6, 10, 11}, {3, 4, 7, 8, 9, 12}, {13, 14, 18, 19, 23, 24}, {15, 16, 17, 20, 21, 22}},
        {{1, 5, 6, 10, 11, 12}, {2, 3, 4, 7, 8, 9}, {13, 14, 15, 16, 17, 18}, {19, 20, 21, 22, 23, 24}},
        {{1, 2, 5, 6, 10, 11}, {3, 4, 7, 8, 9, 12}, {13, 14, 15, 16, 17, 18}, {19, 20, 21, 22, 23, 24}},
        {{1, 5, 6, 10, 15, 20}, {2, 3, 4, 7, 8, 9}, {11, 12, 16, 17, 21, 22}, {13, 14, 18, 19, 23, 24}},
        {{1, 2, 5, 6, 10, 11}, {3, 4, 9, 14, 19, 24}, {7, 8, 12, 13, 18, 23}, {15, 16, 17, 20, 21, 22}},
        {{1, 5, 6, 10, 15, 20}, {2, 3, 4, 7, 8, 9}, {11, 12, 13, 16, 17, 18}, {14, 19, 21, 22, 23, 24}}}},
  };
  return s;
}

const Stock* find_stock(std::string_view name) {
  for (const auto* table : {&stock(), &stock_catalogue_table()})
    for (const auto& s : *table)
      if (name == s.name) return &s;
  return nullptr;
}

std::string_view trim(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  return t;
}

std::vector<std::string_view> split(std::string_view t, char sep) {
  std::vector<std::string_view> out;
  for (;;) {
    const auto at = t.find(sep);
    out.push_back(trim(t.substr(0, at)));
    if (at == std::string_view::npos) return out;
    t.remove_prefix(at + 1);
  }
}

}  // namespace

std::string Pattern::name() const {
  std::string s;
  for (const auto t : tiles) {
    if (!s.empty()) s += ',';
    s += std::to_string(t);
  }
  return s;
}

std::vector<std::string> stock_partitions(const Board& board, Metric metric) {
  std::vector<std::string> names;
  const unsigned m = metric == Metric::multi ? kMulti : kSingle;
  for (const auto& s : stock())
    if (s.w == board.width() && s.h == board.height() && (s.metrics & m)) names.emplace_back(s.name);
  return names;
}

std::vector<std::string> stock_catalogues(const Board& board) {
  std::vector<std::string> names;
  for (const auto& s : stock_catalogue_table())
    if (s.w == board.width() && s.h == board.height()) names.emplace_back(s.name);
  return names;
}

std::vector<std::vector<int>> Partition::partitions() const {
  if (!groups.empty()) return groups;
  std::vector<int> all(patterns.size());
  for (std::size_t j = 0; j < all.size(); ++j) all[j] = static_cast<int>(j);
  return {all};
}

namespace {

// A stock partition's blocks of cells as the goal's tiles, the board mirrored so that cell 0 lands
// on the goal's blank. Throws InputError when the stock entry `s` (a partition or a catalogue,
// `what`) is for another board or the goal's blank is not in a corner.
Partition blocks(const Stock& s, const std::vector<std::vector<int>>& cells, const State& goal, const char* what) {
  const Board& b = goal.board;
  if (s.w != b.width() || s.h != b.height())
    throw InputError(std::string(what) + " " + s.name + " is for the " + std::to_string(s.w) + "x" + std::to_string(s.h) +
                     " board, not " + b.name());
  const int gr = b.row(goal.blank), gc = b.col(goal.blank);
  if ((gr != 0 && gr != b.height() - 1) || (gc != 0 && gc != b.width() - 1))
    throw InputError("stock " + std::string(what) + " " + s.name +
                     " needs the goal's blank in a corner; give the tiles instead, e.g. --heuristic pdb:1,2,3/4,5,6");
  Partition part;
  part.name = s.name;
  for (const auto& block : cells) {
    Pattern p;
    for (const int c : block) {
      const int r = gr == 0 ? b.row(c) : b.height() - 1 - b.row(c);
      const int k = gc == 0 ? b.col(c) : b.width() - 1 - b.col(c);
      p.tiles.push_back(goal.tiles[r * b.width() + k]);
    }
    part.patterns.push_back(std::move(p));
  }
  return part;
}

// One partition: a stock one, or tiles split by '/' and ','.
Partition parse_one(std::string_view spec, const State& goal) {
  const Board& b = goal.board;
  const int n = b.cells();
  Partition part;
  part.name = std::string(trim(spec));
  if (part.name.empty()) throw InputError("empty pattern: give a stock partition such as 7-8 or tiles such as 1,2,3/4,5,6");

  if (const Stock* is_stock = find_stock(part.name); is_stock && is_stock->partitions.size() == 1)
    return blocks(*is_stock, is_stock->partitions.front(), goal, "partition");

  const bool looks_stock = part.name.find_first_not_of("0123456789-") == std::string::npos &&
                           part.name.find('-') != std::string::npos;
  if (find_stock(part.name))
    throw InputError("catalogue " + part.name + " is joined with no other partition ('+' joins partitions)");
  if (looks_stock) {
    std::string known;
    for (const auto* table : {&stock(), &stock_catalogue_table()})
      for (const auto& s : *table) {
        if (!known.empty()) known += ", ";
        known += s.name;
      }
    throw InputError("unknown partition '" + part.name + "' (stock: " + known + "; or tiles such as 1,2,3/4,5,6)");
  }
  std::vector<bool> used(static_cast<std::size_t>(n), false);
  for (const auto group : split(part.name, '/')) {
    Pattern p;
    for (const auto tok : split(group, ',')) {
      int t = -1;
      const auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), t);
      if (tok.empty() || ec != std::errc{} || end != tok.data() + tok.size())
        throw InputError("bad tile '" + std::string(tok) + "' in pattern '" + part.name + "'");
      if (t <= 0 || t >= n)
        throw InputError("tile " + std::to_string(t) + " in pattern '" + part.name + "' is not a tile of the " + b.name() +
                         " board (1.." + std::to_string(n - 1) + ")");
      if (used[static_cast<std::size_t>(t)])
        throw InputError("tile " + std::to_string(t) + " appears twice in pattern '" + part.name + "'");
      used[static_cast<std::size_t>(t)] = true;
      p.tiles.push_back(static_cast<std::uint8_t>(t));
    }
    if (static_cast<int>(p.tiles.size()) > n - 2)
      throw InputError("a pattern has at most " + std::to_string(n - 2) + " tiles on the " + b.name() +
                       " board (all tiles is the distance table)");
    part.patterns.push_back(std::move(p));
  }
  return part;
}

// Several partitions as one catalogue: the distinct patterns, and each partition's among them.
Partition merge(std::string name, const std::vector<Partition>& parts) {
  Partition cat;
  cat.name = std::move(name);
  for (const auto& part : parts) {
    std::vector<int> group;
    for (const auto& p : part.patterns) {
      const auto at = std::find(cat.patterns.begin(), cat.patterns.end(), p);
      group.push_back(static_cast<int>(at - cat.patterns.begin()));
      if (at == cat.patterns.end()) cat.patterns.push_back(p);
    }
    cat.groups.push_back(std::move(group));
  }
  return cat;
}

}  // namespace

Partition parse_partition(std::string_view spec, const State& goal) {
  const std::string name(trim(spec));
  if (const Stock* s = find_stock(name); s && s->partitions.size() > 1) {
    std::vector<Partition> parts;
    for (const auto& cells : s->partitions) parts.push_back(blocks(*s, cells, goal, "catalogue"));
    return merge(name, parts);
  }
  if (name.find('+') == std::string::npos) return parse_one(name, goal);
  std::vector<Partition> parts;
  for (const auto one : split(name, '+')) {
    if (one.empty()) throw InputError("empty partition in catalogue '" + name + "' (partitions are joined by '+')");
    parts.push_back(parse_one(one, goal));
  }
  return merge(name, parts);
}

std::array<std::uint8_t, kMaxPdbCells> placement_of(const State& s, const Pattern& p) {
  std::array<std::uint8_t, kMaxPdbCells> where{};  // cell of each tile
  for (int c = 0; c < s.cells(); ++c) where[s.tiles[c]] = static_cast<std::uint8_t>(c);
  std::array<std::uint8_t, kMaxPdbCells> pos{};
  for (std::size_t i = 0; i < p.tiles.size(); ++i) pos[i] = where[p.tiles[i]];
  return pos;
}

PlacementRanker::PlacementRanker(int cells, int tiles) : n_(cells), k_(tiles), size_(1) {
  if (tiles < 1 || tiles >= cells || cells > kMaxPdbCells)
    throw std::invalid_argument("PlacementRanker: need 1 <= tiles < cells <= 32");
  for (int i = k_ - 1; i >= 0; --i) {
    reciprocal_[i] = ~std::uint64_t{0} / static_cast<std::uint64_t>(n_ - i) + 1;
    weight_[i] = size_;
    if (__builtin_mul_overflow(size_, static_cast<std::uint64_t>(n_ - i), &size_))
      throw ResourceError("a pattern of " + std::to_string(tiles) + " tiles on " + std::to_string(cells) +
                          " cells has too many placements to index");
  }
}

}  // namespace tilespace::pdb
