// Every output checked (issue 46, items 1 and 9): a write to standard output that fails is exit 3
// with one line, in every command that prints; a file that cannot be written names the file; a
// closed pipe ends the command quietly, as it ends cat; and `query --json` carries the fields of
// GET /api/query, "metric" included.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "support.hpp"
#include "tilespace/errors.hpp"

using nlohmann::json;
using testing::read_file;
using testing::run_cli;
using testing::RunResult;
using testing::TempDir;
using testing::write_file;
namespace fs = std::filesystem;

namespace {

// A bash script run in `cwd` (TILESPACE for the command's path): its exit status as the shell
// gives it (128 + N for a command a signal ended) and the files out and err it wrote there.
RunResult shell(const std::string& script, const fs::path& cwd) {
  fs::remove(cwd / "out");
  fs::remove(cwd / "err");
  write_file(cwd / "run.sh", script + "\n");
  const std::string cmd =
      "cd '" + cwd.string() + "' && TILESPACE='" + std::string(TILESPACE_CLI) + "' bash run.sh </dev/null";
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = fs::exists(cwd / "out") ? read_file(cwd / "out") : "";
  r.err = fs::exists(cwd / "err") ? read_file(cwd / "err") : "";
  for (const char* report : {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:"})
    if (r.err.find(report) != std::string::npos) FAIL(script << ": the sanitizer reported a fault:\n" << r.err);
  return r;
}

// A folder with the 3x3 table in db/ and the inputs of the commands below.
struct Folder {
  TempDir dir;
  Folder() {
    const RunResult r = run_cli("build --db db", dir.path);
    REQUIRE(r.rc == 0);
    write_file(dir / "pairs.txt", "8 6 7 2 5 4 3 0 1\n2 4 3 7 1 6 0 5 8\n");
    write_file(dir / "answers.tsv", "2 4 3 7 1 6 0 5 8\t1 2 3 4 5 6 7 8 0\tURULDRDR\n");
  }
  const fs::path& path() const { return dir.path; }
};

}  // namespace

TEST_CASE("output: every command that prints exits 3 with one line when standard output fails", "[cli][output]") {
  Folder f;
  const std::string failed = "tilespace: file error: standard output: write failed\n";
  // serve is the one command left out: its one line is a notice, written before it serves.
  for (const std::string args : {
           "build --db db",
           "query '8 6 7 2 5 4 3 0 1' --db db",
           "query '8 6 7 2 5 4 3 0 1' --db db --json",
           "query '1 2 3 4 5 6 8 7 0' --db db",  // unreachable: exit 3 all the same
           "query --batch pairs.txt --db db",
           "stats --db db",
           "stats --db db --json",
           "solve '2 4 3 7 1 6 0 5 8' --db db",
           "solve '2 4 3 7 1 6 0 5 8' --db db -a astar --json",
           "solve --batch pairs.txt --db db",
           "compare '2 4 3 7 1 6 0 5 8' --db db --algorithms astar:manhattan",
           "compare '2 4 3 7 1 6 0 5 8' --db db --algorithms astar:manhattan --csv",
           "verify --db db --sample 3 --algorithms astar:manhattan",
           "check answers.tsv --db db",
           "check answers.tsv --db db --json",
           "random --count 3 --seed 1",
           "random --count 200000 --seed 1",  // stops at the first failed write
           "query --help",
           "--version",
       }) {
    CAPTURE(args);
    const RunResult r = shell("\"$TILESPACE\" " + args + " >/dev/full 2>err", f.path());
    CHECK(r.rc == tilespace::kExitData);
    CHECK(r.err == failed);
  }
  // In Chinese with --lang zh, as every error.
  const RunResult zh = shell("\"$TILESPACE\" stats --db db --lang zh >/dev/full 2>err", f.path());
  CHECK(zh.rc == tilespace::kExitData);
  CHECK(zh.err == "tilespace: 文件错误：标准输出：写入失败\n");
  // Standard output closed: the same.
  const RunResult closed = shell("\"$TILESPACE\" query '8 6 7 2 5 4 3 0 1' --db db >&- 2>err", f.path());
  CHECK(closed.rc == tilespace::kExitData);
  CHECK(closed.err == failed);
}

TEST_CASE("output: an output file that cannot be written is exit 3 naming it", "[cli][output]") {
  Folder f;
  for (const std::string args : {"solve '2 4 3 7 1 6 0 5 8' --db db --result /dev/full",
                                 "solve '2 4 3 7 1 6 0 5 8' --db db --trace /dev/full",
                                 "check answers.tsv --db db --junit /dev/full",
                                 "solve '2 4 3 7 1 6 0 5 8' --db db --result nowhere/result.txt"}) {
    CAPTURE(args);
    const RunResult r = shell("\"$TILESPACE\" " + args + " >out 2>err", f.path());
    CHECK(r.rc == tilespace::kExitData);
    CHECK(r.err.rfind("tilespace: file error: ", 0) == 0);
    CHECK(r.err.find('\n') == r.err.size() - 1);
    CHECK(r.err.find(args.substr(args.rfind(' ') + 1)) != std::string::npos);  // the file's name
  }
  CHECK(!fs::exists(f.path() / "nowhere"));
}

TEST_CASE("output: a closed pipe ends the command quietly, as it ends cat", "[cli][output]") {
  Folder f;
  std::string batch;
  for (int i = 0; i < 100000; ++i) batch += "8 6 7 2 5 4 3 0 1\n";  // 300 KB of answers
  write_file(f.path() / "big.txt", batch);
  std::string solves;
  for (int i = 0; i < 1000; ++i) solves += "2 4 3 7 1 6 0 5 8\n";  // 150 KB of JSON lines
  write_file(f.path() / "solves.txt", solves);
  // Each writes far more than a pipe holds, so it writes to a pipe that head has closed, and ends
  // by SIGPIPE (128 + 13 in the shell) with nothing on stderr: also when the parent ignores
  // SIGPIPE (trap '' PIPE; Python and some CI runners start children so), where the write would
  // otherwise fail with EPIPE and be reported.
  for (const std::string parent : {"", "trap \"\" PIPE; "}) {
    for (const std::string args : {"random --count 1000000 --seed 1", "query --batch big.txt --db db",
                                   "solve --batch solves.txt --db db"}) {
      CAPTURE(parent, args);
      const RunResult r = shell(parent + "\"$TILESPACE\" " + args + " 2>err | head -1 >out; exit ${PIPESTATUS[0]}", f.path());
      CHECK(r.err.empty());
      CHECK(r.rc == 128 + 13);
      CHECK(r.out.size() > 1);
      CHECK(r.out.find('\n') == r.out.size() - 1);
    }
  }
}

TEST_CASE("output: query --json carries the metric, as GET /api/query, solve --json and stats --json do",
          "[cli][output]") {
  Folder f;
  RunResult r = run_cli("query '8 6 7 2 5 4 3 0 1' --db db --json", f.path());
  REQUIRE(r.rc == 0);
  CHECK(r.out == "{\"board\":\"3x3\",\"goal\":[1,2,3,4,5,6,7,8,0],\"length\":31,\"metric\":\"single\",\"reachable\":true,"
                 "\"start\":[8,6,7,2,5,4,3,0,1]}\n");
  r = run_cli("query '1 2 3 4 5 6 8 7 0' --db db --json", f.path());
  REQUIRE(r.rc == tilespace::kExitUnreachable);
  CHECK(json::parse(r.out)["metric"] == "single");
  r = run_cli("query '8 6 7 2 5 4 3 0 1' --db db --json --metric multi", f.path());
  REQUIRE(r.rc == 0);
  const json q = json::parse(r.out);
  CHECK(q["metric"] == "multi");
  CHECK(q["length"] == 20);
  // The same spelling and value as solve --json and stats --json.
  r = run_cli("solve '8 6 7 2 5 4 3 0 1' --db db --json --metric multi", f.path());
  REQUIRE(r.rc == 0);
  CHECK(json::parse(r.out)["metric"] == q["metric"]);
  r = run_cli("stats --db db --json --metric multi", f.path());
  REQUIRE(r.rc == 0);
  CHECK(json::parse(r.out)["metric"] == q["metric"]);
}
