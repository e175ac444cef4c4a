// The two-bit engine (bfs.hpp: bfs_two_bit, DistanceTable::build_two_bit) against the byte engine
// and the published distributions (tests/data/bfs-distributions.txt); independence of the thread
// count; two-bit database files (kind 3: chunk checksums verified on first touch, every header and
// trailer field validated at load); the CLI on two-bit tables (build --bits 2, query, batch, stats,
// solve -a table, verify) against the same commands on byte tables. One-bit tables (the finished
// fields packed to one bit a state, distance_table.hpp's pack_one_bit; kind 5) against two-bit and
// byte tables, in memory, in files and through the CLI.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <nlohmann/json.hpp>

#define XXH_INLINE_ALL  // header-only: the tests recompute checksums of files they patch
#define XXH_VECTOR 0    // scalar: the same hashes, without GCC 12's AVX-512 false warnings
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "support.hpp"
#include "tilespace/bfs.hpp"
#include "tilespace/database.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/search/lab.hpp"
#include "tilespace/state.hpp"
#include "tilespace/table_store.hpp"

using namespace tilespace;
using Catch::Matchers::Contains;
using nlohmann::json;
using testing::one_line;
using testing::run_cli;
using testing::TempDir;
using testing::Published;
using testing::published;

using testing::get_at;
using testing::put_at;

namespace {

// ---- helpers ----------------------------------------------------------------------------------

// The field value the header of bfs.hpp prescribes for a settled state at depth d.
unsigned settled_field(int d) { return ((d >> 1) & 1) ? 2u : 1u; }

// A goal with the blank on `blank` and the other tiles shuffled (served by the same table).
State random_goal(const Board& b, int blank, std::mt19937_64& rng) {
  State g = canonical_goal(b, blank);
  std::vector<std::uint8_t> tiles;
  for (int c = 0; c < b.cells(); ++c)
    if (c != blank) tiles.push_back(g.tiles[c]);
  std::shuffle(tiles.begin(), tiles.end(), rng);
  std::size_t k = 0;
  for (int c = 0; c < b.cells(); ++c)
    if (c != blank) g.tiles[c] = tiles[k++];
  return g;
}

std::string tiles_text(const State& s) { return s.to_string(); }

TwoBitOptions threads_option(int threads) {
  TwoBitOptions o;
  o.bfs.threads = threads;
  return o;
}

// Counts of each field value 00, 01, 10, 11 over the ranks [0, size) and over the padding after it.
struct FieldCounts {
  std::array<std::uint64_t, 4> in{}, pad{};
};
FieldCounts count_fields(std::span<const std::uint64_t> f, std::uint64_t size) {
  constexpr std::uint64_t low = 0x5555'5555'5555'5555u;
  FieldCounts c;
  const std::uint64_t full = size / 32;  // words whose 32 ranks are all < size
  for (std::uint64_t i = 0; i < full; ++i) {
    const std::uint64_t lo = f[i] & low, hi = (f[i] >> 1) & low;
    c.in[1] += static_cast<std::uint64_t>(std::popcount(lo & ~hi));
    c.in[2] += static_cast<std::uint64_t>(std::popcount(hi & ~lo));
    c.in[3] += static_cast<std::uint64_t>(std::popcount(hi & lo));
  }
  c.in[0] = 32 * full - c.in[1] - c.in[2] - c.in[3];
  for (std::uint64_t r = 32 * full; r < 32 * f.size(); ++r) ++(r < size ? c.in : c.pad)[two_bit_field(f.data(), r)];
  return c;
}

// What a two-bit or one-bit table stores for rank r (also past the last rank): the two-bit field,
// or the one bit.
unsigned stored(const DistanceTable& t, std::uint64_t r) {
  return t.bits() == 1 ? static_cast<unsigned>(t.one_bits()[r >> 6] >> (r & 63)) & 1u : two_bit_field(t.fields().data(), r);
}
// What it should store for depth d: the field of bfs.hpp, or floor(d/2) mod 2 (database.hpp, kind 5).
unsigned stored_for_depth(int bits, int d) { return bits == 1 ? (d >> 1) & 1u : settled_field(d); }

DistanceTable build_bits(const Board& b, int blank, int bits, const TwoBitOptions& o = {}) {
  return DistanceTable::build_two_bit(b, blank, o, nullptr, nullptr, bits);
}

// The two-bit (`bits` 2) or one-bit (`bits` 1) table and the byte table of one goal agree on every
// rank, every field or bit, the histogram, paths and the farthest states; a one-bit table also
// equals the two-bit table field for field. `descend_every_rank`: depth_of_rank (a descent) on
// every rank; else on every 7th rank (the fields are still compared on every rank).
void check_same_as_bytes(const Board& b, int blank, bool descend_every_rank, std::mt19937_64& rng, int bits = 2) {
  INFO("board " << b.name() << ", goal blank " << blank << ", " << bits << " bits");
  const DistanceTable bytes = DistanceTable::build(b, blank);
  const DistanceTable two = build_bits(b, blank, bits);
  REQUIRE(bytes.bits() == 8);
  REQUIRE_FALSE(bytes.by_descent());
  REQUIRE(two.bits() == bits);
  REQUIRE(two.by_descent());
  REQUIRE(two.depths().empty());
  const std::uint64_t n = bytes.ranker().size();
  REQUIRE(two.ranker().size() == n);
  const std::uint64_t per_word = 64 / bits;
  const std::uint64_t words = (n + per_word - 1) / per_word;
  REQUIRE((bits == 2 ? two.fields() : two.one_bits()).size() == words);
  CHECK((bits == 2 ? two.one_bits() : two.fields()).empty());
  CHECK(two.histogram() == bytes.histogram());
  CHECK(two.radius() == bytes.radius());
  CHECK(two.payload().size() == words * 8);
  CHECK(two.info().kind == (bits == 2 ? kKindTwoBitTable : kKindOneBitTable));

  // Every field (bit) encodes its depth as bfs.hpp (database.hpp) says; the padding after the
  // last rank is 0.
  std::uint64_t wrong_fields = 0, wrong_depths = 0, checked = 0;
  const auto d8 = bytes.depths();
  for (std::uint64_t r = 0; r < per_word * words; ++r) {
    const unsigned got = stored(two, r);
    const unsigned want = r < n ? stored_for_depth(bits, d8[r]) : 0u;
    if (got != want && ++wrong_fields <= 5) {
      INFO("rank " << r << ": field " << got << ", expected " << want);
      CHECK(got == want);
    }
  }
  CHECK(wrong_fields == 0);
  if (bits == 1) {  // the same table as the two-bit one: every bit is its field's high bit
    const DistanceTable fields = build_bits(b, blank, 2);
    std::uint64_t differ = 0;
    for (std::uint64_t r = 0; r < n; ++r)
      differ += one_bit_field(two.one_bits().data(), r) != two_bit_field(fields.fields().data(), r);
    CHECK(differ == 0);
    CHECK(two.info().farthest == fields.info().farthest);
    CHECK(two.histogram() == fields.histogram());
  }
  for (std::uint64_t r = 0; r < n; r += descend_every_rank ? 1 : 7) {
    ++checked;
    const int got = two.depth_of_rank(r);
    if (got != d8[r] && ++wrong_depths <= 5) {
      INFO("rank " << r << ": two-bit depth_of_rank " << got << ", byte depth " << int(d8[r]));
      CHECK(got == int(d8[r]));
    }
  }
  CHECK(wrong_depths == 0);
  CHECK(checked >= n / 7);

  // distance and descend (one optimal path, ties to U, D, L, R) for random goals of this blank.
  for (int i = 0; i < 60; ++i) {
    const State goal = random_goal(b, blank, rng);
    const State start = i % 10 == 9 ? testing::random_state(b, rng) : testing::random_walk(goal, 200 + i, rng);
    INFO("start " << start.to_string() << ", goal " << goal.to_string());
    const auto d1 = bytes.distance(start, goal), d2 = two.distance(start, goal);
    CHECK(d1 == d2);
    const auto p1 = bytes.descend(start, goal), p2 = two.descend(start, goal);
    REQUIRE(p1.size() == p2.size());
    CHECK(p1 == p2);
    if (d1) {
      CHECK(p2.size() == static_cast<std::size_t>(*d1) + 1);
      CHECK(p2.front() == start);
      CHECK(p2.back() == goal);
    } else {
      CHECK(p2.empty());
    }
  }

  // The farthest states, in the labels of any goal of this blank (listed by a two-bit table when
  // the radius holds at most kFarthestKept states).
  for (int i = 0; i < 3; ++i) {
    const State goal = i == 0 ? canonical_goal(b, blank) : random_goal(b, blank, rng);
    const auto f1 = bytes.farthest(goal, 100000), f2 = two.farthest(goal, 100000);
    CHECK(f1.size() == bytes.histogram().back());
    if (bytes.histogram().back() <= kFarthestKept) {
      CHECK(f2 == f1);
      CHECK(two.farthest(goal, 1) == bytes.farthest(goal, 1));
    } else {
      CHECK(f2.empty());
    }
    for (const State& s : f2) CHECK(two.distance(s, goal) == bytes.radius());
  }
}

// ---- database files ---------------------------------------------------------------------------

// Recomputes the header checksum (database.hpp: offset 56, over the header with it zeroed).
void reseal_header(std::string& bytes) { testing::reseal_header(bytes, 56); }

// Kind 3: recomputes the trailer checksum (offset 48) and then the header checksum.
void reseal_trailer(std::string& bytes) {
  const std::uint64_t payload = get_at<std::uint64_t>(bytes, 40);
  const std::size_t start = std::min<std::size_t>(kHeaderSize + payload, bytes.size());
  put_at<std::uint64_t>(bytes, 48, XXH3_64bits(bytes.data() + start, bytes.size() - start));
  reseal_header(bytes);
}

std::string load_error(const std::filesystem::path& p) {
  try {
    load_database(p);
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}


// A state reachable from `goal` whose descent is short (a few moves from the goal).
State near_goal(const State& goal, int moves, std::mt19937_64& rng) { return testing::random_walk(goal, moves, rng); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// 1. The two-bit engine equals the byte engine.

TEST_CASE("two-bit tables equal byte tables for every goal blank on boards of up to 9 cells", "[two-bit][engine][slow]") {
  std::mt19937_64 rng(2101);
  for (const auto& b : {Board(2, 2), Board(2, 3), Board(3, 2), Board(2, 4), Board(4, 2), Board(3, 3)})
    for (int blank = 0; blank < b.cells(); ++blank) check_same_as_bytes(b, blank, true, rng);
}

TEST_CASE("two-bit tables equal byte tables on 2x5 and 5x2, corner and inner goal blanks", "[two-bit][engine][slow]") {
  std::mt19937_64 rng(2102);
  // Every rank's depth by descent on the corner goals; every 7th rank on the others (every
  // field is compared on all of them).
  check_same_as_bytes(Board(2, 5), 9, true, rng);
  check_same_as_bytes(Board(5, 2), 0, true, rng);
  check_same_as_bytes(Board(2, 5), 4, false, rng);
  check_same_as_bytes(Board(5, 2), 6, false, rng);
}

TEST_CASE("one-bit tables equal two-bit and byte tables on every state, every goal blank, up to 9 cells",
          "[two-bit][one-bit][engine][slow]") {
  std::mt19937_64 rng(2103);
  for (const auto& b : {Board(2, 2), Board(2, 3), Board(3, 2), Board(2, 4), Board(4, 2), Board(3, 3)})
    for (int blank = 0; blank < b.cells(); ++blank) check_same_as_bytes(b, blank, true, rng, 1);
}

TEST_CASE("one-bit tables equal two-bit and byte tables on every state of 2x5 and 5x2, every goal blank",
          "[two-bit][one-bit][engine][slow]") {
  // Every rank's bit and, on the two opposite corner goals, every rank's depth by descent; on the
  // other goals every 7th rank's (about 2 s a table for every rank: the descent itself is the
  // same code for both representations, only its reads of the table differ).
  std::mt19937_64 rng(2104);
  for (const auto& b : {Board(2, 5), Board(5, 2)})
    for (int blank = 0; blank < b.cells(); ++blank)
      check_same_as_bytes(b, blank, blank == 0 || blank == b.cells() - 1, rng, 1);
}

// pack_one_bit against a naive extraction, on fields of random settled values: sizes around the
// word and round boundaries (the first 2^17 output words are packed in order, then rounds
// [c, 2c) in parallel), every thread count giving the same words; unsettled fields refused.
TEST_CASE("pack_one_bit keeps each field's high bit, in place, for any size and thread count", "[two-bit][one-bit]") {
  std::mt19937_64 rng(5150);
  constexpr std::uint64_t first = std::uint64_t{64} << 17;  // states of the rounds packed in order
  for (const std::uint64_t states : {std::uint64_t{1}, std::uint64_t{31}, std::uint64_t{32}, std::uint64_t{33},
                                     std::uint64_t{63}, std::uint64_t{64}, std::uint64_t{65}, std::uint64_t{100'001},
                                     first - 1, first, first + 1, first + 64 * 3 + 7, 5 * first + 12'345}) {
    INFO(states << " states");
    const std::uint64_t words = (states + 31) / 32, out = (states + 63) / 64;
    std::vector<std::uint64_t> fields(words), want(out);
    std::uint64_t draw = 0;  // 64 random high bits a draw (a draw a state was most of the test's time)
    for (std::uint64_t r = 0; r < states; ++r) {
      if ((r & 63) == 0) draw = rng();
      const std::uint64_t high = (draw >> (r & 63)) & 1;
      fields[r >> 5] |= (high ? std::uint64_t{2} : std::uint64_t{1}) << (2 * (r & 31));
      want[r >> 6] |= high << (r & 63);
    }
    for (const int threads : {1, 2, 3}) {
      INFO(threads << " threads");
      std::vector<std::uint64_t> f = fields;
      pack_one_bit(f, states, threads);
      CHECK(std::memcmp(f.data(), want.data(), 8 * out) == 0);
    }
  }
  // What is not a finished table: an open or unseen field at a rank, a field past the last rank.
  const std::uint64_t states = first + 1000;
  std::vector<std::uint64_t> settled((states + 31) / 32, 0x5555'5555'5555'5555u);
  settled.back() &= (std::uint64_t{1} << (2 * (states % 32))) - 1;
  {
    std::vector<std::uint64_t> f = settled;
    CHECK_NOTHROW(pack_one_bit(f, states, 2));
  }
  for (const std::uint64_t r : {std::uint64_t{0}, std::uint64_t{77}, first / 2 + 3, states - 1}) {
    for (const std::uint64_t v : {std::uint64_t{0}, std::uint64_t{3}}) {
      INFO("rank " << r << " set to " << v);
      std::vector<std::uint64_t> f = settled;
      f[r >> 5] = (f[r >> 5] & ~(std::uint64_t{3} << (2 * (r & 31)))) | v << (2 * (r & 31));
      CHECK_THROWS_WITH(pack_one_bit(f, states, 2), Contains("not settled"));
    }
  }
  {
    std::vector<std::uint64_t> f = settled;
    f.back() |= std::uint64_t{1} << (2 * (states % 32));  // the field after the last rank
    CHECK_THROWS_WITH(pack_one_bit(f, states, 1), Contains("not settled"));
  }
  std::vector<std::uint64_t> f = settled;
  CHECK_THROWS_AS(pack_one_bit(std::span<std::uint64_t>(f).first(f.size() - 1), states, 1), std::invalid_argument);
}

TEST_CASE("a one-bit build packs the fields in their own memory and gives half of it back", "[two-bit][one-bit]") {
  const Board b(2, 5);
  const Ranker r(b, 9);
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGE_SIZE));
  auto pages = [&](std::uint64_t bytes) { return (bytes + page - 1) / page * page; };
  const std::uint64_t before = page_memory_in_use();
  {
    const DistanceTable two = build_bits(b, 9, 2);
    CHECK(page_memory_in_use() - before == two_bit_bytes(r));
    const DistanceTable one = build_bits(b, 9, 1);  // the same peak; then the first half, packed
    CHECK(page_memory_in_use() - before == two_bit_bytes(r) + pages(8 * one_bit_words(r)));
    CHECK(one.one_bits().size() == one_bit_words(r));
    CHECK(pages(8 * one_bit_words(r)) < two_bit_bytes(r) / 2 + page);
  }
  CHECK(page_memory_in_use() == before);
  CHECK_THROWS_AS(build_bits(b, 9, 3), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// 2. Published distributions.

namespace {

// A two-bit build with what its callbacks saw, kept for the process: the 3x4 table serves both
// the published distribution and the database tests when they run in one process.
struct Built {
  std::unique_ptr<DistanceTable> table;
  std::vector<LayerReport> layers;
  std::vector<TwoBitProgress> between;
};

const Built& built_two_bit(const Board& b, int blank, int bits = 2) {
  static std::map<std::tuple<int, int, int, int>, Built> cache;
  Built& x = cache[{b.width(), b.height(), blank, bits}];
  if (!x.table) {
    TwoBitOptions o;
    o.bfs.on_layer = [&](const LayerReport& l) { x.layers.push_back(l); };
    o.between_layers = [&](const TwoBitProgress& p, std::span<const std::uint64_t>) { x.between.push_back(p); };
    x.table = std::make_unique<DistanceTable>(build_bits(b, blank, bits, o));
  }
  return x;
}

void check_two_bit_published(const Board& b, int blank, const std::string& pos, int bits = 2) {
  INFO("board " << b.name() << ", goal blank " << blank << " (" << pos << "), " << bits << " bits");
  const Published& want = published(b, pos);
  const Built& built = built_two_bit(b, blank, bits);
  const DistanceTable& t = *built.table;
  const auto& layers = built.layers;
  const auto& between = built.between;
  REQUIRE(t.bits() == bits);
  CHECK(t.ranker().size() == want.states);
  CHECK(t.histogram() == want.counts);
  CHECK(t.radius() == want.radius);

  // The layers as they were found, and the progress between them (what a checkpoint holds).
  REQUIRE(layers.size() == want.counts.size());
  std::uint64_t total = 0;
  for (std::size_t d = 0; d < layers.size(); ++d) {
    total += want.counts[d];
    CHECK(layers[d].depth == static_cast<int>(d));
    CHECK(layers[d].states == want.counts[d]);
    CHECK(layers[d].total == total);
  }
  REQUIRE(between.size() == want.counts.size() - 1);  // not after the last layer
  for (std::size_t i = 0; i < between.size(); ++i) {
    CHECK(between[i].next_layer == static_cast<int>(i) + 1);
    CHECK(between[i].histogram == std::vector<std::uint64_t>(want.counts.begin(), want.counts.begin() + i + 1));
    CHECK(between[i].pending == want.counts[i + 1]);
  }

  // The fields: settled 01 / 10 by floor(D/2) mod 2, nothing open, padding unseen. One bit: as
  // many ones as states with floor(D/2) odd, none in the padding.
  std::uint64_t even = 0, odd = 0;
  for (std::size_t d = 0; d < want.counts.size(); ++d) ((d >> 1) & 1 ? odd : even) += want.counts[d];
  if (bits == 2) {
    const FieldCounts c = count_fields(t.fields(), t.ranker().size());
    CHECK(c.in[0] == 0);
    CHECK(c.in[1] == even);
    CHECK(c.in[2] == odd);
    CHECK(c.in[3] == 0);
    CHECK(c.pad[1] + c.pad[2] + c.pad[3] == 0);
  } else {
    std::uint64_t ones = 0;
    for (const std::uint64_t w : t.one_bits()) ones += static_cast<std::uint64_t>(std::popcount(w));
    const std::uint64_t n = t.ranker().size();
    CHECK(t.one_bits().size() == (n + 63) / 64);
    CHECK(ones == odd);
    if (n % 64) CHECK(t.one_bits().back() >> (n % 64) == 0);
  }

  // The states at the radius: listed (at most kFarthestKept), in rank order, each at the radius.
  const State goal = canonical_goal(b, blank);
  const auto far = t.farthest(goal, 100000);
  if (want.counts.back() <= kFarthestKept) {
    CHECK(far.size() == want.counts.back());
  } else {
    CHECK(far.empty());
  }
  for (const State& s : far) CHECK(t.distance(s, goal) == want.radius);
  CHECK(t.distance(goal, goal) == 0);
  // Some depths by descent agree with the field and the blank's parity (D mod 4).
  std::mt19937_64 rng(77);
  for (int i = 0; i < 200; ++i) {
    const std::uint64_t r = std::uniform_int_distribution<std::uint64_t>(0, t.ranker().size() - 1)(rng);
    const int d = t.depth_of_rank(r);
    Sequence seq{};
    const int cell = t.ranker().unrank(r, seq);
    CHECK(d >= 0);
    CHECK(d <= want.radius);
    CHECK(static_cast<unsigned>(d & 1) == blank_parity(t.ranker(), cell));
    CHECK(stored(t, r) == stored_for_depth(bits, d));
  }
}

}  // namespace

TEST_CASE("two-bit engine: the published distributions of 2x5, 5x2 and the 3x3 centre and edge goals", "[two-bit][published]") {
  check_two_bit_published(Board(2, 5), 9, "corner");
  check_two_bit_published(Board(5, 2), 0, "corner");
  check_two_bit_published(Board(3, 3), 4, "center");
  check_two_bit_published(Board(3, 3), 1, "edge");
}

// About 6 s each (required: they are the engine's test at a size where every code path runs).
TEST_CASE("two-bit engine: the published distribution of 3x4", "[two-bit][published][big]") {
  check_two_bit_published(Board(3, 4), 11, "corner");
}

TEST_CASE("two-bit engine: the published distribution of 2x6", "[two-bit][published][big]") {
  check_two_bit_published(Board(2, 6), 11, "corner");
}

TEST_CASE("one-bit tables: the published distributions of 2x5, 5x2 and the 3x3 centre and edge goals",
          "[two-bit][one-bit][published]") {
  check_two_bit_published(Board(2, 5), 9, "corner", 1);
  check_two_bit_published(Board(5, 2), 0, "corner", 1);
  check_two_bit_published(Board(3, 3), 4, "center", 1);
  check_two_bit_published(Board(3, 3), 1, "edge", 1);
}

// The whole 3x4 table: its bit on every rank and its depth by descent on a million random ranks,
// against the byte engine's table; the packing runs its parallel rounds at this size (3.7 M words
// of output, past the first 2^17 packed in order).
TEST_CASE("one-bit tables: the published distribution of 3x4, and a million random ranks against the byte table",
          "[two-bit][one-bit][published][big]") {
  const Board b(3, 4);
  check_two_bit_published(b, 11, "corner", 1);
  const DistanceTable& one = *built_two_bit(b, 11, 1).table;
  const DistanceTable bytes = testing::cached_table(b, 11);  // the byte engine's (support.hpp)
  const auto d8 = bytes.depths();
  const std::uint64_t n = d8.size();
  REQUIRE(one.ranker().size() == n);
  std::uint64_t wrong_bits = 0, wrong_depths = 0;
  for (std::uint64_t r = 0; r < n; ++r) wrong_bits += stored(one, r) != stored_for_depth(1, d8[r]);
  CHECK(wrong_bits == 0);
  std::mt19937_64 rng(3412);
  std::uniform_int_distribution<std::uint64_t> rank(0, n - 1);
  for (int i = 0; i < 1'000'000; ++i) {
    const std::uint64_t r = rank(rng);
    if (one.depth_of_rank(r) != d8[r] && ++wrong_depths <= 5) CHECK(one.depth_of_rank(r) == int(d8[r]));
  }
  CHECK(wrong_depths == 0);
  for (int i = 0; i < 200; ++i) {  // paths, for goals of this blank
    const State goal = random_goal(b, 11, rng);
    const State s = testing::random_walk(goal, 300 + i, rng);
    CHECK(one.descend(s, goal) == bytes.descend(s, goal));
  }
  CHECK(one.farthest(canonical_goal(b, 11), 100000) == bytes.farthest(canonical_goal(b, 11), 100000));
}

// ---------------------------------------------------------------------------------------------
// 3. Independence of the thread count.

TEST_CASE("two-bit engine: fields and database files are byte-identical for 1, 2 and 3 threads, two bits or one",
          "[two-bit][one-bit][threads]") {
  TempDir dir;
  for (const auto& [b, blank, bits] : std::vector<std::tuple<Board, int, int>>{
           {Board(3, 3), 8, 2}, {Board(3, 3), 4, 2}, {Board(2, 5), 9, 2}, {Board(5, 2), 3, 2},
           {Board(3, 3), 8, 1}, {Board(2, 5), 9, 1}, {Board(5, 2), 3, 1}}) {
    INFO("board " << b.name() << ", goal blank " << blank << ", " << bits << " bits");
    std::vector<DistanceTable> tables;
    std::vector<std::string> files;
    for (int threads : {1, 2, 3}) {
      tables.push_back(build_bits(b, blank, bits, threads_option(threads)));
      const auto path = dir / (b.name() + "-" + std::to_string(blank) + "-b" + std::to_string(bits) + "-t" +
                               std::to_string(threads) + ".tsdb");
      save_database(path, tables.back().info(), tables.back().payload());
      files.push_back(testing::read_file(path));
    }
    for (std::size_t i = 1; i < tables.size(); ++i) {
      INFO("threads 1 against " << (i + 1));
      REQUIRE(tables[i].payload().size() == tables[0].payload().size());
      CHECK(std::memcmp(tables[i].payload().data(), tables[0].payload().data(), tables[0].payload().size()) == 0);
      CHECK(tables[i].histogram() == tables[0].histogram());
      CHECK(tables[i].info().farthest == tables[0].info().farthest);
      CHECK(files[i].size() == files[0].size());
      CHECK(testing::bytes_differ(files[i], files[0]) == "");
    }
  }
}

TEST_CASE("two-bit engine, boards of two rows: the back bits compute each vertical move once, from its shallower "
          "end, to the same fields, on 1 and 2 threads and resumed between layers",
          "[two-bit][engine]") {
  // Every state of a board of two rows has one vertical move, and the graph is bipartite: each
  // vertical edge joins layers d and d+1. With the back bits the engine computes it from the
  // layer-d end only (and from both ends where the deeper one is in a layer small enough to be
  // listed: its ranks are collected in the loop that computes the moves).
  struct Snapshot {  // a checkpoint's contents, as the engine hands them over between two layers
    TwoBitProgress progress;
    std::vector<std::uint64_t> fields;
  };
  for (const auto& [b, blanks] : std::vector<std::pair<Board, std::vector<int>>>{
           {Board(2, 2), {0, 3}}, {Board(3, 2), {0, 1, 2, 3, 4, 5}}, {Board(4, 2), {0, 1, 5, 7}},
           {Board(5, 2), testing::kSanitized ? std::vector<int>{2} : std::vector<int>{0, 2, 9}}}) {
    for (const int blank : blanks) {
      INFO("board " << b.name() << ", goal blank " << blank);
      const Ranker ranker(b, blank);
      REQUIRE(two_bit_back_words(ranker) == (two_bit_words(ranker) + 1) / 2);
      CHECK(two_bit_back_words(ranker, Metric::multi) == 0);
      const std::uint64_t words = two_bit_search_words(ranker);
      auto run = [&](bool back, int threads, std::vector<Snapshot>* between = nullptr,
                     const Snapshot* from = nullptr) {
        FieldArray fields(words);
        if (from) std::copy(from->fields.begin(), from->fields.end(), fields.span().begin());
        TwoBitOptions o = threads_option(threads);
        o.back_bits = back;
        if (between)
          o.between_layers = [&](const TwoBitProgress& p, std::span<const std::uint64_t> f) {
            between->push_back({p, std::vector<std::uint64_t>(f.begin(), f.end())});
          };
        const TwoBitResult r = bfs_two_bit(ranker, fields.span(), o, from ? &from->progress : nullptr);
        return std::pair{r, std::vector<std::uint64_t>(fields.span().begin(), fields.span().end())};
      };
      std::vector<Snapshot> between;
      const auto [without, want] = run(false, 1);
      const auto [with, got] = run(true, 1, &between);
      CHECK(got == want);
      CHECK(with.back_bits);
      CHECK_FALSE(without.back_bits);
      CHECK(with.histogram == without.histogram);
      CHECK(with.farthest == without.farthest);
      const std::uint64_t n = ranker.size();
      CHECK(without.vertical_targets == n);
      std::uint64_t listed = 0;  // the states of the layers whose ranks are collected
      for (const std::uint64_t size : with.histogram) listed += size <= kFarthestKept ? size : 0;
      CHECK(with.vertical_targets >= n / 2);
      CHECK(with.vertical_targets <= n / 2 + listed);
      if (n > 100000) CHECK(with.vertical_targets < n * 51 / 100);
      CHECK(run(true, 2).second == want);
      // Resumed from the middle layer: the back bits start clear, and the fields end the same.
      REQUIRE(between.size() >= 2);
      const Snapshot& middle = between[between.size() / 2];
      const auto [resumed, fields] = run(true, 1, nullptr, &middle);
      CHECK(fields == want);
    }
  }
  // A memory budget with room for the fields but not the back bits: the search runs without them.
  {
    struct Restore {
      ~Restore() { set_memory_budget(0); }
    } restore;
    const Ranker ranker(Board(5, 2), 9);
    FieldArray fields(two_bit_search_words(ranker));
    const std::uint64_t in_use = page_memory_in_use();
    const std::uint64_t back = 8 * two_bit_back_words(ranker);
    set_memory_budget((in_use + back / 2) / 9 * 10, "--max-memory (a test's)");
    const TwoBitResult r = bfs_two_bit(ranker, fields.span(), threads_option(2));
    CHECK_FALSE(r.back_bits);
    CHECK(r.vertical_targets == ranker.size());
    CHECK(r.histogram == published(Board(5, 2), "corner").counts);
    // With room for them, it has them.
    set_memory_budget(0);
    FieldArray again(two_bit_search_words(ranker));
    set_memory_budget((page_memory_in_use() + back) / 9 * 10 + 4096, "--max-memory (a test's)");
    CHECK(bfs_two_bit(ranker, again.span(), threads_option(2)).back_bits);
  }
}

namespace {

// Under TSan (testing::kThreadSanitized) the two tests below keep what races, two threads on the
// same words and regions, and drop the repeats of a board's shape that ASan and the Release build
// run: 5x2 (2x5 remains, where regions of 2^20 ranks are applied by two threads at once), and on
// 3x3 every goal blank but a corner, an edge and the centre.
bool skipped_under_tsan(const Board& b, int blank) {
  if (!testing::kThreadSanitized) return false;
  if (b == Board(5, 2)) return true;
  return b == Board(3, 3) && blank != 0 && blank != 1 && blank != 4;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// 3b. The multi-tile metric: fields of D mod 3 + 1 and an open bitmap; tables by descent.

namespace {

// The two-bit engine's multi-tile search on `ranker` against the byte engine's: the same layer
// sizes and farthest states, every field the byte table's depth mod 3 + 1 and the open bitmap
// empty at the end, with `threads` threads.
void check_multi_two_bit(const Ranker& ranker, std::span<const std::uint8_t> depth,
                         const std::vector<std::uint64_t>& histogram, int threads) {
  INFO("board " << ranker.board().name() << ", goal blank " << ranker.goal_blank() << ", threads " << threads);
  REQUIRE(two_bit_search_words(ranker, Metric::multi) == two_bit_words(ranker) + (two_bit_words(ranker) + 1) / 2);
  FieldArray fields(two_bit_search_words(ranker, Metric::multi));
  TwoBitOptions o = threads_option(threads);
  o.bfs.metric = Metric::multi;
  const TwoBitResult r = bfs_two_bit(ranker, fields.span(), o);
  CHECK(r.histogram == histogram);
  const auto radius = static_cast<std::uint8_t>(histogram.size() - 1);
  std::vector<std::uint64_t> farthest;
  for (std::uint64_t i = 0; i < depth.size(); ++i)
    if (depth[i] == radius) farthest.push_back(i);
  if (farthest.size() > kFarthestKept) farthest.clear();
  CHECK(r.farthest == farthest);
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < depth.size(); ++i)
    wrong += two_bit_field(fields.span().data(), i) != (depth[i] == 0xFF ? 0u : depth[i] % 3 + 1u);
  CHECK(wrong == 0);
  std::uint64_t open = 0;
  for (std::uint64_t i = two_bit_words(ranker); i < fields.span().size(); ++i) open |= fields.span()[i];
  CHECK(open == 0);
}

void check_multi_two_bit(const Board& b, int blank, const std::vector<int>& threads) {
  const Ranker ranker(b, blank);
  std::vector<std::uint8_t> depth(ranker.size());
  BfsOptions bo;
  bo.metric = Metric::multi;
  const BfsResult byte = bfs_distances(ranker, depth, bo);
  for (const int t : threads) check_multi_two_bit(ranker, depth, byte.histogram, t);
}

}  // namespace

TEST_CASE("two-bit engine, multi-tile metric: the byte engine's layers and farthest states on boards of up to 10 cells",
          "[two-bit][multi][engine][threads]") {
  // Every goal blank of the boards of up to 9 cells (widths 2 to 4: a blank's k-cell moves cross
  // the 32 fields of a word), a corner and an inner one on 10 cells; 1, 2 and 3 threads. Under the
  // sanitizers two threads, and 10 cells with one goal blank.
  for (const auto& b : {Board(2, 2), Board(2, 3), Board(3, 2), Board(2, 4), Board(4, 2), Board(3, 3), Board(2, 5),
                        Board(5, 2)}) {
    for (int blank = 0; blank < b.cells(); ++blank) {
      if (b.cells() == 10 && blank != 0 && blank != 4) continue;
      if (testing::kSanitized && b.cells() == 10 && blank != (b.width() == 5 ? 0 : 4)) continue;
      if (skipped_under_tsan(b, blank)) continue;
      check_multi_two_bit(b, blank, testing::kSanitized ? std::vector<int>{2} : std::vector<int>{1, 2, 3});
    }
  }
}

namespace {

// `b` follows `a` by one multi-tile move: the blank slides k >= 1 cells along a row or column.
bool multi_tile_move(const State& a, const State& b) {
  for (int d = 0; d < 4; ++d) {
    State s = a;
    for (int to = a.board.step(a.blank, static_cast<Dir>(d)); to >= 0; to = s.board.step(s.blank, static_cast<Dir>(d))) {
      s = s.moved(to);
      if (s == b) return true;
    }
  }
  return false;
}

// A multi-tile two-bit table (and its file) against the byte engine's multi-tile table: the
// distance of every `step`-th rank by descent, and paths of that length of legal multi-tile moves.
void check_multi_table(const Board& b, int blank, std::uint64_t step, const std::filesystem::path& dir) {
  INFO("board " << b.name() << ", goal blank " << blank);
  BfsOptions bo;
  bo.metric = Metric::multi;
  const DistanceTable byte = DistanceTable::build(b, blank, bo);
  TwoBitOptions o;
  o.bfs.metric = Metric::multi;
  const DistanceTable two = DistanceTable::build_two_bit(b, blank, o);
  CHECK(two.metric() == Metric::multi);
  CHECK(two.bits() == 2);
  CHECK(two.histogram() == byte.histogram());
  const auto path = dir / (b.name() + "-" + std::to_string(blank) + "-multi.tsdb");
  save_database(path, two.info(), two.payload());
  CHECK(std::uint8_t(testing::read_file(path).at(152)) == 1);  // the metric (database.hpp)
  const DistanceTable loaded = DistanceTable::from_database(load_database(path));
  CHECK(loaded.metric() == Metric::multi);
  std::uint64_t wrong = 0, checked = 0;
  for (std::uint64_t r = 0; r < byte.ranker().size(); r += step, ++checked)
    wrong += two.depth_of_rank(r) != byte.depths()[r] || loaded.depth_of_rank(r) != byte.depths()[r];
  CHECK(wrong == 0);
  CHECK(checked > 100);
  std::mt19937_64 rng(4100 + static_cast<unsigned>(b.cells() * 16 + blank));
  for (int i = 0; i < 40; ++i) {
    const State g = random_goal(b, blank, rng);
    const State s = testing::random_walk(g, 200, rng);
    const auto d = byte.distance(s, g);
    REQUIRE(d);
    CHECK(loaded.distance(s, g) == d);
    const std::vector<State> descent = loaded.descend(s, g);
    REQUIRE(descent.size() == static_cast<std::size_t>(*d) + 1);
    CHECK(descent.front() == s);
    CHECK(descent.back() == g);
    for (std::size_t k = 1; k < descent.size(); ++k) CHECK(multi_tile_move(descent[k - 1], descent[k]));
  }
}

}  // namespace

TEST_CASE("two-bit engine, multi-tile metric: tables by descent equal the byte engine's, saved and loaded",
          "[two-bit][multi][database]") {
  TempDir dir;
  // Every rank of 3x3 (goal blank in a corner and in the centre) and of the small boards; every
  // 7th of 2x5 and 5x2. Under the sanitizers every 97th of 3x3 and of the 10-cell boards.
  const std::uint64_t thin = testing::kSanitized ? 97 : 1;
  for (const auto& [b, blank] : std::vector<std::pair<Board, int>>{
           {Board(3, 3), 8}, {Board(3, 3), 4}, {Board(2, 3), 0}, {Board(4, 2), 5}, {Board(2, 4), 2}}) {
    check_multi_table(b, blank, b.cells() >= 9 ? thin : 1, dir.path);
  }
  check_multi_table(Board(2, 5), 9, 7 * thin, dir.path);
  check_multi_table(Board(5, 2), 4, 7 * thin, dir.path);
}

TEST_CASE("two-bit engine, multi-tile metric: no one-bit table, which cannot hold D mod 3", "[two-bit][multi]") {
  TwoBitOptions o;
  o.bfs.metric = Metric::multi;
  CHECK_THROWS_WITH(DistanceTable::build_two_bit(Board(3, 3), 8, o, nullptr, nullptr, 1),
                    Catch::Matchers::Contains("--bits: 1 keeps single-tile tables only"));
  CHECK_THROWS_AS(DistanceTable::choose_engine(Board(3, 3), Engine::one_bit, Metric::multi), InputError);
  // The automatic choice where the byte engine does not fit: one bit, or two in the multi-tile metric.
  struct Restore {
    ~Restore() { set_memory_budget(0); }
  } restore;
  set_memory_budget(std::uint64_t{64} << 20, "--max-memory 64M");
  CHECK(DistanceTable::automatic_engine(Board(3, 4), Metric::single) == Engine::one_bit);
  CHECK(DistanceTable::automatic_engine(Board(3, 4), Metric::multi) == Engine::two_bit);
  // The open bitmap: one bit a state more than the fields.
  const Ranker r(Board(3, 4), 11);
  CHECK(DistanceTable::build_bytes(Board(3, 4), Engine::two_bit, Metric::multi) ==
        two_bit_build_bytes(r) + 8 * ((two_bit_words(r) + 1) / 2));
}

TEST_CASE("two-bit engine, multi-tile metric: the published radii of 3x4 (33) and 6x2 (41)",
          "[two-bit][multi][engine][big]") {
  // Against the byte engine's layers (whose radii tests/test_bfs.cpp checks against the published
  // ones; the table from the tests' cache, support.hpp); widths 3 and 6 (moves of up to 5 fields
  // across a word's end), two threads.
  for (const auto& [b, blank, radius] : {std::tuple{Board(3, 4), 11, 33}, {Board(6, 2), 0, 41}}) {
    const DistanceTable byte = testing::cached_table(b, blank, Metric::multi);
    CHECK(byte.radius() == radius);
    check_multi_two_bit(byte.ranker(), byte.depths(), byte.histogram(), 2);
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Two-bit database files.

TEST_CASE("two-bit database: save and load give the same table, in the documented layout", "[two-bit][database]") {
  TempDir dir;
  std::mt19937_64 rng(4001);
  for (const auto& [b, blank] : std::vector<std::pair<Board, int>>{
           {Board(3, 3), 8}, {Board(3, 3), 4}, {Board(2, 3), 0}, {Board(2, 5), 9}, {Board(4, 2), 5}}) {
    INFO("board " << b.name() << ", goal blank " << blank);
    const DistanceTable t = DistanceTable::build_two_bit(b, blank, {});
    const auto path = dir / (b.name() + "-" + std::to_string(blank) + ".tsdb");
    save_database(path, t.info(), t.payload());

    // The layout of database.hpp.
    const std::string bytes = testing::read_file(path);
    const std::uint64_t payload = t.fields().size() * 8;
    const std::uint64_t chunks = (payload + (1u << 20) - 1) >> 20;
    const std::uint64_t far = t.histogram().back() <= kFarthestKept ? t.histogram().back() : 0;
    CHECK(bytes.size() == kHeaderSize + payload + 8 * (chunks + far));
    REQUIRE(bytes.size() >= kHeaderSize);
    CHECK(std::uint8_t(bytes[16]) == kKindTwoBitTable);
    CHECK(std::uint8_t(bytes[19]) == 2);
    CHECK(get_at<std::uint64_t>(bytes, 24) == t.ranker().size());
    CHECK(get_at<std::uint64_t>(bytes, 40) == payload);
    CHECK(get_at<std::uint32_t>(bytes, 136) == 20);
    CHECK(get_at<std::uint32_t>(bytes, 140) == far);
    CHECK(get_at<std::uint64_t>(bytes, 144) == chunks);
    CHECK(std::memcmp(bytes.data() + kHeaderSize, t.fields().data(), payload) == 0);
    CHECK(get_at<std::uint64_t>(bytes, kHeaderSize + payload) ==
          XXH3_64bits(bytes.data() + kHeaderSize, std::min<std::uint64_t>(payload, 1u << 20)));

    LoadedDatabase db = load_database(path);
    CHECK(db.info.kind == kKindTwoBitTable);
    REQUIRE(db.chunks);
    const auto verifier = db.chunks;
    CHECK(verifier->chunks() == chunks);
    const DistanceTable u = DistanceTable::from_database(std::move(db));
    REQUIRE(u.bits() == 2);
    CHECK(u.board() == b);
    CHECK(u.ranker().goal_blank() == blank);
    CHECK(u.histogram() == t.histogram());
    REQUIRE(u.fields().size() == t.fields().size());
    CHECK(std::memcmp(u.fields().data(), t.fields().data(), t.fields().size_bytes()) == 0);
    CHECK(u.info().farthest == t.info().farthest);
    const State goal = canonical_goal(b, blank);
    CHECK(u.farthest(goal, 100000) == t.farthest(goal, 100000));
    // Every 13th rank's depth by descent (the fields themselves are compared whole above); under the
    // sanitizers every 131st (2x5's 140,000 pairs of descents took most of the test there).
    const std::uint64_t step = testing::kSanitized ? 131 : 13;
    std::uint64_t wrong = 0;
    for (std::uint64_t r = 0; r < u.ranker().size(); r += step) wrong += u.depth_of_rank(r) != t.depth_of_rank(r);
    CHECK(wrong == 0);
    for (int i = 0; i < 50; ++i) {
      const State g = random_goal(b, blank, rng);
      const State s = testing::random_walk(g, 300, rng);
      CHECK(u.distance(s, g) == t.distance(s, g));
      CHECK(u.descend(s, g) == t.descend(s, g));
    }
    u.verify_all();
    CHECK(verifier->verified() == chunks);
  }
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) CHECK(e.path().extension() == ".tsdb");
}

TEST_CASE("one-bit database: save and load give the same table, in the documented layout", "[two-bit][one-bit][database]") {
  TempDir dir;
  std::mt19937_64 rng(4002);
  for (const auto& [b, blank] : std::vector<std::pair<Board, int>>{
           {Board(3, 3), 8}, {Board(3, 3), 4}, {Board(2, 3), 0}, {Board(2, 5), 9}, {Board(4, 2), 5}, {Board(2, 2), 1}}) {
    INFO("board " << b.name() << ", goal blank " << blank);
    const DistanceTable t = build_bits(b, blank, 1);
    const DistanceTable two = build_bits(b, blank, 2);
    const auto path = dir / (b.name() + "-" + std::to_string(blank) + ".tsdb");
    save_database(path, t.info(), t.payload());

    // The layout of database.hpp: kind 5, one bit an entry, ceil(N!/2 / 64) words, bit r of word
    // r / 64 the high bit of the two-bit field of rank r.
    const std::string bytes = testing::read_file(path);
    const std::uint64_t n = t.ranker().size();
    const std::uint64_t payload = (n + 63) / 64 * 8;
    const std::uint64_t chunks = (payload + (1u << 20) - 1) >> 20;
    const std::uint64_t far = t.histogram().back() <= kFarthestKept ? t.histogram().back() : 0;
    CHECK(bytes.size() == kHeaderSize + payload + 8 * (chunks + far));
    REQUIRE(bytes.size() >= kHeaderSize + payload);
    CHECK(std::uint8_t(bytes[16]) == kKindOneBitTable);
    CHECK(std::uint8_t(bytes[19]) == 1);
    CHECK(get_at<std::uint64_t>(bytes, 24) == n);
    CHECK(get_at<std::uint64_t>(bytes, 40) == payload);
    CHECK(get_at<std::uint32_t>(bytes, 136) == 20);
    CHECK(get_at<std::uint32_t>(bytes, 140) == far);
    CHECK(get_at<std::uint64_t>(bytes, 144) == chunks);
    CHECK(get_at<std::uint64_t>(bytes, kHeaderSize + payload) ==
          XXH3_64bits(bytes.data() + kHeaderSize, std::min<std::uint64_t>(payload, 1u << 20)));
    std::uint64_t wrong = 0;
    for (std::uint64_t r = 0; r < 64 * (payload / 8); ++r) {
      const unsigned bit = (static_cast<unsigned char>(bytes[kHeaderSize + r / 8]) >> (r % 8)) & 1u;
      wrong += bit != (r < n ? two_bit_field(two.fields().data(), r) >> 1 : 0u);
    }
    CHECK(wrong == 0);
    // The trailer's ranks at the radius: those of the two-bit file.
    const std::uint64_t base = kHeaderSize + payload + 8 * chunks;
    for (std::uint64_t i = 0; i < far; ++i) CHECK(get_at<std::uint64_t>(bytes, base + 8 * i) == two.info().farthest.at(i));

    LoadedDatabase db = load_database(path);
    CHECK(db.info.kind == kKindOneBitTable);
    REQUIRE(db.chunks);
    const auto verifier = db.chunks;
    CHECK(verifier->chunks() == chunks);
    CHECK(verifier->verified() == 0);
    const DistanceTable u = DistanceTable::from_database(std::move(db));
    REQUIRE(u.bits() == 1);
    CHECK(u.board() == b);
    CHECK(u.ranker().goal_blank() == blank);
    CHECK(u.histogram() == two.histogram());
    REQUIRE(u.one_bits().size() == t.one_bits().size());
    CHECK(std::memcmp(u.one_bits().data(), t.one_bits().data(), t.one_bits().size_bytes()) == 0);
    CHECK(u.info().farthest == two.info().farthest);
    CHECK(u.info().kind == kKindOneBitTable);
    const State goal = canonical_goal(b, blank);
    CHECK(u.farthest(goal, 100000) == two.farthest(goal, 100000));
    wrong = 0;  // every 13th rank's depth; every 131st under the sanitizers (as for two-bit files)
    const std::uint64_t step = testing::kSanitized ? 131 : 13;
    for (std::uint64_t r = 0; r < n; r += step) wrong += u.depth_of_rank(r) != two.depth_of_rank(r);
    CHECK(wrong == 0);
    for (int i = 0; i < 50; ++i) {
      const State g = random_goal(b, blank, rng);
      const State s = testing::random_walk(g, 300, rng);
      CHECK(u.distance(s, g) == two.distance(s, g));
      CHECK(u.descend(s, g) == two.descend(s, g));
    }
    CHECK(verifier->verified() == chunks);  // the lookups touched the one chunk
    u.verify_all();
    CHECK(verifier->verified() == chunks);
    // Saved again from the loaded table: the same file.
    save_database(dir / "again.tsdb", u.info(), u.payload());
    CHECK(testing::bytes_differ(testing::read_file(dir / "again.tsdb"), bytes) == "");
  }
}

TEST_CASE("two-bit database: the store builds, saves and loads two-bit tables", "[two-bit][database]") {
  TempDir dir;
  StoreOptions o;
  o.dir = dir.path;
  o.engine = Engine::two_bit;
  std::vector<std::string> notes;
  o.note = [&](const std::string& s) { notes.push_back(s); };
  {
    TableStore store(o);
    const DistanceTable& t = store.table(Board(3, 3), 8);  // missing: built with the two-bit engine
    CHECK(t.bits() == 2);
    CHECK(t.radius() == 31);
  }
  CHECK_THAT(notes.at(0), Contains("building it first"));
  const auto path = dir / "3x3-123456780.tsdb";
  REQUIRE(std::filesystem::exists(path));
  CHECK(std::uint8_t(testing::read_file(path)[16]) == kKindTwoBitTable);
  CHECK_FALSE(std::filesystem::exists(dir / "3x3-123456780.tsdb.ckpt"));
  StoreOptions plain;
  plain.dir = dir.path;  // an automatic store reads whatever kind is there
  TableStore again(plain);
  const DistanceTable& u = again.table(Board(3, 3), 8);
  CHECK(u.bits() == 2);
  CHECK(u.histogram().back() == 2);
  CHECK(u.distance(parse_state("8 6 7 2 5 4 3 0 1"), canonical_goal(Board(3, 3), 8)) == 31);
}

TEST_CASE("one-bit database: the store builds one-bit tables when asked and where the byte engine does not fit",
          "[two-bit][one-bit][database]") {
  TempDir dir;
  const Board b(2, 5);
  const State goal = canonical_goal(b, 9);
  const State far = parse_state("0 9 8 7 6 5 4 3 2 1", b);
  std::vector<std::string> notes;
  StoreOptions o;
  o.note = [&](const std::string& s) { notes.push_back(s); };
  auto kind_in = [&](const std::string& folder) {
    return std::uint8_t(testing::read_file(dir / folder / "2x5-1234567890.tsdb").at(16));
  };
  // Asked for: one bit.
  o.dir = dir / "one";
  o.engine = Engine::one_bit;
  {
    TableStore store(o);
    const DistanceTable& t = store.table(b, 9);
    CHECK(t.bits() == 1);
    CHECK(t.radius() == 55);
  }
  CHECK(kind_in("one") == kKindOneBitTable);
  CHECK_THAT(notes.at(0), Contains("building it first"));
  // The automatic choice where the byte engine does not fit in the memory budget (2x5: 4.7 MB
  // against the two-bit engine's 0.6 MB): one bit. (The store's build under such a budget is
  // tested through the CLI, build --max-memory 2M: in this process other tests' tables may hold
  // more than that.)
  {
    struct Restore {
      ~Restore() { set_memory_budget(0); }
    } restore;
    set_memory_budget(std::uint64_t{2} << 20, "--max-memory 2M");
    CHECK(DistanceTable::choose_engine(b) == Engine::one_bit);
    CHECK(DistanceTable::estimate_build(b).disk == DistanceTable::estimate_build(b, Engine::one_bit).disk);
    CHECK(DistanceTable::estimate_build(b).disk < DistanceTable::estimate_build(b, Engine::two_bit).disk);
  }
  CHECK(DistanceTable::choose_engine(b) == Engine::byte);
  // Two bits when asked; an automatic store loads every kind.
  o.dir = dir / "two";
  o.engine = Engine::two_bit;
  (void)TableStore(o).table(b, 9);
  CHECK(kind_in("two") == kKindTwoBitTable);
  o.dir = dir / "byte";
  o.engine = Engine::byte;
  (void)TableStore(o).table(b, 9);
  CHECK(kind_in("byte") == kKindDistanceTable);
  for (const auto& [folder, bits] : std::vector<std::pair<std::string, int>>{{"one", 1}, {"two", 2}, {"byte", 8}}) {
    INFO(folder);
    StoreOptions plain;
    plain.dir = dir / folder;
    TableStore store(plain);
    const DistanceTable& t = store.table(b, 9);
    CHECK(t.bits() == bits);
    CHECK(t.distance(far, goal).has_value());
    StoreOptions bytes;
    bytes.dir = dir / "byte";
    CHECK(t.distance(far, goal) == TableStore(bytes).table(b, 9).distance(far, goal));
  }
}

namespace {

// Corrupt, truncated, extended and lying two-bit (`bits` 2) or one-bit (1) files of the 3x3 table
// are refused at load, each with a message naming the file and the problem.
void check_refused_at_load(int bits) {
  TempDir dir;
  const Board b(3, 3);
  const DistanceTable t = build_bits(b, 8, bits);
  const auto good = dir / "good.tsdb";
  save_database(good, t.info(), t.payload());
  const std::string bytes = testing::read_file(good);
  const std::uint64_t payload = get_at<std::uint64_t>(bytes, 40);
  const std::uint64_t chunks = get_at<std::uint64_t>(bytes, 144);
  const std::uint32_t far = get_at<std::uint32_t>(bytes, 140);
  REQUIRE(chunks == 1);
  REQUIRE(far == 2);
  const std::size_t trailer = kHeaderSize + payload;
  REQUIRE(bytes.size() == trailer + 8 * (chunks + far));
  CHECK(load_error(good).empty());

  auto refused = [&](const std::string& name, const std::string& content, const std::string& says) {
    INFO(name);
    const auto p = dir / name;
    testing::write_file(p, content);
    const std::string msg = load_error(p);
    CHECK_THAT(msg, Contains(p.string()) && Contains(says));
  };
  auto flipped = [&](std::size_t off) {
    std::string s = bytes;
    s[off] = static_cast<char>(s[off] ^ 0x10);
    return s;
  };

  // The trailer: chunk checksums and the ranks at the radius are covered by the trailer checksum.
  refused("chunk-sum.tsdb", flipped(trailer + 3), "checksum mismatch");
  refused("farthest.tsdb", flipped(trailer + 8 * chunks + 2), "checksum mismatch");
  refused("farthest2.tsdb", flipped(bytes.size() - 1), "checksum mismatch");
  refused("trailer-sum.tsdb", flipped(48), "header checksum mismatch");
  // The header.
  refused("header.tsdb", flipped(20), "header checksum mismatch");
  refused("header-pad.tsdb", flipped(200), "header checksum mismatch");
  refused("header-hist.tsdb", flipped(256 + 8 * 20), "header checksum mismatch");
  // Lengths.
  refused("short1.tsdb", bytes.substr(0, bytes.size() - 1), "truncated");
  refused("short-trailer.tsdb", bytes.substr(0, trailer + 8), "truncated");
  refused("short-payload.tsdb", bytes.substr(0, trailer), "truncated");
  refused("short-mid.tsdb", bytes.substr(0, kHeaderSize + 100), "truncated");
  refused("header-only.tsdb", bytes.substr(0, kHeaderSize), "truncated");
  refused("cut-header.tsdb", bytes.substr(0, 500), "truncated");
  refused("long1.tsdb", bytes + "x", "trailing data");
  refused("long8.tsdb", bytes + std::string(8, '\0'), "trailing data");
  refused("long-page.tsdb", bytes + std::string(4096, '\0'), "trailing data");

  // Headers that lie, with both checksums recomputed: every field is checked on its own.
  auto lie = [&](auto&& edit) {
    std::string s = bytes;
    edit(s);
    reseal_trailer(s);
    return s;
  };
  refused("entries.tsdb", lie([](std::string& s) { put_at<std::uint64_t>(s, 24, get_at<std::uint64_t>(s, 24) + 32); }),
          "entries");
  refused("entries-small.tsdb", lie([](std::string& s) { put_at<std::uint64_t>(s, 24, 20160); }), "entries");
  refused("chunk-count.tsdb", lie([](std::string& s) { put_at<std::uint64_t>(s, 144, 2); }), "chunk");
  refused("chunk-count0.tsdb", lie([](std::string& s) { put_at<std::uint64_t>(s, 144, 0); }), "chunk");
  refused("chunk-log2.tsdb", lie([](std::string& s) { put_at<std::uint32_t>(s, 136, 40); }), "chunk");
  refused("width.tsdb", lie([](std::string& s) { s[17] = 4; }), "");
  refused("height.tsdb", lie([](std::string& s) { s[18] = 2; }), "");
  refused("bits.tsdb", lie([](std::string& s) { s[19] = 8; }), "entry width");
  refused("bits-other.tsdb", lie([=](std::string& s) { s[19] = static_cast<char>(3 - bits); }), "entry width");
  refused("kind1.tsdb", lie([](std::string& s) { s[16] = static_cast<char>(kKindDistanceTable); }), "");
  // The other width's kind (and its entry width): the payload is of the wrong size for it.
  refused("kind-other.tsdb", lie([=](std::string& s) {
            s[16] = static_cast<char>(bits == 2 ? kKindOneBitTable : kKindTwoBitTable);
            s[19] = static_cast<char>(3 - bits);
          }),
          "payload");
  refused("kind6.tsdb", lie([](std::string& s) { s[16] = static_cast<char>(kKindZeroAwareDatabase); }), "");
  refused("kind7.tsdb", lie([](std::string& s) { s[16] = 7; }), "unknown table kind 7");
  refused("payload-size.tsdb", lie([](std::string& s) { put_at<std::uint64_t>(s, 40, get_at<std::uint64_t>(s, 40) + 8); }),
          "payload");
  refused("far-count.tsdb", lie([](std::string& s) { put_at<std::uint32_t>(s, 140, 1); }), "");
  refused("far-count-cut.tsdb", lie([](std::string& s) {  // one rank at the radius listed, the file to match
            put_at<std::uint32_t>(s, 140, 1);
            s.resize(s.size() - 8);
          }),
          "states at the radius");
  refused("far-count-big.tsdb", lie([](std::string& s) { put_at<std::uint32_t>(s, 140, 5000); }), "");
  refused("radius.tsdb", lie([](std::string& s) { put_at<std::uint32_t>(s, 20, 30); }), "histogram");
  refused("histogram.tsdb", lie([](std::string& s) { put_at<std::uint64_t>(s, 256 + 8 * 5, get_at<std::uint64_t>(s, 256 + 8 * 5) + 1); }),
          "histogram");
  refused("far-order.tsdb", lie([&](std::string& s) {
            const auto a = get_at<std::uint64_t>(s, trailer + 8 * chunks), c = get_at<std::uint64_t>(s, trailer + 8 * chunks + 8);
            put_at<std::uint64_t>(s, trailer + 8 * chunks, c);
            put_at<std::uint64_t>(s, trailer + 8 * chunks + 8, a);
          }),
          "rank");
  refused("far-range.tsdb", lie([&](std::string& s) { put_at<std::uint64_t>(s, trailer + 8 * chunks + 8, 181440); }), "rank");
  // A header that is sound but for a newer format, and foreign files.
  refused("version.tsdb", lie([](std::string& s) { put_at<std::uint32_t>(s, 8, kFormatVersion + 1); }), "format version");
  refused("empty.tsdb", "", "not a tilespace database");
  refused("text.tsdb", std::string(6000, 'a'), "not a tilespace database");

  // A lying goal that loads (a relabelled goal is a valid header) is refused as a table.
  {
    const auto p = dir / "goal-swap.tsdb";
    testing::write_file(p, lie([](std::string& s) { std::swap(s[72], s[73]); }));
    try {
      DistanceTable::from_database(load_database(p));
      FAIL("a table of a non-canonical goal was accepted");
    } catch (const DataError&) {
    }
  }
}

// A single-chunk table whose chunk checksum is wrong but every other checksum recomputed: the
// load succeeds (the payload is not read), the first lookup fails, and so does verify_all.
void check_replaced_chunk_sum(int bits) {
  TempDir dir;
  const Board b(2, 5);
  const DistanceTable t = build_bits(b, 9, bits);
  const auto p = dir / "t.tsdb";
  save_database(p, t.info(), t.payload());
  std::string bytes = testing::read_file(p);
  const std::size_t trailer = kHeaderSize + get_at<std::uint64_t>(bytes, 40);
  put_at<std::uint64_t>(bytes, trailer, get_at<std::uint64_t>(bytes, trailer) ^ 1);
  reseal_trailer(bytes);
  testing::write_file(p, bytes);
  LoadedDatabase db = load_database(p);
  const auto verifier = db.chunks;
  const DistanceTable u = DistanceTable::from_database(std::move(db));
  CHECK(verifier->verified() == 0);
  const State goal = canonical_goal(b, 9);
  std::mt19937_64 rng(5);
  const State s = testing::random_walk(goal, 101, rng);
  CHECK_THROWS_WITH(u.distance(s, goal), Contains(p.string()) && Contains("chunk 0"));
  CHECK_THROWS_AS(u.descend(s, goal), DataError);
  CHECK_THROWS_AS(u.depth_of_rank(0), DataError);
  CHECK_THROWS_WITH(u.verify_all(), Contains(p.string()) && Contains("chunk 0"));
  CHECK(verifier->verified() == 0);
  CHECK(u.distance(goal, goal) == 0);  // the goal needs no field
}

}  // namespace

TEST_CASE("two-bit database: corrupt, truncated, extended and lying files are refused at load", "[two-bit][database]") {
  check_refused_at_load(2);
}

TEST_CASE("one-bit database: corrupt, truncated, extended, lying and foreign files are refused at load",
          "[two-bit][one-bit][database]") {
  check_refused_at_load(1);
}

TEST_CASE("two-bit database: a chunk whose checksum was replaced is caught on first touch", "[two-bit][database]") {
  check_replaced_chunk_sum(2);
}

TEST_CASE("one-bit database: a chunk whose checksum was replaced is caught on first touch",
          "[two-bit][one-bit][database]") {
  check_replaced_chunk_sum(1);
}

// Found by fuzzing (tests/fuzz/fuzz_table): on a table whose values lie behind valid checksums,
// descend could return a "path" that does not end at the goal (a two-bit descent choosing another
// closer neighbour than the length's, a byte table with a depth 0 off the goal), which `solve
// --algorithm table` printed as a solution. Now such a descent is a DataError.
TEST_CASE("descend on a lying table ends at the goal or throws DataError, byte, two-bit and one-bit",
          "[two-bit][one-bit][database]") {
  const Board b(2, 3);
  const int blank = 5;
  const State goal = canonical_goal(b, blank);
  const DistanceTable bytes = DistanceTable::build(b, blank);
  const DistanceTable two = DistanceTable::build_two_bit(b, blank, {});
  const Ranker& ranker = bytes.ranker();
  const Labelling lab(goal);
  auto state_of = [&](std::uint64_t r) {
    std::array<std::uint8_t, kMaxCells> tile_of{};
    for (int t = 1; t < goal.cells(); ++t) tile_of[lab.label[t]] = static_cast<std::uint8_t>(t);
    Sequence seq{};
    const int bl = ranker.unrank(r, seq);
    State s{b, {}, bl};
    for (int c = 0, k = 0; c < b.cells(); ++c)
      if (c != bl) s.tiles[c] = tile_of[seq[k++]];
    return s;
  };
  // Every descent of a table: a path of its length to the goal, or a DataError.
  auto descents_sound = [&](const DistanceTable& t) {
    for (std::uint64_t r = 0; r < ranker.size(); ++r) {
      const State s = state_of(r);
      try {
        const auto d = t.distance(s, goal);
        const std::vector<State> path = t.descend(s, goal);
        if (!d || path.size() != static_cast<std::size_t>(*d) + 1 || !(path.back() == goal)) return false;
      } catch (const DataError&) {
      }
    }
    return true;
  };
  REQUIRE(descents_sound(bytes));
  REQUIRE(descents_sound(two));

  {  // a byte table with a second depth 0
    auto depths = std::make_shared<std::vector<std::uint8_t>>(bytes.depths().begin(), bytes.depths().end());
    const State off = goal.moved(blank - 1);
    (*depths)[ranker.rank(lab.sequence(off), off.blank)] = 0;
    const DistanceTable lying(ranker, *depths, bytes.histogram(), depths);
    CHECK_THROWS_WITH(lying.descend(off, goal), Contains("does not end at the goal"));
    CHECK(descents_sound(lying));
  }
  // The ranks whose field (bit) is made to lie: every one; under the sanitizers (each lying table
  // is a descent from all 360 states: 77 s there for every rank) every 5th, which still takes
  // every word and every position in a word (5 is prime to 32 and 64, and 72 ranks > 64).
  const std::uint64_t stride = testing::kSanitized ? 5 : 1;
  // Two-bit tables with one field changed, every field and value in turn.
  const std::vector<std::uint64_t> fields(two.fields().begin(), two.fields().end());
  for (std::uint64_t r = 0; r < ranker.size(); r += stride) {
    for (std::uint64_t v = 0; v < 4; ++v) {
      auto f = std::make_shared<std::vector<std::uint64_t>>(fields);
      const unsigned shift = 2 * (r & 31);
      if (((fields[r >> 5] >> shift) & 3u) == v) continue;
      (*f)[r >> 5] = ((*f)[r >> 5] & ~(std::uint64_t{3} << shift)) | (v << shift);
      const DistanceTable lying(ranker, *f, two.histogram(), {}, f, nullptr);
      INFO("rank " << r << " set to " << v);
      REQUIRE(descents_sound(lying));
    }
  }
  // One-bit tables with one bit flipped, every bit in turn.
  const DistanceTable one = DistanceTable::build_two_bit(b, blank, {}, nullptr, nullptr, 1);
  REQUIRE(descents_sound(one));
  const std::vector<std::uint64_t> bits(one.one_bits().begin(), one.one_bits().end());
  for (std::uint64_t r = 0; r < ranker.size(); r += stride) {
    auto f = std::make_shared<std::vector<std::uint64_t>>(bits);
    (*f)[r >> 6] ^= std::uint64_t{1} << (r & 63);
    const DistanceTable lying(ranker, *f, one.histogram(), {}, f, nullptr, 1);
    INFO("rank " << r << " flipped");
    REQUIRE(descents_sound(lying));
  }
}

namespace {

// The 3x4 two-bit (`bits` 2) or one-bit (1) table with one flipped field (bit) in a middle chunk:
// the lookups that read that chunk fail, the others answer, in one thread or several, and through
// the CLI.
void check_flipped_chunk(int bits) {
  TempDir dir;
  const Board b(3, 4);
  const int blank = 11;
  const DistanceTable& built = *built_two_bit(b, blank, bits).table;
  REQUIRE(built.bits() == bits);
  const std::uint64_t per_word = 64 / static_cast<unsigned>(bits);  // ranks a word
  auto chunk_of = [&](std::uint64_t r) { return (r / per_word) * 8 >> 20; };
  StoreOptions so;
  so.dir = dir / "db";
  const TableStore names(so);
  const auto bad = names.path_for(b, blank);  // where the CLI looks for it
  const auto good = dir / "good.tsdb";
  save_database(good, built.info(), built.payload());
  const std::uint64_t payload = built.payload().size();
  const std::uint64_t chunks = (payload + (1u << 20) - 1) >> 20;
  REQUIRE(chunks >= 20);
  const State goal = canonical_goal(b, blank);
  std::mt19937_64 rng(4404);

  // The good file: loading reads no chunk; a lookup near the goal reads a few; verify_all all.
  {
    LoadedDatabase db = load_database(good);
    const auto verifier = db.chunks;
    REQUIRE(verifier);
    CHECK(verifier->chunks() == chunks);
    CHECK(verifier->verified() == 0);
    const DistanceTable t = DistanceTable::from_database(std::move(db));
    const State s = goal.moved(blank - 1);
    CHECK(t.distance(s, goal) == 1);
    CHECK(verifier->verified() >= 1);
    CHECK(verifier->verified() < chunks);
    t.verify_all(2);
    CHECK(verifier->verified() == chunks);
  }

  // Flip the field (bit) of one rank in the middle chunk: a lookup of that rank would otherwise
  // read a wrong field.
  const std::uint64_t c = chunks / 2;
  const std::uint64_t word = c * ((1u << 20) / 8) + 777;
  const std::uint64_t r0 = word * per_word + 13;
  REQUIRE(r0 < built.ranker().size());
  REQUIRE(chunk_of(r0) == c);
  const auto bit = static_cast<unsigned>(static_cast<std::uint64_t>(bits) * (r0 % per_word));  // of the word
  const std::size_t byte = kHeaderSize + word * 8 + bit / 8;
  std::filesystem::create_directories(bad.parent_path());
  {
    std::string bytes = testing::read_file(good);
    bytes[byte] = static_cast<char>(bytes[byte] ^ (((1 << bits) - 1) << (bit % 8)));
    testing::write_file(bad, bytes);
  }
  const std::string chunk_name = "chunk " + std::to_string(c);
  const State s0 = GoalTable(built, goal.blank).state_of_rank(r0, goal);
  const int d0 = built.depth_of_rank(r0);
  {
    LoadedDatabase db = load_database(bad);  // loads: the payload is not read at load
    const auto verifier = db.chunks;
    const DistanceTable t = DistanceTable::from_database(std::move(db));
    CHECK_THROWS_WITH(t.distance(s0, goal), Contains(bad.string()) && Contains(chunk_name));
    CHECK_THROWS_WITH(t.distance(s0, goal), Contains(chunk_name));  // and again: never marked good
    CHECK_THROWS_AS(t.depth_of_rank(r0), DataError);
    CHECK_THROWS_AS(t.descend(s0, goal), DataError);

    // Other lookups: a right answer, or a DataError naming that chunk when their descent reads it.
    int answered = 0, refused = 0, own_chunk = 0, near_answered = 0;
    for (int i = 0; i < 600; ++i) {
      const State s = i < 300 ? near_goal(goal, 1 + i % 12, rng) : testing::random_walk(goal, 500, rng);
      const std::uint64_t r = t.ranker().rank(Labelling(goal).sequence(s), s.blank);
      const auto want = built.distance(s, goal);
      try {
        const auto got = t.distance(s, goal);
        CHECK(got == want);
        CHECK(chunk_of(r) != c);  // its own chunk is always read
        ++answered;
        near_answered += i < 300;
      } catch (const DataError& e) {
        CHECK_THAT(std::string(e.what()), Contains(chunk_name) && Contains(bad.string()));
        ++refused;
        own_chunk += chunk_of(r) == c;
      }
    }
    INFO("answered " << answered << " (" << near_answered << " near the goal), refused " << refused << " ("
                      << own_chunk << " in the corrupt chunk)");
    CHECK(near_answered >= 290);  // the states near the goal (almost) never read the middle chunk
    CHECK(refused >= own_chunk);
    CHECK(refused > 0);
    CHECK(verifier->verified() < chunks);
    CHECK_THROWS_WITH(t.verify_all(2), Contains(chunk_name) && Contains(bad.string()));
    CHECK_THROWS_WITH(t.verify_all(1), Contains(chunk_name));
    CHECK(t.distance(goal.moved(blank - 3), goal) == 1);  // still answering elsewhere
    CHECK_THROWS_AS(t.distance(s0, goal), DataError);
  }
  {
    // Lookups from several threads at once on a fresh mapping: the corrupt chunk fails every one
    // that reads it, the others answer right.
    const DistanceTable t = DistanceTable::from_database(load_database(bad));
    std::vector<State> starts;
    for (int i = 0; i < 400; ++i) starts.push_back(i % 4 == 0 ? s0 : near_goal(goal, 1 + i % 10, rng));
    std::vector<std::vector<int>> outcome(4);  // per thread: -2 DataError naming the chunk, -3 other, else distance
    std::vector<std::thread> pool;
    for (int k = 0; k < 4; ++k)
      pool.emplace_back([&, k] {
        for (std::size_t i = static_cast<std::size_t>(k); i < starts.size(); i += 2) {
          try {
            outcome[k].push_back(t.distance(starts[i], goal).value_or(-1));
          } catch (const DataError& e) {
            outcome[k].push_back(std::string(e.what()).find(chunk_name) != std::string::npos ? -2 : -3);
          } catch (...) {
            outcome[k].push_back(-3);
          }
        }
      });
    for (auto& th : pool) th.join();
    for (int k = 0; k < 4; ++k) {
      std::size_t j = 0;
      for (std::size_t i = static_cast<std::size_t>(k); i < starts.size(); i += 2, ++j) {
        INFO("thread " << k << ", start " << starts[i].to_string());
        if (starts[i] == s0) {
          CHECK(outcome[k].at(j) == -2);
        } else {
          CHECK(outcome[k].at(j) != -3);
          if (outcome[k].at(j) != -2) CHECK(outcome[k].at(j) == built.distance(starts[i], goal).value_or(-1));
        }
      }
    }
  }

  // Through the CLI: exit 3, one line naming the file, no distance.
  const std::string board = " --board 3x4 --db '" + (dir / "db").string() + "'";
  auto r = run_cli("query '" + tiles_text(s0) + "'" + board, dir.path);
  CHECK(r.rc == kExitData);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Contains(bad.string()) && Contains(chunk_name));
  CHECK(one_line(r.err));
  r = run_cli("query '" + tiles_text(s0) + "' --json" + board, dir.path);
  CHECK(r.rc == kExitData);
  CHECK(r.out.empty());
  r = run_cli("query '" + tiles_text(goal.moved(blank - 1)) + "'" + board, dir.path);
  CHECK(r.rc == 0);
  CHECK(r.out == "1\n");
  r = run_cli("query --batch -" + board, dir.path, tiles_text(goal.moved(blank - 1)) + "\n" + tiles_text(s0) + "\n");
  CHECK(r.rc == kExitData);
  CHECK(r.out.find(std::to_string(d0)) == std::string::npos);
  CHECK_THAT(r.err, Contains(chunk_name));
  r = run_cli("solve -a table '" + tiles_text(s0) + "'" + board, dir.path);
  CHECK(r.rc == kExitData);
  CHECK(r.out.empty());
  // The good file under the CLI's name answers the same state.
  std::filesystem::copy_file(good, bad, std::filesystem::copy_options::overwrite_existing);
  r = run_cli("query '" + tiles_text(s0) + "'" + board, dir.path);
  CHECK(r.rc == 0);
  CHECK(r.out == std::to_string(d0) + "\n");
}

}  // namespace

TEST_CASE("two-bit database: a flipped payload byte fails the lookups that read its chunk, not the others",
          "[two-bit][database][big]") {
  check_flipped_chunk(2);
}

TEST_CASE("one-bit database: a flipped payload bit fails the lookups that read its chunk, not the others",
          "[two-bit][one-bit][database][big]") {
  check_flipped_chunk(1);
}

namespace {

// Truncated, foreign and corrupt two-bit (`bits` 2) or one-bit (1) files under the name the CLI
// looks for: exit 3 with one line naming the file, from query, query --batch and solve -a table.
void check_bad_files_through_cli(int bits) {
  TempDir dir;
  REQUIRE(run_cli("build --board 3x3 --bits " + std::to_string(bits) + " --db d", dir.path).rc == 0);
  const auto db = dir / "d/3x3-123456780.tsdb";
  const std::string bytes = testing::read_file(db);
  REQUIRE(std::uint8_t(bytes[16]) == (bits == 2 ? kKindTwoBitTable : kKindOneBitTable));
  struct BadFile {
    std::string name, content, says;
  };
  // A 2x5 table of the same width under the 3x3 name.
  const DistanceTable other = build_bits(Board(2, 5), 9, bits);
  save_database(dir / "other.tsdb", other.info(), other.payload());
  std::string chunk = bytes;
  chunk[kHeaderSize + 4000] = static_cast<char>(chunk[kHeaderSize + 4000] ^ 0x55);
  std::string magic = bytes;
  magic[1] = 'X';
  std::string kind = bytes;  // the other width's kind, its header checksum recomputed
  kind[16] = static_cast<char>(bits == 2 ? kKindOneBitTable : kKindTwoBitTable);
  kind[19] = static_cast<char>(3 - bits);
  reseal_header(kind);
  for (const BadFile& c : {BadFile{"truncated", bytes.substr(0, bytes.size() - 9), "truncated"},
                        BadFile{"damaged magic", magic, "header checksum mismatch: the header is corrupt"},
                        BadFile{"other kind", kind, "payload"},
                        BadFile{"truncated payload", bytes.substr(0, kHeaderSize + 1000), "truncated"},
                        BadFile{"appended", bytes + "junk", "trailing data"},
                        BadFile{"foreign", testing::read_file(dir / "other.tsdb"), "another board"},
                        BadFile{"garbage", std::string(9000, 'z'), "not a tilespace database"},
                        BadFile{"corrupt chunk", chunk, "chunk 0"}}) {
    INFO(c.name);
    testing::write_file(db, c.content);
    for (const char* args : {"query '8 6 7 2 5 4 3 0 1' --db d", "query --batch - --db d", "solve -a table 867254301 --db d"}) {
      INFO(args);
      const auto r = run_cli(args, dir.path, "8 6 7 2 5 4 3 0 1\n");
      CHECK(r.rc == kExitData);
      CHECK(r.out.empty());
      CHECK_THAT(r.err, Contains(db.string().substr(dir.path.string().size() + 1)) && Contains(c.says));
      CHECK(one_line(r.err));
    }
  }
}

}  // namespace

TEST_CASE("cli: truncated, foreign and corrupt two-bit files are exit 3 naming the file", "[two-bit][cli]") {
  check_bad_files_through_cli(2);
}

TEST_CASE("cli: truncated, foreign and corrupt one-bit files are exit 3 naming the file", "[two-bit][one-bit][cli]") {
  check_bad_files_through_cli(1);
}

// ---------------------------------------------------------------------------------------------
// 7. The CLI on two-bit tables.

TEST_CASE("cli: build --bits chooses the engine and refuses what does not apply or fit", "[two-bit][cli]") {
  TempDir dir;
  auto r = run_cli("build --board 3x3 --bits 2 --db two", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Contains("2 bits") && Contains("radius 31") && Contains("181440 states"));
  CHECK(std::uint8_t(testing::read_file(dir / "two/3x3-123456780.tsdb")[16]) == kKindTwoBitTable);
  r = run_cli("build --board 3x3 --bits 8 --db byte", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Contains("8 bits"));
  CHECK(std::uint8_t(testing::read_file(dir / "byte/3x3-123456780.tsdb")[16]) == kKindDistanceTable);
  r = run_cli("build --board 2x3 --bits 2 --json --db two", dir.path);
  REQUIRE(r.rc == 0);
  const auto j = json::parse(r.out);
  CHECK(j.at(0)["bits"] == 2);
  CHECK(j.at(0)["radius"] == 21);
  r = run_cli("build --board 2x3 --bits 2 --all-goals --db all", dir.path);
  REQUIRE(r.rc == 0);
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir / "all")) {
    ++files;
    CHECK(e.path().extension() == ".tsdb");
    CHECK(std::uint8_t(testing::read_file(e.path())[16]) == kKindTwoBitTable);
  }
  CHECK(files == 2);  // one per blank class: the corners, the middle row

  // The byte engine takes no checkpoint options.
  for (const char* args : {"build --bits 8 --resume --db x", "build --board 3x3 --bits 8 --checkpoint-every 5 --db x",
                           "build --board 2x3 --resume --db x", "build --bits 4 --db x", "build --bits 2 --checkpoint-every -1 --db x"}) {
    INFO(args);
    r = run_cli(args, dir.path);
    CHECK(r.rc == kExitInput);
    CHECK(one_line(r.err));
    CHECK(r.out.empty());
  }
  CHECK_FALSE(std::filesystem::exists(dir / "x"));

  // 4x4 in two bits needs its fields, ceil(16!/2 / 32) words, and the two bitmaps of one bit a
  // block of 512 words (bfs.hpp), and less than 256 MiB besides (the rings): exit 4, naming them.
  const std::uint64_t states = published(Board(4, 4), "corner").states;
  const std::uint64_t words = (states + 31) / 32, marks = 2 * (((words + 511) / 512 + 63) / 64) * 8;
  const std::uint64_t need = DistanceTable::build_bytes(Board(4, 4), Engine::two_bit);
  CHECK(need >= words * 8 + marks);
  CHECK(need < words * 8 + marks + (256u << 20));
  r = run_cli("build --board 4x4 --bits 2 --db x", dir.path);
  CHECK(r.rc == kExitResource);
  CHECK_THAT(r.err, Contains("4x4") && Contains(std::to_string(need)) && Contains("two-bit"));
  CHECK(one_line(r.err));
  CHECK_FALSE(std::filesystem::exists(dir / "x/4x4-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-0.tsdb"));
  CHECK_THROWS_AS(DistanceTable::choose_engine(Board(4, 4), Engine::two_bit), ResourceError);
  CHECK(DistanceTable::choose_engine(Board(3, 3)) == Engine::byte);
  CHECK(DistanceTable::choose_engine(Board(3, 3), Engine::two_bit) == Engine::two_bit);
  // The automatic choice for 2x7: two bits where its byte table does not fit but its fields do.
  const std::uint64_t mem = physical_memory();
  const std::uint64_t b27 = DistanceTable::build_bytes(Board(2, 7), Engine::byte),
                      t27 = DistanceTable::build_bytes(Board(2, 7), Engine::two_bit);
  CHECK(t27 < b27 / 3);
  if (mem && t27 < mem / 10 * 9 && b27 > mem / 10 * 9) CHECK(DistanceTable::choose_engine(Board(2, 7)) == Engine::one_bit);
  CHECK(DistanceTable::build_bytes(Board(2, 7), Engine::one_bit) == t27);  // the same search
}

namespace {

// A command's text with its times ("0.009 s") and peak memory blanked (as without_timing drops
// peak_bytes: a table a search reads counts in it, and the one-bit table is half the two-bit one).
std::string untimed(const std::string& text) {
  static const std::regex seconds("[0-9]+\\.[0-9]+ s\\b");
  static const std::regex memory("peak memory [0-9]+\\.[0-9] KiB");
  return std::regex_replace(std::regex_replace(text, seconds, "# s"), memory, "peak memory # KiB");
}

// The JSON of a command without its timing fields.
json without_timing(json j) {
  if (j.is_object()) {
    for (const char* k : {"seconds", "peak_bytes", "elapsed"}) j.erase(k);
    for (auto& [k, v] : j.items()) v = without_timing(v);
  } else if (j.is_array()) {
    for (auto& v : j) v = without_timing(v);
  }
  return j;
}

}  // namespace

TEST_CASE("cli: query, batch, stats, solve and verify answer alike on two-bit and byte tables", "[two-bit][cli]") {
  TempDir dir;
  REQUIRE(run_cli("build --board 3x3 --bits 2 --db two", dir.path).rc == 0);
  REQUIRE(run_cli("build --board 3x3 --bits 8 --db byte", dir.path).rc == 0);
  REQUIRE(run_cli("build --board 2x4 --bits 2 --db two", dir.path).rc == 0);
  REQUIRE(run_cli("build --board 2x4 --bits 8 --db byte", dir.path).rc == 0);
  auto same = [&](const std::string& args, const std::string& input = "") {
    INFO(args);
    const auto a = run_cli(args + " --db two", dir.path, input);
    const auto b = run_cli(args + " --db byte", dir.path, input);
    CHECK(a.rc == b.rc);
    CHECK(a.out == b.out);
    CHECK(a.err == b.err);
    CHECK_FALSE(a.out.empty());
    return a;
  };
  std::mt19937_64 rng(7007);
  const Board b33(3, 3);
  const State goal = canonical_goal(b33, 8);
  // Each run of the command is a process start (slow under ASan): the goal and three walks.
  for (int i = 0; i < 4; ++i) {
    const State s = i == 0 ? goal : testing::random_walk(goal, 100 + i, rng);
    same("query '" + s.to_string() + "'");
    same("query '" + s.to_string() + "' --json");
    const State g = random_goal(b33, 8, rng);  // another goal with its blank on cell 8
    same("query '" + s.to_string() + "' --goal '" + g.to_string() + "' --lang zh");
  }
  same("query '1 2 3 4 5 6 8 7 0'");  // unreachable: exit 1
  same("query '8 6 7 2 5 4 3 0 1'");
  same("query '2 1 4 3 6 5 0 7' --board 2x4");

  // A batch of 400 lines: starts, goals of blank cell 8, unreachable and bad lines.
  std::string batch;
  for (int i = 0; i < 400; ++i) {
    const State g = random_goal(b33, 8, rng);
    if (i % 50 == 7) {
      batch += "1 2 3 4 5 6 7 7 0\n";
    } else if (i % 3 == 0) {
      batch += testing::random_state(b33, rng).to_string() + "\n";
    } else if (i % 3 == 1) {
      batch += testing::random_walk(g, 60 + i, rng).to_string() + " " + g.to_string() + "\n";
    } else {
      batch += testing::random_walk(goal, 60 + i, rng).compact() + "\n";
    }
  }
  testing::write_file(dir / "batch.txt", batch);
  auto r = same("query --batch " + (dir / "batch.txt").string());
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 400);
  CHECK(r.rc == kExitInput);  // the bad lines
  CHECK_THAT(r.out, Contains("unreachable"));
  same("query --batch - --json", batch);

  // stats (text and JSON) and solve -a table (JSON without the timing fields, and the trace).
  same("stats");
  same("stats --board 2x4");
  for (const std::string board : {"", " --board 2x4"}) {
    const auto a = run_cli("stats --json" + board + " --db two", dir.path);
    const auto b = run_cli("stats --json" + board + " --db byte", dir.path);
    REQUIRE(a.rc == 0);
    CHECK(json::parse(a.out) == json::parse(b.out));
    CHECK(json::parse(a.out)["farthest"].size() == json::parse(a.out)["farthest_count"].get<std::size_t>());
  }
  for (int i = 0; i < 3; ++i) {
    const State g = random_goal(b33, 8, rng);
    const State s = testing::random_walk(g, 201 + i, rng);
    const std::string args = "solve -a table '" + s.to_string() + "' --goal '" + g.to_string() + "'";
    INFO(args);
    const auto a = run_cli(args + " --json --trace ta.json --db two", dir.path);
    const auto b = run_cli(args + " --json --trace tb.json --db byte", dir.path);
    REQUIRE(a.rc == 0);
    REQUIRE(b.rc == 0);
    CHECK(without_timing(json::parse(a.out)) == without_timing(json::parse(b.out)));
    CHECK(without_timing(json::parse(testing::read_file(dir / "ta.json"))) ==
          without_timing(json::parse(testing::read_file(dir / "tb.json"))));
    // A* with the exact heuristic reads the table too.
    const std::string exact = "solve -a astar --heuristic exact '" + s.to_string() + "' --goal '" + g.to_string() + "' --json";
    const auto ea = run_cli(exact + " --db two", dir.path), eb = run_cli(exact + " --db byte", dir.path);
    REQUIRE(ea.rc == 0);
    CHECK(without_timing(json::parse(ea.out)) == without_timing(json::parse(eb.out)));
    CHECK(json::parse(ea.out)["length"] == json::parse(a.out)["length"]);
    const auto ta = run_cli(args + " --db two", dir.path), tb = run_cli(args + " --db byte", dir.path);
    CHECK(ta.rc == tb.rc);
    CHECK(ta.out.substr(0, ta.out.find('\n')) == tb.out.substr(0, tb.out.find('\n')));  // "N moves: ..."
  }

  // The solver lab against the two-bit table.
  r = run_cli("verify --db two --sample 300 --algorithms astar:manhattan --json", dir.path);
  REQUIRE(r.rc == 0);
  const auto j = json::parse(r.out);
  REQUIRE(j.size() == 1);
  CHECK(j[0]["states"] == 300);
  CHECK(j[0]["failed"] == 0);
  CHECK(j[0]["ok"] == true);
  CHECK(j[0]["optimal"] == 300);
  const auto jb = json::parse(run_cli("verify --db byte --sample 300 --algorithms astar:manhattan --json", dir.path).out);
  CHECK(without_timing(j) == without_timing(jb));
  r = run_cli("verify --db two --sample 300 --algorithms astar:manhattan", dir.path);
  CHECK(r.rc == 0);

  // Nothing was rebuilt: the two-bit folder holds its two tables, both two-bit.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir / "two")) {
    ++files;
    CHECK(std::uint8_t(testing::read_file(e.path())[16]) == kKindTwoBitTable);
  }
  CHECK(files == 2);
}

TEST_CASE("cli: build --bits 1, the default and --bits 2 write one-bit, byte and two-bit files, kept if of the width asked",
          "[two-bit][one-bit][cli]") {
  TempDir dir;
  const Board b(2, 5);
  const std::string file = "2x5-1234567890.tsdb";
  const Published& want = published(b, "corner");
  const std::uint64_t n = want.states, far = want.counts.back() <= kFarthestKept ? want.counts.back() : 0;
  auto size_of = [&](std::uint64_t payload) { return kHeaderSize + payload + 8 * (((payload + (1u << 20) - 1) >> 20) + far); };
  auto kind_of = [&](const std::string& folder) { return std::uint8_t(testing::read_file(dir / folder / file).at(16)); };

  auto r = run_cli("build --board 2x5 --bits 1 --db one", dir.path);
  REQUIRE(r.rc == 0);
  CHECK(r.out == "built one/" + file + ": 1814400 states, radius 55, 1 bit, " + r.out.substr(r.out.rfind(", ") + 2));
  CHECK(kind_of("one") == kKindOneBitTable);
  CHECK(std::filesystem::file_size(dir / "one" / file) == size_of((n + 63) / 64 * 8));
  r = run_cli("build --board 2x5 --bits 2 --db two", dir.path);
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Contains("2 bits"));
  CHECK(kind_of("two") == kKindTwoBitTable);
  CHECK(std::filesystem::file_size(dir / "two" / file) == size_of((n + 31) / 32 * 8));
  r = run_cli("build --board 2x5 --db byte", dir.path);  // the byte engine fits: a byte a state
  REQUIRE(r.rc == 0);
  CHECK_THAT(r.out, Contains("8 bits"));
  CHECK(kind_of("byte") == kKindDistanceTable);
  CHECK(std::filesystem::file_size(dir / "byte" / file) == kHeaderSize + n);
  // The default where the byte engine does not fit (2x5's needs 4.7 MB): one bit.
  r = run_cli("build --board 2x5 --max-memory 2M --json --db auto", dir.path);
  REQUIRE(r.rc == 0);
  auto j = json::parse(r.out);
  CHECK(j.at(0)["bits"] == 1);
  CHECK(j.at(0)["up_to_date"] == false);
  CHECK(kind_of("auto") == kKindOneBitTable);
  CHECK(testing::bytes_differ(testing::read_file(dir / "auto" / file), testing::read_file(dir / "one" / file)) == "");

  // The two-bit file is the library's two-bit table as saved before one-bit tables existed, and
  // the one-bit file the library's one-bit table.
  const DistanceTable two = build_bits(b, 9, 2), one = build_bits(b, 9, 1);
  save_database(dir / "lib2.tsdb", two.info(), two.payload());
  save_database(dir / "lib1.tsdb", one.info(), one.payload());
  CHECK(testing::bytes_differ(testing::read_file(dir / "two" / file), testing::read_file(dir / "lib2.tsdb")) == "");
  CHECK(testing::bytes_differ(testing::read_file(dir / "one" / file), testing::read_file(dir / "lib1.tsdb")) == "");

  // Up to date: any valid file without --bits, or one of the width asked for; another width is
  // rebuilt (--bits 2 then --bits 1 again: the same bytes as the first build).
  const std::string first = testing::read_file(dir / "one" / file);
  for (const auto& [args, kept, kind] : std::vector<std::tuple<std::string, bool, std::uint8_t>>{
           {"", true, kKindOneBitTable},
           {"--bits 1", true, kKindOneBitTable},
           {"--bits 2", false, kKindTwoBitTable},
           {"", true, kKindTwoBitTable},
           {"--bits 2", true, kKindTwoBitTable},
           {"--bits 1", false, kKindOneBitTable},
           {"--bits 8", false, kKindDistanceTable},
           {"--bits 1 --force", false, kKindOneBitTable}}) {
    INFO("build " << args);
    r = run_cli("build --board 2x5 --json --db one " + args, dir.path);
    REQUIRE(r.rc == 0);
    j = json::parse(r.out);
    CHECK(j.at(0)["up_to_date"] == kept);
    CHECK(j.at(0)["bits"] == (kind == kKindOneBitTable ? 1 : kind == kKindTwoBitTable ? 2 : 8));
    CHECK(kind_of("one") == kind);
  }
  CHECK(testing::bytes_differ(testing::read_file(dir / "one" / file), first) == "");
  // A checkpoint option applies to both widths of the two-bit engine.
  r = run_cli("build --board 2x5 --bits 1 --checkpoint-every 0 --force --db one", dir.path);
  CHECK(r.rc == 0);
  r = run_cli("build --board 2x5 --bits 8 --resume --db one", dir.path);
  CHECK(r.rc == kExitInput);
  CHECK_THAT(r.err, Contains("--bits 2 or 1"));
}

TEST_CASE("cli: query, batch, stats, solve, verify, check and random answer alike on one-bit and two-bit 2x5 tables",
          "[two-bit][one-bit][cli]") {
  TempDir dir;
  REQUIRE(run_cli("build --board 2x5 --bits 1 --db one", dir.path).rc == 0);
  REQUIRE(run_cli("build --board 2x5 --bits 2 --db two", dir.path).rc == 0);
  REQUIRE(run_cli("build --board 2x5 --bits 1 --goal '1 2 3 4 0 5 6 7 8 9' --db one", dir.path).rc == 0);
  REQUIRE(run_cli("build --board 2x5 --bits 2 --goal '1 2 3 4 0 5 6 7 8 9' --db two", dir.path).rc == 0);
  auto same = [&](const std::string& args, const std::string& input = "") {
    INFO(args);
    const auto a = run_cli(args + " --db one", dir.path, input);
    const auto b = run_cli(args + " --db two", dir.path, input);
    CHECK(a.rc == b.rc);
    CHECK(untimed(a.out) == untimed(b.out));
    CHECK(a.err == b.err);
    CHECK_FALSE(a.out.empty());
    return a;
  };
  auto same_json = [&](const std::string& args) {
    INFO(args);
    const auto a = run_cli(args + " --json --db one", dir.path);
    const auto b = run_cli(args + " --json --db two", dir.path);
    CHECK(a.rc == b.rc);
    CHECK(without_timing(json::parse(a.out)) == without_timing(json::parse(b.out)));
    return json::parse(a.out);
  };
  std::mt19937_64 rng(7009);
  const Board b(2, 5);
  const State goal = canonical_goal(b, 9), centre = canonical_goal(b, 4);
  // Each run of the command costs a process start and a table load (seconds under ASan): the
  // goal and three walks (one under the sanitizers), each through the three query forms.
  for (int i = 0; i < (testing::kSanitized ? 2 : 4); ++i) {
    const State s = i == 0 ? goal : testing::random_walk(goal, 100 + i, rng);
    same("query '" + s.to_string() + "' --board 2x5");
    same("query '" + s.to_string() + "' --board 2x5 --json");
    const State g = random_goal(b, 4, rng);  // another goal with its blank on cell 4
    same("query '" + testing::random_walk(g, 77 + i, rng).to_string() + "' --board 2x5 --goal '" + g.to_string() +
         "' --lang zh");
  }
  same("query '0 9 8 7 6 5 4 3 2 1' --board 2x5");
  same("query '1 2 3 4 5 6 7 8 0 9' --board 2x5 --goal '1 2 3 4 5 6 7 9 8 0'");  // unreachable: exit 1

  // A batch: starts, goals of both tables' blank cells, unreachable and bad lines.
  std::string batch;
  for (int i = 0; i < 300; ++i) {
    const State g = random_goal(b, i % 2 ? 9 : 4, rng);
    if (i % 50 == 7) {
      batch += "1 2 3 4 5 6 7 8 9 9\n";
    } else if (i % 3 == 0) {
      batch += testing::random_state(b, rng).to_string() + "\n";
    } else {
      batch += testing::random_walk(g, 60 + i, rng).to_string() + " " + g.to_string() + "\n";
    }
  }
  auto r = same("query --batch - --board 2x5", batch);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 300);
  CHECK(r.rc == kExitInput);
  same("query --batch - --board 2x5 --json", batch);

  // stats, solve -a table (and A* with the exact heuristic), verify, check, random at depths.
  same("stats --board 2x5");
  same("stats --board 2x5 --goal '1 2 3 4 0 5 6 7 8 9' --lang zh");
  const json st = same_json("stats --board 2x5");
  CHECK(st["histogram"] == json(published(b, "corner").counts));
  CHECK(st["farthest"].size() == st["farthest_count"].get<std::size_t>());
  std::string answers;
  // Both goals three times (under the sanitizers: the centre twice, the corner once); pairs 1 and
  // 4 claim one move too many.
  const int pairs = testing::kSanitized ? 3 : 6, wrong = pairs / 3;
  for (int i = 0; i < pairs; ++i) {
    const State g = i % 2 ? goal : centre;
    const State s = testing::random_walk(g, 301 + i, rng);
    const std::string pair = "'" + s.to_string() + "' --board 2x5 --goal '" + g.to_string() + "'";
    const json a = same_json("solve -a table " + pair);
    same_json("solve -a astar --heuristic exact " + pair);
    same("solve -a table " + pair);
    // check: the right length, one too many, and the moves themselves.
    const int len = a["length"].get<int>();
    answers += s.to_string() + "\t" + g.to_string() + "\t" + std::to_string(len + (i % 3 == 1)) + "\n";
    answers += s.to_string() + "\t" + g.to_string() + "\t" + a["moves"].get<std::string>() + "\n";
  }
  testing::write_file(dir / "answers.txt", answers);
  r = same("check answers.txt --board 2x5");
  CHECK(r.rc == 1);  // the wrong lengths
  const json ch = same_json("check answers.txt --board 2x5");
  CHECK(ch["failed_by_kind"]["wrong-length"] == wrong);
  CHECK(ch["passed"] == 2 * pairs - wrong);
  same_json("verify --board 2x5 --sample 50 --algorithms astar:manhattan");
  same_json("verify --board 2x5 --goal '1 2 3 4 0 5 6 7 8 9' --sample 30 --algorithms astar:manhattan");
  for (const std::string depth : {"20", "30", "34", "50", "55"})  // rejection, and the listed radius
    same("random --board 2x5 --count 20 --seed 11 --depth " + depth);
  for (const char* depth : {"0", "54"}) {  // too rare for rejection: refused on both
    const auto a = run_cli(std::string("random --board 2x5 --seed 11 --depth ") + depth + " --db one", dir.path);
    const auto t = run_cli(std::string("random --board 2x5 --seed 11 --depth ") + depth + " --db two", dir.path);
    CHECK(a.rc == kExitInput);
    CHECK(t.rc == kExitInput);
    CHECK_THAT(a.err, Contains("too rare to sample on a one-bit table"));
    CHECK_THAT(t.err, Contains("too rare to sample on a two-bit table"));
  }

  // Nothing was rebuilt: the folders hold their tables, of their widths.
  for (const auto& [folder, kind] : {std::pair<std::string, std::uint8_t>{"one", kKindOneBitTable}, {"two", kKindTwoBitTable}}) {
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir / folder)) {
      if (e.path().extension() != ".tsdb") continue;
      ++files;
      CHECK(std::uint8_t(testing::read_file(e.path())[16]) == kind);
    }
    CHECK(files == 2);
  }
}
