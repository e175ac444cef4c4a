// `tilespace solve`: one instance with a chosen algorithm and heuristic (the exact table, the
// search lab, or pattern databases with IDA*), or `solve --batch`: many instances in parallel.
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/report.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/pdb/solver.hpp"
#include "tilespace/search/heuristics.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::cli {

using nlohmann::json;

namespace {

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
  o.build.on_layer = layer_progress(c, "cost", "placements");
  o.note = note_on_stderr;
  return pdb::PdbStore(std::move(o));
}

// The partition from --heuristic pdb:SPEC or --pattern SPEC; plain "pdb" takes the strongest
// stock partition at hand or quick to build (pdb::choose_partition).
pdb::Partition partition_for(const std::string& heuristic, const std::string& pattern, const State& goal,
                             const pdb::PdbStore& store) {
  std::string spec = heuristic.rfind("pdb:", 0) == 0 ? heuristic.substr(4) : "";
  if (!spec.empty() && !pattern.empty() && spec != pattern)
    throw InputError("give the pattern once: --heuristic " + heuristic + " or --pattern " + pattern);
  if (spec.empty()) spec = pattern;
  if (spec.empty()) return pdb::choose_partition(store, goal);
  return pdb::parse_partition(spec, goal);
}

void check_pdb_algorithm(const std::string& algorithm) {
  if (!algorithm.empty() && algorithm != "idastar")
    throw InputError("pattern-database heuristics run with idastar, not '" + algorithm + "'");
}

// ---- solve ----

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
    j["path"] = path_json(r);
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
  pdb::PdbStore store = make_pdb_store(c);
  const pdb::Partition part = partition_for(f.heuristic, f.pattern, p.goal, store);
  const auto t0 = std::chrono::steady_clock::now();
  const pdb::PdbHeuristic h = pdb::make_heuristic(store, p.goal, part);
  const double load = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!c.json && (c.progress || ::isatty(STDERR_FILENO)))
    std::fprintf(stderr, "tilespace: pattern databases %s%s ready in %.3f s\n", part.name.c_str(),
                 h.reflects() ? " (+ reflection)" : "", load);
  const search::Result r = pdb::solve_idastar(*p.start, h, solve_limits(f));
  return report_solve(c, p, f, "idastar", "pdb:" + part.name, true, r, 0);
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
        const pdb::Partition part = partition_for(f.heuristic, f.pattern, *it.goal, pdbs);
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

}  // namespace

int cmd_solve(Common& c, const std::string& start_arg, const SolveFlags& f) {
  if (!f.batch.empty()) {
    if (!start_arg.empty()) throw InputError("give either START or --batch FILE, not both");
    if (!f.trace.empty()) throw InputError("--trace records one search: give START, not --batch");
    return cmd_solve_batch(c, f);
  }
  const std::string start_text = read_start(start_arg, c);
  Problem p = read_problem(c, start_text);
  const bool pdb_search = is_pdb(f.heuristic) || !f.pattern.empty() || (!is_packed(p.start->board) && f.algorithm.empty());
  if (pdb_search && !f.trace.empty())
    throw InputError("--trace records the search algorithms on boards of up to 16 cells, not pattern-database searches");
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
  std::optional<search::Trace> trace;
  if (!f.trace.empty()) {
    trace.emplace(f.trace_limit);
    o.trace = &*trace;
  }
  const search::Result r = search::solve(s, p.goal, o);
  if (trace) {
    // Exact distances along the path when the goal's table is at hand (built, or small to build).
    const DistanceTable* t = o.table;
    if (!t && solvable(s, p.goal) && s.board.cells() <= 10) t = &store.table(p.goal.board, p.goal.blank);
    json j = solve_json(s, p.goal, o.algorithm, alg->uses_heuristic ? o.heuristic : "", r, t);
    add_trace_json(j, *trace, s.board);
    write_file_atomic(f.trace, j.dump());
  }
  const bool optimal = alg->optimal && (!alg->uses_heuristic || search::find_heuristic(o.heuristic)->admissible);
  return report_solve(c, p, f, o.algorithm, alg->uses_heuristic ? o.heuristic : "", optimal, r, o.depth_limit);
}

}  // namespace tilespace::cli
