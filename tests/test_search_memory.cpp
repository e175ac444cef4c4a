// --max-memory is a limit (docs/search.md): what a search holds, growths and the tables it reads
// included, stays within it; measured in the search's own accounting (every build) and in the
// peak resident memory of the command (the Release build).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/state.hpp"

using namespace tilespace;
using namespace tilespace::search;

namespace {

// Korf's first instance (57 moves): far past what any of these limits lets a search reach.
const char* const kHard = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
const char* const kGoal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";

struct Run {
  int rc = -1;
  std::uint64_t peak_kib = 0;  // the program's peak resident memory (VmHWM)
  std::string out;             // its standard output and error
};

// The peak resident memory (VmHWM, KiB) of process `pid` now; 0 when it cannot be read.
std::uint64_t peak_resident_kib(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6));
  return 0;
}

// `tilespace` with `args` in `dir`: its exit code, its output, and the peak resident memory of the
// program itself, read when it exits (a ptrace exit stop: its memory is still there). Not
// ru_maxrss: a forked child counts the test runner's memory it started as, before its exec.
Run run_measured(const std::vector<std::string>& args, const std::filesystem::path& dir) {
  std::vector<std::string> all{TILESPACE_CLI};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string log = (dir / "log.txt").string(), cwd = dir.string();
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {  // only async-signal-safe calls until exec
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = ::open("/dev/null", O_RDONLY);
    if (fd < 0 || in < 0 || ::chdir(cwd.c_str()) != 0) ::_exit(126);
    if (::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) ::_exit(125);
    ::dup2(in, STDIN_FILENO);
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  Run r;
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  if (WIFEXITED(status)) FAIL("the command did not start under ptrace: exit " << WEXITSTATUS(status));
  REQUIRE(WIFSTOPPED(status));  // at its exec
  ::ptrace(PTRACE_SETOPTIONS, pid, nullptr, reinterpret_cast<void*>(PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL));
  ::ptrace(PTRACE_CONT, pid, nullptr, nullptr);
  for (;;) {
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    if (WIFEXITED(status) || WIFSIGNALED(status)) break;
    int signal = WSTOPSIG(status);
    if (signal == SIGTRAP) {
      if ((status >> 16) == PTRACE_EVENT_EXIT) r.peak_kib = peak_resident_kib(pid);
      signal = 0;
    }
    ::ptrace(PTRACE_CONT, pid, nullptr, reinterpret_cast<void*>(static_cast<std::intptr_t>(signal)));
  }
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream f(log);
  std::stringstream ss;
  ss << f.rdbuf();
  r.out = ss.str();
  return r;
}

}  // namespace

TEST_CASE("a search's memory stays within --max-memory in its own accounting, growths and tables included",
          "[search][memory]") {
  const State start = parse_state(kHard);
  const State goal = parse_state(kGoal);
  for (const char* algorithm : {"astar", "bfs", "bibfs"}) {
    for (const std::uint64_t limit : {std::uint64_t{1} << 20, std::uint64_t{testing::kSanitized ? 1u : 3u} << 20}) {
      INFO(algorithm << " " << limit);
      SolveOptions o;
      o.algorithm = algorithm;
      o.heuristic = "manhattan";
      o.limits.max_bytes = limit;
      const Result r = solve(start, goal, o);
      CHECK(r.stopped == Stop::Memory);
      CHECK(r.peak_bytes <= limit);     // the old and new buffers of a growth counted together
      CHECK(r.peak_bytes > limit / 2);  // and the limit used, not left idle
    }
  }
  // The walking-distance tables (about 3 MiB on 4x4, built for the search) count: they fill 2 MiB
  // alone, so the search stops before it starts; beside 6 MiB they leave the search the rest.
  SolveOptions o;
  o.algorithm = "astar";
  o.heuristic = "walking-distance";
  o.limits.max_bytes = std::uint64_t{2} << 20;
  Result r = solve(start, goal, o);
  CHECK(r.stopped == Stop::Memory);
  CHECK(r.expanded == 0);
  const std::uint64_t tables = r.peak_bytes;
  CHECK(tables > o.limits.max_bytes);
  o.limits.max_bytes = std::uint64_t{6} << 20;
  r = solve(start, goal, o);
  CHECK(r.stopped == Stop::Memory);
  CHECK(r.expanded > 0);
  CHECK(r.peak_bytes <= o.limits.max_bytes);
  CHECK(r.peak_bytes > tables);
}

// The command's peak resident memory less that of the same command stopped at once (the program
// itself: about 7 MiB) is the search's: within 1.1 times the limit. [timing]: runs alone, in the Release build
// only (the sanitizers' shadow memory would be measured too).
TEST_CASE("solve --max-memory bounds the process's peak memory: astar, bfs and bibfs stop with exit 4",
          "[cli][memory][timing]") {
  if (testing::kSanitized) return;
  testing::TempDir dir;
  struct Case {
    const char* algorithm;
    const char* limit;
    std::uint64_t limit_kib;
  };
  for (const Case c : {Case{"astar", "32M", 32 << 10}, Case{"astar", "64M", 64 << 10}, Case{"bfs", "32M", 32 << 10},
                       Case{"bibfs", "32M", 32 << 10}}) {
    INFO(c.algorithm << " --max-memory " << c.limit);
    const auto command = [&](const char* limit) {
      std::vector<std::string> a{"solve", "--board", "4x4", "--goal", kGoal, "-a", c.algorithm, kHard, "--max-memory", limit};
      if (std::string(c.algorithm) == "astar") a.insert(a.end(), {"--heuristic", "manhattan"});
      return a;
    };
    const Run base = run_measured(command("1K"), dir.path);
    REQUIRE(base.rc == 4);
    const Run r = run_measured(command(c.limit), dir.path);
    INFO(r.out);
    CHECK(r.rc == 4);
    CHECK_THAT(r.out, Catch::Contains("stopped by --max-memory"));
    const std::uint64_t search_kib = r.peak_kib > base.peak_kib ? r.peak_kib - base.peak_kib : 0;
    INFO("peak " << r.peak_kib << " KiB, at once " << base.peak_kib << " KiB: the search " << search_kib << " KiB");
    REQUIRE(base.peak_kib > 0);
    CHECK(search_kib * 10 <= c.limit_kib * 11);
    CHECK(search_kib * 2 > c.limit_kib);  // it did search
  }
}
