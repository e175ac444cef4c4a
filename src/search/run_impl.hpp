// Internal to src/search: the definition of detail::run (run.hpp), included only by the two files
// that compile it for a domain each (run_packed.cpp, run_wide.cpp).
#pragma once

#include <string>

#include "catalogue.hpp"
#include "run.hpp"
#include "tilespace/errors.hpp"

namespace tilespace::search::detail {

template <class D>
Result run(const D& d, const State& start, const SolveOptions& o) {
  if constexpr (!D::kPacked) {
    if (o.trace) throw option_error("trace", "traces are recorded on boards of at most 16 cells");
  }
  return catalogue::with_entry(
      catalogue::Algorithms{}, o.algorithm,
      [&]<class A>() -> Result {
        if constexpr (A::info.uses_heuristic) {
          return with_heuristic(d, o.heuristic, HeuristicSources{o.table, o.pdb},
                                [&](const auto& hp) { return A::run(d, *hp, start, o); });
        } else {
          return A::run(d, start, o);
        }
      },
      [&] { throw InputError("unknown algorithm '" + o.algorithm + "'"); });
}

}  // namespace tilespace::search::detail
