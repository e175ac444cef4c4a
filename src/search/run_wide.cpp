// Every registered algorithm on the wide domain (boards of 17 to 25 cells): run_impl.hpp.
#include "run_impl.hpp"

namespace tilespace::search::detail {
template Result run(const WideDomain&, const State&, const SolveOptions&);
}  // namespace tilespace::search::detail
