// The solver lab: `tilespace verify` checks solvers against the exhaustive table, `tilespace
// compare` runs algorithms x heuristics on one instance or a suite and prints a table.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "cli/terminal.hpp"
#include "cli/messages.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/random_states.hpp"
#include "tilespace/search/lab.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::cli {

using nlohmann::json;

namespace {

// --max-nodes and --max-seconds of the lab, checked as strictly as solve's (registry.hpp).
search::Limits lab_limits(const LabFlags& f, double default_seconds) {
  search::Limits l;
  if (f.max_nodes) l.max_nodes = parse_whole("max-nodes", *f.max_nodes, 1, INT64_MAX);
  l.max_seconds = f.max_seconds ? parse_real("max-seconds", *f.max_seconds, 0, 1e9, true) : default_seconds;
  return l;
}

}  // namespace

int cmd_verify(Common& c, const LabFlags& f) {
  const Problem p = read_problem(c, std::nullopt);
  const Metric metric = metric_option(c);
  require_table_metric(c, p.board);
  const auto combos = f.algorithms.empty() ? search::admissible_combos(p.board, metric)
                                           : search::parse_combos(f.algorithms, p.board, metric);
  const std::uint64_t sample = f.sample ? parse_whole("sample", *f.sample, 1, 1'000'000'000) : 0;
  if (f.seed && !f.sample) throw option_error("seed", "applies with --sample");
  const std::uint64_t seed = f.seed ? parse_whole("seed", *f.seed, 0, UINT64_MAX) : 1;
  search::SolveOptions base;
  base.limits = lab_limits(f, 0);
  base.metric = metric;
  TableStore store = make_store(c);
  const GoalTable& t = store.goal(p.goal.board, p.goal.blank);
  std::vector<std::uint64_t> ranks;
  if (sample > 0 && sample < t.states()) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::uint64_t> pick(0, t.states() - 1);
    for (std::uint64_t i = 0; i < sample; ++i) ranks.push_back(pick(rng));
  } else {
    ranks.resize(t.states());
    std::iota(ranks.begin(), ranks.end(), std::uint64_t{0});
  }
  base.limits.max_bytes =
      default_memory_limit() / (c.threads > 0 ? static_cast<unsigned>(c.threads) : std::max(1u, std::thread::hardware_concurrency()));
  bool all_ok = true;
  json out = json::array();
  const Messages m(c.lang);
  if (!c.json)
    std::printf("%s %s %s %s %s %s %s %s %s %s\n", pad(m.get("solver"), 30, false).c_str(),
                pad(m.get("optimal?"), 8, true).c_str(), pad(m.get("states"), 9, true).c_str(),
                pad(m.get("optimal"), 9, true).c_str(), pad(m.get("longer"), 8, true).c_str(),
                pad(m.get("excess"), 8, true).c_str(), pad(m.get("failed"), 7, true).c_str(),
                pad(m.get("stopped"), 7, true).c_str(), pad(m.get("expanded"), 14, true).c_str(),
                pad(m.get("seconds"), 9, true).c_str());
  SearchSources sources(c);
  for (const auto& combo : combos) {
    search::SolveOptions o = base;
    sources.prepare(combo.plan, p.goal, o, false);
    if (search::find_algorithm(combo.plan.algorithm)->memory_is_store) o.limits.max_bytes = combo.plan.limits.max_bytes;  // A*'s memory
    const search::VerifyReport r = search::verify(t, p.goal, combo, ranks, o, c.threads);
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
      std::printf("%-30s %s %9llu %9llu %8llu %8s %7llu %7llu %14llu %9.2f%s\n", combo.name().c_str(),
                  pad(m.get(r.claims_optimal ? "yes" : "no"), 8, true).c_str(), static_cast<unsigned long long>(r.states),
                  static_cast<unsigned long long>(r.optimal), static_cast<unsigned long long>(r.longer), excess,
                  static_cast<unsigned long long>(r.failed), static_cast<unsigned long long>(r.stopped),
                  static_cast<unsigned long long>(r.expanded), r.seconds, r.ok() ? "" : ("  " + m.get("FAILED")).c_str());
      flush_out();  // each solver's row as it is done; a failed write stops before the next solver
    }
  }
  if (c.json) std::puts(out.dump().c_str());
  else std::printf("%s\n", m.get(all_ok ? "verified: every path legal, every optimal solver optimal"
                                          : "verification FAILED").c_str());
  return all_ok ? kExitOk : kExitUnreachable;
}

namespace {

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

// A suite file: one "START GOAL" a line, in the grammar of problem.hpp.
std::vector<std::pair<State, State>> read_suite(const std::string& path, const std::optional<Board>& board) {
  const InputText input = read_input(path);
  std::vector<std::pair<State, State>> instances;
  for_each_content_line(input.text, [&](std::string_view line, std::uint64_t no) {
    try {
      const LinePair pair = parse_line_pair(line, board);
      if (!pair.goal) throw InputError("expected a start and a goal");
      instances.emplace_back(pair.start, *pair.goal);
    } catch (const InputError& e) {
      throw e.at_line(input.name, no);
    }
  });
  if (instances.empty()) throw InputError(InputError::About::file, "no instances", input.name);
  return instances;
}

// The mean heuristic value of each distinct heuristic of `combos` over `count` random states of
// `goal` (uniform among the reachable ones, RandomStates), for compare --sample.
struct SampleRow {
  std::string heuristic;  // as prepared: "catalogue:max7", "manhattan"
  std::uint64_t states = 0;
  double mean = 0;
  int min = 0, max = 0;
  double seconds = 0;
};

std::vector<SampleRow> sample_heuristics(const std::vector<search::Combo>& combos, const State& goal,
                                         std::uint64_t count, std::uint64_t seed, SearchSources& sources) {
  std::vector<State> states;
  RandomStates draw(goal, RandomOptions{std::nullopt, seed}, nullptr);
  for (std::uint64_t i = 0; i < count; ++i) states.push_back(draw.next());
  std::vector<SampleRow> rows;
  for (const auto& combo : combos) {
    if (combo.heuristic.empty()) continue;
    search::SolveOptions o = search::solve_options(combo.plan);
    const std::string name = sources.prepare(combo.plan, goal, o, false);
    if (std::any_of(rows.begin(), rows.end(), [&](const SampleRow& r) { return r.heuristic == name; })) continue;
    if (combo.plan.needs_table) o.table = sources.table(goal.board, goal.blank);
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<int> h = search::heuristic_values(goal, o, states);
    SampleRow r{name, h.size(), 0, *std::min_element(h.begin(), h.end()), *std::max_element(h.begin(), h.end()),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
    r.mean = static_cast<double>(std::accumulate(h.begin(), h.end(), std::int64_t{0})) / static_cast<double>(h.size());
    rows.push_back(std::move(r));
  }
  return rows;
}

// A table on stdout: aligned columns (Markdown with --md, CSV with --csv), the columns from
// `right_from` on right-aligned.
void print_table(const LabFlags& f, const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& cells,
                 std::size_t right_from) {
  if (f.csv) {
    auto quote = [](const std::string& v) { return v.find_first_of(",\"") == std::string::npos ? v : "\"" + v + "\""; };
    for (std::size_t i = 0; i < head.size(); ++i) std::printf("%s%s", i ? "," : "", head[i].c_str());
    std::puts("");
    for (const auto& row : cells) {
      for (std::size_t i = 0; i < row.size(); ++i) std::printf("%s%s", i ? "," : "", quote(row[i]).c_str());
      std::puts("");
    }
    return;
  }
  std::vector<std::size_t> width(head.size());
  for (std::size_t i = 0; i < head.size(); ++i) width[i] = display_width(head[i]);
  for (const auto& row : cells)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], display_width(row[i]));
  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line = f.md ? "|" : "";
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string cell = pad(row[i], width[i], i >= right_from);
      line += f.md ? " " + cell + " |" : (i ? "  " : "") + cell;
    }
    std::puts(line.c_str());
  };
  print_row(head);
  if (f.md) {
    std::string sep = "|";
    for (std::size_t i = 0; i < head.size(); ++i) {
      std::string dashes(width[i], '-');  // every head is at least one column wide
      if (i >= right_from) dashes.back() = ':';
      sep += " " + dashes + " |";
    }
    std::puts(sep.c_str());
  }
  for (const auto& row : cells) print_row(row);
}

}  // namespace

int cmd_compare(Common& c, const std::optional<std::string>& start_arg, const LabFlags& f) {
  std::vector<std::pair<State, State>> instances;
  const std::uint64_t sample = f.sample ? parse_whole("sample", *f.sample, 1, 1'000'000) : 0;
  if (f.seed && !f.sample) throw option_error("seed", "applies with --sample");
  std::optional<State> sample_goal;  // the goal of --sample: the instances' first, or --board/--goal's
  if (!f.suite.empty()) {
    if (start_arg) throw InputError("give either START or --suite FILE, not both");
    if (!c.goal.empty()) throw option_error("goal", "does not apply with --suite (each line has its goal)");
    if (!c.blank.empty()) throw option_error("blank", "does not apply with --suite (numbered tiles only)");
    instances = read_suite(f.suite, board_option(c));
  } else if (sample > 0 && !start_arg) {
    sample_goal = read_problem(c, std::nullopt).goal;  // only the sample: no instance to run
  } else {
    const Problem p = read_problem(c, start_or_stdin(c, start_arg));
    instances.emplace_back(*p.start, p.goal);
  }
  if (!sample_goal) sample_goal = instances[0].second;
  const Metric metric = metric_option(c);
  const std::string default_list =
      metric == Metric::multi
          ? "bfs,bibfs,dfs,iddfs,greedy:multi-manhattan,astar:multi-manhattan,wastar:multi-manhattan,idastar:multi-manhattan"
          : "bfs,bibfs,dfs,iddfs,greedy:manhattan,astar:misplaced,astar:manhattan,astar:linear-conflict,"
            "astar:inversions,astar:misplaced-inversions,wastar:manhattan,idastar:manhattan";
  const auto combos = search::parse_combos(f.algorithms.empty() ? default_list : f.algorithms, sample_goal->board, metric);
  search::SolveOptions base;
  base.metric = metric;
  base.limits = lab_limits(f, 10.0);
  base.limits.max_bytes = default_memory_limit();
  TableStore store = make_store(c);
  SearchSources sources(c);
  const std::vector<SampleRow> sampled = sample > 0 ? sample_heuristics(combos, *sample_goal, sample,
                                                                        f.seed ? parse_whole("seed", *f.seed, 0, UINT64_MAX) : 1,
                                                                        sources)
                                                    : std::vector<SampleRow>{};
  std::vector<Row> rows;
  for (const auto& [st, gl] : instances) {
    std::optional<int> opt;
    const GoalTable* table = nullptr;
    if (table_can_exist(st.board) && solvable(st, gl)) {
      table = &store.goal(gl.board, gl.blank);
      opt = table->distance(st, gl);
    }
    for (const auto& combo : combos) {
      search::SolveOptions o = base;
      sources.prepare(combo.plan, gl, o, false);
      if (search::find_algorithm(combo.plan.algorithm)->memory_is_store) o.limits.max_bytes = combo.plan.limits.max_bytes;
      o.table = table;
      search::Solver solver(combo, gl, o);
      rows.push_back({st.to_string() + " -> " + gl.to_string(), combo.name(), solver.run(st), opt});
    }
  }
  const Messages m(c.lang);
  auto length = [&](const Row& r) {
    return r.r.unreachable ? m.get("unreachable") : r.r.solved ? std::to_string(r.r.length())
                                                  : r.r.stopped != search::Stop::None ? m.get("stopped")
                                                                                       : m.get("none");
  };
  auto optimal = [&](const Row& r) {
    if (r.r.unreachable) return std::string("-");
    if (!r.optimal || !r.r.solved) return std::string("?");
    return m.get(r.r.length() == *r.optimal ? "yes" : "no");
  };
  // Exit 1 when an instance is unreachable, as in every command (the table of exit codes).
  const int rc = std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.r.unreachable; }) ? kExitUnreachable : kExitOk;
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
    if (sample > 0) {  // {"sample": [...], "runs": [...]}
      json heur = json::array();
      for (const auto& r : sampled)
        heur.push_back({{"heuristic", r.heuristic}, {"states", r.states}, {"mean", r.mean}, {"min", r.min},
                        {"max", r.max}, {"seconds", r.seconds}});
      out = json{{"sample", heur}, {"goal", tiles_json(*sample_goal)}, {"runs", out}};
    }
    std::puts(out.dump().c_str());
    return rc;
  }
  auto heads = [&](std::vector<std::string> head) {
    if (!f.csv)
      for (auto& h : head) h = m.get(h);
    return head;
  };
  if (sample > 0) {
    std::vector<std::vector<std::string>> cells;
    for (const auto& r : sampled)
      cells.push_back({r.heuristic, std::to_string(r.states), fixed(r.mean, 3), std::to_string(r.min),
                       std::to_string(r.max), fixed(r.seconds, 3)});
    print_table(f, heads({"heuristic", "states", "mean h", "min h", "max h", "seconds"}), cells, 1);
    if (rows.empty()) return rc;
    std::puts("");
  }
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : rows)
    cells.push_back({r.instance, r.solver, length(r), optimal(r), std::to_string(r.r.expanded), std::to_string(r.r.generated),
                     fixed(static_cast<double>(r.r.peak_bytes) / 1024.0, 1), fixed(r.r.seconds, 6)});
  print_table(f, heads({"instance", "solver", "length", "optimal", "expanded", "generated", "peak KiB", "seconds"}), cells, 2);
  return rc;
}

}  // namespace tilespace::cli
