// Fuzz target: option numbers (search/registry.hpp's parse_whole, parse_real, parse_bytes) and
// the planning of a solve request from option texts (plan_solve), as every front end passes them.
//
// Input: byte 0 chooses the ranges and the planning context (board, table, ceilings), byte 1
// which request options are given (fields 1-10 by bits 0-6, 0-2 again; bit 7: --trace), the rest is the texts cut at
// '|': a number for the three parsers, then ALGORITHM|HEURISTIC|PATTERN|WEIGHT|DEPTH_LIMIT|
// MAX_NODES|MAX_SECONDS|MAX_MEMORY|TRACE_LIMIT|AUTOMATON. Bad text must be an InputError about
// the option; a number returned is in its range, and a plan keeps every limit and ceiling.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "support.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/search/trace.hpp"

using namespace tilespace;
using namespace tilespace::search;

namespace {

bool about_option(const InputError& e, std::string_view name) {
  return e.about == InputError::About::option && e.name == name;
}

void numbers(std::string_view text, std::uint8_t mode) {
  struct Whole {
    std::uint64_t lo, hi;
  };
  static constexpr Whole kWhole[] = {{0, 1000}, {1, std::numeric_limits<std::int64_t>::max()}, {1, 10'000'000},
                                     {0, std::numeric_limits<std::uint64_t>::max()}, {5, 5}, {0, 100000}};
  const Whole w = kWhole[mode % 6];
  try {
    const std::uint64_t v = parse_whole("max-nodes", text, w.lo, w.hi);
    fuzz::check(v >= w.lo && v <= w.hi, "parse_whole: out of range");
    std::string_view digits = text;
    while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
    fuzz::check(std::to_string(v) == digits, "parse_whole: not the number written");
  } catch (const InputError& e) {
    fuzz::check(about_option(e, "max-nodes"), "parse_whole: an error about something else");
  }

  struct Real {
    double lo, hi;
    bool open;
  };
  static constexpr Real kReal[] = {{0, 1e9, true}, {1.0, 100.0, false}, {0, 60, true}, {-1e300, 1e300, false}};
  const Real r = kReal[(mode >> 3) % 4];
  try {
    const double v = parse_real("weight", text, r.lo, r.hi, r.open);
    fuzz::check(std::isfinite(v) && v >= r.lo && v <= r.hi && !(r.open && v == r.lo), "parse_real: out of range");
  } catch (const InputError& e) {
    fuzz::check(about_option(e, "weight"), "parse_real: an error about something else");
  }

  try {
    const std::uint64_t v = parse_bytes("max-memory", text);
    fuzz::check(v >= 1 && v <= (std::uint64_t{1} << 60), "parse_bytes: out of range");
    // A plain whole number is that many bytes.
    if (!text.empty() && text.size() <= 15 && text.find_first_not_of("0123456789") == std::string_view::npos)
      fuzz::check(v == std::stoull(std::string(text)), "parse_bytes: not the number written");
  } catch (const InputError& e) {
    fuzz::check(about_option(e, "max-memory"), "parse_bytes: an error about something else");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  const std::uint8_t mode = data[0], given = data[1];
  const std::string_view input(reinterpret_cast<const char*>(data + 2), size - 2);
  const auto f = fuzz::split_fields(input, '|', 11);
  numbers(f[0], mode);

  auto field = [&](std::size_t i) -> std::optional<std::string> {
    // Given when present and its bit is set (fields 1..10 by bits 0..6, 0..2 again).
    if (i >= f.size() || !((given >> ((i - 1) % 7)) & 1u)) return std::nullopt;
    return std::string(f[i]);
  };
  SolveRequest q;
  q.algorithm = field(1);
  q.heuristic = field(2);
  q.pattern = field(3);
  q.weight = field(4);
  q.depth_limit = field(5);
  q.max_nodes = field(6);
  q.max_seconds = field(7);
  q.max_memory = field(8);
  q.trace_limit = field(9);
  q.automaton = field(10);
  q.trace = given & 0x80u;

  PlanContext ctx;
  static const Board kBoards[] = {Board(3, 3), Board(4, 4), Board(5, 5), Board(2, 3), Board(3, 5)};
  ctx.board = kBoards[(mode >> 5) % 5];
  ctx.table_available = mode & 1u;
  if (mode & 2u) {  // the server's ceilings
    ctx.max_nodes_ceiling = 50'000'000;
    ctx.max_seconds_ceiling = 30;
    ctx.max_bytes_ceiling = std::uint64_t{1} << 30;
    ctx.default_max_bytes = std::uint64_t{256} << 20;
  }
  if (mode & 4u) ctx.default_algorithm = "astar";
  try {
    const SolvePlan p = plan_solve(q, ctx);
    const AlgorithmInfo* a = find_algorithm(p.algorithm);
    fuzz::check(a != nullptr, "a plan with an unknown algorithm");
    fuzz::check(is_packed(ctx.board) || a->any_board, "a plan of a packed-only algorithm on a big board");
    if (a->uses_heuristic) fuzz::check(find_heuristic(p.heuristic) != nullptr, "a plan with an unknown heuristic");
    fuzz::check(p.weight >= 1.0 && p.weight <= 100.0, "weight out of range");
    fuzz::check(p.depth_limit >= 0 && p.depth_limit <= 1000, "depth limit out of range");
    fuzz::check(p.trace_limit >= 1 && p.trace_limit <= ctx.trace_limit_ceiling, "trace limit out of range");
    if (ctx.max_nodes_ceiling) fuzz::check(p.limits.max_nodes >= 1 && p.limits.max_nodes <= ctx.max_nodes_ceiling, "max nodes above the ceiling");
    if (ctx.max_seconds_ceiling > 0)
      fuzz::check(p.limits.max_seconds > 0 && p.limits.max_seconds <= ctx.max_seconds_ceiling, "max seconds above the ceiling");
    if (ctx.max_bytes_ceiling) fuzz::check(p.limits.max_bytes <= ctx.max_bytes_ceiling, "max bytes above the ceiling");
    if (q.trace_limit) fuzz::check(q.trace, "a trace limit without a trace");
    if (p.trace && p.limits.max_bytes)
      fuzz::check(p.trace_limit * Trace::bytes_per_node(ctx.board.cells()) <= p.limits.max_bytes,
                  "a trace that cannot fit the memory limit was planned");
  } catch (const ResourceError& e) {  // only a trace too big for the memory limit (or the machine)
    const std::string what = e.what();
    fuzz::check(q.trace && what.find("a trace of up to ") == 0,
                "plan_solve: a ResourceError that is not a trace refusal: " + what);
  } catch (const InputError& e) {
    fuzz::check(e.about == InputError::About::option || e.about == InputError::About::board,
                std::string("plan_solve: an error about neither an option nor the board: ") + e.what());
  }
  return 0;
}
