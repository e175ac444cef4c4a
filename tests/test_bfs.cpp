// bfs_distances against the published distributions (tests/data/bfs-distributions.txt) and against
// a naive breadth-first search over packed states.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <map>
#include <numeric>
#include <queue>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "support.hpp"
#include "tilespace/bfs.hpp"
#include "tilespace/engine/layer_kernel.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/state.hpp"

using namespace tilespace;
using testing::Published;
using testing::published;
using testing::published_table;

namespace {

constexpr std::uint8_t kUnreached = 0xFF;


struct Run {
  BfsResult result;
  std::vector<std::uint8_t> depth;
};

Run run_bfs(const Board& b, int goal_blank, int threads = 0, Metric metric = Metric::single) {
  const Ranker r(b, goal_blank);
  Run run;
  run.depth.assign(r.size(), 0x5A);  // garbage the search must overwrite
  BfsOptions opt;
  opt.threads = threads;
  opt.metric = metric;
  run.result = bfs_distances(r, run.depth, opt);
  return run;
}

// The byte engine's table as `tilespace build --bits 8` writes it, from the tests' cache
// (support.hpp): the 12-cell tables that other tests read as their reference are checked against
// the published facts there, built once.
Run cached_run(const Board& b, int goal_blank, Metric metric = Metric::single) {
  const DistanceTable t = testing::cached_table(b, goal_blank, metric);
  Run run;
  run.depth.assign(t.depths().begin(), t.depths().end());
  run.result.histogram = t.histogram();
  return run;
}

// States at each depth, counted from the depth table itself.
std::vector<std::uint64_t> depth_histogram(const std::vector<std::uint8_t>& depth, std::uint64_t& unreached) {
  std::vector<std::uint64_t> h(256, 0);
  for (auto d : depth) ++h[d];
  unreached = h[kUnreached];
  h.resize(kUnreached);
  while (!h.empty() && h.back() == 0) h.pop_back();
  return h;
}

// The distribution of the search matches the published one, and the depth table agrees with it.
// `cached`: the command's table from the tests' cache instead of a search here.
void check_published(const Board& b, int goal_blank, const std::string& pos, int threads = 0, bool cached = false) {
  INFO("board " << b.name() << " goal blank " << goal_blank << " (" << pos << ")");
  const Published& want = published(b, pos);
  REQUIRE(want.counts.size() == static_cast<std::size_t>(want.radius) + 1);
  const Run run = cached ? cached_run(b, goal_blank) : run_bfs(b, goal_blank, threads);
  CHECK(run.depth.size() == want.states);
  CHECK(run.result.histogram == want.counts);
  std::uint64_t unreached = 0;
  const auto h = depth_histogram(run.depth, unreached);
  CHECK(unreached == 0);
  CHECK(h == want.counts);
  // The goal itself is at depth 0.
  const Ranker r(b, goal_blank);
  const State goal = canonical_goal(b, goal_blank);
  CHECK(run.depth[r.rank(Labelling(goal).sequence(goal), goal_blank)] == 0);
}

void check_against_naive(const Board& b, int goal_blank, int threads = 0, Metric metric = Metric::single) {
  INFO("board " << b.name() << " goal blank " << goal_blank << " threads " << threads << " metric " << metric_name(metric));
  const auto want = testing::naive_depths(b, goal_blank, metric);
  const Run run = run_bfs(b, goal_blank, threads, metric);
  REQUIRE(run.depth.size() == want.size());
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < want.size(); ++i) {
    if (run.depth[i] != want[i] && ++wrong <= 5) {
      Sequence s{};
      const int blank = Ranker(b, goal_blank).unrank(i, s);
      std::ostringstream seq;
      for (int k = 0; k < b.cells() - 1; ++k) seq << int(s[k]) << ' ';
      INFO("rank " << i << " (blank " << blank << ", sequence " << seq.str() << "): naive depth " << int(want[i])
                   << ", bfs_distances depth " << int(run.depth[i]));
      CHECK(run.depth[i] == want[i]);
    }
  }
  CHECK(wrong == 0);
  // And the histogram agrees with the naive table.
  std::uint64_t unreached = 0;
  CHECK(run.result.histogram == depth_histogram(want, unreached));
  CHECK(unreached == 0);
}

}  // namespace

TEST_CASE("the published distributions file is complete and consistent", "[bfs][data]") {
  const auto& t = published_table();
  for (const char* key : {"2x2 corner", "2x3 corner", "2x4 corner", "3x3 corner", "3x3 center", "3x3 edge",
                          "2x5 corner", "3x4 corner", "2x6 corner", "2x7 corner", "3x5 corner", "4x4 corner",
                          "4x4 edge", "4x4 center", "2x8 corner"}) {
    INFO(key);
    REQUIRE(t.count(key) == 1);
    const Published& p = t.at(key);
    const auto b = Board::parse(std::string(key).substr(0, 3));
    REQUIRE(b);
    CHECK(p.states == kFactorial[b->cells()] / 2);
    CHECK(p.counts.size() == static_cast<std::size_t>(p.radius) + 1);
    std::uint64_t sum = 0;
    for (auto c : p.counts) sum += c;
    CHECK(sum == p.states);
    CHECK(p.counts.at(0) == 1);
  }
  CHECK(t.size() == 15);
  // Spot checks of well-known values.
  CHECK(t.at("3x3 corner").radius == 31);
  CHECK(t.at("3x3 center").radius == 30);
  CHECK(t.at("4x4 corner").radius == 80);
  CHECK(t.at("4x4 corner").counts.back() == 17);
  CHECK(t.at("2x8 corner").radius == 140);
}

TEST_CASE("bfs_distances equals the published distributions on small boards", "[bfs]") {
  check_published(Board(2, 2), 3, "corner");
  check_published(Board(2, 2), 0, "corner");
  check_published(Board(2, 3), 5, "corner");
  check_published(Board(2, 3), 0, "corner");
  check_published(Board(3, 2), 5, "corner");
  check_published(Board(3, 2), 0, "corner");
  check_published(Board(2, 4), 7, "corner");
  check_published(Board(4, 2), 7, "corner");
  check_published(Board(4, 2), 0, "corner");
}

TEST_CASE("bfs_distances equals the published distributions on 3x3 for corner, edge and centre goals", "[bfs]") {
  const Board b(3, 3);
  check_published(b, 8, "corner");
  check_published(b, 0, "corner");
  check_published(b, 2, "corner");
  check_published(b, 1, "edge");
  check_published(b, 5, "edge");
  check_published(b, 4, "center");
}

TEST_CASE("bfs_distances equals the published distributions on 2x5 and 5x2", "[bfs]") {
  check_published(Board(2, 5), 9, "corner");
  check_published(Board(5, 2), 9, "corner");
  check_published(Board(5, 2), 0, "corner");
}

TEST_CASE("bfs_distances depth table equals a naive BFS on 2x3 and 3x2", "[bfs][naive]") {
  for (int c = 0; c < 6; ++c) {
    check_against_naive(Board(2, 3), c);
    check_against_naive(Board(3, 2), c);
  }
}

TEST_CASE("bfs_distances depth table equals a naive BFS on 3x3", "[bfs][naive]") {
  check_against_naive(Board(3, 3), 8);
  check_against_naive(Board(3, 3), 4);
  check_against_naive(Board(3, 3), 1);
}

TEST_CASE("bfs_distances depth table equals a naive BFS on 2x4 and 4x2", "[bfs][naive]") {
  check_against_naive(Board(2, 4), 7);
  check_against_naive(Board(2, 4), 2);
  check_against_naive(Board(4, 2), 7);
  check_against_naive(Board(4, 2), 5);
}

TEST_CASE("bfs_distances gives byte-identical results on 1 and 2 threads", "[bfs][threads]") {
  for (const auto& [b, cell] : std::vector<std::pair<Board, int>>{{Board(3, 3), 8}, {Board(3, 3), 4}, {Board(2, 5), 9}}) {
    INFO("board " << b.name() << " goal blank " << cell);
    const Run one = run_bfs(b, cell, 1);
    const Run two = run_bfs(b, cell, 2);
    CHECK(one.result.histogram == two.result.histogram);
    REQUIRE(one.depth.size() == two.depth.size());
    CHECK(std::memcmp(one.depth.data(), two.depth.data(), one.depth.size()) == 0);
    std::uint64_t unreached = 0;
    CHECK(depth_histogram(one.depth, unreached) == one.result.histogram);
    CHECK(unreached == 0);
  }
}

TEST_CASE("bfs_distances reports every layer", "[bfs]") {
  const Board b(3, 3);
  const Ranker r(b, 4);
  std::vector<std::uint8_t> depth(r.size());
  std::vector<LayerReport> layers;
  BfsOptions opt;
  opt.threads = 2;
  opt.on_layer = [&](const LayerReport& l) { layers.push_back(l); };
  const BfsResult res = bfs_distances(r, depth, opt);
  const Published& want = published(b, "center");
  CHECK(res.histogram == want.counts);
  REQUIRE(layers.size() == want.counts.size());
  std::uint64_t total = 0;
  double last = 0;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    total += want.counts[i];
    CHECK(layers[i].depth == static_cast<int>(i));
    CHECK(layers[i].states == want.counts[i]);
    CHECK(layers[i].total == total);
    CHECK(layers[i].seconds >= last);
    last = layers[i].seconds;
  }
  CHECK(res.seconds >= last);
  CHECK(bfs_work_bytes(r) == 20160 * 8 + 20160 * 8 + 2 * 315 * 8);  // words, codes, two bitmaps
}

// About 8 s and 400 MB each. 3x4's and 4x3's (the corner goals') are the command's tables, which
// the tests of the one-bit engine, of the symmetries and of the transposition read too.
TEST_CASE("bfs_distances equals the published distribution on 3x4 (tilespace build --bits 8)", "[bfs][big]") {
  check_published(Board(3, 4), 11, "corner", 0, true);
}

TEST_CASE("bfs_distances equals the published distribution on 4x3 (tilespace build --bits 8)", "[bfs][big]") {
  check_published(Board(4, 3), 0, "corner", 0, true);
}

TEST_CASE("bfs_distances equals the published distribution on 2x6", "[bfs][big]") {
  check_published(Board(2, 6), 11, "corner");
}

TEST_CASE("bfs_distances equals the published distribution on 6x2", "[bfs][big]") {
  check_published(Board(6, 2), 0, "corner");
}

// ---- the multi-tile metric (tests/data/multi-tile.txt) ----

namespace {

struct MultiTileFacts {
  std::map<std::string, std::pair<std::uint64_t, int>> radius;  // "3x4": states, radius
  std::map<std::string, std::vector<std::uint64_t>> prefix;     // "4x4": the first layers
  std::map<std::string, std::vector<std::uint64_t>> distribution;  // "3x4": every layer
};

const MultiTileFacts& multi_tile_facts() {
  static const MultiTileFacts facts = [] {
    MultiTileFacts f;
    std::ifstream in(std::string(TILESPACE_TEST_DATA) + "/multi-tile.txt");
    REQUIRE(in);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream words(line);
      std::string kind, board;
      words >> kind >> board;
      if (kind == "radius") {
        std::uint64_t states = 0;
        int radius = 0;
        words >> states >> radius;
        f.radius[board] = {states, radius};
      } else {
        if (kind == "layers") continue;  // test_multi_search.cpp's
        REQUIRE((kind == "prefix" || kind == "distribution"));
        for (std::uint64_t n; words >> n;) (kind == "prefix" ? f.prefix : f.distribution)[board].push_back(n);
      }
    }
    return f;
  }();
  return facts;
}

// The multi-tile BFS of a board with the goal's blank on a corner: the published radius, state
// count and, where published, the whole distribution.
// `cached`: the command's table from the tests' cache instead of a search here.
void check_multi_tile_radius(const Board& b, int goal_blank, bool cached = false) {
  const std::string key = std::to_string(std::min(b.width(), b.height())) + "x" + std::to_string(std::max(b.width(), b.height()));
  INFO("board " << b.name() << " goal blank " << goal_blank);
  const auto& [states, radius] = multi_tile_facts().radius.at(key);
  const Run run = cached ? cached_run(b, goal_blank, Metric::multi) : run_bfs(b, goal_blank, 0, Metric::multi);
  CHECK(static_cast<int>(run.result.histogram.size()) - 1 == radius);
  const auto& whole = multi_tile_facts().distribution;
  if (whole.count(key)) CHECK(run.result.histogram == whole.at(key));
  std::uint64_t unreached = 0;
  CHECK(depth_histogram(run.depth, unreached) == run.result.histogram);
  CHECK(unreached == 0);
  CHECK(run.depth.size() == states);
  // Multi-tile moves include the single ones: no state is farther than in the single-tile metric.
  CHECK(run.result.histogram.size() < published(b, "corner").counts.size());
}

}  // namespace

TEST_CASE("multi-tile: the naive BFS's first layers of the 15-puzzle equal OEIS A389728", "[bfs][naive][multi]") {
  const auto& want = multi_tile_facts().prefix.at("4x4");
  REQUIRE(want.size() == 10);
  const int depth = testing::kSanitized ? 6 : 7;  // 4,334 states at 7 moves (12,568 at 8 would take longer)
  const auto dist = testing::naive_bfs(canonical_goal(Board(4, 4), 15), Metric::multi, depth);
  std::vector<std::uint64_t> got(static_cast<std::size_t>(depth) + 1, 0);
  for (const auto& [state, d] : dist) ++got[static_cast<std::size_t>(d)];
  CHECK(got == std::vector<std::uint64_t>(want.begin(), want.begin() + depth + 1));
}

TEST_CASE("multi-tile: bfs_distances equals a naive multi-tile BFS on every board of at most 9 cells", "[bfs][naive][multi]") {
  // Under the sanitizers one goal cell of each kind on the larger boards (the Release run takes them all).
  const std::vector<int> cells8 = testing::kSanitized ? std::vector<int>{7} : std::vector<int>{0, 2, 7};
  const std::vector<int> cells9 = testing::kSanitized ? std::vector<int>{8, 4} : std::vector<int>{8, 4, 1, 0};
  for (const int threads : {1, 2}) {
    for (int c = 0; c < 4; ++c) check_against_naive(Board(2, 2), c, threads, Metric::multi);
    for (int c = 0; c < 6; ++c) {
      check_against_naive(Board(2, 3), c, threads, Metric::multi);
      check_against_naive(Board(3, 2), c, threads, Metric::multi);
    }
    for (const int c : cells8) {
      check_against_naive(Board(2, 4), c, threads, Metric::multi);
      check_against_naive(Board(4, 2), c, threads, Metric::multi);
    }
    for (const int c : cells9) check_against_naive(Board(3, 3), c, threads, Metric::multi);
  }
}

namespace {

// Calls f(w, G, slow, fast) for every `stride`-th group of r and both of its variants: w the
// board's width as a compile-time constant, G the geometry, slow and fast the group's code with the
// O(W) loops (ByteCode) and with the O(1) deltas (PrefixCode), from one cursor.
template <class F>
void each_group_code(const Ranker& r, std::uint64_t stride, F&& f) {
  const detail::Geometry G(r);
  const detail::VerticalTables V(G);
  detail::GroupCursor cursor(G.n, true);
  for (std::uint64_t g = 0; g < r.groups(); g += stride) {
    cursor.go_to(g);
    for (unsigned v = 0; v < 2; ++v) {
      const detail::ByteCode slow{cursor.seq(v), cursor.digits(v)};
      const detail::PrefixCode fast = detail::PrefixCode::of(cursor, v, V);
      detail::with_width(r.board().width(), [&](auto w) { f(w, G, slow, fast); });
    }
  }
}

}  // namespace

TEST_CASE("the vertical moves' Lehmer deltas equal the rank change by definition, in both metrics", "[bfs][multi]") {
  // vertical_moves with the O(1) deltas (PrefixCode: the engines' cursors on boards of width 4 or
  // more) and with the O(W) loops (ByteCode: narrower boards, and NibbleCode the small boards' code
  // table), the engines' one source of vertical targets, against the lexicographic rank
  // computed from its definition (each digit counts the smaller entries after it in the whole
  // sequence) before and after the blank's move, for every blank cell: the targets are exactly the
  // cells of the blank's column (one row away in the single-tile metric), and each delta is the
  // rank's change. Every 5th group of 3x3, every 23rd of 2x5, every 307th of 3x4 and every 3001st of
  // 2x6 (under the sanitizers, where the quadratic definition is 100 times slower, a hundredth of
  // those).
  const std::uint64_t thin = testing::kSanitized ? 101 : 1;
  const std::pair<Board, std::uint64_t> boards[] = {
      {Board(3, 3), 5 * thin}, {Board(2, 5), 23 * thin}, {Board(3, 4), 307 * thin}, {Board(2, 6), 3001 * thin}};
  for (const auto& entry : boards) {
    const Board& b = entry.first;  // not a structured binding: the lambdas below capture it
    const std::uint64_t stride = entry.second;
    CAPTURE(b.name());
    const Ranker r(b, b.cells() - 1);
    const auto rank = [&](const detail::Geometry& G, const std::vector<unsigned>& e) {
      std::int64_t x = 0;
      for (int i = 0; i < G.n; ++i) {
        int smaller = 0;
        for (int j = i + 1; j < G.n; ++j) smaller += e[j] < e[i];
        x += smaller * static_cast<std::int64_t>(G.weight[i]);
      }
      return x;
    };
    std::uint64_t checked = 0, wrong = 0;
    each_group_code(r, stride, [&](auto w, const detail::Geometry& G, const detail::ByteCode& c,
                                   const detail::PrefixCode& fast) {
      constexpr int W = decltype(w)::value;
      for (int blank = 0; blank < b.cells(); ++blank) {
        // The board with the blank on cell `blank`: the sequence's entries fill the other cells.
        std::vector<int> board(b.cells());
        for (int cell = 0, i = 0; cell < b.cells(); ++cell)
          board[cell] = cell == blank ? -1 : static_cast<int>(c.entry(i++));
        std::vector<unsigned> e;
        for (const int x : board)
          if (x >= 0) e.push_back(static_cast<unsigned>(x));
        const std::int64_t before = rank(G, e);
        const auto check = [&](auto multi, const auto& code) {
          std::vector<int> seen;
          detail::vertical_moves<W, decltype(multi)::value>(G, code, blank, [&](int to, std::int64_t delta) {
            seen.push_back(to);
            // The move by definition: the tiles between the blank and `to` slide one row.
            std::vector<int> after = board;
            const int step = to < blank ? -W : W;
            for (int cell = blank; cell != to; cell += step) after[cell] = after[cell + step];
            after[to] = -1;
            std::vector<unsigned> a;
            for (const int x : after)
              if (x >= 0) a.push_back(static_cast<unsigned>(x));
            ++checked;
            wrong += delta != rank(G, a) - before;
          });
          std::vector<int> expected;
          for (int to = blank % W; to < b.cells(); to += W) {
            const int rows = std::abs(to - blank) / W;
            if (rows >= 1 && (decltype(multi)::value || rows == 1)) expected.push_back(to);
          }
          std::sort(seen.begin(), seen.end());
          wrong += seen != expected;
        };
        check(std::false_type{}, c);
        check(std::true_type{}, c);
        check(std::false_type{}, fast);
        check(std::true_type{}, fast);
      }
    });
    CHECK(checked > 0);
    CHECK(wrong == 0);
  }
}

TEST_CASE("the O(1) vertical deltas equal the O(W) ones on every group and move of every board up to 10 cells",
          "[bfs][multi]") {
  // Every group, both variants, every blank cell, both metrics (every k rows of a multi-tile move):
  // PrefixCode's table-and-prefix deltas against ByteCode's loops over the window (which the
  // test above checks against the rank's definition). Boards up to 10 cells in every shape, every
  // width 2-5 (under the sanitizers the 9- and 10-cell ones on every 13th group); 12-cell boards
  // on every 61st group (every 1009th under the sanitizers).
  const std::uint64_t most = testing::kSanitized ? 13 : 1, thin = testing::kSanitized ? 1009 : 61;
  const std::pair<Board, std::uint64_t> boards[] = {
      {Board(2, 2), 1},    {Board(2, 3), 1},    {Board(3, 2), 1},    {Board(2, 4), 1},
      {Board(4, 2), 1},    {Board(3, 3), most}, {Board(2, 5), most}, {Board(5, 2), most},
      {Board(3, 4), thin}, {Board(4, 3), thin}, {Board(2, 6), thin}, {Board(6, 2), thin}};
  for (const auto& entry : boards) {
    const Board& b = entry.first;  // not a structured binding: the lambdas below capture it (clang 14)
    const std::uint64_t stride = entry.second;
    CAPTURE(b.name());
    const Ranker r(b, b.cells() - 1);
    std::uint64_t moves = 0, wrong = 0;
    each_group_code(r, stride, [&](auto w, const detail::Geometry& G, const detail::ByteCode& slow,
                                   const detail::PrefixCode& fast) {
      constexpr int W = decltype(w)::value;
      for (int blank = 0; blank < b.cells(); ++blank) {
        const auto compare = [&](auto multi) {
          std::array<std::pair<int, std::int64_t>, kMaxCells> a{}, c{};
          std::size_t na = 0, nc = 0;
          detail::vertical_moves<W, decltype(multi)::value>(G, slow, blank,
                                                            [&](int to, std::int64_t d) { a[na++] = {to, d}; });
          detail::vertical_moves<W, decltype(multi)::value>(G, fast, blank,
                                                            [&](int to, std::int64_t d) { c[nc++] = {to, d}; });
          moves += na;
          wrong += na != nc || a != c;
        };
        compare(std::false_type{});
        compare(std::true_type{});
      }
    });
    CHECK(moves > 0);
    CHECK(wrong == 0);
  }
}

TEST_CASE("multi-tile: the published radii and distributions of 3x3 (24), 2x5 and 5x2 (36)", "[bfs][multi][threads]") {
  // The data file agrees with itself: each whole distribution sums to its board's states and ends
  // at its radius (2x7's too, which no test runs: 43.6 G states).
  for (const auto& [key, layers] : multi_tile_facts().distribution) {
    CAPTURE(key);
    const auto& [states, radius] = multi_tile_facts().radius.at(key);
    CHECK(std::accumulate(layers.begin(), layers.end(), std::uint64_t{0}) == states);
    CHECK(static_cast<int>(layers.size()) - 1 == radius);
  }
  CHECK(multi_tile_facts().distribution.size() == 5);
  check_multi_tile_radius(Board(3, 3), 8);
  check_multi_tile_radius(Board(3, 3), 0);
  if (!testing::kSanitized) {  // 1.8 M states a run: the Release build checks them
    check_multi_tile_radius(Board(2, 5), 9);
    check_multi_tile_radius(Board(5, 2), 0);
  }
  // One and two threads give the same table.
  const Board b = testing::kSanitized ? Board(3, 3) : Board(2, 5);
  const Run one = run_bfs(b, b.cells() - 1, 1, Metric::multi), two = run_bfs(b, b.cells() - 1, 2, Metric::multi);
  CHECK(one.result.histogram == two.result.histogram);
  CHECK(std::memcmp(one.depth.data(), two.depth.data(), one.depth.size()) == 0);
}

// The command's tables (tilespace build --bits 8 --metric multi), which the multi-tile searches'
// tests, the two-bit engine's and the transposition's read too.
TEST_CASE("multi-tile: the published radii and distributions of 3x4 and 4x3 (33)", "[bfs][big][multi]") {
  check_multi_tile_radius(Board(3, 4), 11, true);
  check_multi_tile_radius(Board(4, 3), 0, true);
}

TEST_CASE("multi-tile: the published radii and distributions of 2x6 and 6x2 (41)", "[bfs][big][multi]") {
  check_multi_tile_radius(Board(2, 6), 11, true);
  check_multi_tile_radius(Board(6, 2), 0, true);
}

TEST_CASE("multi-tile: the metric's names and its one option check", "[bfs][multi]") {
  const Ranker r(Board(3, 3), 8);
  FieldArray fields(two_bit_words(r));
  TwoBitOptions o;
  o.bfs.metric = Metric::multi;
  // The two-bit engine's multi-tile search (tests/test_two_bit.cpp) works in its fields and an
  // open bitmap after them: fields alone are refused.
  CHECK_THROWS_AS(bfs_two_bit(r, fields.span(), o), std::invalid_argument);
  CHECK(metric_name(Metric::multi) == "multi");
  CHECK(parse_metric("single") == Metric::single);
  CHECK_FALSE(parse_metric("Multi").has_value());
  // The one check every front end makes of --metric (metric= on the server and in Python).
  CHECK(metric_option("multi") == Metric::multi);
  try {
    metric_option("double");
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.about == InputError::About::option);
    CHECK(e.name == "metric");
    CHECK(std::string(e.what()) == "--metric: 'double' is not a metric (single, multi)");
  }
}
