// What several algorithms share (algorithms.hpp): the path back from a stored node to the root,
// the bytes a node store holds, and its growth under the memory limit (breadth-first,
// bidirectional and best-first search).
//
// The memory limit (Limits::max_bytes) bounds what the search structures hold at every moment,
// growths included: a vector that grows holds its old and its new buffer until the contents have
// moved, and a hash map its old and its new slots (node_map.hpp). So the searches grow their node
// arrays and hash maps themselves, between expansions, with room for one expansion's children
// (kMaxMoves): to twice their size while that fits beside what is held, else to what fits (a hash
// map: it fills to three quarters instead), else they stop (Stop::Memory). Nothing reallocates
// inside an expansion, and the check costs two comparisons an expansion.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tilespace/search/concepts.hpp"
#include "tilespace/search/domain.hpp"  // kMaxMoves
#include "tilespace/search/node_map.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/state.hpp"

namespace tilespace::search {

namespace detail {

template <SearchDomain D>
void path_from(const D& d, const std::vector<BasicNode<typename D::Word>>& nodes, std::uint32_t i, Result& r) {
  std::vector<State> rev;
  for (; i != NodeMap::kAbsent; i = nodes[i].parent) rev.push_back(d.state(nodes[i].packed));
  r.path.assign(rev.rbegin(), rev.rend());
  r.solved = true;
}

template <class N, class M>
std::uint64_t store_bytes(const std::vector<N>& nodes, const M& map) {
  return nodes.capacity() * sizeof(N) + map.bytes();
}

// Whether `bytes` are within `limit` (0: none).
inline bool within(std::uint64_t bytes, std::uint64_t limit) noexcept { return !limit || bytes <= limit; }

// The capacity node arrays of `per_node` bytes a node grow to when they must hold `need` nodes:
// `want` (twice their capacity), or what `limit` leaves beside the `held` bytes (the old arrays
// among them: they are held until the nodes have moved); 0 when not even `need` fits. Notes the
// growth's peak in r.peak_bytes.
inline std::size_t grown_capacity(std::size_t need, std::size_t want, std::uint64_t held, std::uint64_t per_node,
                                  std::uint64_t limit, Result& r) {
  std::size_t c = std::max(need, want);
  if (limit) {
    const std::uint64_t fit = held < limit ? (limit - held) / per_node : 0;
    if (c > fit) c = static_cast<std::size_t>(fit);
    if (c < need) return 0;
  }
  r.peak_bytes = std::max<std::uint64_t>(r.peak_bytes, held + c * per_node);
  return c;
}

// Room in `map` for `more` keys: doubled when the old and the new slots fit beside the other
// `held` bytes under `limit`, else filled to three quarters (node_map.hpp); false when neither.
template <class M>
bool map_room(M& map, std::size_t more, std::uint64_t held, std::uint64_t limit, Result& r) {
  const std::uint64_t peak = held + M::bytes_for(2 * map.capacity());
  if (within(peak, limit)) {
    r.peak_bytes = std::max(r.peak_bytes, peak);
    map.grow();
    return true;
  }
  return map.fill_to_most(more);
}

}  // namespace detail

}  // namespace tilespace::search
