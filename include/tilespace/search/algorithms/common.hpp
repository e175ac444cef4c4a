// What several algorithms share (algorithms.hpp): the path back from a stored node to the root,
// and the bytes a node store holds (breadth-first, bidirectional and best-first search).
#pragma once

#include <cstdint>
#include <vector>

#include "tilespace/search/concepts.hpp"
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
  return nodes.capacity() * sizeof(Node) + map.bytes();
}

}  // namespace detail

}  // namespace tilespace::search
