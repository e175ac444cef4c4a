// Arbitrary goals: the table of the goal's blank cell, relabelled, against a direct BFS from that goal.
#include <catch2/catch.hpp>

#include "support.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/rank.hpp"

using namespace tilespace;

namespace {

void check_goal(const State& goal, const DistanceTable& table, std::mt19937_64& rng, int samples) {
  const auto truth = testing::naive_bfs(goal);
  int reachable = 0;
  for (int i = 0; i < samples; ++i) {
    const State s = testing::random_state(goal.board, rng);
    const auto d = table.distance(s, goal);
    const auto it = truth.find(s.packed());
    INFO("goal " << goal.to_string() << " start " << s.to_string());
    CHECK(solvable(s, goal) == (it != truth.end()));
    if (it == truth.end()) {
      CHECK_FALSE(d.has_value());
      CHECK(table.descend(s, goal).empty());
      continue;
    }
    ++reachable;
    REQUIRE(d.has_value());
    CHECK(*d == it->second);
    // One optimal path by descent: legal single moves, right length, ends at the goal.
    const auto path = table.descend(s, goal);
    REQUIRE(path.size() == static_cast<std::size_t>(*d) + 1);
    CHECK(path.front() == s);
    CHECK(path.back() == goal);
    for (std::size_t k = 1; k < path.size(); ++k) {
      const auto& nb = goal.board.neighbours(path[k - 1].blank);
      bool legal = false;
      for (int j = 0; j < nb.count; ++j) legal = legal || path[k - 1].moved(nb.cell[j]) == path[k];
      CHECK(legal);
    }
  }
  CHECK(reachable > samples / 4);  // random permutations: about half are reachable
}

}  // namespace

TEST_CASE("distances to arbitrary goals equal a direct BFS from that goal", "[goals]") {
  std::mt19937_64 rng(20261201);
  for (const Board& b : {Board(3, 3), Board(4, 2), Board(2, 3)}) {
    std::vector<std::unique_ptr<DistanceTable>> tables(static_cast<std::size_t>(b.cells()));
    auto table = [&](int blank) -> const DistanceTable& {  // built on first use
      auto& t = tables[static_cast<std::size_t>(blank)];
      if (!t) t = std::make_unique<DistanceTable>(DistanceTable::build(b, blank));
      return *t;
    };
    // 12 random goals a board; under the sanitizers 4 on 3x3, where each goal's reference BFS
    // (181,440 states in a hash map) takes seconds.
    const int goals = testing::kSanitized && b == Board(3, 3) ? 4 : 12;
    for (int k = 0; k < goals; ++k) {
      const State goal = testing::random_state(b, rng);
      check_goal(goal, table(goal.blank), rng, 300);
    }
    // The classic goal of the course assignment: the blank in the centre, tiles around it.
    if (b == Board(3, 3)) check_goal(parse_state("1 2 3 8 0 4 7 6 5"), table(4), rng, 500);
  }
}

TEST_CASE("classic 8-puzzle pairs have their known optimal lengths", "[goals]") {
  const Board b(3, 3);
  std::vector<std::unique_ptr<DistanceTable>> tables;
  for (int c = 0; c < 9; ++c) tables.push_back(std::make_unique<DistanceTable>(DistanceTable::build(b, c)));
  auto dist = [&](const char* s, const char* g) {
    const State goal = parse_state(g);
    return tables[goal.blank]->distance(parse_state(s), goal);
  };
  // Lengths confirmed by the independent naive BFS in the test above's helper.
  for (auto [s, g] : {std::pair{"2 8 3 1 0 4 7 6 5", "1 2 3 8 0 4 7 6 5"}, {"3 4 5 1 0 8 7 2 6", "1 2 3 8 0 4 7 6 5"},
                      {"1 3 2 4 0 5 6 7 8", "1 2 3 8 0 4 7 6 5"}, {"7 6 5 1 0 4 2 8 3", "7 6 5 8 0 4 1 2 3"},
                      {"2 4 3 7 1 6 0 5 8", "1 2 3 4 5 6 7 8 0"}, {"8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 7 8 0"}}) {
    const auto truth = testing::naive_bfs(parse_state(g));
    const auto it = truth.find(parse_state(s).packed());
    REQUIRE(it != truth.end());
    CHECK(dist(s, g) == it->second);
  }
  CHECK(dist("2 8 3 1 0 4 7 6 5", "1 2 3 8 0 4 7 6 5") == 4);
  CHECK(dist("2 4 3 7 1 6 0 5 8", "1 2 3 4 5 6 7 8 0") == 8);
  CHECK(dist("8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 7 8 0") == 31);  // one of the two hardest
  CHECK_FALSE(dist("1 2 3 4 0 5 6 7 8", "1 2 3 8 0 4 7 6 5").has_value());
}
