// The additive pattern-database heuristic as a search heuristic (heuristics.hpp's contract), so
// pattern databases work with every algorithm on every board up to 5x5.
//
// h = the sum over the partition's databases of the value of its tiles' placement; where the goal
// allows it (pdb/heuristic.hpp: a square board, the blank on the diagonal) the maximum of that sum
// and the same sum for the state reflected about the main diagonal (Korf & Felner 2002). Both sums
// are admissible and consistent (each changes by at most 1 a move).
//
// Per node the search carries a Value: every pattern's placement (direct and reflected) and
// value. A move re-ranks only the pattern of the tile that moved and its reflected pattern: two
// lookups, O(k) each, no allocation. With a cap (IDA*: bound - g), the reflected lookup is skipped
// when the direct sum alone already exceeds it; the value returned is then the direct sum, still a
// lower bound, and the node is pruned without being expanded. (Prefetching the children's lookups
// before evaluating them was measured slower — 24-puzzle instance 38, IDA*: 11.1-12.0 s with,
// 9.6-10.4 s without — and is not done.)
//
// Memory model: shares the databases (read-only) through the PdbHeuristic it is made from, which
// must outlive it. Immutable; safe to share between threads.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "tilespace/errors.hpp"
#include "tilespace/pdb/heuristic.hpp"
#include "tilespace/search/domain.hpp"

namespace tilespace::search {

template <class D>
class PatternDatabases {
 public:
  static constexpr bool kAdmissible = true;
  static constexpr bool kUnrolled = true;  // IDA* unrolls its node loop on static boards

  struct Value {
    std::array<std::uint8_t, kMaxBoardCells> cells;   // the direct placements, pattern after pattern
    std::array<std::uint8_t, kMaxBoardCells> mirror;  // the reflected placements
    std::array<std::uint8_t, pdb::kMaxPatterns> val, mval;
    std::int16_t sum, msum;  // msum is 0 without reflection (or skipped under a cap)
  };
  static int value(const Value& v) noexcept { return std::max(v.sum, v.msum); }

  // Precondition: `tables` was made for d.goal.
  PatternDatabases(const D& d, const pdb::PdbHeuristic& tables) : reflect_(tables.reflects()) {
    if (!(tables.goal() == d.goal)) throw InputError("the pattern databases are for another goal");
    const auto& dbs = tables.databases();
    patterns_ = static_cast<int>(dbs.size());
    int offset = 0;
    for (int j = 0; j < patterns_; ++j) {
      db_[j] = dbs[j].get();
      off_[j] = static_cast<std::uint8_t>(offset);
      offset += static_cast<int>(dbs[j]->pattern().tiles.size());
    }
    for (int t = 0; t < d.cells(); ++t) {
      if (const auto s = tables.slot(t); s.pattern >= 0) slot_[t] = {s.pattern, static_cast<std::uint8_t>(off_[s.pattern] + s.index)};
      if (const auto s = tables.slot(tables.mirror_tile(t)); reflect_ && s.pattern >= 0)
        mslot_[t] = {s.pattern, static_cast<std::uint8_t>(off_[s.pattern] + s.index)};
    }
    for (int c = 0; c < d.cells(); ++c) mcell_[c] = static_cast<std::uint8_t>(tables.mirror_cell(c));
  }

  Value eval(typename D::Word p, int) const noexcept {
    Value v{};
    for (int c = 0; c < D::kCells; ++c) {
      const int t = D::tile_at(p, c);
      if (t == 0) continue;
      if (slot_[t].pattern >= 0) v.cells[slot_[t].at] = static_cast<std::uint8_t>(c);
      if (mslot_[t].pattern >= 0) v.mirror[mslot_[t].at] = mcell_[c];
    }
    for (int j = 0; j < patterns_; ++j) {
      v.val[j] = static_cast<std::uint8_t>(db_[j]->value(&v.cells[off_[j]]));
      v.sum = static_cast<std::int16_t>(v.sum + v.val[j]);
      if (reflect_) {
        v.mval[j] = static_cast<std::uint8_t>(db_[j]->value(&v.mirror[off_[j]]));
        v.msum = static_cast<std::int16_t>(v.msum + v.mval[j]);
      }
    }
    return v;
  }

  Value update(const Value& v, typename D::Word, int, int tile, int, int to, int cap) const noexcept {
    Value n = v;
    if (const Slot s = slot_[tile]; s.pattern >= 0) {
      n.cells[s.at] = static_cast<std::uint8_t>(to);
      const int nv = db_[s.pattern]->value(&n.cells[off_[s.pattern]]);
      n.sum = static_cast<std::int16_t>(n.sum + nv - n.val[s.pattern]);
      n.val[s.pattern] = static_cast<std::uint8_t>(nv);
    }
    if (const Slot m = mslot_[tile]; m.pattern >= 0) {
      n.mirror[m.at] = mcell_[to];
      if (n.sum > cap) {  // pruned on the direct sum: the reflected lookup is not needed
        n.msum = 0;
        return n;
      }
      const int nv = db_[m.pattern]->value(&n.mirror[off_[m.pattern]]);
      n.msum = static_cast<std::int16_t>(n.msum + nv - n.mval[m.pattern]);
      n.mval[m.pattern] = static_cast<std::uint8_t>(nv);
    }
    return n;
  }
  Value update(const Value& v, typename D::Word after, int blank_after, int tile, int from, int to) const noexcept {
    return update(v, after, blank_after, tile, from, to, 1 << 20);
  }

 private:
  struct Slot {
    std::int8_t pattern = -1;  // which database counts the tile (-1: none)
    std::uint8_t at = 0;       // its place in Value::cells (mirror: Value::mirror)
  };
  bool reflect_;
  int patterns_ = 0;
  std::array<const pdb::PatternDatabase*, pdb::kMaxPatterns> db_{};
  std::array<std::uint8_t, pdb::kMaxPatterns> off_{};
  std::array<Slot, kMaxBoardCells> slot_{}, mslot_{};
  std::array<std::uint8_t, kMaxBoardCells> mcell_{};
};

}  // namespace tilespace::search
