// Issue 46, points 3, 4 and 5 and four of point 11: what the command does with input it cannot use.
// A missing file named with slashes is called missing (not a state with a mistake); every option
// with a value refuses an empty one; a line's own goal that differs from --goal is a bad line, in
// every reader of lines; "1 tile"; valid UTF-8 is not "not UTF-8 text"; --db naming a file says so;
// and query/solve waiting for a start on a terminal say so.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "serve_support.hpp"
#include "support.hpp"
#include "tilespace/errors.hpp"

using testing::run_cli;
using testing::RunResult;
using testing::TempDir;
using testing::write_file;
namespace fs = std::filesystem;

namespace {

std::size_t newlines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

// An error run: exactly `rc`, nothing on stdout, and one line on stderr holding every fragment and
// none of `not_says`.
void check_error(const RunResult& r, int rc, const std::vector<std::string>& says, const std::vector<std::string>& not_says = {}) {
  INFO("exit " << r.rc << ", stdout: " << r.out << "stderr: " << r.err);
  CHECK(r.rc == rc);
  CHECK(r.out.empty());
  CHECK(newlines(r.err) == 1);
  CHECK(r.err.rfind("tilespace: ", 0) == 0);
  for (const auto& s : says) {
    CAPTURE(s);
    CHECK(r.err.find(s) != std::string::npos);
  }
  for (const auto& s : not_says) {
    CAPTURE(s);
    CHECK(r.err.find(s) == std::string::npos);
  }
}

// ---- a terminal on standard input ----

struct TerminalRun {
  std::string out;  // stdout and stderr as the terminal shows them (the input echoed too)
  int rc = -1;      // -1: killed at the deadline
};

// `tilespace args...` in `cwd` with a pseudo-terminal as its standard input, output and error:
// waits until the terminal shows `wait_for`, then types `typed`, and waits for the end; the whole
// within `seconds` (the child is killed past them).
TerminalRun run_on_terminal(const std::vector<std::string>& args, const fs::path& cwd, const std::string& wait_for,
                            const std::string& typed, double seconds = 30) {
  std::vector<std::string> all{TILESPACE_CLI};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string dir = cwd.string();
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::chdir(dir.c_str()) != 0) ::_exit(126);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  TerminalRun run;
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  bool typed_yet = false, open = true;
  while (open && std::chrono::steady_clock::now() < until) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 20) > 0) {
      char buf[4096];
      const ssize_t got = ::read(master, buf, sizeof buf);
      if (got <= 0) open = false;  // EIO: the child has closed the terminal (it ended)
      else run.out.append(buf, static_cast<std::size_t>(got));
    }
    if (!typed_yet && run.out.find(wait_for) != std::string::npos) {
      typed_yet = true;
      REQUIRE(::write(master, typed.data(), typed.size()) == static_cast<ssize_t>(typed.size()));
    }
  }
  int st = 0;
  pid_t ended = 0;
  while ((ended = ::waitpid(pid, &st, WNOHANG)) == 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (ended == pid) {
    run.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  } else {  // still running at the deadline
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
  ::close(master);
  return run;
}

}  // namespace

// ---- 3. a missing file says it is missing ----

TEST_CASE("input: a START naming no file is called no file, whatever slashes it holds", "[input]") {
  TempDir dir;
  for (const std::string arg : {"./missing.txt", "/nonexistent/puzzles/start.txt", "~/puzzles/start.txt",
                                "puzzles/start.txt", "../start.txt"}) {
    for (const std::string sub : {"query", "solve", "compare"}) {
      CAPTURE(sub, arg);
      check_error(run_cli(sub + " '" + arg + "'", dir.path), tilespace::kExitInput,
                  {"start: '" + arg + "' is neither a state (", ") nor a file (no such file)"});
    }
  }
  // Rows with a mistake are still a state with a mistake, with or without slashes.
  check_error(run_cli("query '1 2 3/4 5 6/7 8 8'", dir.path), tilespace::kExitInput, {"start: tile 8 appears twice"},
              {"nor a file"});
  check_error(run_cli("query 123/456/788", dir.path), tilespace::kExitInput, {"start: tile 8 appears twice"},
              {"nor a file"});
  check_error(run_cli("query '1 2 3 4 5 6 7 8'", dir.path), tilespace::kExitInput, {"cannot tell the board"},
              {"nor a file"});
  // Named tiles written as rows are still a state.
  const RunResult named = run_cli("query 'AB/_C' --goal 'AB/C_'", dir.path);
  INFO(named.err);
  CHECK(named.rc == 0);
  CHECK(named.out == "1\n");
  // A file that is there is read, slashes and all.
  fs::create_directories(dir / "puzzles");
  write_file(dir / "puzzles/start.txt", "1 2 0 3\n");  // 2x2: a table built in no time
  const RunResult there = run_cli("query ./puzzles/start.txt", dir.path);
  CHECK(there.rc == 0);
  CHECK(there.out == "1\n");
}

// ---- 4. empty values are refused ----

namespace {

// Every (subcommand, option) that takes a value, as the bash completion script lists them (it is
// written from the command's own definition): "'solve -a'|'solve --algorithm') kind=...".
std::vector<std::pair<std::string, std::string>> options_with_values(const fs::path& cwd) {
  const RunResult r = run_cli("--bash-completion", cwd);
  REQUIRE(r.rc == 0);
  std::vector<std::pair<std::string, std::string>> found;
  const std::regex entry("^    '([a-z]+) (-{1,2}[a-z-]+)'(?:\\|'[a-z]+ (--[a-z-]+)')?\\) kind=");
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, entry)) continue;
    found.emplace_back(m[1], m[3].matched ? m[3].str() : m[2].str());
  }
  return found;
}

}  // namespace

// [slow]: one run of the command per option (about 140); the same mechanism runs under the
// sanitizers in every run of the command, and the case below takes a few options there.
TEST_CASE("input: every option with a value, in every subcommand, refuses an empty one", "[input][slow]") {
  TempDir dir;
  const auto options = options_with_values(dir.path);
  std::set<std::string> subcommands;
  for (const auto& [sub, option] : options) subcommands.insert(sub);
  CHECK(subcommands == std::set<std::string>{"build", "query", "stats", "solve", "serve", "verify", "compare", "check",
                                             "random"});
  REQUIRE(options.size() > 100);
  for (const auto& must : {std::pair<std::string, std::string>{"query", "--goal"}, {"query", "--board"},
                           {"solve", "--result"}, {"solve", "--algorithm"}, {"check", "--junit"}, {"serve", "--port"}})
    CHECK(std::find(options.begin(), options.end(), must) != options.end());
  // One shell runs them all, each with its output in files. serve and verify under `timeout`: one
  // that took the empty value would run on (serve listens; verify checks every state).
  std::string script;
  for (std::size_t i = 0; i < options.size(); ++i) {
    const auto& [sub, option] = options[i];
    const std::string n = std::to_string(i);
    script += std::string(sub == "serve" || sub == "verify" ? "timeout -k 1 10 " : "") + "'" + TILESPACE_CLI + "' " + sub +
              (sub == "check" ? " answers.txt " : " ") + option + " '' </dev/null >out." + n + " 2>err." + n +
              "; echo $? >rc." + n + "\n";
  }
  write_file(dir / "all.sh", script);
  REQUIRE(std::system(("cd '" + dir.path.string() + "' && sh all.sh").c_str()) == 0);
  for (std::size_t i = 0; i < options.size(); ++i) {
    const auto& [sub, option] = options[i];
    const std::string n = std::to_string(i);
    RunResult r;
    r.rc = std::stoi(testing::read_file(dir / ("rc." + n)));
    r.out = testing::read_file(dir / ("out." + n));
    r.err = testing::read_file(dir / ("err." + n));
    CAPTURE(sub, option);
    check_error(r, tilespace::kExitInput, {"tilespace: error: " + option + ": empty value: give a value or leave the option out"},
                {"AddressSanitizer", "runtime error:"});
  }
}

TEST_CASE("input: an empty value is refused naming the option, before any other check of it", "[input]") {
  TempDir dir;
  for (const std::string args : {"query 123456708 --goal ''", "query 123456708 --board ''", "solve 123456708 --result ''",
                                 "query 123456708 --metric ''", "query 123456708 --threads ''", "check x --junit ''",
                                 "serve --port ''", "stats --db ''"}) {
    CAPTURE(args);
    check_error(run_cli(args, dir.path), tilespace::kExitInput, {"empty value: give a value or leave the option out"});
  }
  // The short name of --algorithm; and an empty value after '=', which CLI11 would take as the option
  // without its value, and the next argument as the value: a file named --json written, a start
  // taken as the goal.
  check_error(run_cli("solve 123456708 -a ''", dir.path), tilespace::kExitInput, {"--algorithm: empty value"});
  for (const std::string args : {"query 123456708 --goal=", "query --goal= 123456708", "solve 123456708 --result= --json",
                                 "solve 123456708 --algorithm= --json", "serve --port= --host 127.0.0.1"}) {
    CAPTURE(args);
    check_error(run_cli(args, dir.path), tilespace::kExitInput, {"empty value: give a value or leave the option out"});
  }
  CHECK(!fs::exists(dir / "--json"));
  // A value that only ends with '=' is a value; "--" ends the options.
  CHECK(run_cli("query 123456708 -- --goal=", dir.path).err.find("empty value") == std::string::npos);
  const RunResult zh = run_cli("query 123456780 --goal '' --lang zh", dir.path);
  CHECK(zh.rc == tilespace::kExitInput);
  CHECK(zh.err == "tilespace: 错误：--goal：取值为空：请给出取值，或去掉这个选项（见 --help）\n");
}

// ---- 5. one rule for goals ----

TEST_CASE("input: a line whose goal differs from --goal is a bad line in query --batch, solve --batch and check",
          "[input]") {
  TempDir dir;  // 2x2 boards: their tables are built in no time
  const std::string differs = "goal: '1 2 0 3' differs from --goal '1 2 3 0': give one of them";
  // Line 1: a goal of its own, not --goal's; line 2: --goal's, repeated; line 3: no goal of its own.
  write_file(dir / "pairs.txt", "1230 1203\n1203 1230\n1203\n");
  SECTION("query --batch") {
    const RunResult r = run_cli("query --batch pairs.txt --goal 1230", dir.path);
    CHECK(r.rc == tilespace::kExitInput);
    CHECK(r.out == "error: " + differs + "\n1\n1\n");
    CHECK(r.err.find("tilespace: error: pairs.txt line 1: " + differs + "\n") != std::string::npos);
    const RunResult json = run_cli("query --batch pairs.txt --goal 1230 --json", dir.path);
    CHECK(json.out == "{\"error\":\"" + differs + "\",\"line\":1}\n{\"length\":1,\"line\":2}\n{\"length\":1,\"line\":3}\n");
  }
  SECTION("solve --batch") {
    const RunResult r = run_cli("solve --batch pairs.txt --goal 1230", dir.path);
    CHECK(r.rc == tilespace::kExitInput);
    CHECK(r.out.rfind("{\"error\":\"" + differs + "\",\"line\":1}\n", 0) == 0);
    CHECK(newlines(r.out) == 3);
  }
  SECTION("check") {
    write_file(dir / "answers.txt", "1230\t1203\t1\n1203\t1230\t1\n1203\t\tR\n");
    const RunResult r = run_cli("check answers.txt --goal 1230", dir.path);
    CHECK(r.rc == tilespace::kExitInput);
    CHECK(r.out.rfind("line 1: malformed: " + differs + "\nline 2: ok: optimal (1 move)\nline 3: ok", 0) == 0);
    CHECK(r.err.find("tilespace: error: answers.txt line 1: " + differs + "\n") != std::string::npos);
    const RunResult zh = run_cli("check answers.txt --goal 1230 --lang zh", dir.path);
    CHECK(zh.out.rfind("第 1 行：格式错误：目标状态：'1 2 0 3' 与 --goal '1 2 3 0' 不同：请只给出其中一个\n", 0) == 0);
  }
  SECTION("without --goal, a line's own goal stands") {
    write_file(dir / "own.txt", "1230 1203\n");
    const RunResult q = run_cli("query --batch own.txt --board 2x2", dir.path);
    CHECK(q.rc == 0);
    CHECK(q.out == "1\n");
    write_file(dir / "own-answers.txt", "1230\t1203\tL\n");
    CHECK(run_cli("check own-answers.txt", dir.path).rc == 0);
  }
}

TEST_CASE("input: POST /api/query with a goal parameter refuses a line whose goal differs", "[input][serve]") {
  TempDir dir;
  REQUIRE(run_cli("build --board 2x2 --db " + dir.path.string(), dir.path).rc == 0);
  testing::Server srv(dir.path);
  httplib::Client cli("127.0.0.1", srv.port());
  cli.set_url_encode(false);
  auto r = cli.Post("/api/query?goal=1+2+3+0", "1230 1203\n1203 1230\n", "text/plain");
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == "error: goal: '1 2 0 3' differs from the goal parameter '1 2 3 0': give one of them\n1\n");
}

// ---- 11. "1 tile", UTF-8, --db naming a file, standard input on a terminal ----

TEST_CASE("input: one tile is '1 tile', in English and Chinese", "[input]") {
  TempDir dir;
  check_error(run_cli("query 5", dir.path), tilespace::kExitInput, {"cannot tell the board from 1 tile:"}, {"1 tiles"});
  check_error(run_cli("query '1/2' --board 2x2", dir.path), tilespace::kExitInput,
              {"2 rows of 1 tile do not fit a 2x2 board"}, {"1 tiles"});
  const RunResult zh = run_cli("query 5 --lang zh", dir.path);
  CHECK(zh.err.find("无法从 1 个数推断棋盘") != std::string::npos);
  CHECK(zh.err.find(" tile") == std::string::npos);
  const RunResult rows = run_cli("query '1/2' --board 2x2 --lang zh", dir.path);
  CHECK(rows.err.find("2 行、每行 1 个，与 2x2 棋盘") != std::string::npos);
}

TEST_CASE("input: a state in valid UTF-8 is not 'not UTF-8 text'", "[input]") {
  TempDir dir;
  // "é" is one character of two bytes: an unknown symbol, named as it is written.
  check_error(run_cli("query é12345678", dir.path), tilespace::kExitInput, {"unknown symbol 'é'"}, {"UTF-8"});
  check_error(run_cli("query é11", dir.path), tilespace::kExitInput, {"from 3 tiles"}, {"UTF-8"});
  check_error(run_cli("query 'é 1 2 3 4 5 6 7 8'", dir.path), tilespace::kExitInput, {"unknown symbol 'é'"}, {"UTF-8"});
  // Bytes that are not UTF-8 still are.
  check_error(run_cli("query \"$(printf '\\377')12345678\"", dir.path), tilespace::kExitInput, {"not UTF-8 text"});
}

TEST_CASE("input: --db naming a file says it is a file, not a folder", "[input]") {
  TempDir dir;
  write_file(dir / "afile", "");
  for (const std::string sub : {"query 123456708", "build", "stats", "check answers.txt", "serve"}) {
    CAPTURE(sub);
    check_error(run_cli(sub + " --db afile", dir.path), tilespace::kExitInput, {"--db: 'afile' is a file, not a folder"},
                {"File exists"});
  }
  // A file where the folder's parent should be: the data error (exit 3) says so too.
  check_error(run_cli("query 123456708 --db afile/db", dir.path), tilespace::kExitData,
              {"afile/db: cannot create the folder: afile is a file, not a folder"});
  const RunResult zh = run_cli("query 123456708 --db afile --lang zh", dir.path);
  CHECK(zh.err == "tilespace: 错误：--db：'afile' 是文件，不是文件夹（见 --help）\n");
}

TEST_CASE("input: query and solve without a start say on a terminal that they read standard input", "[input]") {
  TempDir dir;
  const std::string notice = "tilespace: reading the start state from standard input (Ctrl-D to end)";
  for (const std::string sub : {"query", "solve", "compare"}) {
    CAPTURE(sub);
    // One Ctrl-D after a line ends the input, as the notice says.
    const TerminalRun r = run_on_terminal({sub}, dir.path, "Ctrl-D to end)", "1 2 3\n\x04");
    INFO(r.out);
    CHECK(r.rc == tilespace::kExitInput);
    CHECK(r.out.rfind(notice + "\r\n", 0) == 0);
    CHECK(r.out.find("standard input line 1: start: cannot tell the board from 3 tiles") != std::string::npos);
  }
  const TerminalRun empty = run_on_terminal({"query", "-"}, dir.path, "Ctrl-D to end)", "\x04");
  CHECK(empty.rc == tilespace::kExitInput);
  CHECK(empty.out.find("standard input: no state in it") != std::string::npos);
  const TerminalRun zh = run_on_terminal({"query", "--lang", "zh"}, dir.path, "Ctrl-D", "\x04");
  CHECK(zh.out.rfind("tilespace: 正在从标准输入读取初始状态（按 Ctrl-D 结束）\r\n", 0) == 0);
  // Not a terminal: no notice.
  const RunResult piped = run_cli("query", dir.path, "1 2 3\n");
  CHECK(piped.err.find("reading") == std::string::npos);
}
