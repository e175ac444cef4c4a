// Internal to src/: the one place that turns a heuristic's name into its type.
#pragma once

#include <memory>
#include <string>

#include "tilespace/errors.hpp"
#include "tilespace/search/heuristics.hpp"
#include "tilespace/search/pattern_heuristic.hpp"
#include "tilespace/search/solve.hpp"

namespace tilespace::search {

// Calls f(std::shared_ptr<H>) with the named heuristic built for `d` (domain.hpp) and returns what
// f returns. "pdb" and "pdb:SPEC" take the pattern databases of `sources`. Throws InputError for an
// unknown name, "exact" without a table (or above 16 cells), "pdb" without databases.
template <class D, class F>
auto with_heuristic(const D& d, const std::string& name, const HeuristicSources& sources, F&& f) {
  if (name == "misplaced") return f(std::make_shared<Misplaced<D>>(d));
  if (name == "manhattan") return f(std::make_shared<Manhattan<D>>(d));
  if (name == "linear-conflict") return f(std::make_shared<LinearConflict<D>>(d));
  if (name == "inversions") return f(std::make_shared<Inversions<D>>(d));
  if (name == "inversions-weighted") return f(std::make_shared<InversionsWeighted<D>>(d));
  if (name == "misplaced-inversions") return f(std::make_shared<MisplacedInversions<D>>(d));
  if (name == "misplaced-shared-pairs") return f(std::make_shared<MisplacedSharedPairs<D>>(d));
  if (name == "index-distance") return f(std::make_shared<IndexDistance<D>>(d));
  if (name == "pdb" || name.rfind("pdb:", 0) == 0) {
    if (!sources.pdb) throw InputError("the pattern-database heuristic needs its databases");
    return f(std::make_shared<PatternDatabases<D>>(d, *sources.pdb));
  }
  if (name == "exact") {
    if constexpr (D::kPacked) {
      if (!sources.table) throw InputError("the exact heuristic needs the distance table of the goal");
      return f(std::make_shared<Exact<D>>(d, *sources.table));
    } else {
      throw InputError("the exact heuristic needs a distance table: boards of at most 16 cells");
    }
  }
  throw InputError("unknown heuristic '" + name + "'");
}

}  // namespace tilespace::search
