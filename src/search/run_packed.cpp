// Every registered algorithm on the packed domain (boards of at most 16 cells): run_impl.hpp.
#include "run_impl.hpp"

namespace tilespace::search::detail {
template Result run(const Domain&, const State&, const SolveOptions&);
}  // namespace tilespace::search::detail
