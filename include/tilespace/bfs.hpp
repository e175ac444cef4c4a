// The parallel layer-by-layer breadth-first search over rank space.
//
// Memory model: one 64-bit word per group (see rank.hpp): bits 0-15 "visited", bits 16-31 and
// 32-47 the frontier of even and odd layers, one bit per blank cell. A state's word is the only
// place the search touches for it, so a neighbour costs one cache line and one atomic fetch_or.
// Horizontal moves stay inside the group and are shifts of the frontier lane; a vertical move's
// new rank is the old one plus a Lehmer-code delta over the W rotated entries (O(W), no re-rank),
// from the group's permutation and Lehmer digits packed in nibbles.
// Small boards (at most 10 cells: 3x3, 2x5, 5x2 and smaller) decode every group once, into a table
// of one word a group (entries and digits), and keep two bitmaps, one bit per group, of the groups
// with frontier bits in the even / odd layers' lane: a layer visits only those groups, in rank
// order, and looks their permutation up. Larger boards scan all words every layer and decode the
// groups with frontier bits with a mixed-radix counter (the groups come in rank order, so the
// permutation is mostly updated rather than decoded); their vertical targets are prefetched a few
// dozen ahead. Boards whose words fit in cache (at most 2^19 groups) update the targets at once
// with one thread (with two threads the lines move between cores, and the prefetch still pays).
// Total memory: N!/2 bytes of depths (the caller's) + (N-1)!/2 * 8 bytes of words; small boards
// add (N-1)!/2 * 8 bytes of codes and 2 * ceil((N-1)!/2 / 64) * 8 bytes of bitmaps
// (bfs_work_bytes(); 3x3, 20160 groups: 20160 * 16 + 630 * 8 bytes).
//
// Threads: oneTBB parallel_reduce over blocks of groups (of bitmap words on small boards) inside
// one task_arena; words and bitmaps of the next layer are updated with relaxed atomics (load, then
// `lock or` only for unvisited targets). With one thread the pass runs directly, with plain loads
// and stores and a branch-free target update. Every result is independent of the number of
// threads and of scheduling.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "tilespace/rank.hpp"

namespace tilespace {

struct LayerReport {
  int depth;             // the layer just found
  std::uint64_t states;  // states at that depth
  std::uint64_t total;   // states found so far
  double seconds;        // since the search started
};

struct BfsOptions {
  int threads = 0;                                  // 0: all cores
  std::function<void(const LayerReport&)> on_layer;  // called after each layer, from the calling thread
};

struct BfsResult {
  std::vector<std::uint64_t> histogram;  // states at each depth, from 0
  double seconds = 0;
};

// Bytes the search needs besides the depth table (words, and the codes and bitmaps of small boards).
std::uint64_t bfs_work_bytes(const Ranker& ranker);

// Fills depth[r] with the distance from state r (ranker's ranking) to the ranker's goal, the
// canonical goal with the blank on ranker.goal_blank(). Precondition: depth.size() == ranker.size().
// Throws ResourceError if the working memory cannot be allocated.
BfsResult bfs_distances(const Ranker& ranker, std::span<std::uint8_t> depth, const BfsOptions& options = {});

}  // namespace tilespace
