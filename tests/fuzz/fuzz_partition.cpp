// Fuzz target: partition specs (pdb/pattern.hpp's parse_partition: stock names and tiles such as
// "1,2,3/4,5,6") and the placement hash of the patterns it gives (PlacementRanker).
//
// Input: byte 0 chooses the board (support.hpp's board_from_byte; 0 means 4x4), byte 1 the goal's
// blank cell (byte 1 % N; canonical goal) or, with bit 7 of byte 0, the goal is the text before
// the first newline (parse_state); the rest is the spec. Bad specs must be InputErrors; a parsed
// partition (or catalogue: partitions joined by '+') holds distinct non-empty patterns of goal
// tiles of at most N-2 tiles, disjoint within each partition, that read back from their names,
// and the ranker maps placements to [0, size) and back.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/pdb/pattern.hpp"

using namespace tilespace;
using namespace tilespace::pdb;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  std::string_view spec(reinterpret_cast<const char*>(data + 2), size - 2);
  State goal;
  if (data[0] & 0x80u) {
    const std::size_t nl = spec.find('\n');
    if (nl == std::string_view::npos) return 0;
    try {
      goal = parse_state(spec.substr(0, nl));
    } catch (const InputError&) {
      return 0;
    }
    spec.remove_prefix(nl + 1);
  } else {
    const Board b = fuzz::board_from_byte(data[0]).value_or(Board(4, 4));
    goal = canonical_goal(b, data[1] % b.cells());
  }
  const int n = goal.cells();

  Partition part;
  try {
    part = parse_partition(spec, goal);
  } catch (const InputError&) {
    return 0;
  }
  fuzz::check(!part.patterns.empty(), "a partition without patterns");
  for (const Pattern& p : part.patterns) {
    fuzz::check(!p.tiles.empty() && static_cast<int>(p.tiles.size()) <= n - 2, "a pattern of " +
                                                                                   std::to_string(p.tiles.size()) + " tiles");
    for (const auto t : p.tiles) fuzz::check(t >= 1 && t < n, "a pattern tile out of range: " + std::to_string(t));
  }
  for (std::size_t i = 0; i < part.patterns.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) fuzz::check(!(part.patterns[i] == part.patterns[j]), "a pattern kept twice");
  // Each partition (a catalogue has several, joined by '+') holds disjoint patterns, every pattern
  // is in one, and its tiles as names read back as the same patterns.
  std::vector<int> in_some(part.patterns.size(), 0);
  std::string joined;
  for (const auto& group : part.partitions()) {
    fuzz::check(!group.empty(), "an empty partition");
    std::uint32_t used = 0;
    std::string names;
    for (const int j : group) {
      fuzz::check(j >= 0 && static_cast<std::size_t>(j) < part.patterns.size(), "a partition's pattern out of range");
      in_some[static_cast<std::size_t>(j)] = 1;
      const Pattern& p = part.patterns[static_cast<std::size_t>(j)];
      for (const auto t : p.tiles) {
        fuzz::check(!((used >> t) & 1u), "a tile in two patterns of a partition: " + std::to_string(t));
        used |= 1u << t;
      }
      names += (names.empty() ? "" : "/") + p.name();
    }
    joined += (joined.empty() ? "" : "+") + names;
  }
  for (const int seen : in_some) fuzz::check(seen == 1, "a pattern in no partition");
  try {
    const Partition again = parse_partition(joined, goal);
    fuzz::check(again.patterns == part.patterns && again.partitions() == part.partitions(),
                "a partition does not read back: " + joined);
  } catch (const InputError& e) {
    fuzz::fail("a partition does not read back: " + joined + ": " + e.what());
  }

  // The placement hash: the goal's placement and one made of the input's bytes, rank and back.
  for (const Pattern& p : part.patterns) {
    const int k = static_cast<int>(p.tiles.size());
    std::optional<PlacementRanker> ranker;
    try {
      ranker.emplace(n, k);
    } catch (const ResourceError&) {  // more placements than 64 bits index: documented
      continue;
    }
    fuzz::check(ranker->size() > 0, "a ranker of no placements");
    auto round_trip = [&](const std::uint8_t* pos) {
      const std::uint64_t r = ranker->rank(pos);
      fuzz::check(r < ranker->size(), "a rank out of range");
      std::array<std::uint8_t, kMaxPdbCells> back{};
      ranker->unrank(r, back.data());
      for (int i = 0; i < k; ++i) fuzz::check(back[i] == pos[i], "unrank(rank(p)) != p");
    };
    round_trip(placement_of(goal, p).data());
    std::array<std::uint8_t, kMaxPdbCells> pos{};
    std::uint32_t taken = 0;
    for (int i = 0; i < k; ++i) {
      int c = spec.empty() ? i : static_cast<unsigned char>(spec[static_cast<std::size_t>(i) % spec.size()]) % n;
      while ((taken >> c) & 1u) c = (c + 1) % n;
      taken |= 1u << c;
      pos[i] = static_cast<std::uint8_t>(c);
    }
    round_trip(pos.data());
    // The last rank and the first unrank to valid placements.
    for (const std::uint64_t r : {std::uint64_t{0}, ranker->size() - 1}) {
      std::array<std::uint8_t, kMaxPdbCells> q{};
      ranker->unrank(r, q.data());
      std::uint32_t seen = 0;
      for (int i = 0; i < k; ++i) {
        fuzz::check(q[i] < n && !((seen >> q[i]) & 1u), "unrank gave an invalid placement");
        seen |= 1u << q[i];
      }
      fuzz::check(ranker->rank(q.data()) == r, "rank(unrank(r)) != r");
    }
  }
  return 0;
}
