// One search framework for every board: pattern databases as a heuristic of every algorithm, the
// wide (25-cell) domain, A*+IDA* with one and two threads, the move automaton.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <random>
#include <string>
#include <vector>

#include "support.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/pdb/database.hpp"
#include "tilespace/pdb/heuristic.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/search/algorithms.hpp"
#include "tilespace/search/automaton.hpp"
#include "tilespace/search/pattern_heuristic.hpp"
#include "tilespace/search/solve.hpp"

using namespace tilespace;
using namespace tilespace::search;

namespace {

// A random walk of `moves` moves from `goal` that never undoes its last move.
State scramble(const State& goal, int moves, std::mt19937_64& rng) {
  State s = goal;
  int previous = -1;
  for (int m = 0; m < moves; ++m) {
    const auto& nb = s.board.neighbours(s.blank);
    int to;
    do to = nb.cell[rng() % nb.count];
    while (to == previous);
    previous = s.blank;
    s = s.moved(to);
  }
  return s;
}

void require_legal_path(const Result& r, const State& start, const State& goal) {
  REQUIRE(r.solved);
  REQUIRE(r.path.front() == start);
  REQUIRE(r.path.back() == goal);
  for (std::size_t i = 1; i < r.path.size(); ++i) {
    const auto& nb = start.board.neighbours(r.path[i - 1].blank);
    bool legal = false;
    for (int k = 0; k < nb.count; ++k) legal = legal || r.path[i - 1].moved(nb.cell[k]) == r.path[i];
    REQUIRE(legal);
  }
}

// A pattern-database store in a fresh temporary folder.
struct TempStore {
  static pdb::PdbStoreOptions in(const testing::TempDir& d) {
    pdb::PdbStoreOptions o;
    o.dir = d.path;
    return o;
  }
  testing::TempDir dir;
  pdb::PdbStore store{in(dir)};
};

pdb::PdbHeuristic databases(pdb::PdbStore& store, const State& goal, const std::string& spec) {
  return pdb::make_heuristic(store, goal, pdb::parse_partition(spec, goal));
}

}  // namespace

TEST_CASE("the pattern-database heuristic updates incrementally to its fresh value on both domains", "[framework][pdb]") {
  TempStore temp;
  pdb::PdbStore& store = temp.store;
  std::mt19937_64 rng(12);
  auto walk = [&](const auto& d, const pdb::PdbHeuristic& tables) {
    const PatternDatabases h(d, tables);
    State s = d.goal;
    auto v = h.eval(decltype(d.goal_packed)(d.goal_packed), s.blank);
    REQUIRE(h.value(v) == 0);
    for (int step = 0; step < 3000; ++step) {
      const auto& nb = s.board.neighbours(s.blank);
      const int to = nb.cell[rng() % nb.count];
      const int tile = s.tiles[to];
      const State t = s.moved(to);
      const auto w = std::decay_t<decltype(d)>::pack(t);
      // Under a cap the value may stop at the direct sum: a lower bound, above the cap when cut.
      const int cap = static_cast<int>(rng() % 40);
      const auto capped = h.update(v, w, t.blank, tile, to, s.blank, cap);
      v = h.update(v, w, t.blank, tile, to, s.blank);
      s = t;
      const auto fresh = h.eval(w, s.blank);
      REQUIRE(h.value(v) == h.value(fresh));
      REQUIRE(h.value(v) == tables.evaluate(s));  // the tables' own evaluation
      REQUIRE(h.value(capped) <= h.value(fresh));
      if (h.value(capped) < h.value(fresh)) REQUIRE(h.value(capped) > cap);
    }
  };
  const State g16 = canonical_goal(Board(4, 4), 0);
  walk(Domain(g16), databases(store, g16, "5-5-5"));
  const State g25 = canonical_goal(Board(5, 5), 0);
  walk(WideDomain(g25), databases(store, g25, "1,2,3/4,5,6/7,8,9/10,11,12/13,14,15/16,17,18/19,20,21/22,23,24"));
}

TEST_CASE("pattern databases guide every algorithm to the optimal length on 15-puzzle scrambles", "[framework][pdb]") {
  TempStore temp;
  pdb::PdbStore& store = temp.store;
  const State goal = canonical_goal(Board(4, 4), 0);
  const pdb::PdbHeuristic tables = databases(store, goal, "5-5-5");
  std::mt19937_64 rng(15);
  for (int trial = 0; trial < 8; ++trial) {
    const State start = scramble(goal, 30 + trial * 4, rng);
    SolveOptions o;
    o.algorithm = "idastar";
    o.heuristic = "manhattan";
    const Result reference = solve(start, goal, o);
    require_legal_path(reference, start, goal);
    for (const char* algorithm : {"idastar", "astar", "aidastar", "wastar"}) {
      INFO("trial " << trial << " " << algorithm);
      o.algorithm = algorithm;
      o.heuristic = "pdb:5-5-5";
      o.pdb = &tables;
      o.limits.max_bytes = std::string(algorithm) == "aidastar" ? 1 << 16 : 0;  // A* a few hundred nodes
      const Result r = solve(start, goal, o);
      require_legal_path(r, start, goal);
      if (std::string(algorithm) != "wastar") CHECK(r.length() == reference.length());
      else CHECK(r.length() >= reference.length());
      if (std::string(algorithm) == "idastar") CHECK(r.expanded <= reference.expanded);  // a stronger heuristic
    }
  }
}

TEST_CASE("24-puzzle scrambles: every method gives the same optimal length", "[framework][pdb][5x5][threads]") {
  TempStore temp;
  pdb::PdbStore& store = temp.store;
  const State goal = canonical_goal(Board(5, 5), 0);
  const pdb::PdbHeuristic tables = databases(store, goal, "1,2,5/3,4,8/6,7,9/10,11,15/12,13,14/16,17,20/18,19,23/21,22,24");
  const MoveAutomaton fsm = MoveAutomaton::build(8);
  std::mt19937_64 rng(24);
  for (int trial = 0; trial < 5; ++trial) {
    const State start = scramble(goal, 36, rng);
    std::vector<int> lengths;
    for (const char* algorithm : {"idastar", "aidastar"})
      for (const bool automaton : {false, true})
        for (const int threads : {1, 2}) {
          if (std::string(algorithm) == "idastar" && threads == 2) continue;  // one thread by design
          INFO("trial " << trial << " " << algorithm << " automaton " << automaton << " threads " << threads);
          SolveOptions o;
          o.algorithm = algorithm;
          o.heuristic = "pdb";
          o.pdb = &tables;
          o.automaton = automaton ? &fsm : nullptr;
          o.threads = threads;
          o.limits.max_bytes = 1 << 18;  // aidastar: A* stops after a few thousand nodes
          const Result r = solve(start, goal, o);
          require_legal_path(r, start, goal);
          lengths.push_back(r.length());
        }
    for (const int l : lengths) CHECK(l == lengths.front());
    CHECK(lengths.front() <= 36);
  }
}

TEST_CASE("A* with a pattern-database heuristic records a trace on 4x4", "[framework][pdb][trace][cli]") {
  testing::TempDir dir;
  const std::string goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
  const std::string start = "4 1 2 3 8 5 6 7 12 9 10 11 13 14 15 0";  // 6 moves from the goal
  auto r = testing::run_cli("solve -a astar --heuristic pdb:5-5-5 --board 4x4 --goal '" + goal + "' '" + start +
                                "' --trace t.json --json",
                            dir.path);
  REQUIRE(r.rc == 0);
  const auto j = nlohmann::json::parse(testing::read_file(dir.path / "t.json"));
  CHECK(j["heuristic"] == "pdb:5-5-5");
  CHECK(j["length"] == 6);
  REQUIRE(j["data"].size() > 6);
  CHECK(j["solution"].size() == 7);
  // h is the pattern databases' value: at the goal 0, at the start at most the length.
  const auto& data = j["data"];
  CHECK(data[0]["h"].get<int>() <= 6);
  CHECK(data[j["solution"].back().get<std::size_t>()]["h"] == 0);
  // The 24-puzzle records no trace (the viewer's states are packed words): an option error.
  r = testing::run_cli("solve -a astar --heuristic pdb:6-6-6-6 --board 5x5 --trace t.json "
                       "'1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24'",
                       dir.path);
  CHECK(r.rc == 2);
  CHECK_THAT(r.err, Catch::Contains("--trace"));
}

TEST_CASE("verify and compare take pattern-database heuristics and the hybrid search", "[framework][pdb][cli]") {
  testing::TempDir dir;
  auto r = testing::run_cli("verify --algorithms idastar:pdb:4-4,astar:pdb,aidastar:pdb --sample 3000 --seed 5", dir.path);
  CHECK(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains("aidastar:pdb") && Catch::Contains("verified"));
  r = testing::run_cli("compare '8 6 7 2 5 4 3 0 1' --algorithms astar:pdb:4-4,idastar:pdb,aidastar:linear-conflict --json", dir.path);
  REQUIRE(r.rc == 0);
  const auto rows = nlohmann::json::parse(r.out);
  REQUIRE(rows.size() == 3);
  for (const auto& row : rows) CHECK(row["length"] == 31);
}

TEST_CASE("the automaton and the hybrid search never lose optimality on every 8-puzzle and 2x4 state", "[framework][automaton][slow]") {
  // Every state to the goal: IDA* pruned by a depth-14 machine, and A*+IDA* with a few dozen A*
  // nodes (so its IDA* phase runs below a frontier) on two threads, against the exact table.
  const MoveAutomaton fsm = MoveAutomaton::build(14);
  for (const Board& board : {Board(3, 3), Board(4, 2)}) {
    const DistanceTable table = DistanceTable::build(board, board.cells() - 1);
    const State goal = table.goal();
    const Ranker& ranker = table.ranker();
    std::uint64_t checked = 0;
    for (std::uint64_t r = 0; r < ranker.size(); ++r) {
      Sequence seq{};
      const int blank = ranker.unrank(r, seq);
      State s{board, {}, blank};
      int k = 0;
      for (int c = 0; c < board.cells(); ++c)
        if (c != blank) s.tiles[c] = static_cast<std::uint8_t>(seq[k++] + 1);
      const int optimal = table.depths()[r];
      SolveOptions o;
      o.heuristic = "manhattan";
      o.automaton = &fsm;
      o.algorithm = "idastar";
      const Result a = solve(s, goal, o);
      REQUIRE(a.length() == optimal);
      if (r % 7 == 0) {  // the hybrid on a seventh of the states (it is the slower one)
        o.algorithm = "aidastar";
        o.threads = 2;
        o.limits.max_bytes = 4096;
        const Result b = solve(s, goal, o);
        REQUIRE(b.length() == optimal);
        REQUIRE(b.path.back() == goal);
      }
      ++checked;
    }
    CHECK(checked == ranker.size());
  }
}
