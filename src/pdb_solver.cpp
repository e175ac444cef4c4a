#include "tilespace/pdb/solver.hpp"

#include <algorithm>
#include <climits>

#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"

namespace tilespace::pdb {

PdbHeuristic::PdbHeuristic(const State& goal, std::vector<std::shared_ptr<const PatternDatabase>> databases)
    : goal_(goal), dbs_(std::move(databases)) {
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

namespace {

constexpr int kFound = -1, kStopped = -2;

// One IDA* run: the state, the placement and value of every pattern (direct and reflected), the
// path as blank cells.
class Search {
 public:
  Search(const State& start, const PdbHeuristic& h, const search::Limits& limits, search::Result& r)
      : h_(h), board_(start.board), goal_(h.goal()), n_(start.cells()), blank_(start.blank), budget_(limits), r_(r) {
    for (int c = 0; c < n_; ++c) tiles_[c] = start.tiles[c];
    const auto& dbs = h.databases();
    parts_.resize(dbs.size());
    mirror_.resize(dbs.size());
    for (int c = 0; c < n_; ++c) {
      const int t = tiles_[c];
      if (const auto s = h.slot(t); s.pattern >= 0) parts_[s.pattern].cells[s.index] = static_cast<std::uint8_t>(c);
      if (const auto s = h.slot(h.mirror_tile(t)); s.pattern >= 0)
        mirror_[s.pattern].cells[s.index] = static_cast<std::uint8_t>(h.mirror_cell(c));
    }
    for (std::size_t j = 0; j < dbs.size(); ++j) {
      parts_[j].db = mirror_[j].db = dbs[j].get();
      parts_[j].value = dbs[j]->value(parts_[j].cells.data());
      mirror_[j].value = dbs[j]->value(mirror_[j].cells.data());
      sum_ += parts_[j].value;
      mirror_sum_ += mirror_[j].value;
    }
    path_.reserve(256);
  }

  void run() {
    for (int bound = h();;) {
      const int t = dfs(0, bound, -1);
      if (t == kFound) {
        r_.solved = true;
        return;
      }
      if (t == kStopped || t == INT_MAX) return;
      bound = t;
    }
  }
  const std::vector<std::uint8_t>& path() const { return path_; }

 private:
  struct Part {
    const PatternDatabase* db = nullptr;
    std::array<std::uint8_t, kMaxPdbCells> cells{};
    int value = 0;
  };

  int h() const noexcept { return h_.reflects() ? std::max(sum_, mirror_sum_) : sum_; }

  bool at_goal() const noexcept {
    for (int c = 0; c < n_; ++c)
      if (tiles_[c] != goal_.tiles[c]) return false;
    return true;
  }

  // Moves `tile` of `part` (at slot `index`) to `cell`; returns its old value.
  static int place(Part& part, int index, int cell, int& sum) noexcept {
    const int old = part.value;
    part.cells[index] = static_cast<std::uint8_t>(cell);
    part.value = part.db->value(part.cells.data());
    sum += part.value - old;
    return old;
  }

  int dfs(int g, int bound, int previous) {
    const int f = g + h();
    if (f > bound) return f;
    if (h() == 0 && at_goal()) return kFound;
    ++r_.expanded;
    if (!budget_.step(r_, path_.capacity())) return kStopped;
    int next = INT_MAX;
    const int from = blank_;
    const auto& nb = board_.neighbours(from);
    for (int m = 0; m < nb.count; ++m) {
      const int to = nb.cell[m];
      if (to == previous) continue;
      ++r_.generated;
      const int tile = tiles_[to];
      tiles_[from] = static_cast<std::uint8_t>(tile);
      tiles_[to] = 0;
      blank_ = to;
      const auto s = h_.slot(tile);
      const auto ms = h_.slot(h_.mirror_tile(tile));
      int old = 0, mirror_old = 0;
      if (s.pattern >= 0) old = place(parts_[s.pattern], s.index, from, sum_);
      if (ms.pattern >= 0) mirror_old = place(mirror_[ms.pattern], ms.index, h_.mirror_cell(from), mirror_sum_);
      path_.push_back(static_cast<std::uint8_t>(to));

      const int t = dfs(g + 1, bound, from);
      if (t == kFound) return kFound;

      path_.pop_back();
      if (ms.pattern >= 0) {
        Part& p = mirror_[ms.pattern];
        p.cells[ms.index] = static_cast<std::uint8_t>(h_.mirror_cell(to));
        mirror_sum_ += mirror_old - p.value;
        p.value = mirror_old;
      }
      if (s.pattern >= 0) {
        Part& p = parts_[s.pattern];
        p.cells[s.index] = static_cast<std::uint8_t>(to);
        sum_ += old - p.value;
        p.value = old;
      }
      tiles_[to] = static_cast<std::uint8_t>(tile);
      tiles_[from] = 0;
      blank_ = from;
      if (t == kStopped) return kStopped;
      next = std::min(next, t);
    }
    return next;
  }

  const PdbHeuristic& h_;
  const Board& board_;
  const State& goal_;
  int n_, blank_;
  std::array<std::uint8_t, kMaxPdbCells> tiles_{};
  std::vector<Part> parts_, mirror_;
  int sum_ = 0, mirror_sum_ = 0;
  std::vector<std::uint8_t> path_;  // blank cells after each move
  search::Budget budget_;
  search::Result& r_;
};

}  // namespace

search::Result solve_idastar(const State& start, const PdbHeuristic& h, const search::Limits& limits) {
  search::Result r;
  const auto t0 = std::chrono::steady_clock::now();
  if (!(start.board == h.goal().board)) throw InputError("the start and the goal are on different boards");
  if (!solvable(start, h.goal())) {
    r.unreachable = true;
    return r;
  }
  Search s(start, h, limits, r);
  s.run();
  if (r.solved) {
    r.path.push_back(start);
    for (const auto cell : s.path()) r.path.push_back(r.path.back().moved(cell));
    search::fill_moves(r);
  }
  r.peak_bytes = std::max<std::uint64_t>(r.peak_bytes, s.path().capacity());
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace tilespace::pdb
