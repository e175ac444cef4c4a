// Internal to src/search: every algorithm and heuristic, registered once. An entry is its line in
// the catalogue (search/registry.hpp: name, claims, the options that apply, description) and the
// code that runs it; the catalogue that --help, /api/info, the lab and the planner read, the
// dispatch of solve() and the lab's heuristic dispatch are all derived from the two lists at the
// bottom. Adding an algorithm or a heuristic is one entry here (and its code under
// include/tilespace/search/), and its name in the list.
#pragma once

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tilespace/errors.hpp"
#include "tilespace/search/algorithms.hpp"
#include "tilespace/search/automaton.hpp"
#include "tilespace/search/heuristics.hpp"
#include "tilespace/search/pattern_heuristic.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/search/walking_distance.hpp"

namespace tilespace::search::catalogue {

template <class... T>
struct List {};

// The options that apply, by family.
inline constexpr OptionSet kLimits = bit(Option::max_nodes) | bit(Option::max_seconds) | bit(Option::max_memory);
inline constexpr OptionSet kTraced = bit(Option::trace) | bit(Option::trace_limit);
inline constexpr OptionSet kBase = kLimits | kTraced | bit(Option::metric);
inline constexpr OptionSet kInformed = kBase | bit(Option::heuristic) | bit(Option::pattern);
inline constexpr OptionSet kPruned = kInformed | bit(Option::automaton);

// ---- algorithms ----
// Uninformed: static Result run(const D&, const State& start, const SolveOptions&).
// Informed (info.uses_heuristic): static Result run(const D&, const H&, const State& start, const SolveOptions&).
// Best-first ones also give their weights (f = wg*g + wh*h, in hundredths for wastar), which the
// lab's reusable searches take.

struct Table {
  static constexpr AlgorithmInfo info{"table", true, false, kBase, false, "descent on the exact distance table",
                                      /*needs_table=*/true};
  template <class D>
  static Result run(const D& d, const State& start, const SolveOptions& o) {
    if constexpr (D::kPacked) {
      if (!o.table) throw InputError("the table algorithm needs the distance table of the goal");
      o.table->require_metric(d.metric);
      return table_descent(d, *o.table, start, o.limits, o.trace);
    } else {
      throw InputError("the table algorithm needs a distance table: boards of at most 16 cells");
    }
  }
};

struct Bfs {
  static constexpr AlgorithmInfo info{"bfs", true, false, kBase, true, "breadth-first search"};
  template <class D>
  static Result run(const D& d, const State& start, const SolveOptions& o) {
    return breadth_first(d, start, o.limits, o.trace);
  }
};

struct Bibfs {
  static constexpr AlgorithmInfo info{"bibfs", true, false, kBase, true, "bidirectional breadth-first search"};
  template <class D>
  static Result run(const D& d, const State& start, const SolveOptions& o) {
    return bidirectional(d, start, o.limits, o.trace);
  }
};

// dfs and iddfs that exhaust their depth limit on a solvable pair stopped at a limit.
inline Result depth_stopped(Result r) {
  if (!r.solved && r.stopped == Stop::None) r.stopped = Stop::Depth;
  return r;
}

struct Dfs {
  static constexpr AlgorithmInfo info{"dfs", false, false, kBase | bit(Option::depth_limit), true,
                                      "depth-first search to --depth-limit, cycle check on the path"};
  template <class D>
  static Result run(const D& d, const State& start, const SolveOptions& o) {
    return depth_stopped(depth_limited(d, start, o.depth_limit, o.limits, o.trace));
  }
};

struct Iddfs {
  static constexpr AlgorithmInfo info{"iddfs", true, false, kBase | bit(Option::depth_limit), true,
                                      "iterative deepening depth-first search up to --depth-limit"};
  template <class D>
  static Result run(const D& d, const State& start, const SolveOptions& o) {
    return depth_stopped(iterative_deepening(d, start, o.depth_limit, o.limits, o.trace));
  }
};

struct Greedy {
  static constexpr AlgorithmInfo info{"greedy", false, true, kInformed, true, "greedy best-first search on h"};
  static std::pair<int, int> weights(const SolveOptions&) { return {0, 1}; }
  template <class D, class H>
  static Result run(const D& d, const H& h, const State& start, const SolveOptions& o) {
    const auto [wg, wh] = weights(o);
    return best_first(d, h, start, wg, wh, o.limits, o.trace);
  }
};

struct Astar {
  static constexpr AlgorithmInfo info{"astar", true, true, kInformed, true, "A*: best-first on f = g + h"};
  static std::pair<int, int> weights(const SolveOptions&) { return {1, 1}; }
  template <class D, class H>
  static Result run(const D& d, const H& h, const State& start, const SolveOptions& o) {
    return best_first(d, h, start, 1, 1, o.limits, o.trace);
  }
};

struct Wastar {
  static constexpr AlgorithmInfo info{"wastar", false, true, kInformed | bit(Option::weight), true,
                                      "weighted A*: f = g + w*h (--weight)"};
  static std::pair<int, int> weights(const SolveOptions& o) { return {100, static_cast<int>(std::lround(o.weight * 100))}; }
  template <class D, class H>
  static Result run(const D& d, const H& h, const State& start, const SolveOptions& o) {
    const auto [wg, wh] = weights(o);
    return best_first(d, h, start, wg, wh, o.limits, o.trace);
  }
};

struct Idastar {
  static constexpr AlgorithmInfo info{"idastar", true, true, kPruned, true,
                                      "IDA*: iterative deepening on f = g + h, pruned by the move automaton in single-tile moves (--automaton)"};
  template <class D, class H>
  static Result run(const D& d, const H& h, const State& start, const SolveOptions& o) {
    return ida_star(d, h, start, o.limits, o.trace, o.automaton);
  }
};

struct Aidastar {
  static constexpr AlgorithmInfo info{
      "aidastar", true, true, kPruned & ~kTraced, true,
      "A*+IDA*: A* within --max-memory, then IDA* below its frontier on --threads (Bu & Korf 2019)",
      /*needs_table=*/false, /*memory_is_store=*/true, /*single_tile_only=*/true};
  template <class D, class H>
  static Result run(const D& d, const H& h, const State& start, const SolveOptions& o) {
    if (o.trace) throw option_error("trace", "is not recorded by aidastar");
    if (d.multi()) throw option_error("metric", "multi: aidastar counts single-tile moves");
    Limits limits = o.limits;
    const HybridOptions hybrid_options{limits.max_bytes, o.threads};
    limits.max_bytes = 0;  // aidastar's memory is A*'s store, not a limit
    return hybrid(d, h, start, limits, hybrid_options, o.automaton);
  }
};

using Algorithms = List<Table, Bfs, Bibfs, Dfs, Iddfs, Greedy, Astar, Wastar, Idastar, Aidastar>;

// ---- heuristics ----
// static std::shared_ptr<H> make(const D&, const HeuristicSources&): the heuristic built for `d`.

template <template <class> class H, class Tag>
struct Plain {
  template <class D>
  static auto make(const D& d, const HeuristicSources&) {
    return std::make_shared<H<D>>(d);
  }
};

#define TILESPACE_PLAIN_HEURISTIC(Entry, Type, name, admissible, description)  \
  struct Entry : Plain<Type, Entry> {                                          \
    static constexpr HeuristicInfo info{name, admissible, false, false, description}; \
  }

TILESPACE_PLAIN_HEURISTIC(MisplacedEntry, Misplaced, "misplaced", true, "tiles not on their goal cell (blank excluded)");
TILESPACE_PLAIN_HEURISTIC(ManhattanEntry, Manhattan, "manhattan", true,
                          "sum of the tiles' Manhattan distances to their goal cells");
TILESPACE_PLAIN_HEURISTIC(LinearConflictEntry, LinearConflict, "linear-conflict", true,
                          "Manhattan + 2 per tile that must leave its line to resolve reversals");
TILESPACE_PLAIN_HEURISTIC(InversionsEntry, Inversions, "inversions", false,
                          "3 x |inversions(state) - inversions(goal)|");
TILESPACE_PLAIN_HEURISTIC(InversionsWeightedEntry, InversionsWeighted, "inversions-weighted", false,
                          "|weighted inversions(state) - weighted inversions(goal)|, pairs weighted by label difference");
TILESPACE_PLAIN_HEURISTIC(MisplacedInversionsEntry, MisplacedInversions, "misplaced-inversions", false,
                          "misplaced + 3 x |inversion difference|");
TILESPACE_PLAIN_HEURISTIC(MisplacedSharedPairsEntry, MisplacedSharedPairs, "misplaced-shared-pairs", true,
                          "misplaced minus value-inverted pairs already in goal order (at least 0)");
TILESPACE_PLAIN_HEURISTIC(IndexDistanceEntry, IndexDistance, "index-distance", false,
                          "sum of |index in state - index in goal|, ignoring geometry");
#undef TILESPACE_PLAIN_HEURISTIC

struct MultiManhattanEntry : Plain<MultiManhattan, MultiManhattanEntry> {
  static constexpr HeuristicInfo info{
      "multi-manhattan", true, false, false,
      "a lower bound of multi-tile moves (--metric multi): the column distances' sum over W-1 plus the row "
      "distances' sum over H-1, each rounded up",
      /*zero_aware=*/false, /*catalogue=*/false, /*multi_tile=*/true};
};

struct WalkingDistanceEntry : Plain<WalkingDistance, WalkingDistanceEntry> {
  static constexpr HeuristicInfo info{
      "walking-distance", true, false, false,
      "Takahashi's walking distance in the metric's moves: rows and columns abstracted to the counts of each goal "
      "line's tiles, each abstraction's exact distance summed (boards of at most 16 cells: 3x3, 3x4, 2x6, 4x4)",
      /*zero_aware=*/false, /*catalogue=*/false, /*multi_tile=*/true};
};

struct ExactEntry {
  static constexpr HeuristicInfo info{"exact", true, true, false,
                                      "the exact distance from the distance table (of the metric: --metric)",
                                      /*zero_aware=*/false, /*catalogue=*/false, /*multi_tile=*/true};
  template <class D>
  static auto make(const D& d, const HeuristicSources& sources) {
    if constexpr (D::kPacked) {
      if (!sources.table) throw InputError("the exact heuristic needs the distance table of the goal");
      return std::make_shared<Exact<D>>(d, *sources.table);
    } else {
      throw InputError("the exact heuristic needs a distance table: boards of at most 16 cells");
      return std::shared_ptr<Manhattan<D>>();  // never reached; the entry's type on boards over 16 cells
    }
  }
};

struct PdbEntry {
  static constexpr HeuristicInfo info{
      "pdb", true, false, true,
      "additive pattern databases: pdb picks the board's stock partition; pdb:7-8, pdb:6-6-3, pdb:5-5-5 "
      "(4x4), pdb:6-6-6-6 (5x5), pdb:4-4 (3x3), pdb:1,2,3/4,5,6"};
  template <class D>
  static auto make(const D& d, const HeuristicSources& sources) {
    if (!sources.pdb) throw InputError("the pattern-database heuristic needs its databases");
    return std::make_shared<PatternDatabases<D>>(d, *sources.pdb);
  }
};

struct ZpdbEntry {
  static constexpr HeuristicInfo info{
      "zpdb", true, false, true,
      "zero-aware additive pattern databases at one bit an entry (the blank's region counts): zpdb picks the "
      "board's stock partition; zpdb:6-6-3, zpdb:6-6-6-6, zpdb:1,2,3/4,5,6 as for pdb (at most N-3 tiles a pattern)",
      /*zero_aware=*/true};
  template <class D>
  static auto make(const D& d, const HeuristicSources& sources) {
    if (!sources.pdb) throw InputError("the zero-aware pattern-database heuristic needs its databases");
    return std::make_shared<ZeroAwareDatabases<D>>(d, *sources.pdb);
  }
};

struct CatalogueEntry {
  static constexpr HeuristicInfo info{
      "catalogue", true, false, true,
      "the largest of several partitions' zero-aware sums (with reflections): catalogue picks the board's stock "
      "catalogue (5x5: max7, seven 6-6-6-6 partitions); catalogue:SPEC+SPEC joins partitions as pdb names them",
      /*zero_aware=*/true, /*catalogue=*/true};
  template <class D>
  static auto make(const D& d, const HeuristicSources& sources) {
    if (!sources.pdb) throw InputError("the catalogue heuristic needs its zero-aware databases");
    return std::make_shared<ZeroAwareCatalogue<D>>(d, *sources.pdb);
  }
};

struct MpdbEntry {
  static constexpr HeuristicInfo info{
      "mpdb", true, false, true,
      "multi-tile pattern databases (--metric multi), each over its tiles and the blank, the largest value taken with "
      "the reflection's and walking distance's: mpdb picks the board's stock patterns (4x4: 1-7 and 8-14); "
      "mpdb:1,2,3,4,5,6,7/8,9,10,11,12,13,14 names them ('+' joins patterns that share tiles)",
      /*zero_aware=*/false, /*catalogue=*/false, /*multi_tile=*/true, /*multi_only=*/true};
  template <class D>
  static auto make(const D& d, const HeuristicSources& sources) {
    if (!sources.pdb) throw InputError("the multi-tile pattern-database heuristic needs its databases");
    return std::make_shared<MultiTileDatabases<D>>(d, *sources.pdb);
  }
};

using Heuristics = List<MisplacedEntry, ManhattanEntry, LinearConflictEntry, InversionsEntry, InversionsWeightedEntry,
                        MisplacedInversionsEntry, MisplacedSharedPairsEntry, IndexDistanceEntry, MultiManhattanEntry, WalkingDistanceEntry, ExactEntry, PdbEntry,
                        ZpdbEntry, CatalogueEntry, MpdbEntry>;

// ---- derived ----

template <class... E>
auto infos(List<E...>) {
  return std::vector{E::info...};
}

// Calls f.template operator()<E>() with the entry named `name` (its info's name) and returns what
// it returns; when there is none, calls `unknown()` (which throws, or the result is R{}).
template <class F, class U, class First, class... E>
auto with_entry(List<First, E...>, std::string_view name, F&& f, U&& unknown) {
  using R = decltype(f.template operator()<First>());
  std::optional<R> r;
  (void)((First::info.name == name && (r.emplace(f.template operator()<First>()), true)) ||
         ((E::info.name == name && (r.emplace(f.template operator()<E>()), true)) || ...));
  if (!r) {
    unknown();
    return R{};
  }
  return std::move(*r);
}

}  // namespace tilespace::search::catalogue

namespace tilespace::search {

// Calls f(std::shared_ptr<H>) with the named heuristic built for `d` (domain.hpp) and returns what
// f returns. "pdb", "zpdb" and their NAME:SPEC forms take the pattern databases of `sources`.
// Throws InputError for an unknown name, "exact" without a table (or above 16 cells), "pdb" without
// databases.
template <class D, class F>
auto with_heuristic(const D& d, const std::string& name, const HeuristicSources& sources, F&& f) {
  const HeuristicInfo* info = find_heuristic(name);
  const std::string_view entry = info ? info->name : std::string_view(name);
  return catalogue::with_entry(
      catalogue::Heuristics{}, entry, [&]<class E>() { return f(E::make(d, sources)); },
      [&] { throw InputError("unknown heuristic '" + name + "'"); });
}

}  // namespace tilespace::search
