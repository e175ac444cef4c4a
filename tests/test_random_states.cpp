// RandomStates (random_states.hpp): every drawn state reachable from its goal (canonical or not,
// up to 5x5 without a table), reproducible by seed, uniform (chi-square with fixed seeds, so never
// flaky) over the reachable states and over the states at one depth — by rejection and from the
// collected ranks, on byte and two-bit tables — and the depth errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "support.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/goal_table.hpp"
#include "tilespace/random_states.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/state.hpp"

using namespace tilespace;
using Catch::Matchers::Contains;

namespace {

// A goal with the blank on `blank` and the other tiles shuffled (served by the same table).
State shuffled_goal(const Board& b, int blank, std::uint64_t seed) {
  State g = canonical_goal(b, blank);
  std::vector<std::uint8_t> tiles;
  for (int c = 0; c < b.cells(); ++c)
    if (c != blank) tiles.push_back(g.tiles[c]);
  std::mt19937_64 rng(seed);
  std::shuffle(tiles.begin(), tiles.end(), rng);
  for (int c = 0, k = 0; c < b.cells(); ++c)
    if (c != blank) g.tiles[c] = tiles[k++];
  return g;
}

bool is_permutation_of_tiles(const State& s) {
  std::vector<int> seen(s.cells(), 0);
  for (int c = 0; c < s.cells(); ++c) ++seen[s.tiles[c]];
  return std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }) && s.tiles[s.blank] == 0;
}

// Counts of each state (by packed word) over `draws` draws.
std::map<std::uint64_t, std::uint64_t> tally(RandomStates& gen, std::uint64_t draws) {
  std::map<std::uint64_t, std::uint64_t> counts;
  for (std::uint64_t i = 0; i < draws; ++i) ++counts[gen.next().packed()];
  return counts;
}

// Pearson's statistic against the uniform distribution over `states` outcomes, and a check that
// it lies within 6 standard deviations (sqrt(2 df)) of its mean df = states - 1.
void check_uniform(const std::map<std::uint64_t, std::uint64_t>& counts, std::uint64_t draws, std::uint64_t states) {
  REQUIRE(counts.size() == states);  // every state drawn
  const double expected = static_cast<double>(draws) / static_cast<double>(states);
  double chi2 = 0;
  for (const auto& [key, n] : counts) {
    const double diff = static_cast<double>(n) - expected;
    chi2 += diff * diff / expected;
  }
  const double df = static_cast<double>(states - 1), sd = std::sqrt(2 * df);
  INFO("chi-square " << chi2 << " with " << df << " degrees of freedom");
  CHECK(chi2 < df + 6 * sd);
  CHECK(chi2 > df - 6 * sd);
}

template <class F>
InputError input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError");
  return InputError("");
}

void check_depth_error(const InputError& e, const std::string& words) {
  CHECK(e.about == InputError::About::option);
  CHECK(e.name == "depth");
  CHECK_THAT(e.what(), Contains("--depth: ") && Contains(words));
}

}  // namespace

TEST_CASE("random states without a depth are reachable from any goal, up to 5x5", "[random]") {
  const std::vector<State> goals = {
      canonical_goal(Board(3, 3), 8), shuffled_goal(Board(3, 3), 4, 1), shuffled_goal(Board(2, 4), 5, 2),
      canonical_goal(Board(4, 4), 0), shuffled_goal(Board(5, 5), 12, 3), canonical_goal(Board(5, 4), 19),
  };
  for (const State& goal : goals) {
    INFO("goal " << goal.to_string());
    RandomStates gen(goal, {}, nullptr);
    std::set<int> blanks;
    for (int i = 0; i < 3000; ++i) {
      const State s = gen.next();
      REQUIRE(s.board == goal.board);
      REQUIRE(is_permutation_of_tiles(s));
      REQUIRE(solvable(s, goal));
      blanks.insert(s.blank);
    }
    CHECK(blanks.size() == static_cast<std::size_t>(goal.cells()));
  }
  // Cross-checked with a table: the goal with its blank in the middle, tiles shuffled.
  const DistanceTable table = DistanceTable::build(Board(3, 3), 4);
  const GoalTable view(table, 4);
  const State goal = shuffled_goal(Board(3, 3), 4, 7);
  RandomStates gen(goal, {}, &view);  // a table without a depth is ignored
  for (int i = 0; i < 3000; ++i) REQUIRE(table.distance(gen.next(), goal).has_value());
}

TEST_CASE("random states: the same seed gives the same states, another seed others", "[random]") {
  const DistanceTable table = DistanceTable::build(Board(3, 3), 8);
  const GoalTable view(table, 8);
  const State goal = canonical_goal(Board(3, 3), 8);
  for (const std::optional<int> depth : {std::optional<int>{}, std::optional<int>{20}, std::optional<int>{5}}) {
    INFO("depth " << depth.value_or(-1));
    const auto draw = [&](std::uint64_t seed) {
      RandomStates gen(goal, {depth, seed}, &view);
      std::vector<std::uint64_t> out;
      for (int i = 0; i < 50; ++i) out.push_back(gen.next().packed());
      return out;
    };
    CHECK(draw(42) == draw(42));
    CHECK(draw(42) != draw(43));
  }
  CHECK(random_seed() != random_seed());
}

TEST_CASE("random states are uniform over the reachable states (2x3, chi-square)", "[random]") {
  const State goal = shuffled_goal(Board(2, 3), 2, 5);
  const auto reachable = testing::naive_bfs(goal);
  REQUIRE(reachable.size() == 360);
  RandomStates gen(goal, {std::nullopt, 2026}, nullptr);
  const auto counts = tally(gen, 360'000);
  for (const auto& [key, n] : counts) REQUIRE(reachable.count(key) == 1);
  check_uniform(counts, 360'000, 360);
}

TEST_CASE("random states at a depth on a byte table: exact distance, uniform, the radius", "[random]") {
  const Board b(3, 3);
  for (const int blank : {8, 4}) {
    const DistanceTable table = DistanceTable::build(b, blank);
    const GoalTable view(table, blank);
    const State goal = blank == 8 ? canonical_goal(b, 8) : shuffled_goal(b, 4, 11);
    INFO("goal " << goal.to_string() << ", radius " << table.radius());
    // Corner goal: 0..7 and the radius are rarer than 1 in 1000 of their parity's ranks (collected),
    // 8 and up sampled by rejection; center goal: 0..7 collected, the rest (radius too) rejection.
    for (const int depth : {0, 1, 3, 7, 8, 15, 20, 22, table.radius() - 1, table.radius()}) {
      INFO("depth " << depth);
      RandomStates gen(goal, {depth, 9}, &view);
      std::set<std::uint64_t> seen;
      for (int i = 0; i < 300; ++i) {
        const State s = gen.next();
        REQUIRE(table.distance(s, goal) == depth);
        seen.insert(s.packed());
      }
      if (table.histogram()[depth] <= 4) CHECK(seen.size() == table.histogram()[depth]);  // all of them
    }
  }
  const DistanceTable table = DistanceTable::build(b, 8);
  const GoalTable view(table, 8);
  REQUIRE(table.radius() == 31);
  REQUIRE(table.histogram()[31] == 2);
  RandomStates radius(canonical_goal(b, 8), {31, 1}, &view);
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 200; ++i) seen.insert(radius.next().packed());
  CHECK(seen.size() == 2);

  SECTION("uniform among the collected ranks (3x3, depth 7)") {
    const std::uint64_t n = table.histogram()[7];
    RandomStates gen(canonical_goal(b, 8), {7, 3}, &view);
    check_uniform(tally(gen, n * 1000), n * 1000, n);
  }
  SECTION("uniform by rejection (2x4, a shuffled goal)") {
    const DistanceTable t24 = DistanceTable::build(Board(2, 4), 3);
    const GoalTable v24(t24, 3);
    const State goal = shuffled_goal(Board(2, 4), 3, 13);
    const int depth = 20;
    const std::uint64_t n = t24.histogram()[depth];
    REQUIRE(n * RandomStates::kMaxExpectedTries >= t24.ranker().size() / 2);  // rejection
    RandomStates gen(goal, {depth, 4}, &v24);
    const auto counts = tally(gen, n * 200);
    for (const auto& [key, k] : counts) REQUIRE(t24.distance(State::unpack(goal.board, key), goal) == depth);
    check_uniform(counts, n * 200, n);
  }
}

TEST_CASE("random states at a depth: errors before drawing", "[random]") {
  const Board b(3, 3);
  const DistanceTable table = DistanceTable::build(b, 8);
  const GoalTable view(table, 8), corner(table, 0);
  const State goal = canonical_goal(b, 8);
  check_depth_error(input_error_of([&] { RandomStates(goal, {40, 0}, &view); }),
                    "no state is 40 moves from this goal: the radius is 31");
  check_depth_error(input_error_of([&] { RandomStates(goal, {-1, 0}, &view); }), "at least 0");
  check_depth_error(input_error_of([&] { RandomStates(goal, {5, 0}, nullptr); }), "distance table");
  check_depth_error(input_error_of([&] { RandomStates(canonical_goal(Board(5, 5), 24), {5, 0}, nullptr); }),
                    "distance table");
  CHECK_THROWS_AS((RandomStates(canonical_goal(b, 4), {5, 0}, &view)), std::invalid_argument);  // another blank
  CHECK_THROWS_AS((RandomStates(canonical_goal(b, 8), {5, 0}, &corner)), std::invalid_argument);
}

TEST_CASE("random states at a depth on a two-bit table: rejection, the listed radius, rare depths refused",
          "[random]") {
  const Board b(3, 3);
  const DistanceTable bytes = DistanceTable::build(b, 1);  // an edge: 2 states at the radius 31
  const DistanceTable two_table = DistanceTable::build_two_bit(b, 1, {});
  REQUIRE(two_table.bits() == 2);
  const GoalTable two(two_table, 1), bytes_view(bytes, 1);
  const State goal = shuffled_goal(b, 1, 17);

  // A common depth: every state at it, and the same states as from the byte table (the same tries).
  RandomStates from_two(goal, {20, 8}, &two), from_bytes(goal, {20, 8}, &bytes_view);
  for (int i = 0; i < 300; ++i) {
    const State s = from_two.next();
    REQUIRE(bytes.distance(s, goal) == 20);
    REQUIRE(s == from_bytes.next());
  }

  // The radius is listed (at most kFarthestKept states): all of them drawn.
  const int radius = two.radius();
  const std::uint64_t at_radius = two.histogram()[radius];
  REQUIRE(at_radius * RandomStates::kMaxExpectedTries < two.states() / 2);  // too rare for rejection
  RandomStates far(goal, {radius, 2}, &two);
  std::set<std::uint64_t> seen;
  for (int i = 0; i < 400; ++i) {
    const State s = far.next();
    REQUIRE(bytes.distance(s, goal) == radius);
    seen.insert(s.packed());
  }
  CHECK(seen.size() == at_radius);

  // A rare depth that is not the radius: refused, saying why.
  const InputError e = input_error_of([&] { RandomStates(goal, {3, 0}, &two); });
  check_depth_error(e, "too rare to sample on a two-bit table");
  CHECK_NOTHROW(RandomStates(goal, {3, 0}, &bytes_view));  // a byte table collects them
}

// Found by fuzzing (tests/fuzz/fuzz_table): a table whose histogram does not match its depths (a
// file that lies behind valid checksums) made rejection sampling loop forever, drawing ranks for a
// depth the table does not hold. Now it gives up after kMaxTries draws with a DataError.
TEST_CASE("random states at a depth the histogram promises but the table does not hold: DataError", "[random]") {
  const Board b(3, 3);
  const DistanceTable t = DistanceTable::build(b, 8);
  const int d = 10;
  REQUIRE(t.histogram()[d] * RandomStates::kMaxExpectedTries >= t.ranker().size() / 2);  // rejection sampling
  // The depths of the states at depth d changed to d + 2, the histogram kept.
  auto depths = std::make_shared<std::vector<std::uint8_t>>(t.depths().begin(), t.depths().end());
  for (auto& v : *depths)
    if (v == d) v = d + 2;
  const DistanceTable lying_table(t.ranker(), *depths, t.histogram(), depths);
  const GoalTable lying(lying_table, 8);
  RandomOptions o;
  o.seed = 7;
  o.depth = d;
  RandomStates rs(t.goal(), o, &lying);
  CHECK_THROWS_WITH(rs.next(), Contains("histogram does not match") && Contains("depth 10"));
  // Another depth is still drawn from.
  o.depth = d + 2;
  RandomStates other(t.goal(), o, &lying);
  CHECK(lying.distance(other.next(), t.goal()) == d + 2);
}
