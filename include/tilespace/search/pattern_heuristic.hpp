// The pattern-database heuristics (additive and zero-aware) as search heuristics (heuristics.hpp's contract), so
// pattern databases work with every algorithm on every board up to 5x5.
//
// h = the sum over the partition's databases of the value of its tiles' placement; where the goal
// allows it (pdb/heuristic.hpp: a square board, the blank on the diagonal) the maximum of that sum
// and the same sum for the state reflected about the main diagonal (Korf & Felner 2002). Both sums
// are admissible and consistent (each changes by at most 1 a move). A catalogue (pattern.hpp) takes
// the largest of its partitions' sums, direct and reflected: admissible and consistent too.
//
// Per node the search carries a Value: every pattern's placement (direct and reflected) and
// value. A move re-ranks only the pattern of the tile that moved and its reflected pattern: two
// lookups, O(k) each, no allocation. With a cap (IDA*: bound - g), the reflected lookup is skipped
// when the direct sum alone already exceeds it; the value returned is then the direct sum, still a
// lower bound, and the node is pruned without being expanded. A catalogue stops at the first
// partition whose sum, exact once its pattern with the moved tile is looked up, exceeds the cap. (Prefetching the children's lookups
// before evaluating them was measured slower — 24-puzzle instance 38, IDA*: 11.1-12.0 s with,
// 9.6-10.4 s without — and is not done.)
//
// Memory model: shares the databases (read-only) through the PdbHeuristic it is made from, which
// must outlive it. Immutable; safe to share between threads.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "tilespace/errors.hpp"
#include "tilespace/pdb/heuristic.hpp"
#include "tilespace/search/domain.hpp"
#include "tilespace/search/walking_distance.hpp"

namespace tilespace::search {

namespace detail {

// How much a node's Value holds: patterns, their tiles in all, and partitions. A plain partition
// keeps its Value small (IDA* copies one a generated node); a catalogue's is larger.
template <int Patterns, int Cells, int Groups>
struct SumShape {
  static constexpr int kPatterns = Patterns, kCells = Cells, kGroups = Groups;
};
using PartitionShape = SumShape<pdb::kMaxPatterns, kMaxBoardCells, 1>;
using CatalogueShape = SumShape<pdb::kMaxCataloguePatterns, 4 * kMaxBoardCells, pdb::kMaxCataloguePartitions>;

// The heuristic over either kind of pattern database, given how to look one up (Lookup):
//   static int first(const Db&, const std::uint8_t* cells, int blank)          a state's value;
//   static int next(const Db&, int before, const std::uint8_t* cells, int blank)  after a move of
//     one of the database's tiles, from the value before it.
// It keeps, in each node's Value, every pattern's placement and value (direct and reflected) and
// every partition's sums; a move looks up only the patterns of the tile that moved (one per
// partition that counts it, each pattern once) and their reflected patterns.
template <class D, class Db, class Lookup, class Shape = PartitionShape>
class PatternSum {
  static constexpr int kGroups = Shape::kGroups;

 public:
  static constexpr bool kAdmissible = true;
  static constexpr bool kUnrolled = true;  // IDA* unrolls its node loop on static boards

  struct Value {
    std::array<std::uint8_t, Shape::kCells> cells;   // the direct placements, pattern after pattern
    std::array<std::uint8_t, Shape::kCells> mirror;  // the reflected placements
    std::array<std::uint8_t, Shape::kPatterns> val, mval;
    std::array<std::int16_t, kGroups> sum, msum;  // per partition; msum is 0 without reflection (or skipped under a cap)
  };
  static int value(const Value& v) noexcept {
    int h = std::max(v.sum[0], v.msum[0]);
    for (int g = 1; g < kGroups; ++g) h = std::max({h, static_cast<int>(v.sum[g]), static_cast<int>(v.msum[g])});
    return h;
  }

  // Precondition: `dbs` are `tables`' databases, made for d.goal. Throws InputError when they do
  // not fit the Shape (a catalogue given to a partition's heuristic).
  PatternSum(const D& d, const pdb::PdbHeuristic& tables, const std::vector<std::shared_ptr<const Db>>& dbs)
      : reflect_(tables.reflects()) {
    if (!(tables.goal() == d.goal)) throw InputError("the pattern databases are for another goal");
    const auto& groups = tables.partitions();
    if (static_cast<int>(groups.size()) > kGroups)
      throw InputError("a catalogue of " + std::to_string(groups.size()) +
                       " partitions needs the catalogue heuristic (--heuristic catalogue:SPEC)");
    patterns_ = static_cast<int>(dbs.size());
    groups_ = static_cast<int>(groups.size());
    if (patterns_ > Shape::kPatterns) throw InputError("too many patterns: " + std::to_string(patterns_));
    int offset = 0;
    for (int j = 0; j < patterns_; ++j) {
      db_[j] = dbs[j].get();
      off_[j] = static_cast<std::uint8_t>(offset);
      offset += static_cast<int>(dbs[j]->pattern().tiles.size());
    }
    if (offset > Shape::kCells) throw InputError("too many pattern tiles: " + std::to_string(offset));
    for (int g = 0; g < groups_; ++g)
      for (const int j : groups[static_cast<std::size_t>(g)]) in_[j] = static_cast<std::uint8_t>(in_[j] | (1u << g));
    auto slots_of = [&](int tile, std::array<Slot, kGroups>& out) {
      int k = 0;
      for (const auto s : tables.slots(tile)) {
        if (k == kGroups) throw InputError("a tile is in more patterns than the catalogue has partitions");
        out[k++] = {s.pattern, static_cast<std::uint8_t>(off_[s.pattern] + s.index)};
      }
    };
    for (int t = 0; t < d.cells(); ++t) {
      slots_of(t, slot_[t]);
      if (reflect_) slots_of(tables.mirror_tile(t), mslot_[t]);
    }
    for (int c = 0; c < d.cells(); ++c) mcell_[c] = static_cast<std::uint8_t>(tables.mirror_cell(c));
  }

  Value eval(typename D::Word p, int blank) const {
    Value v = placed(p);
    for (int j = 0; j < patterns_; ++j) {
      v.val[j] = static_cast<std::uint8_t>(Lookup::first(*db_[j], &v.cells[off_[j]], blank));
      if (reflect_) v.mval[j] = static_cast<std::uint8_t>(Lookup::first(*db_[j], &v.mirror[off_[j]], mcell_[blank]));
    }
    add_sums(v);
    return v;
  }

  Value update(const Value& v, typename D::Word, int blank_after, int tile, int, int to, int cap) const noexcept {
    Value n = v;
    for (const Slot& s : slot_[tile]) {
      if (s.pattern < 0) break;
      n.cells[s.at] = static_cast<std::uint8_t>(to);
      const int nv = Lookup::next(*db_[s.pattern], n.val[s.pattern], &n.cells[off_[s.pattern]], blank_after);
      add(n.sum, s.pattern, nv - n.val[s.pattern]);
      n.val[s.pattern] = static_cast<std::uint8_t>(nv);
      if constexpr (kGroups > 1)
        if (const int h = over(n.sum, s.pattern, cap); h >= 0) return pruned(n, h);
    }
    if (mslot_[tile][0].pattern >= 0) {
      if constexpr (kGroups == 1) {
        if (n.sum[0] > cap) {  // pruned on the direct sum: the reflected lookup is not needed
          n.msum.fill(0);
          return n;
        }
      }
      for (const Slot& m : mslot_[tile]) {
        if (m.pattern < 0) break;
        n.mirror[m.at] = mcell_[to];
        const int nv = Lookup::next(*db_[m.pattern], n.mval[m.pattern], &n.mirror[off_[m.pattern]], mcell_[blank_after]);
        add(n.msum, m.pattern, nv - n.mval[m.pattern]);
        n.mval[m.pattern] = static_cast<std::uint8_t>(nv);
        if constexpr (kGroups > 1)
          if (const int h = over(n.msum, m.pattern, cap); h >= 0) return pruned(n, h);
      }
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
      for (const Slot& s : slot_[t]) {
        if (s.pattern < 0) break;
        v.cells[s.at] = static_cast<std::uint8_t>(c);
      }
      for (const Slot& m : mslot_[t]) {
        if (m.pattern < 0) break;
        v.mirror[m.at] = mcell_[c];
      }
    }
    return v;
  }
  // Every partition's sums from the patterns' values.
  void add_sums(Value& v) const noexcept {
    for (int j = 0; j < patterns_; ++j) {
      add(v.sum, j, v.val[j]);
      if (reflect_) add(v.msum, j, v.mval[j]);
    }
  }
  // Adds `delta` to the sums of the partitions that hold pattern j.
  void add(std::array<std::int16_t, kGroups>& sums, int j, int delta) const noexcept {
    if constexpr (kGroups == 1) {
      sums[0] = static_cast<std::int16_t>(sums[0] + delta);
    } else {
      for (unsigned m = in_[j]; m; m &= m - 1) {
        const int g = std::countr_zero(m);
        sums[g] = static_cast<std::int16_t>(sums[g] + delta);
      }
    }
  }
  // A catalogue under a cap: once pattern j is looked up again, the sums of the partitions holding
  // it are exact (each partition has one pattern with the tile that moved; the others kept their
  // values). The first such sum above the cap prunes the node: returns it (else -1).
  int over(const std::array<std::int16_t, kGroups>& sums, int j, int cap) const noexcept {
    for (unsigned m = in_[j]; m; m &= m - 1)
      if (const int g = std::countr_zero(m); sums[g] > cap) return sums[g];
    return -1;
  }
  // A node pruned with `h`, a partition's exact sum: the other sums may be stale (a pattern not
  // looked up again), so the Value keeps only h. It is never expanded or updated again.
  static Value pruned(Value& n, int h) noexcept {
    n.sum.fill(0);
    n.msum.fill(0);
    n.sum[0] = static_cast<std::int16_t>(h);
    return n;
  }

  struct Slot {
    std::int8_t pattern = -1;  // which database counts the tile (-1: none, and no further slot)
    std::uint8_t at = 0;       // its place in Value::cells (mirror: Value::mirror)
  };
  bool reflect_;
  int patterns_ = 0, groups_ = 1;
  std::array<const Db*, Shape::kPatterns> db_{};
  std::array<std::uint8_t, Shape::kPatterns> off_{};
  std::array<std::uint8_t, Shape::kPatterns> in_{};  // the partitions holding each pattern, a bit each
  std::array<std::array<Slot, kGroups>, kMaxBoardCells> slot_{}, mslot_{};
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
template <class D, class Shape = detail::PartitionShape>
class ZeroAwareDatabases : public detail::PatternSum<D, pdb::ZeroAwareDatabase, detail::ZeroAwareLookup, Shape> {
  using Base = detail::PatternSum<D, pdb::ZeroAwareDatabase, detail::ZeroAwareLookup, Shape>;

 public:
  using Value = typename Base::Value;
  struct Stored {
    std::array<std::uint8_t, Shape::kPatterns> val, mval;
  };

  // Precondition: `tables` holds zero-aware databases made for d.goal (InputError otherwise).
  ZeroAwareDatabases(const D& d, const pdb::PdbHeuristic& tables)
      : Base(d, tables, detail::zero_aware_tables(tables).zero_aware_databases()) {}

  Stored store(const Value& v) const noexcept { return {v.val, v.mval}; }
  Value restore(typename D::Word p, int, const Stored& s) const noexcept {
    Value v = this->placed(p);
    v.val = s.val;
    v.mval = s.mval;
    this->add_sums(v);
    return v;
  }
};

// A catalogue of zero-aware databases (pattern.hpp: several partitions, the largest sum taken):
// the same heuristic with room for every partition in a node's Value.
template <class D>
using ZeroAwareCatalogue = ZeroAwareDatabases<D, detail::CatalogueShape>;

// Multi-tile pattern databases (pdb/build.hpp: build_multi_tile_database), a byte a placement of
// the blank and the pattern's tiles, in the multi-tile metric. One move may slide tiles of several
// patterns, so their values do not add up; h is the largest of them, each looked up for the state
// and (where the goal allows it, as for additive databases) for the state reflected about the main
// diagonal, which the multi-tile metric maps to itself; and of walking distance in the multi-tile
// metric where it takes the board (walking_distance.hpp; it counts horizontal and vertical moves
// apart, which no single database does). Each part is admissible and consistent (a move changes
// it by at most 1), so their maximum is too.
//
// Every database depends on the blank, so every move looks up every pattern (and its reflection):
// a node's Value keeps the placements, walking distance's Value and h. A multi-tile move of k
// cells is k one-cell steps (concepts.hpp: Ops::slide); the steps before the last only move cells
// (step()), and the last looks the databases up once. Under a cap (IDA*: bound - g) the lookups
// stop at the first value above it: the node is pruned with that value, a lower bound.
template <class D>
class MultiTileDatabases {
  static constexpr int kSlots = 2 * kMaxBoardCells + 8;  // the patterns' blanks and tiles, one after another

 public:
  static constexpr bool kAdmissible = true;
  using Wd = WalkingDistance<D>;
  struct Value {
    std::array<std::uint8_t, kSlots> cells;   // pattern j: its blank slot off[j], then its tiles
    std::array<std::uint8_t, kSlots> mirror;  // the same for the reflected state
    typename Wd::Value wd;
    std::int16_t h;
  };
  static int value(const Value& v) noexcept { return v.h; }

  // Precondition: `tables` holds multi-tile databases made for d.goal (InputError otherwise).
  MultiTileDatabases(const D& d, const pdb::PdbHeuristic& tables) : reflect_(tables.reflects()) {
    if (!(tables.goal() == d.goal)) throw InputError("the pattern databases are for another goal");
    if (!d.multi()) throw InputError("multi-tile pattern databases count multi-tile moves (--metric multi)");
    const auto& dbs = tables.databases();
    if (dbs.empty() || tables.zero_aware()) throw InputError("the mpdb heuristic needs multi-tile pattern databases");
    patterns_ = static_cast<int>(dbs.size());
    if (patterns_ > pdb::kMaxCataloguePartitions)
      throw InputError("at most " + std::to_string(pdb::kMaxCataloguePartitions) + " multi-tile patterns, not " +
                       std::to_string(patterns_));
    int offset = 0;
    for (int j = 0; j < patterns_; ++j) {
      if (dbs[j]->metric() != Metric::multi) throw InputError("pattern " + dbs[j]->pattern().name() + " is not multi-tile");
      db_[j] = dbs[j].get();
      off_[j] = static_cast<std::uint8_t>(offset);
      offset += 1 + static_cast<int>(dbs[j]->pattern().tiles.size());
    }
    if (offset > kSlots) throw InputError("too many pattern tiles: " + std::to_string(offset));
    for (int j = 0; j < patterns_; ++j) {
      const auto& tiles = dbs[j]->pattern().tiles;
      for (std::size_t i = 0; i < tiles.size(); ++i) {
        add_slot(slot_[tiles[i]], off_[j] + 1 + static_cast<int>(i));
        if (reflect_) add_slot(mslot_[tables.mirror_tile(tiles[i])], off_[j] + 1 + static_cast<int>(i));
      }
    }
    for (int c = 0; c < d.cells(); ++c) mcell_[c] = static_cast<std::uint8_t>(tables.mirror_cell(c));
    if (walking_distance_takes(d.board)) wd_ = std::make_shared<const Wd>(d);
  }

  // The bytes of the walking-distance tables it built (the databases are the PdbHeuristic's).
  std::uint64_t table_bytes() const noexcept { return wd_ ? wd_->table_bytes() : 0; }

  Value eval(typename D::Word p, int blank) const {
    Value v{};
    for (int c = 0; c < D::kCells; ++c)
      if (c != blank) step(v, D::tile_at(p, c), c);
    if (wd_) v.wd = wd_->eval(p, blank);
    v.h = static_cast<std::int16_t>(look(v, blank, 1 << 20));
    return v;
  }

  // A one-cell step of a multi-tile move before its last: the tile's cells only, no lookup.
  void step(Value& v, int tile, int to) const noexcept {
    for (const std::uint8_t at : slot_[tile]) {
      if (at == kNoSlot) break;
      v.cells[at] = static_cast<std::uint8_t>(to);
    }
    for (const std::uint8_t at : mslot_[tile]) {
      if (at == kNoSlot) break;
      v.mirror[at] = mcell_[to];
    }
  }
  Value step(const Value& v, typename D::Word after, int blank_after, int tile, int from, int to) const noexcept {
    Value n = v;
    step(n, tile, to);
    if (wd_) n.wd = wd_->update(v.wd, after, blank_after, tile, from, to);
    return n;
  }

  Value update(const Value& v, typename D::Word after, int blank_after, int tile, int from, int to, int cap) const noexcept {
    Value n = step(v, after, blank_after, tile, from, to);
    n.h = static_cast<std::int16_t>(look(n, blank_after, cap));
    return n;
  }
  Value update(const Value& v, typename D::Word after, int blank_after, int tile, int from, int to) const noexcept {
    return update(v, after, blank_after, tile, from, to, 1 << 20);
  }

 private:
  static constexpr std::uint8_t kNoSlot = 0xFF;
  static constexpr int kMaxSlots = pdb::kMaxCataloguePartitions;  // a tile is in at most every pattern
  static void add_slot(std::array<std::uint8_t, kMaxSlots>& slots, int at) {
    for (auto& s : slots)
      if (s == kNoSlot) {
        s = static_cast<std::uint8_t>(at);
        return;
      }
  }
  // The largest value, stopping above `cap`.
  int look(Value& v, int blank, int cap) const noexcept {
    int h = wd_ ? Wd::value(v.wd) : 0;
    for (int j = 0; j < patterns_ && h <= cap; ++j) {
      v.cells[off_[j]] = static_cast<std::uint8_t>(blank);
      h = std::max(h, db_[j]->value(&v.cells[off_[j]]));
    }
    if (reflect_)
      for (int j = 0; j < patterns_ && h <= cap; ++j) {
        v.mirror[off_[j]] = mcell_[blank];
        h = std::max(h, db_[j]->value(&v.mirror[off_[j]]));
      }
    return h;
  }
  static std::array<std::array<std::uint8_t, kMaxSlots>, kMaxBoardCells> empty_slots() {
    std::array<std::array<std::uint8_t, kMaxSlots>, kMaxBoardCells> s;
    for (auto& t : s) t.fill(kNoSlot);
    return s;
  }

  bool reflect_;
  int patterns_ = 0;
  std::array<const pdb::PatternDatabase*, pdb::kMaxCataloguePartitions> db_{};
  std::array<std::uint8_t, pdb::kMaxCataloguePartitions> off_{};
  std::array<std::array<std::uint8_t, kMaxSlots>, kMaxBoardCells> slot_ = empty_slots(), mslot_ = empty_slots();
  std::array<std::uint8_t, kMaxBoardCells> mcell_{};
  std::shared_ptr<const Wd> wd_;
};

}  // namespace tilespace::search
