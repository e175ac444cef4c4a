// The solver registry and the planning step (search/registry.hpp).
#include "tilespace/search/registry.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"
#include "tilespace/search/trace.hpp"

namespace tilespace::search {

namespace {

constexpr OptionSet kLimits = bit(Option::max_nodes) | bit(Option::max_seconds) | bit(Option::max_memory);
constexpr OptionSet kTraced = bit(Option::trace) | bit(Option::trace_limit);
constexpr OptionSet kBase = kLimits | kTraced;
constexpr OptionSet kInformed = kBase | bit(Option::heuristic) | bit(Option::pattern);
constexpr OptionSet kPruned = kInformed | bit(Option::automaton);

}  // namespace

std::string_view option_name(Option o) noexcept {
  switch (o) {
    case Option::heuristic: return "heuristic";
    case Option::pattern: return "pattern";
    case Option::weight: return "weight";
    case Option::depth_limit: return "depth-limit";
    case Option::max_nodes: return "max-nodes";
    case Option::max_seconds: return "max-seconds";
    case Option::max_memory: return "max-memory";
    case Option::trace: return "trace";
    case Option::trace_limit: return "trace-limit";
    case Option::automaton: return "automaton";
  }
  return "";
}

const std::vector<AlgorithmInfo>& algorithm_catalog() {
  static const std::vector<AlgorithmInfo> catalog{
      {"table", true, false, kBase, false, "descent on the exact distance table"},
      {"bfs", true, false, kBase, true, "breadth-first search"},
      {"bibfs", true, false, kBase, true, "bidirectional breadth-first search"},
      {"dfs", false, false, kBase | bit(Option::depth_limit), true,
       "depth-first search to --depth-limit, cycle check on the path"},
      {"iddfs", true, false, kBase | bit(Option::depth_limit), true,
       "iterative deepening depth-first search up to --depth-limit"},
      {"greedy", false, true, kInformed, true, "greedy best-first search on h"},
      {"astar", true, true, kInformed, true, "A*: best-first on f = g + h"},
      {"wastar", false, true, kInformed | bit(Option::weight), true, "weighted A*: f = g + w*h (--weight)"},
      {"idastar", true, true, kPruned, true,
       "IDA*: iterative deepening on f = g + h, pruned by the move automaton (--automaton)"},
      {"aidastar", true, true, kPruned & ~kTraced, true,
       "A*+IDA*: A* within --max-memory, then IDA* below its frontier on --threads (Bu & Korf 2019)"},
  };
  return catalog;
}

const std::vector<HeuristicInfo>& heuristic_catalog() {
  static const std::vector<HeuristicInfo> catalog{
      {"misplaced", true, false, false, "tiles not on their goal cell (blank excluded)"},
      {"manhattan", true, false, false, "sum of the tiles' Manhattan distances to their goal cells"},
      {"linear-conflict", true, false, false, "Manhattan + 2 per tile that must leave its line to resolve reversals"},
      {"inversions", false, false, false, "3 x |inversions(state) - inversions(goal)|"},
      {"inversions-weighted", false, false, false,
       "|weighted inversions(state) - weighted inversions(goal)|, pairs weighted by label difference"},
      {"misplaced-inversions", false, false, false, "misplaced + 3 x |inversion difference|"},
      {"misplaced-shared-pairs", true, false, false,
       "misplaced minus value-inverted pairs already in goal order (at least 0)"},
      {"index-distance", false, false, false, "sum of |index in state - index in goal|, ignoring geometry"},
      {"exact", true, true, false, "the exact distance from the distance table"},
      {"pdb", true, false, true,
       "additive pattern databases: pdb picks the board's stock partition; pdb:7-8, pdb:6-6-3, pdb:5-5-5 "
       "(4x4), pdb:6-6-6-6 (5x5), pdb:4-4 (3x3), pdb:1,2,3/4,5,6"},
  };
  return catalog;
}

const AlgorithmInfo* find_algorithm(std::string_view name) noexcept {
  for (const auto& a : algorithm_catalog())
    if (a.name == name) return &a;
  return nullptr;
}

const HeuristicInfo* find_heuristic(std::string_view name) noexcept {
  if (name.substr(0, 4) == "pdb:") name = "pdb";
  for (const auto& h : heuristic_catalog())
    if (h.name == name) return &h;
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

// ---- numbers ----

namespace {

std::string quoted(std::string_view t) {
  std::string s = "'";
  for (const char c : t.substr(0, 40)) s += (c >= 32 && c < 127) ? c : '?';
  return s + (t.size() > 40 ? "...'" : "'");
}

std::string real_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.15g", v);
  return b;
}

}  // namespace

std::uint64_t parse_whole(std::string_view option, std::string_view text, std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  const std::string range = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
  if (ec == std::errc::result_out_of_range) throw option_error(std::string(option), "must be " + range + ", not " + quoted(text) + " (too large)");
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw option_error(std::string(option), "must be " + range + ", not " + quoted(text));
  if (v < lo || v > hi) throw option_error(std::string(option), "must be " + range + ", not " + quoted(text));
  return v;
}

double parse_real(std::string_view option, std::string_view text, double lo, double hi, bool lo_open) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  const std::string range = lo_open ? "a number above " + real_text(lo) + " and at most " + real_text(hi)
                                    : "a number from " + real_text(lo) + " to " + real_text(hi);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) ||
      v < lo || (lo_open && v == lo) || v > hi)
    throw option_error(std::string(option), "must be " + range + ", not " + quoted(text));
  return v;
}

std::uint64_t parse_bytes(std::string_view option, std::string_view text) {
  const std::string usage = "expected bytes such as 512M or 2G, not " + quoted(text);
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || !std::isfinite(v)) throw option_error(std::string(option), usage);
  const std::string_view unit = text.substr(static_cast<std::size_t>(end - text.data()));
  double scale = 1;
  if (unit == "K" || unit == "k" || unit == "KiB") scale = 1024.0;
  else if (unit == "M" || unit == "MiB") scale = 1024.0 * 1024;
  else if (unit == "G" || unit == "GiB") scale = 1024.0 * 1024 * 1024;
  else if (unit == "T" || unit == "TiB") scale = 1024.0 * 1024 * 1024 * 1024;
  else if (!unit.empty() && unit != "B") throw option_error(std::string(option), "unknown unit " + quoted(unit) + ": " + usage);
  const double bytes = v * scale;
  if (!(bytes >= 1)) throw option_error(std::string(option), "must be at least 1 byte, not " + quoted(text));
  if (bytes > 0x1p60) throw option_error(std::string(option), "must be at most 1024 P, not " + quoted(text));
  return static_cast<std::uint64_t>(bytes);
}

// ---- planning ----

namespace {

// Boards with stock pattern-database partitions (pdb/pattern.hpp), where pdb is the default heuristic.
bool stock_pdb(const Board& b) { return b.width() == b.height() && (b.width() == 4 || b.width() == 5); }

}  // namespace

std::string default_search(const Board& board) {
  // Measured (docs/benchmarks.md): on the 15-puzzle IDA* with 7-8 solves an instance in about
  // 2 ms, faster than A*+IDA*'s A* phase costs; on the 24-puzzle A*+IDA* expands several times
  // fewer nodes and uses every core.
  return board.cells() > kMaxCells ? "aidastar" : "idastar";
}

const std::vector<NamedOption>& named_options() {
  static const std::vector<NamedOption> options{
      {"pattern", &SolveRequest::pattern},         {"weight", &SolveRequest::weight},
      {"depth_limit", &SolveRequest::depth_limit}, {"max_nodes", &SolveRequest::max_nodes},
      {"max_seconds", &SolveRequest::max_seconds}, {"max_memory", &SolveRequest::max_memory},
      {"trace_limit", &SolveRequest::trace_limit}, {"automaton", &SolveRequest::automaton}};
  return options;
}

SolvePlan plan_solve(const SolveRequest& q, const PlanContext& ctx) {
  SolvePlan p;
  const bool packed = is_packed(ctx.board);
  const bool pdb_asked = (q.heuristic && find_heuristic(*q.heuristic) && find_heuristic(*q.heuristic)->pattern_database) ||
                         q.pattern.has_value();

  // The algorithm: given, else the table where it can be had, else IDA*.
  if (q.algorithm) {
    p.algorithm = *q.algorithm;
  } else if (!ctx.default_algorithm.empty()) {
    p.algorithm = ctx.default_algorithm;
  } else {
    p.algorithm = packed && ctx.table_available && !q.heuristic && !pdb_asked ? "table" : default_search(ctx.board);
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

  // Every option given must apply to the algorithm.
  auto given = [&](Option o) -> bool {
    switch (o) {
      case Option::heuristic: return q.heuristic.has_value();
      case Option::pattern: return q.pattern.has_value();
      case Option::weight: return q.weight.has_value();
      case Option::depth_limit: return q.depth_limit.has_value();
      case Option::max_nodes: return q.max_nodes.has_value();
      case Option::max_seconds: return q.max_seconds.has_value();
      case Option::max_memory: return q.max_memory.has_value();
      case Option::trace: return q.trace;
      case Option::trace_limit: return q.trace_limit.has_value();
      case Option::automaton: return q.automaton.has_value();
    }
    return false;
  };
  for (int i = 0; i < kOptions; ++i) {
    const auto o = static_cast<Option>(i);
    if (given(o) && !(alg->applies & bit(o))) {
      const char* why = o == Option::heuristic || o == Option::pattern ? " (it takes no heuristic)" : "";
      throw option_error(std::string(option_name(o)), "does not apply to " + p.algorithm + why);
    }
  }

  // The heuristic.
  if (alg->uses_heuristic) {
    p.heuristic = q.heuristic.value_or(q.pattern ? "pdb"
                                       : !ctx.default_heuristic.empty() ? ctx.default_heuristic
                                       : stock_pdb(ctx.board) ? "pdb" : "manhattan");
    const HeuristicInfo* h = find_heuristic(p.heuristic);
    if (!h) throw option_error("heuristic", "unknown heuristic '" + p.heuristic + "' (" + heuristic_names() + ")");
    p.pattern_database = h->pattern_database;
    p.needs_table = h->needs_table;
    p.optimal = alg->optimal && h->admissible;
    if (q.pattern && !p.pattern_database)
      throw option_error("pattern", "applies to pattern-database heuristics (--heuristic pdb), not " + p.heuristic);
    if (h->needs_table && !packed)
      throw option_error("heuristic", p.heuristic + " needs the distance table, which exists for boards of at most " +
                                          std::to_string(kMaxCells) + " cells; the " + ctx.board.name() + " board has " +
                                          std::to_string(ctx.board.cells()));
    if (p.pattern_database) {
      const std::string spec = p.heuristic.size() > 4 ? p.heuristic.substr(4) : "";
      if (!spec.empty() && q.pattern && *q.pattern != spec)
        throw option_error("pattern", "give the pattern once: --heuristic " + p.heuristic + " or --pattern " + *q.pattern);
      p.pattern = q.pattern.value_or(spec);
    }
  } else {
    p.optimal = alg->optimal;
    p.needs_table = p.algorithm == "table";
  }

  // Traces are recorded on packed boards, by the searches that record one.
  if ((q.trace || q.trace_limit) && !packed)
    throw option_error(q.trace ? "trace" : "trace-limit",
                       "records searches on boards of at most " + std::to_string(kMaxCells) + " cells, not " + ctx.board.name());
  // The move automaton: on unless --automaton off.
  if (alg->applies & bit(Option::automaton)) {
    if (q.automaton && *q.automaton != "on" && *q.automaton != "off")
      throw option_error("automaton", "must be on or off, not '" + *q.automaton + "'");
    p.automaton = q.automaton.value_or("on") == "on";
  }

  // Numbers.
  if (q.weight) p.weight = parse_real("weight", *q.weight, 1.0, 100.0);
  if (q.depth_limit) p.depth_limit = static_cast<int>(parse_whole("depth-limit", *q.depth_limit, 0, 1000));
  const std::uint64_t max_nodes_hi = ctx.max_nodes_ceiling ? ctx.max_nodes_ceiling : std::numeric_limits<std::int64_t>::max();
  p.limits.max_nodes = q.max_nodes ? parse_whole("max-nodes", *q.max_nodes, 1, max_nodes_hi) : ctx.max_nodes_ceiling;
  const double max_seconds_hi = ctx.max_seconds_ceiling > 0 ? ctx.max_seconds_ceiling : 1e9;
  p.limits.max_seconds = q.max_seconds ? parse_real("max-seconds", *q.max_seconds, 0, max_seconds_hi, true) : ctx.max_seconds_ceiling;
  p.limits.max_bytes = q.max_memory ? parse_bytes("max-memory", *q.max_memory)
                      : p.algorithm == "aidastar" ? ctx.default_hybrid_bytes : ctx.default_max_bytes;
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
