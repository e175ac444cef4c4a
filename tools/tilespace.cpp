// The `tilespace` command: build, query, stats, solve. A thin layer over the library: it parses
// options, maps errors to the documented exit codes (errors.hpp) and formats text or JSON.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <numeric>
#include <optional>
#include <mutex>
#include <random>
#include <sstream>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <thread>
#include <string>
#include <vector>

#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/pdb/solver.hpp"
#include "tilespace/query.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/search/heuristics.hpp"
#include "tilespace/search/lab.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/state.hpp"
#include "tilespace/table_store.hpp"

using namespace tilespace;
using nlohmann::json;

namespace {

// Options every subcommand shares.
struct Common {
  std::string board, goal, db = "out", blank, lang = "en";
  std::string source;  // the file the start (and goal) came from, for messages
  int threads = 0;
  bool progress = false, json = false;
};

void add_common(CLI::App* app, Common& c, bool goal = true, bool json_flag = true) {
  app->add_option("--board", c.board, "Board as WxH (default: from the state, else 3x3)");
  if (goal) app->add_option("--goal", c.goal, "Goal state (default: 1 2 ... N-1 0)");
  app->add_option("--db", c.db, "Folder of the databases")->capture_default_str();
  app->add_option("--threads", c.threads, "Threads for builds and batches (0: all cores)")->check(CLI::Range(0, 1024));
  app->add_flag("--progress", c.progress, "Report each BFS layer on stderr (default: when stderr is a terminal)");
  if (json_flag) app->add_flag("--json", c.json, "Print JSON");
  if (goal) app->add_option("--blank", c.blank, "The blank's name when tiles are named (letters, words)");
}

std::optional<Board> board_option(const Common& c) {
  if (c.board.empty()) return std::nullopt;
  auto b = Board::parse(c.board);
  if (!b) throw InputError("bad --board '" + c.board + "': expected WxH with 2 <= W, H and W*H <= " + std::to_string(kMaxBoardCells));
  return b;
}

TableStore make_store(const Common& c) {
  StoreOptions o;
  o.dir = c.db;
  o.bfs.threads = c.threads;
  if (c.progress || ::isatty(STDERR_FILENO)) {
    o.bfs.on_layer = [](const LayerReport& r) {
      std::fprintf(stderr, "  depth %3d  %13llu states  %13llu total  %8.2f s\n", r.depth,
                   static_cast<unsigned long long>(r.states), static_cast<unsigned long long>(r.total), r.seconds);
    };
  }
  o.note = [](const std::string& s) { std::fprintf(stderr, "tilespace: %s\n", s.c_str()); };
  return TableStore(std::move(o));
}

// The start (if given) and the goal, on one board.
struct Problem {
  std::optional<State> start;
  State goal;
  Labels labels;  // how to write the tiles (numbers unless the input named them)
};

Problem parse_problem(const Common& c, const std::string& start_text) {
  auto board = board_option(c);
  Problem p;
  if (!start_text.empty() && !c.goal.empty() && (!c.blank.empty() || has_labels(start_text) || has_labels(c.goal))) {
    LabelledPair lp = parse_labelled_pair(start_text, c.goal, board, c.blank);
    p.start = lp.start;
    p.goal = lp.goal;
    p.labels = std::move(lp.labels);
    return p;
  }
  if (!start_text.empty()) {
    try {
      p.start = parse_state(start_text, board);
    } catch (const InputError& e) {
      if (c.goal.empty() && has_labels(start_text))
        throw InputError(std::string(e.what()) + " (named tiles need --goal with the same names)");
      throw;
    }
    board = p.start->board;
  }
  if (!c.goal.empty()) {
    try {
      p.goal = parse_state(c.goal, board);
    } catch (const InputError& e) {
      throw InputError(std::string("goal: ") + e.what());
    }
  } else {
    const Board b = board.value_or(Board(3, 3));
    p.goal = canonical_goal(b, b.cells() - 1);
  }
  return p;
}

// The problem from the command line, with the source file named in any error.
Problem read_problem(const Common& c, const std::string& start_text) {
  try {
    return parse_problem(c, start_text);
  } catch (const InputError& e) {
    if (c.source.empty()) throw;
    throw InputError(c.source + ": " + e.what());
  }
}

// A START argument may name a file holding the start (and the goal, on its second line).
std::string resolve_start(const std::string& arg, Common& c) {
  if (arg.empty() || arg.find_first_of(" \t,\n") != std::string::npos) return arg;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(arg, ec)) return arg;
  auto [start, goal] = read_state_texts(arg);
  c.source = arg;
  if (goal && c.goal.empty()) c.goal = *goal;
  return start;
}

json tiles_json(const State& s) {
  json a = json::array();
  for (int i = 0; i < s.cells(); ++i) a.push_back(s.tiles[i]);
  return a;
}

// The board as rows of right-aligned names, the blank as '.' (or its given name).
std::string board_text(const State& s, const Labels& labels, const std::string& indent = "  ") {
  std::size_t w = 1;
  for (int c = 0; c < s.cells(); ++c) w = std::max(w, labels.name(s.tiles[c]).size());
  std::string out;
  for (int r = 0; r < s.board.height(); ++r) {
    std::string line = indent;
    for (int c = 0; c < s.board.width(); ++c) {
      const int t = s.tiles[r * s.board.width() + c];
      std::string name = t ? labels.name(t) : (labels.names.empty() || labels.numeric() ? "." : labels.name(0));
      if (c) line += ' ';
      line.append(w - std::min(w, name.size()), ' ');
      line += name;
    }
    out += line + "\n";
  }
  return out;
}

void print_board(const State& s, const Labels& labels = {}) { std::fputs(board_text(s, labels).c_str(), stdout); }

// Writes every board of the path to `file` (result.txt), atomically: temporary file, rename.
void write_result(const std::string& file, const std::vector<State>& path, const Labels& labels) {
  const std::string tmp = file + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp);
    if (!out) throw InputError("cannot write " + file);
    for (std::size_t i = 0; i < path.size(); ++i) {
      if (i) out << "\n";
      out << board_text(path[i], labels, "");
    }
    if (!out.flush()) {
      std::filesystem::remove(tmp);
      throw InputError("cannot write " + file);
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw InputError("cannot write " + file + ": " + ec.message());
  }
}

// Plays the path board by board: in place on a terminal, frame after frame otherwise.
void animate(const std::vector<State>& path, const Labels& labels, int delay_ms) {
  const bool tty = ::isatty(STDOUT_FILENO);
  const int lines = path.empty() ? 0 : path[0].board.height() + 1;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (tty && i) std::printf("\x1b[%dA", lines);  // back to the top of the frame
    std::printf("move %zu/%zu%s\n", i, path.size() - 1, tty ? "\x1b[K" : "");
    std::fputs(board_text(path[i], labels).c_str(), stdout);
    if (!tty) std::puts("");
    std::fflush(stdout);
    if (tty && i + 1 < path.size()) ::usleep(static_cast<useconds_t>(delay_ms) * 1000);
  }
}

// ---- subcommands ----

int cmd_build(Common& c, bool all_goals) {
  Problem p = read_problem(c, "");
  TableStore store = make_store(c);
  const Board& b = p.goal.board;
  std::vector<int> blanks;
  if (all_goals) {
    for (int cell = 0; cell < b.cells(); ++cell) blanks.push_back(cell);
  } else {
    blanks.push_back(p.goal.blank);
  }
  json out = json::array();
  for (int blank : blanks) {
    const auto t0 = std::chrono::steady_clock::now();
    const DistanceTable& t = store.build(b, blank);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto path = store.path_for(b, blank).string();
    if (c.json) {
      out.push_back({{"file", path}, {"goal", tiles_json(t.goal())}, {"states", t.ranker().size()},
                     {"radius", t.radius()}, {"seconds", secs}});
    } else {
      std::printf("built %s: %llu states, radius %d, %.2f s\n", path.c_str(),
                  static_cast<unsigned long long>(t.ranker().size()), t.radius(), secs);
    }
  }
  if (c.json) std::puts(out.dump().c_str());
  return kExitOk;
}

int cmd_query(Common& c, const std::string& start_arg) {
  const std::string start_text = resolve_start(start_arg, c);
  if (start_text.empty()) throw InputError("query needs a START state or --batch FILE");
  Problem p = read_problem(c, start_text);
  TableStore store = make_store(c);
  const State& s = *p.start;
  std::optional<int> d;
  if (solvable(s, p.goal)) d = store.table(p.goal.board, p.goal.blank).distance(s, p.goal);
  if (c.json) {
    json j{{"board", s.board.name()}, {"start", tiles_json(s)}, {"goal", tiles_json(p.goal)}, {"reachable", d.has_value()}};
    j["length"] = d ? json(*d) : json(nullptr);
    std::puts(j.dump().c_str());
  } else if (c.lang == "zh") {
    if (d) std::printf("最少移动%d步到达目标状态\n", *d);
    else std::puts("目标状态不可达");
  } else if (d) {
    std::printf("%d\n", *d);
  } else {
    std::puts("unreachable");
  }
  return d ? kExitOk : kExitUnreachable;
}

int cmd_batch(Common& c, const std::string& file) {
  Problem p = read_problem(c, "");
  TableStore store = make_store(c);
  std::FILE* in = file == "-" ? stdin : std::fopen(file.c_str(), "rb");
  if (!in) throw InputError("cannot read " + file);
  BatchOptions opt;
  opt.goal = p.goal;
  opt.json = c.json;
  BatchStats total;
  std::string buf, out;
  std::vector<char> chunk(1 << 22);
  const auto t0 = std::chrono::steady_clock::now();
  for (bool eof = false; !eof;) {
    const std::size_t got = std::fread(chunk.data(), 1, chunk.size(), in);
    eof = got < chunk.size();
    buf.append(chunk.data(), got);
    const std::size_t cut = eof ? buf.size() : buf.rfind('\n') + 1;  // rfind npos+1 == 0: keep all
    out.clear();
    const BatchStats s = run_batch(store, std::string_view(buf).substr(0, cut), out, std::cerr, opt);
    std::fwrite(out.data(), 1, out.size(), stdout);
    buf.erase(0, cut);
    opt.first_line += s.lines;
    total.answered += s.answered;
    total.unreachable += s.unreachable;
    total.errors += s.errors;
  }
  const bool read_error = std::ferror(in);
  if (in != stdin) std::fclose(in);
  if (read_error) throw InputError("error reading " + file);
  if (c.progress || ::isatty(STDERR_FILENO)) {
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto n = total.answered + total.unreachable;
    std::fprintf(stderr, "tilespace: %llu queries (%llu unreachable, %llu bad) in %.3f s\n",
                 static_cast<unsigned long long>(n), static_cast<unsigned long long>(total.unreachable),
                 static_cast<unsigned long long>(total.errors), secs);
  }
  return total.errors ? kExitInput : kExitOk;
}

int cmd_stats(Common& c, bool all_goals) {
  Problem p = read_problem(c, "");
  TableStore store = make_store(c);
  const Board& b = p.goal.board;
  const DistanceTable& t = store.table(b, p.goal.blank);
  const auto& h = t.histogram();
  const std::uint64_t states = t.ranker().size();
  double sum = 0;
  for (std::size_t d = 0; d < h.size(); ++d) sum += static_cast<double>(d) * static_cast<double>(h[d]);
  const double mean = sum / static_cast<double>(states);
  constexpr std::size_t kListed = 1000;
  const auto far = t.farthest(p.goal, kListed);

  int longest = -1;
  json per_goal = json::array();
  if (all_goals) {
    for (int cell = 0; cell < b.cells(); ++cell) {
      const DistanceTable& g = store.table(b, cell);
      longest = std::max(longest, g.radius());
      per_goal.push_back({{"blank", cell}, {"radius", g.radius()}, {"farthest_count", g.histogram().back()}});
    }
  }
  if (c.json) {
    json j{{"board", b.name()}, {"goal", tiles_json(p.goal)}, {"states", states}, {"radius", t.radius()},
           {"histogram", h}, {"mean", mean}, {"farthest_count", h.back()}};
    json f = json::array();
    for (const auto& s : far) f.push_back(tiles_json(s));
    j["farthest"] = f;
    if (all_goals) {
      j["longest"] = longest;
      j["goals"] = per_goal;
    }
    std::puts(j.dump().c_str());
    return kExitOk;
  }
  std::printf("board   %s\ngoal    %s\nstates  %llu\nradius  %d\nmean    %.4f\n", b.name().c_str(),
              p.goal.to_string().c_str(), static_cast<unsigned long long>(states), t.radius(), mean);
  std::printf("\ndepth  states\n");
  for (std::size_t d = 0; d < h.size(); ++d) std::printf("%5zu  %llu\n", d, static_cast<unsigned long long>(h[d]));
  std::printf("\nstates at the radius (%llu):\n", static_cast<unsigned long long>(h.back()));
  constexpr std::size_t kShown = 20;
  for (std::size_t i = 0; i < far.size() && i < kShown; ++i) std::printf("  %s\n", far[i].to_string().c_str());
  if (h.back() > kShown) std::printf("  ... and %llu more (--json lists up to %zu)\n",
                                     static_cast<unsigned long long>(h.back() - kShown), kListed);
  if (all_goals) {
    std::printf("\nradius by goal blank cell:");
    for (const auto& g : per_goal) std::printf(" %d", g["radius"].get<int>());
    std::printf("\nlongest optimal solution between any two states: %d\n", longest);
  }
  return kExitOk;
}

// Options of `solve` beyond the common ones.
struct SolveFlags {
  std::string algorithm, heuristic = "manhattan", max_memory, result, pattern, batch;
  bool animate = false;
  int delay_ms = 400;
  double weight = 2.0, max_seconds = 0;
  int depth_limit = 50;
  std::uint64_t max_nodes = 0;
};

// Without --max-memory a search may use 3/4 of physical memory, then stops with exit 4: a
// breadth-first search on a 4x4 board never exhausts the machine.
std::uint64_t default_memory_limit() { return physical_memory() / 4 * 3; }

// "512M", "2G", "100000" -> bytes.
std::uint64_t parse_bytes(const std::string& text) {
  if (text.empty()) return 0;
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    throw InputError("bad --max-memory '" + text + "': expected bytes such as 512M or 2G");
  }
  std::string unit = text.substr(used);
  double scale = 1;
  if (unit == "K" || unit == "KiB" || unit == "k") scale = 1024.0;
  else if (unit == "M" || unit == "MiB") scale = 1024.0 * 1024;
  else if (unit == "G" || unit == "GiB") scale = 1024.0 * 1024 * 1024;
  else if (!unit.empty() && unit != "B") throw InputError("bad --max-memory '" + text + "': unknown unit '" + unit + "'");
  if (!(v > 0)) throw InputError("bad --max-memory '" + text + "': must be positive");
  return static_cast<std::uint64_t>(v * scale);
}

// The start (and goal) from START, a file named by START, or standard input ("-" or none).
std::string read_start(const std::string& arg, Common& c) {
  if (!arg.empty() && arg != "-") return resolve_start(arg, c);
  std::string text, line;
  while (std::getline(std::cin, line)) text += line + "\n";
  const auto tmp = std::filesystem::temp_directory_path() / ("tilespace-stdin-" + std::to_string(::getpid()));
  std::ofstream(tmp) << text;
  std::string s;
  try {
    s = resolve_start(tmp.string(), c);
  } catch (const InputError& e) {
    std::filesystem::remove(tmp);
    std::string msg = e.what();
    if (msg.rfind(tmp.string(), 0) == 0) msg = "standard input" + msg.substr(tmp.string().size());
    throw InputError(msg);
  }
  std::filesystem::remove(tmp);
  if (s == tmp.string()) throw InputError("standard input: no state given");
  c.source = "standard input";
  return s;
}

search::Limits solve_limits(const SolveFlags& f) {
  search::Limits l;
  l.max_nodes = f.max_nodes;
  l.max_seconds = f.max_seconds;
  l.max_bytes = f.max_memory.empty() ? default_memory_limit() : parse_bytes(f.max_memory);
  return l;
}

// ---- pattern databases ----

bool is_pdb(const std::string& heuristic) { return heuristic == "pdb" || heuristic.rfind("pdb:", 0) == 0; }

pdb::PdbStore make_pdb_store(const Common& c) {
  pdb::PdbStoreOptions o;
  o.dir = c.db;
  o.build.threads = c.threads;
  if (c.progress || ::isatty(STDERR_FILENO)) {
    o.build.on_layer = [](const LayerReport& r) {
      std::fprintf(stderr, "  cost %3d  %13llu placements  %13llu total  %8.2f s\n", r.depth,
                   static_cast<unsigned long long>(r.states), static_cast<unsigned long long>(r.total), r.seconds);
    };
  }
  o.note = [](const std::string& s) { std::fprintf(stderr, "tilespace: %s\n", s.c_str()); };
  return pdb::PdbStore(std::move(o));
}

// The partition from --heuristic pdb:SPEC or --pattern SPEC; plain "pdb" takes the board's
// largest stock partition.
pdb::Partition partition_for(const std::string& heuristic, const std::string& pattern, const State& goal) {
  std::string spec = heuristic.rfind("pdb:", 0) == 0 ? heuristic.substr(4) : "";
  if (!spec.empty() && !pattern.empty() && spec != pattern)
    throw InputError("give the pattern once: --heuristic " + heuristic + " or --pattern " + pattern);
  if (spec.empty()) spec = pattern;
  if (spec.empty()) {
    const Board& b = goal.board;
    spec = b.width() == 3 && b.height() == 3 ? "4-4" : b.width() == 4 && b.height() == 4 ? "7-8"
         : b.width() == 5 && b.height() == 5 ? "6-6-6-6" : "";
    if (spec.empty()) throw InputError("no stock partition for the " + b.name() + " board: give --pattern 1,2,3/4,5,6");
  }
  return pdb::parse_partition(spec, goal);
}

void check_pdb_algorithm(const std::string& algorithm) {
  if (!algorithm.empty() && algorithm != "idastar")
    throw InputError("pattern-database heuristics run with idastar, not '" + algorithm + "'");
}

// ---- solve ----

json result_json(const State& s, const State& goal, const std::string& algorithm, const std::string& heuristic,
                 const search::Result& r) {
  json j{{"board", s.board.name()}, {"start", tiles_json(s)}, {"goal", tiles_json(goal)},
         {"algorithm", algorithm}, {"solvable", !r.unreachable}, {"moves", r.moves},
         {"expanded", r.expanded}, {"generated", r.generated}, {"peak_open", r.peak_open},
         {"closed", r.closed}, {"peak_bytes", r.peak_bytes}, {"seconds", r.seconds}};
  j["heuristic"] = heuristic.empty() ? json(nullptr) : json(heuristic);
  j["length"] = r.solved ? json(r.length()) : json(nullptr);
  j["stopped"] = r.stopped == search::Stop::None ? json(nullptr) : json(search::stop_name(r.stopped));
  return j;
}

int solve_exit(const search::Result& r) {
  if (r.unreachable) return kExitUnreachable;
  if (r.stopped != search::Stop::None) return kExitResource;
  return r.solved ? kExitOk : kExitUnreachable;
}

// Prints one solve result (text or JSON), writes --result, plays --animate.
int report_solve(const Common& c, const Problem& p, const SolveFlags& f, const std::string& algorithm,
                 const std::string& heuristic, bool optimal, const search::Result& r, int depth_limit) {
  const State& s = *p.start;
  if (c.json) {
    json j = result_json(s, p.goal, algorithm, heuristic, r);
    json pj = json::array();
    for (const auto& st : r.path) pj.push_back(tiles_json(st));
    j["path"] = pj;
    if (!p.labels.names.empty() && !p.labels.numeric()) j["labels"] = p.labels.names;
    std::puts(j.dump().c_str());
  } else if (r.unreachable) {
    std::puts(c.lang == "zh" ? "目标状态不可达" : "unreachable");
  } else {
    if (r.solved && c.lang == "zh") {
      std::printf("%s移动%d步到达目标状态\n", optimal ? "最少" : "", r.length());
      std::printf("%s\n", r.moves.c_str());
    } else if (r.solved) {
      std::printf("%d moves: %s\n", r.length(), r.moves.c_str());
    } else if (r.stopped != search::Stop::None) {
      std::printf("stopped by --%s before a solution was found\n", search::stop_name(r.stopped));
    } else {
      std::printf("no solution within the depth limit %d\n", depth_limit);
    }
    std::printf("algorithm %s%s%s: expanded %llu, generated %llu, peak open %llu, closed %llu, peak memory %.1f KiB, %.6f s\n",
                algorithm.c_str(), heuristic.empty() ? "" : ", heuristic ", heuristic.c_str(),
                static_cast<unsigned long long>(r.expanded), static_cast<unsigned long long>(r.generated),
                static_cast<unsigned long long>(r.peak_open), static_cast<unsigned long long>(r.closed),
                static_cast<double>(r.peak_bytes) / 1024.0, r.seconds);
    if (f.animate) {
      std::puts("");
      animate(r.path, p.labels, f.delay_ms);
    } else {
      for (std::size_t i = 0; i < r.path.size(); ++i) {
        std::printf("\n%zu%s\n", i, i == 0 ? " (start)" : i + 1 == r.path.size() ? " (goal)" : "");
        print_board(r.path[i], p.labels);
      }
    }
  }
  if (!f.result.empty() && r.solved) write_result(f.result, r.path, p.labels);
  return solve_exit(r);
}

int cmd_solve_pdb(Common& c, const Problem& p, const SolveFlags& f) {
  check_pdb_algorithm(f.algorithm);
  const pdb::Partition part = partition_for(f.heuristic, f.pattern, p.goal);
  pdb::PdbStore store = make_pdb_store(c);
  const auto t0 = std::chrono::steady_clock::now();
  const pdb::PdbHeuristic h = pdb::make_heuristic(store, p.goal, part);
  const double load = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!c.json && (c.progress || ::isatty(STDERR_FILENO)))
    std::fprintf(stderr, "tilespace: pattern databases %s%s ready in %.3f s\n", part.name.c_str(),
                 h.reflects() ? " (+ reflection)" : "", load);
  const search::Result r = pdb::solve_idastar(*p.start, h, solve_limits(f));
  return report_solve(c, p, f, "idastar", "pdb:" + part.name, true, r, 0);
}

int cmd_solve_batch(Common& c, const SolveFlags& f);

int cmd_solve(Common& c, const std::string& start_arg, const SolveFlags& f) {
  if (!f.batch.empty()) {
    if (!start_arg.empty()) throw InputError("give either START or --batch FILE, not both");
    return cmd_solve_batch(c, f);
  }
  const std::string start_text = read_start(start_arg, c);
  Problem p = read_problem(c, start_text);
  if (is_pdb(f.heuristic) || !f.pattern.empty()) return cmd_solve_pdb(c, p, f);
  if (!is_packed(p.start->board) && f.algorithm.empty()) {  // 5x5: only pattern databases can solve it
    SolveFlags g = f;
    g.heuristic = "pdb";
    return cmd_solve_pdb(c, p, g);
  }
  const State& s = *p.start;
  search::SolveOptions o;
  o.algorithm = f.algorithm;
  if (o.algorithm.empty()) {  // the exact table where one can exist, else IDA*
    try {
      DistanceTable::check_fits(s.board);
      o.algorithm = "table";
    } catch (const ResourceError&) {
      o.algorithm = "idastar";
    }
  }
  o.heuristic = f.heuristic;
  o.weight = f.weight;
  o.depth_limit = f.depth_limit;
  o.limits = solve_limits(f);
  const search::AlgorithmInfo* alg = search::find_algorithm(o.algorithm);
  if (!alg) throw InputError("unknown algorithm '" + o.algorithm + "' (table, bfs, bibfs, dfs, iddfs, greedy, astar, wastar, idastar)");
  if (alg->uses_heuristic && !search::find_heuristic(o.heuristic))
    throw InputError("unknown heuristic '" + o.heuristic + "' (see tilespace solve --help)");
  TableStore store = make_store(c);
  if (solvable(s, p.goal) && (o.algorithm == "table" || (alg->uses_heuristic && o.heuristic == "exact")))
    o.table = &store.table(p.goal.board, p.goal.blank);
  const search::Result r = search::solve(s, p.goal, o);
  const bool optimal = alg->optimal && (!alg->uses_heuristic || search::find_heuristic(o.heuristic)->admissible);
  return report_solve(c, p, f, o.algorithm, alg->uses_heuristic ? o.heuristic : "", optimal, r, o.depth_limit);
}

// ---- solve --batch: many instances in parallel, one JSON line each, in input order ----

struct BatchInstance {
  int line = 0;
  std::optional<State> start, goal;
  std::optional<int> expected;  // a length after a TAB, as in Korf's lists
  std::string error;
  search::Result result;
};

// Lines: START [GOAL] [<TAB> expected length]; '#' comments and blank lines are skipped.
std::vector<BatchInstance> read_solve_batch(const std::string& file, const Common& c) {
  std::ifstream in_file;
  std::istream* in = &std::cin;
  if (file != "-") {
    in_file.open(file);
    if (!in_file) throw InputError("cannot read " + file);
    in = &in_file;
  }
  std::optional<Board> board = board_option(c);
  std::optional<State> default_goal;
  if (!c.goal.empty()) default_goal = parse_state(c.goal, board);
  std::vector<BatchInstance> out;
  std::string line;
  for (int n = 1; std::getline(*in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    BatchInstance b;
    b.line = n;
    try {
      std::string states = line;
      if (const auto tab = line.find('\t', first); tab != std::string::npos && line.find_first_not_of(" \t", tab) != std::string::npos) {
        const std::string rest = line.substr(tab + 1);
        std::size_t used = 0;
        int v = -1;
        try {
          v = std::stoi(rest, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used > 0 && rest.find_first_not_of(" \t", used) == std::string::npos) {
          if (v < 0) throw InputError("bad expected length '" + rest + "'");
          b.expected = v;
          states = line.substr(0, tab);
        }
      }
      std::istringstream words(states);
      std::vector<std::string> tok{std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
      auto join = [&](std::size_t from, std::size_t to) {
        std::string t;
        for (std::size_t i = from; i < to; ++i) t += tok[i] + " ";
        return t;
      };
      std::optional<Board> b_here = board;
      if (!b_here) {  // from the token count: N (start) or 2N (start and goal) for a square board
        for (int k = 2; k * k <= kMaxBoardCells; ++k)
          if (tok.size() == static_cast<std::size_t>(k * k) || tok.size() == static_cast<std::size_t>(2 * k * k))
            b_here = Board(k, k);
      }
      const std::size_t cells = b_here ? static_cast<std::size_t>(b_here->cells()) : tok.size();
      if (tok.size() == 2 * cells) {
        b.start = parse_state(join(0, cells), b_here);
        b.goal = parse_state(join(cells, tok.size()), b_here);
      } else {
        b.start = parse_state(states, b_here);
        b.goal = default_goal ? *default_goal : canonical_goal(b.start->board, b.start->cells() - 1);
      }
      if (!(b.start->board == b.goal->board)) throw InputError("the start and the goal are on different boards");
    } catch (const InputError& e) {
      b.error = e.what();
    }
    out.push_back(std::move(b));
  }
  return out;
}

int cmd_solve_batch(Common& c, const SolveFlags& f) {
  std::vector<BatchInstance> items = read_solve_batch(f.batch, c);
  const bool use_pdb = is_pdb(f.heuristic) || !f.pattern.empty();
  std::string algorithm = f.algorithm.empty() ? "idastar" : f.algorithm;
  if (use_pdb) check_pdb_algorithm(f.algorithm);
  const search::AlgorithmInfo* alg = search::find_algorithm(algorithm);
  if (!alg) throw InputError("unknown algorithm '" + algorithm + "'");
  if (!use_pdb && alg->uses_heuristic && !search::find_heuristic(f.heuristic))
    throw InputError("unknown heuristic '" + f.heuristic + "' (see tilespace solve --help)");

  // Everything shared is prepared first, in order: databases per goal (pattern databases or
  // distance tables), so the parallel part only reads.
  const auto t0 = std::chrono::steady_clock::now();
  pdb::PdbStore pdbs = make_pdb_store(c);
  TableStore tables = make_store(c);
  std::map<std::string, std::shared_ptr<const pdb::PdbHeuristic>> heuristics;
  std::map<std::string, const DistanceTable*> goal_tables;
  std::string heuristic_name = alg->uses_heuristic || use_pdb ? f.heuristic : "";
  for (auto& it : items) {
    if (!it.error.empty()) continue;
    const std::string key = it.goal->board.name() + it.goal->to_string();
    try {
      if (use_pdb && !heuristics.count(key)) {
        const pdb::Partition part = partition_for(f.heuristic, f.pattern, *it.goal);
        heuristic_name = "pdb:" + part.name;
        heuristics[key] = std::make_shared<const pdb::PdbHeuristic>(pdb::make_heuristic(pdbs, *it.goal, part));
      }
      if (!use_pdb && (algorithm == "table" || heuristic_name == "exact") && !goal_tables.count(key))
        goal_tables[key] = &tables.table(it.goal->board, it.goal->blank);
    } catch (const InputError& e) {
      it.error = e.what();
    }
  }
  const double load = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const search::Limits limits = solve_limits(f);
  std::mutex out_mutex;
  std::size_t printed = 0;
  std::vector<char> done(items.size(), 0);
  auto line_json = [&](const BatchInstance& it) {
    if (!it.error.empty()) return json{{"line", it.line}, {"error", it.error}};
    json j = result_json(*it.start, *it.goal, algorithm, heuristic_name, it.result);
    j["line"] = it.line;
    if (it.expected) {
      j["expected"] = *it.expected;
      j["matches"] = it.result.solved && it.result.length() == *it.expected;
    }
    return j;
  };
  const auto t1 = std::chrono::steady_clock::now();
  const int threads = c.threads > 0 ? c.threads : static_cast<int>(std::thread::hardware_concurrency());
  tbb::task_arena arena(std::max(1, threads));
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, items.size(), [&](std::size_t i) {
      BatchInstance& it = items[i];
      if (it.error.empty()) {
        const std::string key = it.goal->board.name() + it.goal->to_string();
        try {
          if (use_pdb) {
            it.result = pdb::solve_idastar(*it.start, *heuristics.at(key), limits);
          } else {
            search::SolveOptions o;
            o.algorithm = algorithm;
            o.heuristic = f.heuristic;
            o.weight = f.weight;
            o.depth_limit = f.depth_limit;
            o.limits = limits;
            if (const auto t = goal_tables.find(key); t != goal_tables.end()) o.table = t->second;
            it.result = search::solve(*it.start, *it.goal, o);
          }
        } catch (const InputError& e) {
          it.error = e.what();
        }
      }
      // Print every finished line that has no unfinished line before it.
      const std::lock_guard lock(out_mutex);
      done[i] = 1;
      for (; printed < items.size() && done[printed]; ++printed) {
        std::puts(line_json(items[printed]).dump().c_str());
      }
      std::fflush(stdout);
    });
  });
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();

  std::uint64_t solved = 0, generated = 0, expanded = 0, bad = 0, unreachable = 0, stopped = 0, mismatched = 0;
  long long lengths = 0;
  for (const auto& it : items) {
    if (!it.error.empty()) {
      ++bad;
      continue;
    }
    generated += it.result.generated;
    expanded += it.result.expanded;
    unreachable += it.result.unreachable;
    stopped += it.result.stopped != search::Stop::None;
    if (it.result.solved) {
      ++solved;
      lengths += it.result.length();
    }
    mismatched += it.expected && !(it.result.solved && it.result.length() == *it.expected);
  }
  std::fprintf(stderr,
               "tilespace: %zu instances: %llu solved (lengths sum %lld), %llu unreachable, %llu stopped, %llu bad, "
               "%llu not the expected length; expanded %llu, generated %llu; databases %.3f s, solving %.3f s on %d threads\n",
               items.size(), static_cast<unsigned long long>(solved), lengths, static_cast<unsigned long long>(unreachable),
               static_cast<unsigned long long>(stopped), static_cast<unsigned long long>(bad),
               static_cast<unsigned long long>(mismatched), static_cast<unsigned long long>(expanded),
               static_cast<unsigned long long>(generated), load, wall, threads);
  if (bad) return kExitInput;
  if (stopped) return kExitResource;
  if (mismatched || unreachable) return kExitUnreachable;
  return kExitOk;
}

// ---- the solver lab: verify and compare ----

struct LabFlags {
  std::string algorithms, suite;
  std::uint64_t sample = 0, seed = 1;
  bool csv = false, md = false;
  double max_seconds = 0;
  std::uint64_t max_nodes = 0;
};

int cmd_verify(Common& c, const LabFlags& f) {
  Problem p = read_problem(c, "");
  TableStore store = make_store(c);
  const DistanceTable& t = store.table(p.goal.board, p.goal.blank);
  const auto combos = f.algorithms.empty() ? search::admissible_combos() : search::parse_combos(f.algorithms);
  std::vector<std::uint64_t> ranks;
  if (f.sample > 0 && f.sample < t.ranker().size()) {
    std::mt19937_64 rng(f.seed);
    std::uniform_int_distribution<std::uint64_t> pick(0, t.ranker().size() - 1);
    for (std::uint64_t i = 0; i < f.sample; ++i) ranks.push_back(pick(rng));
  } else {
    ranks.resize(t.ranker().size());
    std::iota(ranks.begin(), ranks.end(), std::uint64_t{0});
  }
  search::SolveOptions base;
  base.limits.max_nodes = f.max_nodes;
  base.limits.max_seconds = f.max_seconds;
  base.limits.max_bytes =
      default_memory_limit() / (c.threads > 0 ? static_cast<unsigned>(c.threads) : std::max(1u, std::thread::hardware_concurrency()));
  bool all_ok = true;
  json out = json::array();
  if (!c.json)
    std::printf("%-30s %8s %9s %9s %8s %8s %7s %7s %14s %9s\n", "solver", "optimal?", "states", "optimal", "longer",
                "excess", "failed", "stopped", "expanded", "seconds");
  for (const auto& combo : combos) {
    const search::VerifyReport r = search::verify(t, p.goal, combo, ranks, base, c.threads);
    all_ok = all_ok && r.ok();
    if (c.json) {
      out.push_back({{"solver", combo.name()}, {"claims_optimal", r.claims_optimal}, {"states", r.states},
                     {"optimal", r.optimal}, {"longer", r.longer}, {"total_excess", r.total_excess},
                     {"max_excess", r.max_excess}, {"failed", r.failed}, {"stopped", r.stopped},
                     {"expanded", r.expanded}, {"generated", r.generated}, {"seconds", r.seconds}, {"ok", r.ok()}});
    } else {
      char excess[32];
      std::snprintf(excess, sizeof excess, "%llu/%llu", static_cast<unsigned long long>(r.total_excess),
                    static_cast<unsigned long long>(r.max_excess));
      std::printf("%-30s %8s %9llu %9llu %8llu %8s %7llu %7llu %14llu %9.2f%s\n", combo.name().c_str(),
                  r.claims_optimal ? "yes" : "no", static_cast<unsigned long long>(r.states),
                  static_cast<unsigned long long>(r.optimal), static_cast<unsigned long long>(r.longer), excess,
                  static_cast<unsigned long long>(r.failed), static_cast<unsigned long long>(r.stopped),
                  static_cast<unsigned long long>(r.expanded), r.seconds, r.ok() ? "" : "  FAILED");
      std::fflush(stdout);
    }
  }
  if (c.json) std::puts(out.dump().c_str());
  else std::printf("%s\n", all_ok ? "verified: every path legal, every optimal solver optimal"
                                   : "verification FAILED");
  return all_ok ? kExitOk : kExitUnreachable;
}

// One compared run, for the table.
struct Row {
  std::string instance, solver;
  search::Result r;
  std::optional<int> optimal;  // from the table, where the board has one
};

std::string fixed(double v, int digits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

// A suite file: one "START GOAL" a line (2N tiles, or two compact tokens); '#' starts a comment.
std::vector<std::pair<State, State>> read_suite(const std::string& path, const std::optional<Board>& board) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot read suite " + path);
  std::vector<std::pair<State, State>> instances;
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    line.erase(std::min(line.find('#'), line.size()));
    std::istringstream words(line);
    std::vector<std::string> toks;
    for (std::string w; words >> w;) toks.push_back(w);
    if (toks.empty()) continue;
    auto join = [&](std::size_t a, std::size_t b) {
      std::string j;
      for (std::size_t k = a; k < b; ++k) j += toks[k] + " ";
      return j;
    };
    try {
      if (toks.size() % 2 != 0) throw InputError("expected a start and a goal of the same size");
      const std::size_t half = toks.size() / 2;
      const State start = parse_state(join(0, half), board);
      instances.emplace_back(start, parse_state(join(half, toks.size()), start.board));
    } catch (const InputError& e) {
      throw InputError(path + ": line " + std::to_string(no) + ": " + e.what());
    }
  }
  if (instances.empty()) throw InputError(path + ": no instances");
  return instances;
}

int cmd_compare(Common& c, const std::string& start_arg, const LabFlags& f) {
  std::vector<std::pair<State, State>> instances;
  if (!f.suite.empty()) {
    instances = read_suite(f.suite, board_option(c));
  } else {
    const std::string start_text = read_start(start_arg, c);
    Problem p = read_problem(c, start_text);
    instances.emplace_back(*p.start, p.goal);
  }
  const std::string default_list =
      "bfs,bibfs,dfs,iddfs,greedy:manhattan,astar:misplaced,astar:manhattan,astar:linear-conflict,"
      "astar:inversions,astar:misplaced-inversions,wastar:manhattan,idastar:manhattan";
  const auto combos = search::parse_combos(f.algorithms.empty() ? default_list : f.algorithms);
  search::SolveOptions base;
  base.limits.max_seconds = f.max_seconds > 0 ? f.max_seconds : 10.0;
  base.limits.max_nodes = f.max_nodes;
  base.limits.max_bytes = default_memory_limit();
  TableStore store = make_store(c);
  std::vector<Row> rows;
  for (const auto& [st, gl] : instances) {
    std::optional<int> opt;
    const DistanceTable* table = nullptr;
    bool has_table = is_packed(st.board);
    try {
      if (has_table) DistanceTable::check_fits(st.board);
    } catch (const ResourceError&) {
      has_table = false;
    }
    if (has_table && solvable(st, gl)) {
      table = &store.table(gl.board, gl.blank);
      opt = table->distance(st, gl);
    }
    for (const auto& combo : combos) {
      search::SolveOptions o = base;
      o.table = table;
      search::Solver solver(combo, gl, o);
      rows.push_back({st.to_string() + " -> " + gl.to_string(), combo.name(), solver.run(st), opt});
    }
  }
  auto length = [](const Row& r) {
    return r.r.unreachable ? std::string("unreachable") : r.r.solved ? std::to_string(r.r.length())
                                                          : r.r.stopped != search::Stop::None ? std::string("stopped")
                                                                                               : std::string("none");
  };
  auto optimal = [](const Row& r) {
    if (r.r.unreachable) return std::string("-");
    if (!r.optimal || !r.r.solved) return std::string("?");
    return std::string(r.r.length() == *r.optimal ? "yes" : "no");
  };
  if (c.json) {
    json out = json::array();
    for (const auto& r : rows)
      out.push_back({{"instance", r.instance}, {"solver", r.solver},
                     {"length", r.r.solved ? json(r.r.length()) : json(nullptr)},
                     {"optimal_length", r.optimal ? json(*r.optimal) : json(nullptr)},
                     {"optimal", r.optimal && r.r.solved ? json(r.r.length() == *r.optimal) : json(nullptr)},
                     {"unreachable", r.r.unreachable},
                     {"stopped", r.r.stopped == search::Stop::None ? json(nullptr) : json(search::stop_name(r.r.stopped))},
                     {"expanded", r.r.expanded}, {"generated", r.r.generated}, {"peak_bytes", r.r.peak_bytes},
                     {"seconds", r.r.seconds}});
    std::puts(out.dump().c_str());
    return kExitOk;
  }
  const std::vector<std::string> head{"instance", "solver", "length", "optimal", "expanded", "generated", "peak KiB", "seconds"};
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows)
    cells.push_back({r.instance, r.solver, length(r), optimal(r), std::to_string(r.r.expanded), std::to_string(r.r.generated),
                     fixed(static_cast<double>(r.r.peak_bytes) / 1024.0, 1), fixed(r.r.seconds, 6)});
  if (f.csv) {
    auto quote = [](const std::string& v) { return v.find_first_of(",\"") == std::string::npos ? v : "\"" + v + "\""; };
    for (std::size_t i = 0; i < head.size(); ++i) std::printf("%s%s", i ? "," : "", head[i].c_str());
    std::puts("");
    for (const auto& row : cells) {
      for (std::size_t i = 0; i < row.size(); ++i) std::printf("%s%s", i ? "," : "", quote(row[i]).c_str());
      std::puts("");
    }
    return kExitOk;
  }
  std::vector<std::size_t> width(head.size());
  for (std::size_t i = 0; i < head.size(); ++i) width[i] = head[i].size();
  for (const auto& row : cells)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line = f.md ? "|" : "";
    for (std::size_t i = 0; i < row.size(); ++i) {
      const bool right = i >= 2;
      std::string cell = row[i];
      const std::string pad(width[i] - cell.size(), ' ');
      cell = right ? pad + cell : cell + pad;
      line += f.md ? " " + cell + " |" : (i ? "  " : "") + cell;
    }
    std::puts(line.c_str());
  };
  print_row(head);
  if (f.md) {
    std::string sep = "|";
    for (std::size_t i = 0; i < head.size(); ++i) sep += (i >= 2 ? " " + std::string(width[i] - 1, '-') + ": |" : " " + std::string(width[i], '-') + " |");
    std::puts(sep.c_str());
  }
  for (const auto& row : cells) print_row(row);
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tilespace: exhaustive state spaces and optimal solutions of sliding-tile puzzles"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tilespace 0.1.0");
  app.footer("Exit codes: 0 ok, 1 unreachable, 2 usage or input error, 3 database file error, 4 out of memory or a search limit hit.");

  Common c;
  bool all_goals = false;
  std::string start, batch;

  auto* build = app.add_subcommand("build", "Build distance databases into the database folder");
  add_common(build, c);
  build->add_flag("--all-goals", all_goals, "One table per blank cell: every (start, goal) pair");

  auto* query = app.add_subcommand("query", "Print the optimal number of moves from START to the goal");
  query->add_option("start", start, "Start state, e.g. '1 2 3 4 5 6 7 8 0' or 123456780, or a file");
  add_common(query, c);
  query->add_option("--batch", batch, "Answer one 'START [GOAL]' a line from FILE ('-' for stdin)");
  query->add_option("--lang", c.lang, "Messages in en or zh")->check(CLI::IsMember({"en", "zh"}));

  auto* stats = app.add_subcommand("stats", "Depth histogram, radius, mean and farthest states");
  add_common(stats, c);
  stats->add_flag("--all-goals", all_goals, "Also the longest optimal solution between any two states");

  SolveFlags sf;
  auto* solve = app.add_subcommand("solve", "Solve one instance with a chosen algorithm and heuristic");
  solve->add_option("start", start, "Start state, a file with the start (and goal), or - / nothing for stdin");
  add_common(solve, c);
  solve->add_option("--algorithm,-a", sf.algorithm,
                    "table (default where a table fits), bfs, bibfs, dfs, iddfs, greedy, astar, wastar, idastar");
  solve->add_option("--heuristic", sf.heuristic,
                    "misplaced, manhattan (default), linear-conflict, inversions, inversions-weighted, "
                    "misplaced-inversions, misplaced-shared-pairs, index-distance, exact; or pattern databases: "
                    "pdb:7-8, pdb:6-6-3, pdb:5-5-5 (4x4), pdb:6-6-6-6 (5x5), pdb:4-4 (3x3), pdb:1,2,3/4,5,6 (with idastar)");
  solve->add_option("--pattern", sf.pattern, "Pattern-database partition: a stock name or tiles, e.g. 1,2,3,4,5,6,7/8,9,10,11,12,13,14,15");
  solve->add_option("--batch", sf.batch,
                    "Solve every 'START [GOAL] [<TAB>expected length]' line of FILE ('-' for stdin) in parallel over "
                    "--threads; one JSON line each, in order");
  solve->add_option("--weight", sf.weight, "wastar: f = g + weight*h (default 2)")->check(CLI::Range(1.0, 100.0));
  solve->add_option("--depth-limit", sf.depth_limit, "dfs: depth limit; iddfs: largest limit (default 50)")
      ->check(CLI::Range(0, 1000));
  solve->add_option("--max-nodes", sf.max_nodes, "Stop after this many expansions (exit 4)");
  solve->add_option("--max-seconds", sf.max_seconds, "Stop after this many seconds (exit 4)")->check(CLI::PositiveNumber);
  solve->add_option("--max-memory", sf.max_memory,
                    "Stop when search structures exceed this (e.g. 512M; default 3/4 of memory; exit 4)");
  solve->add_option("--result", sf.result, "Write every board from start to goal to this file (result.txt)");
  solve->add_flag("--animate", sf.animate, "Play the solution in the terminal, board by board");
  solve->add_option("--delay", sf.delay_ms, "Milliseconds between boards with --animate")->check(CLI::Range(0, 10000));
  solve->add_option("--lang", c.lang, "Messages in en or zh")->check(CLI::IsMember({"en", "zh"}));

  if (argc > 1 && argv[1][0] != '-') {
    const std::string sub = argv[1];
    if (sub != "build" && sub != "query" && sub != "stats" && sub != "solve" && sub != "verify" && sub != "compare") {
      std::fprintf(stderr,
                   "tilespace: error: unknown subcommand '%s' (build, query, stats, solve, verify, compare; see --help)\n",
                   sub.c_str());
      return kExitInput;
    }
  }
  LabFlags lf;
  auto* verify = app.add_subcommand("verify", "Check solvers against the exhaustive table on every (or a sample of) state");
  add_common(verify, c);
  verify->add_option("--algorithms", lf.algorithms,
                     "Solvers, e.g. bfs,astar:manhattan,idastar:linear-conflict (default: every optimal combination)");
  verify->add_option("--sample", lf.sample, "Check this many random states instead of all");
  verify->add_option("--seed", lf.seed, "Seed of the sample")->capture_default_str();
  verify->add_option("--max-nodes", lf.max_nodes, "Per-instance expansion limit");
  verify->add_option("--max-seconds", lf.max_seconds, "Per-instance time limit")->check(CLI::PositiveNumber);

  auto* compare = app.add_subcommand("compare", "Run algorithms x heuristics on one instance or a suite; print a table");
  compare->add_option("start", start, "Start state (or a file with start and goal)");
  add_common(compare, c);
  compare->add_option("--suite", lf.suite, "File of 'START GOAL' lines (e.g. tools/suites/8puzzle-assignment.txt)");
  compare->add_option("--algorithms", lf.algorithms, "Solvers, e.g. bfs,astar:manhattan,idastar:linear-conflict");
  compare->add_option("--max-seconds", lf.max_seconds, "Per-run time limit (default 10)")->check(CLI::PositiveNumber);
  compare->add_option("--max-nodes", lf.max_nodes, "Per-run expansion limit");
  auto* csv = compare->add_flag("--csv", lf.csv, "Print CSV");
  auto* md = compare->add_flag("--md", lf.md, "Print a Markdown table");
  csv->excludes(md);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    std::replace(msg.begin(), msg.end(), '\n', ' ');
    std::fprintf(stderr, "tilespace: error: %s (see --help)\n", msg.c_str());
    return kExitInput;
  }
  try {
    if (build->parsed()) return cmd_build(c, all_goals);
    if (query->parsed()) {
      if (!batch.empty() && !start.empty()) throw InputError("give either START or --batch FILE, not both");
      return batch.empty() ? cmd_query(c, start) : cmd_batch(c, batch);
    }
    if (stats->parsed()) return cmd_stats(c, all_goals);
    if (solve->parsed()) return cmd_solve(c, start, sf);
    if (verify->parsed()) return cmd_verify(c, lf);
    if (compare->parsed()) return cmd_compare(c, start, lf);
  } catch (const InputError& e) {
    std::fprintf(stderr, "tilespace: error: %s\n", e.what());
    return kExitInput;
  } catch (const DataError& e) {
    std::fprintf(stderr, "tilespace: database error: %s\n", e.what());
    return kExitData;
  } catch (const ResourceError& e) {
    std::fprintf(stderr, "tilespace: out of resources: %s\n", e.what());
    return kExitResource;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "tilespace: out of resources: out of memory\n");
    return kExitResource;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilespace: error: %s\n", e.what());
    return kExitInput;
  }
  return kExitInput;
}
