// The solvers, as templates over the domain (domain.hpp: packed words up to 16 cells, 128-bit
// words up to 25) and the heuristic (heuristics.hpp, pattern_heuristic.hpp), so that the node loop
// has no virtual call and one code serves every board; the templates require the concepts
// SearchDomain and Heuristic (concepts.hpp). All honour Limits, fill the same Result,
// and record their search tree into a Trace when given one (trace.hpp; packed boards only).
// Preconditions: start and goal are on dom.board and solvable (the caller answers unreachable
// pairs by parity, see solve.hpp).
//
//   breadth_first     optimal; goal test on generation; CLOSED = every generated state
//   bidirectional     breadth-first from both ends, whole layers, smaller side first; optimal
//   depth_limited     DFS to a depth limit with a cycle check on the current path; not optimal
//   iterative_deepening  depth_limited with limits 0, 1, 2, ...; optimal
//   best_first        OPEN ordered by wg*g + wh*h (A*: 1,1; weighted A*: 100,100w; greedy: 0,1),
//                     ties to the deeper node; a cheaper path to a known state reopens it
//   ida_star          iterative deepening on f = g + h, never undoing the last move and, given a
//                     move automaton (automaton.hpp), never taking a move string it rejects;
//                     optimal with an admissible heuristic
//   hybrid            A*+IDA* (Bu & Korf 2019): A* until its node store is full, then IDA* from
//                     every frontier node in order of f (ties: smaller h first) with one shared
//                     bound, the frontier shared out among threads; optimal with a consistent
//                     heuristic (every one here that is admissible)
//   table_descent     the exact distance table: from the start, always to a neighbour one move
//                     closer (U, D, L, R order); optimal, one expansion a move
//
// This header includes them all, one header per family in algorithms/ (each compiles on its own):
//   common.hpp         what several share: the path back from a stored node, a node store's bytes
//                      and its growth within the memory limit
//   breadth_first.hpp  breadth_first (BreadthFirst)
//   bidirectional.hpp  bidirectional
//   depth_first.hpp    depth_limited, iterative_deepening
//   best_first.hpp     best_first (BestFirst)
//   ida_star.hpp       ida_star (NoAutomaton; detail::IdaStar, StaticBoard)
//   hybrid.hpp         hybrid (HybridOptions)
//   table_descent.hpp  table_descent
#pragma once

#include "tilespace/search/algorithms/best_first.hpp"
#include "tilespace/search/algorithms/bidirectional.hpp"
#include "tilespace/search/algorithms/breadth_first.hpp"
#include "tilespace/search/algorithms/depth_first.hpp"
#include "tilespace/search/algorithms/hybrid.hpp"
#include "tilespace/search/algorithms/ida_star.hpp"
#include "tilespace/search/algorithms/table_descent.hpp"
#include "tilespace/search/concepts.hpp"
#include "tilespace/search/heuristics.hpp"  // included here before the split: its users may count on it
