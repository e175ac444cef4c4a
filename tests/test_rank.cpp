// The perfect hash: lex_rank / lex_unrank, Ranker::rank / unrank, and that it is a bijection
// between the states reachable from the goal and [0, size()).
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <queue>
#include <random>
#include <unordered_set>
#include <vector>

#include "support.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/state.hpp"

using namespace tilespace;

namespace {

// Every state reachable from `goal` by blank moves (naive BFS over packed states).
std::vector<State> reachable_states(const State& goal) {
  std::vector<State> out;
  for (const auto& [p, d] : testing::naive_bfs(goal)) out.push_back(State::unpack(goal.board, p));
  return out;
}

bool is_permutation_of_iota(const Sequence& s, int n) {
  std::uint32_t m = 0;
  for (int i = 0; i < n; ++i) {
    if (s[i] >= n) return false;
    m |= 1u << s[i];
  }
  return m == (1u << n) - 1u;
}

// Out of line: GCC 12 at -O3 otherwise reports false -Warray-bounds on the unrolled copy.
[[gnu::noinline]] Sequence to_sequence(const std::vector<int>& v) {
  Sequence s{};
  for (std::size_t i = 0; i < v.size(); ++i) s.at(i) = static_cast<std::uint8_t>(v[i]);
  return s;
}

unsigned naive_parity(const Sequence& s, int n) {
  // Parity by counting cycles: n - cycles.
  std::vector<bool> done(n, false);
  int cycles = 0;
  for (int i = 0; i < n; ++i) {
    if (done[i]) continue;
    ++cycles;
    for (int j = i; !done[j]; j = s[j]) done[j] = true;
  }
  return static_cast<unsigned>((n - cycles) & 1);
}

void check_exhaustive_round_trip(const Board& board, int goal_blank) {
  const Ranker r(board, goal_blank);
  const int n = r.seq_len();
  REQUIRE(r.size() == kFactorial[board.cells()] / 2);
  REQUIRE(r.groups() == kFactorial[n] / 2);
  std::uint64_t failures = 0;
  std::vector<std::uint64_t> per_blank(board.cells(), 0);
  for (std::uint64_t i = 0; i < r.size(); ++i) {
    Sequence s{};
    const int b = r.unrank(i, s);
    const bool ok = b >= 0 && b < board.cells() && is_permutation_of_iota(s, n) && r.reachable(s, b) &&
                    r.rank(s, b) == i;
    if (!ok && ++failures <= 5) {
      INFO("board " << board.name() << " goal blank " << goal_blank << " rank " << i << " -> blank " << b);
      CHECK(ok);
    }
    if (b >= 0 && b < board.cells()) ++per_blank[b];
  }
  CHECK(failures == 0);
  // Every blank cell gets the same share: (N-1)!/2 states.
  for (int c = 0; c < board.cells(); ++c) CHECK(per_blank[c] == r.groups());
}

// BFS from the canonical goal: every reachable state is reachable() and ranks are distinct,
// in range and cover [0, size()) exactly.
void check_bijection(const Board& board, int goal_blank) {
  const State goal = canonical_goal(board, goal_blank);
  const Ranker r(board, goal_blank);
  const Labelling lab(goal);
  const auto states = reachable_states(goal);
  CHECK(states.size() == r.size());
  std::vector<bool> hit(r.size(), false);
  std::uint64_t bad = 0, dup = 0;
  for (const State& s : states) {
    const Sequence seq = lab.sequence(s);
    if (!r.reachable(seq, s.blank)) {
      ++bad;
      continue;
    }
    const std::uint64_t k = r.rank(seq, s.blank);
    if (k >= r.size()) {
      ++bad;
      continue;
    }
    if (hit[k]) ++dup;
    hit[k] = true;
    // unrank gives back the same state.
    Sequence back{};
    const int b = r.unrank(k, back);
    if (b != s.blank || !std::equal(back.begin(), back.begin() + r.seq_len(), seq.begin())) ++bad;
  }
  INFO("board " << board.name() << " goal blank " << goal_blank);
  CHECK(bad == 0);
  CHECK(dup == 0);
  CHECK(std::count(hit.begin(), hit.end(), true) == static_cast<std::ptrdiff_t>(r.size()));
  // The goal's sequence is the identity.
  const Sequence gs = lab.sequence(goal);
  for (int i = 0; i < r.seq_len(); ++i) CHECK(gs[i] == i);
}

}  // namespace

TEST_CASE("kFactorial", "[rank]") {
  CHECK(kFactorial[0] == 1);
  CHECK(kFactorial[1] == 1);
  CHECK(kFactorial[9] == 362880);
  CHECK(kFactorial[16] == 20922789888000ull);
  CHECK(kFactorial[20] == 2432902008176640000ull);
}

TEST_CASE("lex_rank follows std::next_permutation order", "[rank][lex]") {
  for (int n = 1; n <= 9; ++n) {
    std::vector<int> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    std::uint64_t expected = 0;
    std::uint64_t bad = 0;
    do {
      const Sequence s = to_sequence(perm);
      if (lex_rank(s, n) != expected) ++bad;
      Sequence u{};
      lex_unrank(expected, n, u);
      if (!std::equal(u.begin(), u.begin() + n, s.begin())) ++bad;
      if (permutation_parity(s, n) != naive_parity(s, n)) ++bad;
      ++expected;
    } while (std::next_permutation(perm.begin(), perm.end()));
    INFO("n = " << n);
    CHECK(expected == kFactorial[n]);
    CHECK(bad == 0);
  }
}

TEST_CASE("lex_rank / lex_unrank sampled round trip for n up to 16", "[rank][lex]") {
  std::mt19937_64 rng(12345);
  for (int n : {10, 11, 12, 13, 14, 15, 16}) {
    Sequence last{};
    for (int i = 0; i < n; ++i) last[i] = static_cast<std::uint8_t>(n - 1 - i);
    CHECK(lex_rank(last, n) == kFactorial[n] - 1);
    std::vector<int> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    CHECK(lex_rank(to_sequence(perm), n) == 0);

    std::uint64_t bad = 0;
    for (int k = 0; k < 20000; ++k) {
      std::shuffle(perm.begin(), perm.end(), rng);
      const Sequence s = to_sequence(perm);
      const std::uint64_t r = lex_rank(s, n);
      if (r >= kFactorial[n]) ++bad;
      Sequence u{};
      lex_unrank(r, n, u);
      if (!std::equal(u.begin(), u.begin() + n, s.begin())) ++bad;
      if (permutation_parity(s, n) != naive_parity(s, n)) ++bad;
      // Random rank -> permutation -> rank.
      const std::uint64_t q = std::uniform_int_distribution<std::uint64_t>(0, kFactorial[n] - 1)(rng);
      lex_unrank(q, n, u);
      if (!is_permutation_of_iota(u, n) || lex_rank(u, n) != q) ++bad;
    }
    INFO("n = " << n);
    CHECK(bad == 0);
  }
}

TEST_CASE("lex ranks 2g and 2g+1 differ by swapping the last two entries", "[rank][lex]") {
  std::mt19937_64 rng(7);
  for (int n : {3, 5, 8, 11, 15}) {
    for (int k = 0; k < 1000; ++k) {
      const std::uint64_t g = std::uniform_int_distribution<std::uint64_t>(0, kFactorial[n] / 2 - 1)(rng);
      Sequence a{}, b{};
      lex_unrank(2 * g, n, a);
      lex_unrank(2 * g + 1, n, b);
      std::swap(b[n - 2], b[n - 1]);
      REQUIRE(std::equal(a.begin(), a.begin() + n, b.begin()));
    }
  }
}

TEST_CASE("Ranker sizes", "[rank]") {
  CHECK(Ranker(Board(2, 2), 3).size() == 12);
  CHECK(Ranker(Board(2, 3), 5).size() == 360);
  CHECK(Ranker(Board(3, 3), 8).size() == 181440);
  CHECK(Ranker(Board(3, 3), 8).groups() == 20160);
  CHECK(Ranker(Board(4, 3), 0).size() == 239500800);
  CHECK(Ranker(Board(4, 4), 15).size() == 10461394944000ull);
  CHECK(Ranker(Board(2, 8), 15).size() == 10461394944000ull);
  CHECK(Ranker(Board(3, 3), 4).goal_blank() == 4);
  CHECK_THROWS(Ranker(Board(3, 3), 9));
  CHECK_THROWS(Ranker(Board(3, 3), -1));
}

TEST_CASE("Ranker and Labelling refuse boards of more than 16 cells with an InputError", "[rank][5x5]") {
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(Ranker(Board(5, 5), 24), Contains("the 5x5 board has 25 cells") && Contains("at most 16") &&
                                                 Contains("pdb:6-6-6-6"));
  CHECK_THROWS_AS(Ranker(Board(5, 5), 0), InputError);
  CHECK_THROWS_AS(Ranker(Board(4, 5), 0), InputError);
  CHECK_THROWS_WITH(Ranker(Board(5, 4), 0), Contains("the 5x4 board has 20 cells") && Contains("pattern-database"));
  CHECK_THROWS_AS(Ranker(Board(2, 9), 17), InputError);
  CHECK_THROWS_AS(Labelling(canonical_goal(Board(5, 5), 0)), InputError);
  CHECK_THROWS_AS(Labelling(canonical_goal(Board(3, 6), 17)), InputError);
  CHECK_NOTHROW(Ranker(Board(2, 8), 0));
  CHECK_NOTHROW(Labelling(canonical_goal(Board(4, 4), 15)));
}

TEST_CASE("Ranker round trip rank(unrank(i)) == i on small boards, every goal blank", "[rank]") {
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{2, 2}, {2, 3}, {3, 2}, {3, 3}, {2, 4}, {4, 2}}) {
    const Board b(w, h);
    for (int gb = 0; gb < b.cells(); ++gb) {
      INFO("board " << b.name() << " goal blank " << gb);
      check_exhaustive_round_trip(b, gb);
    }
  }
}

TEST_CASE("Ranker is a bijection from the reachable states onto 0 .. size()-1", "[rank][slow]") {
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}}) {
    const Board b(w, h);
    for (int gb = 0; gb < b.cells(); ++gb) check_bijection(b, gb);
  }
  const Board b33(3, 3);
  for (int gb = 0; gb < 9; ++gb) check_bijection(b33, gb);
}

TEST_CASE("Ranker with a non-canonical goal (Labelling)", "[rank]") {
  // Goal "1 2 3 8 0 4 7 6 5": the snail goal of the 8-puzzle.
  const State goal = parse_state("1 2 3 8 0 4 7 6 5");
  const Labelling lab(goal);
  CHECK(lab.goal_blank == 4);
  const Sequence gs = lab.sequence(goal);
  for (int i = 0; i < 8; ++i) CHECK(gs[i] == i);
  const Ranker r(goal.board, goal.blank);
  const auto states = reachable_states(goal);
  REQUIRE(states.size() == 181440);
  std::vector<bool> hit(r.size(), false);
  std::uint64_t bad = 0;
  for (const State& s : states) {
    const Sequence seq = lab.sequence(s);
    if (!r.reachable(seq, s.blank)) {
      ++bad;
      continue;
    }
    const auto k = r.rank(seq, s.blank);
    if (k >= r.size() || hit[k]) ++bad;
    else hit[k] = true;
  }
  CHECK(bad == 0);
  // The goal ranks to group 0, lane = goal blank.
  CHECK(r.rank(gs, goal.blank) == 4);
}

TEST_CASE("Ranker sampled round trips on boards of 8 cells and more", "[rank][slow]") {
  std::mt19937_64 rng(2024);
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{4, 4}, {3, 4}, {4, 3}, {2, 6}, {6, 2}, {2, 8}, {8, 2},
                                                               {2, 5}, {5, 2}, {3, 5}, {5, 3}, {2, 7}, {7, 2}}) {
    const Board b(w, h);
    const int gb = std::uniform_int_distribution<int>(0, b.cells() - 1)(rng);
    const Ranker r(b, gb);
    const int n = r.seq_len();
    std::uniform_int_distribution<std::uint64_t> pick(0, r.size() - 1);
    std::uint64_t bad = 0;
    for (int k = 0; k < 200000; ++k) {
      const std::uint64_t i = k < 2 ? (k == 0 ? 0 : r.size() - 1) : pick(rng);
      Sequence s{};
      const int blank = r.unrank(i, s);
      if (blank != static_cast<int>(i % b.cells()) || !is_permutation_of_iota(s, n) || !r.reachable(s, blank) ||
          r.rank(s, blank) != i)
        ++bad;
    }
    // States from random walks on the real board: rank then unrank returns them.
    const State goal = canonical_goal(b, gb);
    const Labelling lab(goal);
    State cur = goal;
    for (int k = 0; k < 20000; ++k) {
      const auto& nb = cur.board.neighbours(cur.blank);
      cur = cur.moved(nb.cell[std::uniform_int_distribution<int>(0, nb.count - 1)(rng)]);
      const Sequence seq = lab.sequence(cur);
      if (!r.reachable(seq, cur.blank)) {
        ++bad;
        continue;
      }
      const auto i = r.rank(seq, cur.blank);
      Sequence back{};
      if (i >= r.size() || r.unrank(i, back) != cur.blank || !std::equal(back.begin(), back.begin() + n, seq.begin()))
        ++bad;
    }
    INFO("board " << b.name() << " goal blank " << gb);
    CHECK(bad == 0);
  }
}
