#include "tilespace/distance_table.hpp"

#include <unistd.h>

#include <cstdio>
#include <new>

#include "tilespace/errors.hpp"

namespace tilespace {

std::uint64_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

namespace {

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
  return buf;
}

}  // namespace

DistanceTable::DistanceTable(const Ranker& ranker, std::span<const std::uint8_t> depths,
                             std::vector<std::uint64_t> histogram, std::shared_ptr<const void> storage)
    : ranker_(ranker), depths_(depths), histogram_(std::move(histogram)), storage_(std::move(storage)) {}

std::uint64_t DistanceTable::build_bytes(const Board& board) {
  const Ranker r(board, 0);  // throws InputError above kMaxCells cells
  return r.size() + bfs_work_bytes(r);
}

void DistanceTable::check_fits(const Board& board) {
  require_packed(board);
  const std::uint64_t need = build_bytes(board), have = physical_memory();
  if (have && need > have / 10 * 9)
    throw ResourceError("the " + board.name() + " table needs " + gib(need) + " of memory; this machine has " + gib(have));
}

DistanceTable DistanceTable::build(const Board& board, int goal_blank, const BfsOptions& options) {
  const Ranker ranker(board, goal_blank);
  check_fits(board);
  std::shared_ptr<std::uint8_t[]> data;
  try {
    data.reset(new std::uint8_t[ranker.size()]);
  } catch (const std::bad_alloc&) {
    throw ResourceError("cannot allocate " + gib(ranker.size()) + " for the " + board.name() + " table");
  }
  const std::span<std::uint8_t> depths(data.get(), ranker.size());
  BfsResult res = bfs_distances(ranker, depths, options);
  return DistanceTable(ranker, depths, std::move(res.histogram), std::shared_ptr<const void>(data, data.get()));
}

DistanceTable DistanceTable::from_database(LoadedDatabase db) {
  const State& g = db.info.goal;
  if (db.info.kind != kKindDistanceTable || !(g == canonical_goal(g.board, g.blank)))
    throw DataError("not a distance table for a canonical goal");
  const std::span<const std::uint8_t> payload = db.payload;
  return DistanceTable(Ranker(g.board, g.blank), payload, std::move(db.info.histogram),
                       std::shared_ptr<const void>(db.file, db.file.get()));
}

DatabaseInfo DistanceTable::info() const {
  DatabaseInfo i;
  i.kind = kKindDistanceTable;
  i.goal = goal();
  i.entries = ranker_.size();
  i.histogram = histogram_;
  return i;
}

std::vector<State> DistanceTable::descend(const State& start, const State& goal) const {
  const Labelling lab(goal);
  auto d = distance(start, lab);
  if (!d) return {};
  std::vector<State> path{start};
  State s = start;
  while (*d > 0) {
    const auto& nb = board().neighbours(s.blank);
    bool stepped = false;
    for (int i = 0; i < nb.count && !stepped; ++i) {
      const State next = s.moved(nb.cell[i]);
      const auto dn = distance(next, lab);
      if (dn && *dn == *d - 1) {
        s = next;
        d = dn;
        path.push_back(s);
        stepped = true;
      }
    }
    if (!stepped) throw DataError("table is inconsistent: no neighbour one move closer to the goal");
  }
  return path;
}

std::vector<State> DistanceTable::farthest(const State& goal, std::size_t limit) const {
  const Labelling lab(goal);
  std::array<std::uint8_t, kMaxCells> tile_of{};  // label -> tile of `goal`
  for (int t = 1; t < goal.cells(); ++t) tile_of[lab.label[t]] = static_cast<std::uint8_t>(t);
  std::vector<State> out;
  const auto top = static_cast<std::uint8_t>(radius());
  for (std::uint64_t r = 0; r < depths_.size() && out.size() < limit; ++r) {
    if (depths_[r] != top) continue;
    Sequence seq{};
    const int blank = ranker_.unrank(r, seq);
    State s{board(), {}, blank};
    int k = 0;
    for (int c = 0; c < board().cells(); ++c)
      if (c != blank) s.tiles[c] = tile_of[seq[k++]];
    out.push_back(s);
  }
  return out;
}

}  // namespace tilespace
