// Random states for the front ends (random.hpp).
#include "app/random.hpp"

#include <string>

#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"

namespace tilespace::app {

namespace {
// The deepest multi-tile walk sampled on 4x4 (max_walk_depth).
constexpr int kMultiWalkDepth4x4 = 30;
}  // namespace

int RandomSampler::max_walk_depth(const Board& board, Metric metric) {
  // Measured with --seed 2: on 4x4, 50 states at depth 45 in 0.8 s, while no walk in 2000 ended
  // 50 moves away; on 5x5 (6-6-6-6 built), 10 states at depth 55 in 3.4 s, at 60 in 63 s.
  // Multi-tile, 4x4 (mpdb 6-6 built, one thread, with other work on the cores): 5 states at depth
  // 20 in 5.3 s, 26 in 10.2 s, 30 in 49.3 s; each state there takes a few hundred walks.
  if (metric == Metric::multi) return board == Board(4, 4) ? kMultiWalkDepth4x4 : 0;
  if (board == Board(4, 4)) return 45;
  if (board == Board(5, 5)) return 55;
  return 0;  // other boards without a table: no pattern databases to prove a walk's length quickly
}

RandomSampler::RandomSampler(SearchSources& sources, int threads, const State& goal, const RandomOptions& options,
                             const GoalTable* table, Metric metric)
    : rng_(options.seed), goal_(goal), metric_(metric) {
  const int most = max_walk_depth(goal.board, metric);
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
                                    (metric == Metric::multi ? " in the multi-tile metric" : "") +
                                    " (no table can exist: states are random walks proven that far by search, and "
                                    "deeper walks rarely are)");
  oracle_ = std::make_unique<Oracle>(sources, threads, search::Limits{}, false, default_plan_context(), metric);
}

State RandomSampler::next() {
  if (drawn_) return drawn_->next();
  const Board& b = goal_.board;
  for (std::uint64_t walk = 0; walk < kMaxWalks; ++walk) {
    State s = goal_;
    int prev = -1;
    bool vertical = rng_() & 1u;  // multi-tile: the axis of the next move
    for (int k = 0; k < depth_; ++k) {
      if (metric_ == Metric::multi) {
        // To another cell of the blank's row or column, the axes by turns: two moves along one
        // line are one move or none. (The bias of % is below 2^-60.)
        const int w = b.width(), h = b.height(), row = s.blank / w, col = s.blank % w;
        const int n = vertical ? h - 1 : w - 1;
        int i = static_cast<int>(rng_() % static_cast<std::uint64_t>(n));
        const int to = vertical ? (i + (i >= row)) * w + col : row * w + i + (i >= col);
        const Dir d = vertical ? (to < s.blank ? Dir::Up : Dir::Down) : (to < s.blank ? Dir::Left : Dir::Right);
        while (s.blank != to) s = s.moved(b.step(s.blank, d));
        vertical = !vertical;
        continue;
      }
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
