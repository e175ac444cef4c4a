// The pattern-database heuristics (additive and zero-aware) as search heuristics (heuristics.hpp's contract), so
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
#include <memory>
#include <vector>

#include "tilespace/errors.hpp"
#include "tilespace/pdb/heuristic.hpp"
#include "tilespace/search/domain.hpp"

namespace tilespace::search {

namespace detail {

// The heuristic over either kind of pattern database, given how to look one up (Lookup):
//   static int first(const Db&, const std::uint8_t* cells, int blank)          a state's value;
//   static int next(const Db&, int before, const std::uint8_t* cells, int blank)  after a move of
//     one of the database's tiles, from the value before it.
// It keeps, in each node's Value, every pattern's placement and value (direct and reflected); a
// move looks up only the pattern of the tile that moved and its reflected pattern.
template <class D, class Db, class Lookup>
class PatternSum {
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

  // Precondition: `dbs` are `tables`' databases, made for d.goal.
  PatternSum(const D& d, const pdb::PdbHeuristic& tables, const std::vector<std::shared_ptr<const Db>>& dbs)
      : reflect_(tables.reflects()) {
    if (!(tables.goal() == d.goal)) throw InputError("the pattern databases are for another goal");
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

  Value eval(typename D::Word p, int blank) const {
    Value v = placed(p);
    for (int j = 0; j < patterns_; ++j) {
      v.val[j] = static_cast<std::uint8_t>(Lookup::first(*db_[j], &v.cells[off_[j]], blank));
      v.sum = static_cast<std::int16_t>(v.sum + v.val[j]);
      if (reflect_) {
        v.mval[j] = static_cast<std::uint8_t>(Lookup::first(*db_[j], &v.mirror[off_[j]], mcell_[blank]));
        v.msum = static_cast<std::int16_t>(v.msum + v.mval[j]);
      }
    }
    return v;
  }

  Value update(const Value& v, typename D::Word, int blank_after, int tile, int, int to, int cap) const noexcept {
    Value n = v;
    if (const Slot s = slot_[tile]; s.pattern >= 0) {
      n.cells[s.at] = static_cast<std::uint8_t>(to);
      const int nv = Lookup::next(*db_[s.pattern], n.val[s.pattern], &n.cells[off_[s.pattern]], blank_after);
      n.sum = static_cast<std::int16_t>(n.sum + nv - n.val[s.pattern]);
      n.val[s.pattern] = static_cast<std::uint8_t>(nv);
    }
    if (const Slot m = mslot_[tile]; m.pattern >= 0) {
      n.mirror[m.at] = mcell_[to];
      if (n.sum > cap) {  // pruned on the direct sum: the reflected lookup is not needed
        n.msum = 0;
        return n;
      }
      const int nv = Lookup::next(*db_[m.pattern], n.mval[m.pattern], &n.mirror[off_[m.pattern]], mcell_[blank_after]);
      n.msum = static_cast<std::int16_t>(n.msum + nv - n.mval[m.pattern]);
      n.mval[m.pattern] = static_cast<std::uint8_t>(nv);
    }
    return n;
  }
  Value update(const Value& v, typename D::Word after, int blank_after, int tile, int from, int to) const noexcept {
    return update(v, after, blank_after, tile, from, to, 1 << 20);
  }

 protected:
  // The placements of a state, direct and reflected; no values yet.
  Value placed(typename D::Word p) const noexcept {
    Value v{};
    for (int c = 0; c < D::kCells; ++c) {
      const int t = D::tile_at(p, c);
      if (t == 0) continue;
      if (slot_[t].pattern >= 0) v.cells[slot_[t].at] = static_cast<std::uint8_t>(c);
      if (mslot_[t].pattern >= 0) v.mirror[mslot_[t].at] = mcell_[c];
    }
    return v;
  }

  struct Slot {
    std::int8_t pattern = -1;  // which database counts the tile (-1: none)
    std::uint8_t at = 0;       // its place in Value::cells (mirror: Value::mirror)
  };
  bool reflect_;
  int patterns_ = 0;
  std::array<const Db*, pdb::kMaxPatterns> db_{};
  std::array<std::uint8_t, pdb::kMaxPatterns> off_{};
  std::array<Slot, kMaxBoardCells> slot_{}, mslot_{};
  std::array<std::uint8_t, kMaxBoardCells> mcell_{};
};

// Additive databases: one byte a placement, the blank ignored.
struct AdditiveLookup {
  static int first(const pdb::PatternDatabase& db, const std::uint8_t* cells, int) noexcept { return db.value(cells); }
  static int next(const pdb::PatternDatabase& db, int, const std::uint8_t* cells, int) noexcept { return db.value(cells); }
};

// Zero-aware databases at one bit an entry: the first value by descent, then one bit a move.
struct ZeroAwareLookup {
  static int first(const pdb::ZeroAwareDatabase& db, const std::uint8_t* cells, int blank) { return db.value(cells, blank); }
  static int next(const pdb::ZeroAwareDatabase& db, int before, const std::uint8_t* cells, int blank) noexcept {
    return db.next(before, cells, blank);
  }
};

inline const pdb::PdbHeuristic& zero_aware_tables(const pdb::PdbHeuristic& tables) {
  if (!tables.zero_aware()) throw InputError("the zpdb heuristic needs zero-aware pattern databases");
  return tables;
}

}  // namespace detail

template <class D>
class PatternDatabases : public detail::PatternSum<D, pdb::PatternDatabase, detail::AdditiveLookup> {
 public:
  // Precondition: `tables` was made for d.goal.
  PatternDatabases(const D& d, const pdb::PdbHeuristic& tables)
      : detail::PatternSum<D, pdb::PatternDatabase, detail::AdditiveLookup>(d, tables, tables.databases()) {}
};

// The same sum over zero-aware databases at one bit an entry (pdb/zero_aware.hpp): their values
// depend on the blank's cell too, and a move of one of a database's tiles changes its value by
// exactly one, the one of the two that its bit names (ZeroAwareDatabase::next). So the node's
// Value holds every pattern's exact value: eval finds them by descent (a few hundred lookups, once
// a search), update reads one bit per changed pattern. A move of another tile leaves the blank in
// its region and the value as it was. Under a cap, a node whose reflected lookup was skipped keeps
// no reflected values, and is pruned, never expanded (as for additive databases).
//
// A* and the hybrid search keep each stored node's values (Stored: a byte a pattern, direct and
// reflected) and restore the node's Value from them and its state, instead of a descent per
// expanded node (StoredValueHeuristic, concepts.hpp).
template <class D>
class ZeroAwareDatabases : public detail::PatternSum<D, pdb::ZeroAwareDatabase, detail::ZeroAwareLookup> {
  using Base = detail::PatternSum<D, pdb::ZeroAwareDatabase, detail::ZeroAwareLookup>;

 public:
  using Value = typename Base::Value;
  struct Stored {
    std::array<std::uint8_t, pdb::kMaxPatterns> val, mval;
  };

  // Precondition: `tables` holds zero-aware databases made for d.goal (InputError otherwise).
  ZeroAwareDatabases(const D& d, const pdb::PdbHeuristic& tables)
      : Base(d, tables, detail::zero_aware_tables(tables).zero_aware_databases()) {}

  Stored store(const Value& v) const noexcept { return {v.val, v.mval}; }
  Value restore(typename D::Word p, int, const Stored& s) const noexcept {
    Value v = this->placed(p);
    v.val = s.val;
    v.mval = s.mval;
    for (int j = 0; j < this->patterns_; ++j) {
      v.sum = static_cast<std::int16_t>(v.sum + v.val[j]);
      if (this->reflect_) v.msum = static_cast<std::int16_t>(v.msum + v.mval[j]);
    }
    return v;
  }
};

}  // namespace tilespace::search
