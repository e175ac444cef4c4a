// What the search algorithms (algorithms.hpp) require of their template arguments, as C++20
// concepts: `SearchDomain` for the domain D (domain.hpp: Domain, WideDomain) and `Heuristic<H, D>`
// for the heuristic H (heuristics.hpp, pattern_heuristic.hpp; the contract in words is at the top
// of heuristics.hpp), each derived from what the algorithms call. The optional parts of a
// heuristic have concepts of their own, and `Ops<H>` is how the algorithms call any heuristic
// whatever optional parts it has. Every domain and heuristic of the library satisfies these
// (tests/test_search.cpp asserts it; the algorithms' templates require them).
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "tilespace/board.hpp"
#include "tilespace/state.hpp"

namespace tilespace::search {

// A search domain: a board, a goal, and states as words of a fixed number of bits a cell.
template <class D>
concept SearchDomain =
    std::regular<typename D::Word> &&  // compared, copied, hashed (node_map.hpp), 0 is no state
    requires(const D& d, typename D::Word w, const State& s, int cell) {
      typename std::bool_constant<D::kPacked>;  // words are State::packed() (traces need it)
      { d.board } -> std::convertible_to<const Board&>;  // its neighbour table: the moves
      { d.goal } -> std::convertible_to<const State&>;
      { d.goal_packed } -> std::convertible_to<typename D::Word>;
      { D::pack(s) } -> std::same_as<typename D::Word>;
      { D::move(w, cell, cell) } -> std::same_as<typename D::Word>;  // the blank from one cell to another
      { D::tile_at(w, cell) } -> std::convertible_to<int>;
      { d.state(w) } -> std::same_as<State>;
      { D::trace_word(w) } -> std::same_as<std::uint64_t>;
    };

namespace detail {
template <class H>
struct heuristic_value {
  using type = int;
};
template <class H>
  requires requires { typename H::Value; }
struct heuristic_value<H> {
  using type = typename H::Value;
};
}  // namespace detail

// What a node carries for heuristic H: H::Value if it declares one, else the int h itself.
template <class H>
using HeuristicValue = typename detail::heuristic_value<H>::type;

// A heuristic whose nodes carry more than h (a Value from which `static int value(const Value&)`
// reads h; PatternDatabases: every pattern's placement).
template <class H>
concept CompositeValueHeuristic = requires(const typename H::Value& v) {
  { H::value(v) } -> std::convertible_to<int>;
};

// A heuristic evaluated incrementally over word type W: the value after tile `tile` moved from
// cell `from` to `to`, given the value before (`update(v, after, blank_after, tile, from, to)`).
template <class H, class W>
concept IncrementalHeuristic = requires(const H& h, const HeuristicValue<H>& v, W after, int i) {
  { h.update(v, after, i, i, i, i) } -> std::convertible_to<HeuristicValue<H>>;
};

// A heuristic whose update also takes a cap (IDA*'s bound - g): it may stop early once the value is
// known to exceed it, the value returned still a lower bound (`update(..., to, cap)`).
template <class H, class W>
concept CappedHeuristic = requires(const H& h, const HeuristicValue<H>& v, W after, int i) {
  { h.update(v, after, i, i, i, i, i) } -> std::convertible_to<HeuristicValue<H>>;
};

// A heuristic for which IDA* unrolls its node loop on the boards of static shape
// (`static constexpr bool kUnrolled = true;`: algorithms/ida_star.hpp, StaticBoard).
template <class H>
concept UnrolledHeuristic = bool(H::kUnrolled);

// A heuristic over domain D: an estimate of the moves left from a state to D's goal, evaluated from
// scratch (`eval`) and after a move (`update`, with or without a cap), declaring whether it is
// admissible.
template <class H, class D>
concept Heuristic =
    SearchDomain<D> && std::copyable<HeuristicValue<H>> &&
    (CompositeValueHeuristic<H> || std::same_as<HeuristicValue<H>, int>) &&
    (IncrementalHeuristic<H, typename D::Word> || CappedHeuristic<H, typename D::Word>) &&
    requires(const H& h, typename D::Word w, int blank) {
      typename std::bool_constant<H::kAdmissible>;
      { h.eval(w, blank) } -> std::convertible_to<HeuristicValue<H>>;
    };

// A heuristic whose node value is costly to make from scratch (zero-aware pattern databases: a
// descent a pattern) keeps a compact copy of it with each stored node: `store(v)`, and
// `restore(w, blank, stored)` gives the value back. A* and the hybrid search then never evaluate
// an expanded node from scratch.
template <class H, class W>
concept StoredValueHeuristic =
    requires(const H& h, const HeuristicValue<H>& v, const typename H::Stored& s, W w, int blank) {
      { h.store(v) } -> std::same_as<typename H::Stored>;
      { h.restore(w, blank, s) } -> std::same_as<HeuristicValue<H>>;
    };

namespace detail {
struct NothingStored {};
template <class H>
struct stored_value {
  using type = NothingStored;
};
template <class H>
  requires requires { typename H::Stored; }
struct stored_value<H> {
  using type = typename H::Stored;
};
}  // namespace detail

// What a stored node keeps of its value for heuristic H (nothing unless H is a StoredValueHeuristic).
template <class H>
using StoredValue = typename detail::stored_value<H>::type;

// How algorithms call a heuristic whatever its optional parts (the concepts above).
template <class H>
struct Ops {
  using Value = HeuristicValue<H>;
  static int h(const Value& v) noexcept {
    if constexpr (CompositeValueHeuristic<H>) return H::value(v);
    else return v;
  }
  template <class W>
  static Value update(const H& heur, const Value& v, W after, int blank_after, int tile, int from, int to, int cap) {
    if constexpr (CappedHeuristic<H, W>)
      return heur.update(v, after, blank_after, tile, from, to, cap);
    else
      return heur.update(v, after, blank_after, tile, from, to);
  }
  // The move of the blank from `blank` to `to` in domain d's metric: the word after it (`after`)
  // and the value, updated once a one-cell step (a multi-tile move of k cells is k steps, every
  // one but the last uncapped, so that each update starts from an exact value). A heuristic with
  // step() (the same arguments as update without the cap) takes the steps before the last with it:
  // it keeps what the next step needs and leaves the value to the last (MultiTileDatabases).
  template <class D, class W>
  static Value slide(const H& heur, const D& d, const Value& v, W p, int blank, int to, int cap, W& after) {
    const int s = d.step_toward(blank, to);
    if (blank + s == to) {
      after = D::move(p, blank, to);
      return update(heur, v, after, to, D::tile_at(p, to), to, blank, cap);
    }
    Value cur = v;
    for (int c = blank; c != to; c += s) {
      const int tile = D::tile_at(p, c + s);
      p = D::move(p, c, c + s);
      if constexpr (requires { heur.step(cur, p, c + s, tile, c + s, c); }) {
        if (c + s != to) {
          cur = heur.step(cur, p, c + s, tile, c + s, c);
          continue;
        }
      }
      cur = update(heur, cur, p, c + s, tile, c + s, c, c + s == to ? cap : 1 << 20);
    }
    after = p;
    return cur;
  }
};

}  // namespace tilespace::search
