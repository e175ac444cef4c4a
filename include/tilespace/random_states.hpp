// Random start states for one goal: uniform over the states reachable from it, or uniform among
// those exactly `depth` moves from it. The one generator of `tilespace random` and /api/random.
//
// Without a depth (any board up to 5x5, no table): a uniform permutation of the tiles; when it is
// not reachable from the goal (solvable() false), tiles 1 and 2 swap places — a bijection between
// the two parity classes, so the result is uniform over the reachable half.
// With a depth (needs the table of the goal's blank cell, GoalTable: the cell's own or its blank
// class's through a symmetry; either serves any goal with that blank by relabelling): ranks are drawn uniformly among those whose blank has the
// depth's parity (bfs.hpp: blank_parity), then
//   - rejection sampling when at least 1 in kMaxExpectedTries of them is at the depth;
//   - otherwise, on a byte table, the ranks at the depth are collected once (one parallel scan of
//     the table; histogram()[depth] * 8 bytes, ResourceError above kMaxPoolBytes) and drawn among;
//   - on a two-bit or one-bit table (a depth costs a descent) only at the radius when the table lists its
//     farthest states (at most kFarthestKept); any other rare depth is refused.
// Every draw is exact and independent (with replacement); next() allocates nothing.
//
// Determinism: std::mt19937_64 seeded with `seed` and a bounded draw of its own (not
// std::uniform_int_distribution), so the same seed, goal, options and table kind give the same
// states with every compiler and standard library.
// Thread-safety: one RandomStates per thread; the table is only read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <random>
#include <vector>

#include "tilespace/state.hpp"

namespace tilespace {

class GoalTable;

struct RandomOptions {
  std::optional<int> depth;  // exactly this many moves from the goal (needs the goal's table)
  std::uint64_t seed = 0;    // the same seed, goal and options give the same states
};

// Draws independent uniform states (with replacement) one at a time, without storing them.
class RandomStates {
 public:
  static constexpr std::uint64_t kMaxExpectedTries = 1000;    // rejection sampling up to this
  static constexpr std::uint64_t kMaxTries = 50 * kMaxExpectedTries;  // then a DataError (the histogram lies)
  static constexpr std::uint64_t kMaxPoolBytes = 1ull << 30;  // ranks collected for a rare depth

  // `table`: the table of the goal's blank cell (TableStore::goal); required with a depth, ignored
  // otherwise (std::invalid_argument if it is for another board or blank cell). Throws, before drawing
  // anything, InputError option_error("depth", ...) when no state is at that depth (negative or
  // beyond the radius), when a depth comes without a table, or when the depth is too rare to
  // sample on a two-bit or one-bit table; ResourceError when the ranks of a rare depth would exceed
  // kMaxPoolBytes. A byte table's rare depth costs one scan of the table here.
  RandomStates(const State& goal, const RandomOptions& options, const GoalTable* table);

  // The next state, labelled like the goal. O(N^2) without a depth (solvable); with a depth
  // O(N) a try (expected tries at most kMaxExpectedTries; a try on a two-bit or one-bit table is a descent,
  // O(depth * N)), or O(N) from the collected ranks. Throws DataError when the table's histogram
  // does not match its depths: kMaxTries tries without a state at the depth (or a two-bit
  // descent that finds the table inconsistent).
  State next();

 private:
  std::uint64_t below(std::uint64_t n);  // uniform in [0, n), n > 0

  State goal_;
  std::mt19937_64 rng_;
  const GoalTable* table_ = nullptr;  // set with a depth only
  int depth_ = -1;
  std::vector<int> cells_;             // rejection: the blank cells (of the table) of the depth's parity
  std::vector<std::uint64_t> pool_;    // the table's ranks at the depth, when collected
};

// A seed from std::random_device, for callers without --seed.
std::uint64_t random_seed();

// The options as a front end received them (`random --seed --depth`, /api/random, Python), checked
// strictly: a seed from 0 to 2^64-1 (none: random_seed()) and a depth from 0 to 1000; InputError
// about the option ("seed", "depth") otherwise.
RandomOptions parse_random_options(const std::optional<std::string>& seed, const std::optional<std::string>& depth);

}  // namespace tilespace
