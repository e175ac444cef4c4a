// Internal to src/search: the definition of detail::run (run.hpp), included only by the two files
// that compile it for a domain each (run_packed.cpp, run_wide.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "catalogue.hpp"
#include "run.hpp"
#include "tilespace/errors.hpp"

namespace tilespace::search::detail {

// The bytes of the tables algorithm A reads, prepared by the caller (SolveOptions): the pattern
// databases, the distance table, the move automaton, each when the search uses it.
template <class A>
std::uint64_t source_bytes(const SolveOptions& o) {
  std::uint64_t n = 0;
  const HeuristicInfo* h = A::info.uses_heuristic ? find_heuristic(o.heuristic) : nullptr;
  if (o.pdb && h && h->pattern_database) {
    for (const auto& db : o.pdb->databases()) n += db->values().size();
    for (const auto& db : o.pdb->zero_aware_databases()) n += db->words().size() * 8;
  }
  if (o.table && (A::info.needs_table || (h && h->needs_table))) n += o.table->table().payload().size();
  if (o.automaton && (A::info.applies & bit(Option::automaton))) n += o.automaton->table().size() * 4;
  return n;
}

// The bytes of the tables heuristic H built for this search (walking distance), 0 for the others.
template <class H>
std::uint64_t built_bytes(const H& h) {
  if constexpr (requires { h.table_bytes(); }) {
    return h.table_bytes();
  } else {
    return 0;
  }
}

// Runs algorithm A (`search(options)`) with the tables it reads counted as its memory: the
// search structures get what the tables leave of the memory limit, tables that fill the limit
// alone stop it before it starts, and the peak reported counts both. aidastar's --max-memory is
// its A* store, not a limit: left as it is.
template <class A, class F>
Result counting_tables(const SolveOptions& o, std::uint64_t built, F&& search) {
  if (A::info.memory_is_store) return search(o);
  const std::uint64_t tables = built + source_bytes<A>(o);
  if (!tables) return search(o);
  if (o.limits.max_bytes && tables >= o.limits.max_bytes) {
    Result r;
    r.stopped = Stop::Memory;
    r.peak_bytes = tables;
    return r;
  }
  SolveOptions rest = o;
  if (rest.limits.max_bytes) rest.limits.max_bytes -= tables;
  Result r = search(rest);
  r.peak_bytes += tables;
  return r;
}

template <class D>
Result run(const D& d, const State& start, const SolveOptions& o) {
  if constexpr (!D::kPacked) {
    if (o.trace) throw option_error("trace", "traces are recorded on boards of at most 16 cells");
  }
  return catalogue::with_entry(
      catalogue::Algorithms{}, o.algorithm,
      [&]<class A>() -> Result {
        if constexpr (A::info.uses_heuristic) {
          return with_heuristic(d, o.heuristic, HeuristicSources{o.table, o.pdb}, [&](const auto& hp) {
            return counting_tables<A>(o, built_bytes(*hp), [&](const SolveOptions& so) { return A::run(d, *hp, start, so); });
          });
        } else {
          return counting_tables<A>(o, 0, [&](const SolveOptions& so) { return A::run(d, start, so); });
        }
      },
      [&] { throw InputError("unknown algorithm '" + o.algorithm + "'"); });
}

}  // namespace tilespace::search::detail
