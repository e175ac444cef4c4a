// The random states of the front ends (`tilespace random`, /api/random, Python's random_states):
// RandomStates (random_states.hpp) from the goal's table; with a depth on 4x4 and 5x5, where no
// table can exist, random walks of `depth` moves from the goal that never undo their last move,
// each kept only when the board's default optimal search (oracle.hpp) proves its end exactly
// `depth` moves from the goal. Such states are exact but not uniform among the states at that
// depth (a walk favours the states that many walks reach); the seed makes them repeatable.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>

#include "app/common.hpp"
#include "app/oracle.hpp"
#include "tilespace/random_states.hpp"
#include "tilespace/state.hpp"

namespace tilespace::app {

class RandomSampler {
 public:
  // Walks tried for one state before giving up (a ResourceError naming the depth).
  static constexpr std::uint64_t kMaxWalks = 2000;
  // The deepest depth sampled by walks on `board` in `metric` (0 when its states come from a
  // table): where at least one walk in a few hundred ends that far, measured (docs/usage.md, random).
  static int max_walk_depth(const Board& board, Metric metric = Metric::single);

  // `table`: the goal's table where one can exist and a depth is asked for (as RandomStates);
  // not needed on 4x4 and 5x5 (needs_table false), whose depths are sampled by walks and checked
  // by searches through `sources`. Throws option_error("depth", ...) beyond max_walk_depth,
  // naming it, and when a depth needs a table and none is given. `metric`: how the depth counts
  // moves (the table's; walks of multi-tile moves, proven by multi-tile searches).
  RandomSampler(SearchSources& sources, int threads, const State& goal, const RandomOptions& options,
                const GoalTable* table, Metric metric = Metric::single);
  State next();
  // Whether a depth on the goal's board is drawn from its table (else: walks, or none at all).
  static bool needs_table(const Board& board) { return !Oracle::searches(board); }

 private:
  std::optional<RandomStates> drawn_;  // from the table, or uniform without a depth
  std::unique_ptr<Oracle> oracle_;     // walks: their proof
  std::mt19937_64 rng_;
  State goal_;
  int depth_ = 0;
  Metric metric_ = Metric::single;
};

}  // namespace tilespace::app
