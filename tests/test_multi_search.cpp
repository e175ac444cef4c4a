// Optimal search in the multi-tile metric (--metric multi): every solver that takes the metric
// against the exact multi-tile table (itself checked against a naive BFS and the published radii
// in test_bfs.cpp), on every 3x3 state and on random 3x4 states; the answers' moves replayed by
// `check`'s own reader; multi-manhattan admissible and consistent; the move notation both ways.
#include <catch2/catch.hpp>

#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>

#include "support.hpp"
#include "tilespace/check.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/goal_table.hpp"
#include "tilespace/pdb/database.hpp"
#include "tilespace/pdb/heuristic.hpp"
#include "tilespace/search/pattern_heuristic.hpp"
#include "tilespace/search/heuristics.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/search/walking_distance.hpp"

using namespace tilespace;
using namespace tilespace::search;

namespace {

// The multi-tile byte table, from the tests' cache for the 12-cell boards (built once, read by
// several tests: support.hpp).
DistanceTable multi_table(const Board& b, int blank) {
  if (b.cells() >= 12) return testing::cached_table(b, blank, Metric::multi);
  BfsOptions o;
  o.metric = Metric::multi;
  o.threads = 2;
  return DistanceTable::build(b, blank, o);
}

// r is a legal multi-tile path from start to goal, and its move text, read back by check's
// parser and replayed, takes start to goal in as many multi-tile moves.
void check_multi_path(const Result& r, const State& start, const State& goal) {
  REQUIRE(r.solved);
  REQUIRE(r.metric == Metric::multi);
  CHECK(r.path.front() == start);
  CHECK(r.path.back() == goal);
  const Board& b = start.board;
  for (std::size_t k = 1; k < r.path.size(); ++k) {
    const State& a = r.path[k - 1];
    const int to = r.path[k].blank;
    REQUIRE((b.row(to) == b.row(a.blank) || b.col(to) == b.col(a.blank)));
    REQUIRE(to != a.blank);
    REQUIRE(a.slid(to) == r.path[k]);
  }
  const Answer ans = parse_answer(r.moves);
  REQUIRE(ans.moves.size() == r.path.size() - 1);
  CHECK(tilespace::detail::answered_length(ans, Metric::multi) == r.length());
  const Replay rep = replay_moves(start, ans.moves, ans.cells);
  CHECK(rep.step == 0);
  CHECK(rep.end == goal);
}

State nth_state(const DistanceTable& t, std::uint64_t r) {
  const State goal = t.goal();
  Sequence seq{};
  const int b = t.ranker().unrank(r, seq);
  State s{goal.board, {}, b};
  int k = 0;
  for (int c = 0; c < goal.cells(); ++c)
    if (c != b) s.tiles[c] = static_cast<std::uint8_t>(seq[k++] + 1);  // the canonical goal: label + 1
  return s;
}

}  // namespace

TEST_CASE("the move notation: path_moves writes both metrics, check reads them, slid slides the line", "[multi][search]") {
  const State goal = canonical_goal(Board(3, 3), 8);  // 1 2 3 / 4 5 6 / 7 8 .
  const State a = goal.slid(6);                        // L2: 1 2 3 / 4 5 6 / . 7 8
  CHECK(a.to_string() == "1 2 3 4 5 6 0 7 8");
  const State b = a.slid(0);  // U2
  CHECK(b.to_string() == "0 2 3 1 5 6 4 7 8");
  CHECK(b.slid(1) == b.moved(1));
  const std::vector<State> path{goal, a, b, b.slid(1)};
  CHECK(path_moves(path, Metric::multi) == "L2 U2 R");
  CHECK(path_moves(path, Metric::single) == "LLUUR");
  for (const char* text : {"L2 U2 R", "L2U2R", "l2,u2,r", "LLUUR"}) {
    const Answer ans = parse_answer(text);
    const Replay rep = replay_moves(goal, ans.moves, ans.cells);
    INFO(text);
    CHECK(rep.step == 0);
    CHECK(rep.end == path.back());
    CHECK(tilespace::detail::answered_length(ans, Metric::single) == 5);
  }
  CHECK(tilespace::detail::answered_length(parse_answer("L2 U2 R"), Metric::multi) == 3);
  CHECK(tilespace::detail::answered_length(parse_answer("LLUUR"), Metric::multi) == 5);
  const Replay off = replay_moves(goal, parse_answer("L2 U3").moves, parse_answer("L2 U3").cells);
  CHECK(off.step == 2);
  CHECK(off.move == 'U');
  CHECK(off.cells == 3);
  CHECK(off.end == a);
  CHECK_THROWS_WITH(parse_answer("R0"), Catch::Contains("count of move 1") && Catch::Contains("1 to 99"));
  CHECK_THROWS_WITH(parse_answer("U R100"), Catch::Contains("count of move 2"));
  CHECK_THROWS_WITH(parse_answer("U X"), Catch::Contains("'X' (character 3) is not a move"));
}

TEST_CASE("multi-manhattan is admissible and consistent in the multi-tile metric on every 8-puzzle state", "[multi][search]") {
  for (const int blank : {8, 4}) {
    if (testing::kSanitized && blank != 8) continue;  // one goal blank under the sanitizers
    const DistanceTable t = multi_table(Board(3, 3), blank);
    const State goal = t.goal();
    const Domain d(goal, Metric::multi);
    const MultiManhattan<Domain> h(d);
    std::uint64_t exact = 0, over = 0, inconsistent = 0;
    for (std::uint64_t r = 0; r < t.ranker().size(); ++r) {
      const State s = nth_state(t, r);
      const int hv = h.eval(s.packed(), s.blank).h;
      const int dist = t.depths()[r];
      over += hv > dist;
      exact += hv == dist;
      const MoveList& ml = d.moves(s.blank);
      for (int k = 0; k < ml.count; ++k) {
        const State n = s.slid(ml.cell[k]);
        std::uint64_t after = 0;
        const int hn = Ops<MultiManhattan<Domain>>::h(
            Ops<MultiManhattan<Domain>>::slide(h, d, h.eval(s.packed(), s.blank), s.packed(), s.blank, ml.cell[k], 1 << 20, after));
        REQUIRE(after == n.packed());
        REQUIRE(hn == h.eval(n.packed(), n.blank).h);  // the stepwise update is exact
        inconsistent += hv > hn + 1;
      }
    }
    INFO("goal blank " << blank << ": exact on " << exact << " states");
    CHECK(over == 0);
    CHECK(inconsistent == 0);
    CHECK(exact > 0);
  }
  // Manhattan is not admissible here: an L2 from the goal is one move, and Manhattan says 2.
  const State goal = canonical_goal(Board(3, 3), 8);
  const Domain d(goal, Metric::multi);
  CHECK(Manhattan<Domain>(d).eval(goal.slid(6).packed(), 6) == 2);
  CHECK(MultiManhattan<Domain>(d).eval(goal.slid(6).packed(), 6).h == 1);
}

TEST_CASE("every multi-tile solver equals the multi-tile table on the 3x3 states", "[multi][search]") {
  const DistanceTable t = multi_table(Board(3, 3), 8);
  const GoalTable gt(t, 8);
  const State goal = t.goal();
  // The table's descent and IDA* on the exact heuristic on every state; the searches on
  // multi-manhattan (about 1 ms a state together) on every 32nd state. Under the sanitizers
  // every 29th and every 401st. Each 97th path is replayed through check's reader.
  struct Solver {
    const char* algorithm;
    const char* heuristic;
    std::uint64_t stride;
  };
  const std::uint64_t sparse = testing::kSanitized ? 401 : 32;
  const Solver solvers[] = {{"table", "", testing::kSanitized ? 29u : 1u},
                            {"idastar", "exact", testing::kSanitized ? 29u : 1u},
                            {"idastar", "multi-manhattan", sparse},
                            {"astar", "multi-manhattan", sparse}};
  std::uint64_t solved = 0;
  for (const Solver& sv : solvers) {
    SolveOptions o;
    o.algorithm = sv.algorithm;
    if (*sv.heuristic) o.heuristic = sv.heuristic;
    o.table = &gt;
    o.metric = Metric::multi;
    for (std::uint64_t r = 0; r < t.ranker().size(); r += sv.stride) {
      const State s = nth_state(t, r);
      const Result res = solve(s, goal, o);
      INFO(sv.algorithm << " " << sv.heuristic << " from " << s.to_string());
      REQUIRE(res.length() == t.depths()[r]);
      if (r % 97 == 0) check_multi_path(res, s, goal);
      ++solved;
    }
  }
  CHECK(solved > (testing::kSanitized ? 2 * 6000u : 2 * 181440u));
}

TEST_CASE("the other multi-tile solvers on a sample of 3x3 states: optimal ones equal the table, all legal",
          "[multi][search]") {
  const DistanceTable t = multi_table(Board(3, 3), 8);
  const GoalTable gt(t, 8);
  const State goal = t.goal();
  std::mt19937_64 rng(29);
  for (int i = 0; i < (testing::kSanitized ? 12 : 60); ++i) {
    const std::uint64_t r = rng() % t.ranker().size();
    const State s = nth_state(t, r);
    const int opt = t.depths()[r];
    for (const char* a : {"bfs", "bibfs", "iddfs", "dfs", "greedy", "wastar", "astar"}) {
      if ((std::string(a) == "iddfs" || std::string(a) == "dfs") && opt > 11) continue;
      SolveOptions o;
      o.algorithm = a;
      o.heuristic = std::string(a) == "astar" ? "exact" : "multi-manhattan";
      o.table = &gt;
      o.depth_limit = std::string(a) == "dfs" ? opt : 50;
      o.metric = Metric::multi;
      const Result res = solve(s, goal, o);
      INFO(a << " from " << s.to_string() << " (optimum " << opt << ")");
      check_multi_path(res, s, goal);
      if (find_algorithm(a)->optimal) CHECK(res.length() == opt);
      else CHECK(res.length() >= opt);
    }
  }
}

// [slow], not [big]: after the table (built on both cores, or read from the tests' cache) one
// thread searches, so the Release build runs it beside another test.
TEST_CASE("multi-tile search equals the multi-tile table on random 3x4 states", "[multi][search][slow]") {
  const Board b(3, 4);
  const DistanceTable t = multi_table(b, b.cells() - 1);
  const GoalTable gt(t, b.cells() - 1);
  const State goal = t.goal();
  std::mt19937_64 rng(41);
  int longest = 0;
  for (int i = 0; i < 10; ++i) {
    const std::uint64_t r = rng() % t.ranker().size();
    const State s = nth_state(t, r);
    const int opt = t.depths()[r];
    longest = std::max(longest, opt);
    for (const char* a : {"idastar", "astar", "bibfs", "table", "idastar:walking-distance"}) {
      const std::string name = a;
      // A* on multi-manhattan takes up to 2 s a state here: four states (it searches every
      // 32nd 3x3 state above).
      if (name == "astar" && i >= 4) continue;
      SolveOptions o;
      o.algorithm = name.substr(0, name.find(':'));
      o.heuristic = name.find(':') == std::string::npos ? "multi-manhattan" : name.substr(name.find(':') + 1);
      o.table = &gt;
      o.metric = Metric::multi;
      const Result res = solve(s, goal, o);
      INFO(a << " from " << s.to_string());
      check_multi_path(res, s, goal);
      CHECK(res.length() == opt);
    }
  }
  CHECK(longest >= 22);
}

// h never above the table's distance, never dropping by more than one a move, and its update
// along every move (Ops::slide, one-cell steps) equal to its value from scratch, on `states` states
// of the table (all when 0); returns the mean h.
template <class H>
double check_admissible(const DistanceTable& t, const H& h, const Domain& d, std::uint64_t sample, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::uint64_t n = sample ? sample : t.ranker().size();
  std::uint64_t over = 0, inconsistent = 0, sum = 0, stepped_wrong = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t r = sample ? rng() % t.ranker().size() : i;
    const State s = nth_state(t, r);
    const auto v = h.eval(s.packed(), s.blank);
    const int hv = Ops<H>::h(v);
    sum += static_cast<std::uint64_t>(hv);
    over += hv > t.depths()[r];
    const MoveList& ml = d.moves(s.blank);
    for (int k = 0; k < ml.count; ++k) {
      const State m = s.slid(ml.cell[k]);
      const int hm = Ops<H>::h(h.eval(m.packed(), m.blank));
      inconsistent += hv > hm + 1;
      std::uint64_t after = 0;
      stepped_wrong += Ops<H>::h(Ops<H>::slide(h, d, v, s.packed(), s.blank, ml.cell[k], 1 << 20, after)) != hm ||
                       after != m.packed();
    }
  }
  CHECK(over == 0);
  CHECK(inconsistent == 0);
  CHECK(stepped_wrong == 0);
  return static_cast<double>(sum) / static_cast<double>(n);
}

TEST_CASE("walking distance is admissible and consistent in both metrics on every 8-puzzle state, and the "
          "strongest of the multi-tile heuristics", "[multi][search]") {
  // Every state in the Release run; 5000 sampled, one goal blank, under the sanitizers.
  const std::uint64_t sample = testing::kSanitized ? 5000 : 0;
  for (const int blank : {8, 4}) {
    if (testing::kSanitized && blank != 8) continue;
    for (const Metric m : {Metric::single, Metric::multi}) {
      const DistanceTable t = m == Metric::multi ? multi_table(Board(3, 3), blank) : DistanceTable::build(Board(3, 3), blank);
      const Domain d(t.goal(), m);
      const WalkingDistance<Domain> wd(d);
      INFO("goal blank " << blank << ", " << metric_name(m));
      const double mean_wd = check_admissible(t, wd, d, sample, 1);
      const double mean_other = m == Metric::multi ? check_admissible(t, MultiManhattan<Domain>(d), d, sample, 1)
                                                   : check_admissible(t, Manhattan<Domain>(d), d, sample, 1);
      CHECK(mean_wd > mean_other);
    }
  }
  // 5x5 and 2x7 are refused, by name, before any abstraction is built.
  const State g25 = canonical_goal(Board(5, 5), 0);
  CHECK_THROWS_WITH(WalkingDistance<WideDomain>(WideDomain(g25, Metric::multi)), Catch::Contains("not 5x5"));
  CHECK_THROWS_WITH(WalkingDistance<Domain>(Domain(canonical_goal(Board(2, 7), 0))), Catch::Contains("not 2x7"));
  CHECK(walking_distance_takes(Board(4, 4)));
  CHECK(walking_distance_takes(Board(2, 6)));
  CHECK(walking_distance_takes(Board(6, 2)));
  CHECK_FALSE(walking_distance_takes(Board(2, 8)));
}

// [slow], not [big]: one thread searches after the table is built (as the 3x4 case above).
TEST_CASE("multi-tile search with walking distance equals the multi-tile table on random 2x6 states",
          "[multi][search][slow]") {
  const Board b(2, 6);
  const DistanceTable t = multi_table(b, b.cells() - 1);
  const GoalTable gt(t, b.cells() - 1);
  const State goal = t.goal();
  const Domain d(goal, Metric::multi);
  check_admissible(t, WalkingDistance<Domain>(d), d, 20000, 3);
  std::mt19937_64 rng(43);
  for (int i = 0; i < 6; ++i) {
    const std::uint64_t r = rng() % t.ranker().size();
    const State s = nth_state(t, r);
    for (const char* h : {"walking-distance"}) {
      SolveOptions o;
      o.algorithm = "idastar";
      o.heuristic = h;
      o.metric = Metric::multi;
      const Result res = solve(s, goal, o);
      INFO(h << " from " << s.to_string());
      check_multi_path(res, s, goal);
      CHECK(res.length() == t.depths()[r]);
    }
  }
}

TEST_CASE("the metric in planning: what takes multi, what refuses it, and the defaults", "[multi][search]") {
  PlanContext ctx;
  ctx.board = Board(3, 3);
  SolveRequest q;
  q.metric = "multi";
  SolvePlan p = plan_solve(q, ctx);
  CHECK(p.metric == Metric::multi);
  CHECK(p.algorithm == "idastar");
  CHECK(p.heuristic == "multi-manhattan");
  CHECK(p.optimal);
  CHECK_FALSE(p.automaton);
  ctx.table_available = true;
  CHECK(plan_solve(q, ctx).algorithm == "table");
  ctx.board = Board(5, 5);
  ctx.table_available = false;
  CHECK(plan_solve(q, ctx).algorithm == "idastar");  // not aidastar
  CHECK(plan_solve(q, ctx).heuristic == "multi-manhattan");  // walking distance does not take 5x5
  ctx.board = Board(4, 4);
  CHECK(plan_solve(q, ctx).heuristic == "mpdb");  // the strongest on 4x4: multi-tile pattern databases
  ctx.board = Board(3, 4);
  CHECK(plan_solve(q, ctx).heuristic == "multi-manhattan");  // fewer than 16 cells (the table serves them)
  ctx.board = Board(4, 4);
  ctx.default_heuristic = "manhattan";  // the server's light default: no database built for a request
  CHECK(plan_solve(q, ctx).heuristic == "walking-distance");
  ctx.default_heuristic.clear();
  ctx.board = Board(3, 3);
  ctx.default_heuristic = "manhattan";              // the server's lighter default is single-tile
  CHECK(plan_solve(q, ctx).heuristic == "multi-manhattan");
  ctx.board = Board(3, 3);
  auto refused = [&](SolveRequest r, const char* option, const char* words) {
    INFO(option << ": " << words);
    try {
      plan_solve(r, ctx);
      FAIL("planned");
    } catch (const InputError& e) {
      CHECK(e.about == InputError::About::option);
      CHECK(e.name == option);
      CHECK_THAT(e.what(), Catch::Contains(words));
    }
  };
  SolveRequest r = q;
  r.algorithm = "aidastar";
  refused(r, "algorithm", "counts single-tile moves");
  r = q;
  r.heuristic = "manhattan";
  refused(r, "heuristic", "multi-manhattan, walking-distance, exact");
  r = q;
  r.heuristic = "pdb";
  refused(r, "heuristic", "counts single-tile moves");
  r = q;
  r.pattern = "1,2/3,4";  // --pattern alone takes the metric's pattern databases
  CHECK(plan_solve(r, ctx).heuristic == "mpdb");
  CHECK(plan_solve(r, ctx).pattern == "1,2/3,4");
  r = SolveRequest{};
  r.heuristic = "mpdb";
  refused(r, "heuristic", "counts multi-tile moves: give --metric multi");
  r = q;
  r.trace = true;  // traced in either metric
  CHECK(plan_solve(r, ctx).metric == Metric::multi);
  r = q;
  r.automaton = "on";
  refused(r, "automaton", "--metric multi");
  r = q;
  r.metric = "double";
  refused(r, "metric", "not a metric");
  // The table of the other metric is refused where it is used.
  const DistanceTable single = DistanceTable::build(Board(3, 3), 8);
  const GoalTable gs(single, 8);
  SolveOptions o;
  o.algorithm = "table";
  o.table = &gs;
  o.metric = Metric::multi;
  const State goal = canonical_goal(Board(3, 3), 8);
  CHECK_THROWS_WITH(solve(goal.slid(6), goal, o), Catch::Contains("counts single-tile moves, not multi-tile"));
  o.algorithm = "astar";
  o.heuristic = "exact";
  CHECK_THROWS_WITH(solve(goal.slid(6), goal, o), Catch::Contains("counts single-tile moves, not multi-tile"));
}

// ---- multi-tile pattern databases (pdb/build.hpp: build_multi_tile_database; --heuristic mpdb) ----

namespace {

// The mpdb heuristic's tables for `goal` from a multi-tile store in `dir`.
pdb::PdbHeuristic multi_tables(const std::filesystem::path& dir, const State& goal, const std::string& spec) {
  pdb::PdbStoreOptions so;
  so.dir = dir;
  so.build.metric = Metric::multi;
  so.build.threads = 2;
  pdb::PdbStore store(so);
  return pdb::make_heuristic(store, goal, pdb::parse_partition(spec, goal));
}

}  // namespace

TEST_CASE("multi-tile pattern databases (mpdb) are admissible and consistent on every 8-puzzle state, their "
          "multi-cell moves equal to the value from scratch, and stronger than walking distance",
          "[multi][search][pdb]") {
  testing::TempDir dir;
  const std::uint64_t sample = testing::kSanitized ? 4000 : 0;
  for (const int blank : {8, 4, 1}) {  // the reflection on the diagonal (8, 4), none off it (1)
    if (testing::kSanitized && blank == 4) continue;
    const DistanceTable t = multi_table(Board(3, 3), blank);
    const State goal = t.goal();
    const Domain d(goal, Metric::multi);
    for (const char* spec : {"1,2,3,4/5,6,7,8", "1,2,3/4,5,6+2,5,7,8", "8,6"}) {
      INFO("goal blank " << blank << ", mpdb:" << spec);
      const pdb::PdbHeuristic tables = multi_tables(dir.path, goal, spec);
      CHECK(tables.reflects() == (blank != 1));
      const MultiTileDatabases<Domain> h(d, tables);
      const double mean = check_admissible(t, h, d, sample, 5);
      if (std::string(spec) == "1,2,3,4/5,6,7,8") CHECK(mean > check_admissible(t, WalkingDistance<Domain>(d), d, sample, 5));
      // The search's value is at least the tables' own (which has no walking distance).
      std::mt19937_64 rng(7);
      for (int i = 0; i < 200; ++i) {
        const State s = nth_state(t, rng() % t.ranker().size());
        CHECK(MultiTileDatabases<Domain>::value(h.eval(s.packed(), s.blank)) >= tables.evaluate(s));
      }
    }
  }
}

TEST_CASE("IDA* and A* with multi-tile pattern databases equal the multi-tile tables of 3x3, 3x4 and 2x6",
          "[multi][search][pdb][big]") {
  testing::TempDir dir;
  struct Case {
    Board board;
    const char* spec;
    int states;
  };
  const Case cases[] = {{Board(3, 3), "1,2,3,4/5,6,7,8", testing::kSanitized ? 40 : 400},
                        {Board(3, 4), "1,2,3,4,5/6,7,8,9,10", testing::kSanitized ? 3 : 12},
                        {Board(2, 6), "1,2,3,4,5/6,7,8,9,10", testing::kSanitized ? 2 : 8}};
  for (const Case& k : cases) {
    const DistanceTable t = multi_table(k.board, k.board.cells() - 1);
    const State goal = t.goal();
    const pdb::PdbHeuristic tables = multi_tables(dir.path, goal, k.spec);
    std::mt19937_64 rng(47);
    int longest = 0;
    for (int i = 0; i < k.states; ++i) {
      const std::uint64_t r = rng() % t.ranker().size();
      const State s = nth_state(t, r);
      longest = std::max(longest, static_cast<int>(t.depths()[r]));
      for (const char* a : {"idastar", "astar"}) {
        if (std::string(a) == "astar" && i % 4 != 0) continue;
        SolveOptions o;
        o.algorithm = a;
        o.heuristic = std::string("mpdb:") + k.spec;
        o.pdb = &tables;
        o.metric = Metric::multi;
        const Result res = solve(s, goal, o);
        INFO(k.board.name() << " " << a << " from " << s.to_string());
        check_multi_path(res, s, goal);
        CHECK(res.length() == t.depths()[r]);
      }
    }
    CHECK(longest >= (k.board.cells() == 9 ? 20 : 25));
  }
}

TEST_CASE("Korf's 15-puzzle instances in the multi-tile metric: two different sets of multi-tile pattern "
          "databases find the same optimal lengths, with legal moves", "[multi][search][pdb][big]") {
  if (testing::kSanitized) return;  // four 57.7 M-entry builds: the Release run's
  testing::TempDir dir;
  const auto instances = testing::read_instances("korf100.tsv", Board(4, 4));
  const State goal = parse_state("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Board(4, 4));
  // The stock 6-6 (tiles 1-6 and 7-12), as the first multi-tile query builds it, from the test
  // cache: the command's build, loaded here; the columns are built in this process.
  testing::stock_4x4_databases(dir.path, goal.to_string(), Metric::multi);
  const pdb::PdbHeuristic rows = multi_tables(dir.path, goal, "6-6");
  const pdb::PdbHeuristic cols = multi_tables(dir.path, goal, "1,4,5,8,9,12/2,3,6,7,10,11");
  for (int i = 0; i < 12; ++i) {
    const State& s = instances[static_cast<std::size_t>(i)].start;
    std::array<int, 2> len{};
    for (int k = 0; k < 2; ++k) {
      SolveOptions o;
      o.algorithm = "idastar";
      o.heuristic = k == 0 ? "mpdb:6-6" : "mpdb:1,4,5,8,9,12/2,3,6,7,10,11";
      o.pdb = k == 0 ? &rows : &cols;
      o.metric = Metric::multi;
      const Result res = solve(s, goal, o);
      INFO("instance " << i + 1 << " with " << o.heuristic);
      check_multi_path(res, s, goal);
      len[static_cast<std::size_t>(k)] = res.length();
    }
    CHECK(len[0] == len[1]);
    // A multi-tile move is one or more single-tile moves: never longer than the published optimum.
    CHECK(len[0] <= instances[static_cast<std::size_t>(i)].length);
  }
}

TEST_CASE("the 15-puzzle in the multi-tile metric: a BFS to depth 12 matches Rokicki's published layers, and IDA* "
          "with multi-tile pattern databases solves states of the deepest layers in exactly their depth",
          "[multi][search][pdb][slow]") {  // [slow], not [big]: one thread (as the 3x4 case above)
  // tests/data/multi-tile.txt: "layers 4x4 ..." (Rokicki 2014, to depth 23).
  std::vector<std::uint64_t> published;
  {
    std::ifstream in(std::string(TILESPACE_TEST_DATA) + "/multi-tile.txt");
    REQUIRE(in);
    for (std::string line; std::getline(in, line);)
      if (line.rfind("layers 4x4 ", 0) == 0) {
        std::istringstream words(line.substr(11));
        for (std::uint64_t n; words >> n;) published.push_back(n);
      }
  }
  REQUIRE(published.size() == 24);
  const int depth = testing::kSanitized ? 8 : 12;  // 808,623 states at 12 (1.2 M in all)
  const State goal = parse_state("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Board(4, 4));
  const auto dist = testing::naive_bfs(goal, Metric::multi, depth);
  std::vector<std::uint64_t> got(static_cast<std::size_t>(depth) + 1, 0);
  std::vector<State> deepest;
  for (const auto& [packed, d] : dist) {
    ++got[static_cast<std::size_t>(d)];
    if (d >= depth - 1 && deepest.size() < 200 && packed % 97 == 0) deepest.push_back(State::unpack(goal.board, packed));
  }
  CHECK(got == std::vector<std::uint64_t>(published.begin(), published.begin() + depth + 1));
  REQUIRE(deepest.size() >= (testing::kSanitized ? 20u : 200u));
  // Small patterns (5 tiles and the blank: 5.77 M entries each, built in a moment) with their
  // reflections and walking distance.
  testing::TempDir dir;
  const pdb::PdbHeuristic tables = multi_tables(dir.path, goal, "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15");
  const Domain d(goal, Metric::multi);
  const MultiTileDatabases<Domain> h(d, tables);
  int checked = 0;
  for (const State& s : deepest) {
    if (testing::kSanitized && checked == 20) break;
    const int want = dist.at(s.packed());
    CHECK(Ops<MultiTileDatabases<Domain>>::h(h.eval(s.packed(), s.blank)) <= want);
    SolveOptions o;
    o.algorithm = "idastar";
    o.heuristic = "mpdb";
    o.pdb = &tables;
    o.metric = Metric::multi;
    const Result res = solve(s, goal, o);
    INFO("from " << s.to_string());
    check_multi_path(res, s, goal);
    CHECK(res.length() == want);
    ++checked;
  }
}
