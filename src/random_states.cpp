#include "tilespace/random_states.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <new>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "tilespace/bfs.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/goal_table.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/numbers.hpp"

namespace tilespace {

namespace {

// The ranks at depth d of a byte table, increasing (so the same for every thread count): one
// parallel count per block, then one parallel fill at each block's offset.
std::vector<std::uint64_t> ranks_at(std::span<const std::uint8_t> depths, int d, std::uint64_t count) {
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  const std::size_t blocks = (depths.size() + kBlock - 1) / kBlock;
  const auto target = static_cast<std::uint8_t>(d);
  const auto block = [&](std::size_t b) {
    return depths.subspan(b * kBlock, std::min(kBlock, depths.size() - b * kBlock));
  };
  std::vector<std::uint64_t> first(blocks + 1, 0);  // first[b]: the ranks at d before block b
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const auto s = block(b);
    first[b + 1] = static_cast<std::uint64_t>(std::count(s.begin(), s.end(), target));
  });
  std::partial_sum(first.begin(), first.end(), first.begin());
  if (first.back() != count)
    throw DataError("the distance table's histogram does not match its depths at depth " + std::to_string(d));
  std::vector<std::uint64_t> ranks;
  try {
    ranks.resize(count);
  } catch (const std::bad_alloc&) {
    throw ResourceError("cannot allocate " + std::to_string(count * 8) + " bytes for the states at depth " +
                        std::to_string(d));
  }
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const auto s = block(b);
    std::uint64_t k = first[b];
    for (std::size_t i = 0; i < s.size(); ++i)
      if (s[i] == target) ranks[k++] = b * kBlock + i;
  });
  return ranks;
}

}  // namespace

RandomStates::RandomStates(const State& goal, const RandomOptions& options, const GoalTable* table)
    : goal_(goal), rng_(options.seed) {
  if (!options.depth) return;
  const int d = *options.depth;
  if (!table) throw option_error("depth", "a depth needs the distance table of the goal");
  if (!(table->board() == goal.board) || table->goal_blank() != goal.blank)
    throw std::invalid_argument("RandomStates: the table is not the one of the goal's board and blank cell");
  const std::vector<std::uint64_t>& hist = table->histogram();
  if (d < 0) throw option_error("depth", "a depth is a number of moves, at least 0");
  if (d > table->radius() || hist[d] == 0)
    throw option_error("depth", "no state is " + std::to_string(d) + " moves from this goal: the radius is " +
                                    std::to_string(table->radius()));
  table_ = table;
  depth_ = d;
  // The ranks and blank cells below are the table's (on its cells); GoalTable::state_of_rank
  // labels a rank's state like the goal, on the goal's cells.
  const Ranker& ranker = table->table().ranker();
  const Labelling lab = table->labelling(goal);

  // Every state at single-tile depth d has its blank on a cell of parity d mod 2: draw only those
  // ranks. A multi-tile move of two cells keeps the parity: every cell.
  const bool multi = table->table().metric() == Metric::multi;
  for (int c = 0; c < goal.cells(); ++c)
    if (multi || blank_parity(ranker, c) == static_cast<unsigned>(d & 1)) cells_.push_back(c);
  const std::uint64_t candidates = ranker.groups() * cells_.size();
  if (hist[d] * kMaxExpectedTries >= candidates) return;  // rejection sampling

  if (table->table().by_descent()) {  // a try is a descent: only the listed farthest states
    if (d == table->radius())
      for (const State& s : table->farthest(goal, kFarthestKept)) pool_.push_back(table->rank_if_reachable(s, lab));
    if (pool_.empty())
      throw option_error("depth", "depth " + std::to_string(d) + " is too rare to sample on a " +
                                      (table->table().bits() == 1 ? "one-bit" : "two-bit") + " table: " +
                                      std::to_string(hist[d]) + " of " + std::to_string(ranker.size()) +
                                      " states (it needs about 1 in " + std::to_string(kMaxExpectedTries) +
                                      "; a byte table samples every depth)");
    return;
  }
  if (hist[d] > kMaxPoolBytes / sizeof(std::uint64_t))
    throw ResourceError("sampling depth " + std::to_string(d) + " needs its " + std::to_string(hist[d]) +
                        " states in memory: " + std::to_string(hist[d] * sizeof(std::uint64_t)) +
                        " bytes, more than 1 GiB");
  pool_ = ranks_at(table->table().depths(), d, hist[d]);
}

std::uint64_t RandomStates::below(std::uint64_t n) {
  // Draws below 2^64 mod n are rejected: the rest is a whole number of runs of n values.
  const std::uint64_t reject = (0 - n) % n;
  for (;;) {
    const std::uint64_t x = rng_();
    if (x >= reject) return x % n;
  }
}

State RandomStates::next() {
  if (!pool_.empty()) return table_->state_of_rank(pool_[below(pool_.size())], goal_);
  if (table_) {
    // Rejection: the histogram promises at least 1 state in kMaxExpectedTries at the depth, so
    // kMaxTries draws all miss with probability below e^-50 on a true table. A table whose
    // histogram lies (behind valid checksums) would otherwise loop forever.
    const DistanceTable& t = table_->table();
    const std::uint64_t cells = t.ranker().cells(), k = cells_.size();
    for (std::uint64_t tries = 0; tries < kMaxTries; ++tries) {
      const std::uint64_t x = below(t.ranker().groups() * k);
      const std::uint64_t r = (x / k) * cells + static_cast<std::uint64_t>(cells_[x % k]);
      if (t.depth_of_rank(r) == depth_) return table_->state_of_rank(r, goal_);
    }
    throw DataError("the distance table's histogram does not match its depths at depth " + std::to_string(depth_) +
                    ": no state there in " + std::to_string(kMaxTries) + " draws");
  }
  // A uniform permutation (Fisher-Yates); the unreachable half is mapped onto the reachable one.
  const int n = goal_.cells();
  State s{goal_.board, {}, 0};
  for (int c = 0; c < n; ++c) s.tiles[c] = static_cast<std::uint8_t>(c);
  for (int i = n - 1; i > 0; --i) std::swap(s.tiles[i], s.tiles[below(static_cast<std::uint64_t>(i) + 1)]);
  int one = 0, two = 0;
  for (int c = 0; c < n; ++c) {
    if (s.tiles[c] == 0) s.blank = c;
    if (s.tiles[c] == 1) one = c;
    if (s.tiles[c] == 2) two = c;
  }
  if (!solvable(s, goal_)) std::swap(s.tiles[one], s.tiles[two]);
  return s;
}

std::uint64_t random_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

RandomOptions parse_random_options(const std::optional<std::string>& seed, const std::optional<std::string>& depth) {
  RandomOptions o;
  o.seed = seed ? parse_whole("seed", *seed, 0, UINT64_MAX) : random_seed();
  if (depth) o.depth = static_cast<int>(parse_whole("depth", *depth, 0, 1000));
  return o;
}

}  // namespace tilespace
