// Zero-aware pattern databases (pdb/zero_aware.hpp): the index against the (placement, region)
// pairs, the values against a naive 0-1 search over (tiles, blank), admissibility and the exact
// +-1 steps against the exact 8-puzzle table, the one-bit lookups against the full-width values on
// every entry, the files, and optimal searches with them; catalogues (several partitions, the
// largest sum) on every 8-puzzle state, their searches, the default choice and the command line.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <unordered_map>

#include "support.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/goal_table.hpp"
#include "tilespace/pdb/database.hpp"
#include "tilespace/pdb/heuristic.hpp"
#include "tilespace/pdb/zero_aware.hpp"
#include "tilespace/random_states.hpp"
#include "tilespace/search/domain.hpp"
#include "tilespace/search/pattern_heuristic.hpp"
#include "tilespace/search/solve.hpp"

using namespace tilespace;
using namespace tilespace::pdb;

namespace {

std::array<std::uint8_t, kMaxPdbCells> cells_of(const State& s, const Pattern& p) { return placement_of(s, p); }

// Every entry's neighbours in the index (the moves of a pattern tile into the blank's region),
// with the cells after the move and the blank's new cell.
template <class F>
void for_each_move(const ZeroAwareIndex& index, std::uint64_t entry, F&& f) {
  std::array<std::uint8_t, kMaxPdbCells> pos{};
  const CellMask region = index.unrank(entry, pos.data());
  const CellGrid& g = index.grid();
  for (int i = 0; i < index.tiles(); ++i) {
    const int from = pos[i];
    if (!(g.around(region) & (CellMask{1} << from))) continue;
    for (CellMask to = g.around(CellMask{1} << from) & region; to; to &= to - 1) {
      pos[i] = static_cast<std::uint8_t>(std::countr_zero(to));
      f(pos.data(), from);
    }
    pos[i] = static_cast<std::uint8_t>(from);
  }
}

// The one-bit database reproduces the full-width values: after every move from every entry
// (the rule of `next`, from the exact value before: one rank a move), and by descent (`value`) from
// every `descent_every`-th entry. On every core.
void check_one_bit(const State& goal, const Pattern& p, std::uint64_t descent_every) {
  const BuiltZeroAware built = build_zero_aware_values(goal, p);
  const ZeroAwareDatabase db = ZeroAwareDatabase::from_values(goal, p, built.values, built.histogram);
  const ZeroAwareIndex& index = db.index();
  REQUIRE(built.values.size() == index.size());
  struct Count {
    std::uint64_t wrong_next = 0, wrong_step = 0, moves = 0, wrong_descent = 0, descents = 0;
  };
  const Count n = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, index.size(), 1 << 16), Count{},
      [&](const tbb::blocked_range<std::uint64_t>& r, Count c) {
        std::array<std::uint8_t, kMaxPdbCells> pos{};
        for (std::uint64_t e = r.begin(); e < r.end(); ++e) {
          const int v = built.values[e];
          for_each_move(index, e, [&](const std::uint8_t* after, int blank) {
            const std::uint64_t t = index.rank(after, blank);
            const int w = built.values[t];
            c.wrong_step += std::abs(w - v) != 1;
            // ZeroAwareDatabase::next's rule on this entry's bit.
            c.wrong_next += (((v + 1) >> 1) & 1) == db.bit(t) ? w != v + 1 : w != v - 1;
            ++c.moves;
          });
          if (e % descent_every == 0) {
            const CellMask region = index.unrank(e, pos.data());
            c.wrong_descent += db.value(pos.data(), std::countr_zero(region)) != v;
            ++c.descents;
          }
        }
        return c;
      },
      [](Count a, const Count& b) {
        a.wrong_next += b.wrong_next;
        a.wrong_step += b.wrong_step;
        a.moves += b.moves;
        a.wrong_descent += b.wrong_descent;
        a.descents += b.descents;
        return a;
      });
  INFO(goal.board.name() << " pattern " << p.name() << ": " << index.size() << " entries, " << n.moves << " moves");
  CHECK(n.moves > index.size());
  CHECK(n.wrong_step == 0);
  CHECK(n.wrong_next == 0);
  CHECK(n.descents > 0);
  CHECK(n.wrong_descent == 0);
  // next() itself, on a sample of moves.
  std::uint64_t wrong = 0, tried = 0;
  for (std::uint64_t e = 0; e < index.size(); e += 1 + index.size() / 5000) {
    const int v = built.values[e];
    for_each_move(index, e, [&](const std::uint8_t* after, int blank) {
      wrong += db.next(v, after, blank) != built.values[index.rank(after, blank)];
      ++tried;
    });
  }
  CHECK(tried > 5000);
  CHECK(wrong == 0);
}

// One thread, with the databases of `h` as the heuristic `heuristic` ("zpdb", or "catalogue").
search::Result solve_with(const State& start, const PdbHeuristic& h, const std::string& algorithm = "idastar",
                          const std::string& heuristic = "zpdb") {
  search::SolveOptions o;
  o.algorithm = algorithm;
  o.heuristic = heuristic;
  o.pdb = &h;
  o.threads = 1;
  return search::solve(start, h.goal(), o);
}

}  // namespace

TEST_CASE("zero-aware index: rank and unrank are inverse, one entry per placement and region of the blank", "[pdb][zero-aware]") {
  struct Case {
    Board board;
    int tiles;
  };
  for (const Case& c : {Case{Board(3, 3), 1}, Case{Board(3, 3), 3}, Case{Board(3, 3), 6}, Case{Board(2, 4), 3},
                        Case{Board(4, 3), 4}, Case{Board(4, 4), 3}, Case{Board(5, 5), 2}}) {
    INFO(c.board.name() << ", " << c.tiles << " tiles");
    const ZeroAwareIndex index(c.board, c.tiles);
    const PlacementRanker placements(c.board.cells(), c.tiles);
    const CellGrid& g = index.grid();
    // The entries are the (placement, region) pairs.
    std::uint64_t pairs = 0;
    std::array<std::uint8_t, kMaxPdbCells> pos{};
    for (std::uint64_t r = 0; r < placements.size(); ++r) {
      placements.unrank(r, pos.data());
      CellMask cover = 0;
      for (int i = 0; i < c.tiles; ++i) cover |= CellMask{1} << pos[i];
      for (CellMask rest = g.all & ~cover; rest; ++pairs) rest &= ~g.fill(rest & (0u - rest), g.all & ~cover);
    }
    CHECK(index.size() == pairs);
    // Every entry comes back from every cell of its region, and the regions are the free cells'.
    std::uint64_t wrong = 0;
    for (std::uint64_t e = 0; e < index.size(); ++e) {
      const CellMask region = index.unrank(e, pos.data());
      CellMask cover = 0;
      for (int i = 0; i < c.tiles; ++i) cover |= CellMask{1} << pos[i];
      wrong += std::popcount(cover) != c.tiles || (region & cover) != 0 || region == 0 ||
               g.fill(region & (0u - region), g.all & ~cover) != region;
      for (CellMask m = region; m; m &= m - 1) wrong += index.rank(pos.data(), std::countr_zero(m)) != e;
    }
    CHECK(wrong == 0);
  }
  CHECK_THROWS_WITH(ZeroAwareIndex(Board(3, 3), 7), Catch::Contains("has 1 to 6 tiles"));
  CHECK_THROWS_WITH(ZeroAwareIndex(Board(3, 3), 0), Catch::Contains("has 1 to 6 tiles"));
}

TEST_CASE("zero-aware databases equal a naive 0-1 search over (tiles, blank)", "[pdb][zero-aware]") {
  struct Case {
    State goal;
    Pattern pattern;
  };
  for (const Case& c : {Case{canonical_goal(Board(3, 3), 8), Pattern{{1, 2, 4, 5}}},
                        Case{canonical_goal(Board(3, 3), 0), Pattern{{3, 6, 7, 8}}},
                        Case{canonical_goal(Board(3, 3), 4), Pattern{{1, 8, 3}}},
                        Case{canonical_goal(Board(2, 3), 5), Pattern{{1, 2}}},
                        Case{canonical_goal(Board(4, 3), 11), Pattern{{2, 7, 5}}},
                        Case{canonical_goal(Board(4, 4), 0), Pattern{{1, 4, 5}}}}) {
    INFO(c.goal.board.name() << " goal " << c.goal.to_string() << " pattern " << c.pattern.name());
    const BuiltZeroAware db = build_zero_aware_values(c.goal, c.pattern);
    const auto naive = testing::naive_pattern_costs(c.goal, c.pattern.tiles);
    const ZeroAwareIndex index(c.goal.board, static_cast<int>(c.pattern.tiles.size()));
    std::uint64_t wrong = 0;
    for (const auto& [key, d] : naive) {
      std::vector<std::uint8_t> pos(key.begin(), key.end() - 1);
      wrong += db.values[index.rank(pos.data(), key.back())] != d;
    }
    CHECK(wrong == 0);
    // Every entry was reached (the naive search meets each region through each of its cells).
    std::uint64_t total = 0;
    for (const auto h : db.histogram) total += h;
    CHECK(total == index.size());
    CHECK(db.histogram[0] == 1);
  }
}

TEST_CASE("zero-aware 8-puzzle databases never overestimate, never fall below the additive ones, and step by one",
          "[pdb][zero-aware]") {
  testing::TempDir dir;
  // Under the sanitizers one goal blank (each is a pass over every state); the Release run takes all three.
  for (const int blank : testing::kSanitized ? std::vector<int>{4} : std::vector<int>{8, 0, 4}) {
    const State goal = canonical_goal(Board(3, 3), blank);
    PdbStoreOptions o;
    o.dir = dir.path;
    PdbStore store(o);
    const Partition part = blank == 4 ? parse_partition("1,2,3,4/5,6,7,8", goal) : parse_partition("4-4", goal);
    const PdbHeuristic additive = make_heuristic(store, goal, part);
    const PdbHeuristic zero = make_heuristic(store, goal, part, true);
    REQUIRE(zero.zero_aware());
    CHECK(zero.reflects());
    const DistanceTable table = DistanceTable::build(Board(3, 3), blank);
    // Each database's value of a state, by descent, once an entry.
    std::vector<std::vector<int>> memo;
    for (const auto& db : zero.zero_aware_databases()) memo.emplace_back(db->index().size(), -1);
    auto value_of = [&](std::size_t j, const State& s) {
      const auto& db = *zero.zero_aware_databases()[j];
      const auto cells = cells_of(s, db.pattern());
      int& v = memo[j][db.index().rank(cells.data(), s.blank)];
      if (v < 0) v = db.value(cells.data(), s.blank);
      return v;
    };
    std::uint64_t over = 0, below_additive = 0, bad_steps = 0, steps = 0, z_sum = 0, a_sum = 0, higher = 0;
    for (std::uint64_t r = 0; r < table.ranker().size(); ++r) {
      const State s = GoalTable(table, blank).state_of_rank(r, goal);
      const int d = *table.distance(s, goal);
      // The zero-aware sums from the memo: the state's and its reflection's (PdbHeuristic's own
      // direct() and reflected() are checked against them on a sample).
      State mirrored = s;
      for (int c = 0; c < s.cells(); ++c)
        mirrored.tiles[zero.mirror_cell(c)] = static_cast<std::uint8_t>(zero.mirror_tile(s.tiles[c]));
      mirrored.blank = zero.mirror_cell(s.blank);
      int zd = 0, zr = 0;
      for (std::size_t j = 0; j < memo.size(); ++j) {
        zd += value_of(j, s);
        zr += value_of(j, mirrored);
      }
      if (r % 997 == 0) {
        REQUIRE(zd == zero.direct(s));
        REQUIRE(zr == zero.reflected(s));
      }
      const int z = std::max(zd, zr), a = additive.evaluate(s);
      over += zd > d || zr > d;
      below_additive += zd < additive.direct(s) || zr < additive.reflected(s);
      higher += z > a;
      z_sum += static_cast<std::uint64_t>(z);
      a_sum += static_cast<std::uint64_t>(a);
      // Each database's value moves by exactly one when one of its tiles moves, else not at all.
      const auto& nb = s.board.neighbours(s.blank);
      for (int m = 0; m < nb.count; ++m) {
        const State t = s.moved(nb.cell[m]);
        const int tile = s.tiles[nb.cell[m]];
        for (std::size_t j = 0; j < zero.zero_aware_databases().size(); ++j) {
          const auto& tiles = zero.zero_aware_databases()[j]->pattern().tiles;
          const bool mine = std::find(tiles.begin(), tiles.end(), tile) != tiles.end();
          const int before = value_of(j, s), after = value_of(j, t);
          bad_steps += mine ? std::abs(after - before) != 1 : after != before;
          ++steps;
        }
      }
    }
    INFO("goal blank " << blank << ": mean h " << double(z_sum) / 181440 << " against additive " << double(a_sum) / 181440);
    CHECK(steps > 0);
    CHECK(over == 0);
    CHECK(below_additive == 0);
    CHECK(bad_steps == 0);
    CHECK(higher > 0);
    CHECK(z_sum > a_sum);
  }
}

TEST_CASE("one-bit zero-aware lookups equal the full-width values on every entry of 8-puzzle patterns",
          "[pdb][zero-aware]") {
  check_one_bit(canonical_goal(Board(3, 3), 0), Pattern{{1, 2, 3, 4}}, 1);
  check_one_bit(canonical_goal(Board(3, 3), 4), Pattern{{5, 6, 7, 8}}, 1);
  check_one_bit(canonical_goal(Board(4, 3), 11), Pattern{{1, 2, 3, 5, 6}}, 7);
}

TEST_CASE("one-bit zero-aware lookups equal the full-width values on every entry of the 4x4 patterns in use",
          "[pdb][zero-aware][slow]") {
  const State korf = canonical_goal(Board(4, 4), 0);
  // The 6-6-3 partition the 4x4 tests search with: every entry after every move, and by descent
  // from one entry in 97.
  for (const Pattern& p : parse_partition("6-6-3", korf).patterns) check_one_bit(korf, p, 97);
}

// The 5x5 grid (25-cell masks and regions, the wide placement index): the first five tiles of
// 6-6-6-6's first pattern, every entry. The pattern of six (181 M entries, 90 s of CPU) repeats
// the same code at 20 times the size; `tilespace build --board 5x5 --zpdb 6-6-6-6` builds it with
// the same builder, whose values the naive 0-1 search checks above.
TEST_CASE("one-bit zero-aware lookups equal the full-width values on every entry of a 5-tile 5x5 pattern",
          "[pdb][zero-aware][slow]") {
  const State goal = canonical_goal(Board(5, 5), 0);
  Pattern p = parse_partition("6-6-6-6", goal).patterns.front();
  p.tiles.resize(5);
  check_one_bit(goal, p, 10007);
}

TEST_CASE("zero-aware database files round-trip and reject foreign, truncated or corrupt files", "[pdb][zero-aware]") {
  testing::TempDir dir;
  const State goal = canonical_goal(Board(4, 4), 0);
  const Pattern p{{1, 2, 3, 4}};
  const ZeroAwareDatabase built = ZeroAwareDatabase::build(goal, p);
  const auto file = dir / "a.zpdb";
  built.save(file);
  const ZeroAwareDatabase loaded = ZeroAwareDatabase::load(file, goal, p);
  CHECK(std::ranges::equal(loaded.words(), built.words()));
  CHECK(loaded.histogram() == built.histogram());
  CHECK_THROWS_WITH(ZeroAwareDatabase::load(file, goal, Pattern{{1, 2, 3, 5}}), Catch::Contains("holds pattern 1,2,3,4"));
  CHECK_THROWS_WITH(ZeroAwareDatabase::load(file, canonical_goal(Board(4, 4), 15), p), Catch::Contains("built for the goal"));
  std::string bytes = testing::read_file(file);
  std::string flipped = bytes;
  flipped[kHeaderSize + 777] = static_cast<char>(flipped[kHeaderSize + 777] ^ 1);
  testing::write_file(dir / "bad.zpdb", flipped);
  CHECK_THROWS_WITH(ZeroAwareDatabase::load(dir / "bad.zpdb", goal, p), Catch::Contains("does not match its checksum"));
  testing::write_file(dir / "short.zpdb", bytes.substr(0, bytes.size() - 10));
  CHECK_THROWS_WITH(ZeroAwareDatabase::load(dir / "short.zpdb", goal, p), Catch::Contains("truncated"));
  // An additive database is not a zero-aware one, nor the other way round.
  PatternDatabase::build(goal, p).save(dir / "a.pdb");
  CHECK_THROWS_WITH(ZeroAwareDatabase::load(dir / "a.pdb", goal, p), Catch::Contains("not a zero-aware pattern database"));
  CHECK_THROWS_WITH(PatternDatabase::load(file, goal, p), Catch::Contains("not a pattern database"));
  // A header claiming another entry count (resealed, so that only the count is wrong).
  std::string count = bytes;
  testing::put_at<std::uint64_t>(count, 24, built.index().size() + 64);
  testing::reseal_header(count, 56);
  testing::write_file(dir / "count.zpdb", count);
  CHECK_THROWS_AS(ZeroAwareDatabase::load(dir / "count.zpdb", goal, p), DataError);
  // The store names the file and the command that rebuilds it.
  PdbStoreOptions o;
  o.dir = dir / "store";
  PdbStore store(o);
  std::filesystem::create_directories(o.dir);
  testing::write_file(store.path_for(goal, p, true), flipped);
  CHECK_THROWS_WITH(store.get_zero_aware(goal, p), Catch::Contains(store.path_for(goal, p, true).string()) &&
                                                      Catch::Contains("tilespace build") && Catch::Contains("--zpdb 1,2,3,4 --force"));
  CHECK(store.path_for(goal, p, true).filename().string().ends_with("-z1.2.3.4.zpdb"));
}

TEST_CASE("searches with zero-aware databases are optimal on 8-puzzle states", "[pdb][zero-aware]") {
  testing::TempDir dir;
  {
    const State goal = canonical_goal(Board(3, 3), 0);
    PdbStoreOptions o;
    o.dir = dir.path;
    PdbStore store(o);
    const PdbHeuristic h = make_heuristic(store, goal, parse_partition("4-4", goal), true);
    const DistanceTable table = DistanceTable::build(Board(3, 3), 0);
    std::mt19937_64 rng(2028);
    for (int i = 0; i < 300; ++i) {
      const State s = GoalTable(table, 0).state_of_rank(rng() % table.ranker().size(), goal);
      for (const char* algorithm : {"idastar", "astar"}) {
        const search::Result r = solve_with(s, h, algorithm);
        REQUIRE(r.solved);
        REQUIRE(static_cast<int>(r.path.size()) - 1 == *table.distance(s, goal));
      }
    }
  }
}

// The 6-6-3 build and the searches take 3.7 minutes under ASan: Release only ([slow]).
TEST_CASE("searches with zero-aware databases are optimal on Korf's quickest instances", "[pdb][zero-aware][korf][slow]") {
  testing::TempDir dir;
  const Board board(4, 4);
  const State goal = canonical_goal(board, 0);
  PdbStoreOptions o;
  o.dir = dir.path;
  PdbStore store(o);
  const PdbHeuristic h = make_heuristic(store, goal, parse_partition("6-6-3", goal), true);
  const auto korf = testing::read_instances("korf100.tsv", board);
  REQUIRE(korf.size() == 100);
  for (const int i : {0, 1, 2, 4, 6, 7, 9, 11, 15, 21}) {  // instances IDA* solves in well under a second
    INFO("Korf's instance " << i + 1);
    CHECK(h.evaluate(korf[i].start) <= korf[i].length);
    const search::Result r = solve_with(korf[i].start, h, "idastar");
    REQUIRE(r.solved);
    CHECK(static_cast<int>(r.path.size()) - 1 == korf[i].length);
  }
}

TEST_CASE("zero-aware databases from the command line: build --zpdb, solve, verify and compare with zpdb", "[pdb][zero-aware][cli]") {
  testing::TempDir dir;
  SECTION("build --zpdb builds, keeps and names them; solve --heuristic zpdb finds the optimal length") {
    auto r = testing::run_cli("build --zpdb 4-4 --json", dir.path);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("\"zero_aware\":true") && Catch::Contains("-z8.7.5.4.zpdb") && Catch::Contains("-z6.3.2.1.zpdb") &&
                          Catch::Contains("\"up_to_date\":false"));
    r = testing::run_cli("build --zpdb 4-4", dir.path);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Catch::StartsWith("up to date: out/3x3-123456780-z8.7.5.4.zpdb"));
    r = testing::run_cli("solve --heuristic zpdb:4-4 '8 6 7 2 5 4 3 0 1' --json", dir.path);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("\"length\":31") && Catch::Contains("\"heuristic\":\"zpdb:4-4\""));
    CHECK_THAT(r.err, !Catch::Contains("building zero-aware"));
    r = testing::run_cli("solve --heuristic zpdb '8 6 7 2 5 4 3 0 1' -a astar", dir.path);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Catch::StartsWith("31 moves: "));
    // The heuristic searches, on 3,000 8-puzzle states against the table.
    r = testing::run_cli("verify --algorithms idastar:zpdb:4-4,astar:zpdb,aidastar:zpdb:4-4 --sample 3000 --seed 7", dir.path);
    CHECK(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("zpdb"));
    r = testing::run_cli("compare --algorithms idastar:pdb:4-4,idastar:zpdb:4-4 '8 6 7 2 5 4 3 0 1' --json", dir.path);
    CHECK(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains("zpdb:4-4"));
  }
  SECTION("a missing database that builds within a minute is built first; a long one is refused with its command") {
    auto r = testing::run_cli("solve --heuristic zpdb:1,2,3/4,5,6 '1 2 3 4 5 6 7 0 8'", dir.path);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.err, Catch::Contains("building zero-aware pattern 1,2,3"));
    r = testing::run_cli("solve --board 5x5 --heuristic zpdb:6-6-6-6 --goal '0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24' "
                         "'1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24'",
                         dir.path);
    CHECK(r.rc == 3);
    CHECK_THAT(r.err, Catch::Contains("zero-aware pattern database 6-6-6-6") && Catch::Contains("build --board 5x5") &&
                          Catch::Contains("--zpdb 6-6-6-6"));
  }
  SECTION("options that do not apply and patterns too large are errors naming them; a corrupt file is a data error") {
    const std::pair<const char*, const char*> refused[] = {
        {"build --zpdb 4-4 --pdb 4-4", "--zpdb: does not apply with --pdb"},
        {"build --zpdb 4-4 --bits 1", "--bits: does not apply with --zpdb"},
        {"build --zpdb 4-4 --all-goals", "--all-goals: does not apply with --zpdb"},
        {"build --zpdb 1,2,3,4,5,6,7", "a zero-aware pattern on the 3x3 board has 1 to 6 tiles"},
        {"solve --heuristic zpdb:1,2,3,4,5,6,7 '1 2 3 4 5 6 7 0 8'", "1 to 6 tiles"},
        {"solve --heuristic manhattan:4-4 '1 2 3 4 5 6 7 0 8'", "unknown heuristic 'manhattan:4-4'"},
    };
    for (const auto& [command, says] : refused) {
      const auto r = testing::run_cli(command, dir.path);
      CAPTURE(command);
      CHECK(r.rc == 2);
      CHECK_THAT(r.err, Catch::Contains(says));
    }
    REQUIRE(testing::run_cli("build --zpdb 4-4", dir.path).rc == 0);
    const auto file = dir / "out" / "3x3-123456780-z8.7.5.4.zpdb";
    std::string bytes = testing::read_file(file);
    bytes[kHeaderSize + 3] = static_cast<char>(bytes[kHeaderSize + 3] ^ 8);
    testing::write_file(file, bytes);
    const auto r = testing::run_cli("solve --heuristic zpdb:4-4 '8 6 7 2 5 4 3 0 1'", dir.path);
    CHECK(r.rc == 3);
    CHECK_THAT(r.err, Catch::Contains("z8.7.5.4.zpdb") && Catch::Contains("checksum") && Catch::Contains("--zpdb 8,7,5,4 --force"));
  }
}

// ---- catalogues: several partitions, the largest sum ----

TEST_CASE("catalogues are parsed from stock names and '+', each shared pattern kept once", "[pdb][zero-aware][catalogue]") {
  const State g25 = canonical_goal(Board(5, 5), 0), g16 = canonical_goal(Board(4, 4), 0), g9 = canonical_goal(Board(3, 3), 0);
  const Partition max7 = parse_partition("max7", g25);
  CHECK(max7.catalogue());
  CHECK(max7.name == "max7");
  REQUIRE(max7.groups.size() == 7);
  CHECK(max7.patterns.size() == 14);
  for (const auto& group : max7.groups) {  // every partition: four 6-tile patterns covering the 24 tiles once
    std::vector<int> tiles;
    for (const int j : group) {
      CHECK(max7.patterns[static_cast<std::size_t>(j)].tiles.size() == 6);
      for (const auto t : max7.patterns[static_cast<std::size_t>(j)].tiles) tiles.push_back(t);
    }
    std::sort(tiles.begin(), tiles.end());
    std::vector<int> all(24);
    std::iota(all.begin(), all.end(), 1);
    CHECK(tiles == all);
  }
  CHECK(pdb::stock_catalogues(Board(5, 5)) == std::vector<std::string>{"max7"});
  CHECK(pdb::stock_catalogues(Board(4, 4)).empty());
  // The goal with the blank in another corner mirrors the blocks, as for stock partitions.
  const Partition mirrored = parse_partition("max7", canonical_goal(Board(5, 5), 24));
  CHECK(mirrored.patterns.size() == 14);
  CHECK_FALSE(mirrored.patterns == max7.patterns);

  const Partition two = parse_partition("6-6-3 + 5-5-5", g16);
  CHECK(two.catalogue());
  CHECK(two.patterns.size() == 6);
  CHECK(two.groups == std::vector<std::vector<int>>{{0, 1, 2}, {3, 4, 5}});
  const Partition shared = parse_partition("1,2,3/4,5,6/7,8+1,4,7/2,5,8/3,6+7,8/1,2,3/4,5,6", g9);
  CHECK(shared.patterns.size() == 6);  // 7,8 / 1,2,3 / 4,5,6 are the first partition's again
  CHECK(shared.groups == std::vector<std::vector<int>>{{0, 1, 2}, {3, 4, 5}, {2, 0, 1}});
  CHECK_FALSE(parse_partition("7-8", g16).catalogue());
  CHECK(parse_partition("7-8", g16).partitions() == std::vector<std::vector<int>>{{0, 1}});

  CHECK_THROWS_WITH(parse_partition("max7", g16), Catch::Contains("catalogue max7 is for the 5x5 board, not 4x4"));
  CHECK_THROWS_WITH(parse_partition("6-6-3+", g16), Catch::Contains("empty partition in catalogue"));
  CHECK_THROWS_WITH(parse_partition("max7+6-6-6-6", g25), Catch::Contains("catalogue max7 is joined"));
  CHECK_THROWS_WITH(parse_partition("6-6-3+1,2,2", g16), Catch::Contains("tile 2 appears twice"));
  CHECK_THROWS_WITH(pdb::stock_catalogue(g16), Catch::Contains("no stock catalogue for the 4x4 board"));
  CHECK(pdb::stock_catalogue(g25).name == "max7");
}

TEST_CASE("a zero-aware catalogue on every 8-puzzle state: the largest partition, admissible, consistent, and the "
          "search's incremental values agree",
          "[pdb][zero-aware][catalogue][slow]") {  // a whole-space proof: 84 s of CPU under ASan; the
                                                   // catalogue's searches below take its code paths there
  testing::TempDir dir;
  const State goal = canonical_goal(Board(3, 3), 0);
  PdbStoreOptions o;
  o.dir = dir.path;
  PdbStore store(o);
  const Partition cat = parse_partition("4-4+1,2,3/4,5,6/7,8+1,4,7/2,5,8/3,6", goal);
  REQUIRE(cat.groups.size() == 3);
  const PdbHeuristic h = make_heuristic(store, goal, cat, true);
  REQUIRE(h.partitions().size() == 3);
  // Each partition on its own, from the same store.
  std::vector<PdbHeuristic> parts;
  for (const char* spec : {"4-4", "1,2,3/4,5,6/7,8", "1,4,7/2,5,8/3,6"})
    parts.push_back(make_heuristic(store, goal, parse_partition(spec, goal), true));
  const DistanceTable table = DistanceTable::build(Board(3, 3), 0);
  const GoalTable gt(table, 0);
  const search::Domain d(goal);
  const search::ZeroAwareCatalogue<search::Domain> incremental(d, h);
  // The catalogue's value of every state, from the partitions' own (memoized by rank).
  std::vector<int> value(table.ranker().size());
  std::unordered_map<std::uint64_t, std::uint64_t> rank_of;  // packed state -> rank
  std::uint64_t over = 0, strict = 0, sum_cat = 0, sum_first = 0;
  for (std::uint64_t r = 0; r < value.size(); ++r) {
    const State s = gt.state_of_rank(r, goal);
    rank_of[d.pack(s)] = r;
    int best = 0;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const int v = parts[k].evaluate(s);
      if (k == 0) sum_first += static_cast<std::uint64_t>(v);
      strict += k > 0 && v > best && best == parts[0].evaluate(s);
      best = std::max(best, v);
    }
    value[r] = best;
    sum_cat += static_cast<std::uint64_t>(best);
    over += best > *table.distance(s, goal);
    if (r % 101 == 0) REQUIRE(h.evaluate(s) == best);
  }
  CHECK(over == 0);
  CHECK(strict > 0);  // the other partitions raise some states above the first one's value
  CHECK(sum_cat > sum_first);
  // Consistency across every move, and the search heuristic's Value along every move of a sample.
  std::uint64_t inconsistent = 0, wrong_eval = 0, wrong_update = 0, wrong_capped = 0, updates = 0;
  for (std::uint64_t r = 0; r < value.size(); ++r) {
    const State s = gt.state_of_rank(r, goal);
    const bool sampled = r % 13 == 0;
    const auto v = sampled ? incremental.eval(d.pack(s), s.blank) : decltype(incremental.eval(0, 0)){};
    wrong_eval += sampled && search::ZeroAwareCatalogue<search::Domain>::value(v) != value[r];
    const auto& nb = s.board.neighbours(s.blank);
    for (int m = 0; m < nb.count; ++m) {
      const State t = s.moved(nb.cell[m]);
      const int vt = value[rank_of.at(d.pack(t))];
      inconsistent += std::abs(vt - value[r]) > 1;
      if (!sampled) continue;
      const int tile = s.tiles[nb.cell[m]];
      const auto u = incremental.update(v, d.pack(t), t.blank, tile, nb.cell[m], s.blank);
      wrong_update += search::ZeroAwareCatalogue<search::Domain>::value(u) != vt;
      for (const int cap : {vt - 1, vt}) {  // under a cap: never above the value, exact unless pruned
        const int c = search::ZeroAwareCatalogue<search::Domain>::value(
            incremental.update(v, d.pack(t), t.blank, tile, nb.cell[m], s.blank, cap));
        wrong_capped += c > vt || (c <= cap && c != vt);
      }
      ++updates;
    }
  }
  INFO("mean h " << double(sum_cat) / 181440 << " against 4-4's " << double(sum_first) / 181440);
  CHECK(updates > 10000);
  CHECK(inconsistent == 0);
  CHECK(wrong_eval == 0);
  CHECK(wrong_update == 0);
  CHECK(wrong_capped == 0);
  // A plain partition's heuristic refuses a catalogue.
  CHECK_THROWS_WITH(search::ZeroAwareDatabases<search::Domain>(d, h), Catch::Contains("needs the catalogue heuristic"));
}

TEST_CASE("searches with a zero-aware catalogue are optimal on 8-puzzle states and Korf's quickest instances",
          "[pdb][zero-aware][catalogue]") {
  testing::TempDir dir;
  PdbStoreOptions o;
  o.dir = dir.path;
  PdbStore store(o);
  auto solve = [](const State& s, const PdbHeuristic& h, const char* algorithm) {
    return solve_with(s, h, algorithm, "catalogue");
  };
  {
    const State goal = canonical_goal(Board(3, 3), 8);
    const PdbHeuristic h = make_heuristic(store, goal, parse_partition("4-4+1,2,3/4,5,6/7,8+1,4,7/2,5,8/3,6", goal), true);
    const DistanceTable table = DistanceTable::build(Board(3, 3), 8);
    std::mt19937_64 rng(2029);
    for (int i = 0; i < 200; ++i) {
      const State s = GoalTable(table, 8).state_of_rank(rng() % table.ranker().size(), goal);
      for (const char* algorithm : {"idastar", "astar", "aidastar"}) {
        const search::Result r = solve(s, h, algorithm);
        REQUIRE(r.solved);
        REQUIRE(static_cast<int>(r.path.size()) - 1 == *table.distance(s, goal));
      }
    }
  }
  if (testing::kSanitized) return;  // the 4x4 databases take minutes under ASan
  const Board board(4, 4);
  const State goal = canonical_goal(board, 0);
  const PdbHeuristic h = make_heuristic(store, goal, parse_partition("6-6-3+5-5-5", goal), true);
  const auto korf = testing::read_instances("korf100.tsv", board);
  REQUIRE(korf.size() == 100);
  for (const int i : {0, 1, 2, 4, 6, 7, 9, 11, 15, 21}) {
    INFO("Korf's instance " << i + 1);
    CHECK(h.evaluate(korf[i].start) <= korf[i].length);
    const search::Result r = solve(korf[i].start, h, "idastar");
    REQUIRE(r.solved);
    CHECK(static_cast<int>(r.path.size()) - 1 == korf[i].length);
  }
}

TEST_CASE("the default search takes the fastest pattern databases built: each stock partition zero-aware, then "
          "additive, then the stock catalogue",
          "[pdb][zero-aware][catalogue]") {
  testing::TempDir dir;
  PdbStoreOptions o;
  o.dir = dir.path;
  o.max_auto_build_seconds = 0;  // nothing is quick to build: only what exists counts
  const PdbStore store(o);
  const State g25 = canonical_goal(Board(5, 5), 0), g16 = canonical_goal(Board(4, 4), 0);
  auto touch = [&](const State& goal, const Partition& p, bool zero_aware) {
    for (const auto& pat : p.patterns) testing::write_file(store.path_for(goal, pat, zero_aware), "");  // has() reads no file
  };
  auto chosen = [&](const State& goal) {
    const DefaultChoice c = choose_default(store, goal);
    return c.partition.name + (c.zero_aware ? " zero-aware" : " additive");
  };
  CHECK(chosen(g25) == "6-6-6-6 additive");  // nothing built: the additive pick, whose refusal names its command
  // The catalogue, when nothing else is built; one pattern missing is not built.
  const Partition max7 = parse_partition("max7", g25);
  touch(g25, Partition{"", {max7.patterns.begin(), max7.patterns.end() - 1}, {}}, true);
  CHECK_FALSE(choose_default(store, g25).partition.catalogue());
  touch(g25, max7, true);
  CHECK(choose_default(store, g25).partition.catalogue());
  CHECK(chosen(g25) == "max7 zero-aware");
  // A stock partition built comes first (measured faster than the catalogue), zero-aware first.
  touch(g25, parse_partition("6-6-6-6", g25), false);
  CHECK(chosen(g25) == "6-6-6-6 additive");
  touch(g25, parse_partition("6-6-6-6", g25), true);
  CHECK(chosen(g25) == "6-6-6-6 zero-aware");
  // 4x4: the strongest partition first, zero-aware before additive.
  touch(g16, parse_partition("5-5-5", g16), true);
  CHECK(chosen(g16) == "5-5-5 zero-aware");
  touch(g16, parse_partition("6-6-3", g16), false);
  CHECK(chosen(g16) == "6-6-3 additive");
}

TEST_CASE("catalogues from the command line: build --zpdb A+B, solve --heuristic catalogue:A+B, compare --sample, the errors",
          "[pdb][zero-aware][catalogue][cli]") {
  testing::TempDir dir;
  const std::string cat = "'4-4+1,2,3/4,5,6/7,8'";
  auto r = testing::run_cli("build --zpdb " + cat + " --json", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains("-z7.8.zpdb") && Catch::Contains("-z8.7.5.4.zpdb") && Catch::Contains("\"partition\":\"4-4+1,2,3/4,5,6/7,8\""));
  r = testing::run_cli("solve --heuristic catalogue:" + cat + " '8 6 7 2 5 4 3 0 1' --json", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains("\"length\":31") && Catch::Contains("\"heuristic\":\"catalogue:4-4+1,2,3/4,5,6/7,8\""));
  // The default search on 3x3 is the table; on 4x4 it takes the zero-aware databases once built.
  r = testing::run_cli("build --board 4x4 --zpdb 5-5-5", dir.path);
  REQUIRE(r.rc == 0);
  r = testing::run_cli("solve --board 4x4 '1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15' --json", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains("\"heuristic\":\"zpdb:5-5-5\"") && Catch::Contains("\"length\":1"));
  r = testing::run_cli("solve --heuristic catalogue --pattern " + cat + " -a astar '8 6 7 2 5 4 3 0 1'", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Catch::StartsWith("31 moves: "));
  // The mean heuristic value over random states, against the exact distances of the same states.
  r = testing::run_cli("compare --algorithms idastar:manhattan,idastar:zpdb:4-4,idastar:exact --sample 400 --seed 5 --json",
                       dir.path);
  REQUIRE(r.rc == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.at("sample").size() == 3);
  CHECK(j.at("runs").empty());
  const State goal = canonical_goal(Board(3, 3), 8);
  const DistanceTable table = DistanceTable::build(Board(3, 3), 8);
  RandomStates draw(goal, RandomOptions{std::nullopt, 5}, nullptr);
  double exact = 0;
  for (int i = 0; i < 400; ++i) exact += *table.distance(draw.next(), goal);
  CHECK(j["sample"][2]["heuristic"] == "exact");
  CHECK(j["sample"][2]["mean"].get<double>() == Approx(exact / 400).epsilon(1e-12));
  CHECK(j["sample"][1]["heuristic"] == "zpdb:4-4");
  CHECK(j["sample"][0]["mean"].get<double>() <= j["sample"][1]["mean"].get<double>());
  CHECK(j["sample"][1]["mean"].get<double>() <= j["sample"][2]["mean"].get<double>());
  CHECK(j["sample"][1]["max"].get<int>() <= 31);
  r = testing::run_cli("compare --algorithms idastar:catalogue:" + cat + " --sample 50 '8 6 7 2 5 4 3 0 1'", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains("mean h") && Catch::Contains("catalogue:4-4+1,2,3/4,5,6/7,8") && Catch::Contains("31"));
  const std::pair<std::string, const char*> refused[] = {
      {"solve --heuristic zpdb:" + cat + " '8 6 7 2 5 4 3 0 1'", "is a catalogue of 2 partitions: use --heuristic catalogue:"},
      {"solve --heuristic pdb:" + cat + " '8 6 7 2 5 4 3 0 1'", "is a catalogue of 2 partitions"},
      {"solve --heuristic catalogue '8 6 7 2 5 4 3 0 1'", "no stock catalogue for the 3x3 board"},
      {"solve --heuristic catalogue:max7 '8 6 7 2 5 4 3 0 1'", "catalogue max7 is for the 5x5 board, not 3x3"},
      {"solve --heuristic 'catalogue:4-4+' '8 6 7 2 5 4 3 0 1'", "empty partition in catalogue"},
      {"compare --algorithms idastar:manhattan --seed 3 '8 6 7 2 5 4 3 0 1'", "--seed: applies with --sample"},
      {"compare --algorithms idastar:manhattan --sample 0", "--sample"},
  };
  for (const auto& [command, says] : refused) {
    r = testing::run_cli(command, dir.path);
    CAPTURE(command);
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Catch::Contains(says));
  }
}

TEST_CASE("check judges 4x4 answers with the zero-aware databases built, building no additive ones",
          "[pdb][zero-aware][cli][checkcli]") {
  testing::TempDir dir;
  const std::string goal = "--board 4x4 --goal '0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15'";
  auto r = testing::run_cli("build --zpdb 5-5-5 " + goal, dir.path);
  REQUIRE(r.rc == 0);
  // Korf's four shortest instances with their published lengths, then the first claimed 2 longer.
  auto korf = testing::read_instances("korf100.tsv", Board(4, 4));
  std::stable_sort(korf.begin(), korf.end(), [](const auto& a, const auto& b) { return a.length < b.length; });
  std::string answers;
  for (int i = 0; i < 4; ++i)
    answers += korf[static_cast<std::size_t>(i)].start.to_string() + "\t\t" + std::to_string(korf[static_cast<std::size_t>(i)].length) + "\n";
  answers += korf[0].start.to_string() + "\t\t" + std::to_string(korf[0].length + 2) + "\n";
  testing::write_file(dir.path / "answers.txt", answers);
  r = testing::run_cli("check answers.txt --threads 2 --json " + goal, dir.path);
  CHECK(r.rc == 1);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("passed") == 4);
  CHECK(j.at("failed") == 1);
  REQUIRE(j.at("verdicts").size() == 5);
  CHECK(j["verdicts"][4]["verdict"] == "wrong-length");
  // The proofs came from the zero-aware databases: no additive database was built beside them.
  for (const auto& f : std::filesystem::directory_iterator(dir.path / "out")) {
    CAPTURE(f.path());
    CHECK(f.path().extension() != ".pdb");
  }
}
