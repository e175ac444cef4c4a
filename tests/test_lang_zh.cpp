// --lang zh is complete (issue 27, point 4): every line a person reads is Chinese. A corpus of
// command lines walks the message forms the six commands with --lang print (the parser's errors,
// the library's errors, the notices and progress lines of the database stores, the verdicts and
// summaries, the tables of stats, verify and compare); each must exit as its English twin does,
// and its output must hold no English word that is not a name, a path, an option or a number.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "serve_support.hpp"
#include "support.hpp"
#include "tilespace/pdb/pattern.hpp"
#include "tilespace/search/registry.hpp"

using testing::run_cli;
using testing::TempDir;

namespace {

// The words a Chinese line may keep: the registry's algorithm and heuristic names (split at '-'
// and ':' as the scan below splits them), the values of --metric and --lang, the subcommands, units, the search's OPEN and CLOSED,
// JSON, the grammar's placeholders (START, FILE, WxH, TAB) and the program's name.
const std::set<std::string>& allowed_words() {
  static const std::set<std::string> words = [] {
    std::set<std::string> w{"tilespace", "build",  "query", "stats", "solve", "check", "random", "verify", "compare",
                            "serve",     "KiB",    "MiB",   "GiB",   "OPEN",  "CLOSED", "JSON",  "START",  "GOAL",
                            "FILE",      "ANSWER", "TAB",   "WxH",   "pdb"};
    for (const tilespace::Metric m : {tilespace::Metric::single, tilespace::Metric::multi})  // --metric's values
      w.insert(std::string(tilespace::metric_name(m)));
    w.insert({"en", "zh"});  // --lang's
    const std::regex word("[A-Za-z]{2,}");
    for (const std::string& names : {tilespace::search::algorithm_names(), tilespace::search::heuristic_names()})
      for (std::sregex_iterator it(names.begin(), names.end(), word), end; it != end; ++it) w.insert(it->str());
    for (const auto& name : tilespace::pdb::stock_catalogues(tilespace::Board(5, 5)))  // names, as "7-8" is
      for (std::sregex_iterator it(name.begin(), name.end(), word), end; it != end; ++it) w.insert(it->str());
    return w;
  }();
  return words;
}

// The English words left in `text`, one "word  <- line" each: what remains of every line once
// the command to run (after "run", "rebuild it with:" or its Chinese), options, quoted text,
// paths and file names, board names and numbers are taken out, less the allowed names.
std::vector<std::string> english_words(const std::string& text) {
  // In this order: a path or file name holds what looks like an option ("moves-d12.fsm").
  static const std::vector<std::regex> names{
      std::regex("tilespace (build|query|solve|stats|check|compare|verify|random|serve)\\b.*$"),  // a command to run
      std::regex("'[^']*'|\"[^\"]*\""),                                                       // quoted text
      std::regex("[\\w.-]*/[\\w./-]*"),                                                      // paths
      std::regex("[\\w-]+\\.(txt|tsdb|pdb|zpdb|fsm|xml|json|ckpt|csv)\\b"),                    // file names
      std::regex("--?[A-Za-z][\\w-]*"),                                                       // options
      std::regex("\\d+x\\d+"),                                                                // boards
      std::regex("\\d+"),                                                                     // numbers
  };
  static const std::regex word("[A-Za-z]{2,}");
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::string rest = line;
    for (const auto& re : names) rest = std::regex_replace(rest, re, " ");
    for (std::sregex_iterator it(rest.begin(), rest.end(), word), end; it != end; ++it)
      if (!allowed_words().count(it->str())) found.push_back(it->str() + "  <- " + line);
  }
  return found;
}

// One command line of the corpus: "@" marks where --lang goes (at the end when there is none);
// `machine`: its stdout is a machine format (CSV, JSON), English by design: only stderr is read.
struct ZhCase {
  std::string args;
  bool machine = false;
};

std::string with_lang(const std::string& args, const std::string& lang) {
  const std::string flag = lang.empty() ? "" : "--lang " + lang;
  const auto at = args.find('@');
  return at == std::string::npos ? args + " " + flag : args.substr(0, at) + flag + args.substr(at + 1);
}

// The message lines of `err` ("tilespace: ...": errors and notices, not the progress lines'
// columns) that hold two spaces in a row, such as "run  tilespace build".
std::vector<std::string> double_spaced(const std::string& err) {
  std::vector<std::string> found;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("tilespace: ", 0) == 0 && line.find("  ") != std::string::npos) found.push_back(line);
  return found;
}

// Runs each case with --lang zh, then with --lang en in the same folder (the Chinese run first,
// so that it is the one that meets a missing database and builds it): the same exit code, no
// English word in what the Chinese run printed, and no message line in either with two spaces
// in a row. Under the sanitizers, where a run of the command costs ten times as much, the English
// twin runs for every third case only: the Chinese run takes the translation's code, and the
// Release build compares every pair.
void walk(const std::vector<ZhCase>& cases, const std::filesystem::path& cwd, const std::string& input = "") {
  std::size_t n = 0;
  for (const ZhCase& c : cases) {
    const auto zh = run_cli(with_lang(c.args, "zh"), cwd, input);
    if (testing::kSanitized && n++ % 3 != 0) {
      INFO("tilespace " << with_lang(c.args, "zh") << "\n--- stdout:\n" << zh.out << "--- stderr:\n" << zh.err);
      CHECK(english_words((c.machine ? "" : zh.out) + zh.err) == std::vector<std::string>{});
      CHECK(double_spaced(zh.err) == std::vector<std::string>{});
      continue;
    }
    const auto en = run_cli(with_lang(c.args, "en"), cwd, input);
    INFO("tilespace " << with_lang(c.args, "zh") << "\n--- stdout:\n" << zh.out << "--- stderr:\n" << zh.err
                      << "--- stderr (en):\n" << en.err);
    CHECK(zh.rc == en.rc);
    CHECK(english_words((c.machine ? "" : zh.out) + zh.err) == std::vector<std::string>{});
    CHECK(double_spaced(zh.err) == std::vector<std::string>{});
    CHECK(double_spaced(en.err) == std::vector<std::string>{});
  }
}

const std::string k4x4 = "'1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15'";
const std::string k5x5 = "'1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24'";

}  // namespace

TEST_CASE("zh: the word check finds English words and passes names, paths, options and numbers", "[cli][zh]") {
  CHECK(english_words("tilespace: 错误：--board：棋盘 '3y3' 无效") == std::vector<std::string>{});
  CHECK(english_words("已构建 out/3x3-123456780.tsdb：181440 个状态，半径 31") == std::vector<std::string>{});
  CHECK(english_words("算法 idastar，启发函数 pdb:linear-conflict：扩展 4 个结点，内存峰值 0.0 KiB") ==
        std::vector<std::string>{});
  CHECK(english_words("out/ 中没有这个 4x4 目标的模式数据库 7-8：请运行 tilespace build --board 4x4 --pdb 7-8") ==
        std::vector<std::string>{});
  // The mixed line of the issue: the reason in parentheses left in English.
  const auto found = english_words("tilespace: --lang：不能与 --batch 同用（one answer a line）");
  REQUIRE(found.size() == 3);
  CHECK(found[0].rfind("one  <- ", 0) == 0);
  CHECK(english_words("tilespace: no database out/x.tsdb yet: building it first").size() == 6);
}

TEST_CASE("zh: the parser's errors are Chinese when --lang zh is on the command line", "[cli][zh]") {
  TempDir dir;
  walk({{"query --gaol 1 @"},
        {"query --zzzz 1 @"},
        {"query 1 2 @"},
        {"solve 1 2 3 @"},
        {"solve 123456780 @ --board"},
        {"solve 123456780 --delay 99999"},
        {"query --threads abc 123456780"},
        {"query --threads 99999999999999999999999 123456780"},
        {"check"},
        {"compare --csv --md 123456780"},
        {"compare --csv --json 123456780"},
        {"query --goal 1 --goal 2 123456780"},
        {"bogus"},
        {"@"},
        {"query --json=maybe 123456780"},
        {"query 123456780 -x"},
        // Each kind of the parser's errors in the command's words (issue 46, point 11), and the
        // checks of values registered with the options.
        {"query --db a --db b 123456780"},
        {"query 123456780 @ --goal"},
        {"query 1 2 3 @"},
        {"query --metric x 123456780"},
        {"solve --metric x 123456780"},
        {"query --lang fr 123456780"},
        {"build --bits 3"},
        {"build --checkpoint-every abc"},
        {"build --checkpoint-every -1"},
        {"serve --port abc"},
        {"serve --port 70000"},
        {"serve --max-seconds 0"},
        {"serve --max-connections 0"},
        {"random --count 0"},
        {"query --goal '' 123456780 @"},
        {"solve 123456780 --result= @"}},
       dir.path);
  // --lang=zh counts as well.
  const auto r = run_cli("query --lang=zh 1 2", dir.path);
  CHECK(r.rc == 2);
  CHECK(r.err == "tilespace: 错误：多余的参数：2（见 --help）\n");
}

// [slow]: about 200 runs of the command (30 s under ASan); the translation's code runs under the
// sanitizers in the other cases here.
TEST_CASE("zh: the errors of states, files, options and databases are Chinese", "[cli][zh][slow]") {
  TempDir dir;
  testing::write_file(dir / "start.txt", "1 2 3 4 5 6 7 0 8\n");
  testing::write_file(dir / "empty.txt", "# nothing\n");
  testing::write_file(dir / "suite.txt", "1 2 3 4 5 6 7 0 8  1 2 3 4 5 6 7 8 0\n");
  testing::write_file(dir / "lines.txt", "1 2 3 4 5 6 7 0 8 1 2 3 4 5 6 7 8 0 5\n");
  testing::write_file(dir / "goals.txt", "1 2 3 4 5 6 7 0 8\t1 2 3 4 5 6 7 0 8\t0\n");
  std::filesystem::create_directories(dir / "folder");
  std::filesystem::create_directories(dir / "bad");
  testing::write_file(dir / "bad/3x3-123456780.tsdb", "garbage");
  std::filesystem::create_directories(dir / "file-db");
  testing::write_file(dir / "file-db/x", "");
  walk({{"query"},
        {"query '1 2 3'"},
        {"query '1 2 3 4 5 6 7 7 0'"},
        {"query 'a b c d e f g h 0'"},
        {"query '1 2 3 4 5 6 7 8 9'"},
        {"query '1 2 3/4 5/6 7 8 0'"},
        {"query x"},
        {"query ''"},
        {"query nosuchfile.txt"},
        {"query ./missing.txt"},
        {"query 5"},
        {"query '1/2' --board 2x2"},
        {"query é12345678"},
        {"check goals.txt --goal 123456780"},
        {"query 123456708 --db start.txt/db"},
        {"query folder/"},
        {"query empty.txt"},
        {"query --board 3y3 123456780"},
        {"query 123456780 --goal 1234567809"},
        {"query 123456708 --board 2x3"},
        {"query 'A B C D E F G H _'"},
        {"query 'A B C 0' --goal 'A B 0 C' --blank x"},
        {"query --batch empty.txt @"},
        {"query --batch empty.txt --blank x"},
        {"query --batch - 123456780"},
        {"solve --batch empty.txt @"},
        {"solve 123456708 --algorithm bogus"},
        {"solve 123456708 --heuristic bogus"},
        {"solve 123456708 -a bfs --heuristic manhattan"},
        {"solve 123456708 --max-nodes 0"},
        {"solve 876543210 -a idastar --depth-limit 3"},
        {"solve 876543210 -a bfs --max-seconds -1"},
        {"solve 876543210 --weight 500"},
        {"solve 876543210 --trace-limit 10"},
        {"solve 876543210 --animate --json"},
        {"solve 876543210 --delay 10"},
        {"solve 123456708 --heuristic pdb:1,2,3/3,4"},
        {"solve --board 5x5 -a table " + k5x5},
        {"solve 123456708 --result folder/"},
        {"solve 123456708 --result ./nofolder/x.txt"},
        {"verify --board 2x3 --algorithms bogus"},
        {"verify --board 2x3 --sample 0"},
        {"verify --board 2x3 --seed 1"},
        {"compare --suite suite.txt 123"},
        {"compare --suite suite.txt --goal 123456780"},
        {"compare --suite lines.txt"},
        {"compare --suite empty.txt"},
        {"compare 123456708 --max-seconds 0"},
        {"stats --metric multi --board 4x4"},
        {"solve 123456708 --heuristic mpdb"},
        {"solve 123456708 --metric multi --heuristic mpdb:1,2,3,4,5,6,7"},
        {"stats --metric multi --board 2x7"},  // (build takes no --lang: its refusals are not walked here)
        {"query --metric multi --board 7x2 '1 2 3 4 5 6 7 8 9 10 11 12 0 13'"},
        {"query --metric multi --board 5x5 " + k5x5},
        {"solve 123456708 --metric multi -a aidastar"},
        {"solve 123456708 --metric multi --heuristic manhattan"},
        {"solve 123456708 --metric multi -a idastar --automaton on"},
        {"random --metric multi"},
        {"check empty.txt"},
        {"check nosuchfile.txt"},
        {"check folder/"},
        {"check empty.txt --max-seconds 0"},
        {"check start.txt --junit folder/"},
        {"check start.txt --junit ./nofolder/j.xml"},
        {"query 123456708 --db file-db/x"},
        {"query 123456708 --db ./nofolder/db"},
        {"query 123456708 --db bad"},
        // The one-minute rule, and the memory a 4x4 table would take: refused before any work.
        {"solve --board 4x4 --heuristic pdb:7-8 " + k4x4},
        {"solve --board 5x5 --heuristic pdb:6-6-6-6 " + k5x5},
        {"solve --board 5x5 --heuristic zpdb:6-6-6-6 " + k5x5},
        {"solve 123456708 --heuristic zpdb:1,2,3,4,5,6,7"},
        {"solve 123456708 --heuristic zpdb:4-4+1,2,3/4,5,6/7,8"},  // catalogues
        {"solve 123456708 --heuristic catalogue"},
        {"solve 123456708 --heuristic catalogue:4-4+"},
        {"solve 123456708 --heuristic catalogue:max7"},
        {"solve 123456708 --heuristic catalogue:4-4+max7"},
        {"solve 123456708 --heuristic pdb:7-8"},
        {"stats --board 4x4"},
        {"verify --board 4x4"},
        {"query --board 4x4 --max-seconds 0 " + k4x4}},
       dir.path);
}

TEST_CASE("zh: notices, progress lines, answers, tables, verdicts and summaries are Chinese", "[cli][zh]") {
  TempDir dir;
  // A one-bit table: stats says its states at the radius are not listed.
  REQUIRE(run_cli("build --board 2x3 --bits 1 --db onebit", dir.path).rc == 0);
  // Every verdict and every malformed form of check.
  testing::write_file(dir / "answers.txt",
                      "1 2 3 4 5 6 7 0 8\t1 2 3 4 5 6 7 8 0\tR\n"
                      "1 2 3 4 5 6 7 0 8\t\tL\n"
                      "1 2 3 4 5 6 7 0 8\t\tRLR\n"
                      "1 2 3 4 5 6 7 0 8\t\t3\n"
                      "1 2 3 4 5 6 8 7 0\t\t4\n"
                      "1 2 3 4 5 6 7 0 8\t\tunreachable\n"
                      "1 2 3 4 5 6 8 7 0\t\tunreachable\n"
                      "1 2 3 4 5 6 7 0 8\t\tD\n"
                      "bad line\n"
                      "1 2 3 4 5 6 7 0 8\t\tX\n"
                      "1 2 3 4 5 6 7 0 8\t\t1x\n"
                      "1 2 3 4 5 6 7 0 8\t\t99999999\n"
                      "1 2 3\t\tR\n");
  testing::write_file(dir / "good.txt", "1 2 3 4 5 6 7 0 8\t\tR\n");
  testing::write_file(dir / "multi.txt", "1 2 3 4 5 6 0 7 8\t\tR2\n1 2 3 4 5 6 0 7 8\t\tR3\n1 2 3 4 5 6 0 7 8\t\tR0\n");
  testing::write_file(dir / "suite.txt", "1 2 3 4 5 6 7 0 8  1 2 3 4 5 6 7 8 0\n1 2 3 4 5 6 8 7 0  1 2 3 4 5 6 7 8 0\n");
  walk({// The table built on first use (the notices), then answers.
        {"query 123456708"},
        {"query 123456870"},
        {"query 12345670 --board 2x4 --progress --db progress"},
        {"stats"},
        {"stats --all-goals --board 2x3"},
        {"stats --board 2x3 --db onebit"},
        {"stats --goal '1 2 3 4 0 5 6 7 8'"},
        {"solve 123456708"},
        {"solve 123456870"},
        {"solve 123456708 --animate --delay 0"},
        {"solve 876543210 -a idastar --max-nodes 10"},  // the move automaton built on first use; stopped
        {"solve 876543210 -a astar --max-memory 1K"},
        {"solve 876543210 -a bfs --depth-limit 3"},
        {"solve 123456708 -a idastar --heuristic pdb:1,2,3/4,5,6,7,8 --progress"},  // pattern databases built
        {"solve 123456708 -a idastar --heuristic pdb:1,2,3/4,5,6,7,8 --progress"},  // and loaded ("ready")
        {"solve 123456708 -a idastar --heuristic zpdb:1,2,3/4,5,6 --progress"},     // zero-aware ones built
        {"solve 123456708 -a idastar --heuristic zpdb:1,2,3/4,5,6 --progress"},     // and loaded
        {"solve 123456708 --result result.txt"},
        {"solve 12345670 --board 2x4 -a astar --heuristic linear-conflict --json", true},
        {"verify --board 2x3 --algorithms bfs,astar:manhattan,greedy:manhattan"},
        {"verify --board 2x3 --algorithms astar:manhattan --max-nodes 1"},
        {"verify --board 2x3 --algorithms bfs --json", true},
        {"compare 123456708 --algorithms bfs,astar:manhattan,dfs"},
        {"compare 123456708 --algorithms bfs,idastar:manhattan --max-nodes 1"},
        {"compare 123456708 --algorithms bfs --md"},
        {"compare 123456708 --algorithms bfs --csv", true},
        {"compare --suite suite.txt --algorithms bfs,astar:manhattan"},
        {"stats --metric multi"},
        {"query 123456708 --metric multi"},
        {"check answers.txt"},
        {"check good.txt"},
        {"check multi.txt --metric multi"},
        {"solve 123456708 --metric multi"},
        {"compare 123456708 --metric multi --algorithms bfs,idastar"},
        {"verify --board 2x3 --metric multi --algorithms bfs,astar"},
        {"check answers.txt --json", true}},
       dir.path);
}

// Issue 46, point 10: build, random and serve took no --lang ("未知选项 --lang"). Every command
// takes it now (one registration): what a person reads is Chinese, what a program reads (JSON,
// the states random prints, the HTTP API) is not translated.
TEST_CASE("zh: build, random and serve take --lang zh as every command does", "[cli][zh]") {
  TempDir dir;
  walk({{"build --board 2x3 --db d"},  // built (the Chinese run), then up to date (the English one)
        {"build --board 2x3 --db d --all-goals"},
        {"build --board 2x3 --db d --pdb 1,2/3,4,5"},
        {"build --board 2x3 --db d --zpdb 1,2/3,4,5"},
        {"build --board 2x3 --db d --metric multi --pdb 1,2/3,4,5"},
        {"build --board 2x3 --db d --count-only"},
        {"build --board 2x3 --db d --json", true},
        {"build --board 2x3 --db d --bits 3"},
        {"build --board 2x3 --db d --pdb 1,2/3,4,5 --zpdb 1,2/3,4,5"},
        {"random --board 2x3 --db r --depth 5 --count 3 --seed 7"},  // the table built first: notices
        {"random --board 2x3 --db r --count 0"},
        {"serve --port 70000 --db d"},
        {"serve --host no-such-host.invalid --port 0 --max-request 1000000G --db d"}},
       dir.path);
  auto r = run_cli("build --board 2x3 --db e --lang zh", dir.path);
  CHECK(r.rc == 0);
  CHECK_THAT(r.out, Catch::StartsWith("已构建 e/2x3-123450.tsdb：360 个状态，半径 21，每个状态 8 位，"));
  r = run_cli("build --board 2x3 --db e --lang zh", dir.path);
  CHECK(r.out == "已是最新：e/2x3-123450.tsdb（回答空格在格 0 1 4 5 上的目标）\n");
  // random: the notices Chinese, the states those of the same seed in English.
  const auto zh = run_cli("random --board 2x4 --db f --count 5 --depth 9 --seed 3 --lang zh", dir.path);
  const auto en = run_cli("random --board 2x4 --db f --count 5 --depth 9 --seed 3", dir.path);
  CHECK(zh.rc == 0);
  CHECK_THAT(zh.err, Catch::StartsWith("tilespace: 数据库 f/2x4-12345670.tsdb 尚不存在：先构建它\n"));
  CHECK(zh.out == en.out);
  CHECK(std::count(zh.out.begin(), zh.out.end(), '\n') == 5);
  // serve: --help, the line it starts with; its API answers in English.
  CHECK(run_cli("serve --lang zh --help", dir.path).rc == 0);
  testing::Server srv(dir / "d", {"--lang", "zh"});  // requires "正在监听 http://HOST:PORT/"
  httplib::Client cli(srv.host(), srv.port());
  CHECK(testing::get(cli, "/api/query?start=123456708").body["length"] == 1);
  const testing::Reply bad = testing::get(cli, "/api/query?start=x");
  CHECK(bad.status == 400);
  const std::string error = bad.body.value("error", "");
  CHECK(!error.empty());
  CHECK(std::all_of(error.begin(), error.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x80; }));
  CHECK(srv.stop() == 0);
}

namespace {

// The columns `text` takes in a terminal, for the Chinese of these tests: a three-byte UTF-8
// character (CJK, full-width punctuation) two, any other one.
std::size_t columns(const std::string& text) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t len = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    w += len == 3 ? 2 : 1;
    i += len;
  }
  return w;
}

}  // namespace

// Issue 46, point 10: in `stats --lang zh` the label 状态数 (9 bytes, 6 columns) pushed its value
// one column right of the others': labels are padded by display width, not bytes, and the depth
// column's head is right-aligned over its numbers as in English. Boards of tiles named in
// Chinese were padded by bytes too.
TEST_CASE("zh: stats and boards of named tiles align by display width, not bytes", "[cli][zh]") {
  TempDir dir;
  for (const std::string lang : {"zh", "en"}) {
    CAPTURE(lang);
    const auto r = run_cli("stats --board 2x3 --db d --lang " + lang, dir.path);
    REQUIRE(r.rc == 0);
    CAPTURE(r.out);
    std::istringstream in(r.out);
    std::vector<std::size_t> value_columns;
    std::string line;
    while (std::getline(in, line) && !line.empty()) {
      const std::size_t value = line.find_first_not_of(' ', line.find(' '));  // labels are one word
      value_columns.push_back(columns(line.substr(0, value)));
    }
    REQUIRE(value_columns.size() >= 5);  // board, goal, states, radius, mean
    for (const std::size_t col : value_columns) CHECK(col == 8);
    // "depth  states", then "    0  1": the head's right edge over the numbers' (column 5).
    REQUIRE(std::getline(in, line));
    CHECK(columns(line.substr(0, line.find(' ', line.find_first_not_of(' ')))) == 5);
    REQUIRE(std::getline(in, line));
    CHECK(line == "    0  1");
  }
  // The boards of named tiles: the names right-aligned by display width (the blank '_' one column,
  // a Chinese name two), in the terminal and in the result file alike.
  const auto r = run_cli("solve '甲 乙 丙 丁 戊 _' --goal '甲 乙 丙 丁 _ 戊' --board 3x2 --db d --result result.txt", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Catch::Contains("0 (start)\n  甲 乙 丙\n  丁 戊  _\n\n1 (goal)\n  甲 乙 丙\n  丁  _ 戊\n"));
  CHECK(testing::read_file(dir / "result.txt") == "甲 乙 丙\n丁 戊  _\n\n甲 乙 丙\n丁  _ 戊\n");
}

// Issue 46, point 11: no message line with two spaces in a row ("run  tilespace build"), in
// either language: the one-minute rule's refusals, of a table and of pattern databases.
TEST_CASE("zh: the one-minute rule's refusal says 'run COMMAND' with one space", "[cli][zh]") {
  TempDir dir;
  walk({{"query --board 2x7 '1 2 3 4 5 6 7 8 9 10 11 12 0 13'"},
        {"solve --board 4x4 --heuristic pdb:7-8 " + k4x4}},
       dir.path);
  const auto r = run_cli("query --board 2x7 '1 2 3 4 5 6 7 8 9 10 11 12 0 13'", dir.path);
  CHECK(r.rc == 3);
  CHECK_THAT(r.err, Catch::EndsWith("of disk): run tilespace build --board 2x7\n"));
}
