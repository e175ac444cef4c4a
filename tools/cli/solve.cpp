// `tilespace solve`: one instance with a chosen algorithm and heuristic (the exact table, the
// search lab, or pattern databases with IDA*), or `solve --batch`: many instances in parallel.
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
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

#include "app/report.hpp"
#include "app/solve.hpp"
#include "cli/commands.hpp"
#include "cli/messages.hpp"
#include "cli/terminal.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/pdb/heuristic.hpp"
#include "tilespace/search/automaton.hpp"
#include "tilespace/search/heuristics.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::cli {

using nlohmann::json;

namespace {

int solve_exit(const search::Result& r) {
  if (r.unreachable) return kExitUnreachable;
  if (r.solved) return kExitOk;
  return kExitResource;  // a limit (--max-nodes, --max-seconds, --max-memory, --depth-limit) ended it
}

// The line that says why there is no path: "unreachable", "stopped by --max-nodes ...".
std::string no_path_line(const Messages& m, const search::Result& r, const search::SolvePlan& plan) {
  if (r.unreachable) return m.get("unreachable");
  return m.stopped(search::stop_name(r.stopped), r.stopped == search::Stop::Depth ? std::to_string(plan.depth_limit) : "");
}

// Prints one solve result (text or JSON), writes --result, plays --animate.
int report_solve(const Common& c, const Problem& p, const SolveFlags& f, const search::SolvePlan& plan,
                 const std::string& heuristic, const search::Result& r) {
  const Messages m(c.lang);
  // The result file first: it always describes this run, whatever is printed.
  if (!f.result.empty())
    write_result(f.result, r.solved ? r.path : std::vector<State>{}, p.labels, no_path_line(m, r, plan));
  if (c.json) {
    std::puts(solve_answer_json(p, plan.algorithm, heuristic, r).dump().c_str());
    return solve_exit(r);
  }
  if (r.unreachable) {
    std::puts(m.get("unreachable").c_str());
    return solve_exit(r);
  }
  std::puts((r.solved ? m.solved(r.length(), plan.optimal, r.moves) : no_path_line(m, r, plan)).c_str());
  std::puts(m.search_statistics(plan.algorithm, heuristic, r.expanded, r.generated, r.peak_open, r.closed,
                                static_cast<double>(r.peak_bytes) / 1024.0, r.seconds)
                .c_str());
  if (f.animate) {
    std::puts("");
    animate(r.path, p.labels, f.delay_ms, m.zh());
  } else {
    for (std::size_t i = 0; i < r.path.size(); ++i) {
      std::printf("\n%s\n", m.step_label(i, r.path.size() - 1).c_str());
      print_board(r.path[i], p.labels);
    }
  }
  return solve_exit(r);
}

// ---- solve --batch: many instances in parallel, one JSON line each, in input order ----

struct BatchInstance {
  int line = 0;
  std::optional<State> start, goal;
  std::optional<int> expected;  // a length after a TAB, as in Korf's lists
  std::string error;
  search::Result result;
};

// Lines: START [GOAL] [<TAB> expected length], in the grammar of problem.hpp (comments, blank
// lines, a byte-order mark and CRLF accepted). A bad line is kept with its error, reported in order.
std::vector<BatchInstance> read_solve_batch(const std::string& file, const Common& c) {
  const InputText input = read_input(file);
  const std::optional<Board> board = board_option(c);
  const std::optional<State> default_goal = goal_option(c);
  std::vector<BatchInstance> out;
  for_each_content_line(input.text, [&](std::string_view line, std::uint64_t n) {
    BatchInstance b;
    b.line = static_cast<int>(n);
    try {
      std::string_view states = line;
      if (const auto tab = line.find('\t'); tab != std::string_view::npos && !blank_line(line.substr(tab + 1))) {
        std::string_view rest = line.substr(tab + 1);
        while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
        while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.remove_suffix(1);
        if (!rest.empty() && rest.find_first_not_of("0123456789") == std::string_view::npos) {
          b.expected = static_cast<int>(parse_whole("expected length", rest, 0, 100000));
          states = line.substr(0, tab);
        }
      }
      LinePair pair = parse_line_pair(states, board ? board : (default_goal ? std::optional<Board>(default_goal->board) : std::nullopt));
      b.start = pair.start;
      if (pair.goal) require_given_goal(*pair.goal, default_goal);  // a goal of its own repeats --goal, if given
      b.goal = pair.goal ? *pair.goal : default_goal ? *default_goal : canonical_goal(b.start->board, b.start->cells() - 1);
      if (!(b.start->board == b.goal->board)) throw InputError("the start and the goal are on different boards");
    } catch (const InputError& e) {
      b.error = e.what();
    }
    out.push_back(std::move(b));
  });
  return out;
}

int cmd_solve_batch(Common& c, const SolveFlags& f) {
  std::vector<BatchInstance> items = read_solve_batch(f.batch, c);
  // An input without a line to solve is an error, as in query --batch, check and compare --suite.
  if (items.empty()) throw InputError(InputError::About::file, "no instances in it", f.batch == "-" ? "standard input" : f.batch);
  // One plan per board (the lines may be on different boards when no --board is given); the
  // options are checked before anything is solved, even without a valid line.
  SearchSources sources(c);
  std::map<std::string, search::SolvePlan> plans;
  auto plan_for = [&](const Board& b) -> const search::SolvePlan& {
    auto it = plans.find(b.name());
    if (it == plans.end()) {
      search::PlanContext ctx = default_plan_context();
      ctx.board = b;
      ctx.table_available = sources.table_at_hand(b, b.cells() - 1, request_metric(f.request));
      it = plans.emplace(b.name(), search::plan_solve(f.request, ctx)).first;
    }
    return it->second;
  };
  const std::optional<Board> board = board_option(c);
  plan_for(board.value_or(items.empty() || items[0].error.size() ? Board(3, 3) : items[0].start->board));

  // Everything shared is prepared first, in order: databases per goal (pattern databases,
  // distance tables, the automaton), so the parallel part only reads.
  const auto t0 = std::chrono::steady_clock::now();
  std::map<std::string, search::SolveOptions> options;  // per goal
  std::map<std::string, std::string> heuristic_names;
  for (auto& it : items) {
    if (!it.error.empty()) continue;
    const std::string key = it.goal->board.name() + it.goal->to_string();
    if (options.count(key)) continue;
    try {
      const search::SolvePlan& plan = plan_for(it.goal->board);
      search::SolveOptions o = search::solve_options(plan);
      o.threads = 1;  // the instances are what runs in parallel
      heuristic_names[key] = sources.prepare(plan, *it.goal, o, false);
      options[key] = o;
    } catch (const InputError& e) {
      it.error = e.what();
    }
  }
  for (auto& it : items)  // a later line of a goal whose preparation failed
    if (it.error.empty() && !options.count(it.goal->board.name() + it.goal->to_string()))
      it.error = "its goal's databases could not be prepared (see the first line of that goal)";
  const double load = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::mutex out_mutex;
  std::size_t printed = 0;
  std::vector<char> done(items.size(), 0);
  auto line_json = [&](const BatchInstance& it) {
    if (!it.error.empty()) return json{{"line", it.line}, {"error", it.error}};
    const std::string key = it.goal->board.name() + it.goal->to_string();
    json j = result_json(*it.start, *it.goal, plans.at(it.goal->board.name()).algorithm, heuristic_names.at(key), it.result);
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
          it.result = search::solve(*it.start, *it.goal, options.at(key));
        } catch (const InputError& e) {
          it.error = e.what();
        }
      }
      // Print every finished line that has no unfinished line before it. A failed write stops
      // the batch: the exception cancels the instances not started (terminal.hpp).
      const std::lock_guard lock(out_mutex);
      done[i] = 1;
      for (; printed < items.size() && done[printed]; ++printed) write_out(line_json(items[printed]).dump() + "\n");
      flush_out();
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

int cmd_solve(Common& c, const std::optional<std::string>& start_arg, const SolveFlags& f) {
  if (f.animate && c.json) throw option_error("animate", "does not apply with --json");
  if (f.delay_given && !f.animate) throw option_error("delay", "applies with --animate");
  if (!f.batch.empty()) {
    if (start_arg) throw InputError("give either START or --batch FILE, not both");
    if (!f.trace.empty()) throw option_error("trace", "records one search: give START, not --batch");
    if (!f.result.empty()) throw option_error("result", "writes one solution: give START, not --batch");
    if (f.animate) throw option_error("animate", "plays one solution: give START, not --batch");
    return cmd_solve_batch(c, f);
  }
  const Problem p = read_problem(c, start_or_stdin(c, start_arg));  // no START: standard input
  search::SolveRequest request = f.request;
  request.trace = !f.trace.empty();
  SearchSources sources(c);
  SolveSettings settings;
  settings.announce = true;
  const SolveOutcome out = solve_problem(c, sources, p, request, settings);
  if (out.trace) {
    // Exact distances along the path when the goal's table is at hand (built, or small to build).
    const State& s = *p.start;
    const GoalTable* t = out.table;
    if (!t && solvable(s, p.goal) && s.board.cells() <= 10)
      t = &sources.tables(out.plan.metric).goal(p.goal.board, p.goal.blank);
    write_file_atomic(f.trace, solve_document(solve_json(s, p.goal, out.plan.algorithm, out.heuristic, out.result, t),
                                              out.trace.get(), s.board));
  }
  return report_solve(c, p, f, out.plan, out.heuristic, out.result);
}

}  // namespace tilespace::cli
