// The solver lab: every algorithm and heuristic against the exact distance table.
#include <catch2/catch.hpp>

#include <memory>

#include "support.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/goal_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/search/algorithms.hpp"
#include "tilespace/search/concepts.hpp"
#include "tilespace/search/heuristics.hpp"
#include "tilespace/search/lab.hpp"
#include "tilespace/search/pattern_heuristic.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/search/walking_distance.hpp"

using namespace tilespace;
using namespace tilespace::search;

namespace {

const DistanceTable& table_8(int blank) {
  static std::vector<std::unique_ptr<DistanceTable>> tables(9);
  if (!tables[blank]) tables[blank] = std::make_unique<DistanceTable>(DistanceTable::build(Board(3, 3), blank));
  return *tables[blank];
}

// The table as TableStore::goal hands it out, for its own goal blank cell.
const GoalTable& goal_8(int blank) {
  static std::vector<std::unique_ptr<GoalTable>> views(9);
  if (!views[blank]) views[blank] = std::make_unique<GoalTable>(table_8(blank), blank);
  return *views[blank];
}

void check_legal(const Result& r, const State& start, const State& goal) {
  REQUIRE(r.solved);
  REQUIRE(!r.path.empty());
  CHECK(r.path.front() == start);
  CHECK(r.path.back() == goal);
  CHECK(r.moves.size() + 1 == r.path.size());
  for (std::size_t k = 1; k < r.path.size(); ++k) {
    const auto& nb = start.board.neighbours(r.path[k - 1].blank);
    bool legal = false;
    for (int j = 0; j < nb.count; ++j) legal = legal || r.path[k - 1].moved(nb.cell[j]) == r.path[k];
    REQUIRE(legal);
  }
}

// Calls f(name, heuristic) for every heuristic of the catalog but "exact".
template <class F>
void each_heuristic(const Domain& d, F&& f) {
  f("misplaced", Misplaced(d));
  f("manhattan", Manhattan(d));
  f("linear-conflict", LinearConflict(d));
  f("inversions", Inversions(d));
  f("inversions-weighted", InversionsWeighted(d));
  f("misplaced-inversions", MisplacedInversions(d));
  f("misplaced-shared-pairs", MisplacedSharedPairs(d));
  f("index-distance", IndexDistance(d));
  f("multi-manhattan", MultiManhattan(d));
  f("walking-distance", WalkingDistance(d));
}

// Every domain and heuristic satisfies the concepts the algorithms require (concepts.hpp), on
// both domains, and the optional parts are where IDA* and Ops<H> expect them.
template <class D, template <class> class... Hs>
constexpr bool all_heuristics = (Heuristic<Hs<D>, D> && ...);
// A one-parameter name for the partition's zero-aware heuristic (its Shape defaulted): clang 14
// does not match a template with a default parameter to `template <class> class`.
template <class D>
using ZeroAware = ZeroAwareDatabases<D>;
static_assert(SearchDomain<Domain> && SearchDomain<WideDomain>);
static_assert(!SearchDomain<State> && !Heuristic<Domain, Domain>);
static_assert(all_heuristics<Domain, Misplaced, Manhattan, LinearConflict, Inversions, InversionsWeighted,
                             MisplacedInversions, MisplacedSharedPairs, IndexDistance, MultiManhattan, WalkingDistance, Exact, PatternDatabases,
                             ZeroAware, ZeroAwareCatalogue>);
static_assert(all_heuristics<WideDomain, Misplaced, Manhattan, LinearConflict, Inversions, InversionsWeighted,
                             MisplacedInversions, MisplacedSharedPairs, IndexDistance, Exact, PatternDatabases,
                             ZeroAware, ZeroAwareCatalogue>);
static_assert(UnrolledHeuristic<Manhattan<Domain>> && UnrolledHeuristic<PatternDatabases<WideDomain>>);
static_assert(!UnrolledHeuristic<Misplaced<Domain>> && !UnrolledHeuristic<LinearConflict<WideDomain>>);
static_assert(CompositeValueHeuristic<PatternDatabases<Domain>> && !CompositeValueHeuristic<Manhattan<Domain>>);
static_assert(CappedHeuristic<PatternDatabases<WideDomain>, Word128> && !CappedHeuristic<Manhattan<WideDomain>, Word128>);
static_assert(CappedHeuristic<ZeroAwareDatabases<Domain>, std::uint64_t> && UnrolledHeuristic<ZeroAwareDatabases<WideDomain>>);
static_assert(StoredValueHeuristic<ZeroAwareDatabases<WideDomain>, Word128> &&
              !StoredValueHeuristic<PatternDatabases<Domain>, std::uint64_t> &&
              !StoredValueHeuristic<Manhattan<Domain>, std::uint64_t>);
static_assert(IncrementalHeuristic<Exact<Domain>, std::uint64_t> && !CappedHeuristic<Exact<Domain>, std::uint64_t>);
static_assert(CappedHeuristic<ZeroAwareCatalogue<WideDomain>, Word128> && UnrolledHeuristic<ZeroAwareCatalogue<WideDomain>> &&
              StoredValueHeuristic<ZeroAwareCatalogue<WideDomain>, Word128>);

}  // namespace

TEST_CASE("admissible heuristics never overestimate on any 8-puzzle state and the others are caught", "[search]") {
  for (int blank : {8, 4}) {
    const DistanceTable& t = table_8(blank);
    const State goal = t.goal();
    const Domain d(goal);
    each_heuristic(d, [&](const char* name, const auto& h) {
      const HeuristicInfo* info = find_heuristic(name);
      REQUIRE(info);
      CHECK(info->admissible == std::decay_t<decltype(h)>::kAdmissible);
      std::uint64_t over = 0;
      for (std::uint64_t r = 0; r < t.ranker().size(); ++r) {
        Sequence seq{};
        const int b = t.ranker().unrank(r, seq);
        State s{goal.board, {}, b};
        int k = 0;
        for (int c = 0; c < 9; ++c)
          if (c != b) s.tiles[c] = static_cast<std::uint8_t>(seq[k++] + 1);
        if (Ops<std::decay_t<decltype(h)>>::h(h.eval(s.packed(), b)) > t.depths()[r]) ++over;
      }
      INFO(name << " goal blank " << blank);
      if (info->admissible) CHECK(over == 0);
      else CHECK(over > 0);  // the catalog must not call an inadmissible heuristic admissible
    });
  }
}

TEST_CASE("incremental heuristic updates equal a fresh evaluation", "[search]") {
  std::mt19937_64 rng(7);
  for (const Board& b : {Board(3, 3), Board(4, 4), Board(2, 5)}) {
    const State goal = canonical_goal(b, 0);
    const Domain d(goal);
    each_heuristic(d, [&](const char* name, const auto& h) {
      using O = Ops<std::decay_t<decltype(h)>>;
      State s = goal;
      auto hv = h.eval(s.packed(), s.blank);
      for (int step = 0; step < 2000; ++step) {
        const auto& nb = b.neighbours(s.blank);
        const int to = nb.cell[rng() % nb.count];
        const int tile = s.tiles[to];
        const State t = s.moved(to);
        hv = h.update(hv, t.packed(), t.blank, tile, to, s.blank);
        s = t;
        INFO(name << " on " << b.name() << " step " << step);
        REQUIRE(O::h(hv) == O::h(h.eval(s.packed(), s.blank)));
      }
    });
  }
}

TEST_CASE("every algorithm solves the classic pairs and the optimal ones optimally", "[search]") {
  const std::vector<std::pair<const char*, const char*>> pairs{
      {"2 8 3 1 0 4 7 6 5", "1 2 3 8 0 4 7 6 5"}, {"3 4 5 1 0 8 7 2 6", "1 2 3 8 0 4 7 6 5"},
      {"1 3 2 4 0 5 6 7 8", "1 2 3 8 0 4 7 6 5"}, {"7 6 5 1 0 4 2 8 3", "7 6 5 8 0 4 1 2 3"},
      {"2 4 3 7 1 6 0 5 8", "1 2 3 4 5 6 7 8 0"}, {"8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 7 8 0"}};
  for (const auto& [s, g] : pairs) {
    const State start = parse_state(s), goal = parse_state(g);
    const GoalTable& t = goal_8(goal.blank);
    const auto opt = t.distance(start, goal);
    REQUIRE(opt);
    for (const auto& alg : algorithm_catalog()) {
      for (const char* hname : {"manhattan", "linear-conflict", "misplaced", "inversions", "exact"}) {
        if (!alg.uses_heuristic && std::string(hname) != "manhattan") continue;
        SolveOptions o;
        o.algorithm = std::string(alg.name);
        o.heuristic = hname;
        o.table = &t;
        o.depth_limit = alg.name == "dfs" ? 40 : 50;
        if (alg.name == "iddfs" && *opt > 24) continue;  // exponential; covered by the sample test
        // dfs to depth 40 from the 31-move pair: 47 s of this test's 51 under ASan, so there (not in
        // Release) dfs solves the other five pairs, the same code on shorter searches.
        if (testing::kSanitized && alg.name == "dfs" && *opt > 24) continue;
        INFO(alg.name << " / " << hname << ": " << s << " -> " << g);
        const Result r = solve(start, goal, o);
        check_legal(r, start, goal);
        CHECK((r.expanded > 0 || *opt == 0 || alg.name == "table"));
        if (alg.optimal && (!alg.uses_heuristic || find_heuristic(hname)->admissible)) CHECK(r.length() == *opt);
        else CHECK(r.length() >= *opt);
      }
    }
  }
}

TEST_CASE("unreachable pairs are answered without search", "[search]") {
  const State start = parse_state("1 2 3 4 0 5 6 7 8"), goal = parse_state("1 2 3 8 0 4 7 6 5");
  REQUIRE_FALSE(solvable(start, goal));
  for (const auto& alg : algorithm_catalog()) {
    SolveOptions o;
    o.algorithm = std::string(alg.name);
    o.table = &goal_8(4);
    const Result r = solve(start, goal, o);
    CHECK(r.unreachable);
    CHECK_FALSE(r.solved);
    CHECK(r.expanded == 0);
  }
}

TEST_CASE("optimal algorithms match the table on a random sample of states", "[search]") {
  std::mt19937_64 rng(11);
  const DistanceTable& t = table_8(8);
  const State goal = t.goal();
  // 60 states; under the sanitizers, where each blind search holds a whole 8-puzzle BFS, the first 15.
  for (int i = 0; i < (testing::kSanitized ? 15 : 60); ++i) {
    State s = testing::random_state(goal.board, rng);
    if (!solvable(s, goal)) std::swap(s.tiles[s.blank == 0 ? 1 : 0], s.tiles[s.blank == 8 ? 7 : 8]);
    REQUIRE(solvable(s, goal));
    const int opt = *t.distance(s, goal);
    for (const char* a : {"bfs", "bibfs", "astar", "idastar", "iddfs"}) {
      if (std::string(a) == "iddfs" && opt > 20) continue;
      SolveOptions o;
      o.algorithm = a;
      o.heuristic = "manhattan";
      const Result r = solve(s, goal, o);
      INFO(a << " " << s.to_string());
      check_legal(r, s, goal);
      CHECK(r.length() == opt);
    }
  }
}

TEST_CASE("limits stop a search cleanly with partial statistics", "[search]") {
  const State start = parse_state("15 14 13 12 11 10 9 8 7 6 5 4 3 1 2 0");
  const State goal = canonical_goal(Board(4, 4), 15);
  REQUIRE(solvable(start, goal));
  SolveOptions o;
  o.algorithm = "bfs";
  o.limits.max_nodes = 5000;
  Result r = solve(start, goal, o);
  CHECK(r.stopped == Stop::Nodes);
  CHECK_FALSE(r.solved);
  CHECK(r.expanded == 5000);
  CHECK(r.generated > 5000);

  o.limits = {};
  o.limits.max_bytes = 1 << 20;
  r = solve(start, goal, o);
  CHECK(r.stopped == Stop::Memory);
  CHECK(r.peak_bytes <= (1u << 20));  // the limit holds, growths included (algorithms/common.hpp)
  CHECK(r.peak_bytes > (1u << 19));

  o.algorithm = "idastar";
  o.limits = {};
  o.limits.max_seconds = 0.2;
  const auto t0 = std::chrono::steady_clock::now();
  r = solve(start, goal, o);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(r.stopped == Stop::Time);
  CHECK(took < 5.0);

  o.algorithm = "dfs";
  o.limits = {};
  o.limits.max_nodes = 100000;
  r = solve(start, goal, o);
  CHECK((r.stopped == Stop::Nodes || !r.solved || r.length() >= 0));
}

TEST_CASE("every search runs on 5x5 boards through the wide domain, the table does not", "[search][5x5]") {
  using Catch::Matchers::Contains;
  const State goal = canonical_goal(Board(5, 5), 24);
  CHECK_THROWS_WITH(Domain(goal), Contains("5x5") && Contains("at most 16"));  // the packed domain
  CHECK_THROWS_AS(Domain(canonical_goal(Board(4, 5), 0)), InputError);
  const State start = goal.moved(23).moved(18).moved(17).moved(22);  // four moves away
  for (const char* algorithm : {"bfs", "bibfs", "iddfs", "idastar", "aidastar", "astar", "wastar", "greedy"}) {
    INFO(algorithm);
    SolveOptions o;
    o.algorithm = algorithm;
    o.heuristic = "linear-conflict";
    if (std::string(algorithm) == "aidastar") o.limits.max_bytes = 1 << 14;  // A* keeps ~150 nodes, then IDA*
    const Result r = solve(start, goal, o);
    REQUIRE(r.solved);
    CHECK(r.path.front() == start);
    CHECK(r.path.back() == goal);
    if (std::string(algorithm) != "wastar" && std::string(algorithm) != "greedy") CHECK(r.length() == 4);
    CHECK(Solver(Combo{algorithm, find_algorithm(algorithm)->uses_heuristic ? "manhattan" : "", {}}, goal, o).run(start).solved);
  }
  SolveOptions o;
  o.algorithm = "table";
  CHECK_THROWS_AS(solve(start, goal, o), InputError);
  o.algorithm = "astar";
  o.heuristic = "exact";
  CHECK_THROWS_AS(solve(start, goal, o), InputError);
}

TEST_CASE("bad solver names and options are input errors", "[search]") {
  const State s = parse_state("1 2 3 4 5 6 7 0 8"), g = parse_state("1 2 3 4 5 6 7 8 0");
  SolveOptions o;
  o.algorithm = "quantum";
  CHECK_THROWS_AS(solve(s, g, o), InputError);
  o.algorithm = "astar";
  o.heuristic = "psychic";
  CHECK_THROWS_AS(solve(s, g, o), InputError);
  o.heuristic = "exact";
  CHECK_THROWS_AS(solve(s, g, o), InputError);  // no table given
  o.algorithm = "wastar";
  o.heuristic = "manhattan";
  o.weight = 0.5;
  CHECK_THROWS_AS(solve(s, g, o), InputError);
}
