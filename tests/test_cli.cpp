// End-to-end runs of the `tilespace` command: answers, JSON keys, exit codes and messages.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support.hpp"
#include "tilespace/errors.hpp"

using testing::one_line;
using testing::run_cli;
using testing::TempDir;
using nlohmann::json;

TEST_CASE("cli: every command frees what it allocates, on its answers and on its errors (LeakSanitizer in the ASan build)",
          "[cli][leaks]") {
  // The other tests run the command without LeakSanitizer's exit scan (run_cli): this one keeps it
  // for one run of each command and of each kind of error, so a leak anywhere fails here.
  TempDir dir;
  testing::write_file(dir / "pairs.txt", "8 6 7 2 5 4 3 0 1\n2 4 3 7 1 6 0 5 8\n");
  testing::write_file(dir / "answers.tsv", "2 4 3 7 1 6 0 5 8\t1 2 3 4 5 6 7 8 0\tURULDRDR\n");
  std::filesystem::create_directories(dir / "corrupt");
  testing::write_file(dir / "corrupt" / "3x3-123456780.tsdb", "not a database\n");
  const std::string start = "'2 4 3 7 1 6 0 5 8'";
  const std::vector<std::pair<std::string, int>> runs{
      {"build --db db", tilespace::kExitOk},
      {"build --board 2x3 --bits 2 --db db", tilespace::kExitOk},
      {"build --board 2x3 --bits 1 --db db1", tilespace::kExitOk},
      {"build --board 2x3 --metric multi --db db", tilespace::kExitOk},
      {"build --automaton --automaton-depth 8 --db db", tilespace::kExitOk},
      {"build --zpdb 4-4 --db db", tilespace::kExitOk},
      {"query '8 6 7 2 5 4 3 0 1' --db db", tilespace::kExitOk},
      {"query '8 6 7 2 5 4 3 0 1' --db db --json", tilespace::kExitOk},
      {"query '1 2 3 4 5 6 8 7 0' --db db", tilespace::kExitUnreachable},
      {"query --batch pairs.txt --db db", tilespace::kExitOk},
      {"query '1 2 3 4 5 0' --board 2x3 --db db1", tilespace::kExitOk},
      {"query '1 2 3 4 5 0' --board 2x3 --metric multi --db db", tilespace::kExitOk},
      {"stats --db db --json", tilespace::kExitOk},
      {"solve " + start + " --db db", tilespace::kExitOk},
      {"solve " + start + " --db db -a bibfs --json", tilespace::kExitOk},
      {"solve " + start + " --db db -a idastar --heuristic zpdb --pattern 4-4", tilespace::kExitOk},
      {"solve " + start + " --db db -a aidastar --heuristic linear-conflict --threads 2", tilespace::kExitOk},
      {"solve " + start + " --db db -a astar --heuristic walking-distance --trace trace.json", tilespace::kExitOk},
      {"solve --batch pairs.txt --db db -a astar", tilespace::kExitOk},
      {"compare " + start + " --db db --algorithms astar:manhattan,wastar:manhattan,greedy:misplaced,iddfs --csv",
       tilespace::kExitOk},
      {"verify --db db --sample 3 --algorithms astar:manhattan,idastar:pdb:4-4", tilespace::kExitOk},
      {"check answers.tsv --db db --json --junit junit.xml", tilespace::kExitOk},
      {"random --count 3 --seed 1 --depth 20", tilespace::kExitOk},
      {"query '1 2 3' --db db", tilespace::kExitInput},
      {"solve " + start + " --db db -a nosuch", tilespace::kExitInput},
      {"query --batch missing.txt --db db", tilespace::kExitInput},
      {"query '8 6 7 2 5 4 3 0 1' --db corrupt", tilespace::kExitData},
      {"solve " + start + " --db db -a astar --max-nodes 5", tilespace::kExitResource},
  };
  for (const auto& [args, rc] : runs) {
    CAPTURE(args);
    const testing::RunResult r = testing::run_cli_leak_checked(args, dir.path);
    INFO(r.err);
    CHECK(r.rc == rc);
  }
}

TEST_CASE("cli: query answers classic pairs and builds the database on first use", "[cli]") {
  TempDir dir;
  auto r = run_cli("query '2 8 3 1 0 4 7 6 5' --goal '1 2 3 8 0 4 7 6 5'", dir.path);
  CHECK(r.rc == 0);
  CHECK(r.out == "4\n");
  CHECK_THAT(r.err, Catch::Contains("building it first"));
  CHECK(std::filesystem::exists(dir / "out/3x3-123405678.tsdb"));

  r = run_cli("query '2 4 3 7 1 6 0 5 8'", dir.path);  // default goal 1 2 3 4 5 6 7 8 0
  CHECK(r.rc == 0);
  CHECK(r.out == "8\n");
  r = run_cli("query 123456780", dir.path);
  CHECK(r.out == "0\n");
  r = run_cli("query 12345678_ --goal 1,2,3/4,5,6/7,_,8", dir.path);
  CHECK(r.out == "1\n");
  r = run_cli("query '1 3 2 4 0 5 6 7 8' --goal '1 2 3 8 0 4 7 6 5'", dir.path);
  CHECK(r.rc == 0);
  CHECK(r.err.empty());  // table already there: nothing built
}

TEST_CASE("cli: unreachable pairs answer 'unreachable' with exit 1", "[cli]") {
  TempDir dir;
  auto r = run_cli("query '1 2 3 4 5 6 8 7 0'", dir.path);
  CHECK(r.rc == tilespace::kExitUnreachable);
  CHECK(r.out == "unreachable\n");
  r = run_cli("query '1 2 3 4 5 6 8 7 0' --json", dir.path);
  CHECK(r.rc == 1);
  const auto j = json::parse(r.out);
  CHECK(j["length"].is_null());
  CHECK(j["reachable"] == false);
  r = run_cli("solve '1 2 3 4 5 6 8 7 0'", dir.path);
  CHECK(r.rc == 1);
  CHECK(r.out == "unreachable\n");
}

TEST_CASE("cli: bad input gets a one-line error naming it and exit 2", "[cli]") {
  TempDir dir;
  struct Case {
    const char* args;
    const char* says;
  };
  for (const Case& c : {Case{"query '1 2 3 4 5 6 7 8'", "cannot tell the board from 8 tiles"},
                        Case{"query '1 2 3 4 5 6 7 8' --board 3x3", "expected 9 tiles"},
                        Case{"query '1 2 3 4 5 6 7 7 0'", "tile 7 appears twice"},
                        Case{"query '1 2 3 4 5 6 7 x 0'", "unknown symbol 'x'"},
                        Case{"query '1 2 3 4 5 6 7 9 0'", "tile 9 does not fit"},
                        Case{"query '1 2 3 4 5 6 7 8 0' --goal '1 2 3'", "goal: expected 9 tiles"},
                        Case{"query '1 2 3 4 5 0' --board 3x3", "expected 9 tiles for a 3x3 board, got 6"},
                        Case{"query 123 --board 9x9", "--board: bad board '9x9'"},
                        Case{"query", "standard input: no state in it"},
                        Case{"solve '_ _ 1 2 3 4 5 6 7'", "the blank appears twice"},
                        Case{"stats --goal '1 2 3 4 5 6 7 8 8'", "appears twice"},
                        Case{"query --batch /nonexistent/file", "cannot read"},
                        Case{"query 123456780 --bogus", "bogus"},
                        Case{"frobnicate", "frobnicate"},
                        Case{"build --threads -3", "threads"}}) {
    INFO(c.args);
    const auto r = run_cli(c.args, dir.path);
    CHECK(r.rc == tilespace::kExitInput);
    CHECK_THAT(r.err, Catch::Contains(c.says));
    CHECK(r.out.empty());
    CHECK(one_line(r.err));
  }
  // A 2x3 state (rows given) has no 3x3 meaning; with --board it works.
  const auto r = run_cli("query '1 2 3/4 5 0'", dir.path);
  CHECK(r.rc == 0);
  CHECK(r.out == "0\n");
}

TEST_CASE("cli: --help works on every subcommand", "[cli]") {
  TempDir dir;
  for (const char* sub : {"", "build ", "query ", "stats ", "solve "}) {
    const auto r = run_cli(std::string(sub) + "--help", dir.path);
    CHECK(r.rc == 0);
    CHECK_THAT(r.out, Catch::Contains(*sub ? "--db" : "Exit codes"));
  }
}

TEST_CASE("cli: a corrupt database is exit 3 naming the file, never an answer", "[cli]") {
  TempDir dir;
  REQUIRE(run_cli("build", dir.path).rc == 0);
  const auto db = dir / "out/3x3-123456780.tsdb";
  std::string bytes = testing::read_file(db);
  bytes[5000] = static_cast<char>(bytes[5000] ^ 1);
  testing::write_file(db, bytes);
  auto r = run_cli("query '8 6 7 2 5 4 3 0 1'", dir.path);
  CHECK(r.rc == tilespace::kExitData);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Contains("3x3-123456780.tsdb") && Catch::Contains("checksum"));
  CHECK(one_line(r.err));
  // The message ends with the command that rebuilds the file.
  CHECK_THAT(r.err, Catch::EndsWith("; rebuild it with: tilespace build --board 3x3 --force\n"));

  testing::write_file(db, bytes.substr(0, 3000));
  r = run_cli("stats", dir.path);
  CHECK(r.rc == 3);
  CHECK_THAT(r.err, Catch::Contains("truncated") && Catch::EndsWith("rebuild it with: tilespace build --board 3x3 --force\n"));
  // build keeps reporting it (exit 3); build --force replaces the bad file.
  r = run_cli("build", dir.path);
  CHECK(r.rc == 3);
  CHECK_THAT(r.err, Catch::Contains("3x3-123456780.tsdb") && Catch::Contains("truncated"));
  REQUIRE(run_cli("build --force", dir.path).rc == 0);
  r = run_cli("query '8 6 7 2 5 4 3 0 1'", dir.path);
  CHECK(r.out == "31\n");
}

TEST_CASE("cli: build --all-goals and stats", "[cli]") {
  TempDir dir;
  auto r = run_cli("build --all-goals --db tables", dir.path);
  REQUIRE(r.rc == 0);
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir / "tables")) files += e.path().extension() == ".tsdb";
  CHECK(files == 3);  // one per blank class: corners, edges, centre

  r = run_cli("stats --db tables --json", dir.path);
  REQUIRE(r.rc == 0);
  auto j = json::parse(r.out);
  CHECK(j["states"] == 181440);
  CHECK(j["radius"] == 31);
  CHECK(j["histogram"].size() == 32);
  CHECK(j["histogram"][0] == 1);
  CHECK(j["histogram"][31] == 2);
  CHECK(j["farthest"].size() == 2);
  CHECK(j["farthest"][0].size() == 9);

  r = run_cli("stats --db tables --goal '1 2 3 8 0 4 7 6 5' --all-goals --json", dir.path);
  REQUIRE(r.rc == 0);
  j = json::parse(r.out);
  CHECK(j["radius"] == 30);
  CHECK(j["farthest_count"] == 148);
  CHECK(j["longest"] == 31);
  CHECK(r.err.empty());  // every table loaded from --db, none rebuilt

  r = run_cli("stats --db tables --all-goals", dir.path);
  CHECK_THAT(r.out, Catch::Contains("longest optimal solution between any two states: 31"));
  CHECK_THAT(r.out, Catch::Contains("8 6 7 2 5 4 3 0 1"));

  r = run_cli("stats --board 2x3 --json --db tables", dir.path);
  j = json::parse(r.out);
  CHECK(j["states"] == 360);
  CHECK(j["radius"] == 21);
}

TEST_CASE("cli: commands that need a distance table refuse 5x5 with exit 2, and query searches it", "[cli][5x5]") {
  TempDir dir;
  const std::string korf1 = "'14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13'";
  const std::string goal0 = "'0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24'";
  for (const std::string& args : std::vector<std::string>{
           "stats --board 5x5", "stats --goal " + goal0, "build --board 5x5 --bits 2",
           "solve " + korf1 + " --goal " + goal0 + " --algorithm table", "verify --board 5x5 --sample 10"}) {
    INFO(args);
    const auto r = run_cli(args, dir.path, korf1.substr(1, korf1.size() - 2) + "\n");
    CHECK(r.rc == tilespace::kExitInput);
    CHECK_THAT(r.err, Catch::Contains("5x5") && Catch::Contains("16"));
    CHECK(r.out.empty());
    CHECK(one_line(r.err));
  }
  CHECK_FALSE(std::filesystem::exists(dir / "out"));
  // Searches run on 5x5; the default one needs 6-6-6-6, which takes minutes to build: exit 3 naming the command.
  // query searches there too, as solve does.
  for (const std::string& args : std::vector<std::string>{"solve " + korf1 + " --goal " + goal0,
                                                         "query " + korf1 + " --goal " + goal0 + " --json",
                                                         "query --batch - --board 5x5 --goal " + goal0,
                                                         "random --board 5x5 --depth 10"}) {
    INFO(args);
    auto s = run_cli(args, dir.path, korf1.substr(1, korf1.size() - 2) + "\n");
    CHECK(s.rc == tilespace::kExitData);
    CHECK_THAT(s.err, Catch::Contains("tilespace build --board 5x5") && Catch::Contains("--pdb 6-6-6-6"));
  }
  // Bad 5x5 input is worded like any other.
  auto r = run_cli("query '1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 24'", dir.path);
  CHECK(r.rc == tilespace::kExitInput);
  CHECK_THAT(r.err, Catch::Contains("tile 24 appears twice"));
  CHECK(one_line(r.err));
  r = run_cli("query '1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0' --board 5x5", dir.path);
  CHECK(r.rc == tilespace::kExitInput);
  CHECK_THAT(r.err, Catch::Contains("expected 25 tiles for a 5x5 board, got 24"));
  // A 25-tile line in a batch on the default 3x3 board is one bad line, exit 2.
  r = run_cli("query --batch -", dir.path, "1 2 3 4 5 6 7 8 0\n" + korf1.substr(1, korf1.size() - 2) + "\n");
  CHECK(r.rc == tilespace::kExitInput);
  CHECK(r.out == "0\nerror: expected a start and an optional goal of 9 tiles each (3x3 board), got 25 tiles\n");
  CHECK_THAT(r.err, Catch::Contains("line 2"));
}

// Korf's 15-puzzle instances as "TILES\tLENGTH" lines (tests/data/korf100.tsv).
std::vector<std::pair<std::string, int>> korf_lines(std::size_t n) {
  std::ifstream in(std::string(TILESPACE_TEST_DATA) + "/korf100.tsv");
  std::vector<std::pair<std::string, int>> out;
  for (std::string line; out.size() < n && std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.emplace_back(line.substr(0, line.find('\t')), std::stoi(line.substr(line.find('\t') + 1)));
  return out;
}

TEST_CASE("cli: query on 4x4, where no table can exist, searches: the published lengths, batches in order, limits say so with exit 4",
          "[cli][pdb]") {
  TempDir dir;
  testing::stock_4x4_databases(dir / "d", "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");  // what the first query would build
  const std::string goal = " --goal '0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15' --db d";
  const auto korf = korf_lines(3);
  REQUIRE(korf.size() == 3);
  // One pair: the optimal length, and once on stderr that it is searched.
  auto r = run_cli("query '" + korf[0].first + "'" + goal, dir.path);
  CHECK(r.rc == tilespace::kExitOk);
  CHECK(r.out == std::to_string(korf[0].second) + "\n");
  CHECK_THAT(r.err, Catch::Contains("no exact table can exist for 4x4: each answer is searched (idastar, pdb:"));
  r = run_cli("query '" + korf[1].first + "' --json" + goal, dir.path);
  CHECK(r.rc == tilespace::kExitOk);
  CHECK(nlohmann::json::parse(r.out)["length"] == korf[1].second);
  // The other parity class: unreachable without a search.
  r = run_cli("query '0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15'" + goal, dir.path);
  CHECK(r.rc == tilespace::kExitUnreachable);
  CHECK(r.out == "unreachable\n");
  // A batch: one answer a line, in order; a bad line says so; the note once for the batch.
  const std::string batch = korf[0].first + "\n# a comment\n\n" + korf[1].first + "\n0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15\n" +
                            korf[2].first + "\n1 2 3\n";
  r = run_cli("query --batch - --board 4x4" + goal, dir.path, batch);
  CHECK(r.rc == tilespace::kExitInput);
  CHECK(r.out == std::to_string(korf[0].second) + "\n" + std::to_string(korf[1].second) + "\nunreachable\n" +
                     std::to_string(korf[2].second) + "\nerror: expected a start and an optional goal of 16 tiles each (4x4 board), got 3 tiles\n");
  CHECK(r.err.find("each answer is searched") == r.err.rfind("each answer is searched"));
  // A limit stops a line: the line says so, the rest are answered, exit 4; in JSON {"stopped":...}.
  r = run_cli("query --batch - --max-nodes 1000" + goal, dir.path, korf[0].first + "\n0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n");
  CHECK(r.rc == tilespace::kExitResource);
  CHECK(r.out == "stopped by --max-nodes 1000 before a solution was found\n0\n");
  r = run_cli("query --batch - --max-nodes 1000 --json" + goal, dir.path, korf[0].first + "\n");
  CHECK(r.rc == tilespace::kExitResource);
  CHECK(r.out == "{\"stopped\":\"max-nodes\",\"line\":1}\n");
  r = run_cli("query '" + korf[0].first + "' --max-seconds 0.001 --json" + goal, dir.path);
  CHECK(r.rc == tilespace::kExitResource);
  CHECK(nlohmann::json::parse(r.out)["stopped"] == "max-seconds");
  // The limits are solve's, checked as solve checks them, and refused where nothing is searched.
  r = run_cli("query '" + korf[0].first + "' --max-nodes 0" + goal, dir.path);
  CHECK(r.rc == tilespace::kExitInput);
  CHECK_THAT(r.err, Catch::Contains("--max-nodes"));
  r = run_cli("query '1 2 3 4 5 6 7 8 0' --max-seconds 5 --db d", dir.path);
  CHECK(r.rc == tilespace::kExitInput);
  CHECK_THAT(r.err, Catch::Contains("--max-seconds: applies where answers are searched") && Catch::Contains("3x3"));
  CHECK(one_line(r.err));
  // A corrupt pattern database: exit 3, the message ending with the command that rebuilds it.
  std::filesystem::path pdb;
  for (const auto& e : std::filesystem::directory_iterator(dir / "d"))
    if (e.path().extension() == ".pdb" && e.path().string().find("p1.4.5") != std::string::npos) pdb = e.path();
  REQUIRE(!pdb.empty());
  std::string bytes = testing::read_file(pdb);
  bytes[5000] = static_cast<char>(bytes[5000] ^ 1);
  testing::write_file(pdb, bytes);
  r = run_cli("query '" + korf[0].first + "'" + goal, dir.path);
  CHECK(r.rc == tilespace::kExitData);
  CHECK_THAT(r.err, Catch::Contains("rebuild it with: tilespace build --board 4x4 --goal ") &&
                        Catch::EndsWith("--pdb 1,4,5,8,9,12 --force --db d\n"));
}

TEST_CASE("cli: random --depth on 4x4 walks and proves each state exactly that far, and refuses deeper than practical",
          "[cli][pdb]") {
  TempDir dir;
  testing::stock_4x4_databases(dir / "d", "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");  // what the first walk's proof would build
  const std::string goal = " --goal '0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15' --db d";
  // Under the sanitizers, fewer and shallower walks (each is proven by a search).
  const std::vector<int> depths = testing::kSanitized ? std::vector<int>{0, 17} : std::vector<int>{0, 1, 17, 30};
  const int count = testing::kSanitized ? 3 : 6;
  const std::string draw = "random --board 4x4 --count " + std::to_string(count) + " --seed 5 --depth ";
  for (const int depth : depths) {
    CAPTURE(depth);
    auto r = run_cli(draw + std::to_string(depth) + goal, dir.path);
    REQUIRE(r.rc == tilespace::kExitOk);
    const std::string states = r.out;
    // The same seed, the same states.
    CHECK(run_cli(draw + std::to_string(depth) + goal, dir.path).out == states);
    // Each exactly `depth` moves away, by the searched query.
    r = run_cli("query --batch - --board 4x4" + goal, dir.path, states);
    REQUIRE(r.rc == tilespace::kExitOk);
    std::string expected;
    for (int i = 0; i < count; ++i) expected += std::to_string(depth) + "\n";
    CHECK(r.out == expected);
  }
  const auto r = run_cli("random --board 4x4 --depth 46" + goal, dir.path);
  CHECK(r.rc == tilespace::kExitInput);
  CHECK_THAT(r.err, Catch::Contains("--depth: at most 45 on 4x4"));
  CHECK(one_line(r.err));
  // Boards without a table or pattern databases still refuse a depth.
  const auto wide = run_cli("random --board 3x5 --depth 10 --db d", dir.path);
  CHECK(wide.rc == tilespace::kExitInput);
  CHECK_THAT(wide.err, Catch::Contains("--depth") && Catch::Contains("3x5"));
}

TEST_CASE("cli: an input with no line to answer is exit 2 in every reader, and compare on an unreachable instance exits 1",
          "[cli]") {
  TempDir dir;
  for (const char* command : {"query --batch -", "solve --batch -", "check -", "compare --suite -"}) {
    for (const char* input : {"", "# only a comment\n\n"}) {
      CAPTURE(command, input);
      const auto r = run_cli(std::string(command) + " --db d", dir.path, input);
      CHECK(r.rc == tilespace::kExitInput);
      CHECK_THAT(r.err, Catch::Contains("standard input: no "));
      CHECK(one_line(r.err));
    }
  }
  // A binary file: the same message from every reader.
  testing::write_file(dir / "bin.dat", std::string("1 2 3\0\x01\x02 4 5 6 7 8 0\n", 20));
  for (const char* command : {"query --batch bin.dat", "solve --batch bin.dat", "check bin.dat", "compare --suite bin.dat",
                              "query bin.dat", "solve bin.dat"}) {
    CAPTURE(command);
    const auto b = run_cli(std::string(command) + " --db d", dir.path);
    CHECK(b.rc == tilespace::kExitInput);
    CHECK(b.err == "tilespace: error: bin.dat: not a text file\n");
  }
  // query without START reads standard input, as solve and compare do.
  auto q = run_cli("query --db d", dir.path, "8 6 7 2 5 4 3 0 1\n");
  CHECK(q.rc == tilespace::kExitOk);
  CHECK(q.out == "31\n");
  q = run_cli("query --db d", dir.path, "");
  CHECK(q.rc == tilespace::kExitInput);
  CHECK(one_line(q.err));
  const auto r = run_cli("compare '1 2 3 4 5 6 8 7 0' --algorithms bfs,astar --db d", dir.path);
  CHECK(r.rc == tilespace::kExitUnreachable);
  CHECK_THAT(r.out, Catch::Contains("unreachable"));
  CHECK(run_cli("compare '1 2 3 4 5 6 8 7 0' --algorithms bfs --json --db d", dir.path).rc == tilespace::kExitUnreachable);
  CHECK(run_cli("compare '1 2 3 4 5 6 7 0 8' --algorithms bfs --db d", dir.path).rc == tilespace::kExitOk);
}

TEST_CASE("cli: build refuses what --max-memory cannot hold with exit 4, before any work", "[cli][memory]") {
  TempDir dir;
  struct Case {
    std::string args, names;
  };
  for (const Case& k : std::vector<Case>{
           {"--board 3x4 --bits 8 --max-memory 100M", "3x4 table with the byte engine"},
           {"--board 3x4 --max-memory 10M", "3x4 table with the two-bit engine"},  // the two-bit engine does not fit either
           {"--board 4x4 --pdb 7-8 --max-memory 1G", "pattern 8,7,6,5,4,3,2,1"},  // refused before 7 tiles are built
           {"--automaton --automaton-depth 16 --max-memory 1G", "move automaton of depth 16"},
       }) {
    CAPTURE(k.args);
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = run_cli("build " + k.args + " --db d", dir.path);
    CHECK(r.rc == tilespace::kExitResource);
    CHECK_THAT(r.err, Catch::Contains(k.names) && Catch::Contains("--max-memory"));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3));  // before the work, not after
    CHECK((!std::filesystem::exists(dir.path / "d") || std::filesystem::is_empty(dir.path / "d")));
  }
  // Within the limit the byte table is too large, so the two-bit engine builds it (one bit a state
  // in the file).
  auto r = run_cli("build --board 2x5 --max-memory 2M --db d", dir.path);
  CHECK(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains("1 bit,"));
  r = run_cli("build --board 2x5 --max-memory lots --db d", dir.path);
  CHECK(r.rc == tilespace::kExitInput);
  CHECK(one_line(r.err));
}

TEST_CASE("cli: solve prints one optimal, legal path", "[cli]") {
  TempDir dir;
  auto r = run_cli("solve '8 6 7 2 5 4 3 0 1' --json", dir.path);
  REQUIRE(r.rc == 0);
  const auto j = json::parse(r.out);
  CHECK(j["length"] == 31);
  CHECK(j["moves"].get<std::string>().size() == 31);
  CHECK(j["path"].size() == 32);
  CHECK(j["path"][0] == json({8, 6, 7, 2, 5, 4, 3, 0, 1}));
  CHECK(j["path"][31] == json({1, 2, 3, 4, 5, 6, 7, 8, 0}));
  // Replay the moves on the start and check each state of the path.
  std::vector<int> s = j["path"][0].get<std::vector<int>>();
  int blank = 7;
  const std::string moves = j["moves"];
  for (std::size_t k = 0; k < moves.size(); ++k) {
    const int to = blank + (moves[k] == 'U' ? -3 : moves[k] == 'D' ? 3 : moves[k] == 'L' ? -1 : 1);
    REQUIRE(to >= 0);
    REQUIRE(to < 9);
    if (moves[k] == 'L' || moves[k] == 'R') REQUIRE(to / 3 == blank / 3);
    std::swap(s[blank], s[to]);
    blank = to;
    CHECK(j["path"][k + 1].get<std::vector<int>>() == s);
  }
  r = run_cli("solve '2 8 3 1 0 4 7 6 5' --goal '1 2 3 8 0 4 7 6 5'", dir.path);
  CHECK_THAT(r.out, Catch::StartsWith("4 moves: "));
}

TEST_CASE("cli: start and goal from a file", "[cli]") {
  TempDir dir;
  testing::write_file(dir / "start.txt", "1 3 2 4 0 5 6 7 8\n1 2 3 8 0 4 7 6 5\n");
  const auto direct = run_cli("query '1 3 2 4 0 5 6 7 8' --goal '1 2 3 8 0 4 7 6 5'", dir.path);
  auto r = run_cli("query start.txt", dir.path);
  CHECK(r.rc == direct.rc);
  CHECK(r.out == direct.out);
  testing::write_file(dir / "bad.txt", "1 3 2 4 0 5 6 7 8\n1 2 3 8 0 4 7 6 6\n");
  r = run_cli("query bad.txt", dir.path);
  CHECK(r.rc == 2);
  CHECK_THAT(r.err, Catch::Contains("bad.txt") && Catch::Contains("appears twice"));
}

TEST_CASE("cli: query --batch answers every line in order", "[cli]") {
  TempDir dir;
  const std::string input =
      "# start [goal]\n"
      "2 8 3 1 0 4 7 6 5 1 2 3 8 0 4 7 6 5\n"
      "123456780\n"
      "\n"
      "2 4 3 7 1 6 0 5 8\n"
      "1 2 3 4 5 6 8 7 0\n"
      "1 2 3 4 5 6 7 7 0\n"
      "283104765 123804765\n"
      "1 2 3\n"
      "8 6 7 2 5 4 3 0 1\n"
      "283/104/765 123/804/765\n"
      "1 2 3 4 5 6 7 -0 8\n";
  testing::write_file(dir / "pairs.txt", input);
  auto r = run_cli("query --batch pairs.txt", dir.path);
  // One answer per line with tiles, in order; a bad line's answer says what is wrong.
  CHECK(std::regex_replace(r.out, std::regex("error: [^\n]*"), "error") == "4\n0\n8\nunreachable\nerror\n4\nerror\n31\n4\nerror\n");
  CHECK_THAT(r.out, Catch::Contains("\nerror: start: tile 7 appears twice\n") &&
                        Catch::Contains("\nerror: start: unknown symbol '-0'"));
  CHECK_THAT(r.err, Catch::Contains("line 12: start: unknown symbol '-0'"));
  CHECK(r.rc == tilespace::kExitInput);  // some lines were bad
  CHECK_THAT(r.err, Catch::Contains("line 7: start: tile 7 appears twice"));
  CHECK_THAT(r.err, Catch::Contains("line 9: expected a start"));
  CHECK_THAT(r.err, Catch::Contains("tilespace: error: pairs.txt line 7: "));  // the prefix of every error

  r = run_cli("query --batch - --json", dir.path, "2 8 3 1 0 4 7 6 5 1 2 3 8 0 4 7 6 5\n1 2 3 4 5 6 8 7 0\n");
  CHECK(r.rc == tilespace::kExitUnreachable);  // no bad line, one unreachable pair
  CHECK(r.out == "{\"length\":4,\"line\":1}\n{\"length\":null,\"line\":2}\n");
  // Every JSON answer carries its input line; comment and blank lines give none.
  r = run_cli("query --batch pairs.txt --json", dir.path);
  CHECK(r.rc == tilespace::kExitInput);
  std::vector<nlohmann::json> answers;
  std::istringstream lines(r.out);
  for (std::string l; std::getline(lines, l);) answers.push_back(nlohmann::json::parse(l));
  REQUIRE(answers.size() == 10);
  const std::vector<int> input_lines{2, 3, 5, 6, 7, 8, 9, 10, 11, 12};
  for (std::size_t i = 0; i < answers.size(); ++i) CHECK(answers[i]["line"] == input_lines[i]);
  CHECK(answers[0]["length"] == 4);
  CHECK(answers[3]["length"].is_null());
  CHECK(answers[4]["error"] == "start: tile 7 appears twice");
  CHECK_THAT(answers[9]["error"].get<std::string>(), Catch::StartsWith("start: unknown symbol '-0'"));

  r = run_cli("query --batch - --board 2x3 --goal '0 1 2 3 4 5'", dir.path, "1 0 2 3 4 5\n012345\n");
  CHECK(r.rc == 0);
  CHECK(r.out == "1\n0\n");
}

TEST_CASE("cli: results do not depend on the thread count", "[cli]") {
  TempDir dir;
  REQUIRE(run_cli("build --board 2x5 --db one --threads 1", dir.path).rc == 0);
  REQUIRE(run_cli("build --board 2x5 --db two --threads 2", dir.path).rc == 0);
  CHECK(testing::read_file(dir / "one/2x5-1234567890.tsdb") == testing::read_file(dir / "two/2x5-1234567890.tsdb"));
}

TEST_CASE("cli: solve with every algorithm, JSON keys, limits and stdin", "[cli][search]") {
  TempDir dir;
  for (const char* a : {"table", "bfs", "bibfs", "iddfs", "astar", "idastar", "greedy", "wastar", "dfs"}) {
    INFO(a);
    const auto r = run_cli(std::string("solve '2 8 3 1 0 4 7 6 5' --goal '1 2 3 8 0 4 7 6 5' --json -a ") + a, dir.path);
    REQUIRE(r.rc == 0);
    const auto j = json::parse(r.out);
    for (const char* key : {"length", "moves", "path", "expanded", "generated", "seconds", "peak_bytes"})
      CHECK(j.contains(key));
    CHECK(j["algorithm"] == a);
    if (std::string(a) != "dfs" && std::string(a) != "greedy" && std::string(a) != "wastar") CHECK(j["length"] == 4);
    CHECK(j["path"].size() == j["length"].get<std::size_t>() + 1);
  }
  auto r = run_cli("solve -a astar --heuristic linear-conflict '8 6 7 2 5 4 3 0 1'", dir.path);
  CHECK(r.rc == 0);
  CHECK_THAT(r.out, Catch::StartsWith("31 moves: "));
  CHECK_THAT(r.out, Catch::Contains("expanded"));

  r = run_cli("solve -a astar --json", dir.path, "1 3 2 4 0 5 6 7 8\n1 2 3 8 0 4 7 6 5\n");  // stdin
  CHECK(r.rc == 0);
  const auto q = run_cli("query '1 3 2 4 0 5 6 7 8' --goal '1 2 3 8 0 4 7 6 5'", dir.path);
  CHECK(json::parse(r.out)["length"].get<int>() == std::stoi(q.out));

  r = run_cli("solve '15 14 13 12 11 10 9 8 7 6 5 4 3 1 2 0' -a bfs --max-nodes 20000 --json", dir.path);
  CHECK(r.rc == tilespace::kExitResource);
  auto j = json::parse(r.out);
  CHECK(j["length"].is_null());
  CHECK(j["stopped"] == "max-nodes");
  CHECK(j["expanded"] == 20000);
  // Manhattan: the default heuristic on 4x4 would first build the 6-6-3 databases (most of this
  // test's time under ASan; the build and that default are tested in test_build.cpp).
  r = run_cli("solve '15 14 13 12 11 10 9 8 7 6 5 4 3 1 2 0' -a astar --heuristic manhattan --max-memory 4M --json",
              dir.path);
  CHECK(r.rc == 4);
  CHECK(json::parse(r.out)["stopped"] == "max-memory");
  r = run_cli("solve '15 14 13 12 11 10 9 8 7 6 5 4 3 1 2 0' -a idastar --heuristic manhattan --max-seconds 0.3",
              dir.path);
  CHECK(r.rc == 4);
  CHECK_THAT(r.out, Catch::Contains("stopped by --max-seconds"));

  r = run_cli("solve 123456708 -a quantum", dir.path);
  CHECK(r.rc == 2);
  CHECK_THAT(r.err, Catch::Contains("unknown algorithm 'quantum'"));
  r = run_cli("solve 123456708 -a astar --heuristic psychic", dir.path);
  CHECK(r.rc == 2);
  CHECK_THAT(r.err, Catch::Contains("unknown heuristic 'psychic'"));
  r = run_cli("solve 123456708 -a astar --max-memory lots", dir.path);
  CHECK(r.rc == 2);
  CHECK_THAT(r.err, Catch::Contains("--max-memory"));
}

TEST_CASE("cli: verify checks solvers against the table", "[cli][search]") {
  TempDir dir;
  auto r = run_cli("verify --algorithms astar:manhattan,idastar:linear-conflict,bfs,wastar:manhattan --sample 300 --json",
                   dir.path);
  REQUIRE(r.rc == 0);
  const auto j = json::parse(r.out);
  REQUIRE(j.size() == 4);
  for (const auto& row : j) {
    CHECK(row["states"] == 300);
    CHECK(row["failed"] == 0);
    CHECK(row["ok"] == true);
    CHECK(row["optimal"].get<int>() + row["longer"].get<int>() == 300);
  }
  CHECK(j[0]["longer"] == 0);
  CHECK(j[3]["claims_optimal"] == false);
  CHECK(j[3]["longer"].get<int>() > 0);  // weighted A* is not optimal on 300 random states
  CHECK(j[3]["max_excess"].get<int>() > 0);

  r = run_cli("verify --algorithms greedy:inversions --sample 200", dir.path);
  CHECK(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains("greedy:inversions") && Catch::Contains("verified"));

  r = run_cli("verify --algorithms astar:psychic", dir.path);
  CHECK(r.rc == 2);
  CHECK_THAT(r.err, Catch::Contains("unknown heuristic 'psychic'"));
  r = run_cli("verify --algorithms bfs:manhattan", dir.path);
  CHECK(r.rc == 2);
  CHECK_THAT(r.err, Catch::Contains("takes no heuristic"));
}

TEST_CASE("cli: compare prints one row per instance and solver, in every format", "[cli][search]") {
  TempDir dir;
  const std::string suite = std::string(TILESPACE_SOURCE_DIR) + "/tools/suites/8puzzle-assignment.txt";
  auto r = run_cli("compare --suite '" + suite + "' --algorithms bfs,astar:manhattan,astar:inversions --json", dir.path);
  REQUIRE(r.rc == tilespace::kExitUnreachable);  // the suite holds unreachable pairs
  const auto j = json::parse(r.out);
  CHECK(j.size() == 9 * 3);
  int unreachable = 0, long_ones = 0;
  for (const auto& row : j) {
    if (row["unreachable"] == true) {
      ++unreachable;
      continue;
    }
    REQUIRE(row["optimal_length"].is_number());
    if (row["optimal_length"].get<int>() >= 20) ++long_ones;
    if (row["solver"] != "astar:inversions") CHECK(row["optimal"] == true);
  }
  CHECK(unreachable == 3);
  CHECK(long_ones >= 3 * 3);

  r = run_cli("compare '2 8 3 1 0 4 7 6 5' --goal '1 2 3 8 0 4 7 6 5' --algorithms bfs,idastar:manhattan --csv", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Catch::StartsWith("instance,solver,length,optimal,expanded,generated,peak KiB,seconds\n"));
  CHECK_THAT(r.out, Catch::Contains(",bfs,4,yes,"));
  CHECK_THAT(r.out, Catch::Contains(",idastar:manhattan,4,yes,"));
  r = run_cli("compare '2 8 3 1 0 4 7 6 5' --goal '1 2 3 8 0 4 7 6 5' --algorithms astar --md", dir.path);
  CHECK_THAT(r.out, Catch::StartsWith("| instance"));
  CHECK_THAT(r.out, Catch::Contains("astar:manhattan"));
  // Blanks in the list are dropped; one output format at a time.
  r = run_cli("compare '2 8 3 1 0 4 7 6 5' --goal '1 2 3 8 0 4 7 6 5' --algorithms 'bfs, idastar : manhattan' --csv", dir.path);
  CHECK(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains(",bfs,4,yes,") && Catch::Contains(",idastar:manhattan,4,yes,"));
  for (const std::string both : {"--csv --json", "--md --json", "--csv --md"}) {
    r = run_cli("compare '2 8 3 1 0 4 7 6 5' --algorithms astar " + both, dir.path);
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Catch::Contains(": does not apply with --"));
  }
  r = run_cli("compare --suite /nonexistent", dir.path);
  CHECK(r.rc == 2);
}

TEST_CASE("cli: the assignment's input and output: zh/en, result file, labels, animation", "[cli][search]") {
  TempDir dir;
  auto r = run_cli("solve '2 8 3 1 0 4 7 6 5' --goal '1 2 3 8 0 4 7 6 5' -a astar --lang zh", dir.path);
  CHECK(r.rc == 0);
  CHECK_THAT(r.out, Catch::StartsWith("最少移动4步到达目标状态\n"));
  r = run_cli("solve '1 2 3 4 0 5 6 7 8' --goal '1 2 3 8 0 4 7 6 5' --lang zh", dir.path);
  CHECK(r.rc == 1);
  CHECK(r.out == "目标状态不可达\n");
  r = run_cli("query '1 3 2 4 0 5 6 7 8' --goal '1 2 3 8 0 4 7 6 5' --lang zh", dir.path);
  CHECK(r.out == "最少移动20步到达目标状态\n");
  r = run_cli("solve '2 8 3 1 0 4 7 6 5' --goal '1 2 3 8 0 4 7 6 5' -a astar --lang en", dir.path);
  CHECK_THAT(r.out, Catch::StartsWith("4 moves: "));
  r = run_cli("solve 123456780 --lang fr", dir.path);
  CHECK(r.rc == 2);

  // result.txt: every board from start to goal, one block each.
  r = run_cli("solve '2 8 3 1 0 4 7 6 5' --goal '1 2 3 8 0 4 7 6 5' -a bfs --result result.txt", dir.path);
  REQUIRE(r.rc == 0);
  const std::string result = testing::read_file(dir / "result.txt");
  CHECK_THAT(result, Catch::StartsWith("2 8 3\n1 . 4\n7 6 5\n\n"));
  CHECK_THAT(result, Catch::EndsWith("1 2 3\n8 . 4\n7 6 5\n"));
  CHECK(std::count(result.begin(), result.end(), '\n') == 5 * 3 + 4);

  // Named tiles, the same set in start and goal; any blank token with --blank.
  r = run_cli("solve 'B H C A _ D G F E' --goal 'A B C H _ D G F E' -a idastar --json", dir.path);
  REQUIRE(r.rc == 0);
  auto j = json::parse(r.out);
  CHECK(j["length"] == 4);
  CHECK(j["labels"][1] == "A");
  r = run_cli("solve 'B H C A x D G F E' --goal 'A B C H x D G F E' --blank x -a astar", dir.path);
  CHECK(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains("B H C\n  A x D"));
  r = run_cli("solve 'B H C A _ D G F Z' --goal 'A B C H _ D G F E'", dir.path);
  CHECK(r.rc == 2);
  CHECK_THAT(r.err, Catch::Contains("'Z'") && Catch::Contains("not in the goal"));
  r = run_cli("solve 'B H C A _ D G F E'", dir.path);
  CHECK(r.rc == 2);
  CHECK_THAT(r.err, Catch::Contains("unknown symbol 'B'") && Catch::Contains("need --goal"));
  testing::write_file(dir / "start.txt", "B H C A _ D G F E\nA B C H _ D G F E\n");
  r = run_cli("solve start.txt -a bibfs --lang zh", dir.path);
  CHECK_THAT(r.out, Catch::StartsWith("最少移动4步到达目标状态"));

  // --animate off a terminal: every frame, in order.
  r = run_cli("solve 123456708 --animate", dir.path);
  CHECK(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains("move 0/1\n") && Catch::Contains("move 1/1\n"));
  CHECK(r.out.find("\x1b") == std::string::npos);
}
