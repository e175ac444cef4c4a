// The multi-tile metric from the command line: build, query, query --batch and stats with
// --metric multi, against a naive multi-tile BFS (support.hpp naive_bfs); the file of each metric
// kept apart; the options that do not apply refused. (The engine itself: test_bfs.cpp.)
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "support.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/state.hpp"
#include "tilespace/symmetry.hpp"

using namespace tilespace;
using nlohmann::json;

namespace {

std::vector<std::string> output_lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (std::size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) out.push_back(text.substr(from, nl - from));
  return out;
}

std::vector<std::uint64_t> multi_histogram(const std::unordered_map<std::uint64_t, int>& dist) {
  std::vector<std::uint64_t> h;
  for (const auto& [state, d] : dist) {
    if (h.size() <= static_cast<std::size_t>(d)) h.resize(static_cast<std::size_t>(d) + 1, 0);
    ++h[static_cast<std::size_t>(d)];
  }
  return h;
}

}  // namespace

TEST_CASE("multi-tile tables from the command line: build, stats, query and query --batch equal a naive BFS",
          "[multi][cli]") {
  testing::TempDir dir;
  const Board b(3, 3);
  const State goal = canonical_goal(b, 8);
  const auto naive = testing::naive_bfs(goal, Metric::multi);

  auto r = testing::run_cli("build --metric multi --json", dir.path);
  REQUIRE(r.rc == 0);
  auto j = json::parse(r.out);
  REQUIRE(j.size() == 1);
  CHECK(j[0]["file"] == "out/3x3-123456780-multi.tsdb");
  CHECK(j[0]["metric"] == "multi");
  CHECK(j[0]["radius"] == 24);
  CHECK(j[0]["up_to_date"] == false);
  r = testing::run_cli("build --metric multi", dir.path);
  CHECK(r.rc == 0);
  CHECK_THAT(r.out, Catch::StartsWith("up to date: out/3x3-123456780-multi.tsdb"));

  r = testing::run_cli("stats --metric multi --json", dir.path);
  REQUIRE(r.rc == 0);
  j = json::parse(r.out);
  CHECK(j["metric"] == "multi");
  CHECK(j["histogram"].get<std::vector<std::uint64_t>>() == multi_histogram(naive));
  CHECK(j["radius"] == 24);
  r = testing::run_cli("stats --metric multi", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains("radius  24") && Catch::Contains("metric  multi-tile"));

  // 300 random states, one at a time for the first ten and all in a batch, in both metrics: the
  // single-tile answers come from their own table, built beside the other.
  std::mt19937_64 rng(29);
  std::vector<State> starts;
  std::string batch;
  for (int i = 0; i < 300; ++i) {
    State s = goal;
    std::shuffle(s.tiles.begin(), s.tiles.begin() + b.cells(), rng);
    for (int c = 0; c < b.cells(); ++c)
      if (s.tiles[c] == 0) s.blank = c;
    starts.push_back(s);
    batch += s.to_string() + "\n";
  }
  testing::write_file(dir.path / "pairs.txt", batch);
  r = testing::run_cli("query --metric multi --batch pairs.txt", dir.path);
  INFO(r.err.substr(0, 300));
  REQUIRE(r.rc == 1);  // some are unreachable
  const auto lines = output_lines(r.out);
  REQUIRE(lines.size() == starts.size());
  const auto single = testing::naive_bfs(goal);
  std::size_t wrong = 0, shorter = 0;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const auto it = naive.find(starts[i].packed());
    const std::string want = it == naive.end() ? "unreachable" : std::to_string(it->second);
    wrong += lines[i] != want;
    if (it != naive.end()) shorter += it->second < single.at(starts[i].packed());
  }
  CHECK(wrong == 0);
  CHECK(shorter > 100);  // the metrics differ: most states are closer in moves of several tiles
  for (std::size_t i = 0; i < 10; ++i) {
    const auto it = naive.find(starts[i].packed());
    r = testing::run_cli("query --metric multi --json '" + starts[i].to_string() + "'", dir.path);
    REQUIRE((r.rc == 0 || r.rc == 1));
    j = json::parse(r.out);
    CHECK(j["length"] == (it == naive.end() ? json(nullptr) : json(it->second)));
    if (it == naive.end()) continue;
    r = testing::run_cli("query '" + starts[i].to_string() + "'", dir.path);
    REQUIRE(r.rc == 0);
    CHECK(r.out == std::to_string(single.at(starts[i].packed())) + "\n");
  }
  CHECK(std::filesystem::exists(dir.path / "out" / "3x3-123456780.tsdb"));
}

TEST_CASE("multi-tile tables for every goal: build --all-goals and the longest optimal solution between any two "
          "states",
          "[multi][cli]") {
  testing::TempDir dir;
  const Board b(3, 3);
  auto r = testing::run_cli("build --metric multi --all-goals --json", dir.path);
  REQUIRE(r.rc == 0);
  CHECK(json::parse(r.out).size() == blank_classes(b).size());
  r = testing::run_cli("stats --metric multi --all-goals --json", dir.path);
  REQUIRE(r.rc == 0);
  const json j = json::parse(r.out);
  // The naive radius of each blank class's representative; the longest is their largest.
  int longest = 0;
  for (const auto& cls : blank_classes(b)) {
    const auto h = multi_histogram(testing::naive_bfs(canonical_goal(b, cls.front()), Metric::multi));
    longest = std::max(longest, static_cast<int>(h.size()) - 1);
    for (const int cell : cls) {
      const auto it = std::find_if(j["goals"].begin(), j["goals"].end(), [&](const json& g) { return g["blank"] == cell; });
      REQUIRE(it != j["goals"].end());
      CHECK((*it)["radius"] == static_cast<int>(h.size()) - 1);
    }
  }
  CHECK(j["longest"] == longest);
  CHECK(longest >= 24);
}

TEST_CASE("multi-tile two-bit tables from the command line: build --bits 2 --all-goals answers as the byte tables do",
          "[multi][two-bit][cli]") {
  testing::TempDir dir;
  const Board b(3, 3);
  auto r = testing::run_cli("build --metric multi --bits 2 --all-goals --db two --json", dir.path);
  REQUIRE(r.rc == 0);
  auto j = json::parse(r.out);
  REQUIRE(j.size() == blank_classes(b).size());
  for (const auto& t : j) {
    CHECK(t["bits"] == 2);
    CHECK(t["metric"] == "multi");
    CHECK_THAT(t["file"].get<std::string>(), Catch::StartsWith("two/3x3-") && Catch::EndsWith("-multi.tsdb"));
  }
  REQUIRE(testing::run_cli("build --metric multi --all-goals --db byte", dir.path).rc == 0);
  // The same layers and longest solution, goal by goal.
  r = testing::run_cli("stats --metric multi --all-goals --json --db two", dir.path);
  REQUIRE(r.rc == 0);
  const json two = json::parse(r.out);
  r = testing::run_cli("stats --metric multi --all-goals --json --db byte", dir.path);
  REQUIRE(r.rc == 0);
  const json byte = json::parse(r.out);
  CHECK(two["longest"] == byte["longest"]);
  CHECK(two["goals"] == byte["goals"]);
  // 200 pairs of random states and goals with their blank on every cell: the same answers, every
  // one the naive BFS's for the canonical goal.
  std::mt19937_64 rng(31);
  std::string batch;
  for (int i = 0; i < 200; ++i) {
    State s = canonical_goal(b, i % b.cells()), g = canonical_goal(b, (i / 9) % b.cells());
    std::shuffle(s.tiles.begin(), s.tiles.begin() + b.cells(), rng);
    for (int c = 0; c < b.cells(); ++c)
      if (s.tiles[c] == 0) s.blank = c;
    batch += s.to_string() + " / " + g.to_string() + "\n";
  }
  testing::write_file(dir.path / "pairs.txt", batch);
  const auto a = testing::run_cli("query --metric multi --batch pairs.txt --db two", dir.path);
  const auto c = testing::run_cli("query --metric multi --batch pairs.txt --db byte", dir.path);
  CHECK(a.rc == 1);  // some are unreachable
  CHECK(a.out == c.out);
  CHECK(output_lines(a.out).size() == 200);
  // One answer checked against the naive BFS, with the solution `solve` reads from the table.
  const State goal = canonical_goal(b, 8);
  const auto naive = testing::naive_bfs(goal, Metric::multi);
  const std::string hardest = "8 6 7 2 5 4 3 0 1";
  r = testing::run_cli("solve --metric multi --db two --json '" + hardest + "'", dir.path);
  REQUIRE(r.rc == 0);
  j = json::parse(r.out);
  CHECK(j["algorithm"] == "table");
  CHECK(j["length"] == naive.at(parse_state(hardest, b).packed()));
  CHECK(j["length"] == 20);
  testing::write_file(dir.path / "answer.txt", hardest + "\t\t" + j["moves"].get<std::string>() + "\n" + hardest + "\t\t19\n");
  r = testing::run_cli("check answer.txt --metric multi --db two --json", dir.path);
  CHECK(r.rc == 1);
  j = json::parse(r.out);
  CHECK(j["passed"] == 1);
  CHECK(j["verdicts"][0]["verdict"] == "ok");
  CHECK(j["verdicts"][1]["verdict"] == "wrong-length");
}

TEST_CASE("multi-tile tables: a file of the other metric is refused, and so are the options that do not apply",
          "[multi][cli]") {
  testing::TempDir dir;
  auto r = testing::run_cli("build", dir.path);
  REQUIRE(r.rc == 0);
  // A single-tile table under the multi-tile name: exit 3, naming it and the command that rebuilds it.
  std::filesystem::copy_file(dir.path / "out/3x3-123456780.tsdb", dir.path / "out/3x3-123456780-multi.tsdb");
  r = testing::run_cli("query --metric multi '8 6 7 2 5 4 3 0 1'", dir.path);
  CHECK(r.rc == kExitData);
  CHECK_THAT(r.err, Catch::Contains("3x3-123456780-multi.tsdb: holds a table of the single-tile metric, not the multi-tile") &&
                        Catch::Contains("tilespace build --board 3x3 --metric multi --force"));
  // Forged metric bytes in headers whose checksums hold: an unknown metric, a multi-tile metric on
  // a single-tile two-bit table (which then claims the other metric) and on a one-bit table (which
  // has no multi-tile form). Exit 3 each.
  r = testing::run_cli("build --board 2x3 --bits 2", dir.path);
  REQUIRE(r.rc == 0);
  r = testing::run_cli("build --board 2x4 --bits 1", dir.path);
  REQUIRE(r.rc == 0);
  struct Forged {
    const char *file, *query;
    char metric;
    const char* says;
  };
  for (const Forged& f : {Forged{"out/3x3-123456780.tsdb", "query '8 6 7 2 5 4 3 0 1'", 7, "unknown metric 7"},
                          Forged{"out/2x3-123450.tsdb", "query --board 2x3 '1 2 3 4 0 5'", 1,
                                 "holds a table of the multi-tile metric, not the single-tile"},
                          Forged{"out/2x4-12345670.tsdb", "query --board 2x4 '1 2 3 4 5 6 0 7'", 1,
                                 "a multi-tile metric on a file of kind 5"}}) {
    std::string bytes = testing::read_file(dir.path / f.file);
    bytes[152] = f.metric;
    testing::reseal_header(bytes, 56);
    testing::write_file(dir.path / f.file, bytes);
    r = testing::run_cli(f.query, dir.path);
    CAPTURE(f.file);
    CHECK(r.rc == kExitData);
    CHECK_THAT(r.err, Catch::Contains(f.says));
  }

  const std::pair<std::string, const char*> refused[] = {
      {"build --metric multi --board 5x5", "--metric: multi: no exact table of 5x5 can exist"},
      {"query --metric multi --board 5x5 --batch pairs.txt", "no exact table of 5x5 can exist"},
      {"stats --metric multi --board 4x4", "no exact table of 4x4 can exist (query, check and random --depth search each pair"},
      {"random --metric multi --board 5x5 --depth 9", "no exact table of 5x5 can exist"},
      {"build --metric multi --board 2x5 --bits 1",
       "--bits: 1 keeps single-tile tables only (one bit cannot hold the multi-tile metric's depth mod 3); --bits 2 "
       "builds a multi-tile two-bit table"},
      {"build --metric multi --zpdb 4-4", "--metric: does not apply with --zpdb"},
      {"build --metric multi --automaton", "--metric: does not apply with --automaton"},
      {"build --metric many", "--metric"},
  };
  testing::write_file(dir.path / "pairs.txt", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24\n");
  for (const auto& [command, says] : refused) {
    r = testing::run_cli(command, dir.path);
    CAPTURE(command, r.err);
    CHECK(r.rc == kExitInput);
    CHECK_THAT(r.err, Catch::Contains(says));
  }
  // 2x7 has a multi-tile table, by the two-bit engine and its open bitmap (3 bits a state), which
  // does not fit 16 GiB; and it is too long to build on the fly for a query.
  r = testing::run_cli("build --metric multi --board 7x2 --max-memory 16G", dir.path);
  CHECK(r.rc == kExitResource);
  CHECK_THAT(r.err, Catch::Contains("the 7x2 multi-tile table with the two-bit engine needs 15.2 GiB"));
  for (const char* command : {"stats --metric multi --board 7x2", "query --metric multi --board 7x2 '1 2 3 4 5 6 7 8 9 10 11 12 0 13'"}) {
    r = testing::run_cli(command, dir.path);
    CAPTURE(command);
    CHECK(r.rc == kExitData);
    CHECK_THAT(r.err, Catch::Contains("no distance table for this 7x2 goal") &&
                          Catch::Contains("tilespace build --board 7x2 --metric multi"));
  }
  // Nothing of the multi-tile metric was built by the refused commands.
  for (const auto& f : std::filesystem::directory_iterator(dir.path / "out")) {
    CAPTURE(f.path());
    CHECK((f.path().filename() == "3x3-123456780-multi.tsdb" || f.path().filename().string().find("multi") == std::string::npos));
  }
}

TEST_CASE("build --count-only: the two-bit engine's layers and farthest states equal the tables', in both metrics",
          "[multi][two-bit][cli]") {
  testing::TempDir dir;
  // The tables' (built by the byte engine into out/) against the count, for a canonical goal and
  // a relabelled one with an inner blank: every layer and the farthest states, as given goals.
  for (const std::string goal : {"--board 3x3", "--goal '8 7 6 5 0 4 3 2 1'", "--board 2x4"}) {
    for (const std::string metric : {"single", "multi"}) {
      CAPTURE(goal, metric);
      auto s = testing::run_cli("stats --json --metric " + metric + " " + goal, dir.path);
      REQUIRE(s.rc == 0);
      const json stats = json::parse(s.out);
      auto r = testing::run_cli("build --count-only --json --threads 2 --metric " + metric + " " + goal, dir.path);
      REQUIRE(r.rc == 0);
      const json count = json::parse(r.out);
      CHECK(count["metric"] == metric);
      CHECK(count["histogram"] == stats["histogram"]);
      CHECK(count["radius"] == stats["radius"]);
      CHECK(count["states"] == stats["states"]);
      CHECK(count["goal"] == stats["goal"]);
      std::vector<json> a = count["farthest"], b = stats["farthest"];
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      CHECK(a == b);
      CHECK_FALSE(a.empty());
    }
  }
  // The text form; and nothing is written.
  const auto files = [&] {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& f : std::filesystem::directory_iterator(dir.path / "out")) ++n;
    return n;
  }();
  auto r = testing::run_cli("build --count-only --metric multi --board 2x5 --db fresh", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains("radius  36"));
  CHECK_THAT(r.out, Catch::Contains("metric  multi-tile"));
  CHECK_FALSE(std::filesystem::exists(dir.path / "fresh"));
  std::size_t after = 0;
  for ([[maybe_unused]] const auto& f : std::filesystem::directory_iterator(dir.path / "out")) ++after;
  CHECK(after == files);
  // Options that do not apply.
  const std::pair<std::string, const char*> refused[] = {
      {"build --count-only --all-goals", "--all-goals: does not apply with --count-only (it counts the goal's layers)"},
      {"build --count-only --bits 2", "--bits: does not apply with --count-only"},
      {"build --count-only --force", "--force: does not apply with --count-only (it writes no file)"},
      {"build --count-only --resume", "--resume: does not apply with --count-only (it takes no checkpoints)"},
      {"build --count-only --checkpoint-every 5", "--checkpoint-every: does not apply with --count-only"},
      {"build --count-only --pdb 4-4", "--count-only: does not apply with --pdb"},
      {"build --count-only --automaton", "--count-only: does not apply with --automaton"},
      {"build --count-only --board 5x5", "5x5"},
      {"build --count-only --board 4x4 --max-memory 1G", "--max-memory"},
  };
  for (const auto& [command, says] : refused) {
    r = testing::run_cli(command, dir.path);
    CAPTURE(command, r.err);
    CHECK((r.rc == kExitInput || r.rc == kExitResource));
    CHECK_THAT(r.err, Catch::Contains(says));
  }
}

TEST_CASE("multi-tile answers from the command line: solve, solve --batch, check, random, compare and verify",
          "[multi][cli]") {
  testing::TempDir dir;
  const Board b(3, 3);
  const State goal = canonical_goal(b, 8);
  const auto naive = testing::naive_bfs(goal, Metric::multi);
  const std::string hardest = "8 6 7 2 5 4 3 0 1";  // 31 single-tile moves, 20 multi-tile

  // solve: the table where it is at hand (built within the one-minute rule), else IDA* on
  // multi-manhattan; the moves in the notation check reads.
  auto r = testing::run_cli("solve '" + hardest + "' --metric multi --json", dir.path);
  REQUIRE(r.rc == 0);
  auto j = json::parse(r.out);
  CHECK(j["metric"] == "multi");
  CHECK(j["algorithm"] == "table");
  CHECK(j["length"] == 20);
  const std::string moves = j["moves"];
  CHECK(std::count(moves.begin(), moves.end(), ' ') == 19);
  CHECK(moves.find('2') != std::string::npos);
  for (const char* a : {"idastar", "astar", "bibfs"}) {
    r = testing::run_cli("solve '" + hardest + "' --metric multi --json -a " + a, dir.path);
    REQUIRE(r.rc == 0);
    j = json::parse(r.out);
    CHECK(j["length"] == 20);
    CHECK(j["heuristic"] == (std::string(a) == "bibfs" ? json(nullptr) : json("multi-manhattan")));
  }
  // --trace in multi: the file's tree has every child one multi-tile move from its parent, and its
  // solution is the answer's path.
  r = testing::run_cli("solve '" + hardest + "' --metric multi -a astar --trace trace.json", dir.path);
  REQUIRE(r.rc == 0);
  {
    std::ifstream in(dir.path / "trace.json");
    const json t = json::parse(in);
    CHECK(t["metric"] == "multi");
    CHECK(t["length"] == 20);
    REQUIRE(t["data"].size() > 20);
    const auto state_of = [&](const json& node) {
      std::string text;
      for (const auto& v : node["state"]) text += std::to_string(v.get<int>()) + " ";
      return parse_state(text, b);
    };
    int multi_steps = 0;
    for (const auto& node : t["data"]) {
      if (node["parent"].is_null()) continue;
      const State child = state_of(node), parent = state_of(t["data"][node["parent"].get<std::size_t>()]);
      REQUIRE(is_move(parent, child, Metric::multi));
      multi_steps += !is_move(parent, child, Metric::single);
    }
    CHECK(multi_steps > 0);  // moves of two cells were generated
    REQUIRE(t["solution"].size() == 21);
    for (std::size_t k = 0; k < 21; ++k) CHECK(t["data"][t["solution"][k].get<std::size_t>()]["state"] == t["path"][k]);
  }
  r = testing::run_cli("solve '" + hardest + "' --json", dir.path);  // the single-tile table, beside
  REQUIRE(r.rc == 0);
  CHECK(json::parse(r.out)["length"] == 31);
  CHECK(json::parse(r.out)["metric"] == "single");

  // solve --batch: 40 random states, the lengths of a naive multi-tile BFS.
  std::mt19937_64 rng(5);
  std::string batch;
  std::vector<int> want;
  for (const auto& [packed, d] : naive) {
    if (rng() % 4000 != 0 || want.size() == 40) continue;
    batch += State::unpack(b, packed).to_string() + "\n";
    want.push_back(d);
  }
  REQUIRE(want.size() >= 20);
  testing::write_file(dir.path / "batch.txt", batch);
  r = testing::run_cli("solve --batch batch.txt --metric multi -a idastar --json", dir.path);
  REQUIRE(r.rc == 0);
  const auto lines = output_lines(r.out);
  REQUIRE(lines.size() == want.size());
  for (std::size_t i = 0; i < lines.size(); ++i) CHECK(json::parse(lines[i])["length"] == want[i]);

  // check reads both metrics' answers: every verdict in the multi-tile metric, and the same
  // 20-move answer counted as 31 single-tile moves.
  const std::string check_file = hardest + "\t\t" + moves + "\n" +           // ok
                                 hardest + "\t\t20\n" +                       // ok
                                 hardest + "\t\t21\n" +                       // wrong-length
                                 hardest + "\t\tULDRRUULLDRULDDRRULLDRRUULLDDRR\n" +  // longer (31 one-cell moves)
                                 hardest + "\t\tR3\n" +                       // illegal-move
                                 hardest + "\t\tU2\n" +                       // wrong-end
                                 "1 2 3 4 5 6 8 7 0\t\tL2\n" +                // unreachable-missed
                                 hardest + "\t\tunreachable\n";               // falsely-unreachable
  testing::write_file(dir.path / "answers.txt", check_file);
  r = testing::run_cli("check answers.txt --metric multi --json", dir.path);
  REQUIRE(r.rc == 1);
  j = json::parse(r.out);
  CHECK(j["passed"] == 2);
  const std::vector<std::string> verdicts = {"ok", "ok", "wrong-length", "longer", "illegal-move", "wrong-end",
                                             "unreachable-missed", "falsely-unreachable"};
  REQUIRE(j["verdicts"].size() == verdicts.size());
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    INFO("line " << i + 1);
    CHECK(j["verdicts"][i]["verdict"] == verdicts[i]);
  }
  CHECK(j["verdicts"][0]["answered"] == 20);
  CHECK(j["verdicts"][3]["answered"] == 31);
  CHECK(j["verdicts"][3]["optimal"] == 20);
  CHECK_THAT(j["verdicts"][4]["message"].get<std::string>(), Catch::Contains("'R3' moves the blank off the board"));
  testing::write_file(dir.path / "one.txt", hardest + "\t\t" + moves + "\n");
  r = testing::run_cli("check one.txt --json", dir.path);
  REQUIRE(r.rc == 0);
  CHECK(json::parse(r.out)["verdicts"][0]["answered"] == 31);

  // random --depth: states that many multi-tile moves from the goal.
  r = testing::run_cli("random --metric multi --depth 19 --count 5 --seed 3", dir.path);
  REQUIRE(r.rc == 0);
  const auto drawn = output_lines(r.out);
  REQUIRE(drawn.size() == 5);
  for (const std::string& line : drawn) CHECK(naive.at(parse_state(line).packed()) == 19);
  // A common depth (drawn by rejection): states with the blank on cells of both parities, as a
  // multi-tile move of two cells keeps the parity (a sampler drawing single-tile parities only
  // never returned half of them).
  r = testing::run_cli("random --metric multi --depth 14 --count 300 --seed 4", dir.path);
  REQUIRE(r.rc == 0);
  int parities[2] = {0, 0};
  for (const std::string& line : output_lines(r.out)) {
    const State s = parse_state(line);
    CHECK(naive.at(s.packed()) == 14);
    ++parities[(s.blank / 3 + s.blank % 3) & 1];
  }
  CHECK(parities[0] + parities[1] == 300);
  CHECK(parities[0] > 30);
  CHECK(parities[1] > 30);

  // compare and verify count multi-tile moves.
  r = testing::run_cli("compare '" + hardest + "' --metric multi --algorithms idastar,astar,bfs --json", dir.path);
  REQUIRE(r.rc == 0);
  j = json::parse(r.out);
  REQUIRE(j.size() == 3);
  for (const auto& row : j) {
    CHECK(row["length"] == 20);
    CHECK(row["optimal_length"] == 20);
  }
  // compare --sample evaluates walking distance in the metric asked: lower in multi-tile moves.
  double means[2] = {0, 0};
  for (const int multi : {0, 1}) {
    r = testing::run_cli(std::string("compare --sample 300 --algorithms idastar:walking-distance --json") +
                             (multi ? " --metric multi" : ""), dir.path);
    REQUIRE(r.rc == 0);
    j = json::parse(r.out);
    means[multi] = j["sample"][0]["mean"];
    CHECK(j["sample"][0]["max"] <= (multi ? 24 : 31));
  }
  CHECK(means[1] < means[0]);
  // Every multi-tile optimal solver on 200 states (10 under the sanitizers: iddfs is slow there).
  const int sample = testing::kSanitized ? 10 : 200;
  r = testing::run_cli("verify --metric multi --json --sample " + std::to_string(sample), dir.path);
  REQUIRE(r.rc == 0);
  j = json::parse(r.out);
  std::set<std::string> solvers;
  for (const auto& row : j) {
    INFO(row.dump());
    CHECK(row["ok"] == true);
    CHECK(row["optimal"] == sample);
    solvers.insert(row["solver"]);
  }
  CHECK(solvers.count("idastar:multi-manhattan"));
  CHECK(solvers.count("astar:exact"));
  CHECK(!solvers.count("astar:manhattan"));

  // Refused with exit 2, each naming the option at fault.
  const std::pair<std::string, std::string> refused[] = {
      {"solve '" + hardest + "' --metric multi -a aidastar", "--algorithm"},
      {"solve '" + hardest + "' --metric multi --heuristic manhattan", "--heuristic"},
      {"solve '" + hardest + "' --metric multi -a idastar --automaton on", "--automaton"},
      {"solve '" + hardest + "' --metric triple", "--metric"},
      {"check answers.txt --metric multi --board 5x5", "--metric"},  // (4x4: searched with mpdb)
      {"random --metric multi", "--metric"},
      {"random --metric multi --depth 10 --board 5x5", "--metric"},  // (4x4: multi-tile walks)
      {"verify --metric multi --algorithms idastar:manhattan", "--algorithms"},
  };
  for (const auto& [args, option] : refused) {
    r = testing::run_cli(args, dir.path);
    INFO(args << ": " << r.err);
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Catch::Contains(option));
  }
  CHECK(!std::filesystem::exists(dir.path / "t.json"));
}

TEST_CASE("multi-tile pattern databases from the command line: build --metric multi --pdb, solve --heuristic mpdb, "
          "the file kept apart from single-tile ones, and the refusals", "[multi][cli][pdb]") {
  testing::TempDir dir;
  // Built as asked, each file named with -m and its metric in the JSON; the second time up to date.
  auto r = testing::run_cli("build --metric multi --pdb 4-4 --json", dir.path);
  REQUIRE(r.rc == 0);
  json built = json::parse(r.out);
  REQUIRE(built.size() == 2);
  for (const auto& f : built) {
    CHECK(f["metric"] == "multi");
    CHECK(f["up_to_date"] == false);
    CHECK(f["entries"] == 9 * 8 * 7 * 6 * 5);  // the blank's cell and four tiles'
    CHECK(f["file"].get<std::string>().find("out/3x3-123456780-m") == 0);
    CHECK(std::filesystem::exists(dir.path / f["file"].get<std::string>()));
  }
  r = testing::run_cli("build --metric multi --pdb 4-4 --json", dir.path);
  REQUIRE(r.rc == 0);
  for (const auto& f : json::parse(r.out)) CHECK(f["up_to_date"] == true);

  // solve with them: the multi-tile table's length, the databases named as used.
  const std::string start = "'8 6 7 2 5 4 3 0 1'";
  r = testing::run_cli("query --metric multi " + start, dir.path);
  REQUIRE(r.rc == 0);
  const int optimum = std::stoi(r.out);
  for (const std::string how : {"--heuristic mpdb", "--heuristic mpdb:4-4", "--pattern 1,2,3/4,5,6+5,6,7,8",
                                "--algorithm astar --heuristic mpdb"}) {
    r = testing::run_cli("solve --metric multi --json " + how + " " + start, dir.path);
    CAPTURE(how, r.err);
    REQUIRE(r.rc == 0);
    const json j = json::parse(r.out);
    CHECK(j["length"] == optimum);
    CHECK(j["metric"] == "multi");
    CHECK(j["heuristic"].get<std::string>().rfind("mpdb:", 0) == 0);
  }
  // Refusals, exit 2: mpdb without --metric multi; a zero-aware build in the multi-tile metric; a
  // pattern too large for a multi-tile database.
  const std::pair<std::string, const char*> refused[] = {
      {"solve --heuristic mpdb " + start, "--heuristic: mpdb counts multi-tile moves: give --metric multi"},
      {"build --metric multi --zpdb 4-4", "--metric: does not apply with --zpdb"},
      {"build --metric multi --pdb 1,2,3,4,5,6,7", "a multi-tile pattern on the 3x3 board has 1 to 6 tiles"},
  };
  for (const auto& [command, says] : refused) {
    r = testing::run_cli(command, dir.path);
    CAPTURE(command, r.err);
    CHECK(r.rc == kExitInput);
    CHECK_THAT(r.err, Catch::Contains(says));
  }
  // A multi-tile file under a single-tile database's name: exit 3, naming the file, the metric and
  // the command that rebuilds it; a truncated one likewise.
  const std::string mfile = built[0]["file"].get<std::string>();
  std::string pfile = mfile;
  pfile.replace(pfile.find("-m"), 2, "-p");
  std::filesystem::copy_file(dir.path / mfile, dir.path / pfile);
  r = testing::run_cli("solve --json --heuristic pdb:4-4 " + start, dir.path);
  CHECK(r.rc == kExitData);
  CHECK_THAT(r.err, Catch::Contains("holds multi-tile distances, not single-tile ones") &&
                        Catch::Contains("rebuild it with: tilespace build --board 3x3 --pdb "));
  std::string bytes = testing::read_file(dir.path / mfile);
  bytes.resize(bytes.size() - 100);
  testing::write_file(dir.path / mfile, bytes);
  r = testing::run_cli("solve --metric multi --heuristic mpdb " + start, dir.path);
  CHECK(r.rc == kExitData);
  CHECK_THAT(r.err, Catch::Contains(mfile) && Catch::Contains("truncated") && Catch::Contains("--metric multi --pdb"));
}

TEST_CASE("the 15-puzzle in the multi-tile metric: query, query --batch and check search each pair with the stock "
          "multi-tile pattern databases, and agree with solve", "[multi][cli][pdb][big]") {
  testing::TempDir dir;
  const std::string goal = "--board 4x4 --goal '0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15' --metric multi";
  const auto instances = testing::read_instances("korf100.tsv", Board(4, 4));
  const std::string a = instances[0].start.to_string(), b = instances[2].start.to_string();
  // The stock databases that build within a minute (6-6), as the first query builds them (the
  // server's and the Python module's tests see that build happen), from the test cache; the query
  // names them.
  testing::stock_4x4_databases(dir.path / "out", "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", Metric::multi);
  auto r = testing::run_cli("query " + goal + " '" + a + "'", dir.path);
  CAPTURE(r.err);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.err, Catch::Contains("each answer is searched (idastar, mpdb:6-6)"));
  const int qa = std::stoi(r.out);
  r = testing::run_cli("solve --json " + goal + " --heuristic mpdb:1,2,3,4,5,6/7,8,9,10,11,12 '" + a + "'", dir.path);
  REQUIRE(r.rc == 0);
  const json solved = json::parse(r.out);
  CHECK(solved["length"] == qa);
  CHECK(qa <= instances[0].length);  // never more than the single-tile optimum
  r = testing::run_cli("query --json " + goal + " --batch -", dir.path, a + "\n" + b + "\n");
  REQUIRE(r.rc == 0);
  const auto lines = output_lines(r.out);
  REQUIRE(lines.size() == 2);
  CHECK(json::parse(lines[0])["length"] == qa);
  const int qb = json::parse(lines[1])["length"];
  CHECK(qb <= instances[2].length);
  // check: the solve's answer is optimal; one move more is not.
  const std::string moves = solved["moves"];
  testing::write_file(dir.path / "answers.txt", a + "\t\t" + moves + "\n" + a + "\t\t" + std::to_string(qa + 1) + "\n");
  r = testing::run_cli("check --json " + goal + " answers.txt", dir.path);
  CHECK(r.rc == 1);
  const json verdicts = json::parse(r.out)["verdicts"];
  REQUIRE(verdicts.size() == 2);
  CHECK(verdicts[0]["verdict"] == "ok");
  CHECK(verdicts[0]["optimal"] == qa);
  CHECK(verdicts[1]["verdict"] == "wrong-length");
  // random --depth: walks of multi-tile moves proven that far by the same searches; the depth
  // answered again by query --batch. Past the deepest sampled depth, exit 2 naming it.
  r = testing::run_cli("random --json " + goal + " --depth 20 --count 6 --seed 7", dir.path);
  REQUIRE(r.rc == 0);
  std::string drawn;
  for (const std::string& line : output_lines(r.out)) {
    const json s = json::parse(line);
    CHECK(s["length"] == 20);
    std::string text;
    for (const auto& t : s["state"]) text += std::to_string(t.get<int>()) + " ";
    drawn += text + "\n";
  }
  r = testing::run_cli("query " + goal + " --batch -", dir.path, drawn);
  REQUIRE(r.rc == 0);
  CHECK(r.out == "20\n20\n20\n20\n20\n20\n");
  r = testing::run_cli("random " + goal + " --depth 31", dir.path);
  CHECK(r.rc == kExitInput);
  CHECK_THAT(r.err, Catch::Contains("--depth: at most 30 on 4x4 in the multi-tile metric"));
}
