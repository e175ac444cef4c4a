#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>

#include "support.hpp"
#include "tilespace/database.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/table_store.hpp"

using namespace tilespace;
using testing::TempDir;

namespace {

std::string load_error(const std::filesystem::path& p) {
  try {
    load_database(p);
  } catch (const DataError& e) {
    return e.what();
  }
  return "";
}

void patch(const std::filesystem::path& p, std::size_t offset, const std::string& bytes) {
  std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void flip(const std::filesystem::path& p, std::size_t offset) {
  std::string all = testing::read_file(p);
  all[offset] = static_cast<char>(all[offset] ^ 0x40);
  testing::write_file(p, all);
}

}  // namespace

TEST_CASE("a saved table loads back identical", "[database]") {
  TempDir dir;
  for (auto [w, h, blank] : {std::tuple{3, 3, 8}, std::tuple{3, 3, 4}, std::tuple{2, 3, 0}, std::tuple{4, 2, 5}}) {
    const Board b(w, h);
    const DistanceTable t = DistanceTable::build(b, blank);
    const auto path = dir / (b.name() + std::to_string(blank) + ".tsdb");
    save_database(path, t.info(), t.depths());
    const DistanceTable u = DistanceTable::from_database(load_database(path));
    CHECK(u.board() == b);
    CHECK(u.ranker().goal_blank() == blank);
    CHECK(u.histogram() == t.histogram());
    REQUIRE(u.depths().size() == t.depths().size());
    CHECK(std::memcmp(u.depths().data(), t.depths().data(), t.depths().size()) == 0);
    CHECK(std::filesystem::file_size(path) == kHeaderSize + t.ranker().size());
  }
  // No temporary file is left next to the database.
  for (const auto& e : std::filesystem::directory_iterator(dir.path))
    CHECK(e.path().extension() == ".tsdb");
}

TEST_CASE("saving replaces an existing file atomically and reports unwritable folders", "[database]") {
  TempDir dir;
  const DistanceTable small = DistanceTable::build(Board(2, 2), 3);
  const DistanceTable big = DistanceTable::build(Board(3, 2), 5);
  const auto path = dir / "t.tsdb";
  save_database(path, small.info(), small.depths());
  testing::write_file(dir / "t.tsdb", "garbage");  // a damaged file is replaced whole
  save_database(path, big.info(), big.depths());
  CHECK(load_database(path).info.entries == 360);

  const auto blocked = dir / "file-not-dir";
  testing::write_file(blocked, "x");
  CHECK_THROWS_AS(save_database(blocked / "t.tsdb", small.info(), small.depths()), DataError);
}

TEST_CASE("corrupt, truncated and foreign database files are rejected with a message naming the problem",
          "[database]") {
  TempDir dir;
  const DistanceTable t = DistanceTable::build(Board(3, 3), 8);
  const auto good = dir / "good.tsdb";
  save_database(good, t.info(), t.depths());
  const std::string bytes = testing::read_file(good);
  auto fresh = [&](const std::string& name) {
    const auto p = dir / name;
    testing::write_file(p, bytes);
    return p;
  };

  SECTION("a flipped payload byte") {
    const auto p = fresh("flip.tsdb");
    flip(p, kHeaderSize + 12345);
    const auto msg = load_error(p);
    CHECK_THAT(msg, Catch::Contains("payload checksum mismatch") && Catch::Contains("flip.tsdb"));
  }
  SECTION("a flipped header byte") {
    const auto p = fresh("hdr.tsdb");
    flip(p, 40);  // entry count
    CHECK_THAT(load_error(p), Catch::Contains("header checksum mismatch"));
  }
  SECTION("a flipped byte in the header's padding") {
    const auto p = fresh("pad.tsdb");
    flip(p, 3000);
    CHECK_THAT(load_error(p), Catch::Contains("header checksum mismatch"));
  }
  SECTION("a truncated payload") {
    const auto p = dir / "short.tsdb";
    testing::write_file(p, bytes.substr(0, bytes.size() - 1));
    CHECK_THAT(load_error(p), Catch::Contains("truncated"));
  }
  SECTION("a file cut inside the header") {
    const auto p = dir / "cut.tsdb";
    testing::write_file(p, bytes.substr(0, 100));
    CHECK_THAT(load_error(p), Catch::Contains("truncated"));
  }
  SECTION("trailing bytes") {
    const auto p = dir / "long.tsdb";
    testing::write_file(p, bytes + "x");
    CHECK_THAT(load_error(p), Catch::Contains("trailing data"));
  }
  SECTION("an empty file and a foreign file") {
    testing::write_file(dir / "empty.tsdb", "");
    CHECK_THAT(load_error(dir / "empty.tsdb"), Catch::Contains("not a tilespace database"));
    testing::write_file(dir / "text.tsdb", std::string(5000, 'a'));
    CHECK_THAT(load_error(dir / "text.tsdb"), Catch::Contains("not a tilespace database"));
  }
  SECTION("a newer format version") {
    const auto p = fresh("ver.tsdb");
    patch(p, 8, std::string("\x02\0\0\0", 4));
    CHECK_THAT(load_error(p), Catch::Contains("format version 2"));
  }
  SECTION("a missing file") {
    CHECK_THAT(load_error(dir / "absent.tsdb"), Catch::Contains("cannot open") && Catch::Contains("absent.tsdb"));
  }
  SECTION("a folder instead of a file") {
    std::filesystem::create_directories(dir / "folder.tsdb");
    CHECK_THAT(load_error(dir / "folder.tsdb"), Catch::Contains("not a regular file"));
  }
}

TEST_CASE("the store rejects a file holding another board's table", "[database]") {
  TempDir dir;
  StoreOptions o;
  o.dir = dir.path;
  TableStore store(o);
  const Board b33(3, 3), b24(2, 4);
  const DistanceTable other = DistanceTable::build(b24, 7);
  save_database(store.path_for(b33, 8), other.info(), other.depths());  // a 2x4 table under the 3x3 name
  try {
    store.table(b33, 8);
    FAIL("a foreign table was accepted");
  } catch (const DataError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("another board"));
  }
}

TEST_CASE("the store builds a missing table once, saying so, then loads it", "[database]") {
  TempDir dir;
  std::vector<std::string> notes;
  StoreOptions o;
  o.dir = dir.path;
  o.note = [&](const std::string& s) { notes.push_back(s); };
  {
    TableStore store(o);
    const auto& t = store.table(Board(3, 3), 4);
    CHECK(t.radius() == 30);
    CHECK(&store.table(Board(3, 3), 4) == &t);  // cached
  }
  REQUIRE(notes.size() == 2);
  CHECK_THAT(notes[0], Catch::Contains("building it first"));
  CHECK(std::filesystem::exists(dir / "3x3-123405678.tsdb"));
  notes.clear();
  TableStore again(o);
  CHECK(again.table(Board(3, 3), 4).histogram().back() == 148);
  CHECK(notes.empty());  // loaded, not rebuilt
}

TEST_CASE("a table that would not fit in memory is refused before any work", "[database]") {
  CHECK_THROWS_AS(DistanceTable::build(Board(4, 4), 15), ResourceError);
  CHECK_THROWS_AS(DistanceTable::build(Board(2, 8), 15), ResourceError);
}
