// IDA* on the wide domain (boards of 17 to 25 cells), with every heuristic: run_impl.hpp.
#include "run_impl.hpp"

namespace tilespace::search::detail {
template Result run_algorithm<catalogue::Idastar, WideDomain>(const WideDomain&, const State&, const SolveOptions&);
}  // namespace tilespace::search::detail
