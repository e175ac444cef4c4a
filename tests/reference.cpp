// The naive references (reference.hpp).
#include "reference.hpp"

#include <deque>
#include <queue>
#include <stdexcept>
#include <utility>

#include "tilespace/rank.hpp"

namespace testing {

using namespace tilespace;

std::unordered_map<std::uint64_t, int> naive_bfs(const tilespace::State& goal, tilespace::Metric metric, int max_depth) {
  // A multi-tile move is k single moves in one direction, made one cell at a time here.
  std::unordered_map<std::uint64_t, int> dist{{goal.packed(), 0}};
  std::queue<tilespace::State> q;
  q.push(goal);
  const int most = metric == tilespace::Metric::multi ? goal.board.cells() : 1;
  while (!q.empty()) {
    const tilespace::State s = q.front();
    q.pop();
    const int d = dist[s.packed()];
    if (d >= max_depth) continue;
    for (const tilespace::Dir dir : {tilespace::Dir::Up, tilespace::Dir::Down, tilespace::Dir::Left, tilespace::Dir::Right}) {
      tilespace::State t = s;
      for (int k = 0; k < most; ++k) {
        const int to = s.board.step(t.blank, dir);
        if (to < 0) break;
        t = t.moved(to);
        if (dist.emplace(t.packed(), d + 1).second) q.push(t);
      }
    }
  }
  return dist;
}

std::map<std::vector<int>, int> naive_pattern_costs(const tilespace::State& goal, const std::vector<std::uint8_t>& tiles) {
  const tilespace::Board& b = goal.board;
  using Key = std::vector<int>;  // pattern cells..., blank cell
  std::map<Key, int> cost;
  std::deque<std::pair<Key, int>> q;
  Key start;
  for (const auto t : tiles)
    for (int c = 0; c < b.cells(); ++c)
      if (goal.tiles[c] == t) start.push_back(c);
  start.push_back(goal.blank);
  q.push_back({start, 0});
  while (!q.empty()) {
    auto [k, d] = q.front();
    q.pop_front();
    if (cost.count(k)) continue;
    cost[k] = d;
    const int blank = k.back();
    const auto& nb = b.neighbours(blank);
    for (int m = 0; m < nb.count; ++m) {
      const int to = nb.cell[m];
      Key next = k;
      next.back() = to;
      int moved = 0;
      for (std::size_t i = 0; i + 1 < k.size(); ++i)
        if (k[i] == to) {
          next[i] = blank;
          moved = 1;
        }
      if (cost.count(next)) continue;
      if (moved) q.push_back({next, d + 1});
      else q.push_front({next, d});
    }
  }
  return cost;
}

std::vector<std::uint8_t> naive_depths(const Board& b, int goal_blank, Metric metric) {
  const State goal = canonical_goal(b, goal_blank);
  const Ranker r(b, goal_blank);
  const Labelling lab(goal);
  const auto dist = naive_bfs(goal, metric);
  std::vector<std::uint8_t> depth(r.size(), 0xFF);
  for (const auto& [p, d] : dist) {
    const State s = State::unpack(b, p);
    const Sequence seq = lab.sequence(s);
    if (!r.reachable(seq, s.blank)) throw std::logic_error("naive_depths: a reached state the ranker calls unreachable");
    const auto k = r.rank(seq, s.blank);
    if (k >= r.size()) throw std::logic_error("naive_depths: a rank past the ranker's size");
    if (depth[k] != 0xFF) throw std::logic_error("naive_depths: two states of one rank");
    depth[k] = static_cast<std::uint8_t>(d);
  }
  if (dist.size() != r.size()) throw std::logic_error("naive_depths: the ranker counts states the BFS did not reach");
  return depth;
}

std::map<std::vector<int>, int> naive_multi_pattern(const State& goal, const std::vector<std::uint8_t>& tiles) {
  const Board& b = goal.board;
  std::vector<int> start{goal.blank};
  for (const auto t : tiles)
    for (int c = 0; c < goal.cells(); ++c)
      if (goal.tiles[c] == t) start.push_back(c);
  std::map<std::vector<int>, int> dist{{start, 0}};
  std::deque<std::vector<int>> queue{start};
  while (!queue.empty()) {
    const std::vector<int> s = queue.front();
    queue.pop_front();
    const int r0 = b.row(s[0]), c0 = b.col(s[0]);
    for (const auto& [dr, dc] : {std::pair{-1, 0}, std::pair{1, 0}, std::pair{0, -1}, std::pair{0, 1}})
      for (int k = 1;; ++k) {
        const int r = r0 + k * dr, c = c0 + k * dc;
        if (r < 0 || r >= b.height() || c < 0 || c >= b.width()) break;
        std::vector<int> n = s;
        for (std::size_t i = 1; i < n.size(); ++i)
          for (int j = 1; j <= k; ++j)
            if (n[i] == (r0 + j * dr) * b.width() + c0 + j * dc) n[i] = (r0 + (j - 1) * dr) * b.width() + c0 + (j - 1) * dc;
        n[0] = r * b.width() + c;
        if (dist.emplace(n, dist[s] + 1).second) queue.push_back(n);
      }
  }
  return dist;
}

}  // namespace testing
