#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string_view>
#include <vector>

#include "support.hpp"
#include "tilespace/database.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/pdb/database.hpp"
#include "tilespace/pdb/zero_aware.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/query.hpp"
#include "tilespace/search/automaton.hpp"
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
    flip(p, 24);  // entry count
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
    const std::uint32_t v = kFormatVersion + 1;
    patch(p, 8, std::string(reinterpret_cast<const char*>(&v), 4));
    // The version field changed behind the checksum's back: a damaged header, not a version.
    CHECK_THAT(load_error(p), Catch::Contains("header checksum mismatch"));
    // An intact header of that version (its checksum as a writer of it would compute it).
    std::string newer = testing::read_file(p);
    testing::reseal_header(newer, 56);
    testing::write_file(p, newer);
    CHECK_THAT(load_error(p), Catch::Contains("format version " + std::to_string(v)));
  }
  SECTION("a version-2 table is still read: its layout is unchanged") {
    std::string old = bytes;
    testing::put_at<std::uint32_t>(old, 8, 2);
    testing::reseal_header(old, 56);
    testing::write_file(dir / "v2.tsdb", old);
    CHECK(load_database(dir / "v2.tsdb").info.entries == load_database(fresh("v3.tsdb")).info.entries);
    // Version 1 kept its header checksum at offset 72 (database.hpp, "Versions").
    testing::put_at<std::uint32_t>(old, 8, 1);
    testing::reseal_header(old, 72);
    testing::write_file(dir / "v1.tsdb", old);
    CHECK_THAT(load_error(dir / "v1.tsdb"), Catch::Contains("format version 1"));
  }
  SECTION("a missing file") {
    CHECK_THAT(load_error(dir / "absent.tsdb"), Catch::Contains("cannot open") && Catch::Contains("absent.tsdb"));
  }
  SECTION("a folder instead of a file") {
    std::filesystem::create_directories(dir / "folder.tsdb");
    CHECK_THAT(load_error(dir / "folder.tsdb"), Catch::Contains("not a regular file"));
  }
}

// Issue 46, item 7: a flipped bit in byte 9 of a .tsdb read as "format version 259 ... (delete the
// file ...); rebuild it with ...": two remedies for what is corruption. The header's checksum is
// verified before any field is believed (database.hpp, "Versions").
TEST_CASE("a damaged header is called damaged, every byte of it, in every kind of file - only an intact header of "
          "another version gets the version message",
          "[database]") {
  TempDir dir;
  const Board b(2, 3);
  const State goal = canonical_goal(b, 5);
  const pdb::Pattern pattern{{1, 2}};
  // A small file of each of the six kinds that share the header.
  std::vector<std::filesystem::path> files;
  auto table = [&](const std::string& name, const DistanceTable& t) {
    files.push_back(dir / name);
    save_database(files.back(), t.info(), t.payload());
  };
  table("bytes.tsdb", DistanceTable::build(b, 5));
  table("two-bit.tsdb", DistanceTable::build_two_bit(b, 5, {}, nullptr, nullptr, 2));
  table("one-bit.tsdb", DistanceTable::build_two_bit(b, 5, {}, nullptr, nullptr, 1));
  files.push_back(dir / "p.pdb");
  pdb::PatternDatabase::build(goal, pattern).save(files.back());
  files.push_back(dir / "z.zpdb");
  pdb::ZeroAwareDatabase::build(goal, pattern).save(files.back());
  files.push_back(dir / "moves-d3.fsm");
  search::MoveAutomaton::build(3).save(files.back());
  const std::string rebuild = "tilespace build --board 2x3 --force";

  for (const auto& file : files) {
    INFO(file.filename().string());
    const std::string bytes = testing::read_file(file);
    REQUIRE(bytes.size() > kHeaderSize);
    REQUIRE_NOTHROW(load_database(file, rebuild));
    CHECK_FALSE(database_outdated(file));
    const int fd = ::open(file.c_str(), O_RDWR | O_CLOEXEC);
    REQUIRE(fd >= 0);
    // Every byte of the header flipped in one bit (of the byte table's, the file: all 4096;
    // of the others, the fields' first 256 bytes: a load maps the file, and the unmapping is most
    // of the test's time), the first 160 bytes (magic, version, header size, checksums, board, goal,
    // pattern, chunk fields, metric) in several patterns too: each load says the header is
    // corrupt, with the one remedy of rebuilding, never a version.
    const std::size_t flipped_bytes = file == files[0] ? kHeaderSize : 256;
    std::uint64_t wrong = 0, loads = 0;
    for (std::size_t at = 0; at < flipped_bytes; ++at) {
      for (const int mask : {0x01, 0x02, 0x10, 0x80, 0xFF}) {
        if (at >= 160 && mask != 0x01) break;
        const char flipped = static_cast<char>(bytes[at] ^ static_cast<char>(mask));
        REQUIRE(::pwrite(fd, &flipped, 1, static_cast<off_t>(at)) == 1);
        std::string msg;
        try {
          load_database(file, rebuild);
        } catch (const DataError& e) {
          msg = e.what();
        }
        ++loads;
        const bool ok = msg.find(file.string() + ": header checksum mismatch: the header is corrupt; rebuild it with: " +
                                 rebuild) == 0 &&
                        msg.find("version") == std::string::npos && msg.find("delete the file") == std::string::npos;
        if (!ok && ++wrong <= 5) FAIL_CHECK("byte " << at << " ^ " << int(mask) << ": " << (msg.empty() ? "loaded" : msg));
        // A damaged header is not an older format to rebuild silently (the stores' check).
        if (at == 8 && database_outdated(file)) FAIL_CHECK("byte 8 ^ " << int(mask) << ": taken as an older format");
      }
      REQUIRE(::pwrite(fd, &bytes[at], 1, static_cast<off_t>(at)) == 1);
    }
    ::close(fd);
    CHECK(wrong == 0);
    CHECK(loads == flipped_bytes + 160 * 4);
    REQUIRE_NOTHROW(load_database(file, rebuild));

    // An intact header of another version (its checksum recomputed where that version keeps it):
    // the version message, with one remedy.
    const auto forged = dir / ("forged-" + file.filename().string());
    auto version_error = [&](std::uint32_t version, std::size_t checksum_at, const std::string& remedy) {
      std::string x = bytes;
      testing::put_at<std::uint32_t>(x, 8, version);
      testing::reseal_header(x, checksum_at);
      testing::write_file(forged, x);
      try {
        load_database(forged, remedy);
      } catch (const DataError& e) {
        return std::string(e.what());
      }
      return std::string("loaded");
    };
    const std::string next = std::to_string(kFormatVersion + 1), now = std::to_string(kFormatVersion);
    CHECK(version_error(kFormatVersion + 1, 56, rebuild) ==
          forged.string() + ": format version " + next + ", this build reads version " + now + "; rebuild it with: " + rebuild);
    CHECK(version_error(kFormatVersion + 1, 56, "") == forged.string() + ": format version " + next +
                                                           ", this build reads version " + now +
                                                           " (delete the file: it is rebuilt when next needed)");
    CHECK(version_error(259, 56, rebuild).find(": format version 259, this build reads version") != std::string::npos);
    // Version 1 kept its checksum at offset 72: resealed at 56 it is a damaged header.
    CHECK_THAT(version_error(1, 72, rebuild), Catch::Contains(": format version 1, this build reads version"));
    CHECK_THAT(version_error(1, 56, rebuild), Catch::Contains("header checksum mismatch: the header is corrupt"));
  }

  // Another version's header covers the size it states: an intact 8192-byte header of version 4.
  std::string x = testing::read_file(files[0]);
  x.resize(8192 + 100, '\0');
  testing::put_at<std::uint32_t>(x, 8, kFormatVersion + 1);
  testing::put_at<std::uint32_t>(x, 12, 8192);
  testing::reseal_header(x, 56, 8192);
  testing::write_file(dir / "big-header.tsdb", x);
  CHECK_THAT(load_error(dir / "big-header.tsdb"), Catch::Contains("format version " + std::to_string(kFormatVersion + 1)));
  x[6000] ^= 1;  // inside its header
  testing::write_file(dir / "big-header.tsdb", x);
  CHECK_THAT(load_error(dir / "big-header.tsdb"), Catch::Contains("header checksum mismatch: the header is corrupt"));
  // A foreign file is still foreign: neither its magic nor its checksum matches.
  testing::write_file(dir / "text.tsdb", std::string(5000, 'a'));
  CHECK_THAT(load_error(dir / "text.tsdb"), Catch::Contains("not a tilespace database (bad magic)"));
}

TEST_CASE("a damaged .tsdb header from the command line: exit 3, corrupt and one remedy, in English and Chinese",
          "[database][cli]") {
  TempDir dir;
  REQUIRE(testing::run_cli("build --db D", dir.path).rc == 0);
  const auto file = dir / "D/3x3-123456780.tsdb";
  const std::string bytes = testing::read_file(file);
  for (const std::size_t at : {0, 7, 8, 9, 10, 11, 12, 15, 16, 20, 56, 63, 72, 152, 256, 4095}) {
    INFO("byte " << at);
    std::string x = bytes;
    x[at] = static_cast<char>(x[at] ^ 1);
    testing::write_file(file, x);
    const auto r = testing::run_cli("query 123456708 --db D", dir.path);
    CHECK(r.rc == kExitData);
    CHECK(r.out.empty());
    CHECK(r.err == "tilespace: file error: D/3x3-123456780.tsdb: header checksum mismatch: the header is corrupt; "
                   "rebuild it with: tilespace build --board 3x3 --force --db D\n");
  }
  std::string x = bytes;
  x[9] = static_cast<char>(x[9] ^ 1);  // the example: version 3 read as 259
  testing::write_file(file, x);
  auto r = testing::run_cli("query 123456708 --db D --lang zh", dir.path);
  CHECK(r.rc == kExitData);
  CHECK(r.err == "tilespace: 文件错误：D/3x3-123456780.tsdb：文件头校验和不符：文件头已损坏；重建命令：tilespace build "
                 "--board 3x3 --force --db D\n");
  // An intact header of another version: the version message, one remedy.
  x = bytes;
  testing::put_at<std::uint32_t>(x, 8, kFormatVersion + 1);
  testing::reseal_header(x, 56);
  testing::write_file(file, x);
  const std::string next = std::to_string(kFormatVersion + 1), now = std::to_string(kFormatVersion);
  r = testing::run_cli("query 123456708 --db D", dir.path);
  CHECK(r.rc == kExitData);
  CHECK(r.err == "tilespace: file error: D/3x3-123456780.tsdb: format version " + next + ", this build reads version " +
                     now + "; rebuild it with: tilespace build --board 3x3 --force --db D\n");
  r = testing::run_cli("query 123456708 --db D --lang zh", dir.path);
  CHECK(r.rc == kExitData);
  CHECK(r.err == "tilespace: 文件错误：D/3x3-123456780.tsdb：格式版本为 " + next + "，本程序读取版本 " + now +
                     "；重建命令：tilespace build --board 3x3 --force --db D\n");
  // And the remedy works.
  REQUIRE(testing::run_cli("build --board 3x3 --force --db D", dir.path).rc == 0);
  CHECK(testing::run_cli("query 123456708 --db D", dir.path).out == "1\n");
}

// Found by fuzzing (tests/fuzz/fuzz_table): headers that lie behind valid checksums. A radius
// that is not the table's largest depth used to load (`stats` printed it, `farthest` looked for
// it, `random --depth` accepted it), and histogram values above the entry count whose sum wraps
// around 2^64 to the entry count passed the sum check.
TEST_CASE("byte tables whose radius or histogram lies are refused", "[database]") {
  TempDir dir;
  const DistanceTable t = DistanceTable::build(Board(3, 2), 5);
  auto error_of = [&](const std::string& name, const DatabaseInfo& info) {
    save_database(dir / name, info, t.depths());  // the library's writer: the checksums match
    return load_error(dir / name);
  };
  REQUIRE(error_of("good.tsdb", t.info()).empty());
  {
    DatabaseInfo deeper = t.info();
    deeper.histogram.push_back(0);  // radius + 1, the same sum
    CHECK_THAT(error_of("deeper.tsdb", deeper), Catch::Contains("deeper.tsdb") && Catch::Contains("largest depth"));
  }
  {
    DatabaseInfo shallower = t.info();
    const std::uint64_t last = shallower.histogram.back();
    shallower.histogram.pop_back();
    shallower.histogram.back() += last;  // radius - 1, the same sum
    CHECK_THAT(error_of("shallower.tsdb", shallower), Catch::Contains("largest depth"));
  }
  {
    DatabaseInfo wraps = t.info();
    wraps.histogram[1] += std::uint64_t{1} << 63;
    wraps.histogram[2] += std::uint64_t{1} << 63;  // the sum is unchanged modulo 2^64
    CHECK_THAT(error_of("wraps.tsdb", wraps), Catch::Contains("histogram does not add up"));
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

TEST_CASE("distance tables, the store and batch queries refuse boards of more than 16 cells", "[database][5x5]") {
  using Catch::Matchers::Contains;
  const Board b(5, 5);
  CHECK_THROWS_WITH(DistanceTable::check_fits(b), Contains("the 5x5 board has 25 cells") && Contains("at most 16"));
  CHECK_THROWS_AS(DistanceTable::build_bytes(b), InputError);
  CHECK_THROWS_AS(DistanceTable::build(b, 24), InputError);
  CHECK_THROWS_AS(DistanceTable::build(Board(4, 5), 0), InputError);

  TempDir dir;
  StoreOptions o;
  o.dir = dir.path;
  TableStore store(o);
  CHECK_THROWS_AS(store.table(b, 24), InputError);
  CHECK_THROWS_AS(store.build(b, 0), InputError);
  CHECK(std::filesystem::is_empty(dir.path));

  // A batch on the 5x5 board is refused before any line is read.
  BatchOptions bo;
  bo.goal = canonical_goal(b, 24);
  std::string out;
  std::ostringstream err;
  const std::string line = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13\n";
  CHECK_THROWS_WITH(run_batch(store, line, out, err, bo), Contains("5x5"));
  CHECK(out.empty());
}

TEST_CASE("batch queries answer a 25-tile line on a small board with an error line", "[database][5x5]") {
  TempDir dir;
  StoreOptions o;
  o.dir = dir.path;
  TableStore store(o);
  BatchOptions bo;
  bo.goal = canonical_goal(Board(2, 2), 3);
  const std::string t25 = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";
  const std::string t25_rows = "14,5,9,2,18/8,23,19,12,17/15,0,10,20,4/6,11,21,1,7/24,3,16,22,13";
  const std::string input = "1 2 3 0\n" + t25 + "\n" + t25 + " " + t25 + "\n" + t25_rows + "\n" + t25_rows + " " +
                            t25_rows + "\n" + "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33\n" +
                            "1 2 0 3\n";
  std::string out;
  std::ostringstream err;
  const BatchStats stats = run_batch(store, input, out, err, bo);
  CHECK(std::regex_replace(out, std::regex("error: [^\n]*"), "error") == "0\nerror\nerror\nerror\nerror\nerror\n1\n");
  CHECK_THAT(out, Catch::Contains("\nerror: expected a start and an optional goal of 4 tiles each (2x2 board), got 25 tiles\n"));
  CHECK(stats.errors == 5);
  CHECK(stats.answered == 2);
  CHECK_THAT(err.str(), Catch::Matchers::Contains("line 2: expected a start and an optional goal of 4 tiles each") &&
                            Catch::Matchers::Contains("got 25 tiles") &&
                            Catch::Matchers::Contains("line 4: start: 5 rows of 5 tiles do not fit a 2x2 board"));

  // The fast parser refuses them too, without overflowing its 32-bit set of tiles.
  const Board b(5, 5);
  std::vector<std::string_view> tokens;
  for (std::size_t i = 0; i < t25.size();) {
    const std::size_t j = std::min(t25.find(' ', i), t25.size());
    tokens.push_back(std::string_view(t25).substr(i, j - i));
    i = j + 1;
  }
  REQUIRE(tokens.size() == 25);
  CHECK_FALSE(parse_state_fast(tokens.data(), 25, Board(4, 4)).has_value());
  CHECK_FALSE(parse_state_fast(tokens.data(), 25, Board(2, 2)).has_value());
  const auto s = parse_state_fast(tokens.data(), 25, b);
  REQUIRE(s.has_value());
  CHECK(s->to_string() == t25);
  tokens[3] = "31";
  CHECK_FALSE(parse_state_fast(tokens.data(), 25, b).has_value());
  tokens[3] = "24";
  CHECK_FALSE(parse_state_fast(tokens.data(), 25, b).has_value());  // 24 twice
}

// Found by fuzzing (tests/fuzz/fuzz_lines): the grammar read a word of separators alone ("1230 ,")
// as a goal and refused the line ("goal: empty state") where run_batch's fast path answered it, and
// the fast path answered two compact states parted by a comma alone ("1230;1203", one word, which
// the grammar refuses): `query --batch` and `solve --batch` or a suite disagreed on the same line.
// The grammar now skips a word of separators, and the fast path leaves one-word pairs to it.
TEST_CASE("a word of separators alone is no state, in the grammar as in the batch fast path", "[database]") {
  TempDir dir;
  StoreOptions o;
  o.dir = dir.path;
  TableStore store(o);
  BatchOptions bo;
  bo.goal = canonical_goal(Board(2, 2), 3);
  // Two compact states are two words only when blanks part them: "1230;1203" is one word.
  const std::string input =
      "1230 ,\n1230 , 1203\n1230 ; 1203 ,\n1 2 3 0 ,\n3210 ,\n1230 , 1203 , 1230\n1230;1203\n1230; 1203\n1230,1203\n";
  std::string out;
  std::ostringstream err;
  run_batch(store, input, out, err, bo);
  CHECK(std::regex_replace(out, std::regex("error: [^\n]*"), "error") == "0\n1\n1\n0\nunreachable\nerror\nerror\n1\nerror\n");
  CHECK_THROWS_AS(parse_line_pair("1230;1203", Board(2, 2)), InputError);
  CHECK(parse_line_pair("1230; 1203", Board(2, 2)).goal.has_value());
  const std::optional<Board> b22 = Board(2, 2);
  for (const auto* line : {"1230 ,", "1230 , 1203", "1230 ; 1203 ,", "1 2 3 0 ,", "3210 ,"}) {
    INFO(line);
    const LinePair p = parse_line_pair(line, b22);
    CHECK(p.start.to_string() == (line[0] == '3' ? "3 2 1 0" : "1 2 3 0"));
    const LinePair q = parse_line_pair(line, std::nullopt);  // the board from the tiles
    CHECK(q.start == p.start);
    CHECK(q.goal == p.goal);
  }
  CHECK(parse_line_pair("1230 , 1203", b22).goal->to_string() == "1 2 0 3");
  CHECK_THROWS_AS(parse_line_pair("1230 , 1203 , 1230", b22), InputError);
  CHECK_THROWS_AS(parse_line_pair(", ;", b22), InputError);
}

TEST_CASE("a table that would not fit in memory is refused before any work", "[database]") {
  CHECK_THROWS_AS(DistanceTable::build(Board(4, 4), 15), ResourceError);
  CHECK_THROWS_AS(DistanceTable::build(Board(2, 8), 15), ResourceError);
}
