// The naive references the tests compare the engines with: textbook breadth-first searches over
// explicit states, written for clarity, not speed.
//
// They are compiled as the library is (reference.cpp, its own target in tests/CMakeLists.txt),
// not as test glue: under the sanitizers the tests' own code is at -O0, where these loops over
// std::map and std::unordered_map ran 3-6 times slower and took most of the time of the tests that
// call them.
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/state.hpp"

namespace testing {

// Textbook BFS from `goal` over packed states: distance of every reachable state.
std::unordered_map<std::uint64_t, int> naive_bfs(const tilespace::State& goal,
                                                 tilespace::Metric metric = tilespace::Metric::single,
                                                 int max_depth = 1 << 30);

// naive_bfs from canonical_goal(b, goal_blank), mapped through the ranker: the expected depth
// table, 0xFF where no state is. Throws std::logic_error if the ranker maps a reached state out of
// range or two states to one rank, or misses a state.
std::vector<std::uint8_t> naive_depths(const tilespace::Board& b, int goal_blank,
                                       tilespace::Metric metric = tilespace::Metric::single);

// Naive reference for pattern databases: Dijkstra with 0/1 costs (a move of one of `tiles` costs
// 1, of another tile 0) from the goal over (the cells of `tiles` in their order, the blank's cell):
// the cost of every pair reached, keyed by those cells with the blank's last.
std::map<std::vector<int>, int> naive_pattern_costs(const tilespace::State& goal, const std::vector<std::uint8_t>& tiles);

// A multi-tile pattern's abstraction by a textbook BFS: a state is the blank's cell and the cells
// of `tiles` (in that order), a move takes the blank k cells along its row or column and slides
// each pattern tile it passes one cell back toward where the blank was.
std::map<std::vector<int>, int> naive_multi_pattern(const tilespace::State& goal, const std::vector<std::uint8_t>& tiles);

}  // namespace testing
