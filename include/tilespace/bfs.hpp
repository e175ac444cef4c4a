// The parallel layer-by-layer breadth-first search over rank space.
//
// Memory model: one 64-bit word per group (see rank.hpp): bits 0-15 "visited", bits 16-31 and
// 32-47 the frontier of even and odd layers, one bit per blank cell. A state's word is the only
// place the search touches for it, so a neighbour costs one cache line and one atomic fetch_or.
// Horizontal moves stay inside the group and are shifts of the frontier lane; a vertical move's
// new rank is the old one plus a Lehmer-code delta over the W rotated entries (O(W), no re-rank).
// Groups are scanned in rank order with a mixed-radix counter, so the sequence of a group is
// mostly updated rather than decoded. Vertical targets are prefetched a few dozen ahead, except
// with one thread on boards whose words fit in cache (at most 2^19 groups), which update them at
// once (with two threads the lines move between cores, and the prefetch still pays).
// Total memory: N!/2 bytes of depths (the caller's) + (N-1)!/2 * 8 bytes of words.
//
// Threads: oneTBB parallel_reduce over blocks of groups inside one task_arena, words updated with
// relaxed atomics (load, then `lock or` only for unvisited targets). With one thread the scan
// runs directly, with plain loads and stores and a branch-free target update. Every result is
// independent of the number of threads and of scheduling.
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

// Bytes the search needs besides the depth table.
std::uint64_t bfs_work_bytes(const Ranker& ranker);

// Fills depth[r] with the distance from state r (ranker's ranking) to the ranker's goal, the
// canonical goal with the blank on ranker.goal_blank(). Precondition: depth.size() == ranker.size().
// Throws ResourceError if the working memory cannot be allocated.
BfsResult bfs_distances(const Ranker& ranker, std::span<std::uint8_t> depth, const BfsOptions& options = {});

}  // namespace tilespace
