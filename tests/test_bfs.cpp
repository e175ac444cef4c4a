// bfs_distances against the published distributions (tests/data/bfs-distributions.txt) and against
// a naive breadth-first search over packed states.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <queue>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "support.hpp"
#include "tilespace/bfs.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/state.hpp"

using namespace tilespace;
using testing::Published;
using testing::published;
using testing::published_table;

namespace {

constexpr std::uint8_t kUnreached = 0xFF;


struct Run {
  BfsResult result;
  std::vector<std::uint8_t> depth;
};

Run run_bfs(const Board& b, int goal_blank, int threads = 0) {
  const Ranker r(b, goal_blank);
  Run run;
  run.depth.assign(r.size(), 0x5A);  // garbage the search must overwrite
  BfsOptions opt;
  opt.threads = threads;
  run.result = bfs_distances(r, run.depth, opt);
  return run;
}

// States at each depth, counted from the depth table itself.
std::vector<std::uint64_t> depth_histogram(const std::vector<std::uint8_t>& depth, std::uint64_t& unreached) {
  std::vector<std::uint64_t> h(256, 0);
  for (auto d : depth) ++h[d];
  unreached = h[kUnreached];
  h.resize(kUnreached);
  while (!h.empty() && h.back() == 0) h.pop_back();
  return h;
}

// The distribution of the search matches the published one, and the depth table agrees with it.
void check_published(const Board& b, int goal_blank, const std::string& pos, int threads = 0) {
  INFO("board " << b.name() << " goal blank " << goal_blank << " (" << pos << ")");
  const Published& want = published(b, pos);
  REQUIRE(want.counts.size() == static_cast<std::size_t>(want.radius) + 1);
  const Run run = run_bfs(b, goal_blank, threads);
  CHECK(run.depth.size() == want.states);
  CHECK(run.result.histogram == want.counts);
  std::uint64_t unreached = 0;
  const auto h = depth_histogram(run.depth, unreached);
  CHECK(unreached == 0);
  CHECK(h == want.counts);
  // The goal itself is at depth 0.
  const Ranker r(b, goal_blank);
  const State goal = canonical_goal(b, goal_blank);
  CHECK(run.depth[r.rank(Labelling(goal).sequence(goal), goal_blank)] == 0);
}

// Naive BFS from canonical_goal(b, goal_blank), mapped through the ranker: the expected depth table.
std::vector<std::uint8_t> naive_depths(const Board& b, int goal_blank) {
  const State goal = canonical_goal(b, goal_blank);
  const Ranker r(b, goal_blank);
  const Labelling lab(goal);
  const auto dist = testing::naive_bfs(goal);
  std::vector<std::uint8_t> depth(r.size(), kUnreached);
  for (const auto& [p, d] : dist) {
    const State s = State::unpack(b, p);
    const Sequence seq = lab.sequence(s);
    REQUIRE(r.reachable(seq, s.blank));
    const auto k = r.rank(seq, s.blank);
    REQUIRE(k < r.size());
    REQUIRE(depth[k] == kUnreached);  // distinct ranks
    depth[k] = static_cast<std::uint8_t>(d);
  }
  REQUIRE(dist.size() == r.size());
  return depth;
}

void check_against_naive(const Board& b, int goal_blank, int threads = 0) {
  INFO("board " << b.name() << " goal blank " << goal_blank << " threads " << threads);
  const auto want = naive_depths(b, goal_blank);
  const Run run = run_bfs(b, goal_blank, threads);
  REQUIRE(run.depth.size() == want.size());
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < want.size(); ++i) {
    if (run.depth[i] != want[i] && ++wrong <= 5) {
      Sequence s{};
      const int blank = Ranker(b, goal_blank).unrank(i, s);
      std::ostringstream seq;
      for (int k = 0; k < b.cells() - 1; ++k) seq << int(s[k]) << ' ';
      INFO("rank " << i << " (blank " << blank << ", sequence " << seq.str() << "): naive depth " << int(want[i])
                   << ", bfs_distances depth " << int(run.depth[i]));
      CHECK(run.depth[i] == want[i]);
    }
  }
  CHECK(wrong == 0);
  // And the histogram agrees with the naive table.
  std::uint64_t unreached = 0;
  CHECK(run.result.histogram == depth_histogram(want, unreached));
  CHECK(unreached == 0);
}

}  // namespace

TEST_CASE("the published distributions file is complete and consistent", "[bfs][data]") {
  const auto& t = published_table();
  for (const char* key : {"2x2 corner", "2x3 corner", "2x4 corner", "3x3 corner", "3x3 center", "3x3 edge",
                          "2x5 corner", "3x4 corner", "2x6 corner", "2x7 corner", "3x5 corner", "4x4 corner",
                          "4x4 edge", "4x4 center", "2x8 corner"}) {
    INFO(key);
    REQUIRE(t.count(key) == 1);
    const Published& p = t.at(key);
    const auto b = Board::parse(std::string(key).substr(0, 3));
    REQUIRE(b);
    CHECK(p.states == kFactorial[b->cells()] / 2);
    CHECK(p.counts.size() == static_cast<std::size_t>(p.radius) + 1);
    std::uint64_t sum = 0;
    for (auto c : p.counts) sum += c;
    CHECK(sum == p.states);
    CHECK(p.counts.at(0) == 1);
  }
  CHECK(t.size() == 15);
  // Spot checks of well-known values.
  CHECK(t.at("3x3 corner").radius == 31);
  CHECK(t.at("3x3 center").radius == 30);
  CHECK(t.at("4x4 corner").radius == 80);
  CHECK(t.at("4x4 corner").counts.back() == 17);
  CHECK(t.at("2x8 corner").radius == 140);
}

TEST_CASE("bfs_distances equals the published distributions on small boards", "[bfs]") {
  check_published(Board(2, 2), 3, "corner");
  check_published(Board(2, 2), 0, "corner");
  check_published(Board(2, 3), 5, "corner");
  check_published(Board(2, 3), 0, "corner");
  check_published(Board(3, 2), 5, "corner");
  check_published(Board(3, 2), 0, "corner");
  check_published(Board(2, 4), 7, "corner");
  check_published(Board(4, 2), 7, "corner");
  check_published(Board(4, 2), 0, "corner");
}

TEST_CASE("bfs_distances equals the published distributions on 3x3 for corner, edge and centre goals", "[bfs]") {
  const Board b(3, 3);
  check_published(b, 8, "corner");
  check_published(b, 0, "corner");
  check_published(b, 2, "corner");
  check_published(b, 1, "edge");
  check_published(b, 5, "edge");
  check_published(b, 4, "center");
}

TEST_CASE("bfs_distances equals the published distributions on 2x5 and 5x2", "[bfs]") {
  check_published(Board(2, 5), 9, "corner");
  check_published(Board(5, 2), 9, "corner");
  check_published(Board(5, 2), 0, "corner");
}

TEST_CASE("bfs_distances depth table equals a naive BFS on 2x3 and 3x2", "[bfs][naive]") {
  for (int c = 0; c < 6; ++c) {
    check_against_naive(Board(2, 3), c);
    check_against_naive(Board(3, 2), c);
  }
}

TEST_CASE("bfs_distances depth table equals a naive BFS on 3x3", "[bfs][naive]") {
  check_against_naive(Board(3, 3), 8);
  check_against_naive(Board(3, 3), 4);
  check_against_naive(Board(3, 3), 1);
}

TEST_CASE("bfs_distances depth table equals a naive BFS on 2x4 and 4x2", "[bfs][naive]") {
  check_against_naive(Board(2, 4), 7);
  check_against_naive(Board(2, 4), 2);
  check_against_naive(Board(4, 2), 7);
  check_against_naive(Board(4, 2), 5);
}

TEST_CASE("bfs_distances gives byte-identical results on 1 and 2 threads", "[bfs][threads]") {
  for (const auto& [b, cell] : std::vector<std::pair<Board, int>>{{Board(3, 3), 8}, {Board(3, 3), 4}, {Board(2, 5), 9}}) {
    INFO("board " << b.name() << " goal blank " << cell);
    const Run one = run_bfs(b, cell, 1);
    const Run two = run_bfs(b, cell, 2);
    CHECK(one.result.histogram == two.result.histogram);
    REQUIRE(one.depth.size() == two.depth.size());
    CHECK(std::memcmp(one.depth.data(), two.depth.data(), one.depth.size()) == 0);
    std::uint64_t unreached = 0;
    CHECK(depth_histogram(one.depth, unreached) == one.result.histogram);
    CHECK(unreached == 0);
  }
}

TEST_CASE("bfs_distances reports every layer", "[bfs]") {
  const Board b(3, 3);
  const Ranker r(b, 4);
  std::vector<std::uint8_t> depth(r.size());
  std::vector<LayerReport> layers;
  BfsOptions opt;
  opt.threads = 2;
  opt.on_layer = [&](const LayerReport& l) { layers.push_back(l); };
  const BfsResult res = bfs_distances(r, depth, opt);
  const Published& want = published(b, "center");
  CHECK(res.histogram == want.counts);
  REQUIRE(layers.size() == want.counts.size());
  std::uint64_t total = 0;
  double last = 0;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    total += want.counts[i];
    CHECK(layers[i].depth == static_cast<int>(i));
    CHECK(layers[i].states == want.counts[i]);
    CHECK(layers[i].total == total);
    CHECK(layers[i].seconds >= last);
    last = layers[i].seconds;
  }
  CHECK(res.seconds >= last);
  CHECK(bfs_work_bytes(r) == 20160 * 8 + 20160 * 8 + 2 * 315 * 8);  // words, codes, two bitmaps
}

// About 8 s and 400 MB each.
TEST_CASE("bfs_distances equals the published distribution on 3x4", "[bfs][big]") {
  check_published(Board(3, 4), 11, "corner");
}

TEST_CASE("bfs_distances equals the published distribution on 4x3", "[bfs][big]") {
  check_published(Board(4, 3), 0, "corner");
}

TEST_CASE("bfs_distances equals the published distribution on 2x6", "[bfs][big]") {
  check_published(Board(2, 6), 11, "corner");
}

TEST_CASE("bfs_distances equals the published distribution on 6x2", "[bfs][big]") {
  check_published(Board(6, 2), 0, "corner");
}
