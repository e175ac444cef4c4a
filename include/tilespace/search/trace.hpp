// The search tree of one run, recorded node by node for the viewer (`solve --trace`, the HTTP
// /api/solve?trace=1): every generated node (state, parent, g, h) in generation order, and every
// expansion in order (the expanded node; its children are the nodes naming it as parent, which
// depth-first searches generate interleaved with their descendants).
//
// A search records into a Trace only when handed one (SolveOptions::trace). IDA*, best-first and
// DFS then run a separate traced instantiation, so untraced runs carry no trace code at all; the
// breadth-first searches, bound by their hash tables, test a null pointer per generated node.
// The recording stops for good at `limit` nodes (truncated), so a trace never grows past what the
// caller allowed; the search itself goes on.
// Iterative algorithms (iddfs, idastar) start every iteration from a new root node and number
// their expansions by iteration. Tree nodes are not states: a state reached twice is two nodes,
// and a child discarded as already seen is recorded with `dup` set and never expanded.
#pragma once

#include <cstdint>
#include <vector>

#include "tilespace/board.hpp"

namespace tilespace::search {

class Trace {
 public:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};

  struct Node {
    std::uint64_t packed;
    std::uint32_t parent;     // kNone for a root
    std::uint32_t expansion;  // the expansion during which it was generated (kNone for a root)
    std::uint16_t g, h;
    bool dup;
  };
  struct Expansion {
    std::uint32_t parent;  // the expanded node
    std::uint32_t iteration;
  };

  explicit Trace(std::size_t limit) : limit_(limit) {}

  // The most text one node adds to the written trace (tools/app/report.cpp: solve_document): its data
  // entry (109 characters besides its tiles, 3 a tile), its entry among the expansions (59), its
  // id among its parent's children and in the solution (11 each).
  static constexpr std::uint64_t document_bytes_per_node(int cells) noexcept {
    return 109 + 3 * static_cast<std::uint64_t>(cells) + 59 + 2 * 11;
  }
  // The most memory one recorded node costs from the search to the written document: its Node and
  // an Expansion, twice over for the vectors' growth, the writer's three index arrays, and its text
  // twice over (the document, and the copy a file write or an HTTP answer may make). A trace of
  // `limit` nodes is refused up front when `limit` of these pass the search's memory limit
  // (search::plan_solve).
  static constexpr std::uint64_t bytes_per_node(int cells) noexcept {
    return 2 * (sizeof(Node) + sizeof(Expansion)) + 3 * sizeof(std::uint32_t) + 2 * document_bytes_per_node(cells);
  }

  // A generated node; returns its id, or kNone once the trace is full (it then stays full).
  std::uint32_t node(std::uint64_t packed, std::uint32_t parent, int g, int h, bool dup = false) {
    if (truncated_) return kNone;
    if (nodes_.size() >= limit_) {
      truncated_ = true;
      return kNone;
    }
    const auto during = parent == kNone || expansions_.empty() ? kNone : static_cast<std::uint32_t>(expansions_.size() - 1);
    nodes_.push_back({packed, parent, during, static_cast<std::uint16_t>(g), static_cast<std::uint16_t>(h < 0 ? 0 : h), dup});
    return static_cast<std::uint32_t>(nodes_.size() - 1);
  }
  // A new root (the start of a search or of an iteration); kNone once full.
  std::uint32_t root(std::uint64_t packed, int h) { return node(packed, kNone, 0, h); }
  // The expansion of node `parent` (nothing for an unknown parent or once the trace is full).
  void expand(std::uint32_t parent) {
    if (truncated_ || parent == kNone) return;
    expansions_.push_back({parent, iteration_});
  }
  void next_iteration() { ++iteration_; }
  // The solution path: from the goal's node up its parents to the root (kNone: no solution).
  void solved_at(std::uint32_t goal_node) {
    solution_.clear();
    if (truncated_ || goal_node == kNone) return;
    for (std::uint32_t i = goal_node; i != kNone; i = nodes_[i].parent) solution_.push_back(i);
    std::vector<std::uint32_t>(solution_.rbegin(), solution_.rend()).swap(solution_);
  }
  // A solution given as ids in order (bidirectional search joins two trees).
  void set_solution(std::vector<std::uint32_t> ids) { solution_ = truncated_ ? std::vector<std::uint32_t>{} : std::move(ids); }

  const std::vector<Node>& nodes() const noexcept { return nodes_; }
  const std::vector<Expansion>& expansions() const noexcept { return expansions_; }
  const std::vector<std::uint32_t>& solution() const noexcept { return solution_; }
  bool truncated() const noexcept { return truncated_; }
  std::size_t limit() const noexcept { return limit_; }
  std::uint32_t iteration() const noexcept { return iteration_; }

 private:
  std::size_t limit_;
  std::vector<Node> nodes_;
  std::vector<Expansion> expansions_;
  std::vector<std::uint32_t> solution_;
  std::uint32_t iteration_ = 0;
  bool truncated_ = false;
};

}  // namespace tilespace::search
