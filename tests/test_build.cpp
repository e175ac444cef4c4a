// `tilespace build` for every kind of database, and the one-minute rule: a missing database whose
// build is estimated over a minute is never started by a command that needs it (exit 3 naming the
// exact `tilespace build` command), a valid existing file is kept ("up to date") unless --force.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "support.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/pdb/database.hpp"
#include "tilespace/table_store.hpp"

using namespace tilespace;
using Catch::Matchers::Contains;
using nlohmann::json;
using testing::one_line;
using testing::run_cli;
using testing::TempDir;

namespace {


// The files of a folder (none if it does not exist), sorted.
std::vector<std::filesystem::path> files_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// A file's identity and modification time: unchanged when nothing rewrote it.
struct Stamp {
  ino_t inode = 0;
  std::int64_t mtime_ns = 0;
  friend bool operator==(const Stamp&, const Stamp&) = default;
};
Stamp stamp(const std::filesystem::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return {st.st_ino, static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

const std::string kGoal15 = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";

}  // namespace

TEST_CASE("build --pdb builds a partition, keeps valid files, rebuilds with --force, refuses bad ones", "[build][pdb][cli]") {
  TempDir dir;
  auto r = run_cli("build --pdb 4-4", dir.path);  // 3x3 by default: two patterns of 4 tiles
  REQUIRE(r.rc == 0);
  const auto files = files_in(dir / "out");
  REQUIRE(files.size() == 2);
  for (const auto& f : files) {
    CHECK(f.extension() == ".pdb");
    CHECK_THAT(r.out, Contains("built " + ("out" / f.filename()).string()));
  }
  CHECK_THAT(r.err, Contains("building pattern"));
  std::vector<Stamp> before;
  std::vector<std::string> bytes;
  for (const auto& f : files) {
    before.push_back(stamp(f));
    bytes.push_back(testing::read_file(f));
  }

  // Again: loaded and checked, not rewritten.
  r = run_cli("build --pdb 4-4", dir.path);
  REQUIRE(r.rc == 0);
  for (std::size_t i = 0; i < files.size(); ++i) {
    CHECK_THAT(r.out, Contains("up to date: " + ("out" / files[i].filename()).string()));
    CHECK(stamp(files[i]) == before[i]);
  }
  CHECK_THAT(r.err, !Contains("building"));
  r = run_cli("build --pdb 4-4 --json", dir.path);
  REQUIRE(r.rc == 0);
  auto j = json::parse(r.out);
  REQUIRE(j.size() == 2);
  for (const auto& e : j) {
    CHECK(e["up_to_date"] == true);
    CHECK(e["partition"] == "4-4");
    CHECK(e["entries"] == 3024);
  }

  // --force rewrites them (a new file renamed into place), with the same bytes.
  r = run_cli("build --pdb 4-4 --force --json", dir.path);
  REQUIRE(r.rc == 0);
  j = json::parse(r.out);
  for (const auto& e : j) CHECK(e["up_to_date"] == false);
  for (std::size_t i = 0; i < files.size(); ++i) {
    CHECK_FALSE(stamp(files[i]) == before[i]);
    CHECK(testing::read_file(files[i]) == bytes[i]);
  }

  // A corrupt file: exit 3 naming it, left alone; --force replaces it.
  std::string bad = bytes[1];
  bad[bad.size() - 7] = static_cast<char>(bad[bad.size() - 7] ^ 2);
  testing::write_file(files[1], bad);
  r = run_cli("build --pdb 4-4", dir.path);
  CHECK(r.rc == kExitData);
  CHECK_THAT(r.err, Contains(files[1].filename().string()) && Contains("checksum"));
  CHECK(one_line(r.err));
  CHECK(testing::read_file(files[1]) == bad);
  r = run_cli("build --pdb 4-4 --force", dir.path);
  CHECK(r.rc == 0);
  CHECK(testing::read_file(files[1]) == bytes[1]);
  CHECK(run_cli("solve --heuristic pdb:4-4 '8 6 7 2 5 4 3 0 1'", dir.path).rc == 0);

  // Tiles instead of a stock name, another goal, --db.
  r = run_cli("build --pdb 1,2,3/4,5,6 --goal '1 2 3 4 0 5 6 7 8' --db tiles", dir.path);
  REQUIRE(r.rc == 0);
  CHECK(files_in(dir / "tiles").size() == 2);
  CHECK_THAT(r.out, Contains("tiles/3x3-123405678-p1.2.3.pdb"));
  r = run_cli("build --pdb 1,2,3/4,5,6 --goal '1 2 3 4 0 5 6 7 8' --db tiles", dir.path);
  CHECK_THAT(r.out, Contains("up to date: tiles/3x3-123405678-p4.5.6.pdb"));
  // A bad partition is an input error.
  r = run_cli("build --pdb 7-8", dir.path);
  CHECK(r.rc == kExitInput);
  CHECK_THAT(r.err, Contains("7-8") && Contains("4x4"));
}

TEST_CASE("build of a distance table keeps a valid file, rebuilds with --force or another --bits", "[build][cli]") {
  TempDir dir;
  REQUIRE(run_cli("build", dir.path).rc == 0);
  const auto db = dir / "out/3x3-123456780.tsdb";
  const Stamp first = stamp(db);
  auto r = run_cli("build", dir.path);
  REQUIRE(r.rc == 0);
  CHECK(r.out == "up to date: out/3x3-123456780.tsdb (serves the blank on cells 0 2 6 8)\n");
  CHECK(stamp(db) == first);
  r = run_cli("build --json", dir.path);
  auto j = json::parse(r.out);
  CHECK(j.at(0)["up_to_date"] == true);
  CHECK(j.at(0)["radius"] == 31);
  r = run_cli("build --bits 8", dir.path);  // the kind it is: kept
  CHECK_THAT(r.out, Contains("up to date"));
  r = run_cli("build --force", dir.path);
  CHECK_THAT(r.out, Contains("built out/3x3-123456780.tsdb"));
  CHECK_FALSE(stamp(db) == first);
  r = run_cli("build --bits 2", dir.path);  // another kind asked for: rebuilt
  CHECK_THAT(r.out, Contains("built out/3x3-123456780.tsdb") && Contains("2 bits"));
  r = run_cli("build --bits 2", dir.path);  // a two-bit table is checked chunk by chunk, then kept
  CHECK_THAT(r.out, Contains("up to date"));

  std::string bytes = testing::read_file(db);
  bytes[kHeaderSize + 100] = static_cast<char>(bytes[kHeaderSize + 100] ^ 1);
  testing::write_file(db, bytes);
  r = run_cli("build", dir.path);
  CHECK(r.rc == kExitData);
  CHECK_THAT(r.err, Contains("3x3-123456780.tsdb"));
  CHECK(one_line(r.err));
  r = run_cli("build --all-goals --db all", dir.path);
  REQUIRE(r.rc == 0);
  r = run_cli("build --all-goals --db all", dir.path);
  CHECK(r.rc == 0);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 3);  // one table per blank class
  CHECK(r.out.find("built") == std::string::npos);
}

TEST_CASE("build refuses options that do not apply, naming them", "[build][cli]") {
  TempDir dir;
  struct Case {
    const char* args;
    const char* names;
  };
  for (const Case& c : {Case{"build --goal '1 2 3 4 0 5 6 7 8' --all-goals", "--goal: does not apply with --all-goals"},
                        Case{"build --pdb 4-4 --bits 2", "--bits: does not apply with --pdb"},
                        Case{"build --pdb 4-4 --checkpoint-every 5", "--checkpoint-every: does not apply with --pdb"},
                        Case{"build --pdb 4-4 --resume", "--resume: does not apply with --pdb"},
                        Case{"build --pdb 4-4 --all-goals", "--all-goals: does not apply with --pdb"},
                        Case{"build --bits 8 --resume", "--resume: applies to the two-bit engine"}}) {
    INFO(c.args);
    const auto r = run_cli(c.args, dir.path);
    CHECK(r.rc == kExitInput);
    CHECK_THAT(r.err, Contains(c.names));
    CHECK(one_line(r.err));
    CHECK(r.out.empty());
  }
  CHECK(files_in(dir / "out").empty());
}

TEST_CASE("commands refuse to start builds of over a minute, naming the build command", "[build][cli]") {
  TempDir dir;
  SECTION("solve --heuristic pdb:7-8 on 4x4") {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = run_cli("solve --board 4x4 --heuristic pdb:7-8 '1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15' --threads 2", dir.path);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(r.rc == kExitData);
    CHECK(secs < 2);
    CHECK_THAT(r.err, Contains("no pattern database 7-8 for this 4x4 goal in out/ (building it takes about ") &&
                          Contains("GiB of memory") && Contains("GiB of disk") &&
                          Contains("run tilespace build --board 4x4 --pdb 7-8\n"));
    CHECK(one_line(r.err));
    CHECK(r.out.empty());
    CHECK(files_in(dir / "out").empty());
    // Another goal and folder: both in the command.
    r = run_cli("solve --heuristic pdb:7-8 --goal '" + kGoal15 + "' '1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15' --db pdbs --threads 2",
                dir.path);
    CHECK(r.rc == kExitData);
    CHECK_THAT(r.err, Contains("in pdbs/") &&
                          Contains("run tilespace build --board 4x4 --goal '" + kGoal15 + "' --pdb 7-8 --db pdbs\n"));
    CHECK(files_in(dir / "pdbs").empty());
    // Plain pdb takes the strongest stock partition that builds within a minute: 6-6-3 (built by
    // the command itself into the tests' cache, support.hpp, and found here as if built in out/).
    testing::stock_4x4_databases(dir / "out", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0");
    r = run_cli("solve --heuristic pdb '1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15' --threads 2 --json", dir.path);
    CHECK(r.rc == 0);
    CHECK(json::parse(r.out)["heuristic"] == "pdb:6-6-3");
    CHECK(r.err.find("building") == std::string::npos);
  }
  SECTION("solve on 5x5 without a heuristic") {
    const auto r = run_cli("solve '1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24' --threads 2", dir.path);
    CHECK(r.rc == kExitData);
    CHECK_THAT(r.err, Contains("no pattern database 6-6-6-6 for this 5x5 goal") &&
                          Contains("run tilespace build --board 5x5 --pdb 6-6-6-6\n"));
    CHECK(one_line(r.err));
    CHECK(files_in(dir / "out").empty());
  }
  SECTION("query on 2x7") {
    const auto r = run_cli("query --board 2x7 '1 2 3 4 5 6 7 8 9 10 11 12 0 13' --threads 2", dir.path);
    bool fits = true;
    try {
      DistanceTable::check_fits(Board(2, 7));
    } catch (const ResourceError&) {
      fits = false;
    }
    if (fits) {
      CHECK(r.rc == kExitData);
      CHECK_THAT(r.err, Contains("no distance table for this 2x7 goal in out/") &&
                            Contains("run tilespace build --board 2x7\n"));
      // The disk of the file the build would write (one bit a state where the byte engine does
      // not fit: 5.1 GiB).
      char disk[64];
      std::snprintf(disk, sizeof disk, "%.1f GiB of disk",
                    static_cast<double>(DistanceTable::estimate_build(Board(2, 7), Engine::automatic, 2).disk) /
                        (1u << 30));
      CHECK_THAT(r.err, Contains(disk));
    } else {  // no 2x7 table fits this machine's memory: exit 4 as before
      CHECK(r.rc == kExitResource);
    }
    CHECK(one_line(r.err));
    CHECK(files_in(dir / "out").empty());
  }
}

TEST_CASE("build estimates: tables and pattern databases against the one-minute rule", "[build]") {
  // Distance tables: 3x3 is quick, 2x7 is not (either engine).
  const BuildCost t33 = DistanceTable::estimate_build(Board(3, 3), Engine::automatic, 2);
  CHECK(t33.seconds < 60);
  CHECK(t33.memory == DistanceTable::build_bytes(Board(3, 3), Engine::byte));
  CHECK(t33.disk == kHeaderSize + 181440);
  CHECK(DistanceTable::estimate_build(Board(3, 4), Engine::byte, 2).seconds < 60);
  CHECK(DistanceTable::estimate_build(Board(2, 7), Engine::two_bit, 2).seconds > 60);
  CHECK(DistanceTable::estimate_build(Board(2, 7), Engine::automatic, 2).seconds > 60);
  CHECK(DistanceTable::estimate_build(Board(2, 7), Engine::two_bit, 1).seconds >
        DistanceTable::estimate_build(Board(2, 7), Engine::two_bit, 2).seconds);
  // The disk is the file each writes: header, payload and, for two bits or one, a checksum a
  // 1 MiB chunk and at most kFarthestKept ranks; the same search and memory for both.
  const std::uint64_t n27 = Ranker(Board(2, 7), 13).size();
  const std::uint64_t one = (n27 + 63) / 64 * 8, two = (n27 + 31) / 32 * 8;
  auto chunks = [](std::uint64_t payload) { return (payload + (1u << 20) - 1) >> 20; };
  const BuildCost c1 = DistanceTable::estimate_build(Board(2, 7), Engine::one_bit, 2),
                  c2 = DistanceTable::estimate_build(Board(2, 7), Engine::two_bit, 2);
  CHECK(one == 5'448'643'200u);
  CHECK(c1.disk == kHeaderSize + one + 8 * (chunks(one) + kFarthestKept));
  CHECK(c2.disk == kHeaderSize + two + 8 * (chunks(two) + kFarthestKept));
  CHECK(c1.memory == c2.memory);
  CHECK(c1.seconds == c2.seconds);
  CHECK(DistanceTable::estimate_build(Board(2, 7), Engine::byte, 2).disk == kHeaderSize + n27);
  CHECK_THROWS_AS(DistanceTable::estimate_build(Board(5, 5)), InputError);

  // Pattern databases: 6-6-3 and 5-5-5 are quick, 7-8 and 6-6-6-6 are not.
  TempDir dir;
  pdb::PdbStoreOptions o;
  o.dir = dir.path;
  o.build.threads = 2;
  const pdb::PdbStore store(o);
  const State g16 = canonical_goal(Board(4, 4), 15), g25 = canonical_goal(Board(5, 5), 24);
  CHECK(store.estimate(g16, pdb::parse_partition("6-6-3", g16)).seconds < 60);
  CHECK(store.estimate(g16, pdb::parse_partition("5-5-5", g16)).seconds < 60);
  const BuildCost c78 = store.estimate(g16, pdb::parse_partition("7-8", g16));
  CHECK(c78.seconds > 60);
  CHECK(c78.disk == 2 * kHeaderSize + 57657600 + 518918400);
  CHECK(c78.memory == 57657600 + 2 * 518918400ull);  // both mapped, plus the marks of the larger build
  CHECK(store.estimate(g25, pdb::parse_partition("6-6-6-6", g25)).seconds > 60);
}

TEST_CASE("the stores refuse long builds and name the command, and choose_partition", "[build][pdb]") {
  TempDir dir;
  // A table store that builds nothing on its own (every build is "too long").
  StoreOptions so;
  so.dir = dir / "t";
  so.max_auto_build_seconds = 0;
  TableStore tables(so);
  CHECK_THROWS_AS(tables.table(Board(3, 3), 8), DataError);
  CHECK_THROWS_WITH(tables.table(Board(3, 3), 4),
                    Contains("no distance table for this 3x3 goal in " + so.dir.string() + "/") &&
                        Contains("run tilespace build --board 3x3 --goal '1 2 3 4 0 5 6 7 8' --db " + so.dir.string()));
  CHECK(files_in(so.dir).empty());
  so.max_auto_build_seconds = 60;  // the default: 3x3 is built on first use
  CHECK(TableStore(so).table(Board(3, 3), 4).radius() == 30);
  CHECK(build_command(canonical_goal(Board(3, 3), 8), "out") == "tilespace build --board 3x3");
  CHECK(build_command(canonical_goal(Board(3, 3), 8), "my db", "--pdb 4-4") ==
        "tilespace build --board 3x3 --pdb 4-4 --db 'my db'");

  pdb::PdbStoreOptions po;
  po.dir = dir / "p";
  po.build.threads = 2;
  po.max_auto_build_seconds = 0;
  const State g9 = canonical_goal(Board(3, 3), 8);
  {
    pdb::PdbStore none(po);
    CHECK_THROWS_WITH(none.get(g9, pdb::parse_partition("4-4", g9)),
                      Contains("no pattern database 4-4") && Contains("tilespace build --board 3x3 --pdb 4-4 --db"));
    CHECK(files_in(po.dir).empty());
    // Nothing quick to build: the strongest, so that its refusal names it.
    const State g16 = canonical_goal(Board(4, 4), 15);
    CHECK(pdb::choose_partition(none, g16).name == "7-8");
    CHECK(pdb::choose_partition(none, canonical_goal(Board(5, 5), 24)).name == "6-6-6-6");
    CHECK_THROWS_WITH(pdb::choose_partition(none, canonical_goal(Board(2, 5), 9)), Contains("no stock partition"));
  }
  po.max_auto_build_seconds = 60;
  pdb::PdbStore store(po);
  const State g16 = canonical_goal(Board(4, 4), 15);
  CHECK(pdb::choose_partition(store, g9).name == "4-4");
  CHECK(pdb::choose_partition(store, g16).name == "6-6-3");  // 7-8 takes minutes; 6-6-3 seconds
  // The strongest partition whose files exist comes first (choose_partition does not read them).
  std::filesystem::create_directories(po.dir);
  for (const auto& p : pdb::parse_partition("5-5-5", g16).patterns) testing::write_file(store.path_for(g16, p), "x");
  CHECK(pdb::choose_partition(store, g16).name == "5-5-5");
  for (const auto& p : pdb::parse_partition("7-8", g16).patterns) testing::write_file(store.path_for(g16, p), "x");
  CHECK(pdb::choose_partition(store, g16).name == "7-8");
}
