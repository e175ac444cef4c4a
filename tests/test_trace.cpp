// The search trace (search/trace.hpp): for every algorithm, the recorded tree is the search that
// ran (one node per generated node, one expansion per expanded node), well formed, its solution is
// the returned path, and recording changes nothing in the result.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "support.hpp"
#include "tilespace/search/heuristics.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/table_store.hpp"

using namespace tilespace;
using namespace tilespace::search;

namespace {

// Checks the tree's shape (every child one move of `metric` from its parent); returns the number
// of roots.
std::size_t check_tree(const Trace& t, const Board& b, Metric metric = Metric::single) {
  const auto& nodes = t.nodes();
  std::vector<int> child_of(nodes.size(), 0);
  std::size_t roots = 0;
  std::vector<int> expanded(nodes.size(), 0);
  std::vector<std::size_t> expansion_of(nodes.size(), 0);
  for (std::size_t k = 0; k < t.expansions().size(); ++k) {
    const auto& e = t.expansions()[k];
    REQUIRE(e.parent < nodes.size());
    REQUIRE(!nodes[e.parent].dup);  // duplicates are never expanded
    ++expanded[e.parent];
    expansion_of[e.parent] = k;
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    REQUIRE(expanded[i] <= 1);  // a tree node is expanded at most once
    const auto p = nodes[i].parent;
    if (p == Trace::kNone) {
      ++roots;
      REQUIRE(nodes[i].g == 0);
      continue;
    }
    REQUIRE(p < i);                 // parents come first
    REQUIRE(expanded[p] == 1);      // and were expanded (before their children were generated)
    REQUIRE(nodes[i].expansion < t.expansions().size());
    REQUIRE(t.expansions()[nodes[i].expansion].parent <= i);
    REQUIRE(nodes[i].expansion >= expansion_of[p]);  // during or after the parent's expansion
    REQUIRE(nodes[i].g == nodes[p].g + 1);
    const State ps = State::unpack(b, nodes[p].packed), cs = State::unpack(b, nodes[i].packed);
    REQUIRE(is_move(ps, cs, metric));  // one move away
    if (metric == Metric::single) REQUIRE(ps.moved(cs.blank) == cs);
    ++child_of[p];
  }
  return roots;
}

}  // namespace

TEST_CASE("trace: every algorithm records the search it ran, and its solution is the path", "[trace]") {
  // In both metrics: a multi-tile trace's children are one multi-tile move from their parents.
  const Metric metric = GENERATE(Metric::single, Metric::multi);
  const bool multi = metric == Metric::multi;
  CAPTURE(metric_name(metric));
  const Board b(3, 3);
  const State goal = canonical_goal(b, 8);
  const auto dist = testing::naive_bfs(goal, metric);
  testing::TempDir dir;
  StoreOptions so;
  so.dir = dir.path;
  so.bfs.metric = metric;
  TableStore store(so);
  const GoalTable& table = store.goal(b, 8);
  REQUIRE(table.metric() == metric);
  std::mt19937_64 rng(77);
  std::vector<State> starts{parse_state("2 4 3 7 1 6 0 5 8"), goal};
  while (starts.size() < 6) {
    State s = testing::random_state(b, rng);
    if (solvable(s, goal) && dist.at(s.packed()) <= (multi ? 9 : 12)) starts.push_back(s);
  }
  const std::string h1 = multi ? "multi-manhattan" : "manhattan";
  const std::vector<std::pair<std::string, std::string>> runs{
      {"table", ""},     {"bfs", ""},     {"bibfs", ""},      {"dfs", ""},          {"iddfs", ""},
      {"greedy", h1}, {"astar", h1}, {"astar", multi ? "walking-distance" : "misplaced"},
      {"wastar", multi ? "walking-distance" : "linear-conflict"}, {"idastar", h1}, {"idastar", "exact"}};
  for (const State& s : starts) {
    for (const auto& [alg, heu] : runs) {
      CAPTURE(s.to_string(), alg, heu);
      SolveOptions o;
      o.algorithm = alg;
      o.heuristic = heu.empty() ? h1 : heu;
      o.metric = metric;
      o.depth_limit = multi ? 12 : 20;
      o.table = &table;
      const Result plain = solve(s, goal, o);
      Trace t(1'000'000);
      o.trace = &t;
      const Result r = solve(s, goal, o);
      // Recording changes nothing.
      REQUIRE(r.solved == plain.solved);
      REQUIRE(r.path == plain.path);
      REQUIRE(r.expanded == plain.expanded);
      REQUIRE(r.generated == plain.generated);
      REQUIRE_FALSE(t.truncated());

      const std::size_t roots = check_tree(t, b, metric);
      // One node per generated node (iterative algorithms: plus one root per extra iteration).
      REQUIRE(t.nodes().size() == r.generated + (roots - (alg == "bibfs" ? 2 : 1)));
      REQUIRE(t.expansions().size() == r.expanded);
      if (alg == "iddfs" || alg == "idastar") {
        REQUIRE(roots == t.iteration() + 1);
      } else {
        REQUIRE(roots == (alg == "bibfs" ? 2u : 1u));
      }
      // h is the heuristic's value (0 for the uninformed algorithms; the table's for "table").
      const Domain d(goal, metric);
      for (const auto& n : t.nodes()) {
        const State ns = State::unpack(b, n.packed);
        if (alg == "table" || heu == "exact") REQUIRE(n.h == dist.at(n.packed));
        else if (heu == "manhattan") REQUIRE(n.h == Manhattan(d).eval(n.packed, ns.blank));
        else if (heu == "multi-manhattan") REQUIRE(n.h == MultiManhattan<Domain>(d).eval(n.packed, ns.blank).h);
        else if (heu == "misplaced") REQUIRE(n.h == Misplaced(d).eval(n.packed, ns.blank));
        else if (heu.empty()) REQUIRE(n.h == 0);
      }
      // The solution: node ids whose states are the returned path, of the table's length where
      // the algorithm is optimal.
      REQUIRE(r.solved);
      if (alg != "dfs" && alg != "greedy" && alg != "wastar") REQUIRE(r.length() == dist.at(s.packed()));
      const auto& sol = t.solution();
      REQUIRE(sol.size() == r.path.size());
      for (std::size_t i = 0; i < sol.size(); ++i) REQUIRE(State::unpack(b, t.nodes()[sol[i]].packed) == r.path[i]);
      if (alg != "bibfs")
        for (std::size_t i = 1; i < sol.size(); ++i) REQUIRE(t.nodes()[sol[i]].parent == sol[i - 1]);
    }
  }
}

TEST_CASE("trace: recording stops at its limit and the search goes on", "[trace]") {
  const State goal = canonical_goal(Board(3, 3), 8);
  const State s = parse_state("8 6 7 2 5 4 3 0 1");  // 31 moves
  for (const std::string alg : {"bfs", "astar", "idastar"}) {
    CAPTURE(alg);
    SolveOptions o;
    o.algorithm = alg;
    const Result plain = solve(s, goal, o);
    Trace t(100);
    o.trace = &t;
    const Result r = solve(s, goal, o);
    REQUIRE(r.length() == 31);
    REQUIRE(r.expanded == plain.expanded);
    REQUIRE(t.truncated());
    REQUIRE(t.nodes().size() == 100);
    REQUIRE(t.solution().empty());
    check_tree(t, goal.board);
  }
}

TEST_CASE("trace: unreachable pairs and stopped searches leave a consistent partial tree", "[trace]") {
  const State goal = canonical_goal(Board(3, 3), 8);
  SolveOptions o;
  o.algorithm = "bfs";
  Trace t(1000);
  o.trace = &t;
  Result r = solve(parse_state("1 2 3 4 5 6 8 7 0"), goal, o);
  REQUIRE(r.unreachable);
  REQUIRE(t.nodes().empty());

  Trace t2(1'000'000);
  o.trace = &t2;
  o.limits.max_nodes = 50;
  r = solve(parse_state("8 6 7 2 5 4 3 0 1"), goal, o);
  REQUIRE(r.stopped == Stop::Nodes);
  REQUIRE(t2.expansions().size() == r.expanded);
  REQUIRE(t2.solution().empty());
  check_tree(t2, goal.board);
}
