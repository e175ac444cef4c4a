// The solver registry and the planning step (search/registry.hpp).
#include "tilespace/search/registry.hpp"

#include "tilespace/pdb/pattern.hpp"
#include "tilespace/search/walking_distance.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "catalogue.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"
#include "tilespace/search/trace.hpp"

namespace tilespace::search {

std::string_view option_name(Option o) noexcept {
  switch (o) {
#define TILESPACE_OPTION_NAME(id, name, kind, help) \
  case Option::id: return name;
    TILESPACE_SOLVE_OPTIONS(TILESPACE_OPTION_NAME)
#undef TILESPACE_OPTION_NAME
  }
  return "";
}

bool option_is_flag(Option o) noexcept {
  switch (o) {
#define TILESPACE_OPTION_KIND(id, name, kind, help) \
  case Option::id: return OptionKind::kind == OptionKind::flag;
    TILESPACE_SOLVE_OPTIONS(TILESPACE_OPTION_KIND)
#undef TILESPACE_OPTION_KIND
  }
  return false;
}

std::string option_help(Option o) {
  std::string help;
  switch (o) {
#define TILESPACE_OPTION_HELP(id, name, kind, text) \
  case Option::id: help = text; break;
    TILESPACE_SOLVE_OPTIONS(TILESPACE_OPTION_HELP)
#undef TILESPACE_OPTION_HELP
  }
  if (const auto at = help.find("{heuristics}"); at != std::string::npos) help.replace(at, 12, heuristic_names());
  return help;
}

namespace {

template <OptionKind K>
bool is_given(const OptionField<K>& f) {
  if constexpr (K == OptionKind::flag) {
    return f;
  } else {
    return f.has_value();
  }
}

template <OptionKind K>
std::optional<std::string>* text_of(OptionField<K>& f) {
  if constexpr (K == OptionKind::flag) {
    return nullptr;
  } else {
    return &f;
  }
}

}  // namespace

bool SolveRequest::given(Option o) const noexcept {
  switch (o) {
#define TILESPACE_OPTION_GIVEN(id, name, kind, help) \
  case Option::id: return is_given<OptionKind::kind>(id);
    TILESPACE_SOLVE_OPTIONS(TILESPACE_OPTION_GIVEN)
#undef TILESPACE_OPTION_GIVEN
  }
  return false;
}

std::optional<std::string>* SolveRequest::text(Option o) noexcept {
  switch (o) {
#define TILESPACE_OPTION_TEXT(id, name, kind, help) \
  case Option::id: return text_of<OptionKind::kind>(id);
    TILESPACE_SOLVE_OPTIONS(TILESPACE_OPTION_TEXT)
#undef TILESPACE_OPTION_TEXT
  }
  return nullptr;
}

const std::vector<AlgorithmInfo>& algorithm_catalog() {
  static const std::vector<AlgorithmInfo> catalog = catalogue::infos(catalogue::Algorithms{});
  return catalog;
}

const std::vector<HeuristicInfo>& heuristic_catalog() {
  static const std::vector<HeuristicInfo> catalog = catalogue::infos(catalogue::Heuristics{});
  return catalog;
}

const AlgorithmInfo* find_algorithm(std::string_view name) noexcept {
  for (const auto& a : algorithm_catalog())
    if (a.name == name) return &a;
  return nullptr;
}

std::string_view heuristic_entry(std::string_view name) noexcept { return name.substr(0, name.find(':')); }

std::string_view heuristic_partition(std::string_view name) noexcept {
  const auto colon = name.find(':');
  return colon == std::string_view::npos ? std::string_view() : name.substr(colon + 1);
}

const HeuristicInfo* find_heuristic(std::string_view name) noexcept {
  const std::string_view entry = heuristic_entry(name);
  for (const auto& h : heuristic_catalog())
    if (h.name == entry && (entry.size() == name.size() || h.pattern_database)) return &h;
  return nullptr;
}

std::string algorithm_names() {
  std::string s;
  for (const auto& a : algorithm_catalog()) s += (s.empty() ? "" : ", ") + std::string(a.name);
  return s;
}

std::string heuristic_names() {
  std::string s;
  for (const auto& h : heuristic_catalog()) s += (s.empty() ? "" : ", ") + std::string(h.name);
  return s;
}

// ---- planning ----

namespace {

// Boards with stock pattern-database partitions (pdb/pattern.hpp), where pdb is the default heuristic.
bool stock_pdb(const Board& b) { return b.width() == b.height() && (b.width() == 4 || b.width() == 5); }

// In the multi-tile metric: the multi-tile databases on 4x4 (Korf's 100 in 3 s with 7-7, 14 s with
// 6-6, against 91 s for one instance with walking distance alone: docs/benchmarks.md), unless the
// front end keeps to light heuristics (`light`: the server's default builds no database); walking
// distance on the other boards of 16 cells it takes; else multi-manhattan. Smaller boards have
// their exact table.
const char* multi_default_heuristic(const Board& b, bool light) {
  if (b.cells() < 16 || !walking_distance_takes(b)) return "multi-manhattan";
  return light || pdb::stock_partitions(b, Metric::multi).empty() ? "walking-distance" : "mpdb";
}

}  // namespace

std::string default_search(const Board& board) {
  // Measured (docs/benchmarks.md): on the 15-puzzle IDA* with 7-8 solves an instance in about
  // 2 ms, faster than A*+IDA*'s A* phase costs; on the 24-puzzle A*+IDA* expands several times
  // fewer nodes and uses every core.
  return board.cells() > kMaxCells ? "aidastar" : "idastar";
}

namespace {

// A text option by its keyword ("max_nodes"); flags are taken by each front end in its own way.
template <class M>
void add_named(std::vector<NamedOption>& v, std::string_view name, Option o, M SolveRequest::*field) {
  if constexpr (std::is_same_v<M, std::optional<std::string>>) {
    std::string keyword(name);
    std::replace(keyword.begin(), keyword.end(), '-', '_');
    v.push_back({keyword, o, field});
  }
}

}  // namespace

const std::vector<NamedOption>& named_options() {
  static const std::vector<NamedOption> options = [] {
    std::vector<NamedOption> v;
#define TILESPACE_OPTION_NAMED(id, name, kind, help) add_named(v, name, Option::id, &SolveRequest::id);
    TILESPACE_SOLVE_OPTIONS(TILESPACE_OPTION_NAMED)
#undef TILESPACE_OPTION_NAMED
    return v;
  }();
  return options;
}

namespace {

// "table, bfs, ..." of the algorithms (heuristics) that count multi-tile moves.
std::string multi_tile_algorithms() {
  std::string s;
  for (const auto& a : algorithm_catalog())
    if (!a.single_tile_only) s += (s.empty() ? "" : ", ") + std::string(a.name);
  return s;
}
std::string multi_tile_heuristics() {
  std::string s;
  for (const auto& h : heuristic_catalog())
    if (h.multi_tile) s += (s.empty() ? "" : ", ") + std::string(h.name);
  return s;
}

}  // namespace

SolvePlan plan_solve(const SolveRequest& q, const PlanContext& ctx) {
  SolvePlan p;
  const bool packed = is_packed(ctx.board);
  if (q.metric) p.metric = metric_option(*q.metric);
  const bool multi = p.metric == Metric::multi;
  const bool pdb_asked = (q.heuristic && find_heuristic(*q.heuristic) && find_heuristic(*q.heuristic)->pattern_database) ||
                         q.pattern.has_value();

  // The algorithm: given, else the table where it can be had, else IDA*.
  if (q.algorithm) {
    p.algorithm = *q.algorithm;
  } else if (!ctx.default_algorithm.empty()) {
    p.algorithm = ctx.default_algorithm;
  } else {
    p.algorithm = packed && ctx.table_available && !q.heuristic && !pdb_asked ? "table"
                  : multi                                                       ? "idastar"
                                                                                : default_search(ctx.board);
  }
  const AlgorithmInfo* alg = find_algorithm(p.algorithm);
  if (!alg) throw option_error("algorithm", "unknown algorithm '" + p.algorithm + "' (" + algorithm_names() + ")");
  if (!packed && !alg->any_board) {
    const std::string why = p.algorithm + " works on boards of at most " + std::to_string(kMaxCells) + " cells; the " +
                            ctx.board.name() + " board has " + std::to_string(ctx.board.cells()) +
                            " cells: solve it with a search (--algorithm idastar or aidastar)";
    if (q.algorithm) throw option_error("algorithm", why);
    throw InputError(InputError::About::board, why);  // the front end's default algorithm: the board is at fault
  }

  if (multi && alg->single_tile_only)
    throw option_error(q.algorithm ? "algorithm" : "metric",
                       p.algorithm + " counts single-tile moves; in the multi-tile metric use " + multi_tile_algorithms());

  // Every option given must apply to the algorithm.
  for (int i = 0; i < kOptions; ++i) {
    const auto o = static_cast<Option>(i);
    if (q.given(o) && !(alg->applies & bit(o))) {
      const char* why = o == Option::heuristic || o == Option::pattern ? " (it takes no heuristic)" : "";
      throw option_error(std::string(option_name(o)), "does not apply to " + p.algorithm + why);
    }
  }

  // The heuristic.
  if (alg->uses_heuristic) {
    const bool front_default_fits = !ctx.default_heuristic.empty() &&
                                    (!multi || (find_heuristic(ctx.default_heuristic) && find_heuristic(ctx.default_heuristic)->multi_tile));
    p.heuristic = q.heuristic.value_or(q.pattern ? (multi ? "mpdb" : "pdb")
                                       : front_default_fits ? ctx.default_heuristic
                                       : multi ? multi_default_heuristic(ctx.board, !ctx.default_heuristic.empty())
                                       : stock_pdb(ctx.board) ? "pdb" : "manhattan");
    const HeuristicInfo* h = find_heuristic(p.heuristic);
    if (!h) throw option_error("heuristic", "unknown heuristic '" + p.heuristic + "' (" + heuristic_names() + ")");
    if (multi && !h->multi_tile)
      throw option_error(q.heuristic ? "heuristic" : "pattern",
                         p.heuristic + " counts single-tile moves; in the multi-tile metric use " + multi_tile_heuristics());
    if (!multi && h->multi_only)
      throw option_error("heuristic", p.heuristic + " counts multi-tile moves: give --metric multi (pattern databases "
                                                    "of single-tile moves: pdb, zpdb, catalogue)");
    p.pattern_database = h->pattern_database;
    p.zero_aware = h->zero_aware;
    p.catalogue = h->catalogue;
    p.heuristic_chosen = !q.heuristic && !q.pattern && ctx.default_heuristic.empty() && !multi;
    p.needs_table = h->needs_table;
    p.optimal = alg->optimal && h->admissible;
    if (q.pattern && !p.pattern_database)
      throw option_error("pattern", "applies to pattern-database heuristics (--heuristic pdb), not " + p.heuristic);
    if (h->needs_table && !packed)
      throw option_error("heuristic", p.heuristic + " needs the distance table, which exists for boards of at most " +
                                          std::to_string(kMaxCells) + " cells; the " + ctx.board.name() + " board has " +
                                          std::to_string(ctx.board.cells()));
    if (p.pattern_database) {
      const std::string spec(heuristic_partition(p.heuristic));
      if (!spec.empty() && q.pattern && *q.pattern != spec)
        throw option_error("pattern", "give the pattern once: --heuristic " + p.heuristic + " or --pattern " + *q.pattern);
      p.pattern = q.pattern.value_or(spec);
    }
  } else {
    p.optimal = alg->optimal;
    p.needs_table = alg->needs_table;
  }

  // Traces are recorded on packed boards, by the searches that record one, in either metric.
  if ((q.trace || q.trace_limit) && !packed)
    throw option_error(q.trace ? "trace" : "trace-limit",
                       "records searches on boards of at most " + std::to_string(kMaxCells) + " cells, not " + ctx.board.name());
  // The move automaton: on unless --automaton off.
  if (alg->applies & bit(Option::automaton)) {
    if (q.automaton && *q.automaton != "on" && *q.automaton != "off")
      throw option_error("automaton", "must be on or off, not '" + *q.automaton + "'");
    if (multi && q.automaton && *q.automaton == "on")
      throw option_error("automaton", "prunes single-tile move strings; it does not apply with --metric multi");
    p.automaton = !multi && q.automaton.value_or("on") == "on";
  }

  // Numbers.
  if (q.weight) p.weight = parse_real("weight", *q.weight, 1.0, 100.0);
  if (q.depth_limit) p.depth_limit = static_cast<int>(parse_whole("depth-limit", *q.depth_limit, 0, 1000));
  const std::uint64_t max_nodes_hi = ctx.max_nodes_ceiling ? ctx.max_nodes_ceiling : std::numeric_limits<std::int64_t>::max();
  p.limits.max_nodes = q.max_nodes ? parse_whole("max-nodes", *q.max_nodes, 1, max_nodes_hi) : ctx.max_nodes_ceiling;
  const double max_seconds_hi = ctx.max_seconds_ceiling > 0 ? ctx.max_seconds_ceiling : 1e9;
  p.limits.max_seconds = q.max_seconds ? parse_real("max-seconds", *q.max_seconds, 0, max_seconds_hi, true) : ctx.max_seconds_ceiling;
  p.limits.max_bytes = q.max_memory ? parse_bytes("max-memory", *q.max_memory)
                      : alg->memory_is_store ? ctx.default_hybrid_bytes : ctx.default_max_bytes;
  if (ctx.max_bytes_ceiling && p.limits.max_bytes > ctx.max_bytes_ceiling)
    throw option_error("max-memory", "must be at most " + std::to_string(ctx.max_bytes_ceiling) + " bytes here");
  p.trace = q.trace;
  p.trace_limit = q.trace_limit ? parse_whole("trace-limit", *q.trace_limit, 1, ctx.trace_limit_ceiling)
                                : std::min(ctx.trace_limit_default, ctx.trace_limit_ceiling);
  if (q.trace_limit && !q.trace) throw option_error("trace-limit", "applies only when a trace is recorded");
  // A trace is held whole until it is written: refused up front when a full one would not fit
  // the search's memory limit (or, without one, the machine's memory).
  if (p.trace) {
    const std::uint64_t need = p.trace_limit * Trace::bytes_per_node(ctx.board.cells());
    const std::string what = "a trace of up to " + std::to_string(p.trace_limit) + " nodes on " + ctx.board.name();
    if (p.limits.max_bytes && need > p.limits.max_bytes)
      throw ResourceError(what + " needs up to " + byte_words(need) + " of memory, past the memory limit of " +
                          byte_words(p.limits.max_bytes) + ": lower the trace limit or raise the memory limit");
    require_memory(need, what);
  }
  return p;
}

}  // namespace tilespace::search
