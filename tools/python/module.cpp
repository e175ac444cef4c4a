// tilespace._core: the C++ half of the Python module (tools/python/tilespace/__init__.py is the
// other half, and the documented interface). Every function here does what a command does, through
// the same code: the one problem grammar (problem.hpp), the database stores, the CLI's solve,
// check and stats (tools/cli/commands.hpp), so an answer from Python is the command's answer.
//
// States arrive as text (the Python half spells sequences of ints as text) or, for the bulk
// functions, as numpy uint8 arrays of shape (n, cells). Errors leave as the library's exceptions
// and are translated once, at the bottom: InputError -> ValueError in the HTTP API's words (the
// parameter at fault, then the message), DataError -> tilespace.DataError, ResourceError ->
// MemoryError. Long work (table lookups in bulk, searches, random states) runs with the GIL released.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "app/check.hpp"
#include "app/common.hpp"
#include "app/keywords.hpp"
#include "app/oracle.hpp"
#include "app/random.hpp"
#include "app/report.hpp"
#include "app/solve.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/random_states.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/state.hpp"
#include "tilespace/version.hpp"

namespace py = pybind11;
using namespace tilespace;

namespace {

using Rows = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;

// What a database folder gives: its tables, pattern databases and move automaton, loaded (or
// built when small) at first use and kept for the life of the process, as one command keeps them.
// One per folder; `mu` serialises the stores, which are not thread-safe (what they hand out is
// immutable, so bulk lookups run without it).
struct Session {
  app::Common common;
  app::SearchSources sources;
  std::mutex mu;
  explicit Session(const std::string& db) : common(with_db(db)), sources(common) {}
  TableStore& tables() { return sources.tables(); }

 private:
  static app::Common with_db(const std::string& db) {
    app::Common c;
    c.db = db;
    return c;
  }
};

Session& session(const std::string& db) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Session>> sessions;
  std::error_code ec;
  std::string key = std::filesystem::weakly_canonical(db, ec).string();
  if (ec || key.empty()) key = db;
  const std::lock_guard lock(mu);
  auto& s = sessions[key];
  if (!s) s = std::make_unique<Session>(db);
  return *s;
}

std::optional<std::string> text_or_none(const std::optional<std::string>& s) {
  if (s && s->find_first_not_of(" \t") == std::string::npos) return std::nullopt;
  return s;
}

Problem problem(const std::optional<std::string>& start, const std::optional<std::string>& goal,
                const std::optional<std::string>& board) {
  ProblemText t;
  t.board = board.value_or("");
  t.start = start;
  t.goal = text_or_none(goal).value_or("");
  return parse_problem(t);
}

// The table of the goal's board and blank (TableStore::goal: its own or its blank class's): loaded,
// or built when small (the store's one-minute rule: a DataError naming the build command otherwise;
// ResourceError where no table can fit).
// Called with the GIL held; waits for the folder and loads or builds without it, so that other
// Python threads run meanwhile.
const GoalTable& table_for(Session& s, const State& goal, Metric metric = Metric::single) {
  require_packed(goal.board);
  DistanceTable::check_fits(goal.board, metric);
  py::gil_scoped_release nogil;
  const std::lock_guard lock(s.mu);
  return s.sources.tables(metric).goal(goal.board, goal.blank);
}

// metric= ("single" or "multi"; None: single).
Metric metric_arg(const std::optional<std::string>& text) { return metric_option(text.value_or("single")); }

// ---- distance, distances ----

Metric options_metric(const std::map<std::string, std::string>& options) {
  const auto it = options.find("metric");
  return metric_arg(it == options.end() ? std::nullopt : std::optional<std::string>(it->second));
}

// The limits of a search that answers a distance (4x4, 5x5): max_seconds, max_nodes by name;
// metric= (multi: searched with multi-tile pattern databases on 4x4, refused on 5x5).
search::Limits distance_limits(const std::map<std::string, std::string>& options, const Board& board) {
  search::SolveRequest q;
  for (const auto& [name, value] : options) {
    if (name == "max_seconds") q.max_seconds = value;
    else if (name == "max_nodes") q.max_nodes = value;
    else if (name != "metric") throw py::type_error("got an unexpected keyword argument '" + name + "'");
  }
  app::require_answer_metric(options_metric(options), board);
  return app::Oracle::limits(q, board);
}

// The length, or none when unreachable; and the limit that stopped a search ("" when none did).
std::pair<std::optional<int>, std::string> distance(const std::string& start, const std::optional<std::string>& goal,
                                                    const std::optional<std::string>& board, const std::string& db,
                                                    const std::map<std::string, std::string>& options) {
  const Problem p = problem(start, goal, board);
  Session& s = session(db);
  if (app::Oracle::searches(p.goal.board)) {  // 4x4, 5x5: no table can exist; the search answers
    const search::Limits limits = distance_limits(options, p.goal.board);
    if (!solvable(*p.start, p.goal)) return {std::nullopt, ""};
    py::gil_scoped_release nogil;
    const std::lock_guard lock(s.mu);
    app::Oracle oracle(s.sources, s.common.threads, limits, false, app::default_plan_context(), options_metric(options));
    const app::Distance d = oracle(*p.start, p.goal);
    if (!d.optimum.known) return {std::nullopt, search::stop_name(d.stopped)};
    return {d.optimum.length, ""};
  }
  distance_limits(options, p.goal.board);  // refused: nothing is searched here
  if (!solvable(*p.start, p.goal)) return {std::nullopt, ""};
  const GoalTable& t = table_for(s, p.goal, options_metric(options));
  py::gil_scoped_release nogil;  // a two-bit table's lookup descends, and may read from disk
  return {t.distance(*p.start, p.goal), ""};
}

// The board of rows of `cells` tiles: `board` when given (and of that size), else inferred from
// the count by the grammar's rule (a square count), with the grammar's message otherwise.
Board rows_board(py::ssize_t cells, const std::optional<std::string>& board, const char* what) {
  if (cells < 1 || cells > kMaxBoardCells)
    throw InputError(InputError::About::general,
                     std::string(what) + ": rows of " + std::to_string(cells) + " tiles: a board has 4 to " +
                         std::to_string(kMaxBoardCells) + " cells");
  std::optional<Board> b;
  if (board && !board->empty()) b = parse_board(*board);
  std::string ordered;  // 1 2 .. cells-1 0: a state of that size, to ask the grammar for the board
  for (py::ssize_t i = 1; i <= cells; ++i) ordered += std::to_string(i % cells) + " ";
  try {
    return parse_state(ordered, b).board;
  } catch (const InputError& e) {
    throw InputError(InputError::About::general, std::string(what) + ": " + e.detail);
  }
}

// Row `i` of `rows` as a state of `board`, or an error naming the row; `ok` says whether it is a
// permutation of 0..cells-1 (checked without allocating: the hot path).
bool row_state(const std::uint8_t* row, const Board& board, State& s) {
  const int n = board.cells();
  std::uint32_t seen = 0;
  s.board = board;
  for (int c = 0; c < n; ++c) {
    const int v = row[c];
    if (v >= n || (seen >> v & 1u)) return false;
    seen |= 1u << v;
    s.tiles[c] = static_cast<std::uint8_t>(v);
    if (v == 0) s.blank = c;
  }
  return true;
}

[[noreturn]] void bad_row(const char* what, py::ssize_t i, const std::uint8_t* row, const Board& board) {
  std::string text;
  for (int c = 0; c < board.cells(); ++c) {
    if (c) text += ' ';
    text += std::to_string(row[c]);
  }
  try {
    parse_state(text, board);  // the grammar's words for what is wrong with it
  } catch (const InputError& e) {
    throw InputError(InputError::About::general, std::string(what) + " row " + std::to_string(i) + ": " + e.detail);
  }
  throw InputError(InputError::About::general, std::string(what) + " row " + std::to_string(i) + ": not a state");
}

// distances() on 4x4 and 5x5, where no table can exist: each row's pair searched (in parallel), -1
// where unreachable; a row a limit stops is a ResourceError naming it.
py::array_t<std::int32_t> searched_distances(const Rows& starts, const Rows& goals, const Board& b, const std::string& db,
                                             const search::Limits& limits, Metric metric) {
  const py::ssize_t n = starts.shape(0), cells = starts.shape(1), ng = goals.shape(0);
  const std::uint8_t* S = starts.data();
  const std::uint8_t* G = goals.data();
  State g;
  for (py::ssize_t i = 0; i < ng; ++i)
    if (!row_state(G + i * cells, b, g)) bad_row("goals", i, G + i * cells, b);
  State st;
  for (py::ssize_t i = 0; i < n; ++i)
    if (!row_state(S + i * cells, b, st)) bad_row("starts", i, S + i * cells, b);
  Session& s = session(db);
  py::array_t<std::int32_t> out(n);
  std::int32_t* D = out.mutable_data();
  std::vector<search::Stop> stopped(static_cast<std::size_t>(n), search::Stop::None);
  {
    py::gil_scoped_release nogil;
    const std::lock_guard lock(s.mu);
    app::Oracle oracle(s.sources, s.common.threads, limits, false, app::default_plan_context(), metric);
    tbb::parallel_for(py::ssize_t{0}, n, [&](py::ssize_t i) {
      State start, goal = canonical_goal(b, b.cells() - 1);
      row_state(S + i * cells, b, start);
      if (ng) row_state(G + (ng == 1 ? 0 : i) * cells, b, goal);
      D[i] = -1;
      if (!solvable(start, goal)) return;
      const app::Distance d = oracle(start, goal);
      if (d.optimum.known) D[i] = d.optimum.length;
      else stopped[static_cast<std::size_t>(i)] = d.stopped;
    });
  }
  for (py::ssize_t i = 0; i < n; ++i)
    if (stopped[static_cast<std::size_t>(i)] != search::Stop::None)
      throw ResourceError("starts row " + std::to_string(i) + ": search stopped by " +
                          search::stop_name(stopped[static_cast<std::size_t>(i)]) + " before finding a solution");
  return out;
}

py::array_t<std::int32_t> distances(const Rows& starts, const Rows& goals, const std::optional<std::string>& board,
                                    const std::string& db, const std::map<std::string, std::string>& options) {
  if (starts.ndim() != 2) throw InputError("starts: expected an array of shape (n, cells)");
  const py::ssize_t n = starts.shape(0), cells = starts.shape(1);
  if (n == 0) return py::array_t<std::int32_t>(0);
  if (goals.ndim() != 2 || goals.shape(1) != cells || (goals.shape(0) > 1 && goals.shape(0) != n))
    throw InputError("goals: expected one goal of " + std::to_string(cells) + " tiles, or one a start (shape (" +
                     std::to_string(n) + ", " + std::to_string(cells) + "))");
  const Board b = rows_board(cells, board, "starts");
  const search::Limits limits = distance_limits(options, b);  // refused where nothing is searched
  if (app::Oracle::searches(b)) return searched_distances(starts, goals, b, db, limits, options_metric(options));
  const std::uint8_t* S = starts.data();
  const std::uint8_t* G = goals.data();
  const py::ssize_t ng = goals.shape(0);

  // The goals first: each a valid state, and the blanks they put the goal's blank on, whose
  // tables are then brought to hand (built when missing and small) before the lookups start.
  std::atomic<py::ssize_t> first_bad{ng};
  std::atomic<std::uint32_t> blanks{0};
  auto lowest = [](std::atomic<py::ssize_t>& first, py::ssize_t i) {
    py::ssize_t cur = first.load();
    while (i < cur && !first.compare_exchange_weak(cur, i)) {
    }
  };
  {
    py::gil_scoped_release nogil;
    tbb::parallel_for(tbb::blocked_range<py::ssize_t>(0, ng, 1 << 14), [&](const tbb::blocked_range<py::ssize_t>& r) {
      State g;
      std::uint32_t seen = 0;
      for (py::ssize_t i = r.begin(); i < r.end(); ++i) {
        if (!row_state(G + i * cells, b, g)) lowest(first_bad, i);
        else seen |= 1u << g.blank;
      }
      blanks.fetch_or(seen);
    });
  }
  if (const py::ssize_t i = first_bad.load(); i < ng) bad_row("goals", i, G + i * cells, b);
  if (ng == 0) blanks = 1u << (b.cells() - 1);
  std::vector<const GoalTable*> by_blank(b.cells(), nullptr);
  Session& s = session(db);
  for (int blank = 0; blank < b.cells(); ++blank)
    if (blanks.load() >> blank & 1u) by_blank[blank] = &table_for(s, canonical_goal(b, blank), options_metric(options));
  // One goal for all: its labelling once. One goal a start: each pair's relabelling on the way.
  const State one = ng == 0 ? canonical_goal(b, b.cells() - 1) : State{};
  std::optional<Labelling> one_goal;
  const GoalTable* one_table = nullptr;
  if (ng <= 1) {
    State g = one;
    if (ng == 1) row_state(G, b, g);
    one_table = by_blank[g.blank];
    one_goal.emplace(one_table->labelling(g));
  }

  py::array_t<std::int32_t> out(n);
  std::int32_t* D = out.mutable_data();
  first_bad = n;
  {
    py::gil_scoped_release nogil;
    tbb::parallel_for(tbb::blocked_range<py::ssize_t>(0, n, 1 << 12), [&](const tbb::blocked_range<py::ssize_t>& r) {
      State st, g;
      for (py::ssize_t i = r.begin(); i < r.end(); ++i) {
        if (!row_state(S + i * cells, b, st)) {
          lowest(first_bad, i);
          D[i] = -1;
          continue;
        }
        std::optional<int> d;
        if (one_goal) {
          d = one_table->distance(st, *one_goal);
        } else {
          row_state(G + i * cells, b, g);
          d = by_blank[g.blank]->distance(st, g);
        }
        D[i] = d ? *d : -1;
      }
    });
  }
  if (const py::ssize_t i = first_bad.load(); i < n) bad_row("starts", i, S + i * cells, b);
  return out;
}

// Texts of states as rows of one board (the goal's, or `board`, or inferred from the first).
py::array_t<std::uint8_t> parse_states(const std::vector<std::string>& texts, const std::optional<std::string>& board,
                                       const char* what, std::size_t first_row) {
  std::optional<Board> b;
  if (board && !board->empty()) b = parse_board(*board);
  std::vector<State> states;
  states.reserve(texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    try {
      states.push_back(parse_state(texts[i], b));
    } catch (const InputError& e) {
      throw InputError(InputError::About::general,
                       std::string(what) + " row " + std::to_string(first_row + i) + ": " + e.detail);
    }
    b = states.back().board;
  }
  const py::ssize_t cells = b ? b->cells() : 0;
  py::array_t<std::uint8_t> out({static_cast<py::ssize_t>(states.size()), cells});
  auto w = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < states.size(); ++i)
    for (py::ssize_t c = 0; c < cells; ++c) w(static_cast<py::ssize_t>(i), c) = states[i].tiles[c];
  return out;
}

// ---- solve, stats, check ----

// The search options by their Python names (max_nodes=...), as text for the registry's planning.
search::SolveRequest solve_request(const std::optional<std::string>& algorithm, const std::optional<std::string>& heuristic,
                                   const std::map<std::string, std::string>& options) {
  search::SolveRequest q;
  q.algorithm = algorithm;
  q.heuristic = heuristic;
  for (const auto& [name, value] : options) {
    const auto& named = search::named_options();
    const std::string& key = name;  // (clang: a lambda does not capture a structured binding)
    const auto it = std::find_if(named.begin(), named.end(), [&](const auto& o) { return o.name == key; });
    if (it == named.end()) throw py::type_error("solve() got an unexpected keyword argument '" + name + "'");
    q.*(it->field) = value;
  }
  return q;
}

// solve --json's answer as JSON text, and whether a limit stopped the search (the command's exit 4).
std::pair<std::string, bool> solve(const std::string& start, const std::optional<std::string>& goal,
                                   const std::optional<std::string>& board, const std::optional<std::string>& algorithm,
                                   const std::optional<std::string>& heuristic, int threads, const std::string& db,
                                   const std::map<std::string, std::string>& options) {
  const search::SolveRequest q = solve_request(algorithm, heuristic, options);
  const Problem p = problem(start, goal, board);
  if (threads < 0 || threads > 1024) throw option_error("threads", "must be 0 (all cores) to 1024");
  Session& s = session(db);
  py::gil_scoped_release nogil;
  const std::lock_guard lock(s.mu);
  s.common.threads = threads;
  const app::SolveOutcome out = app::solve_problem(s.common, s.sources, p, q);
  const search::Result& r = out.result;
  return {app::solve_answer_json(p, out.plan.algorithm, out.heuristic, r).dump(),
          !r.unreachable && !r.solved};
}

std::string stats(const std::optional<std::string>& goal, const std::optional<std::string>& board, const std::string& db,
                  const std::optional<std::string>& metric_text) {
  const Problem p = problem(std::nullopt, goal, board);
  const Metric metric = metric_arg(metric_text);
  app::require_table_metric(metric, p.goal.board);
  Session& s = session(db);
  const GoalTable& t = table_for(s, p.goal, metric);
  py::gil_scoped_release nogil;
  return app::stats_json(t, p.goal, t.farthest(p.goal, app::kFarthestListed)).dump();
}

std::string check(const std::string& text, const std::optional<std::string>& goal, const std::optional<std::string>& board,
                  const std::optional<std::string>& max_seconds, const std::string& db,
                  const std::optional<std::string>& metric_text) {
  const double limit = max_seconds ? parse_real("max-seconds", *max_seconds, 0, 1e9, true) : 60.0;
  metric_arg(metric_text);
  Session& s = session(db);
  py::gil_scoped_release nogil;
  const std::lock_guard lock(s.mu);
  app::Common c = s.common;  // the check's default goal and board, over the session's folder
  c.goal = text_or_none(goal).value_or("");
  c.board = board.value_or("");
  c.metric = metric_text.value_or("single");
  return app::check_json(app::run_check(c, InputText{"answers", text}, limit, app::Keep::everything)).dump();
}

// ---- random states ----

py::array_t<std::uint8_t> random_states(const std::string& n_text, const std::optional<std::string>& goal,
                                        const std::optional<std::string>& board, const std::optional<std::string>& depth,
                                        const std::optional<std::string>& seed, const std::string& db,
                                        const std::optional<std::string>& metric_text) {
  const Problem p = problem(std::nullopt, goal, board);
  const std::uint64_t n = parse_whole("n", n_text, 0, 1'000'000'000);
  const RandomOptions o = parse_random_options(seed, depth);  // as `tilespace random` (check.cpp cmd_random)
  const Metric metric = metric_arg(metric_text);
  if (metric != Metric::single) {
    if (!o.depth) throw option_error("metric", "applies with depth (the reachable states are the same in both metrics)");
    app::require_answer_metric(metric, p.goal.board);  // 4x4: multi-tile walks, proven by multi-tile searches
  }
  Session& s = session(db);
  const GoalTable* t = nullptr;
  if (o.depth && app::RandomSampler::needs_table(p.goal.board)) t = &table_for(s, p.goal, metric);
  const py::ssize_t cells = p.board.cells();
  py::array_t<std::uint8_t> out({static_cast<py::ssize_t>(n), cells});
  std::uint8_t* w = out.mutable_data();
  py::gil_scoped_release nogil;
  const std::lock_guard lock(s.mu);
  app::RandomSampler states(s.sources, s.common.threads, p.goal, o, t, metric);
  for (std::uint64_t i = 0; i < n; ++i) {
    const State st = states.next();
    std::copy_n(st.tiles.begin(), cells, w + i * static_cast<std::uint64_t>(cells));
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "The C++ part of tilespace (the functions are documented in the tilespace package)";
  m.attr("version") = kVersion;
  static py::exception<DataError> data_error(m, "DataError");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, app::keyword_error(e).message.c_str());  // "max_nodes: ...", "start: ..."
    } catch (const ResourceError& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const DataError& e) {
      data_error(e.what());
    }
  });
  m.def("distance", &distance);
  m.def("distances", &distances);
  m.def("parse_states", [](const std::vector<std::string>& texts, const std::optional<std::string>& board,
                           const std::string& what, std::size_t first_row) {
    return parse_states(texts, board, what.c_str(), first_row);
  });
  m.def("solve", &solve);
  m.def("stats", &stats);
  m.def("check", &check);
  m.def("random_states", &random_states);
  m.def("algorithms", [] {
    std::vector<std::string> names;
    for (const auto& a : search::algorithm_catalog()) names.emplace_back(a.name);
    return names;
  });
  m.def("heuristics", [] {
    std::vector<std::string> names;
    for (const auto& h : search::heuristic_catalog()) names.emplace_back(h.name);
    return names;
  });
}
