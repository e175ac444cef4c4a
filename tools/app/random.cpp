// Random states for the front ends (random.hpp).
#include "app/random.hpp"

#include <string>

#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"

namespace tilespace::app {

int RandomSampler::max_walk_depth(const Board& board) {
  // Measured with --seed 2: on 4x4, 50 states at depth 45 in 0.8 s, while no walk in 2000 ended
  // 50 moves away; on 5x5 (6-6-6-6 built), 10 states at depth 55 in 3.4 s, at 60 in 63 s.
  if (board == Board(4, 4)) return 45;
  if (board == Board(5, 5)) return 55;
  return 0;  // other boards without a table: no pattern databases to prove a walk's length quickly
}

RandomSampler::RandomSampler(SearchSources& sources, int threads, const State& goal, const RandomOptions& options,
                             const GoalTable* table)
    : rng_(options.seed), goal_(goal) {
  const int most = max_walk_depth(goal.board);
  if (!options.depth || !most) {
    if (options.depth && !table)
      throw option_error("depth", "needs the distance table, and the " + goal.board.name() + " board has none");
    drawn_.emplace(goal, options, table);
    return;
  }
  depth_ = *options.depth;
  if (depth_ < 0) throw option_error("depth", "a depth is a number of moves, at least 0");
  if (depth_ > most)
    throw option_error("depth", "at most " + std::to_string(most) + " on " + goal.board.name() +
                                    " (no table can exist: states are random walks proven that far by search, and "
                                    "deeper walks rarely are)");
  oracle_ = std::make_unique<Oracle>(sources, threads, search::Limits{});
}

State RandomSampler::next() {
  if (drawn_) return drawn_->next();
  const Board& b = goal_.board;
  for (std::uint64_t walk = 0; walk < kMaxWalks; ++walk) {
    State s = goal_;
    int prev = -1;
    for (int k = 0; k < depth_; ++k) {
      const auto& nb = b.neighbours(s.blank);
      int to;
      do {
        to = nb.cell[rng_() % static_cast<std::uint64_t>(nb.count)];  // the bias of % is below 2^-60
      } while (to == prev);
      prev = s.blank;
      s = s.moved(to);
    }
    if (depth_ == 0) return s;
    const Distance d = (*oracle_)(s, goal_);
    if (d.optimum.known && d.optimum.length == depth_) return s;
  }
  throw ResourceError("no random walk of " + std::to_string(depth_) + " moves in " + std::to_string(kMaxWalks) +
                      " ended that far from the goal on " + b.name());
}

}  // namespace tilespace::app
