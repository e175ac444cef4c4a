// Internal to src/: the one place that turns a heuristic's name into its type.
#pragma once

#include <memory>
#include <string>

#include "tilespace/errors.hpp"
#include "tilespace/search/heuristics.hpp"

namespace tilespace::search {

// Calls f(std::shared_ptr<H>) with the named heuristic built for `d` and returns what f returns.
// Throws InputError for an unknown name, or "exact" without a table.
template <class F>
auto with_heuristic(const Domain& d, const std::string& name, const DistanceTable* table, F&& f) {
  if (name == "misplaced") return f(std::make_shared<Misplaced>(d));
  if (name == "manhattan") return f(std::make_shared<Manhattan>(d));
  if (name == "linear-conflict") return f(std::make_shared<LinearConflict>(d));
  if (name == "inversions") return f(std::make_shared<Inversions>(d));
  if (name == "inversions-weighted") return f(std::make_shared<InversionsWeighted>(d));
  if (name == "misplaced-inversions") return f(std::make_shared<MisplacedInversions>(d));
  if (name == "misplaced-shared-pairs") return f(std::make_shared<MisplacedSharedPairs>(d));
  if (name == "index-distance") return f(std::make_shared<IndexDistance>(d));
  if (name == "exact") {
    if (!table) throw InputError("the exact heuristic needs the distance table of the goal");
    return f(std::make_shared<Exact>(d, *table));
  }
  throw InputError("unknown heuristic '" + name + "'");
}

}  // namespace tilespace::search
