// solvable(start, goal) against brute force on small boards and known facts on 4x4.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "support.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/state.hpp"

using namespace tilespace;

namespace {

// Packed states reachable from `goal` (naive BFS with State::moved).
std::unordered_set<std::uint64_t> reachable_from(const State& goal) {
  std::unordered_set<std::uint64_t> seen;
  for (const auto& [p, d] : testing::naive_bfs(goal)) seen.insert(p);
  return seen;
}

State from_tiles(const Board& b, const std::vector<int>& t) {
  State s{b, {}, -1};
  for (int c = 0; c < b.cells(); ++c) {
    s.tiles[c] = static_cast<std::uint8_t>(t[c]);
    if (t[c] == 0) s.blank = c;
  }
  return s;
}

// Swaps the tiles on two non-blank cells.
State swap_tiles(State s, int a, int b) {
  REQUIRE(a != s.blank);
  REQUIRE(b != s.blank);
  std::swap(s.tiles[a], s.tiles[b]);
  return s;
}

// Checks solvable(start, goal) against the BFS set for every permutation as the start.
std::uint64_t check_all_starts(const State& goal, const std::unordered_set<std::uint64_t>& reach) {
  const Board& b = goal.board;
  std::vector<int> t(b.cells());
  std::iota(t.begin(), t.end(), 0);
  std::uint64_t mismatches = 0, solvable_count = 0;
  do {
    const State start = from_tiles(b, t);
    const bool want = reach.count(start.packed()) > 0;
    const bool got = solvable(start, goal);
    if (got != want) {
      if (++mismatches <= 5) {
        INFO("board " << b.name() << " start " << start.to_string() << " goal " << goal.to_string());
        CHECK(got == want);
      }
    }
    solvable_count += got;
  } while (std::next_permutation(t.begin(), t.end()));
  CHECK(mismatches == 0);
  return solvable_count;
}

// An implementation of the criterion independent of rank.hpp: the permutation that takes every
// cell's tile (blank included) to its goal cell has the parity of the blank's Manhattan distance
// to its goal cell exactly when the goal is reachable. Parity by cycle decomposition.
bool solvable_by_cycles(const State& start, const State& goal) {
  const Board& b = goal.board;
  const int n = b.cells();
  std::vector<int> goal_cell(n), to(n);
  for (int c = 0; c < n; ++c) goal_cell[goal.tiles[c]] = c;
  for (int c = 0; c < n; ++c) to[c] = goal_cell[start.tiles[c]];
  std::vector<bool> done(n, false);
  int transpositions = 0;
  for (int c = 0; c < n; ++c) {
    int len = 0;
    for (int k = c; !done[k]; k = to[k]) {
      done[k] = true;
      ++len;
    }
    if (len > 0) transpositions += len - 1;
  }
  const int blank_distance =
      std::abs(b.row(start.blank) - b.row(goal.blank)) + std::abs(b.col(start.blank) - b.col(goal.blank));
  return transpositions % 2 == blank_distance % 2;
}

struct KorfInstance {
  State start;
  int length;
};

std::vector<KorfInstance> read_korf(const std::string& file) {
  std::ifstream in(std::string(TILESPACE_TEST_DATA) + "/" + file);
  REQUIRE(in);
  std::vector<KorfInstance> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    REQUIRE(tab != std::string::npos);
    out.push_back({parse_state(line.substr(0, tab)), std::stoi(line.substr(tab + 1))});
  }
  return out;
}

}  // namespace

TEST_CASE("solvable matches brute force for every start and every goal on 2x2", "[solvable]") {
  const Board b(2, 2);
  std::vector<int> g(4);
  std::iota(g.begin(), g.end(), 0);
  int goals = 0;
  do {
    const State goal = from_tiles(b, g);
    const auto reach = reachable_from(goal);
    CHECK(reach.size() == 12);
    CHECK(check_all_starts(goal, reach) == 12);
    ++goals;
  } while (std::next_permutation(g.begin(), g.end()));
  CHECK(goals == 24);
}

TEST_CASE("solvable matches brute force for every start on 2x3 and 3x2", "[solvable]") {
  std::mt19937_64 rng(99);
  for (const Board& b : {Board(2, 3), Board(3, 2)}) {
    std::vector<State> goals;
    for (int c = 0; c < b.cells(); ++c) goals.push_back(canonical_goal(b, c));
    for (int k = 0; k < 30; ++k) goals.push_back(testing::random_state(b, rng));
    goals.push_back(parse_state("5 4 3 2 1 0", b));
    for (const State& goal : goals) {
      INFO("board " << b.name() << " goal " << goal.to_string());
      const auto reach = reachable_from(goal);
      CHECK(reach.size() == 360);
      CHECK(check_all_starts(goal, reach) == 360);
    }
  }
}

TEST_CASE("solvable matches brute force for every start on 2x4 and 4x2", "[solvable]") {
  std::mt19937_64 rng(4242);
  for (const Board& b : {Board(2, 4), Board(4, 2)}) {
    std::vector<State> goals{canonical_goal(b, 7), canonical_goal(b, 0), canonical_goal(b, 2)};
    for (int k = 0; k < 3; ++k) goals.push_back(testing::random_state(b, rng));
    for (const State& goal : goals) {
      INFO("board " << b.name() << " goal " << goal.to_string());
      const auto reach = reachable_from(goal);
      CHECK(reach.size() == 20160);
      CHECK(check_all_starts(goal, reach) == 20160);
    }
  }
}

TEST_CASE("solvable matches brute force on 3x3", "[solvable][slow]") {
  const Board b(3, 3);
  std::mt19937_64 rng(31337);
  SECTION("every start, canonical and snail goals") {
    for (const State& goal : {canonical_goal(b, 8), canonical_goal(b, 4), parse_state("1 2 3 8 0 4 7 6 5")}) {
      INFO("goal " << goal.to_string());
      const auto reach = reachable_from(goal);
      CHECK(reach.size() == 181440);
      CHECK(check_all_starts(goal, reach) == 181440);
    }
  }
  SECTION("random goals, random starts") {
    for (int k = 0; k < 4; ++k) {
      const State goal = testing::random_state(b, rng);
      INFO("goal " << goal.to_string());
      const auto reach = reachable_from(goal);
      CHECK(reach.size() == 181440);
      std::uint64_t mismatches = 0, yes = 0;
      for (int i = 0; i < 100000; ++i) {
        const State start = testing::random_state(b, rng);
        const bool want = reach.count(start.packed()) > 0;
        mismatches += solvable(start, goal) != want;
        yes += want;
      }
      CHECK(mismatches == 0);
      // Half the states are reachable: a sample of 100000 is far from all-or-nothing.
      CHECK(yes > 45000);
      CHECK(yes < 55000);
    }
  }
  SECTION("the classic example and its swap") {
    const State start = parse_state("1 3 2 4 0 5 6 7 8");
    const State snail = parse_state("1 2 3 8 0 4 7 6 5");
    const State canon = canonical_goal(b, 8);
    const auto reach_snail = reachable_from(snail);
    CHECK(solvable(start, snail) == (reach_snail.count(start.packed()) > 0));
    CHECK(solvable(start, canon) == (reachable_from(canon).count(start.packed()) > 0));
    CHECK_FALSE(solvable(swap_tiles(canon, 0, 1), canon));
    CHECK(solvable(canon, canon));
    CHECK(solvable(canon.moved(5), canon));
  }
}

TEST_CASE("solvable on larger boards: random walks and swaps", "[solvable]") {
  std::mt19937_64 rng(5);
  for (const Board& b : {Board(4, 4), Board(3, 4), Board(4, 3), Board(2, 6), Board(6, 2), Board(2, 8), Board(8, 2),
                        Board(3, 5), Board(5, 3), Board(2, 5), Board(5, 2), Board(2, 7), Board(7, 2)}) {
    INFO("board " << b.name());
    for (int k = 0; k < 50; ++k) {
      const State goal = testing::random_state(b, rng);
      const State s = testing::random_walk(goal, std::uniform_int_distribution<int>(0, 500)(rng), rng);
      INFO("goal " << goal.to_string() << " start " << s.to_string());
      CHECK(solvable(s, goal));
      CHECK(solvable(goal, s));
      // Swapping two tiles flips the parity: unsolvable either way round.
      int a = 0, c = 1;
      while (a == s.blank) ++a;
      while (c == s.blank || c == a) ++c;
      const State t = swap_tiles(s, a, c);
      CHECK_FALSE(solvable(t, goal));
      CHECK_FALSE(solvable(goal, t));
      // Two swaps restore it.
      int d = c + 1;
      while (d == s.blank) ++d;
      int e = d + 1;
      while (e == s.blank) ++e;
      if (e < b.cells()) CHECK(solvable(swap_tiles(t, d, e), goal));
    }
  }
}

TEST_CASE("15-puzzle known facts", "[solvable][korf]") {
  const Board b(4, 4);
  const State goal = parse_state("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");
  REQUIRE(goal.board == b);

  SECTION("the goal with two tiles swapped is unsolvable") {
    const State canon = canonical_goal(b, 15);
    CHECK_FALSE(solvable(swap_tiles(canon, 13, 14), canon));  // Loyd's 14-15 puzzle
    CHECK_FALSE(solvable(swap_tiles(goal, 1, 2), goal));
    CHECK_FALSE(solvable(swap_tiles(goal, 14, 15), goal));
    // Same tile order, blank moved from the top-left to the bottom-right corner: on an even width
    // every vertical move flips the order's parity, and 3 rows is odd, so it is unreachable ...
    CHECK_FALSE(solvable(canon, goal));
    CHECK_FALSE(solvable(goal, canon));
    // ... whereas on the odd-width 3x3 it is reachable, and on 4x4 moving the blank two rows is.
    CHECK(solvable(canonical_goal(Board(3, 3), 8), canonical_goal(Board(3, 3), 0)));
    CHECK(solvable(canonical_goal(b, 11), goal));
    CHECK(solvable(parse_state("1 2 3 4 5 6 7 8 0 9 10 11 12 13 14 15"), goal));
    CHECK_FALSE(solvable(parse_state("1 2 3 4 0 5 6 7 8 9 10 11 12 13 14 15"), goal));
    CHECK_FALSE(solvable(parse_state("1 2 0 3 4 5 6 7 8 9 10 11 12 13 14 15"), canon));
    // One legal move of the blank keeps it solvable.
    State g2 = goal;
    std::swap(g2.tiles[0], g2.tiles[4]);
    g2.blank = 4;  // a legal move
    CHECK(solvable(g2, goal));
  }
  SECTION("Korf's 100 instances are all solvable; with two tiles swapped, none is") {
    const auto korf = read_korf("korf100.tsv");
    REQUIRE(korf.size() == 100);
    int total = 0;
    for (const auto& k : korf) {
      INFO("instance " << k.start.to_string());
      CHECK(k.start.board == b);
      CHECK(solvable(k.start, goal));
      CHECK(solvable(goal, k.start));
      int a = 0, c = 1;
      while (a == k.start.blank) ++a;
      while (c == k.start.blank || c == a) ++c;
      CHECK_FALSE(solvable(swap_tiles(k.start, a, c), goal));
      // Optimal length parity = parity of the blank's Manhattan move count (each move moves the blank one step).
      const int dr = std::abs(b.row(k.start.blank) - b.row(goal.blank));
      const int dc = std::abs(b.col(k.start.blank) - b.col(goal.blank));
      CHECK((k.length - dr - dc) % 2 == 0);
      total += k.length;
    }
    CHECK(total == 5305);
  }
}

TEST_CASE("solvable on 5x5 and 4x5 and 5x4 against random walks and swaps and an independent criterion",
          "[solvable][5x5]") {
  std::mt19937_64 rng(25);
  for (const Board& b : {Board(5, 5), Board(4, 5), Board(5, 4), Board(3, 6), Board(6, 3), Board(2, 12), Board(12, 2)}) {
    INFO("board " << b.name());
    for (int k = 0; k < 200; ++k) {
      const State goal = testing::random_state(b, rng);
      const State s = testing::random_walk(goal, std::uniform_int_distribution<int>(0, 500)(rng), rng);
      INFO("goal " << goal.to_string() << " start " << s.to_string());
      CHECK(solvable(s, goal));
      CHECK(solvable(goal, s));
      CHECK(solvable_by_cycles(s, goal));
      // Swapping two tiles makes it unsolvable either way round.
      int a = 0, c = 1;
      while (a == s.blank) ++a;
      while (c == s.blank || c == a) ++c;
      const State t = swap_tiles(s, a, c);
      CHECK_FALSE(solvable(t, goal));
      CHECK_FALSE(solvable(goal, t));
      CHECK_FALSE(solvable_by_cycles(t, goal));
      // Uniformly random pairs: about half solvable, always as the independent criterion says.
      const State r = testing::random_state(b, rng);
      CHECK(solvable(r, goal) == solvable_by_cycles(r, goal));
    }
  }
}

TEST_CASE("solvable agrees with the independent criterion on boards up to 16 cells", "[solvable]") {
  std::mt19937_64 rng(16);
  for (const Board& b : {Board(2, 2), Board(3, 3), Board(4, 4), Board(2, 8), Board(8, 2), Board(3, 5), Board(4, 3)}) {
    INFO("board " << b.name());
    for (int k = 0; k < 500; ++k) {
      const State start = testing::random_state(b, rng), goal = testing::random_state(b, rng);
      INFO("start " << start.to_string() << " goal " << goal.to_string());
      CHECK(solvable(start, goal) == solvable_by_cycles(start, goal));
    }
  }
}

TEST_CASE("24-puzzle: Korf and Felner's 50 instances are solvable and none is with two tiles swapped",
          "[solvable][korf][5x5]") {
  const auto korf = read_korf("korf24.tsv");
  REQUIRE(korf.size() == 50);
  const State goal = canonical_goal(Board(5, 5), 0);
  for (const auto& k : korf) {
    INFO("instance " << k.start.to_string());
    REQUIRE(k.start.board == Board(5, 5));
    CHECK(solvable(k.start, goal));
    CHECK(solvable(goal, k.start));
    // The optimal length has the parity of the blank's Manhattan distance to its goal cell.
    const Board& b = goal.board;
    CHECK(k.length % 2 == (b.row(k.start.blank) + b.col(k.start.blank)) % 2);
    int a = 0, c = 1;
    while (a == k.start.blank) ++a;
    while (c == k.start.blank || c == a) ++c;
    CHECK_FALSE(solvable(swap_tiles(k.start, a, c), goal));
  }
}
