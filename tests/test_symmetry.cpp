// Board symmetries (symmetry.hpp) and the tables that answer a goal blank cell through them
// (goal_table.hpp, TableStore::goal): every answer through a class's table against a table built
// directly for that blank cell.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "serve_support.hpp"
#include "support.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/goal_table.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/symmetry.hpp"
#include "tilespace/table_store.hpp"

using namespace tilespace;
using nlohmann::json;

namespace {

// A random goal with its blank on `blank` (any arrangement of the tiles).
State random_goal(const Board& b, int blank, std::mt19937_64& rng) {
  State g = testing::random_state(b, rng);
  std::swap(g.tiles[g.blank], g.tiles[blank]);
  g.blank = blank;
  return g;
}

// Distances through `via` against the goal blank's own table `own` (both serving goals with the
// blank on `blank`), for `goals` random goals and 1000 random starts each: {differing, reachable}.
std::pair<std::uint64_t, std::uint64_t> disagreements(const GoalTable& via, const GoalTable& own, const Board& b,
                                                      int blank, int goals, std::mt19937_64& rng) {
  std::uint64_t wrong = 0, reachable = 0;
  for (int k = 0; k < goals; ++k) {
    const State goal = random_goal(b, blank, rng);
    const Labelling via_lab = via.labelling(goal), own_lab = own.labelling(goal);
    for (int j = 0; j < 1000; ++j) {
      const State s = testing::random_state(b, rng);
      const auto d = own.distance(s, own_lab);
      reachable += d.has_value();
      wrong += via.distance(s, via_lab) != d;
    }
  }
  return {wrong, reachable};
}

// True when `path` goes from `start` to `goal` by single moves in exactly `length` moves.
bool optimal_path(const std::vector<State>& path, const State& start, const State& goal, int length) {
  if (path.size() != static_cast<std::size_t>(length) + 1 || !(path.front() == start) || !(path.back() == goal))
    return false;
  for (std::size_t k = 1; k < path.size(); ++k) {
    const auto& nb = goal.board.neighbours(path[k - 1].blank);
    bool legal = false;
    for (int j = 0; j < nb.count; ++j) legal = legal || path[k - 1].moved(nb.cell[j]) == path[k];
    if (!legal) return false;
  }
  return true;
}

std::vector<std::unique_ptr<DistanceTable>> direct_tables(const Board& b) {
  std::vector<std::unique_ptr<DistanceTable>> t;
  for (int c = 0; c < b.cells(); ++c) t.push_back(std::make_unique<DistanceTable>(DistanceTable::build(b, c)));
  return t;
}

std::set<std::uint64_t> packed_set(const std::vector<State>& states) {
  std::set<std::uint64_t> out;
  for (const State& s : states) out.insert(s.packed());
  return out;
}

// Every goal blank cell of `b`, answered through its class representative's table, against the
// cell's own table: on every state (every rank of the cell's table) for a random goal with that
// blank, on every 7th for the canonical goal; the unreachable half and state_of_rank on a part of
// them; farthest; paths by
// descent, `solve -a table` and A* with the exact heuristic on a sample. With `two_bit`, the
// representatives' two-bit tables too, on a sample.
void check_every_goal_blank(const Board& b, std::uint64_t seed, bool two_bit) {
  std::mt19937_64 rng(seed);
  const auto direct = direct_tables(b);
  std::vector<std::unique_ptr<DistanceTable>> two(b.cells());
  if (two_bit)
    for (const auto& cls : blank_classes(b))
      two[cls.front()] = std::make_unique<DistanceTable>(DistanceTable::build_two_bit(b, cls.front(), {}));
  for (int c = 0; c < b.cells(); ++c) {
    const int rep = blank_class(b, c).front();
    const GoalTable own(*direct[c], c), via(*direct[rep], c);
    INFO("board " << b.name() << ", goal blank " << c << ", representative " << rep);
    CHECK(via.direct() == (c == rep));
    CHECK(via.symmetry().to[c] == rep);
    CHECK(via.histogram() == own.histogram());
    for (const int stride : {1, 7}) {
      const State goal = stride == 1 ? random_goal(b, c, rng) : canonical_goal(b, c);
      INFO("goal " << goal.to_string());
      const Labelling lab = via.labelling(goal);
      std::uint64_t wrong = 0, wrong_unreachable = 0, wrong_rank = 0;
      for (std::uint64_t r = 0; r < own.states(); r += static_cast<std::uint64_t>(stride)) {
        State s = own.state_of_rank(r, goal);
        wrong += via.distance(s, lab) != std::optional<int>(direct[c]->depths()[r]);
        // The state of the same rank of the representative's table, mapped back: its distance there.
        if (r % 4 == 0)
          wrong_rank += own.distance(via.state_of_rank(r, goal), goal) != std::optional<int>(direct[rep]->depths()[r]);
        if (r % 3 == 0) {  // two tiles swapped: the other parity, unreachable
          const int a = s.blank == 0 ? 1 : 0, z = s.blank == b.cells() - 1 ? b.cells() - 2 : b.cells() - 1;
          std::swap(s.tiles[a], s.tiles[z]);
          wrong_unreachable += via.distance(s, goal).has_value();
        }
      }
      CHECK(wrong == 0);
      CHECK(wrong_rank == 0);
      CHECK(wrong_unreachable == 0);
      CHECK(packed_set(via.farthest(goal, 1000)) == packed_set(own.farthest(goal, 1000)));

      // Paths found in the representative's table, mapped back: legal, optimal, start to goal.
      search::SolveOptions table_solve, exact;
      table_solve.algorithm = "table";
      table_solve.table = &via;
      exact.algorithm = "astar";
      exact.heuristic = "exact";
      exact.table = &via;
      for (int i = 0; i < 40; ++i) {
        const State s = own.state_of_rank(rng() % own.states(), goal);
        const int d = *own.distance(s, goal);
        INFO("start " << s.to_string() << ", distance " << d);
        CHECK(optimal_path(via.descend(s, goal), s, goal, d));
        const search::Result t = search::solve(s, goal, table_solve);
        CHECK(optimal_path(t.path, s, goal, d));
        CHECK(t.moves.size() == static_cast<std::size_t>(d));
        CHECK(optimal_path(search::solve(s, goal, exact).path, s, goal, d));
      }
      if (!two_bit) continue;
      const GoalTable via2(*two[rep], c);
      const Labelling lab2 = via2.labelling(goal);
      std::uint64_t wrong2 = 0;
      for (int i = 0; i < 3000; ++i) {
        const std::uint64_t r = rng() % own.states();
        wrong2 += via2.distance(own.state_of_rank(r, goal), lab2) != std::optional<int>(direct[c]->depths()[r]);
      }
      CHECK(wrong2 == 0);
      for (int i = 0; i < 20; ++i) {
        const State s = own.state_of_rank(rng() % own.states(), goal);
        CHECK(optimal_path(via2.descend(s, goal), s, goal, *own.distance(s, goal)));
      }
    }
  }
}

// The distance tables of a folder, by name (the move automaton that idastar builds aside).
std::set<std::string> files_in(const std::filesystem::path& dir) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".tsdb") out.insert(e.path().filename().string());
  return out;
}

std::string quoted(const State& s) { return "'" + s.to_string() + "'"; }

}  // namespace

TEST_CASE("board symmetries: isometries of the grid, and the blank classes they make", "[symmetry]") {
  struct Case {
    int w, h;
    std::size_t symmetries;
    std::vector<std::vector<int>> classes;
  };
  const std::vector<Case> cases{
      {3, 3, 8, {{0, 2, 6, 8}, {1, 3, 5, 7}, {4}}},
      {2, 5, 4, {{0, 1, 8, 9}, {2, 3, 6, 7}, {4, 5}}},
      {3, 4, 4, {{0, 2, 9, 11}, {1, 10}, {3, 5, 6, 8}, {4, 7}}},
      {2, 7, 4, {{0, 1, 12, 13}, {2, 3, 10, 11}, {4, 5, 8, 9}, {6, 7}}},
      {7, 2, 4, {{0, 6, 7, 13}, {1, 5, 8, 12}, {2, 4, 9, 11}, {3, 10}}},
      {4, 4, 8, {{0, 3, 12, 15}, {1, 2, 4, 7, 8, 11, 13, 14}, {5, 6, 9, 10}}},
      {5, 5, 8, {{0, 4, 20, 24}, {1, 3, 5, 9, 15, 19, 21, 23}, {2, 10, 14, 22}, {6, 8, 16, 18}, {7, 11, 13, 17}, {12}}},
  };
  std::mt19937_64 rng(5);
  for (const Case& k : cases) {
    const Board b(k.w, k.h);
    INFO("board " << b.name());
    const auto syms = board_symmetries(b);
    REQUIRE(syms.size() == k.symmetries);
    CHECK(syms.front().identity());
    std::set<std::vector<int>> distinct;
    for (const Symmetry& s : syms) {
      std::vector<int> to(s.to.begin(), s.to.begin() + b.cells());
      distinct.insert(to);
      for (int c = 0; c < b.cells(); ++c) {
        CHECK(s.from[s.to[c]] == c);
        // Neighbours stay neighbours: moves map to moves.
        const auto& nb = b.neighbours(c);
        const auto& image = b.neighbours(s.to[c]);
        CHECK(nb.count == image.count);
        for (int i = 0; i < nb.count; ++i)
          CHECK(std::count(image.cell.begin(), image.cell.begin() + image.count, s.to[nb.cell[i]]) == 1);
      }
      const State x = testing::random_state(b, rng);
      CHECK(s.undo(s.apply(x)) == x);
      CHECK(s.apply(x).tiles[s.to[x.blank]] == 0);
    }
    CHECK(distinct.size() == syms.size());
    CHECK(blank_classes(b) == k.classes);
    for (const auto& cls : k.classes) {
      for (const int c : cls) {
        CHECK(blank_class(b, c) == cls);
        for (int t = 0; t < b.cells(); ++t) {
          const auto s = symmetry_taking(b, c, t);
          CHECK(s.has_value() == (std::count(cls.begin(), cls.end(), t) == 1));
          if (s) CHECK(s->to[c] == t);
        }
        CHECK(symmetry_taking(b, c, c)->identity());
      }
    }
  }
}

TEST_CASE("every symmetry keeps distances: d(s, g) = d(sigma s, sigma g) on 3x3 (all 8) and 2x5", "[symmetry]") {
  std::mt19937_64 rng(7);
  for (const Board& b : {Board(3, 3), Board(2, 5)}) {
    const auto t = direct_tables(b);
    for (const Symmetry& sym : board_symmetries(b)) {
      std::uint64_t wrong = 0;
      for (int i = 0; i < 20000; ++i) {
        const State g = testing::random_state(b, rng), s = testing::random_state(b, rng);
        const State gs = sym.apply(g), ss = sym.apply(s);
        wrong += t[g.blank]->distance(s, g) != t[gs.blank]->distance(ss, gs);
      }
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("every 3x3 goal blank through its class (corner, edge, centre, with the diagonals) equals its own table",
          "[symmetry][goals]") {
  check_every_goal_blank(Board(3, 3), 11, true);
}

TEST_CASE("every 2x5 goal blank through its class equals its own table on every state", "[symmetry][goals][slow]") {
  check_every_goal_blank(Board(2, 5), 12, true);
}

// The corner class of 3x4, {0, 2, 9, 11}, through its representative 0: each of its other cells
// takes one symmetry of the board, 2 left-right, 9 up-down, 11 the half turn (a 3x4 table takes
// 5-10 s to build: 4 tables, from the tests' cache, support.hpp, whose 11 another test reads too). Every class of 2x5, which has the same three symmetries, and of 3x3
// is checked on every state above. 1 M random starts a cell, 1000 random goals.
TEST_CASE("3x4 goals through their class's representative, by each of its symmetries, equal the cells' own tables on 1 M random states",
          "[symmetry][goals][big]") {
  const Board b(3, 4);
  std::mt19937_64 rng(13);
  const std::vector<int> tested{2, 9, 11};
  std::set<std::vector<int>> used;  // the symmetries taken
  for (const auto& cls : blank_classes(b)) {
    if (std::none_of(tested.begin(), tested.end(), [&](int c) { return std::count(cls.begin(), cls.end(), c) > 0; }))
      continue;  // the other classes: no table built
    const DistanceTable rep = testing::cached_table(b, cls.front());
    for (const int c : tested) {
      if (std::count(cls.begin(), cls.end(), c) == 0) continue;
      INFO("goal blank " << c << ", representative " << cls.front());
      const DistanceTable own = testing::cached_table(b, c);
      const GoalTable via(rep, c);
      REQUIRE_FALSE(via.direct());
      used.insert(std::vector<int>(via.symmetry().to.begin(), via.symmetry().to.begin() + b.cells()));
      // 1000 random goals with the blank on c, 1000 starts each.
      const auto [wrong, reachable] = disagreements(via, GoalTable(own, c), b, c, 1000, rng);
      CHECK(wrong == 0);
      CHECK(reachable > 400'000);  // about half
    }
  }
  CHECK(used.size() == 3);  // left-right, up-down, half turn
}

TEST_CASE("TableStore::goal: the cell's own table first, else its class's, else the own one built", "[symmetry]") {
  testing::TempDir dir;
  StoreOptions o;
  o.dir = dir.path;
  const Board b(3, 3);
  {
    TableStore store(o);
    store.build(b, 0);  // the corners' representative
  }
  TableStore store(o);
  CHECK(store.serving_cell(b, 8) == 0);
  CHECK(store.serving_cell(b, 1) == -1);
  const GoalTable& corner = store.goal(b, 8);
  CHECK_FALSE(corner.direct());
  CHECK(corner.table().ranker().goal_blank() == 0);
  CHECK(&store.goal(b, 8) == &corner);
  CHECK(store.goal_loaded(b, 8) == &corner);
  CHECK(store.goal_loaded(b, 6) == nullptr);  // not asked yet
  CHECK(files_in(dir.path) == std::set<std::string>{"3x3-012345678.tsdb"});
  // No cell of the edges' class has a table: the goal's own is built (as before).
  const GoalTable& edge = store.goal(b, 5);
  CHECK(edge.direct());
  CHECK(files_in(dir.path).count("3x3-123450678.tsdb") == 1);
  CHECK(store.serving_cell(b, 7) == 5);  // another cell of the class, on disk
  CHECK(store.goal(b, 7).table().ranker().goal_blank() == 5);
  // A cell's own table, once on disk, comes first (for a store that has not answered it yet).
  store.build(b, 8);
  CHECK(store.serving_cell(b, 8) == 8);
  CHECK(TableStore(o).goal(b, 8).direct());
  // build() replacing a table is seen.
  const GoalTable& again = store.goal(b, 5);
  store.build(b, 5);  // replaced: the old view is stale
  CHECK(store.goal_loaded(b, 5) == nullptr);
  CHECK(&store.goal(b, 5) == &again);  // the same slot, now over the new table
  CHECK(&again.table() == store.loaded(b, 5));
}

TEST_CASE("TableStore::at_hand: a table of the class on disk, or a build within the store limit, and nothing built",
          "[symmetry]") {
  testing::TempDir dir;
  StoreOptions o;
  o.dir = dir.path;
  o.max_auto_build_seconds = 0;  // nothing is short enough to build on the fly
  const Board b(5, 2);
  {
    TableStore store(o);
    CHECK_FALSE(store.at_hand(b, 9));
    store.build(b, 0);  // the corners' class: cells 0 4 5 9
  }
  TableStore store(o);
  for (int cell = 0; cell < b.cells(); ++cell) {
    INFO("goal blank " << cell);
    CHECK(store.at_hand(b, cell) == (cell == 0 || cell == 4 || cell == 5 || cell == 9));
  }
  CHECK(files_in(dir.path) == std::set<std::string>{"5x2-0123456789.tsdb"});  // nothing built or loaded
  CHECK(store.loaded(b, 0) == nullptr);
  // Within the limit, a missing table is at hand (goal() builds it); boards without tables never are.
  o.max_auto_build_seconds = 60;
  TableStore quick(o);
  CHECK(quick.at_hand(b, 1));
  CHECK(quick.at_hand(Board(3, 3), 4));
  CHECK_FALSE(quick.at_hand(Board(4, 4), 15));  // no table fits
  CHECK_FALSE(quick.at_hand(Board(5, 5), 24));  // over 16 cells
  CHECK_FALSE(quick.at_hand(Board(7, 2), 13));  // fits, but about 18 minutes to build
  CHECK(files_in(dir.path).size() == 1);
  CHECK(table_can_exist(Board(3, 4)));
  CHECK_FALSE(table_can_exist(Board(4, 4)));
  CHECK_FALSE(table_can_exist(Board(5, 5)));
}

TEST_CASE("cli: build --all-goals --bits 2 builds one table per blank class, and every goal is answered from them",
          "[symmetry][cli]") {
  testing::TempDir dir;
  const Board b(2, 5);
  auto r = testing::run_cli("build --board 2x5 --all-goals --bits 2 --db d", dir.path);
  REQUIRE(r.rc == 0);
  std::set<std::string> expected;
  for (const auto& cls : blank_classes(b)) expected.insert("2x5-" + canonical_goal(b, cls.front()).compact() + ".tsdb");
  REQUIRE(expected.size() == 3);
  const auto built = files_in(dir / "d");
  CHECK(built == expected);
  CHECK_THAT(r.out, Catch::Contains("serves the blank on cells 0 1 8 9") &&
                        Catch::Contains("serves the blank on cells 2 3 6 7") &&
                        Catch::Contains("serves the blank on cells 4 5"));
  r = testing::run_cli("build --board 2x5 --all-goals --bits 2 --db d --json", dir.path);
  REQUIRE(r.rc == 0);
  const json listed = json::parse(r.out);
  REQUIRE(listed.size() == 3);
  for (const auto& j : listed) CHECK(j["up_to_date"] == true);
  CHECK(listed[2]["serves"] == json::array({4, 5}));

  const auto direct = direct_tables(b);
  std::mt19937_64 rng(17);
  // One query per goal blank cell, on a non-representative cell: nothing built, the right length.
  std::string batch;
  std::vector<std::optional<int>> expected_batch;
  for (int c = 0; c < b.cells(); ++c) {
    const State goal = random_goal(b, c, rng);
    State s = testing::random_walk(goal, 60, rng);
    const int d = *direct[c]->distance(s, goal);
    INFO("goal " << goal.to_string() << ", start " << s.to_string());
    r = testing::run_cli("query --board 2x5 --db d " + quoted(s) + " --goal " + quoted(goal), dir.path);
    CHECK(r.rc == 0);
    CHECK(r.out == std::to_string(d) + "\n");
    CHECK(r.err.empty());
    // solve -a table: the path mapped back, legal and optimal.
    r = testing::run_cli("solve --board 2x5 --db d -a table --json " + quoted(s) + " --goal " + quoted(goal), dir.path);
    REQUIRE(r.rc == 0);
    const json sj = json::parse(r.out);
    CHECK(sj["length"] == d);
    std::vector<State> path;
    for (const auto& tiles : sj["path"]) {
      State p{b, {}, 0};
      for (int k = 0; k < b.cells(); ++k) {
        p.tiles[k] = tiles[k].get<std::uint8_t>();
        if (p.tiles[k] == 0) p.blank = k;
      }
      path.push_back(p);
    }
    CHECK(optimal_path(path, s, goal, d));
    for (int k = 0; k < 30; ++k) {
      const State start = testing::random_state(b, rng);
      batch += start.to_string() + "  " + goal.to_string() + "\n";
      expected_batch.push_back(direct[c]->distance(start, goal));
    }
  }
  r = testing::run_cli("query --batch - --board 2x5 --db d", dir.path, batch);
  CHECK(r.rc == 1);  // some unreachable
  std::string want;
  for (const auto& d : expected_batch) want += d ? std::to_string(*d) + "\n" : "unreachable\n";
  CHECK(r.out == want);
  // check: answers for goals on every cell, decided by the class tables.
  std::string lines;
  for (int c = 0; c < b.cells(); ++c) {
    const State goal = random_goal(b, c, rng);
    const State s = testing::random_walk(goal, 40, rng);
    lines += s.to_string() + "\t" + goal.to_string() + "\t" + std::to_string(*direct[c]->distance(s, goal)) + "\n";
  }
  testing::write_file(dir / "answers.txt", lines);
  r = testing::run_cli("check answers.txt --board 2x5 --db d", dir.path);
  CHECK(r.rc == 0);
  // verify and random on the default goal (blank on 9: the corners' table of cell 0).
  r = testing::run_cli("verify --board 2x5 --db d --sample 300 --algorithms astar:manhattan,idastar:manhattan", dir.path);
  CHECK(r.rc == 0);
  r = testing::run_cli("random --board 2x5 --db d --depth 30 --count 200 --seed 3", dir.path);
  REQUIRE(r.rc == 0);
  std::istringstream states(r.out);
  std::string line;
  int drawn = 0;
  for (; std::getline(states, line); ++drawn) CHECK(direct[9]->distance(parse_state(line, b), canonical_goal(b, 9)) == 30);
  CHECK(drawn == 200);
  CHECK(files_in(dir / "d") == expected);  // nothing built on the way

  // stats --all-goals: every class and the diameter, against the direct tables.
  r = testing::run_cli("stats --board 2x5 --db d --all-goals --json", dir.path);
  REQUIRE(r.rc == 0);
  const json st = json::parse(r.out);
  int diameter = 0;
  for (int c = 0; c < b.cells(); ++c) {
    diameter = std::max(diameter, direct[c]->radius());
    CHECK(st["goals"][c]["blank"] == c);
    CHECK(st["goals"][c]["radius"] == direct[c]->radius());
    CHECK(st["goals"][c]["farthest_count"] == direct[c]->histogram().back());
  }
  CHECK(st["longest"] == diameter);
  REQUIRE(st["classes"].size() == 3);
  for (const auto& k : st["classes"]) {
    const int rep = k["cells"][0];
    CHECK(k["histogram"] == direct[rep]->histogram());
    CHECK(k["radius"] == direct[rep]->radius());
    const State goal = canonical_goal(b, rep);
    CHECK(k["goal"] == json(std::vector<int>(goal.tiles.begin(), goal.tiles.begin() + b.cells())));
    // Two-bit tables list the states at the radius when there are at most 1000 of them.
    if (direct[rep]->histogram().back() <= 1000) {
      CHECK(k["farthest"].size() == direct[rep]->histogram().back());
      for (const auto& f : k["farthest"]) {
        State s{b, {}, 0};
        for (int i = 0; i < b.cells(); ++i) {
          s.tiles[i] = f[i].get<std::uint8_t>();
          if (s.tiles[i] == 0) s.blank = i;
        }
        CHECK(direct[rep]->distance(s, goal) == direct[rep]->radius());
      }
    }
  }
  r = testing::run_cli("stats --board 2x5 --db d --all-goals", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains("blank on 0,1,8,9: radius " + std::to_string(direct[0]->radius())) &&
                        Catch::Contains("blank on 4,5: radius " + std::to_string(direct[4]->radius())) &&
                        Catch::Contains("longest optimal solution between any two states: " + std::to_string(diameter)));
  CHECK(files_in(dir / "d") == expected);
}

// One class's table in memory at a time (TableStore::release): 2x7's --all-goals, at 10.1 GiB a
// two-bit table, stopped before its second class on 24 GiB. Here the same at 5x2's scale: a memory
// limit that one build fits (453,600 bytes of fields, as much again while searching) and a build
// beside a kept table does not.
TEST_CASE("cli: build --all-goals holds one class's table at a time, within a memory limit that fits one build",
          "[symmetry][cli]") {
  testing::TempDir dir;
  const auto one = testing::run_cli("build --board 5x2 --bits 2 --db one --max-memory 700K", dir.path);
  REQUIRE(one.rc == 0);
  const auto all = testing::run_cli("build --board 5x2 --bits 2 --all-goals --db all --max-memory 700K", dir.path);
  INFO(all.err);
  REQUIRE(all.rc == 0);
  CHECK(files_in(dir / "all").size() == 3);
  // The limit binds: a build beside a held table of the same size would not fit.
  const auto two = testing::run_cli("build --board 5x2 --bits 2 --all-goals --db two --max-memory 400K", dir.path);
  CHECK(two.rc == 4);
}

TEST_CASE("serve: every endpoint answers goals of every blank cell from the class tables", "[symmetry][serve]") {
  testing::TempDir dir;
  const Board b(2, 5);
  REQUIRE(testing::run_cli("build --board 2x5 --all-goals --bits 2 --db " + dir.path.string(), dir.path).rc == 0);
  const auto before = files_in(dir.path);
  REQUIRE(before.size() == 3);
  const auto direct = direct_tables(b);
  testing::Server srv(dir.path);
  httplib::Client cli("127.0.0.1", srv.port());
  cli.set_url_encode(false);
  auto url = [](const State& s) {  // spaces as '+'
    std::string w = s.to_string();
    std::replace(w.begin(), w.end(), ' ', '+');
    return w;
  };
  std::mt19937_64 rng(19);
  std::string batch, want;
  for (int c = 0; c < b.cells(); ++c) {
    const State goal = random_goal(b, c, rng);
    const State s = testing::random_walk(goal, 50, rng);
    const int d = *direct[c]->distance(s, goal);
    const std::string pair = "board=2x5&start=" + url(s) + "&goal=" + url(goal);
    INFO(pair);
    testing::Reply r = testing::get(cli, "/api/query?" + pair);
    CHECK(r.status == 200);
    CHECK(r.body["length"] == d);
    r = testing::get(cli, "/api/solve?algorithm=table&" + pair);
    REQUIRE(r.status == 200);
    CHECK(r.body["length"] == d);
    CHECK(r.body["optimal_length"] == d);
    std::vector<State> path;
    for (const auto& tiles : r.body["path"]) {
      State p{b, {}, 0};
      for (int k = 0; k < b.cells(); ++k) {
        p.tiles[k] = tiles[k].get<std::uint8_t>();
        if (p.tiles[k] == 0) p.blank = k;
      }
      path.push_back(p);
    }
    CHECK(optimal_path(path, s, goal, d));
    const State canonical = canonical_goal(b, c);
    r = testing::get(cli, "/api/stats?board=2x5&goal=" + url(canonical));
    REQUIRE(r.status == 200);
    CHECK(r.body["histogram"] == direct[c]->histogram());
    CHECK(r.body["farthest_count"] == direct[c]->histogram().back());
    r = testing::get(cli, "/api/random?depth=25&seed=4&" + pair.substr(0, pair.find("&start")) + "&goal=" + url(goal));
    REQUIRE(r.status == 200);
    CHECK(r.body["length"] == 25);
    State x{b, {}, 0};
    for (int k = 0; k < b.cells(); ++k) {
      x.tiles[k] = r.body["state"][k].get<std::uint8_t>();
      if (x.tiles[k] == 0) x.blank = k;
    }
    CHECK(direct[c]->distance(x, goal) == 25);
    for (int k = 0; k < 20; ++k) {
      const State start = testing::random_state(b, rng);
      batch += start.to_string() + "  " + goal.to_string() + "\n";
      const auto e = direct[c]->distance(start, goal);
      want += e ? std::to_string(*e) + "\n" : "unreachable\n";
    }
  }
  const auto res = cli.Post("/api/query?board=2x5", batch, "text/plain");
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(res->body == want);
  auto after = files_in(dir.path);
  after.erase("3x3-123456780.tsdb");  // the server's warm-up
  CHECK(after == before);             // nothing built
}

// ---- The transposed board (symmetry.hpp's transposition; issue 47 item 4) ----

namespace {

// One move of `metric` from a to b: the blank slides one cell, or (multi-tile) one or more cells
// along its row or column.
bool one_move(const State& a, const State& b, Metric metric) {
  for (int d = 0; d < 4; ++d) {
    State s = a;
    for (int to = a.board.step(a.blank, static_cast<Dir>(d)); to >= 0; to = s.board.step(s.blank, static_cast<Dir>(d))) {
      s = s.moved(to);
      if (s == b) return true;
      if (metric == Metric::single) break;
    }
  }
  return false;
}

// `path` goes from `start` to `goal` on their board in exactly `length` moves of `metric`.
bool legal_path(const std::vector<State>& path, const State& start, const State& goal, int length, Metric metric) {
  if (path.size() != static_cast<std::size_t>(length) + 1 || !(path.front() == start) || !(path.back() == goal))
    return false;
  for (std::size_t k = 1; k < path.size(); ++k)
    if (!(path[k].board == start.board) || !one_move(path[k - 1], path[k], metric)) return false;
  return true;
}

// Every goal blank cell of `b` answered from the class tables of the transposed board, against the
// cell's own table: every `stride`-th state for a random goal of that blank, the other parity
// unreachable, the farthest states, and legal optimal paths by descent mapped back onto `b`.
void check_transposed(const Board& b, Metric metric, std::uint64_t stride, std::uint64_t seed) {
  const Board t = transposed(b);
  BfsOptions o;
  o.metric = metric;
  std::mt19937_64 rng(seed);
  std::vector<std::unique_ptr<DistanceTable>> turned(t.cells());
  for (const auto& cls : blank_classes(t))
    turned[cls.front()] = std::make_unique<DistanceTable>(DistanceTable::build(t, cls.front(), o));
  const Symmetry turn = transposition(b);
  for (int c = 0; c < b.cells(); ++c) {
    const DistanceTable own_table = DistanceTable::build(b, c, o);
    const GoalTable own(own_table, c);
    const int rep = blank_class(t, turn.to[c]).front();
    const GoalTable via(*turned[rep], b, c);
    INFO(b.name() << " " << metric_name(metric) << ", goal blank " << c << ", from " << t.name() << "'s cell " << rep);
    CHECK(via.transposed());
    CHECK_FALSE(via.direct());
    CHECK(via.board() == b);
    CHECK(via.table().board() == t);
    CHECK(via.histogram() == own.histogram());
    const State goal = random_goal(b, c, rng);
    const Labelling lab = via.labelling(goal);
    std::uint64_t wrong = 0, wrong_unreachable = 0, checked = 0;
    for (std::uint64_t r = 0; r < own.states(); r += stride, ++checked) {
      State s = own.state_of_rank(r, goal);
      wrong += via.distance(s, lab) != std::optional<int>(own_table.depths()[r]);
      const int x = s.blank == 0 ? 1 : 0, z = s.blank == b.cells() - 1 ? b.cells() - 2 : b.cells() - 1;
      std::swap(s.tiles[x], s.tiles[z]);  // the other parity
      wrong_unreachable += via.distance(s, lab).has_value();
    }
    CHECK(wrong == 0);
    CHECK(wrong_unreachable == 0);
    CHECK(checked * stride >= own.states());
    CHECK(packed_set(via.farthest(goal, 1000)) == packed_set(own.farthest(goal, 1000)));
    CHECK(via.state_of_rank(0, goal).board == b);
    for (int i = 0; i < 30; ++i) {
      const State s = own.state_of_rank(rng() % own.states(), goal);
      const int d = *own.distance(s, goal);
      INFO("start " << s.to_string() << ", distance " << d);
      CHECK(legal_path(via.descend(s, goal), s, goal, d, metric));
    }
  }
}

}  // namespace

TEST_CASE("transposition: 2x4 and 4x2 goals from the other board's tables, every state, both metrics",
          "[symmetry][transpose]") {
  const Board b(2, 4);
  CHECK(transposed(b) == Board(4, 2));
  CHECK(transposed(Board(3, 3)) == Board(3, 3));
  const Symmetry turn = transposition(b);
  CHECK(turn.to[1] == 4);  // row 0, column 1 of 2x4 -> row 1, column 0 of 4x2
  CHECK(turn.to[2] == 1);  // row 1, column 0 -> row 0, column 1
  CHECK(compose(turn, transposition(Board(4, 2))).identity());
  for (const Metric m : {Metric::single, Metric::multi}) {
    check_transposed(Board(2, 4), m, 1, 71);
    check_transposed(Board(4, 2), m, 1, 72);
  }
  // Not a transpose: refused.
  const DistanceTable t = DistanceTable::build(Board(3, 3), 8);
  CHECK_THROWS_AS(GoalTable(t, Board(2, 4), 7), std::invalid_argument);
}

TEST_CASE("transposition: 2x5 and 5x2 goals from the other board's tables, every state, both metrics",
          "[symmetry][transpose][slow]") {
  for (const Metric m : {Metric::single, Metric::multi}) {
    check_transposed(Board(2, 5), m, testing::kSanitized ? 7 : 1, 73);
    check_transposed(Board(5, 2), m, testing::kSanitized ? 7 : 1, 74);
  }
}

TEST_CASE("transposition: 3x4 and 4x3 goals of every corner from the other board's corner table, on random pairs, "
          "both metrics", "[symmetry][transpose][big]") {
  std::mt19937_64 rng(75);
  for (const Metric m : {Metric::single, Metric::multi}) {
    // The corner tables the published-distribution tests check (support.hpp's cache).
    const DistanceTable three = testing::cached_table(Board(3, 4), 11, m);
    const DistanceTable four = testing::cached_table(Board(4, 3), 0, m);
    for (const auto& [board, from, own_table, corners] :
         {std::tuple{Board(4, 3), &three, &four, std::vector<int>{0, 3, 8, 11}},
          std::tuple{Board(3, 4), &four, &three, std::vector<int>{0, 2, 9, 11}}}) {
      for (const int c : corners) {
        const GoalTable via(*from, board, c), own(*own_table, c);
        INFO(board.name() << " " << metric_name(m) << ", goal blank " << c);
        CHECK(via.transposed());
        const auto [wrong, reachable] = disagreements(via, own, board, c, 100, rng);  // 100 goals, 1000 starts each
        CHECK(wrong == 0);
        CHECK(reachable > 40'000);  // about half
        const State goal = random_goal(board, c, rng);
        for (int i = 0; i < 10; ++i) {
          const State s = testing::random_walk(goal, 300, rng);
          CHECK(legal_path(via.descend(s, goal), s, goal, *own.distance(s, goal), m));
        }
      }
    }
  }
}

TEST_CASE("transposition: with only 4x2's table on disk, the store, query, solve, the server and stats answer 2x4 "
          "goals from it and build nothing", "[symmetry][transpose][serve]") {
  testing::TempDir dir;
  REQUIRE(testing::run_cli("build --board 4x2 --goal '0 1 2 3 4 5 6 7' --db " + dir.path.string(), dir.path).rc == 0);
  const auto before = files_in(dir.path);
  REQUIRE(before == std::set<std::string>{"4x2-01234567.tsdb"});
  const Board b(2, 4);
  const DistanceTable own = DistanceTable::build(b, 7);  // the cell of 2x4 that 4x2's cell 0 serves
  StoreOptions o;
  o.dir = dir.path;
  o.max_auto_build_seconds = 0;
  TableStore store(o);
  CHECK(store.serving_cell(b, 7) == -1);
  for (int c = 0; c < b.cells(); ++c) CHECK(store.at_hand(b, c) == (c == 0 || c == 1 || c == 6 || c == 7));
  const GoalTable& g = store.goal(b, 7);
  CHECK(g.transposed());
  CHECK(g.table().board() == Board(4, 2));
  CHECK(store.goal_loaded(b, 7) == &g);
  const State goal = canonical_goal(b, 7);
  std::uint64_t wrong = 0;
  for (std::uint64_t r = 0; r < own.ranker().size(); ++r)
    wrong += g.distance(GoalTable(own, 7).state_of_rank(r, goal), goal) != std::optional<int>(own.depths()[r]);
  CHECK(wrong == 0);
  store.release(Board(4, 2), 0);
  CHECK(store.goal_loaded(b, 7) == nullptr);
  // The command line and the server, each from the same file.
  std::mt19937_64 rng(76);
  const State s = testing::random_walk(goal, 40, rng);
  const int d = *own.distance(s, goal);
  const std::string pair = "--board 2x4 --goal '" + goal.to_string() + "' '" + s.to_string() + "'";
  auto r = testing::run_cli("query " + pair + " --db " + dir.path.string(), dir.path);
  CHECK(r.rc == 0);
  CHECK(r.out == std::to_string(d) + "\n");
  r = testing::run_cli("solve -a table --json " + pair + " --db " + dir.path.string(), dir.path);
  REQUIRE(r.rc == 0);
  CHECK(json::parse(r.out)["length"] == d);
  r = testing::run_cli("stats --board 2x4 --goal '" + goal.to_string() + "' --json --db " + dir.path.string(), dir.path);
  REQUIRE(r.rc == 0);
  CHECK(json::parse(r.out)["histogram"] == own.histogram());
  {
    testing::Server srv(dir.path);
    httplib::Client cli("127.0.0.1", srv.port());
    cli.set_url_encode(false);
    auto url = [](const State& x) {
      std::string w = x.to_string();
      std::replace(w.begin(), w.end(), ' ', '+');
      return w;
    };
    const testing::Reply q = testing::get(cli, "/api/query?board=2x4&start=" + url(s) + "&goal=" + url(goal));
    CHECK(q.status == 200);
    CHECK(q.body["length"] == d);
  }
  auto after = files_in(dir.path);
  after.erase("3x3-123456780.tsdb");  // the server's warm-up
  CHECK(after == before);              // nothing built for 2x4
}
