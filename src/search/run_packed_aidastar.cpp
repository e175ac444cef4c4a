// A*+IDA* on the packed domain (boards of at most 16 cells), with every heuristic: run_impl.hpp.
#include "run_impl.hpp"

namespace tilespace::search::detail {
template Result run_algorithm<catalogue::Aidastar, Domain>(const Domain&, const State&, const SolveOptions&);
}  // namespace tilespace::search::detail
