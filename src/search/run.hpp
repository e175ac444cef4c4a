// Internal to src/search: the registered algorithm (catalogue.hpp) on one domain, with its
// heuristic when it takes one. solve() calls it; its code is compiled once per domain, each in a
// file of its own (run_packed.cpp, run_wide.cpp), so that the two halves of the search's code — the
// largest compile of the project — build in parallel.
#pragma once

#include "tilespace/search/domain.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/state.hpp"

namespace tilespace::search::detail {

template <class D>
Result run(const D& d, const State& start, const SolveOptions& o);

extern template Result run(const Domain&, const State&, const SolveOptions&);
extern template Result run(const WideDomain&, const State&, const SolveOptions&);

}  // namespace tilespace::search::detail
