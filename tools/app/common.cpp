// What every front end shares (common.hpp): the options, the problem, the stores, board text, the
// result file, memory limits, and the sources of searches.
#include "app/common.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "app/report.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"
#include "tilespace/pdb/heuristic.hpp"
#include "tilespace/pdb/pattern.hpp"
#include "tilespace/search/automaton.hpp"
#include "tilespace/search/solve.hpp"

namespace tilespace::app {

using nlohmann::json;

std::optional<Board> board_option(const Common& c) { return parse_board(c.board); }

std::optional<State> goal_option(const Common& c) {
  if (c.goal.empty()) return std::nullopt;
  return parse_problem(ProblemText{c.board, std::nullopt, c.goal, ""}).goal;
}

std::function<void(const LayerReport&)> layer_progress(const Common& c, const char* layer, const char* items) {
  if (!c.progress && !::isatty(STDERR_FILENO)) return {};
  return [layer, items, wording = c.wording](const LayerReport& r) {
    char left[48] = "";
    // The time left: the states still to find (the whole space's size is known) at the rate of
    // the last layer, once layers are big enough (a thousandth of the space, a second) that
    // their time is mostly per state rather than per layer.
    if (r.space > r.total && r.layer_seconds >= 1 && r.states >= r.space / 1000) {
      const double secs = static_cast<double>(r.space - r.total) * r.layer_seconds / static_cast<double>(r.states);
      if (secs < 3600 * 24 * 30) std::snprintf(left, sizeof left, "  ~%.0f s left", secs);
    }
    char line[192];
    std::snprintf(line, sizeof line, "  %s %3d  %13llu %s  %13llu total  %8.2f s%s", layer, r.depth,
                  static_cast<unsigned long long>(r.states), items, static_cast<unsigned long long>(r.total), r.seconds,
                  left);
    std::fprintf(stderr, "%s\n", wording ? wording(line).c_str() : line);
  };
}

void note_on_stderr(const std::string& s) { std::fprintf(stderr, "tilespace: %s\n", s.c_str()); }

std::function<void(const std::string&)> notes(const Common& c) {
  if (!c.wording) return note_on_stderr;
  return [wording = c.wording](const std::string& s) { note_on_stderr(wording(s)); };
}

Metric metric_option(const Common& c) { return tilespace::metric_option(c.metric); }

// Boards whose multi-tile answers are searched (app/oracle.hpp): no table can exist, and stock
// multi-tile pattern databases make the search quick (4x4: Korf's 100 in a few seconds).
bool multi_answers_searched(const Board& board) {
  return !table_can_exist(board) && !pdb::stock_partitions(board, Metric::multi).empty();
}

void require_table_metric(Metric m, const Board& board) {
  if (m == Metric::single) return;
  if (multi_answers_searched(board))
    throw option_error("metric", std::string(metric_name(m)) + ": no exact table of " + board.name() +
                                     " can exist (query, check and random --depth search each pair with multi-tile pattern databases)");
  if (!table_can_exist(board))
    throw option_error("metric", std::string(metric_name(m)) + ": no exact table of " + board.name() +
                                     " can exist, and its multi-tile searches take too long for every pair (solve --metric multi "
                                     "searches one)");
}
void require_table_metric(const Common& c, const Board& board) { require_table_metric(metric_option(c), board); }

void require_answer_metric(Metric m, const Board& board) {
  if (m == Metric::multi && multi_answers_searched(board)) return;
  require_table_metric(m, board);
}
void require_answer_metric(const Common& c, const Board& board) { require_answer_metric(metric_option(c), board); }

StoreOptions store_options(const Common& c, double max_auto_build_seconds, std::optional<Metric> metric) {
  StoreOptions o;
  o.dir = c.db;
  o.max_auto_build_seconds = max_auto_build_seconds;
  o.bfs.metric = metric ? *metric : metric_option(c);
  o.bfs.threads = c.threads;
  o.bfs.on_layer = layer_progress(c, "depth", "states");
  o.note = notes(c);
  return o;
}

TableStore make_store(const Common& c, double max_auto_build_seconds) {
  return TableStore(store_options(c, max_auto_build_seconds));
}

Problem read_problem(const Common& c, const std::optional<std::string>& start_arg) {
  ProblemText text{c.board, std::nullopt, c.goal, c.blank};
  if (!start_arg) return parse_problem(text);
  const StartArg start = resolve_start(*start_arg, board_option(c), !c.goal.empty() || !c.blank.empty());
  return parse_start_problem(start, std::move(text));
}

json tiles_json(const State& s) {
  json a = json::array();
  for (int i = 0; i < s.cells(); ++i) a.push_back(s.tiles[i]);
  return a;
}

// The board as rows of right-aligned names, the blank as '.' (or its given name).
std::size_t display_width(const std::string& text) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t len = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    char32_t cp = len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
    for (std::size_t k = 1; k < len && i + k < text.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    i += len;
    if (cp >= 0x300 && cp < 0x370) continue;  // combining accents take no column of their own
    // East Asian wide and full-width characters (Unicode's UAX #11, W and F): two columns.
    const bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) || (cp >= 0x3041 && cp <= 0x33FF) ||
                      (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
                      (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
                      (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
                      (cp >= 0x20000 && cp <= 0x3FFFD);
    w += wide ? 2 : 1;
  }
  return w;
}

std::string pad(const std::string& text, std::size_t width, bool right) {
  const std::size_t w = display_width(text);
  const std::string fill(width > w ? width - w : 0, ' ');
  return right ? fill + text : text + fill;
}

std::string board_text(const State& s, const Labels& labels, const std::string& indent) {
  std::size_t w = 1;
  for (int c = 0; c < s.cells(); ++c) w = std::max(w, display_width(labels.name(s.tiles[c])));
  std::string out;
  for (int r = 0; r < s.board.height(); ++r) {
    std::string line = indent;
    for (int c = 0; c < s.board.width(); ++c) {
      const int t = s.tiles[r * s.board.width() + c];
      std::string name = t ? labels.name(t) : (labels.names.empty() || labels.numeric() ? "." : labels.name(0));
      if (c) line += ' ';
      line += pad(name, w, true);
    }
    out += line + "\n";
  }
  return out;
}

// Writes every board of the path to `file` (result.txt), atomically: temporary file, rename.
void write_result(const std::string& file, const std::vector<State>& path, const Labels& labels,
                  const std::string& no_path_line) {
  std::string text = path.empty() ? no_path_line + "\n" : "";
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (i) text += "\n";
    text += board_text(path[i], labels, "");
  }
  write_file_atomic(file, text);
}

// Without --max-memory a search may use 3/4 of physical memory, then stops with exit 4: a
// breadth-first search on a 4x4 board never exhausts the machine.
std::uint64_t default_memory_limit() { return physical_memory() / 4 * 3; }

// Measured on Korf & Felner's 24-puzzle instances 1, 5 and 38 (A* runs single-threaded at about
// 0.6 M expansions a second, so its share must stay small): 256 MiB was the fastest of 128 MiB to
// 2 GiB (docs/benchmarks.md).
std::uint64_t default_hybrid_memory() { return std::min<std::uint64_t>(physical_memory() / 8, std::uint64_t{256} << 20); }

// ---- the move automaton ----

std::shared_ptr<const search::MoveAutomaton> load_automaton(const Common& c) {
  // The deepest machine on disk (`tilespace build --automaton` makes the default depth's); else the
  // quick one, built and saved at first use.
  int depth = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(c.db, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    int d = 0;
    if (std::sscanf(name.c_str(), "moves-d%d.fsm", &d) == 1 && name == search::automaton_path("", d).string() &&
        d >= search::MoveAutomaton::kMinDepth && d <= search::MoveAutomaton::kMaxDepth)
      depth = std::max(depth, d);
  }
  if (depth == 0) depth = kQuickAutomatonDepth;
  return std::make_shared<const search::MoveAutomaton>(
      search::load_or_build_automaton(c.db, depth, StoreOptions{}.max_auto_build_seconds, notes(c)));
}

// ---- pattern databases ----

pdb::PdbStore make_pdb_store(const Common& c, double max_auto_build_seconds, Metric metric) {
  pdb::PdbStoreOptions o;
  o.dir = c.db;
  o.build.threads = c.threads;
  o.build.metric = metric;
  o.build.on_layer = layer_progress(c, "cost", "placements");
  o.note = notes(c);
  o.max_auto_build_seconds = max_auto_build_seconds;
  return pdb::PdbStore(std::move(o));
}

PatternChoice pattern_choice(const search::SolvePlan& plan, const State& goal, const pdb::PdbStore& store) {
  const std::string entry(search::heuristic_entry(plan.heuristic));
  std::string spec(search::heuristic_partition(plan.heuristic));
  if (spec.empty()) spec = plan.pattern;
  if (spec.empty() && plan.heuristic_chosen) {
    pdb::DefaultChoice d = pdb::choose_default(store, goal);
    const std::string chosen = d.partition.catalogue() ? "catalogue" : d.zero_aware ? "zpdb" : "pdb";
    return {chosen, std::move(d.partition), d.zero_aware};
  }
  if (spec.empty())
    return {entry, plan.catalogue ? pdb::stock_catalogue(goal) : pdb::choose_partition(store, goal, plan.zero_aware),
            plan.zero_aware};
  pdb::Partition part = pdb::parse_partition(spec, goal);
  if (part.catalogue() && !plan.catalogue && plan.metric != Metric::multi)  // mpdb: the largest value of all of them
    throw option_error("heuristic", "'" + spec + "' is a catalogue of " + std::to_string(part.groups.size()) +
                                        " partitions: use --heuristic catalogue:" + spec);
  return {entry, std::move(part), plan.zero_aware};
}

}  // namespace tilespace::app

namespace tilespace::app {

SearchSources::SearchSources(Common& c, double max_table_build_seconds)
    : c_(c),
      pdbs_(make_pdb_store(c)),
      multi_pdbs_(make_pdb_store(c, 60, Metric::multi)),
      tables_(store_options(c, max_table_build_seconds, Metric::single)),
      multi_tables_(store_options(c, max_table_build_seconds, Metric::multi)) {}
SearchSources::~SearchSources() = default;

TableStore& SearchSources::tables(Metric m) { return m == Metric::multi ? multi_tables_ : tables_; }
TableStore& SearchSources::tables() { return tables(metric_option(c_)); }

const GoalTable* SearchSources::table(const Board& b, int blank, Metric m) {
  const std::lock_guard lock(tables_mu_);
  TableStore& store = tables(m);
  if (const GoalTable* t = store.goal_loaded(b, blank)) return t;
  if (!store.at_hand(b, blank)) return nullptr;
  return &store.goal(b, blank);
}
const GoalTable* SearchSources::table(const Board& b, int blank) { return table(b, blank, metric_option(c_)); }

bool SearchSources::table_at_hand(const Board& b, int blank, Metric m) {
  const std::lock_guard lock(tables_mu_);
  TableStore& store = tables(m);
  return store.goal_loaded(b, blank) || store.at_hand(b, blank);
}

std::string SearchSources::prepare(const search::SolvePlan& plan, const State& goal, search::SolveOptions& o, bool announce) {
  std::string name = plan.heuristic;
  if (plan.pattern_database) {
    const std::lock_guard lock(pdbs_mu_);
    pdb::PdbStore& store = plan.metric == Metric::multi ? multi_pdbs_ : pdbs_;
    const PatternChoice choice = pattern_choice(plan, goal, store);
    const pdb::Partition& part = choice.partition;
    name = choice.name();
    o.heuristic = choice.entry;  // the default may have become another kind (pdb::choose_default)
    const std::string key = goal.board.name() + goal.to_string() + name;
    auto it = heuristics_.find(key);
    if (it == heuristics_.end()) {
      const auto t0 = std::chrono::steady_clock::now();
      it = heuristics_.emplace(key, std::make_unique<pdb::PdbHeuristic>(
                                        pdb::make_heuristic(store, goal, part, choice.zero_aware))).first;
      const double load = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (announce && !c_.json && (c_.progress || ::isatty(STDERR_FILENO))) {
        char line[200];
        std::snprintf(line, sizeof line, "pattern databases %s%s ready in %.3f s", part.name.c_str(),
                      it->second->reflects() ? " (+ reflection)" : "", load);
        note(line);
      }
    }
    o.pdb = it->second.get();
  }
  if (plan.needs_table) {
    const std::lock_guard lock(tables_mu_);
    o.table = &tables(plan.metric).goal(goal.board, goal.blank);
  }
  if (plan.automaton) {
    const std::lock_guard lock(pdbs_mu_);
    if (!automaton_) automaton_ = load_automaton(c_);
    o.automaton = automaton_.get();
  }
  return name;
}

}  // namespace tilespace::app
