// tilespace_bench: speed of tilespace against textbook baselines measured in the same run.
//
//   1. BFS: bfs_distances (1 thread and all threads) versus an unordered_map + queue BFS over
//      packed states, on 3x3, 5x2 and 2x5; the two must give the same histogram and depths.
//   2. Batch queries: run_batch over M random "START GOAL" lines of the 3x3 board (a random set,
//      about half unreachable, and a set scrambled from the goal, all solvable), versus
//      istringstream + parse_state + solvable + DistanceTable::distance. Answers are checked
//      against directly built tables (1000 lines) and the textbook BFS (100 of them).
//   3. --big: full BFS of 4x3, 3x4, 6x2 and 2x6 (tilespace only): seconds, peak RSS and the
//      published state counts, radii and antipode counts.
//   4. --big also: the two-bit engine on 6x2 with and without its back bits (bfs.hpp), the runs
//      alternating.
//
// The machine is noisy: every time is the best of --reps runs, and speeds are reported as ratios
// to a baseline timed in the same run. Exit status: 0 all checks passed, 1 a check failed (or the
// library threw), 2 bad options.
//
// Usage: tilespace_bench [--reps R] [--queries M] [--seed S] [--big] [--json]
// With --json, stdout is one JSON object and the human-readable lines go to stderr.

#include <stdlib.h>  // mkdtemp (POSIX)
#include <tbb/info.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <queue>
#include <random>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tilespace/bfs.hpp"
#include "tilespace/board.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/query.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/state.hpp"
#include "tilespace/table_store.hpp"

namespace {

using tilespace::Board;
using tilespace::DistanceTable;
using tilespace::Ranker;
using tilespace::State;
using Json = nlohmann::ordered_json;
using Histogram = std::vector<std::uint64_t>;

// ---------------------------------------------------------------------------------------------
// Options, checks, timing, formatting

struct Options {
  int reps = 3;
  std::uint64_t queries = 2'000'000;
  std::uint64_t seed = 20240601;
  bool big = false;
  bool json = false;
};

constexpr const char* kUsage = "usage: tilespace_bench [--reps R] [--queries M] [--seed S] [--big] [--json]\n";

std::uint64_t parse_count(const std::string& name, const std::string& text) {
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || p != text.data() + text.size() || text.empty())
    throw std::invalid_argument("bad value '" + text + "' for " + name);
  return v;
}

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (const auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg.resize(eq);
    } else if ((arg == "--reps" || arg == "--queries" || arg == "--seed") && i + 1 < argc) {
      value = argv[++i];
    }
    if (arg == "--reps") {
      const std::uint64_t reps = parse_count(arg, value);
      if (reps < 1 || reps > 1000) throw std::invalid_argument("--reps must be 1 to 1000");
      o.reps = static_cast<int>(reps);
    } else if (arg == "--queries") {
      o.queries = parse_count(arg, value);
    } else if (arg == "--seed") {
      o.seed = parse_count(arg, value);
    } else if (arg == "--big" && value.empty()) {
      o.big = true;
    } else if (arg == "--json" && value.empty()) {
      o.json = true;
    } else {
      throw std::invalid_argument("unknown option '" + std::string(argv[i]) + "'");
    }
  }
  return o;
}

// Collects failed checks; each makes the exit status 1. The first kShown are printed at once
// and kept for the JSON report; the rest are only counted.
class Checks {
 public:
  explicit Checks(std::ostream& log) : log_(log) {}
  bool expect(bool ok, const std::string& what) {
    if (!ok && ++failed_ <= kShown) {
      shown_.push_back(what);
      log_ << "FAIL: " << what << std::endl;
    }
    return ok;
  }
  std::uint64_t failed() const { return failed_; }
  const std::vector<std::string>& shown() const { return shown_; }

 private:
  static constexpr std::uint64_t kShown = 50;
  std::ostream& log_;
  std::uint64_t failed_ = 0;
  std::vector<std::string> shown_;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The best (smallest) wall time of `reps` calls of `run`.
template <class F>
double best_seconds(int reps, F&& run) {
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}

template <class... Args>
std::string format(const char* fmt, Args... args) {
  std::string out(static_cast<std::size_t>(std::snprintf(nullptr, 0, fmt, args...)), '\0');
  std::snprintf(out.data(), out.size() + 1, fmt, args...);
  return out;
}

std::string histogram_text(const Histogram& h) {
  std::string s;
  for (std::size_t d = 0; d < h.size(); ++d) {
    if (d) s += ' ';
    s += std::to_string(h[d]);
  }
  return s;
}

std::uint64_t total(const Histogram& h) { return std::accumulate(h.begin(), h.end(), std::uint64_t{0}); }

// A "<key>: <n> kB" field of /proc/self/status (VmHWM: peak resident set, VmRSS: current), in
// KiB; 0 if unknown.
std::uint64_t proc_status_kib(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == field + ":") {
      std::uint64_t kib = 0;
      status >> kib;
      return kib;
    }
    status.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

// Resets VmHWM to the current RSS (Linux >= 4.0); false if the kernel refused.
bool reset_peak_rss() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
  f.flush();
  return static_cast<bool>(f);
}

// A fresh directory under the system temporary folder, removed with its contents at the end.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tilespace-bench-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary directory");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// ---------------------------------------------------------------------------------------------
// The textbook BFS: a hash map of packed states (4 bits a cell, State::packed()) and a queue.

using DepthMap = std::unordered_map<std::uint64_t, std::uint8_t>;

int blank_cell(std::uint64_t packed, int cells) {
  for (int c = 0; c < cells; ++c)
    if (((packed >> (4 * c)) & 15u) == 0) return c;
  return -1;
}

// The packed state after the blank, on `blank`, trades places with the tile on `to`.
std::uint64_t slide(std::uint64_t packed, int blank, int to) {
  const std::uint64_t tile = (packed >> (4 * to)) & 15u;
  return (packed & ~(std::uint64_t{15} << (4 * to))) | (tile << (4 * blank));
}

// The depth of every state reachable from `goal`.
DepthMap textbook_bfs(const Board& board, std::uint64_t goal) {
  DepthMap depth{{goal, 0}};
  std::queue<std::uint64_t> queue;
  queue.push(goal);
  while (!queue.empty()) {
    const std::uint64_t s = queue.front();
    queue.pop();
    const auto next_depth = static_cast<std::uint8_t>(depth.at(s) + 1);
    const int blank = blank_cell(s, board.cells());
    const Board::Neighbours& nb = board.neighbours(blank);
    for (int i = 0; i < nb.count; ++i) {
      const std::uint64_t t = slide(s, blank, nb.cell[i]);
      if (depth.try_emplace(t, next_depth).second) queue.push(t);
    }
  }
  return depth;
}

Histogram histogram_of(const DepthMap& depth) {
  Histogram h;
  for (const auto& [state, d] : depth) {
    if (d >= h.size()) h.resize(d + 1u, 0);
    ++h[d];
  }
  return h;
}

// True when the textbook depths and tilespace's depth table agree on every state.
bool same_depths(const DepthMap& textbook, const Ranker& ranker, std::span<const std::uint8_t> depth) {
  if (textbook.size() != ranker.size()) return false;
  const tilespace::Labelling goal(canonical_goal(ranker.board(), ranker.goal_blank()));
  for (const auto& [packed, d] : textbook) {
    const State s = State::unpack(ranker.board(), packed);
    const std::uint64_t r = ranker.rank_if_reachable(goal.sequence(s), s.blank);
    if (r == Ranker::kUnreachable || depth[r] != d) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Part 1: BFS, tilespace versus textbook

constexpr double kTargetSpeedup = 50;  // the goal for tilespace's BFS; reported, not a check

Json bench_bfs(const Board& board, const Options& opt, int threads, Checks& checks, std::ostream& log) {
  const int goal_blank = board.cells() - 1;
  const Ranker ranker(board, goal_blank);
  const std::uint64_t goal = canonical_goal(board, goal_blank).packed();

  DepthMap textbook;
  const double base_s = best_seconds(opt.reps, [&] { textbook = textbook_bfs(board, goal); });

  auto run_tilespace = [&](int thread_count, std::vector<std::uint8_t>& depth, Histogram& histogram) {
    depth.assign(ranker.size(), 0);
    tilespace::BfsOptions bfs;
    bfs.threads = thread_count;
    return best_seconds(opt.reps, [&] { histogram = bfs_distances(ranker, depth, bfs).histogram; });
  };
  std::vector<std::uint8_t> depth_one, depth_all;
  Histogram hist_one, hist_all;
  const double one_s = run_tilespace(1, depth_one, hist_one);
  const double all_s = run_tilespace(threads, depth_all, hist_all);

  const Histogram expected = histogram_of(textbook);
  const std::string name = board.name();
  checks.expect(hist_one == expected, name + " BFS histogram, 1 thread: expected " + histogram_text(expected) +
                                          ", got " + histogram_text(hist_one));
  checks.expect(hist_all == expected, name + " BFS histogram, " + std::to_string(threads) + " threads: expected " +
                                          histogram_text(expected) + ", got " + histogram_text(hist_all));
  checks.expect(depth_one == depth_all, name + " BFS depth tables differ between 1 and " +
                                            std::to_string(threads) + " threads");
  checks.expect(same_depths(textbook, ranker, depth_all),
                name + " BFS depth of some state differs from the textbook BFS");

  const int radius = static_cast<int>(expected.size()) - 1;
  const double best_speedup = base_s / std::min(one_s, all_s);
  log << format("  %-4s %10llu states  radius %2d  textbook %8.4f s  tilespace 1 thread %8.5f s (%6.1fx)  "
                "%d threads %8.5f s (%6.1fx)  target %.0fx %s\n",
                name.c_str(), static_cast<unsigned long long>(textbook.size()), radius, base_s, one_s, base_s / one_s,
                threads, all_s, base_s / all_s, kTargetSpeedup, best_speedup >= kTargetSpeedup ? "met" : "NOT met");
  return Json{{"board", name},
              {"states", textbook.size()},
              {"radius", radius},
              {"textbook_s", base_s},
              {"tilespace_1_thread_s", one_s},
              {"tilespace_all_threads_s", all_s},
              {"threads", threads},
              {"speedup_1_thread", base_s / one_s},
              {"speedup_all_threads", base_s / all_s},
              {"target_speedup", kTargetSpeedup},
              {"target_met", best_speedup >= kTargetSpeedup}};
}

// ---------------------------------------------------------------------------------------------
// Part 2: batch queries

struct Query {
  std::uint64_t start, goal;  // packed states
};

std::uint64_t random_state(const Board& board, std::mt19937_64& rng) {
  tilespace::Tiles tiles{};
  for (int c = 0; c < board.cells(); ++c) tiles[c] = static_cast<std::uint8_t>(c);
  std::shuffle(tiles.begin(), tiles.begin() + board.cells(), rng);
  std::uint64_t packed = 0;
  for (int c = 0; c < board.cells(); ++c) packed |= std::uint64_t{tiles[c]} << (4 * c);
  return packed;
}

// `goal` after up to `max_moves` random moves that never undo the previous one.
std::uint64_t scramble(const Board& board, std::uint64_t goal, int max_moves, std::mt19937_64& rng) {
  const int moves = static_cast<int>(rng() % static_cast<std::uint64_t>(max_moves + 1));
  std::uint64_t s = goal;
  int blank = blank_cell(s, board.cells()), previous = -1;
  for (int i = 0; i < moves; ++i) {
    const Board::Neighbours& nb = board.neighbours(blank);
    int to = previous;
    while (to == previous) to = nb.cell[rng() % nb.count];
    s = slide(s, blank, to);
    previous = blank;
    blank = to;
  }
  return s;
}

// Independent random start and goal: about half of the pairs are unreachable.
std::vector<Query> random_queries(const Board& board, std::uint64_t count, std::mt19937_64& rng) {
  std::vector<Query> q(count);
  for (auto& x : q) x = {random_state(board, rng), random_state(board, rng)};
  return q;
}

// A random goal and a start scrambled from it: all solvable.
std::vector<Query> solvable_queries(const Board& board, std::uint64_t count, std::mt19937_64& rng) {
  std::vector<Query> q(count);
  for (auto& x : q) {
    x.goal = random_state(board, rng);
    x.start = scramble(board, x.goal, 80, rng);
  }
  return q;
}

// "START GOAL" lines, every tile separated by one space.
std::string query_text(const Board& board, const std::vector<Query>& queries) {
  std::string text;
  auto put_state = [&](std::uint64_t packed) {
    for (int c = 0; c < board.cells(); ++c) {
      if (c) text += ' ';
      text += std::to_string((packed >> (4 * c)) & 15u);
    }
  };
  for (const Query& q : queries) {
    put_state(q.start);
    text += ' ';
    put_state(q.goal);
    text += '\n';
  }
  return text;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return lines;
}

std::string answer_text(std::optional<int> d) { return d ? std::to_string(*d) : "unreachable"; }

// The baseline: each line through istringstream, parse_state, solvable and the table's distance.
std::string answer_textbook(const std::string& text, const Board& board,
                            const std::vector<const DistanceTable*>& tables) {
  const int n = board.cells();
  std::string out;
  std::istringstream in(text);
  std::string line, token;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string start_text, goal_text;
    for (int i = 0; i < 2 * n && fields >> token; ++i) (i < n ? start_text : goal_text) += token + ' ';
    const State start = tilespace::parse_state(start_text, board);
    const State goal = tilespace::parse_state(goal_text, board);
    std::optional<int> d;
    if (tilespace::solvable(start, goal)) d = tables[goal.blank]->distance(start, goal);
    out += answer_text(d);
    out += '\n';
  }
  return out;
}

// Up to `count` distinct random numbers below `size`, in random order.
std::vector<std::uint64_t> distinct_indices(std::uint64_t size, std::uint64_t count, std::mt19937_64& rng) {
  std::vector<std::uint64_t> out;
  std::unordered_set<std::uint64_t> seen;
  while (out.size() < std::min(size, count))
    if (const std::uint64_t i = rng() % size; seen.insert(i).second) out.push_back(i);
  return out;
}

// Checks 1000 random lines of run_batch's answers against tables built here, and 100 of
// them against the textbook BFS from the line's goal. Returns the numbers of lines checked.
std::pair<int, int> verify_answers(const Board& board, const std::vector<Query>& queries,
                                   const std::vector<std::string_view>& answers,
                                   const std::vector<DistanceTable>& direct, std::mt19937_64& rng,
                                   const std::string& set, Checks& checks) {
  const std::vector<std::uint64_t> sample = distinct_indices(queries.size(), 1000, rng);
  const auto bfs_sample = std::min<std::size_t>(100, sample.size());
  for (std::size_t k = 0; k < sample.size(); ++k) {
    const std::uint64_t i = sample[k];
    const State start = State::unpack(board, queries[i].start), goal = State::unpack(board, queries[i].goal);
    const std::optional<int> d = direct[goal.blank].distance(start, goal);
    const std::string where = set + " line " + std::to_string(i + 1) + " '" + start.to_string() + " " +
                              goal.to_string() + "': ";
    checks.expect(d.has_value() == tilespace::solvable(start, goal),
                  where + "solvable() says " + (d ? "no" : "yes") + ", the table says " + answer_text(d));
    checks.expect(answers[i] == answer_text(d),
                  where + "expected " + answer_text(d) + " (DistanceTable::distance), got " + std::string(answers[i]));
    if (k < bfs_sample) {
      const DepthMap from_goal = textbook_bfs(board, queries[i].goal);
      const auto it = from_goal.find(queries[i].start);
      std::optional<int> naive;
      if (it != from_goal.end()) naive = it->second;
      checks.expect(answers[i] == answer_text(naive),
                    where + "expected " + answer_text(naive) + " (textbook BFS), got " + std::string(answers[i]));
    }
  }
  return {static_cast<int>(sample.size()), static_cast<int>(bfs_sample)};
}

// Everything the query part shares between its two sets.
struct QueryBench {
  const Board& board;
  const Options& opt;
  tilespace::TableStore& store;        // warm after the first set
  const std::filesystem::path& dir;    // the store's folder
  const std::vector<DistanceTable>& direct;  // built here, one per goal blank
  std::mt19937_64& rng;
  Checks& checks;
  std::ostream& log;
};

int tables_on_disk(const tilespace::TableStore& store, const Board& board) {
  int files = 0;
  for (int blank = 0; blank < board.cells(); ++blank) files += std::filesystem::exists(store.path_for(board, blank));
  return files;
}

void check_stats(const tilespace::BatchStats& stats, std::uint64_t lines, const std::string& messages,
                 const std::string& set, Checks& checks) {
  checks.expect(stats.lines == lines && stats.errors == 0 && stats.answered + stats.unreachable == lines,
                set + ": run_batch stats: lines " + std::to_string(stats.lines) + ", answered " +
                    std::to_string(stats.answered) + ", unreachable " + std::to_string(stats.unreachable) +
                    ", errors " + std::to_string(stats.errors) + " for " + std::to_string(lines) + " lines");
  checks.expect(messages.empty(), set + ": run_batch wrote messages: " + messages.substr(0, 300));
}

// A second store on the same folder loads the saved files: its answers must be the same.
void check_loaded_store(const QueryBench& b, const std::string& set, const std::string& text,
                        const tilespace::BatchOptions& batch, const std::string& expected) {
  tilespace::TableStore loaded({b.dir, {}, {}});
  std::string out;
  std::ostringstream errors;
  tilespace::run_batch(loaded, text, out, errors, batch);
  b.checks.expect(out == expected, set + ": answers from tables loaded from files differ from the built ones");
}

Json bench_query_set(const QueryBench& b, const std::string& set, const std::vector<Query>& queries) {
  const std::string text = query_text(b.board, queries);
  const auto m = static_cast<std::uint64_t>(queries.size());
  tilespace::BatchOptions batch;
  batch.goal = canonical_goal(b.board, b.board.cells() - 1);
  std::ostringstream errors;
  std::string out;

  // Warm-up (untimed): builds or loads the tables this set needs.
  const auto t0 = std::chrono::steady_clock::now();
  tilespace::run_batch(b.store, text, out, errors, batch);
  const double warmup_s = seconds_since(t0);
  const int tables_warm = tables_on_disk(b.store, b.board);

  tilespace::BatchStats stats;
  const double batch_s = best_seconds(b.opt.reps, [&] {
    out.clear();
    stats = tilespace::run_batch(b.store, text, out, errors, batch);
  });
  check_stats(stats, m, errors.str(), set, b.checks);
  check_loaded_store(b, set, text, batch, out);

  std::vector<const DistanceTable*> tables;
  for (int blank = 0; blank < b.board.cells(); ++blank) tables.push_back(&b.store.table(b.board, blank));
  std::string textbook_out;
  const double base_s = best_seconds(b.opt.reps, [&] { textbook_out = answer_textbook(text, b.board, tables); });
  b.checks.expect(textbook_out == out, set + ": run_batch answers differ from the istringstream baseline's");

  const std::vector<std::string_view> answers = split_lines(out);
  b.checks.expect(answers.size() == queries.size(), set + ": run_batch gave " + std::to_string(answers.size()) +
                                                        " answer lines for " + std::to_string(m) + " queries");
  std::pair<int, int> verified{0, 0};
  if (answers.size() == queries.size()) verified = verify_answers(b.board, queries, answers, b.direct, b.rng, set, b.checks);

  const double qps = static_cast<double>(m) / batch_s, base_qps = static_cast<double>(m) / base_s;
  b.log << format("  %-9s %9llu lines (%8llu unreachable)  run_batch %7.3f s = %6.2f M queries/s  "
                  "istringstream %7.3f s = %6.3f M queries/s  ratio %5.1fx  (warm-up %.3f s, %d tables on disk; "
                  "checked %d + %d by BFS)\n",
                  set.c_str(), static_cast<unsigned long long>(m), static_cast<unsigned long long>(stats.unreachable),
                  batch_s, qps / 1e6, base_s, base_qps / 1e6, base_s / batch_s, warmup_s, tables_warm, verified.first,
                  verified.second);
  return Json{{"set", set},
              {"lines", m},
              {"unreachable", stats.unreachable},
              {"warmup_s", warmup_s},
              {"tables_on_disk_after_warmup", tables_warm},
              {"run_batch_s", batch_s},
              {"run_batch_queries_per_s", qps},
              {"istringstream_s", base_s},
              {"istringstream_queries_per_s", base_qps},
              {"speedup", base_s / batch_s},
              {"checked_against_table", verified.first},
              {"checked_against_bfs", verified.second}};
}

Json bench_queries(const Options& opt, Checks& checks, std::ostream& log) {
  const Board board(3, 3);
  std::mt19937_64 rng(opt.seed);
  const TempDir dir;
  tilespace::TableStore store({dir.path(), {}, {}});
  std::vector<DistanceTable> direct;
  for (int blank = 0; blank < board.cells(); ++blank) direct.push_back(DistanceTable::build(board, blank));

  const QueryBench b{board, opt, store, dir.path(), direct, rng, checks, log};
  Json sets = Json::array();
  sets.push_back(bench_query_set(b, "random", random_queries(board, opt.queries, rng)));
  sets.push_back(bench_query_set(b, "solvable", solvable_queries(board, opt.queries, rng)));
  return Json{{"board", board.name()}, {"sets", sets}};
}

// ---------------------------------------------------------------------------------------------
// Part 3 (--big): 3x4 and 2x6, tilespace only

struct Published {
  std::uint64_t states;
  int radius;
  std::uint64_t at_radius;
};

Json bench_big(const Board& board, const Published& facts, int threads, const Options& opt, Histogram& histogram,
               Checks& checks, std::ostream& log) {
  const Ranker ranker(board, board.cells() - 1);
  const bool reset = reset_peak_rss();
  const std::uint64_t before_kib = proc_status_kib("VmRSS");
  double seconds = 0;
  {
    std::vector<std::uint8_t> depth(ranker.size());
    seconds = best_seconds(opt.reps, [&] { histogram = bfs_distances(ranker, depth).histogram; });
  }
  const std::uint64_t peak_kib = proc_status_kib("VmHWM");

  const std::string name = board.name();
  const int radius = static_cast<int>(histogram.size()) - 1;
  const std::uint64_t states = total(histogram), at_radius = histogram.back();
  checks.expect(states == facts.states && radius == facts.radius && at_radius == facts.at_radius,
                format("%s BFS: expected %llu states, radius %d, %llu at the radius; got %llu, %d, %llu", name.c_str(),
                       static_cast<unsigned long long>(facts.states), facts.radius,
                       static_cast<unsigned long long>(facts.at_radius), static_cast<unsigned long long>(states),
                       radius, static_cast<unsigned long long>(at_radius)));
  log << format("  %-4s %10llu states  radius %2d  %llu at the radius  %d threads %8.3f s (%5.1f M states/s)  "
                "peak RSS %.0f MiB (%.0f MiB before the search)%s\n",
                name.c_str(), static_cast<unsigned long long>(states), radius,
                static_cast<unsigned long long>(at_radius), threads, seconds,
                static_cast<double>(states) / seconds / 1e6, static_cast<double>(peak_kib) / 1024.0,
                static_cast<double>(before_kib) / 1024.0, reset ? "" : " (process peak: VmHWM could not be reset)");
  return Json{{"board", name},
              {"states", states},
              {"radius", radius},
              {"at_radius", at_radius},
              {"threads", threads},
              {"seconds", seconds},
              {"peak_rss_kib", peak_kib},
              {"rss_before_kib", before_kib},
              {"peak_rss_reset", reset}};
}

Json bench_big_boards(const Options& opt, int threads, Checks& checks, std::ostream& log) {
  struct Pair {
    Board a, b;
    Published facts;
  };
  const std::array<Pair, 2> pairs{Pair{Board(4, 3), Board(3, 4), {239'500'800, 53, 18}},
                                  Pair{Board(6, 2), Board(2, 6), {239'500'800, 80, 2}}};
  Json out = Json::array();
  for (const Pair& p : pairs) {
    Histogram ha, hb;
    out.push_back(bench_big(p.a, p.facts, threads, opt, ha, checks, log));
    out.push_back(bench_big(p.b, p.facts, threads, opt, hb, checks, log));
    checks.expect(ha == hb, p.a.name() + " and " + p.b.name() + " (transposes) have different histograms: " +
                                histogram_text(ha) + " vs " + histogram_text(hb));
  }
  return out;
}

// Part 4 (--big): the two-bit engine on 6x2 with and without the back bits (bfs.hpp), the runs
// alternating, best of --reps each.
Json bench_back_bits(const Options& opt, int threads, Checks& checks, std::ostream& log) {
  const Ranker ranker(Board(6, 2), 11);
  double best[2] = {1e300, 1e300};
  std::uint64_t vertical[2] = {0, 0};
  for (int rep = 0; rep < opt.reps; ++rep)
    for (const bool back : {false, true}) {
      tilespace::FieldArray fields(tilespace::two_bit_search_words(ranker));
      tilespace::TwoBitOptions o;
      o.bfs.threads = threads;
      o.back_bits = back;
      const auto t0 = std::chrono::steady_clock::now();
      const tilespace::TwoBitResult r = tilespace::bfs_two_bit(ranker, fields.span(), o);
      best[back] = std::min(best[back], seconds_since(t0));
      vertical[back] = r.vertical_targets;
      checks.expect(r.back_bits == back && total(r.histogram) == 239'500'800 && r.histogram.size() == 81,
                    format("6x2 two-bit search, back bits %s: wrong histogram or back bits", back ? "on" : "off"));
    }
  log << format("  6x2  two-bit engine, %d threads: %.3f s with the back bits (%llu vertical targets), %.3f s without "
                "(%llu): %.2fx\n",
                threads, best[1], static_cast<unsigned long long>(vertical[1]), best[0],
                static_cast<unsigned long long>(vertical[0]), best[0] / best[1]);
  return Json{{"board", "6x2"},          {"threads", threads},
              {"seconds_back_bits", best[1]}, {"seconds_without", best[0]},
              {"vertical_back_bits", vertical[1]}, {"vertical_without", vertical[0]},
              {"speedup", best[0] / best[1]}};
}

int run(const Options& opt, std::ostream& log) {
  Checks checks(log);
  const int threads = tbb::info::default_concurrency();
  Json report{{"reps", opt.reps}, {"threads", threads}, {"queries", opt.queries}, {"seed", opt.seed}};
  log << "tilespace_bench: best of " << opt.reps << " runs each, " << threads << " threads\n";

  log << "[1] BFS from the canonical goal (blank in the last cell): tilespace vs unordered_map + queue\n";
  Json bfs = Json::array();
  for (const Board& board : {Board(3, 3), Board(5, 2), Board(2, 5)})
    bfs.push_back(bench_bfs(board, opt, threads, checks, log));
  report["bfs"] = bfs;

  log << "[2] Batch queries on 3x3: run_batch vs istringstream + parse_state + solvable + distance\n";
  report["batch"] = bench_queries(opt, checks, log);

  if (opt.big) {
    log << "[3] Full BFS of 3x4 and 2x6 boards (tilespace only)\n";
    report["big"] = bench_big_boards(opt, threads, checks, log);
    log << "[4] The two-bit engine with and without the back bits (single-tile, two rows)\n";
    report["back_bits"] = bench_back_bits(opt, threads, checks, log);
  }

  report["failed_checks"] = checks.failed();
  report["failures"] = checks.shown();
  report["ok"] = checks.failed() == 0;
  log << (checks.failed() == 0 ? "all checks passed\n" : std::to_string(checks.failed()) + " check(s) FAILED\n");
  if (opt.json) std::cout << report.dump(2) << '\n';
  return checks.failed() == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--help" || std::string_view(argv[i]) == "-h") {
      std::cout << kUsage;
      return 0;
    }
  }
  Options opt;
  try {
    opt = parse_options(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "tilespace_bench: " << e.what() << '\n' << kUsage;
    return 2;
  }
  std::ostream& log = opt.json ? std::cerr : std::cout;
  try {
    return run(opt, log);
  } catch (const std::exception& e) {
    log << "tilespace_bench: error: " << e.what() << '\n';
    return 1;
  }
}
