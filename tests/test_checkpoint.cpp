// Checkpoints of the two-bit engine (checkpoint.hpp): the round trip, a search continued from any
// layer ending byte-identical to an uninterrupted one, every foreign, truncated or corrupt
// checkpoint refused with a DataError naming the file; and `tilespace build --resume` killed with
// SIGKILL at random moments, never leaving a wrong database or a stray temporary file.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define XXH_INLINE_ALL  // header-only: the tests recompute checksums of files they patch
#define XXH_VECTOR 0    // scalar: the same hashes, without GCC 12's AVX-512 false warnings
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "child.hpp"
#include "support.hpp"
#include "tilespace/bfs.hpp"
#include "tilespace/checkpoint.hpp"
#include "tilespace/database.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/table_store.hpp"

using namespace tilespace;
using Catch::Matchers::Contains;
using testing::one_line;
using testing::run_cli;
using testing::TempDir;
using testing::Child;

using testing::get_at;
using testing::put_at;

namespace {

// A checkpoint as the engine hands it over between two layers.
struct Snapshot {
  TwoBitProgress progress;
  std::vector<std::uint64_t> fields;
};

// Runs the two-bit search of (b, blank) and copies the progress and fields (multi-tile: and the
// open bitmap) between every layer.
std::vector<Snapshot> snapshots(const Board& b, int blank, Metric metric = Metric::single) {
  std::vector<Snapshot> out;
  TwoBitOptions o;
  o.bfs.metric = metric;
  o.between_layers = [&](const TwoBitProgress& p, std::span<const std::uint64_t> f) {
    out.push_back({p, std::vector<std::uint64_t>(f.begin(), f.end())});
  };
  (void)DistanceTable::build_two_bit(b, blank, o);
  return out;
}

CheckpointSlice whole(const Ranker&) { return {}; }

// The words of `all` (a whole table's fields) that `slice` holds, in its order.
std::vector<std::uint64_t> held_words(std::span<const std::uint64_t> all, const CheckpointSlice& slice) {
  std::vector<std::uint64_t> out(slice.held(all.size()));
  slice.for_each_unit(all.size(), [&](std::uint64_t first, std::uint64_t local, std::uint64_t n) {
    std::copy_n(all.begin() + static_cast<std::ptrdiff_t>(first), n, out.begin() + static_cast<std::ptrdiff_t>(local));
  });
  return out;
}

// Recomputes a checkpoint's header checksum (checkpoint.hpp: offset 72, over the 4096-byte header
// with it zeroed), so that one lying field is met by the check of that field.
void reseal(std::string& bytes) { testing::reseal_header(bytes, 72); }

std::string load_error(const std::filesystem::path& p, const Ranker& r, const CheckpointSlice& slice,
                       Metric metric = Metric::single) {
  try {
    load_checkpoint(p, r, slice, metric);
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}


bool same_fields(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size_bytes()) == 0;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// 5. Checkpoint files.

TEST_CASE("checkpoints round-trip and a search continued from any layer ends identical", "[two-bit][checkpoint]") {
  TempDir dir;
  for (const auto& [b, blank] : std::vector<std::pair<Board, int>>{{Board(3, 3), 8}, {Board(3, 3), 4}, {Board(2, 5), 9}}) {
    INFO("board " << b.name() << ", goal blank " << blank);
    const Ranker ranker(b, blank);
    const DistanceTable clean = DistanceTable::build_two_bit(b, blank, {});
    const auto snaps = snapshots(b, blank);
    REQUIRE(snaps.size() == clean.histogram().size() - 1);
    // Every layer of 3x3; every 6th and the last of 2x5. Under the sanitizers, where each continued
    // search of 2x5 takes seconds, every 4th of 3x3 and every 18th of 2x5 (the Release run takes
    // the others).
    const std::size_t step = (b.cells() > 9 ? 6 : 1) * (testing::kSanitized ? (b.cells() > 9 ? 3 : 4) : 1);
    std::vector<std::size_t> picks;
    for (std::size_t i = 0; i < snaps.size(); i += step) picks.push_back(i);
    if (picks.back() != snaps.size() - 1) picks.push_back(snaps.size() - 1);
    for (const std::size_t i : picks) {
      const Snapshot& s = snaps[i];
      INFO("checkpoint before depth " << s.progress.next_layer);
      CHECK(s.progress.next_layer == static_cast<int>(i) + 1);
      const auto path = dir / (b.name() + "-" + std::to_string(blank) + "-" + std::to_string(i) + ".ckpt");
      save_checkpoint(path, ranker, s.progress, s.fields, whole(ranker));
      CHECK(std::filesystem::file_size(path) == kHeaderSize + 8 * two_bit_words(ranker));
      LoadedCheckpoint c = load_checkpoint(path, ranker, whole(ranker));
      CHECK(c.progress.next_layer == s.progress.next_layer);
      CHECK(c.progress.histogram == s.progress.histogram);
      CHECK(c.progress.pending == s.progress.pending);
      REQUIRE(c.fields);
      CHECK(same_fields(c.fields->span(), s.fields));

      // Continued from the checkpoint: the same fields, histogram and farthest states.
      std::vector<int> layers;
      TwoBitOptions o;
      o.bfs.threads = static_cast<int>(i % 3);
      o.bfs.on_layer = [&](const LayerReport& l) { layers.push_back(l.depth); };
      const DistanceTable t = DistanceTable::build_two_bit(b, blank, o, c.fields, &c.progress);
      CHECK(same_fields(t.fields(), clean.fields()));
      CHECK(t.histogram() == clean.histogram());
      CHECK(t.info().farthest == clean.info().farthest);
      REQUIRE_FALSE(layers.empty());
      CHECK(layers.front() == s.progress.next_layer);  // no layer is expanded twice
      CHECK(layers.back() == clean.radius());
    }
  }
  // No temporary file is left next to the checkpoints.
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) CHECK(e.path().extension() == ".ckpt");
}

// Both widths of the two-bit engine's table: a one-bit build continues the same checkpoint and packs.
TEST_CASE("the store resumes from a checkpoint only with resume, and removes it once the table is saved",
          "[two-bit][one-bit][checkpoint]") {
  TempDir dir;
  const Board b(2, 5);
  const Ranker ranker(b, 9);
  const auto snaps = snapshots(b, 9);
  const Snapshot& mid = snaps.at(snaps.size() / 2);
  for (const int bits : {2, 1}) {
    // The table built without a checkpoint, once for both runs of this width.
    const DistanceTable clean = DistanceTable::build_two_bit(b, 9, {}, nullptr, nullptr, bits);
    save_database(dir / "clean.tsdb", clean.info(), clean.payload());
    const std::string clean_file = testing::read_file(dir / "clean.tsdb");
    for (bool resume : {true, false}) {
      INFO("resume " << resume << ", " << bits << " bits");
      TempDir db;
      std::vector<std::string> notes;
      std::vector<int> layers;
      StoreOptions o;
      o.dir = db.path;
      o.engine = bits == 2 ? Engine::two_bit : Engine::one_bit;
      o.resume = resume;
      o.note = [&](const std::string& s) { notes.push_back(s); };
      o.bfs.on_layer = [&](const LayerReport& l) { layers.push_back(l.depth); };
      TableStore store(o);
      const auto ckpt = store.checkpoint_for(b, 9);
      CHECK(ckpt == db.path / "2x5-1234567890.tsdb.ckpt");
      save_checkpoint(ckpt, ranker, mid.progress, mid.fields, whole(ranker));
      const DistanceTable& t = store.build(b, 9);
      CHECK(t.bits() == bits);
      CHECK(same_fields(bits == 2 ? t.fields() : t.one_bits(), bits == 2 ? clean.fields() : clean.one_bits()));
      CHECK(t.histogram() == clean.histogram());
      REQUIRE_FALSE(layers.empty());
      CHECK(layers.front() == (resume ? mid.progress.next_layer : 0));
      CHECK_FALSE(std::filesystem::exists(ckpt));
      CHECK(testing::bytes_differ(testing::read_file(store.path_for(b, 9)), clean_file) == "");
      std::string all;
      for (const auto& n : notes) all += n + "\n";
      CHECK_THAT(all, Contains(resume ? "resuming from" : "starting over"));
    }
  }
}

TEST_CASE("the store saves checkpoints between layers as often as asked", "[two-bit][checkpoint]") {
  const Board b(2, 5);
  const std::uint64_t full = kHeaderSize + 8 * two_bit_words(Ranker(b, 9));
  for (double every : {1e-9, 0.0, 1e9}) {
    INFO("checkpoint every " << every << " s");
    TempDir dir;
    StoreOptions o;
    o.dir = dir.path;
    o.engine = Engine::two_bit;
    o.checkpoint_every = every;
    std::vector<std::uint64_t> sizes;
    const auto ckpt = dir / "2x5-1234567890.tsdb.ckpt";
    // Called before the checkpoint of its layer is saved: the file holds the previous layer's.
    o.bfs.on_layer = [&](const LayerReport&) {
      sizes.push_back(std::filesystem::exists(ckpt) ? std::filesystem::file_size(ckpt) : 0);
    };
    TableStore store(o);
    CHECK(store.checkpoint_for(b, 9) == ckpt);
    const DistanceTable& t = store.build(b, 9);
    CHECK(t.radius() == 55);
    REQUIRE(sizes.size() == 56);
    CHECK(sizes[0] == 0);
    for (std::size_t i = 1; i < sizes.size(); ++i) CHECK(sizes[i] == (every < 1 && every > 0 ? full : 0));
    CHECK_FALSE(std::filesystem::exists(ckpt));
    for (const auto& e : std::filesystem::directory_iterator(dir.path))
      CHECK(e.path().filename().string() == "2x5-1234567890.tsdb");
  }
}

// The deal of tilespace-mpi (checkpoint.hpp's CheckpointSlice): owner, local place and counts
// against plain division, up to the largest unit a dealt table may have (2^32 - 1), and the units
// of all processes together cover every word once.
TEST_CASE("the deal of words among processes agrees with plain division", "[checkpoint]") {
  std::mt19937_64 rng(25);
  for (const std::uint32_t P : {1u, 2u, 3u, 4u, 5u, 7u, 12u, 1000u, 1024u}) {
    for (const std::uint32_t k : {0u, 2u, 7u, 17u}) {
      INFO("P " << P << ", units of 2^" << k << " words");
      // Words at random below 2^(32 + k), the last unit's words, and the first ones.
      std::vector<std::uint64_t> sample = {0, 1, (std::uint64_t{1} << (32 + k)) - 1, (std::uint64_t{1} << (31 + k)) + 5};
      for (int i = 0; i < 2000; ++i) sample.push_back(rng() >> (32 - k));
      for (const std::uint32_t p : {0u, P / 2, P - 1}) {
        const CheckpointSlice s(k, p, P);
        for (const std::uint64_t w : sample) {
          const std::uint64_t u = w >> k;
          REQUIRE(s.owner(w) == u % P);
          REQUIRE(s.mine(w) == (u % P == p));
          if (!s.mine(w)) continue;
          const std::uint64_t l = ((u / P) << k) | (w & ((std::uint64_t{1} << k) - 1));
          REQUIRE(s.local(w) == l);
          REQUIRE(s.global(l) == w);
        }
      }
      // Every word of small tables held once, in order within each process.
      for (const std::uint64_t words : {std::uint64_t{1}, std::uint64_t{630}, std::uint64_t{5670}, std::uint64_t{56700},
                                        (std::uint64_t{P} << k) * 3 + 1}) {
        if (words > 200000) continue;
        std::vector<int> holder(words, -1);
        for (std::uint32_t p = 0; p < P; ++p) {
          const CheckpointSlice s(k, p, P);
          std::uint64_t next = 0;  // the next local word
          s.for_each_unit(words, [&](std::uint64_t first, std::uint64_t local, std::uint64_t n) {
            REQUIRE(local == next);
            next += n;
            for (std::uint64_t i = 0; i < n; ++i) {
              REQUIRE(holder[first + i] == -1);
              holder[first + i] = static_cast<int>(p);
              REQUIRE(s.local(first + i) == local + i);
            }
          });
          REQUIRE(s.held(words) == next);
        }
        for (std::uint64_t w = 0; w < words; ++w) REQUIRE(holder[w] == static_cast<int>((w >> k) % P));
      }
    }
  }
  CHECK(CheckpointSlice(7, 0, 2).valid_for(std::uint64_t{1} << 39) == false);
  CHECK(CheckpointSlice(7, 0, 2).valid_for((std::uint64_t{1} << 39) - 1));
  CHECK(CheckpointSlice().valid_for(~std::uint64_t{0}));
  CHECK(CheckpointSlice().local(~std::uint64_t{0} - 5) == ~std::uint64_t{0} - 5);
  CHECK_THROWS_AS(CheckpointSlice(7, 2, 2), std::invalid_argument);
  CHECK_THROWS_AS(CheckpointSlice(7, 0, 0), std::invalid_argument);
}

TEST_CASE("foreign, truncated and corrupt checkpoints are refused with a DataError naming the file",
          "[two-bit][checkpoint]") {
  TempDir dir;
  const Board b(3, 3);
  const Ranker ranker(b, 8);
  const auto snaps = snapshots(b, 8);
  const Snapshot& s = snaps.at(12);
  const auto good = dir / "good.ckpt";
  save_checkpoint(good, ranker, s.progress, s.fields, whole(ranker));
  const std::string bytes = testing::read_file(good);
  REQUIRE(bytes.size() == kHeaderSize + 8 * two_bit_words(ranker));
  REQUIRE(load_error(good, ranker, whole(ranker)).empty());

  auto refused = [&](const std::string& name, const std::string& content, const std::string& says,
                     const Ranker& r, const CheckpointSlice& slice) {
    INFO(name);
    const auto p = dir / name;
    testing::write_file(p, content);
    CHECK_THAT(load_error(p, r, slice), Contains(p.string()) && Contains(says));
  };
  auto refused_here = [&](const std::string& name, const std::string& content, const std::string& says) {
    refused(name, content, says, ranker, whole(ranker));
  };
  auto lie = [&](auto&& edit) {
    std::string x = bytes;
    edit(x);
    reseal(x);
    return x;
  };
  auto flipped = [&](std::size_t off) {
    std::string x = bytes;
    x[off] = static_cast<char>(x[off] ^ 0x08);
    return x;
  };

  // Another board (of another size, and of the same size), another goal blank.
  refused("board.ckpt", bytes, "3x3", Ranker(Board(2, 5), 9), whole(Ranker(Board(2, 5), 9)));
  refused("blank.ckpt", bytes, "cell 8", Ranker(b, 4), whole(Ranker(b, 4)));
  {
    const Board b24(2, 4), b42(4, 2);
    const Ranker r24(b24, 7), r42(b42, 7);
    const auto s24 = snapshots(b24, 7).at(5);
    const auto p = dir / "2x4.ckpt";
    save_checkpoint(p, r24, s24.progress, s24.fields, whole(r24));
    REQUIRE(two_bit_words(r24) == two_bit_words(r42));
    CHECK_THAT(load_error(p, r42, whole(r42)), Contains(p.string()) && Contains("2x4") && Contains("4x2"));
    CHECK(load_error(p, r24, whole(r24)).empty());
  }
  // Another engine, checkpoint version, database format version (header checksum recomputed, so
  // each field's own check speaks), and without the recomputed checksum.
  refused_here("engine.ckpt", lie([](std::string& x) { x[16] = 8; }), "engine");
  refused_here("engine0.ckpt", lie([](std::string& x) { x[16] = 0; }), "engine");
  refused_here("version.ckpt", lie([](std::string& x) { put_at<std::uint32_t>(x, 8, kCheckpointVersion + 1); }),
               "checkpoint version");
  refused_here("version-raw.ckpt", [&] {  // a damaged version field is corruption, not another version
    std::string x = bytes;
    put_at<std::uint32_t>(x, 8, kCheckpointVersion + 1);
    return x;
  }(), "checkpoint header checksum mismatch: the checkpoint is corrupt");
  refused_here("format.ckpt", lie([](std::string& x) { put_at<std::uint32_t>(x, 12, kFormatVersion + 1); }),
               "format version " + std::to_string(kFormatVersion + 1));
  refused_here("format-raw.ckpt", [&] {
    std::string x = bytes;
    put_at<std::uint32_t>(x, 12, kFormatVersion - 1);
    return x;
  }(), "");
  refused_here("width.ckpt", lie([](std::string& x) { x[17] = 4; }), "4x3");
  refused_here("goal-blank.ckpt", lie([](std::string& x) { x[19] = 0; }), "cell 0");
  refused_here("words.ckpt", lie([](std::string& x) { put_at<std::uint64_t>(x, 32, get_at<std::uint64_t>(x, 32) + 1); }),
               "");
  refused_here("layer.ckpt", lie([](std::string& x) { put_at<std::uint32_t>(x, 20, get_at<std::uint32_t>(x, 20) + 1); }), "histogram");
  refused_here("histogram.ckpt", lie([](std::string& x) { put_at<std::uint64_t>(x, 256, 2); }), "histogram");
  refused_here("pending.ckpt", lie([](std::string& x) { put_at<std::uint64_t>(x, 24, 181440); }), "");
  // Another process's words: another process, process count or unit of the deal.
  const std::uint64_t words = two_bit_words(ranker);
  refused("process.ckpt", bytes, "process", ranker, CheckpointSlice(7, 1, 2));
  refused("range.ckpt", bytes, "process", ranker, CheckpointSlice(7, 0, 2));
  {
    const auto p = dir / "slice.ckpt";
    const CheckpointSlice one(7, 1, 3);
    const auto mine = held_words(s.fields, one);
    REQUIRE(mine.size() == 1920);  // 5670 words: units 1, 4, ..., 43 (the last unit, 38 words, is process 2's)
    save_checkpoint(p, ranker, s.progress, mine, one);
    CHECK(std::filesystem::file_size(p) == kHeaderSize + 8 * mine.size());
    CHECK_THAT(load_error(p, ranker, whole(ranker)), Contains(p.string()) && Contains("process 1 of 3 (units of 2^7 words)"));
    CHECK_THAT(load_error(p, ranker, CheckpointSlice(7, 1, 2)), Contains("not of process 1 of 2"));
    CHECK_THAT(load_error(p, ranker, CheckpointSlice(6, 1, 3)), Contains("not of process 1 of 3 (units of 2^6 words)"));
    LoadedCheckpoint c = load_checkpoint(p, ranker, one);
    CHECK(same_fields(c.fields->span(), mine));
    std::string x = testing::read_file(p);
    put_at<std::uint64_t>(x, 40, mine.size() + 1);
    reseal(x);
    refused("slice-size.ckpt", x, "inconsistent slice size", ranker, one);
  }
  // Version 1 (before the deal): the threaded build's checkpoint is read, with the same fields; an
  // MPI process's contiguous slice is refused, saying why.
  {
    const std::string v1 = lie([&](std::string& x) {
      put_at<std::uint32_t>(x, 8, 1);
      put_at<std::uint64_t>(x, 40, 0);
      put_at<std::uint64_t>(x, 48, words);
    });
    const auto p = dir / "v1.ckpt";
    testing::write_file(p, v1);
    LoadedCheckpoint c = load_checkpoint(p, ranker, whole(ranker));
    CHECK(same_fields(c.fields->span(), s.fields));
    CHECK(c.progress.histogram == s.progress.histogram);
    std::string part = v1.substr(0, kHeaderSize) + v1.substr(kHeaderSize + 8 * (words / 2));
    put_at<std::uint64_t>(part, 40, words / 2);
    put_at<std::uint32_t>(part, 56, 1);
    put_at<std::uint32_t>(part, 60, 2);
    put_at<std::uint64_t>(part, 64, XXH3_64bits(part.data() + kHeaderSize, part.size() - kHeaderSize));
    reseal(part);
    refused("v1-slice.ckpt", part, "process 1 of 2 from an older tilespace-mpi, whose processes held contiguous slices",
            ranker, CheckpointSlice(7, 1, 2));
  }
  // Truncated, extended, corrupt.
  refused_here("short.ckpt", bytes.substr(0, bytes.size() - 8), "truncated");
  refused_here("short1.ckpt", bytes.substr(0, bytes.size() - 1), "truncated");
  refused_here("header-only.ckpt", bytes.substr(0, kHeaderSize), "truncated");
  refused_here("cut-header.ckpt", bytes.substr(0, 300), "truncated");
  refused_here("long.ckpt", bytes + "x", "trailing data");
  refused_here("fields.ckpt", flipped(kHeaderSize + 5000), "fields checksum mismatch");
  refused_here("fields-last.ckpt", flipped(bytes.size() - 1), "fields checksum mismatch");
  refused_here("header.ckpt", flipped(24), "header checksum mismatch");
  refused_here("header-hist.ckpt", flipped(256 + 8 * 3), "header checksum mismatch");
  refused_here("header-pad.ckpt", flipped(2000), "header checksum mismatch");
  refused_here("fields-sum.ckpt", flipped(64), "header checksum mismatch");
  refused_here("empty.ckpt", "", "not a tilespace checkpoint");
  refused_here("database.ckpt", [&] {
    const DistanceTable t = DistanceTable::build_two_bit(b, 8, {});
    save_database(dir / "t.tsdb", t.info(), t.payload());
    return testing::read_file(dir / "t.tsdb");
  }(), "not a tilespace checkpoint");
  CHECK_THAT(load_error(dir / "absent.ckpt", ranker, whole(ranker)), Contains("absent.ckpt"));
}

TEST_CASE("a checkpoint's damaged header is called damaged, every byte of it - an intact one of another version is "
          "another version",
          "[two-bit][checkpoint]") {
  TempDir dir;
  const Board b(2, 3);
  const Ranker ranker(b, 5);
  const auto snaps = snapshots(b, 5);
  const auto file = dir / "small.ckpt";
  save_checkpoint(file, ranker, snaps.at(snaps.size() / 2).progress, snaps.at(snaps.size() / 2).fields, whole(ranker));
  const std::string bytes = testing::read_file(file);
  REQUIRE(load_error(file, ranker, whole(ranker)).empty());
  const int fd = ::open(file.c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(fd >= 0);
  std::uint64_t wrong = 0;
  for (std::size_t at = 0; at < kHeaderSize; ++at) {
    for (const int mask : {0x01, 0x02, 0x80, 0xFF}) {
      if (at >= 96 && mask != 0x01) break;
      const char flipped = static_cast<char>(bytes[at] ^ static_cast<char>(mask));
      REQUIRE(::pwrite(fd, &flipped, 1, static_cast<off_t>(at)) == 1);
      const std::string msg = load_error(file, ranker, whole(ranker));
      if (msg != file.string() + ": checkpoint header checksum mismatch: the checkpoint is corrupt" && ++wrong <= 5)
        FAIL_CHECK("byte " << at << " ^ " << int(mask) << ": " << (msg.empty() ? "loaded" : msg));
    }
    REQUIRE(::pwrite(fd, &bytes[at], 1, static_cast<off_t>(at)) == 1);
  }
  ::close(fd);
  CHECK(wrong == 0);
  REQUIRE(load_error(file, ranker, whole(ranker)).empty());
  // Intact (resealed), another checkpoint version: named as such.
  std::string x = bytes;
  put_at<std::uint32_t>(x, 8, kCheckpointVersion + 1);
  reseal(x);
  testing::write_file(file, x);
  CHECK(load_error(file, ranker, whole(ranker)) ==
        file.string() + ": checkpoint version " + std::to_string(kCheckpointVersion + 1) + ", this build writes version " +
            std::to_string(kCheckpointVersion));
}

// Found by fuzzing (tests/fuzz/fuzz_checkpoint): a checkpoint whose checksums match but whose fields
// do not match its progress used to load, and the search continued from it stopped with an
// internal error ("layer 4 has 18 states, 16 were found", exit 2), or expanded ranks beyond the
// table's last state. Now it is a DataError naming the file.
TEST_CASE("checkpoints whose fields do not match their progress are refused", "[two-bit][checkpoint]") {
  TempDir dir;
  const Board b(2, 3);  // 360 ranks in 12 words: the last word has 24 fields beyond the table
  const Ranker ranker(b, 5);
  const auto snaps = snapshots(b, 5);
  const Snapshot& s = snaps.at(5);
  const std::uint64_t words = two_bit_words(ranker);
  REQUIRE(words * 32 > ranker.size());
  auto field = [](const std::vector<std::uint64_t>& f, std::uint64_t r) { return (f[r >> 5] >> (2 * (r & 31))) & 3u; };
  auto set_field = [](std::vector<std::uint64_t>& f, std::uint64_t r, std::uint64_t v) {
    f[r >> 5] = (f[r >> 5] & ~(std::uint64_t{3} << (2 * (r & 31)))) | (v << (2 * (r & 31)));
  };
  // Saved with the library's writer, so both checksums match the lie.
  auto error_of = [&](const std::string& name, const std::vector<std::uint64_t>& fields, const CheckpointSlice& slice) {
    const auto p = dir / name;
    save_checkpoint(p, ranker, s.progress, held_words(fields, slice), slice);
    return load_error(p, ranker, slice);
  };
  REQUIRE(error_of("good.ckpt", s.fields, whole(ranker)).empty());

  std::uint64_t open_rank = 0, unseen_rank = 0;
  for (std::uint64_t r = 0; r < ranker.size(); ++r) {
    if (field(s.fields, r) == 3) open_rank = r;
    if (field(s.fields, r) == 0) unseen_rank = r;
  }
  REQUIRE(field(s.fields, open_rank) == 3);
  REQUIRE(field(s.fields, unseen_rank) == 0);
  {  // an open state of the next layer settled: one open field fewer than the states found
    auto f = s.fields;
    set_field(f, open_rank, 1);
    const std::string e = error_of("open-settled.ckpt", f, whole(ranker));
    CHECK_THAT(e, Contains("open-settled.ckpt") && Contains("inconsistent"));
    // The resumed search (as it was before) would have stopped midway with an internal error.
    TwoBitProgress p = s.progress;
    CHECK_THROWS_AS(bfs_two_bit(ranker, f, {}, &p), std::logic_error);
  }
  {  // an unseen state opened: either of the wrong parity, or one open field more than found
    auto f = s.fields;
    set_field(f, unseen_rank, 3);
    CHECK_THAT(error_of("unseen-open.ckpt", f, whole(ranker)), Contains("unseen-open.ckpt") && Contains("inconsistent"));
  }
  {  // a settled state forgotten: fewer settled fields than the histogram counts
    auto f = s.fields;
    for (std::uint64_t r = 0; r < ranker.size(); ++r)
      if (field(f, r) == 1 || field(f, r) == 2) {
        set_field(f, r, 0);
        break;
      }
    CHECK_THAT(error_of("settled-unseen.ckpt", f, whole(ranker)), Contains("settled-unseen.ckpt") && Contains("inconsistent"));
  }
  for (const std::uint64_t v : {1u, 2u, 3u}) {  // a field beyond the last rank, in the table and in a slice
    auto f = s.fields;
    set_field(f, ranker.size() + 7, v);
    INFO("value " << v);
    CHECK_THAT(error_of("beyond.ckpt", f, whole(ranker)), Contains("beyond the table's last state"));
    // Units of 4 words: the last (words 8-11) is process 0's of 2.
    CHECK_THAT(error_of("beyond-slice.ckpt", f, CheckpointSlice(2, 0, 2)), Contains("beyond the table's last state"));
    CHECK(error_of("other-slice.ckpt", f, CheckpointSlice(2, 1, 2)).empty());
  }
  // A process's counts are of the whole search: an MPI process's checkpoint is not refused for them.
  CHECK(error_of("slice.ckpt", s.fields, CheckpointSlice(2, 0, 2)).empty());
  CHECK(error_of("slice1.ckpt", s.fields, CheckpointSlice(2, 1, 2)).empty());
}

TEST_CASE("multi-tile checkpoints: the open bitmap round-trips, a search continued from any layer ends identical",
          "[two-bit][checkpoint][multi]") {
  TempDir dir;
  for (const auto& [b, blank] : std::vector<std::pair<Board, int>>{{Board(3, 3), 8}, {Board(3, 3), 4}, {Board(2, 5), 9}}) {
    INFO("board " << b.name() << ", goal blank " << blank);
    const Ranker ranker(b, blank);
    TwoBitOptions multi;
    multi.bfs.metric = Metric::multi;
    const DistanceTable clean = DistanceTable::build_two_bit(b, blank, multi);
    const auto snaps = snapshots(b, blank, Metric::multi);
    REQUIRE(snaps.size() == clean.histogram().size() - 1);
    // Every layer of 3x3 and every 5th of 2x5; under the sanitizers every 4th and every 15th (the
    // Release run takes the others).
    const std::size_t step = (b.cells() > 9 ? 5 : 1) * (testing::kSanitized ? (b.cells() > 9 ? 3 : 4) : 1);
    for (std::size_t i = 0; i < snaps.size(); i += step) {
      const Snapshot& s = snaps[i];
      INFO("checkpoint before depth " << s.progress.next_layer);
      REQUIRE(s.fields.size() == two_bit_search_words(ranker, Metric::multi));
      const auto path = dir / (b.name() + "-" + std::to_string(blank) + "-" + std::to_string(i) + "-multi.ckpt");
      save_checkpoint(path, ranker, s.progress, s.fields, whole(ranker), Metric::multi);
      const std::string bytes = testing::read_file(path);
      CHECK(bytes.size() == kHeaderSize + 8 * two_bit_search_words(ranker, Metric::multi));
      CHECK(std::uint8_t(bytes.at(52)) == 1);  // the metric (checkpoint.hpp)
      LoadedCheckpoint c = load_checkpoint(path, ranker, whole(ranker), Metric::multi);
      CHECK(c.progress.next_layer == s.progress.next_layer);
      CHECK(c.progress.histogram == s.progress.histogram);
      CHECK(c.progress.pending == s.progress.pending);
      CHECK(same_fields(c.fields->span(), s.fields));
      // Not a checkpoint of the single-tile search.
      CHECK_THAT(load_error(path, ranker, whole(ranker)),
                 Contains(path.string()) && Contains("a checkpoint of the multi-tile metric, not the single-tile"));

      TwoBitOptions o = multi;
      o.bfs.threads = static_cast<int>(i % 3);
      std::vector<int> layers;
      o.bfs.on_layer = [&](const LayerReport& l) { layers.push_back(l.depth); };
      const DistanceTable t = DistanceTable::build_two_bit(b, blank, o, c.fields, &c.progress);
      CHECK(t.metric() == Metric::multi);
      CHECK(same_fields(t.fields(), clean.fields()));
      CHECK(t.histogram() == clean.histogram());
      CHECK(t.info().farthest == clean.info().farthest);
      REQUIRE_FALSE(layers.empty());
      CHECK(layers.front() == s.progress.next_layer);
    }
  }
  // A single-tile checkpoint is not one of the multi-tile search.
  const Ranker r(Board(3, 3), 8);
  const auto single = snapshots(Board(3, 3), 8).at(7);
  save_checkpoint(dir / "single.ckpt", r, single.progress, single.fields, whole(r));
  CHECK_THAT(load_error(dir / "single.ckpt", r, whole(r), Metric::multi),
             Contains("a checkpoint of the single-tile metric, not the multi-tile"));
}

TEST_CASE("multi-tile checkpoints whose fields or open bits do not match their progress are refused",
          "[two-bit][checkpoint][multi]") {
  TempDir dir;
  const Board b(2, 3);  // 360 ranks in 12 words and an open bitmap of 6
  const Ranker ranker(b, 5);
  const auto snaps = snapshots(b, 5, Metric::multi);
  const Snapshot& s = snaps.at(4);
  const std::uint64_t words = two_bit_words(ranker);
  auto field = [](const std::vector<std::uint64_t>& f, std::uint64_t r) { return (f[r >> 5] >> (2 * (r & 31))) & 3u; };
  auto set_field = [](std::vector<std::uint64_t>& f, std::uint64_t r, std::uint64_t v) {
    f[r >> 5] = (f[r >> 5] & ~(std::uint64_t{3} << (2 * (r & 31)))) | (v << (2 * (r & 31)));
  };
  auto is_open = [&](const std::vector<std::uint64_t>& f, std::uint64_t r) { return (f[words + (r >> 6)] >> (r & 63)) & 1u; };
  auto flip_open = [&](std::vector<std::uint64_t>& f, std::uint64_t r) { f[words + (r >> 6)] ^= std::uint64_t{1} << (r & 63); };
  auto error_of = [&](const std::string& name, const std::vector<std::uint64_t>& fields) {
    const auto p = dir / name;
    save_checkpoint(p, ranker, s.progress, fields, whole(ranker), Metric::multi);
    return load_error(p, ranker, whole(ranker), Metric::multi);
  };
  REQUIRE(error_of("good.ckpt", s.fields).empty());
  // The next layer's value: depth 5, 5 mod 3 + 1 = 3.
  REQUIRE(s.progress.next_layer == 5);
  std::uint64_t open_rank = ranker.size(), closed_rank = ranker.size(), unseen_rank = ranker.size();
  for (std::uint64_t r = 0; r < ranker.size(); ++r) {
    if (is_open(s.fields, r)) {
      CHECK(field(s.fields, r) == 3);
      open_rank = r;
    } else if (field(s.fields, r) == 3) {
      closed_rank = r;  // depth 2, expanded long ago
    } else if (field(s.fields, r) == 0) {
      unseen_rank = r;
    }
  }
  REQUIRE(open_rank < ranker.size());
  REQUIRE(closed_rank < ranker.size());
  REQUIRE(unseen_rank < ranker.size());
  {  // an open state closed: fewer open bits than pending; the continued search would miss it
    auto f = s.fields;
    flip_open(f, open_rank);
    CHECK_THAT(error_of("open-closed.ckpt", f), Contains("open-closed.ckpt") && Contains("inconsistent"));
  }
  {  // a state of depth 2 reopened: of the next layer's value, but one open bit more than pending
    auto f = s.fields;
    flip_open(f, closed_rank);
    CHECK_THAT(error_of("closed-open.ckpt", f), Contains("inconsistent"));
  }
  {  // an open bit on an unseen state
    auto f = s.fields;
    flip_open(f, unseen_rank);
    flip_open(f, open_rank);
    CHECK_THAT(error_of("unseen-open.ckpt", f), Contains("open states outside layer 5"));
  }
  {  // a found state forgotten
    auto f = s.fields;
    for (std::uint64_t r = 0; r < ranker.size(); ++r)
      if (field(f, r) == 1) {
        set_field(f, r, 0);
        break;
      }
    CHECK_THAT(error_of("forgotten.ckpt", f), Contains("inconsistent"));
  }
  {  // a field and an open bit beyond the last rank
    auto f = s.fields;
    set_field(f, ranker.size() + 3, 3);
    CHECK_THAT(error_of("beyond.ckpt", f), Contains("beyond the table's last state"));
    f = s.fields;
    flip_open(f, ranker.size() + 3);
    CHECK_THAT(error_of("beyond-open.ckpt", f), Contains("open states outside layer 5"));
  }
  // A checkpoint without the bitmap (the single-tile size) is refused.
  {
    auto f = s.fields;
    f.resize(words);
    const auto p = dir / "short.ckpt";
    save_checkpoint(p, ranker, s.progress, f, whole(ranker));
    CHECK_THAT(load_error(p, ranker, whole(ranker), Metric::multi), Contains("single-tile"));
  }
}

TEST_CASE("cli: build --resume continues a checkpoint and refuses a foreign one with exit 3", "[two-bit][checkpoint][cli]") {
  TempDir dir;
  const Board b(3, 3);
  const Ranker ranker(b, 8);
  REQUIRE(run_cli("build --board 3x3 --bits 2 --db ref", dir.path).rc == 0);
  const std::string ref = testing::read_file(dir / "ref/3x3-123456780.tsdb");
  REQUIRE_FALSE(ref.empty());

  // A checkpoint of this table: continued, the same database; the checkpoint is removed.
  const auto snaps = snapshots(b, 8);
  std::filesystem::create_directories(dir / "d");
  const auto ckpt = dir / "d/3x3-123456780.tsdb.ckpt";
  save_checkpoint(ckpt, ranker, snaps.at(20).progress, snaps.at(20).fields, whole(ranker));
  auto r = run_cli("build --board 3x3 --bits 2 --resume --db d", dir.path);
  CHECK(r.rc == 0);
  CHECK_THAT(r.err, Contains("resuming from") && Contains("depth 21"));
  CHECK(testing::bytes_differ(testing::read_file(dir / "d/3x3-123456780.tsdb"), ref) == "");
  CHECK_FALSE(std::filesystem::exists(ckpt));

  // Foreign checkpoints under the 3x3 name: exit 3, one line naming the file, nothing built.
  struct Case {
    std::string name, content, says;
  };
  std::vector<Case> cases;
  {
    const Ranker r25(Board(2, 5), 9);
    const auto s25 = snapshots(Board(2, 5), 9).at(10);
    save_checkpoint(dir / "x.ckpt", r25, s25.progress, s25.fields, whole(r25));
    cases.push_back({"a 2x5 checkpoint", testing::read_file(dir / "x.ckpt"), "2x5"});
    const Ranker r4(b, 4);
    const auto s4 = snapshots(b, 4).at(10);
    save_checkpoint(dir / "x.ckpt", r4, s4.progress, s4.fields, whole(r4));
    cases.push_back({"another goal blank", testing::read_file(dir / "x.ckpt"), "cell 4"});
    save_checkpoint(dir / "x.ckpt", ranker, snaps.at(10).progress, snaps.at(10).fields, whole(ranker));
    std::string x = testing::read_file(dir / "x.ckpt");
    cases.push_back({"truncated", x.substr(0, x.size() - 100), "truncated"});
    x[kHeaderSize + 77] = static_cast<char>(x[kHeaderSize + 77] ^ 1);
    cases.push_back({"corrupt", x, "checksum"});
    cases.push_back({"garbage", std::string(5000, 'q'), "not a tilespace checkpoint"});
  }
  for (const Case& c : cases) {
    INFO(c.name);
    std::filesystem::remove_all(dir / "d");
    std::filesystem::create_directories(dir / "d");
    testing::write_file(ckpt, c.content);
    r = run_cli("build --board 3x3 --bits 2 --resume --db d", dir.path);
    CHECK(r.rc == kExitData);
    CHECK_THAT(r.err, Contains("d/3x3-123456780.tsdb.ckpt") && Contains(c.says));
    CHECK(one_line(r.err));
    CHECK(r.out.empty());
    CHECK_FALSE(std::filesystem::exists(dir / "d/3x3-123456780.tsdb"));
    CHECK(testing::bytes_differ(testing::read_file(ckpt), c.content) == "");  // left for the user to look at
    // Without --resume the build starts over and replaces it.
    r = run_cli("build --board 3x3 --bits 2 --db d", dir.path);
    CHECK(r.rc == 0);
    CHECK(testing::bytes_differ(testing::read_file(dir / "d/3x3-123456780.tsdb"), ref) == "");
    CHECK_FALSE(std::filesystem::exists(ckpt));
  }
}

TEST_CASE("cli: build --metric multi --resume continues a multi-tile checkpoint, and refuses a single-tile one",
          "[two-bit][checkpoint][cli][multi]") {
  TempDir dir;
  const Board b(3, 3);
  const Ranker ranker(b, 8);
  REQUIRE(run_cli("build --board 3x3 --metric multi --bits 2 --db ref", dir.path).rc == 0);
  const std::string ref = testing::read_file(dir / "ref/3x3-123456780-multi.tsdb");
  REQUIRE_FALSE(ref.empty());
  const auto snaps = snapshots(b, 8, Metric::multi);
  std::filesystem::create_directories(dir / "d");
  const auto ckpt = dir / "d/3x3-123456780-multi.tsdb.ckpt";
  save_checkpoint(ckpt, ranker, snaps.at(11).progress, snaps.at(11).fields, whole(ranker), Metric::multi);
  auto r = run_cli("build --board 3x3 --metric multi --bits 2 --resume --db d", dir.path);
  CHECK(r.rc == 0);
  CHECK_THAT(r.err, Contains("resuming from") && Contains("depth 12"));
  CHECK(testing::bytes_differ(testing::read_file(dir / "d/3x3-123456780-multi.tsdb"), ref) == "");
  CHECK_FALSE(std::filesystem::exists(ckpt));
  // The single-tile search's checkpoint under the multi-tile name: exit 3, one line, nothing built.
  std::filesystem::remove(dir / "d/3x3-123456780-multi.tsdb");
  const auto single = snapshots(b, 8).at(11);
  save_checkpoint(ckpt, ranker, single.progress, single.fields, whole(ranker));
  r = run_cli("build --board 3x3 --metric multi --bits 2 --resume --db d", dir.path);
  CHECK(r.rc == kExitData);
  CHECK_THAT(r.err, Contains("3x3-123456780-multi.tsdb.ckpt: a checkpoint of the single-tile metric, not the multi-tile"));
  CHECK(one_line(r.err));
  CHECK_FALSE(std::filesystem::exists(dir / "d/3x3-123456780-multi.tsdb"));
  // Checkpoints taken by the command itself (every layer), then continued: the same table.
  std::filesystem::remove(ckpt);
  r = run_cli("build --board 3x3 --metric multi --bits 2 --checkpoint-every 0.000001 --progress --db e", dir.path);
  CHECK(r.rc == 0);
  CHECK_THAT(r.err, Contains("checkpoint") && Contains("saved before depth"));
  CHECK(testing::bytes_differ(testing::read_file(dir / "e/3x3-123456780-multi.tsdb"), ref) == "");
}

// ---------------------------------------------------------------------------------------------
// 6. Kill and resume.

namespace {

std::vector<std::string> temporary_names(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp.") != std::string::npos) out.push_back(e.path().filename().string());
  return out;
}

}  // namespace

TEST_CASE("cli: build --resume killed at random moments ends with the same database", "[two-bit][checkpoint][cli][kill][slow]") {
  TempDir dir;
  const Board b(3, 4);
  const Ranker ranker(b, 11);
  const std::string name = "3x4-1-2-3-4-5-6-7-8-9-10-11-0.tsdb";
  const auto a = dir / "A", bdir = dir / "B";
  const auto db = bdir / name, ckpt = bdir / (name + ".ckpt");
  const std::uint64_t ckpt_size = kHeaderSize + 8 * two_bit_words(ranker);

  Child ref({"build", "--board", "3x4", "--bits", "2", "--db", a.string()}, dir / "ref.log");
  REQUIRE(ref.wait_for(300));
  INFO(testing::read_file(dir / "ref.log"));
  REQUIRE(ref.exit_code() == 0);
  const double ref_seconds = ref.seconds();
  const std::string want = testing::read_file(a / name);
  REQUIRE(want.size() > 50'000'000);
  std::printf("kill and resume: the reference 3x4 two-bit build took %.2f s\n", ref_seconds);

  // While run `pid` writes the checkpoint (`target` = name + ".ckpt") or the database (name): its
  // temporary file exists, or (were the file written in place) the file has the wrong size.
  auto writing = [&](const std::string& target, std::uint64_t full_size, pid_t pid) {
    const std::string tmp = target + ".tmp." + std::to_string(pid);
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(bdir, ec)) {
      const std::string f = e.path().filename().string();
      if (f == tmp) return true;
      if (f == target) {
        const auto size = e.file_size(ec);
        if (!ec && size != full_size) return true;
      }
    }
    return false;
  };

  std::mt19937_64 rng(20260611);
  std::uniform_real_distribution<double> delay(0.3, std::max(0.31, ref_seconds));
  // --force: a run after one that finished builds again (instead of finding the table up to date).
  const std::vector<std::string> args{"build", "--board", "3x4", "--bits", "2", "--checkpoint-every", "1", "--resume",
                                      "--force", "--db", bdir.string()};
  int kills = 0, random_kills = 0, last_layer = -1;
  std::vector<std::string> pids;  // of the runs so far
  std::string kill_times;
  // Kill at random moments until four runs were killed (a resumed run may finish before its
  // planned kill); then once while a checkpoint is being written, and once while the database is.
  // First a kill while the first checkpoint is written; then kills at random moments until four
  // runs were killed that way (a resumed run may finish before its planned kill); then a kill
  // while the database is written.
  enum Mode { random_moment, while_writing_checkpoint, while_saving_database };
  std::vector<Mode> plan{while_writing_checkpoint};
  for (int run = 0; run < 12; ++run) plan.push_back(random_moment);
  for (std::size_t run = 0; run < plan.size(); ++run) {
    if (plan[run] == random_moment && random_kills >= 4) {
      plan.resize(run);
      plan.push_back(while_saving_database);
    }
    const Mode mode = plan[run];
    const double t = mode == random_moment ? delay(rng) : 300;
    const std::string log_name = "run" + std::to_string(run) + ".log";
    Child c(args, dir / log_name);
    bool ended = mode == random_moment ? c.wait_for(t)
                 : mode == while_writing_checkpoint
                     ? c.wait_for(t, [&] { return writing(name + ".ckpt", ckpt_size, c.id()); })
                     : c.wait_for(t, [&] { return writing(name, want.size(), c.id()); });
    if (!ended) ended = !c.kill_now();  // false: it finished just before the kill
    const std::string log = testing::read_file(dir / log_name);
    INFO("run " << run << ": " << (ended ? "finished" : "killed") << " after " << c.seconds() << " s; output: " << log);
    char line[200];
    const char* why = mode == random_moment              ? "at a random moment"
                      : mode == while_writing_checkpoint ? "while writing a checkpoint"
                                                         : "while writing the database";
    if (ended) {
      CHECK(c.exit_code() == 0);
      std::snprintf(line, sizeof line, "run %zu finished by itself after %.2f s (kill planned %s%s)", run, c.seconds(), why,
                    mode == random_moment ? (", at " + std::to_string(t).substr(0, 5) + " s").c_str() : "");
    } else {
      ++kills;
      random_kills += mode == random_moment;
      std::snprintf(line, sizeof line, "run %zu killed %s, after %.2f s", run, why, c.seconds());
    }
    // The database is absent or complete; a checkpoint is never torn, and the next one is not
    // older than the one a killed run started from.
    if (std::filesystem::exists(db)) CHECK(testing::bytes_differ(testing::read_file(db), want) == "");
    int layer = -1;
    if (std::filesystem::exists(ckpt)) {
      try {
        layer = load_checkpoint(ckpt, ranker, whole(ranker)).progress.next_layer;
      } catch (const DataError& e) {
        FAIL("a killed build left a bad checkpoint: " << e.what());
      }
      CHECK(layer >= last_layer);
    }
    const auto tmp = std::filesystem::exists(bdir) ? temporary_names(bdir) : std::vector<std::string>{};
    // Every run starts by removing the checkpoint temporaries of dead writers (all runs live long
    // enough), and a run that saves the database removes the database's: none of an earlier run stays.
    for (const auto& f : tmp) {
      INFO("temporary " << f << " after run " << run << " (pid " << c.id() << ")");
      const bool of_ckpt = f.rfind(name + ".ckpt.tmp.", 0) == 0;
      CHECK((of_ckpt || f.rfind(name + ".tmp.", 0) == 0));
      const std::string pid = f.substr(f.rfind('.') + 1);
      const bool earlier = std::find(pids.begin(), pids.end(), pid) != pids.end();
      if (of_ckpt || ended) CHECK_FALSE(earlier);
    }
    pids.push_back(std::to_string(c.id()));
    std::string tmp_list;
    for (const auto& f : tmp) tmp_list += " " + f;
    std::printf("kill and resume: %s; checkpoint %s%s%s\n", line,
                layer >= 0 ? ("before depth " + std::to_string(layer)).c_str() : "none",
                std::filesystem::exists(db) ? "; database present" : "", tmp.empty() ? "" : ("; temporaries:" + tmp_list).c_str());
    std::fflush(stdout);
    kill_times += std::string(line) + "\n";
    last_layer = ended ? -1 : layer;  // a finished build removes its checkpoint
  }
  INFO(kill_times);
  CHECK(random_kills >= 4);
  CHECK(kills >= 5);

  // Let it finish: the same database as the clean build, no checkpoint, no temporary file.
  const bool had_checkpoint = std::filesystem::exists(ckpt);
  Child last(args, dir / "last.log");
  REQUIRE(last.wait_for(300));
  const std::string log = testing::read_file(dir / "last.log");
  INFO(log);
  CHECK(last.exit_code() == 0);
  if (had_checkpoint) CHECK_THAT(log, Contains("resuming from"));
  std::printf("kill and resume: the last run took %.2f s%s\n", last.seconds(), had_checkpoint ? " (resumed)" : "");
  REQUIRE(std::filesystem::exists(db));
  CHECK(testing::bytes_differ(testing::read_file(db), want) == "");
  CHECK_FALSE(std::filesystem::exists(ckpt));
  CHECK(temporary_names(bdir).empty());
  CHECK(temporary_names(a).empty());
}
