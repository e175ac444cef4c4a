// The duplicate-pruning move automaton (search/automaton.hpp): what it forbids, the path counts,
// its safety (exhaustively on small boards: every optimal length survives the pruning), its file
// (kind 4 of the database format) and `tilespace build --automaton`.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "support.hpp"
#include "tilespace/database.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/search/algorithms.hpp"
#include "tilespace/search/automaton.hpp"
#include "tilespace/search/heuristics.hpp"
#include "tilespace/table_store.hpp"

using namespace tilespace;
using search::MoveAutomaton;
using Catch::Matchers::Contains;
using nlohmann::json;
using testing::one_line;
using testing::run_cli;
using testing::TempDir;

namespace {

// One machine per depth for the whole test binary (depth 12 builds in a fraction of a second).
const MoveAutomaton& machine(int depth) {
  static std::unordered_map<int, MoveAutomaton> built;
  auto it = built.find(depth);
  if (it == built.end()) it = built.emplace(depth, MoveAutomaton::build(depth)).first;
  return it->second;
}

std::string load_error(const std::filesystem::path& p, int depth = 0) {
  try {
    MoveAutomaton::load(p, depth);
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}


// Move strings of each length 0..max_len legal on `board` from every blank cell, by depth-first
// enumeration: those that never undo the last move, or (with `fsm`) those the machine accepts.
std::vector<std::uint64_t> brute_force_counts(const Board& board, const MoveAutomaton* fsm, int max_len) {
  std::vector<std::uint64_t> n(static_cast<std::size_t>(max_len) + 1, 0);
  auto walk = [&](auto&& self, int cell, int last, std::uint32_t q, int len) -> void {
    ++n[static_cast<std::size_t>(len)];
    if (len == max_len) return;
    const auto& nb = board.neighbours(cell);
    for (int k = 0; k < nb.count; ++k) {
      const int d = static_cast<int>(nb.dir[k]);
      std::uint32_t q2 = 0;
      if (fsm) {
        q2 = fsm->next(q, nb.dir[k]);
        if (q2 == MoveAutomaton::kDead) continue;
      } else if (last >= 0 && (last ^ 1) == d) {
        continue;
      }
      self(self, nb.cell[k], d, q2, len + 1);
    }
  };
  for (int c = 0; c < board.cells(); ++c) walk(walk, c, -1, fsm ? fsm->start() : 0, 0);
  return n;
}

// A state of a board of at most 16 cells: its tiles 4 bits a cell (State::packed), and the blank.
struct PackedNode {
  std::uint64_t packed;
  int blank;
  PackedNode moved(int to) const {
    const std::uint64_t tile = (packed >> (4 * to)) & 15u;
    return {(packed & ~(std::uint64_t{15} << (4 * to))) | tile << (4 * blank), to};
  }
};

// The rank of a state reachable from canonical_goal(board, ranker.goal_blank()), whose tiles
// 1..n-1 are the sequence 0..n-2.
std::uint64_t rank_of(const Ranker& ranker, const PackedNode& s) {
  Sequence seq{};
  int k = 0;
  for (int c = 0; c < ranker.cells(); ++c)
    if (c != s.blank) seq[static_cast<std::size_t>(k++)] = static_cast<std::uint8_t>(((s.packed >> (4 * c)) & 15u) - 1);
  return ranker.rank(seq, s.blank);
}

// The safety check on one board: for every blank cell b, from the goal-shaped state with the blank
// on b, a breadth-first search over (state, machine state) pairs reaches every state first at its
// true distance (the exact distance table). By relabelling the tiles, "from start s to goal g"
// with the blank of s on b is "from this fixed state to a relabelled g", so this covers every
// (start, goal) pair. Visited is keyed on (state, machine state): a bit per pair, the state by its
// rank. Returns the number of pairs visited.
std::uint64_t check_safety(const Board& board, const MoveAutomaton& fsm) {
  const std::uint64_t machine_states = fsm.states();
  std::uint64_t pairs = 0;
  for (int b = 0; b < board.cells(); ++b) {
    const DistanceTable table = DistanceTable::build(board, b);
    const Ranker& ranker = table.ranker();
    const PackedNode start{canonical_goal(board, b).packed(), b};
    // A bit a pair while that takes at most 64 MiB, else a hash set of the pairs seen.
    const bool dense = ranker.size() * machine_states <= (std::uint64_t{1} << 29);
    std::vector<std::uint64_t> seen(dense ? (ranker.size() * machine_states + 63) / 64 : 0, 0);
    std::unordered_set<std::uint64_t> seen_set;
    std::vector<std::int8_t> first(ranker.size(), -1);
    auto visit = [&](std::uint64_t r, std::uint32_t q) {
      const std::uint64_t pair = r * machine_states + q;
      if (!dense) return seen_set.insert(pair).second;
      const bool fresh = !((seen[pair / 64] >> (pair % 64)) & 1u);
      seen[pair / 64] |= std::uint64_t{1} << (pair % 64);
      return fresh;
    };
    const std::uint64_t r0 = rank_of(ranker, start);
    visit(r0, fsm.start());
    first[r0] = 0;
    std::uint64_t reached = 1;
    std::vector<std::pair<PackedNode, std::uint32_t>> layer{{start, fsm.start()}}, next;
    for (int d = 1; !layer.empty() && reached < ranker.size(); ++d) {
      next.clear();
      for (const auto& [s, sq] : layer) {
        const auto& nb = board.neighbours(s.blank);
        for (int k = 0; k < nb.count; ++k) {
          const std::uint32_t q = fsm.next(sq, nb.dir[static_cast<std::size_t>(k)]);
          if (q == MoveAutomaton::kDead) continue;
          const PackedNode t = s.moved(nb.cell[static_cast<std::size_t>(k)]);
          const std::uint64_t r = rank_of(ranker, t);
          if (!visit(r, q)) continue;
          next.emplace_back(t, q);
          if (first[r] >= 0) continue;
          first[r] = static_cast<std::int8_t>(d);
          ++reached;
          if (table.depth_of_rank(r) != d)
            FAIL_CHECK(board.name() << " blank " << b << ": " << State::unpack(board, t.packed).to_string()
                                    << " first reached at " << d << " moves, optimal " << table.depth_of_rank(r));
        }
      }
      pairs += next.size();
      layer.swap(next);
    }
    CHECK(reached == ranker.size());  // every state reached
  }
  return pairs;
}

// The proof's own claim on one board, for every blank cell and every state: the shortlex-smallest
// of the shortest paths from the goal-shaped state is accepted. Those paths form a tree that a
// breadth-first search finds when it expands each layer in the order of its paths and the moves
// in Dir order (a state's smallest path is its first parent's smallest path and one move); the
// machine is run along the tree. Returns the states checked.
std::uint64_t check_shortlex_paths(const Board& board, const MoveAutomaton& fsm) {
  std::uint64_t checked = 0;
  for (int b = 0; b < board.cells(); ++b) {
    const Ranker ranker(board, b);
    std::vector<std::uint32_t> q_of(ranker.size(), MoveAutomaton::kDead);
    std::vector<std::uint8_t> seen(ranker.size(), 0);
    const PackedNode start{canonical_goal(board, b).packed(), b};
    std::vector<PackedNode> layer{start}, next;
    seen[rank_of(ranker, start)] = 1;
    q_of[rank_of(ranker, start)] = fsm.start();
    while (!layer.empty()) {
      next.clear();
      for (const PackedNode& s : layer) {
        const std::uint32_t q = q_of[rank_of(ranker, s)];
        const auto& nb = board.neighbours(s.blank);
        for (int k = 0; k < nb.count; ++k) {  // in Dir order
          const PackedNode t = s.moved(nb.cell[static_cast<std::size_t>(k)]);
          const std::uint64_t r = rank_of(ranker, t);
          if (seen[r]) continue;
          seen[r] = 1;
          q_of[r] = fsm.next(q, nb.dir[static_cast<std::size_t>(k)]);
          if (q_of[r] == MoveAutomaton::kDead)
            FAIL_CHECK(board.name() << " blank " << b << ": the smallest shortest path to "
                                    << State::unpack(board, t.packed).to_string() << " is rejected");
          next.push_back(t);
          ++checked;
        }
      }
      layer.swap(next);
    }
  }
  return checked;
}

// The product search of check_safety near one state of a board too large to search whole: every
// state within `radius` moves of the goal-shaped state with the blank on `b` is first reached by
// the (state, machine state) search at its true distance. Returns the states compared.
std::uint64_t check_safety_near(const Board& board, int b, const MoveAutomaton& fsm, int radius) {
  const PackedNode start{canonical_goal(board, b).packed(), b};
  std::unordered_map<std::uint64_t, int> dist{{start.packed, 0}};
  {
    std::vector<PackedNode> layer{start}, next;
    for (int d = 1; d <= radius; ++d) {
      next.clear();
      for (const PackedNode& s : layer) {
        const auto& nb = board.neighbours(s.blank);
        for (int k = 0; k < nb.count; ++k) {
          const PackedNode t = s.moved(nb.cell[static_cast<std::size_t>(k)]);
          if (dist.emplace(t.packed, d).second) next.push_back(t);
        }
      }
      layer.swap(next);
    }
  }
  struct PairHash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint32_t>& p) const noexcept {
      return std::hash<std::uint64_t>{}(p.first * 0x9E3779B97F4A7C15ull ^ p.second);
    }
  };
  std::unordered_set<std::pair<std::uint64_t, std::uint32_t>, PairHash> seen;  // (state, machine state)
  std::unordered_map<std::uint64_t, int> first{{start.packed, 0}};
  std::vector<std::pair<PackedNode, std::uint32_t>> layer{{start, fsm.start()}}, next;
  for (int d = 1; d <= radius; ++d) {
    next.clear();
    for (const auto& [s, sq] : layer) {
      const auto& nb = board.neighbours(s.blank);
      for (int k = 0; k < nb.count; ++k) {
        const std::uint32_t q = fsm.next(sq, nb.dir[static_cast<std::size_t>(k)]);
        if (q == MoveAutomaton::kDead) continue;
        const PackedNode t = s.moved(nb.cell[static_cast<std::size_t>(k)]);
        if (!seen.insert({t.packed, q}).second) continue;
        next.emplace_back(t, q);
        if (first.emplace(t.packed, d).second && dist.at(t.packed) != d)
          FAIL_CHECK(board.name() << ": " << State::unpack(board, t.packed).to_string() << " first reached at " << d
                                  << " moves, optimal " << dist.at(t.packed));
      }
    }
    layer.swap(next);
  }
  CHECK(first.size() == dist.size());
  return first.size();
}

}  // namespace

TEST_CASE("automaton: reversals are dead after one step and nothing else of length 2 is", "[automaton]") {
  const MoveAutomaton& fsm = machine(12);
  CHECK(fsm.depth() == 12);
  for (int a = 0; a < 4; ++a) {
    const std::uint32_t q = fsm.next(fsm.start(), static_cast<Dir>(a));
    REQUIRE(q != MoveAutomaton::kDead);  // no single move is forbidden
    for (int b = 0; b < 4; ++b) {
      const std::string s{kDirLetter[a], kDirLetter[b]};
      INFO(s);
      CHECK((fsm.next(q, static_cast<Dir>(b)) == MoveAutomaton::kDead) == ((a ^ 1) == b));
      CHECK((fsm.run(s) == MoveAutomaton::kDead) == ((a ^ 1) == b));
    }
  }
  // A reversal anywhere is dead; the first forbidden strings past them are six moves long.
  CHECK(fsm.run("RRUUDL") == MoveAutomaton::kDead);
  CHECK(fsm.run("RRUULD") != MoveAutomaton::kDead);
  CHECK(fsm.run("X") == MoveAutomaton::kDead);
  CHECK(MoveAutomaton::build(2).forbidden() == 4);
  CHECK(MoveAutomaton::build(5).forbidden() == 4);
  CHECK(MoveAutomaton::build(5).states() == 5);  // start + the last move
  CHECK(MoveAutomaton::build(6).forbidden() > 4);
  CHECK_THROWS_AS(MoveAutomaton::build(0), std::invalid_argument);
  CHECK_THROWS_AS(MoveAutomaton::build(31), std::invalid_argument);
}

TEST_CASE("automaton: the accept-all machine rejects nothing and IDA* on it visits what IDA* without one does",
          "[automaton]") {
  const MoveAutomaton& all = MoveAutomaton::accept_all();
  CHECK(all.states() == 1);
  CHECK(all.run("UDUDLRLRRRUULD") == all.start());
  CHECK(all.run("X") == MoveAutomaton::kDead);
  // --automaton off runs IDA* and A*+IDA* on it (a null machine of type MoveAutomaton): the same
  // nodes, the same path as the search compiled without a machine, traced or not.
  const std::vector<std::pair<Board, const char*>> cases{
      {Board(3, 3), "8 6 7 2 5 4 3 0 1"},
      {Board(4, 4), "2 11 15 5 13 4 6 7 12 8 10 1 9 3 14 0"},  // Korf's 7: stopped by the node limit
      {Board(2, 5), "9 8 7 6 5 4 3 2 1 0"}};
  for (const auto& [board, text] : cases) {
    const State goal = canonical_goal(board, 0);
    const State start = parse_state(text, board);
    const search::Domain d(goal);
    const search::Manhattan<search::Domain> h(d);
    search::Limits limits;
    limits.max_nodes = testing::kSanitized ? 200'000 : 2'000'000;  // the 15-puzzle pair stops here, in both
    const auto* none = static_cast<const MoveAutomaton*>(nullptr);
    const search::Result plain = search::ida_star(d, h, start, limits);
    const search::Result on_all = search::ida_star(d, h, start, limits, nullptr, none);
    INFO(board.name());
    CHECK(on_all.solved == plain.solved);
    CHECK(on_all.expanded == plain.expanded);
    CHECK(on_all.generated == plain.generated);
    CHECK(on_all.path == plain.path);
    const search::HybridOptions one{std::uint64_t{1} << 16, 1};
    const search::Result hp = search::hybrid(d, h, start, limits, one);
    const search::Result ha = search::hybrid(d, h, start, limits, one, none);
    CHECK(ha.solved == hp.solved);
    CHECK(ha.expanded == hp.expanded);
    CHECK(ha.path.size() == hp.path.size());
  }
}

TEST_CASE("automaton: the machine is the same whatever is built before it", "[automaton]") {
  // Deterministic: the same depth gives the same table, and a deeper machine forbids more.
  const MoveAutomaton a = MoveAutomaton::build(10);
  CHECK(a.table() == MoveAutomaton::build(10).table());
  const MoveAutomaton& b = machine(12);
  CHECK(a.forbidden() < b.forbidden());
  // Every state is reached from the start, at the distances of the histogram.
  std::uint64_t total = 0;
  for (const auto n : b.histogram()) total += n;
  CHECK(total == b.states());
  CHECK(b.histogram().front() == 1);
}

TEST_CASE("automaton: count_paths without a machine is brute force and the machine only removes strings",
          "[automaton]") {
  // No reversal, by brute force, on small boards; and the machine's counts by brute force too.
  for (const Board& b : {Board(2, 3), Board(3, 3), Board(2, 2)}) {
    INFO(b.name());
    CHECK(search::count_paths(b, nullptr, 12) == brute_force_counts(b, nullptr, 12));
    CHECK(search::count_paths(b, &machine(12), 12) == brute_force_counts(b, &machine(12), 12));
  }
  // The closed form on 2x2: the blank has two moves from every cell and, after the first move,
  // one that does not undo the last: 4 strings of length 0, then 8 of every length.
  const auto two = search::count_paths(Board(2, 2), nullptr, 20);
  CHECK(two[0] == 4);
  for (std::size_t n = 1; n < two.size(); ++n) CHECK(two[n] == 8);
  // And the well-known branching factors of the 15- and 24-puzzle.
  const Board b4(4, 4), b5(5, 5);
  CHECK(search::branching_factor(b4, nullptr) == Approx(2.1304).margin(1e-4));  // Korf 1985
  CHECK(search::branching_factor(b5, nullptr) == Approx(2.3676).margin(1e-4));
  const auto plain = search::count_paths(b4, nullptr, 24), pruned = search::count_paths(b4, &machine(12), 24);
  bool smaller = false;
  for (std::size_t n = 0; n < plain.size(); ++n) {
    CHECK(pruned[n] <= plain[n]);
    smaller = smaller || (n >= 6 && pruned[n] < plain[n]);
  }
  CHECK(smaller);
  CHECK(pruned[5] == plain[5]);  // nothing but reversals is forbidden below six moves
  CHECK(pruned[6] < plain[6]);
  CHECK(search::branching_factor(b4, &machine(12)) < 2.01);
  CHECK_THROWS_AS(search::count_paths(b4, nullptr, search::kMaxCountLength + 1), std::invalid_argument);
}

// One test case for the default machine, which takes 15 s to build: ctest runs each case apart.
TEST_CASE("automaton: the default machine is safe - every optimal length survives", "[automaton][safety][slow]") {
  const MoveAutomaton& fsm = machine(MoveAutomaton::kDefaultDepth);
  // Every start and every goal of the boards of at most 8 cells: the product BFS.
  for (const Board& b : {Board(2, 2), Board(2, 3), Board(3, 2), Board(2, 4), Board(4, 2)}) {
    INFO(b.name());
    CHECK(check_safety(b, fsm) > 0);
  }
  // The proof's claim itself, on every state of the boards of at most 10 cells.
  for (const Board& b : {Board(2, 3), Board(3, 2), Board(2, 4), Board(4, 2), Board(3, 3), Board(2, 5), Board(5, 2)}) {
    INFO(b.name());
    CHECK(check_shortlex_paths(b, fsm) == static_cast<std::uint64_t>(b.cells()) * (Ranker(b, 0).size() - 1));
  }
  // Every state within 18 moves (4x4: about a million) of three starts on 4x4, 20 on 4x3.
  for (const auto& [w, h, blank, radius] :
       {std::tuple{4, 4, 15, 18}, std::tuple{4, 4, 5, 18}, std::tuple{4, 4, 1, 18}, std::tuple{4, 3, 5, 20}}) {
    const Board b(w, h);
    INFO(b.name() << " blank " << blank);
    CHECK(check_safety_near(b, blank, fsm, radius) > 500000);
  }
}

TEST_CASE("automaton: safe on 3x3 at depth 8 - every optimal length survives (product BFS)", "[automaton][safety][slow]") {
  // Depth 8 (40 forbidden strings): 33 million pairs, 4 s. The product of 181440 states and a
  // deeper machine's states takes longer than a unit test should (depth 10: 48 million pairs,
  // 11 s; depth 12: 70 million, 21 s); the default machine is checked on 3x3 by the shortlex test.
  CHECK(machine(8).forbidden() == 40);
  CHECK(check_safety(Board(3, 3), machine(8)) > 0);
}

TEST_CASE("automaton: a saved machine loads back identical", "[automaton][database]") {
  TempDir dir;
  const MoveAutomaton& fsm = machine(12);
  const auto path = search::automaton_path(dir.path, 12);
  CHECK(path.filename() == "moves-d12.fsm");
  fsm.save(path);
  CHECK(std::filesystem::file_size(path) == kHeaderSize + 16 * fsm.states());
  const MoveAutomaton back = MoveAutomaton::load(path);
  CHECK(back.table() == fsm.table());
  CHECK(back.depth() == 12);
  CHECK(back.forbidden() == fsm.forbidden());
  CHECK(back.states() == fsm.states());
  const LoadedDatabase db = load_database(path);
  CHECK(db.info.kind == kKindMoveAutomaton);
  CHECK(db.info.automaton_depth == 12);
  const std::string bytes = testing::read_file(path);
  CHECK(std::uint8_t(bytes[16]) == kKindMoveAutomaton);
  CHECK(std::uint8_t(bytes[17]) == 0);  // no board
  CHECK(std::uint8_t(bytes[18]) == 0);
  CHECK(std::uint8_t(bytes[19]) == 32);
  // No temporary file is left next to it.
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) CHECK(e.path() == path);
}

TEST_CASE("automaton: corrupt truncated and foreign files are DataErrors naming the file", "[automaton][database]") {
  TempDir dir;
  const MoveAutomaton& fsm = machine(10);
  const auto good = dir / "moves-d10.fsm";
  fsm.save(good);
  const std::string bytes = testing::read_file(good);
  auto refused = [&](const std::string& name, const std::string& content, const std::string& why, int depth = 0) {
    const auto p = dir / name;
    testing::write_file(p, content);
    const std::string e = load_error(p, depth);
    INFO(name << ": " << e);
    CHECK_THAT(e, Contains(p.string()));
    CHECK_THAT(e, Contains(why));
  };
  std::string x = bytes;
  x[kHeaderSize + 100] = static_cast<char>(x[kHeaderSize + 100] ^ 0x40);
  refused("payload.fsm", x, "checksum");
  x = bytes;
  x[140] = 1;  // a header byte (reserved for kind 4), not resealed
  refused("header.fsm", x, "header checksum");
  refused("truncated.fsm", bytes.substr(0, bytes.size() - 4), "truncated");
  refused("short.fsm", bytes.substr(0, 1000), "truncated");
  refused("trailing.fsm", bytes + "x", "trailing data");
  // Fields patched and resealed, so that the field's own check meets them.
  auto lie = [&](auto patch) {
    std::string y = bytes;
    patch(y);
    testing::reseal_header(y, 56);
    return y;
  };
  refused("board.fsm", lie([](std::string& y) {
            y[17] = 2;
            y[18] = 2;
          }),
          "board-independent");
  refused("width.fsm", lie([](std::string& y) { y[19] = 8; }), "entry width");
  refused("depth0.fsm", lie([](std::string& y) { testing::put_at<std::uint32_t>(y, 136, 0); }), "depth");
  refused("goal.fsm", lie([](std::string& y) { y[72] = 1; }), "goal");
  refused("entries.fsm", lie([](std::string& y) { testing::put_at<std::uint64_t>(y, 24, testing::get_at<std::uint64_t>(y, 24) + 1); }),
          "entries");
  // A transition past the last state, with the payload checksum recomputed.
  {
    std::string y = bytes;
    testing::put_at<std::uint32_t>(y, kHeaderSize + 4, static_cast<std::uint32_t>(fsm.states()));
    const LoadedDatabase db = load_database(good);
    DatabaseInfo info = db.info;
    const auto p = dir / "transition.fsm";
    save_database(p, info, std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(y.data()) + kHeaderSize,
                                                         y.size() - kHeaderSize));
    const std::string e = load_error(p);
    CHECK_THAT(e, Contains(p.string()));
    CHECK_THAT(e, Contains("transition 1"));
  }
  // An unreachable state (the histogram no longer matches), checksums recomputed.
  {
    std::vector<std::uint32_t> t = fsm.table();
    const LoadedDatabase db = load_database(good);
    t[4 * (fsm.states() - 1) + 0] = static_cast<std::uint32_t>(fsm.states() - 1);  // harmless self loop...
    for (std::size_t q = 0; q < fsm.states(); ++q)                                  // ...and nothing leads to it
      for (int d = 0; d < 4; ++d)
        if (q != fsm.states() - 1 && t[4 * q + d] == fsm.states() - 1) t[4 * q + d] = MoveAutomaton::kDead;
    const auto p = dir / "histogram.fsm";
    save_database(p, db.info, std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(t.data()), 4 * t.size()));
    const std::string e = load_error(p);
    CHECK_THAT(e, Contains(p.string()));
    CHECK_THAT(e, Contains("do not match"));
  }
  // Another depth than the one asked for; another kind of database.
  refused("other-depth.fsm", bytes, "depth 10, not 12", 12);
  const DistanceTable table = DistanceTable::build(Board(2, 3), 5);
  const auto tsdb = dir / "2x3.tsdb";
  save_database(tsdb, table.info(), table.depths());
  const std::string e = load_error(tsdb);
  CHECK_THAT(e, Contains(tsdb.string()));
  CHECK_THAT(e, Contains("not a move automaton"));
  // A distance-table reader refuses the machine's file.
  CHECK_THROWS_AS(DistanceTable::from_database(load_database(good)), DataError);
  CHECK(load_error(dir / "missing.fsm").find("missing.fsm") != std::string::npos);
}

TEST_CASE("automaton: the store builds a quick machine once and refuses a slow one naming the command",
          "[automaton][database]") {
  TempDir dir;
  std::vector<std::string> notes;
  auto note = [&](const std::string& s) { notes.push_back(s); };
  const MoveAutomaton a = search::load_or_build_automaton(dir / "db", 10, 60, note);
  CHECK(a.depth() == 10);
  CHECK(std::filesystem::exists(dir / "db/moves-d10.fsm"));
  REQUIRE(notes.size() == 2);
  CHECK_THAT(notes[0], Contains("building it first"));
  notes.clear();
  const MoveAutomaton b = search::load_or_build_automaton(dir / "db", 10, 0, note);  // loaded: no build
  CHECK(b.table() == a.table());
  CHECK(notes.empty());
  try {
    search::load_or_build_automaton(dir / "db", 17, 60, note);
    FAIL("a build of over a minute was started");
  } catch (const DataError& e) {
    CHECK_THAT(e.what(), Contains("tilespace build --automaton --automaton-depth 17 --db " + (dir / "db").string()));
    CHECK_THAT(e.what(), Contains("move automaton of depth 17"));
  }
  try {
    search::load_or_build_automaton(dir / "empty", MoveAutomaton::kDefaultDepth, 0, note);
    FAIL("a build over the limit was started");
  } catch (const DataError& e) {
    CHECK_THAT(e.what(), Contains("run tilespace build --automaton --db " + (dir / "empty").string()));
    CHECK_THAT(e.what(), !Contains("--automaton-depth"));
  }
  CHECK(notes.empty());
  CHECK(!std::filesystem::exists(dir / "empty"));
  CHECK(build_command(std::filesystem::path("out"), "--automaton") == "tilespace build --automaton");
  CHECK(search::estimate_automaton_build(18).seconds > 60);
  CHECK(search::estimate_automaton_build(12).seconds < 1);
}

TEST_CASE("cli: build --automaton builds once and says up to date and --force rebuilds", "[automaton][cli]") {
  TempDir dir;
  auto r = run_cli("build --automaton --automaton-depth 12 --db db", dir.path);
  REQUIRE(r.rc == 0);
  CHECK(std::filesystem::exists(dir / "db/moves-d12.fsm"));
  CHECK_THAT(r.out, Contains("built db/moves-d12.fsm: depth 12, "));
  CHECK_THAT(r.out, Contains("branching factor 4x4 2.1304 -> 2.0080, 5x5 2.3676 -> 2.2716"));
  CHECK(one_line(r.out));
  CHECK_THAT(r.err, Contains("building the move automaton of depth 12"));
  CHECK_THAT(r.err, Contains("length  12"));  // a progress line a level
  r = run_cli("build --automaton --automaton-depth 12 --db db", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Contains("up to date: db/moves-d12.fsm: depth 12, "));
  CHECK(r.err.empty());
  r = run_cli("build --automaton --automaton-depth 12 --db db --json", dir.path);
  REQUIRE(r.rc == 0);
  const json j = json::parse(r.out);
  CHECK(j[0]["up_to_date"] == true);
  CHECK(j[0]["depth"] == 12);
  CHECK(j[0]["states"] == machine(12).states());
  CHECK(j[0]["forbidden"] == machine(12).forbidden());
  CHECK(j[0]["branching"]["4x4"]["plain"].get<double>() > j[0]["branching"]["4x4"]["automaton"].get<double>());
  r = run_cli("build --automaton --automaton-depth 12 --db db --force", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Contains("built db/moves-d12.fsm"));
  // A corrupt file is a data error naming it; --force replaces it.
  std::string bytes = testing::read_file(dir / "db/moves-d12.fsm");
  bytes[kHeaderSize + 8] = static_cast<char>(bytes[kHeaderSize + 8] ^ 1);
  testing::write_file(dir / "db/moves-d12.fsm", bytes);
  r = run_cli("build --automaton --automaton-depth 12 --db db", dir.path);
  CHECK(r.rc == kExitData);
  CHECK(one_line(r.err));
  CHECK_THAT(r.err, Contains("db/moves-d12.fsm"));
  r = run_cli("build --automaton --automaton-depth 12 --db db --force", dir.path);
  CHECK(r.rc == 0);
  CHECK(MoveAutomaton::load(dir / "db/moves-d12.fsm").table() == machine(12).table());
}

// [slow]: not under ASan (24 s there), where the build, save and load of the automaton run on the
// depth-12 one (the tests above); the Release build builds the default depth here.
TEST_CASE("cli: build --automaton without a depth builds the default one", "[automaton][cli][slow]") {
  TempDir dir;
  const std::string name = "moves-d" + std::to_string(MoveAutomaton::kDefaultDepth) + ".fsm";
  auto r = run_cli("build --automaton --db db", dir.path);
  REQUIRE(r.rc == 0);
  CHECK(std::filesystem::exists(dir / "db" / name));
  CHECK_THAT(r.out, Contains("built db/" + name));
  r = run_cli("build --automaton --db db", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Contains("up to date: db/" + name));
  CHECK(MoveAutomaton::load(dir / "db" / name, MoveAutomaton::kDefaultDepth).states() > machine(12).states());
}

TEST_CASE("cli: build --automaton options out of range or out of place exit 2 naming the option",
          "[automaton][cli]") {
  TempDir dir;
  struct Case {
    const char* args;
    const char* says;
  };
  for (const Case& c : {Case{"build --automaton --automaton-depth 0", "--automaton-depth: must be a whole number from 1 to 30"},
                        Case{"build --automaton --automaton-depth 99", "--automaton-depth: must be a whole number from 1 to 30"},
                        Case{"build --automaton --automaton-depth 12x", "--automaton-depth"},
                        Case{"build --automaton --automaton-depth -3", "--automaton-depth"},
                        Case{"build --automaton-depth 12", "--automaton-depth: applies with --automaton"},
                        Case{"build --automaton --board 4x4", "--board: does not apply with --automaton"},
                        Case{"build --automaton --goal '1 2 3 4 5 6 7 8 0'", "--goal: does not apply with --automaton"},
                        Case{"build --automaton --pdb 4-4", "--pdb: does not apply with --automaton"},
                        Case{"build --automaton --all-goals", "--all-goals: does not apply with --automaton"},
                        Case{"build --automaton --bits 2", "--bits: does not apply with --automaton"},
                        Case{"build --automaton --resume", "--resume: does not apply with --automaton"},
                        Case{"build --automaton --threads 2", "--threads: does not apply with --automaton"}}) {
    INFO(c.args);
    const auto r = run_cli(c.args, dir.path);
    CHECK(r.rc == kExitInput);
    CHECK(one_line(r.err));
    CHECK_THAT(r.err, Contains(c.says));
    CHECK(r.out.empty());
  }
  CHECK(!std::filesystem::exists(dir / "out"));  // nothing was built
}
