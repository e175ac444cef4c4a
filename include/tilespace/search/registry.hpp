// The solver registry: every algorithm and heuristic with what it needs and what it claims, in
// one table that `--help`, `/api/info`, the lab, the server and the viewer all read; and the one
// planning step that validates a solve request and fills in its defaults, for the command line,
// `solve --batch`, `compare`, `verify` and the HTTP API alike.
//
// A request carries options by name as text, exactly as the user gave them (the command line's
// `--max-nodes 5`, the API's `max_nodes=5`). Planning rejects, with an InputError about the
// option (errors.hpp: About::option, the command line's long name), an unknown algorithm or
// heuristic, an option that does not apply to the chosen algorithm or board, and a number out of
// range (negative, zero where meaningless, NaN, not a number, too large).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/numbers.hpp"  // the planner's numbers; front ends include it through here too
#include "tilespace/search/result.hpp"

namespace tilespace::search {

// Every option of a solve request, registered once: X(identifier, the command line's long name,
// kind, help). From this list come the Option enum, option_name, SolveRequest's fields, the
// planner's check that an option applies, named_options (the server's parameters and Python's
// keywords, the long name with '_') and the command line's options with their help. A text
// option is kept as given, for the planner to check; `trace` is the one flag (the command line's
// --trace FILE, the API's trace=1). Adding an option is one line here, its use in plan_solve, and
// the algorithms it applies to (catalogue.hpp).
#define TILESPACE_SOLVE_OPTIONS(X)                                                                                    \
  X(heuristic, "heuristic", text,                                                                                     \
    "For greedy, astar, wastar, idastar, aidastar: {heuristics} (default pdb on 4x4 and 5x5, else manhattan)")        \
  X(pattern, "pattern", text,                                                                                         \
    "Pattern-database partition: a stock name or tiles, e.g. 1,2,3,4,5,6,7/8,9,10,11,12,13,14,15")                    \
  X(weight, "weight", text, "wastar: f = g + weight*h, from 1 to 100 (default 2)")                                   \
  X(depth_limit, "depth-limit", text,                                                                                 \
    "dfs: the depth limit; iddfs: the largest limit, 0 to 1000 (default 50; exit 4 when reached)")                    \
  X(max_nodes, "max-nodes", text, "Stop after this many expansions (at least 1; exit 4)")                            \
  X(max_seconds, "max-seconds", text, "Stop after this many seconds (above 0; exit 4)")                              \
  X(max_memory, "max-memory", text,                                                                                   \
    "The most memory the search may hold, e.g. 512M (default 3/4 of memory): its nodes, OPEN and CLOSED as they "    \
    "grow, and the tables it reads (pattern databases, distance table, walking distance, move automaton), not the "   \
    "program itself; it stops before passing it (exit 4). aidastar: the memory of its A* phase (default 256 MiB)")    \
  X(metric, "metric", text,                                                                                           \
    "How moves are counted: single (default), or multi: sliding several tiles of the blank's row or column at once "  \
    "is one move (the speed-solvers' metric)")                                                                        \
  X(trace, "trace", flag, "Write the result and the search tree (the viewer's JSON: data, process, moves) to this file") \
  X(trace_limit, "trace-limit", text, "Nodes recorded by --trace, 1 to 10000000 (default 100000)")                   \
  X(automaton, "automaton", text,                                                                                     \
    "idastar, aidastar: on (default) prunes the move strings the move automaton rejects (the deepest one in --db, "   \
    "see build --automaton); off: only never undo the last move")

enum class Option : std::uint8_t {
#define TILESPACE_OPTION_ENUM(id, name, kind, help) id,
  TILESPACE_SOLVE_OPTIONS(TILESPACE_OPTION_ENUM)
#undef TILESPACE_OPTION_ENUM
};
#define TILESPACE_OPTION_COUNT(id, name, kind, help) +1
inline constexpr int kOptions = 0 TILESPACE_SOLVE_OPTIONS(TILESPACE_OPTION_COUNT);
#undef TILESPACE_OPTION_COUNT
using OptionSet = std::uint32_t;
constexpr OptionSet bit(Option o) { return OptionSet{1} << static_cast<int>(o); }
std::string_view option_name(Option o) noexcept;  // "depth-limit"
// The option's help, with the names it lists filled in ("{heuristics}").
std::string option_help(Option o);
// Whether the option takes a value (text) or is a flag (trace).
bool option_is_flag(Option o) noexcept;

struct AlgorithmInfo {
  std::string_view name;
  bool optimal;         // finds optimal solutions (with an admissible heuristic where it takes one)
  bool uses_heuristic;
  OptionSet applies;    // the options that mean something to it
  bool any_board;       // also boards over 16 cells; else packed boards only (the table)
  std::string_view description;
  bool needs_table = false;      // the goal's exact distance table (the table)
  bool memory_is_store = false;  // --max-memory sizes its node store rather than limiting it (aidastar)
  bool single_tile_only = false; // counts single-tile moves only (aidastar); the others take --metric multi
};

struct HeuristicInfo {
  std::string_view name;          // "pdb" and "zpdb" stand for every heuristic of their kind (pdb:SPEC)
  bool admissible;
  bool needs_table;               // the goal's exact distance table
  bool pattern_database;          // pattern databases, additive or zero-aware (boards up to 5x5, any algorithm)
  std::string_view description;
  bool zero_aware = false;        // zero-aware pattern databases (pdb/zero_aware.hpp)
  bool catalogue = false;         // takes catalogues, several partitions (pdb/pattern.hpp); the others take one
  bool multi_tile = false;        // counts multi-tile moves (--metric multi): the only ones taken there
  bool multi_only = false;        // counts multi-tile moves only (mpdb): refused without --metric multi
};

const std::vector<AlgorithmInfo>& algorithm_catalog();
const std::vector<HeuristicInfo>& heuristic_catalog();
const AlgorithmInfo* find_algorithm(std::string_view name) noexcept;
// "pdb" and "pdb:SPEC" both find the pattern-database entry ("zpdb" and "zpdb:SPEC" the zero-aware one).
const HeuristicInfo* find_heuristic(std::string_view name) noexcept;
// A heuristic's name split at its first ':': the catalogue entry ("pdb:7-8" -> "pdb") and the
// partition ("7-8"; "" when there is no ':').
std::string_view heuristic_entry(std::string_view name) noexcept;
std::string_view heuristic_partition(std::string_view name) noexcept;
// "table, bfs, bibfs, ..." for messages and help texts.
std::string algorithm_names();
std::string heuristic_names();

// A solve request: the algorithm and the options given, as text (a flag as bool). Absent means
// "not given".
enum class OptionKind { text, flag };
template <OptionKind K>
using OptionField = std::conditional_t<K == OptionKind::flag, bool, std::optional<std::string>>;
struct SolveRequest {
  std::optional<std::string> algorithm;
#define TILESPACE_OPTION_FIELD(id, name, kind, help) OptionField<OptionKind::kind> id{};
  TILESPACE_SOLVE_OPTIONS(TILESPACE_OPTION_FIELD)
#undef TILESPACE_OPTION_FIELD
  // Whether option `o` was given.
  bool given(Option o) const noexcept;
  // The field of a text option (null for a flag).
  std::optional<std::string>* text(Option o) noexcept;
};

// The text options of a request by the names of the front ends that take them by name, the HTTP
// API and Python (the command line's long names with '_': "max_nodes").
struct NamedOption {
  std::string name;
  Option option;
  std::optional<std::string> SolveRequest::*field;
};
const std::vector<NamedOption>& named_options();

// Where a request is planned: the board, whether the exact table can be had, the defaults and
// the ceilings of the front end (the server caps every limit; the command line does not).
struct PlanContext {
  Board board{3, 3};
  std::string default_algorithm;        // the front end's default ("": table where available, else default_search)
  std::string default_heuristic;        // the front end's default ("": pdb on 4x4 and 5x5, else manhattan)
  bool table_available = false;         // the default algorithm is "table" when true
  std::uint64_t default_max_bytes = 0;  // memory limit without --max-memory (0: none)
  std::uint64_t default_hybrid_bytes = std::uint64_t{1} << 30;  // aidastar: A*'s memory without --max-memory
  std::uint64_t max_nodes_ceiling = 0;  // 0: none; else also the default
  double max_seconds_ceiling = 0;       // 0: none; else also the default
  std::uint64_t max_bytes_ceiling = 0;  // 0: none
  std::size_t trace_limit_default = 100000, trace_limit_ceiling = 10'000'000;
};

// A validated request with every default filled in.
struct SolvePlan {
  std::string algorithm;         // never empty
  std::string heuristic;         // "" when the algorithm takes none; "pdb" or "pdb:SPEC" for pattern databases
  std::string pattern;           // --pattern (pattern databases), may be empty
  bool pattern_database = false;
  bool zero_aware = false;       // the pattern databases are zero-aware ones
  bool catalogue = false;        // the heuristic takes a catalogue (a plain partition is one too)
  bool heuristic_chosen = false; // the heuristic is the default, not asked for: the strongest built may replace it
  double weight = 2.0;
  int depth_limit = 50;
  Limits limits;             // aidastar: max_bytes is A*'s memory, not a limit
  std::size_t trace_limit = 100000;
  bool trace = false;
  bool automaton = false;    // idastar, aidastar: prune with the move automaton (--automaton on|off, default on)
  bool optimal = false;      // the plan claims optimal solutions
  bool needs_table = false;  // "table" or the "exact" heuristic
  Metric metric = Metric::single;  // how moves are counted (--metric)
};

// The default search where the exact table is not at hand (the fastest measured for the board).
std::string default_search(const Board& board);

// Validates `request` and fills in defaults (throws InputError about the option at fault, and
// ResourceError for a trace whose `trace_limit` nodes could not fit the memory limit, or without
// one the machine's memory: Trace::bytes_per_node).
SolvePlan plan_solve(const SolveRequest& request, const PlanContext& context);

}  // namespace tilespace::search
