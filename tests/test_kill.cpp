// Kill tests for every file tilespace writes (byte, two-bit and one-bit tables, pattern databases,
// the move automaton, checkpoints, solve --result and --trace): each writer is SIGKILLed many times, at
// random moments and the moment its temporary file appears, and after every kill nothing sits at a
// final name unless it is complete and identical to an uninterrupted run's; the next whole run
// leaves no stray temporary file and ends identical (a resumed build included). And a full file
// system (RLIMIT_FSIZE below the file's size) gets exit 3 with one line naming the file, and leaves
// nothing behind. The atomic write itself is database.hpp's write_atomically.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <chrono>
#include <vector>

#include "child.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using testing::Child;
using testing::TempDir;

namespace {

struct Writer {
  std::string what;
  std::vector<std::string> args;  // "@" stands for the output folder
  std::uint64_t fsize_limit;      // below the size of the first file it writes
  std::vector<std::string> before;  // run first, without a limit (what the writer reads)
};

std::vector<std::string> with_folder(std::vector<std::string> args, const fs::path& folder) {
  for (auto& a : args) {
    if (a == "@") a = folder.string();
    else if (a.rfind("@/", 0) == 0) a = (folder / a.substr(2)).string();
  }
  return args;
}

bool is_temporary(const fs::path& p) { return p.filename().string().find(".tmp.") != std::string::npos; }

// The files of a folder by name (temporaries and checkpoints apart).
std::map<std::string, std::string> finished_files(const fs::path& dir, std::vector<std::string>* temporaries = nullptr,
                                                  std::vector<std::string>* checkpoints = nullptr) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (is_temporary(e.path())) {
      if (temporaries) temporaries->push_back(name);
    } else if (name.ends_with(".ckpt")) {
      if (checkpoints) checkpoints->push_back(name);
    } else if (name != "log") {
      files[name] = testing::read_file(e.path());
    }
  }
  return files;
}

// A trace holds the seconds a search took: equal apart from those.
void drop_seconds(nlohmann::json& j) {
  if (j.is_object()) {
    j.erase("seconds");
    for (auto& [k, v] : j.items()) drop_seconds(v);
  } else if (j.is_array()) {
    for (auto& v : j) drop_seconds(v);
  }
}

std::string same_file(const std::string& name, const std::string& got, const std::string& want) {
  if (name.ends_with(".json")) {
    auto a = nlohmann::json::parse(got, nullptr, false), b = nlohmann::json::parse(want, nullptr, false);
    if (a.is_discarded()) return name + ": not whole JSON (" + std::to_string(got.size()) + " bytes)";
    drop_seconds(a);
    drop_seconds(b);
    return a == b ? "" : name + ": a different trace";
  }
  const std::string d = testing::bytes_differ(got, want);
  return d.empty() ? "" : name + ": " + d;
}

const std::vector<Writer>& writers() {
  static const std::vector<Writer> w{
      {"byte tables", {"build", "--board", "2x5", "--all-goals", "--bits", "8", "--force", "--db", "@"}, 100'000, {}},
      {"two-bit tables", {"build", "--board", "2x5", "--all-goals", "--bits", "2", "--force", "--db", "@"}, 100'000, {}},
      {"one-bit tables", {"build", "--board", "2x5", "--all-goals", "--bits", "1", "--force", "--db", "@"}, 100'000, {}},
      {"pattern databases", {"build", "--board", "4x4", "--pdb", "5-5-5", "--force", "--db", "@"}, 100'000, {}},
      {"the move automaton", {"build", "--automaton", "--automaton-depth", "12", "--force", "--db", "@"}, 64'000, {}},
      {"checkpoints",
       {"build", "--board", "2x5", "--bits", "2", "--checkpoint-every", "0.001", "--resume", "--force", "--db", "@"},
       100'000,
       {}},
      {"solve --result",
       {"solve", "8,6,7,2,5,4,3,0,1", "--result", "@/result.txt", "--db", "@"},
       300,
       {"build", "--board", "3x3", "--db", "@"}},
      {"solve --trace",
       {"solve", "8,6,7,2,5,4,3,0,1", "-a", "astar", "--trace", "@/trace.json", "--db", "@"},
       64'000,
       {"build", "--board", "3x3", "--db", "@"}},
  };
  return w;
}

}  // namespace

// A run whose kill is due just as it ends by itself (it has exited, not yet been reaped) is a
// finished run, not a killed one: kill_now() says so, and the exit status is the run's own. The
// kill tests count such a run as finished (CI once failed "CHECK(c.killed())" on one).
TEST_CASE("kill: a child that ended just before its kill counts as finished, with its own exit status",
          "[kill][cli]") {
  TempDir dir;
  Child c({"--version"}, dir / "run.log");
  // Exited but not reaped: waitpid is not called until the kill.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK_FALSE(c.kill_now());
  CHECK(c.exit_code() == 0);
  Child slow({"random", "--board", "3x3", "--count", "100000000"}, dir / "slow.log");
  CHECK_FALSE(slow.wait_for(0.2));
  CHECK(slow.kill_now());
  CHECK(slow.exit_code() == -1);
}

TEST_CASE("kill: every writer killed at random moments leaves only whole files, and the next run cleans up",
          "[kill][cli][slow]") {
  std::mt19937_64 rng(20261203);
  for (const Writer& w : writers()) {
    SECTION(w.what) {
      TempDir dir;
      const fs::path ref = dir.path / "ref", out = dir.path / "out";
      fs::create_directories(ref);
      fs::create_directories(out);
      for (const fs::path& d : {ref, out})
        if (!w.before.empty()) {
          Child b(with_folder(w.before, d), dir.path / "before.log");
          REQUIRE(b.wait_for(120));
          REQUIRE(b.exit_code() == 0);
        }
      Child whole(with_folder(w.args, ref), dir.path / "ref.log");
      REQUIRE(whole.wait_for(300));
      INFO(testing::read_file(dir.path / "ref.log"));
      REQUIRE(whole.exit_code() == 0);
      const double seconds = whole.seconds();
      const auto want = finished_files(ref);
      REQUIRE(!want.empty());

      std::uniform_real_distribution<double> moment(0.0, seconds * 0.8);  // within the run, mostly
      // Eight runs, and more (up to 32) until four were killed: a writer whose whole run takes a few
      // milliseconds (solve --result) often ends before its random moment comes.
      int killed = 0, killed_writing = 0, runs = 0;
      for (int run = 0; run < 8 || (killed < 4 && run < 32); ++run, ++runs) {
        const bool on_temporary = run % 2 == 1;  // the moment a temporary file appears
        Child c(with_folder(w.args, out), dir.path / "run.log");
        bool ended;
        if (on_temporary) {
          const std::string mine = ".tmp." + std::to_string(c.id());
          ended = c.wait_for(seconds * 2 + 1, [&] {
            std::error_code ec;
            for (const auto& e : fs::directory_iterator(out, ec))
              if (e.path().filename().string().ends_with(mine)) return true;
            return false;
          });
        } else {
          ended = c.wait_for(moment(rng));
        }
        if (!ended) ended = !c.kill_now();  // false: it finished just before the kill
        if (!ended) {
          ++killed;
          killed_writing += on_temporary;
        } else {
          INFO(testing::read_file(dir.path / "run.log"));
          REQUIRE(c.exit_code() == 0);
        }
        // Whatever has a final name is whole and right.
        for (const auto& [name, bytes] : finished_files(out)) {
          INFO(w.what << ", run " << run << (ended ? " (finished)" : " (killed)"));
          REQUIRE(want.count(name) == 1);
          REQUIRE(same_file(name, bytes, want.at(name)) == "");
        }
      }
      std::printf("kill: %s: %d of %d runs killed (%d while writing a temporary file); the whole run takes %.2f s\n",
                  w.what.c_str(), killed, runs, killed_writing, seconds);
      CHECK(killed >= 4);
      // The next whole run: every file identical, no temporary and no checkpoint left.
      Child last(with_folder(w.args, out), dir.path / "last.log");
      REQUIRE(last.wait_for(300));
      INFO(testing::read_file(dir.path / "last.log"));
      REQUIRE(last.exit_code() == 0);
      std::vector<std::string> temporaries, checkpoints;
      const auto got = finished_files(out, &temporaries, &checkpoints);
      CHECK(temporaries.empty());
      CHECK(checkpoints.empty());
      REQUIRE(got.size() == want.size());
      for (const auto& [name, bytes] : got) REQUIRE(same_file(name, bytes, want.at(name)) == "");
    }
  }
}

TEST_CASE("kill: a full file system gets exit 3 naming the file, and leaves nothing behind", "[kill][cli]") {
  for (const Writer& w : writers()) {
    SECTION(w.what) {
      TempDir dir;
      const fs::path out = dir.path / "out";
      fs::create_directories(out);
      if (!w.before.empty()) {
        Child b(with_folder(w.before, out), dir.path / "before.log");
        REQUIRE(b.wait_for(120));
        REQUIRE(b.exit_code() == 0);
      }
      const auto before = finished_files(out);
      Child c(with_folder(w.args, out), dir.path / "run.log", w.fsize_limit);
      REQUIRE(c.wait_for(300));
      const std::string log = testing::read_file(dir.path / "run.log");
      INFO(w.what << ": " << log);
      REQUIRE(c.exit_code() == 3);
      REQUIRE(log.find("File too large") != std::string::npos);
      REQUIRE(log.find(out.string()) != std::string::npos);  // names the file
      const auto last_line = log.substr(log.rfind('\n', log.size() - 2) + 1);
      REQUIRE(last_line.rfind("tilespace: ", 0) == 0);  // one line, the last
      REQUIRE(last_line.find(" error: ") != std::string::npos);
      std::vector<std::string> temporaries, checkpoints;
      const auto after = finished_files(out, &temporaries, &checkpoints);
      CHECK(temporaries.empty());
      CHECK(checkpoints.empty());
      CHECK(after.size() == before.size());  // nothing new at a final name
    }
  }
}

// A catalogue's databases are saved one by one as each is built (the build's checkpoint is the
// database): a build killed at any moment keeps the finished ones, and the next run builds only
// the rest, ending with files identical to an uninterrupted build's.
TEST_CASE("kill: a killed catalogue build resumes with the databases it finished, to identical files",
          "[kill][cli][catalogue][slow]") {
  const std::vector<std::string> args{"build", "--board", "4x4", "--goal", "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
                                      "--zpdb", "5-5-5+1,2,5,6,9/3,4,7,8,12/10,11,13,14,15", "--db", "@"};
  TempDir dir;
  const fs::path ref = dir.path / "ref", out = dir.path / "out";
  fs::create_directories(ref);
  fs::create_directories(out);
  Child whole(with_folder(args, ref), dir.path / "ref.log");
  REQUIRE(whole.wait_for(600));
  INFO(testing::read_file(dir.path / "ref.log"));
  REQUIRE(whole.exit_code() == 0);
  const auto want = finished_files(ref);
  REQUIRE(want.size() == 5);  // 10,11,13,14,15 is in both partitions, built once
  auto finished_count = [&] {
    std::size_t n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(out, ec)) n += !is_temporary(e.path());
    return n;
  };
  std::mt19937_64 rng(20261205);
  std::uniform_real_distribution<double> moment(0.05, whole.seconds() * 0.5);
  int killed = 0, runs = 0;
  for (bool done = false; !done && runs < 40; ++runs) {
    const std::size_t had = finished_count();
    Child c(with_folder(args, out), dir.path / "run.log");
    // Even runs: killed the moment one more database has its final name; odd runs: at a random
    // moment, most likely in the middle of a database's search.
    bool ended = runs % 2 == 0 ? c.wait_for(600, [&] { return finished_count() > had; }) : c.wait_for(moment(rng));
    if (!ended) ended = !c.kill_now();  // false: it finished just before the kill
    if (ended) {
      INFO(testing::read_file(dir.path / "run.log"));
      REQUIRE(c.exit_code() == 0);
      done = true;
    } else {
      ++killed;
    }
    for (const auto& [name, bytes] : finished_files(out)) {
      INFO("run " << runs << (ended ? " (finished)" : " (killed)"));
      REQUIRE(want.count(name) == 1);
      REQUIRE(same_file(name, bytes, want.at(name)) == "");
    }
  }
  std::printf("kill: a catalogue build: %d of %d runs killed; the whole build takes %.2f s\n", killed, runs, whole.seconds());
  CHECK(killed >= 3);
  std::vector<std::string> temporaries;
  Child last(with_folder(args, out), dir.path / "last.log");  // everything up to date now
  REQUIRE(last.wait_for(600));
  REQUIRE(last.exit_code() == 0);
  CHECK_THAT(testing::read_file(dir.path / "last.log"), !Catch::Contains("building"));
  const auto got = finished_files(out, &temporaries);
  CHECK(temporaries.empty());
  REQUIRE(got.size() == want.size());
  for (const auto& [name, bytes] : got) REQUIRE(same_file(name, bytes, want.at(name)) == "");
}
