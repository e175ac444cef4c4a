// Helpers shared by the tests: temporary folders, running the CLI, a naive reference BFS.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "reference.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/state.hpp"

namespace testing {

// Which sanitizer the tests are built with: GCC defines __SANITIZE_*__, clang answers
// __has_feature.
#if defined(__has_feature)
#define TILESPACE_TEST_HAS_FEATURE(x) __has_feature(x)
#else
#define TILESPACE_TEST_HAS_FEATURE(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || TILESPACE_TEST_HAS_FEATURE(address_sanitizer)
inline constexpr bool kAddressSanitized = true;
#else
inline constexpr bool kAddressSanitized = false;
#endif
// True under TSan, which runs only the [threads] tests, 5-15 times slower than a Release build:
// there they keep what races (several threads on shared words and regions) and drop repeats of
// the same board's shape (each says which).
#if defined(__SANITIZE_THREAD__) || TILESPACE_TEST_HAS_FEATURE(thread_sanitizer)
inline constexpr bool kThreadSanitized = true;
#else
inline constexpr bool kThreadSanitized = false;
#endif
#undef TILESPACE_TEST_HAS_FEATURE
// True in the sanitizer builds (ASan+UBSan: the fuzz folder; TSan), where the code runs 10-50
// times slower: a few heavy tests check the same property on a smaller sample there (each says
// which), the Release build on the whole.
inline constexpr bool kSanitized = kAddressSanitized || kThreadSanitized;

// A fresh empty folder under the system temp dir, removed on destruction.
struct TempDir {
  std::filesystem::path path;
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path operator/(const std::string& name) const { return path / name; }
};

struct RunResult {
  int rc = -1;
  std::string out, err;
};

// Runs the tilespace CLI with `args` (shell words, already quoted) in `cwd`, feeding `input` on stdin.
// Under ASan the command runs without LeakSanitizer's exit scan and with 5 frames of allocation
// stack (ASAN_OPTIONS): about 50 ms less of each of the ASan stage's ~2,800 command starts (100 ms
// each with the defaults, most of it the scan and the stacks). Every other check stays on, and
// run_cli_leak_checked keeps the scan for the test that runs every command once for its leaks.
RunResult run_cli(const std::string& args, const std::filesystem::path& cwd, const std::string& input = "",
                  const std::filesystem::path& cli = TILESPACE_CLI);
// run_cli with the sanitizers' defaults: LeakSanitizer's report fails the test.
RunResult run_cli_leak_checked(const std::string& args, const std::filesystem::path& cwd, const std::string& input = "");

// A uniformly random permutation of the board's tiles (reachable from a given goal or not).
tilespace::State random_state(const tilespace::Board& board, std::mt19937_64& rng);

// `steps` random moves of the blank from `s` (reversals allowed): a state reachable from `s`.
tilespace::State random_walk(tilespace::State s, int steps, std::mt19937_64& rng);

// The "TILES<TAB>LENGTH" lines of tests/data/<file> (Korf's instances and their published optimal
// lengths), comment lines skipped.
struct Instance {
  tilespace::State start;
  int length;
};
std::vector<Instance> read_instances(const std::string& file, const tilespace::Board& board);

void write_file(const std::filesystem::path& p, const std::string& text);
std::string read_file(const std::filesystem::path& p);
// True when `s` is one line: not empty, one newline, at its end (an error message).
bool one_line(const std::string& s);
// Files in `dir` (recursively; none if it does not exist) whose name holds ".tmp.": the atomic
// writer's leftovers, as paths.
std::vector<std::string> temporaries(const std::filesystem::path& dir);

// Compares two byte strings without printing them (files of tens of MB): empty when equal, else
// their sizes and the first offset where they differ. Use as CHECK(bytes_differ(a, b) == "").
std::string bytes_differ(const std::string& a, const std::string& b);

// Little-endian fields of a file's bytes, for tests that patch headers.
template <class T>
T get_at(const std::string& bytes, std::size_t off) {
  T v;
  std::memcpy(&v, bytes.data() + off, sizeof v);
  return v;
}
template <class T>
void put_at(std::string& bytes, std::size_t off, T v) {
  std::memcpy(bytes.data() + off, &v, sizeof v);
}

// Recomputes the XXH3-64 header checksum stored at `offset` (over the 4096-byte header with that
// field zeroed: database.hpp offset 56, checkpoint.hpp offset 72), so that a patched field is met
// by the check of that field rather than by the checksum.
// `header_size`: the bytes the checksum covers (another format version's stated header size).
void reseal_header(std::string& bytes, std::size_t offset, std::size_t header_size = 4096);

// Fills `folder` (created if missing) with the pattern databases and the move automaton that the
// default 4x4 search builds for `goal` (tiles as text), as if a command had built them there. They
// are built once per build folder, by the command itself (`tilespace solve` one move from the goal),
// into tests' cache (TILESPACE_TEST_CACHE, rebuilt when the command's binary changes) and copied
// from there: under the sanitizers each such build costs 30-60 s, and five test cases need them.
// With TILESPACE_TEST_BUILDER set (tools/dev.sh test, for the sanitizer runs) that command builds
// them instead: the Release build of the same sources, 2 s instead of 60.
// Two test processes at once (ctest -j2) take turns on a lock. Copies, not links: a test may
// corrupt its files.
// `metric` multi: the multi-tile search's stock databases instead (`solve --metric multi`).
void stock_4x4_databases(const std::filesystem::path& folder, const std::string& goal,
                         tilespace::Metric metric = tilespace::Metric::single);

// The byte table of `board` for the canonical goal of blank cell `blank` (1..N-1 in row-major order
// around it) in `metric`, as `tilespace build --bits 8` writes it: built once per build of the
// command into the tests' cache, as the stock databases above are, and loaded from there. For the
// 12-cell tables that several [big] tests read as their reference (5-12 s of CPU a build; the tests
// of the byte engine itself build theirs).
tilespace::DistanceTable cached_table(const tilespace::Board& board, int blank,
                                      tilespace::Metric metric = tilespace::Metric::single);

// A published breadth-first distribution (tests/data/bfs-distributions.txt).
struct Published {
  std::uint64_t states = 0;
  int radius = 0;
  std::vector<std::uint64_t> counts;
};

// Every published distribution by "<W>x<H> <position>" (e.g. "2x3 corner"), read once.
const std::map<std::string, Published>& published_table();

// The published distribution of a board (or its transpose) for a blank position word ("corner",
// "edge", "center"); std::runtime_error if there is none. The file is read once.
const Published& published(const tilespace::Board& b, const std::string& pos);

}  // namespace testing
