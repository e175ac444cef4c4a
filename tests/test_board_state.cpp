// Board geometry and parsing; State parsing, packing and start/goal files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "support.hpp"
#include "tilespace/board.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/state.hpp"

using namespace tilespace;
using Catch::Matchers::Contains;

namespace {

// A start/goal file through the problem grammar (problem.hpp), as `tilespace solve FILE` reads it.
std::pair<State, std::optional<State>> read_state_file(const std::string& path, const std::optional<Board>& board = {}) {
  StartArg arg;
  arg.source = path;
  arg.texts = split_states(read_input(path), board);
  ProblemText t;
  if (board) t.board = board->name();
  const Problem p = parse_start_problem(arg, t);
  return {*p.start, arg.texts.goal ? std::optional<State>(p.goal) : std::nullopt};
}

// The message of the InputError that parse_state throws, or "" (and a failed check) if none.
std::string parse_error(std::string_view text, const std::optional<Board>& board = std::nullopt) {
  try {
    const State s = parse_state(text, board);
    FAIL_CHECK("parse_state accepted '" << std::string(text) << "' as " << s.board.name() << ": " << s.to_string());
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<int> tiles_of(const State& s) { return {s.tiles.begin(), s.tiles.begin() + s.cells()}; }

// Writes `content` to `name` in `dir` and returns the path as a string.
std::string write(const testing::TempDir& dir, const std::string& name, const std::string& content) {
  testing::write_file(dir / name, content);
  return (dir / name).string();
}

}  // namespace

TEST_CASE("Board geometry of 3x3", "[board]") {
  const Board b(3, 3);
  CHECK(b.width() == 3);
  CHECK(b.height() == 3);
  CHECK(b.cells() == 9);
  CHECK(b.name() == "3x3");
  CHECK(b.row(5) == 1);
  CHECK(b.col(5) == 2);
  CHECK(b.row(6) == 2);
  CHECK(b.col(6) == 0);

  // Corner 0: down to 3, right to 1 (U, D, L, R order).
  CHECK(b.neighbours(0).count == 2);
  CHECK(b.neighbours(0).cell[0] == 3);
  CHECK(b.neighbours(0).dir[0] == Dir::Down);
  CHECK(b.neighbours(0).cell[1] == 1);
  CHECK(b.neighbours(0).dir[1] == Dir::Right);
  // Centre 4: all four.
  const auto& c = b.neighbours(4);
  REQUIRE(c.count == 4);
  CHECK(c.cell[0] == 1);
  CHECK(c.cell[1] == 7);
  CHECK(c.cell[2] == 3);
  CHECK(c.cell[3] == 5);
  CHECK(c.dir[0] == Dir::Up);
  CHECK(c.dir[1] == Dir::Down);
  CHECK(c.dir[2] == Dir::Left);
  CHECK(c.dir[3] == Dir::Right);
  // Edge 7: up, left, right.
  const auto& e = b.neighbours(7);
  REQUIRE(e.count == 3);
  CHECK(e.cell[0] == 4);
  CHECK(e.cell[1] == 6);
  CHECK(e.cell[2] == 8);

  CHECK(b.step(0, Dir::Up) == -1);
  CHECK(b.step(0, Dir::Left) == -1);
  CHECK(b.step(0, Dir::Right) == 1);
  CHECK(b.step(0, Dir::Down) == 3);
  CHECK(b.step(8, Dir::Down) == -1);
  CHECK(b.step(8, Dir::Right) == -1);
  CHECK(b.step(2, Dir::Right) == -1);  // no wrap-around to the next row
  CHECK(b.step(3, Dir::Left) == -1);
  CHECK(kDirLetter[static_cast<int>(Dir::Left)] == 'L');
}

TEST_CASE("Board geometry of 5x5", "[board]") {
  const Board b(5, 5);
  CHECK(b.cells() == 25);
  CHECK(b.name() == "5x5");
  CHECK(b.row(24) == 4);
  CHECK(b.col(24) == 4);
  CHECK(b.row(12) == 2);
  CHECK(b.col(13) == 3);
  CHECK_FALSE(is_packed(b));
  CHECK(is_packed(Board(4, 4)));
  // Corners: two neighbours each, in U, D, L, R order.
  const auto& c0 = b.neighbours(0);
  REQUIRE(c0.count == 2);
  CHECK(c0.cell[0] == 5);
  CHECK(c0.dir[0] == Dir::Down);
  CHECK(c0.cell[1] == 1);
  CHECK(c0.dir[1] == Dir::Right);
  const auto& c24 = b.neighbours(24);
  REQUIRE(c24.count == 2);
  CHECK(c24.cell[0] == 19);
  CHECK(c24.dir[0] == Dir::Up);
  CHECK(c24.cell[1] == 23);
  CHECK(c24.dir[1] == Dir::Left);
  CHECK(b.neighbours(4).count == 2);
  CHECK(b.neighbours(20).count == 2);
  // The centre: all four.
  const auto& m = b.neighbours(12);
  REQUIRE(m.count == 4);
  CHECK(m.cell[0] == 7);
  CHECK(m.cell[1] == 17);
  CHECK(m.cell[2] == 11);
  CHECK(m.cell[3] == 13);
  // Edges: three, no wrap-around between rows.
  const auto& e = b.neighbours(14);
  REQUIRE(e.count == 3);
  CHECK(e.cell[0] == 9);
  CHECK(e.cell[1] == 19);
  CHECK(e.cell[2] == 13);
  CHECK(b.step(14, Dir::Right) == -1);
  CHECK(b.step(15, Dir::Left) == -1);
  CHECK(b.step(22, Dir::Down) == -1);
  CHECK(b.step(2, Dir::Up) == -1);
  CHECK(b.step(7, Dir::Down) == 12);
}

TEST_CASE("Board neighbours are symmetric and match the grid on every board", "[board]") {
  for (int w = 2; w <= kMaxBoardCells / 2; ++w) {
    for (int h = 2; w * h <= kMaxBoardCells; ++h) {
      const Board b(w, h);
      int edges = 0;
      for (int c = 0; c < b.cells(); ++c) {
        const auto& n = b.neighbours(c);
        int expected = 0;
        for (int d = 0; d < 4; ++d) {
          const int t = b.step(c, static_cast<Dir>(d));
          if (t < 0) continue;
          ++expected;
          CHECK(std::abs(b.row(t) - b.row(c)) + std::abs(b.col(t) - b.col(c)) == 1);
          // Moving back in the opposite direction returns.
          const int back = b.step(t, static_cast<Dir>(d ^ 1));
          CHECK(back == c);
        }
        CHECK(n.count == expected);
        for (int k = 0; k < n.count; ++k) CHECK(b.step(c, n.dir[k]) == n.cell[k]);
        edges += n.count;
      }
      // Each undirected grid edge counted twice.
      CHECK(edges == 2 * ((w - 1) * h + (h - 1) * w));
    }
  }
}

TEST_CASE("Board::parse", "[board]") {
  auto b = Board::parse("3x3");
  REQUIRE(b);
  CHECK(b->width() == 3);
  CHECK(b->height() == 3);

  b = Board::parse("2x6");
  REQUIRE(b);
  CHECK(b->width() == 2);
  CHECK(b->height() == 6);
  CHECK(b->name() == "2x6");

  b = Board::parse("4X4");
  REQUIRE(b);
  CHECK(b->cells() == 16);

  b = Board::parse("8x2");
  REQUIRE(b);
  CHECK(b->width() == 8);

  // Up to 25 cells.
  b = Board::parse("5x5");
  REQUIRE(b);
  CHECK(b->cells() == 25);
  b = Board::parse("4x5");
  REQUIRE(b);
  CHECK(b->width() == 4);
  CHECK(b->height() == 5);
  CHECK(Board::parse("5X4") == Board(5, 4));
  CHECK(Board::parse("2x12") == Board(2, 12));
  CHECK(Board::parse("3x6") == Board(3, 6));

  for (const char* bad : {"1x5", "5x1", "6x5", "5x6", "2x13", "13x2", "6x6", "3x9", "17x1", "0x0", "-2x3", "3x", "x3",
                          "x", "abc", "", "3x3x", "3 x3", "3x3 ", "33", "3*3", "65536x65536", "99999999x99999999"}) {
    INFO("text: '" << bad << "'");
    CHECK_FALSE(Board::parse(bad).has_value());
  }
}

TEST_CASE("Board constructor rejects unsupported sizes", "[board]") {
  CHECK_THROWS_AS(Board(1, 5), std::invalid_argument);
  CHECK_THROWS_AS(Board(5, 1), std::invalid_argument);
  CHECK_THROWS_AS(Board(6, 5), std::invalid_argument);
  CHECK_THROWS_AS(Board(2, 13), std::invalid_argument);
  CHECK_THROWS_AS(Board(65536, 65536), std::invalid_argument);  // W*H would overflow an int
  CHECK_THROWS_WITH(Board(6, 6), Contains("6x6") && Contains("W*H <= 25"));
  CHECK_NOTHROW(Board(2, 8));
  CHECK_NOTHROW(Board(4, 4));
  CHECK_NOTHROW(Board(5, 5));
  CHECK_NOTHROW(Board(3, 6));
  CHECK_NOTHROW(Board(2, 12));
  CHECK(Board(2, 3) == Board(2, 3));
  CHECK_FALSE(Board(2, 3) == Board(3, 2));
}

TEST_CASE("parse_state accepts every spelling of a 3x3 state", "[state]") {
  const std::vector<int> expected{1, 2, 3, 4, 5, 6, 7, 8, 0};
  for (const char* text : {"1 2 3 4 5 6 7 8 0", "123456780", "12345678_", "12345678.", "1 2 3/4 5 6/7 8 0",
                           "123/456/780", "1 2 3\n4 5 6\n7 8 0", "1 2 3\r\n4 5 6\r\n7 8 0\r\n", "1,2,3,4,5,6,7,8,0",
                           "1, 2, 3, 4, 5, 6, 7, 8, 0", "1 2 3 4 5 6 7 8 _", "1 2 3 4 5 6 7 8 .", "  1\t2 3 4 5 6 7 8 0  ",
                           "1 2 3 / 4 5 6 / 7 8 _", "1 2 3\n\n4 5 6\n7 8 0\n", "1;2;3;4;5;6;7;8;0"}) {
    INFO("text: '" << text << "'");
    const State s = parse_state(text);
    CHECK(s.board == Board(3, 3));
    CHECK(tiles_of(s) == expected);
    CHECK(s.blank == 8);
  }
  // The blank anywhere.
  const State s = parse_state("_ 1 2 3 4 5 6 7 8");
  CHECK(s.blank == 0);
  CHECK(s.tiles[0] == 0);
  CHECK(s.tiles[8] == 8);
  CHECK(parse_state("1 2 3 4 . 5 6 7 8").blank == 4);
  CHECK(parse_state("8 7 6 5 4 3 2 1 0").tiles[0] == 8);
}

TEST_CASE("parse_state infers the board", "[state]") {
  SECTION("square counts") {
    State s = parse_state("1 2 3 0");
    CHECK(s.board == Board(2, 2));
    CHECK(s.blank == 3);
    s = parse_state("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0");
    CHECK(s.board == Board(4, 4));
    CHECK(s.tiles[14] == 15);
    CHECK(s.blank == 15);
    s = parse_state("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");
    CHECK(s.blank == 0);
    CHECK(s.tiles[15] == 15);
  }
  SECTION("rows split by '/'") {
    State s = parse_state("1 2 3/4 5 0");
    CHECK(s.board.width() == 3);
    CHECK(s.board.height() == 2);
    CHECK(s.blank == 5);
    CHECK(tiles_of(s) == std::vector<int>{1, 2, 3, 4, 5, 0});

    s = parse_state("1 2/3 4/5 0");
    CHECK(s.board.width() == 2);
    CHECK(s.board.height() == 3);
    CHECK(tiles_of(s) == std::vector<int>{1, 2, 3, 4, 5, 0});

    s = parse_state("12/34/50");
    CHECK(s.board == Board(2, 3));
    CHECK(s.blank == 5);

    s = parse_state("1 2 3 4 5 6/7 8 9 10 11 0");
    CHECK(s.board == Board(6, 2));

    s = parse_state("1 2 3 4\n5 6 7 8\n9 10 11 0");
    CHECK(s.board == Board(4, 3));
    CHECK(s.tiles[10] == 11);
  }
  SECTION("explicit board for non-square counts") {
    const State a = parse_state("1 2 3 4 5 0", Board(3, 2));
    CHECK(a.board == Board(3, 2));
    const State b = parse_state("1 2 3 4 5 0", Board(2, 3));
    CHECK(b.board == Board(2, 3));
    CHECK(tiles_of(a) == tiles_of(b));
    const State c = parse_state("123450", Board(3, 2));
    CHECK(c.board == Board(3, 2));
    CHECK(c.blank == 5);
    const State d = parse_state("1 2 3 4 5 6 7 8 9 10 11 0", Board(2, 6));
    CHECK(d.board == Board(2, 6));
    CHECK(d.tiles[10] == 11);
    // Without the board, a non-square count is an error that says what to do.
    CHECK_THAT(parse_error("1 2 3 4 5 0"), Contains("board"));
    CHECK_THAT(parse_error("1 2 3 4 5 6 7 8 9 10 11 0"), Contains("--board"));
  }
  SECTION("rows must agree with an explicit board and with each other") {
    CHECK(parse_state("1 2/3 4/5 0", Board(2, 3)).board == Board(2, 3));
    CHECK_THAT(parse_error("1 2 3/4 5 0", Board(2, 3)), Contains("2 rows of 3 tiles do not fit a 2x3 board"));
    CHECK_THAT(parse_error("1 2 3/4 5 6 7/8 0"), Contains("rows of unequal length (3, 4, 2 tiles)"));
    CHECK_THAT(parse_error("1 2 3/4 5 6 7/8 0", Board(3, 3)), Contains("rows of unequal length"));
  }
}

TEST_CASE("parse_state errors name the problem", "[state][errors]") {
  SECTION("wrong count") {
    CHECK_THAT(parse_error("1 2 3 4 5 6 7 0", Board(3, 3)), Contains("expected 9 tiles") && Contains("got 8"));
    CHECK_THAT(parse_error("1 2 3 4 5 6 7 8 9 0", Board(3, 3)), Contains("expected 9 tiles") && Contains("got 10"));
    CHECK_THAT(parse_error("1 2 3 0", Board(3, 3)), Contains("3x3"));
    CHECK_THAT(parse_error("1 2 3 4 5 6 7 0"), Contains("8 tiles"));  // no board fits 8 without --board
  }
  SECTION("duplicate tile") {
    CHECK_THAT(parse_error("1 2 3 4 5 6 7 7 0"), Contains("tile 7 appears twice"));
    CHECK_THAT(parse_error("1 1 3 4 5 6 7 8 0"), Contains("tile 1 appears twice"));
  }
  SECTION("unknown symbol") {
    CHECK_THAT(parse_error("1 2 3 4 5 6 7 x 0"), Contains("unknown symbol") && Contains("'x'"));
    CHECK_THAT(parse_error("1 2 3 4 5 6 7 8 *"), Contains("unknown symbol"));
    CHECK_THAT(parse_error("1 2 3 4 5 6 7 -8 0"), Contains("unknown symbol"));
    CHECK_THAT(parse_error("1 2 3 4 5 6 7 8a 0"), Contains("unknown symbol"));
    CHECK_THAT(parse_error("12345678x"), Contains("unknown symbol") && Contains("'x'"));
  }
  SECTION("out-of-range tile") {
    CHECK_THAT(parse_error("1 2 3 4 5 6 7 9 0"), Contains("tile 9") && Contains("3x3"));
    CHECK_THAT(parse_error("1 2 3 16"), Contains("tile 16"));
    CHECK_THAT(parse_error("1 2 3 4 5 6"), Contains("board"));
    CHECK_THAT(parse_error("1 2 3 4 5 6", Board(3, 2)), Contains("tile 6") && Contains("does not fit"));
  }
  SECTION("two blanks") {
    CHECK_THAT(parse_error("1 2 3 4 5 6 7 0 0"), Contains("blank appears twice"));
    CHECK_THAT(parse_error("1 2 3 4 5 6 7 _ 0"), Contains("blank appears twice"));
    CHECK_THAT(parse_error("1234567._"), Contains("blank appears twice"));
  }
  SECTION("empty input") {
    CHECK_THAT(parse_error(""), Contains("empty"));
    CHECK_THAT(parse_error("   \n  \t "), Contains("empty"));
    CHECK_THAT(parse_error(",,/,"), Contains("empty"));
  }
  SECTION("too many cells") {
    std::string t36;
    for (int v = 1; v <= 36; ++v) t36 += std::to_string(v % 36) + " ";
    CHECK_THAT(parse_error(t36), Contains("36 tiles") && Contains("at most 25 cells"));
    CHECK_THAT(parse_error("1 2 3 4 5 6/7 8 9 10 11 12/13 14 15 16 17 18/19 20 21 22 23 24/25 26 27 28 29 30/31 32 33 34 35 0"),
               Contains("36 tiles"));
    CHECK_THAT(parse_error("12345678901"), Contains("10 cells"));
  }
}

TEST_CASE("parse_state reads 5x5 states in every separated spelling", "[state][5x5]") {
  // Korf & Felner's first 24-puzzle instance (tests/data/korf24.tsv).
  const std::string line = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";
  const std::vector<int> expected{14, 5, 9, 2, 18, 8, 23, 19, 12, 17, 15, 0, 10, 20, 4, 6, 11, 21, 1, 7, 24, 3, 16, 22, 13};
  const std::string rows = "14 5 9 2 18/8 23 19 12 17/15 0 10 20 4/6 11 21 1 7/24 3 16 22 13";
  const std::string lines = "14 5 9 2 18\n8 23 19 12 17\n15 _ 10 20 4\n6 11 21 1 7\n24 3 16 22 13\n";
  const std::string commas = "14,5,9,2,18,8,23,19,12,17,15,.,10,20,4,6,11,21,1,7,24,3,16,22,13";
  for (const std::string& text : {line, rows, lines, commas}) {
    INFO("text: '" << text << "'");
    for (const std::optional<Board>& board : {std::optional<Board>{}, std::optional<Board>{Board(5, 5)}}) {
      const State s = parse_state(text, board);
      CHECK(s.board == Board(5, 5));
      CHECK(tiles_of(s) == expected);
      CHECK(s.blank == 11);
    }
  }
  const State s = parse_state(line);
  CHECK(s.to_string() == line);
  CHECK(parse_state(s.to_string()) == s);
  CHECK(s.compact() == "14-5-9-2-18-8-23-19-12-17-15-0-10-20-4-6-11-21-1-7-24-3-16-22-13");
  CHECK(s.moved(6).blank == 6);
  CHECK(s.moved(6).tiles[11] == 23);

  SECTION("4x5 and 5x4 from rows or --board") {
    std::string twenty;
    for (int v = 1; v < 20; ++v) twenty += std::to_string(v) + " ";
    twenty += "0";
    CHECK(parse_state(twenty, Board(4, 5)).board == Board(4, 5));
    CHECK(parse_state(twenty, Board(5, 4)).blank == 19);
    CHECK_THAT(parse_error(twenty), Contains("cannot tell the board from 20 tiles") && Contains("--board"));
    const State r = parse_state("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 16/17 18 19 0");
    CHECK(r.board == Board(4, 5));
    CHECK(r.tiles[18] == 19);
    CHECK(parse_state("1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 0").board == Board(5, 4));
    CHECK(parse_state("1 2 3/4 5 6/7 8 9/10 11 12/13 14 15/16 17 0").board == Board(3, 6));
  }
  SECTION("canonical goals") {
    const Board b(5, 5);
    CHECK(canonical_goal(b, 24) ==
          parse_state("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0"));
    CHECK(canonical_goal(b, 0) ==
          parse_state("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24"));
    for (int c = 0; c < b.cells(); ++c) {
      const State g = canonical_goal(b, c);
      CHECK(g.blank == c);
      CHECK(parse_state(g.to_string(), b) == g);
    }
  }
}

TEST_CASE("5x5 parse errors name the problem", "[state][errors][5x5]") {
  const Board b(5, 5);
  // "1 2 ... 24 0" with the token at cell `at` replaced by `token`.
  auto text = [](int at = -1, const std::string& token = "") {
    std::string s;
    for (int c = 0; c < 25; ++c) {
      if (c) s += ' ';
      s += c == at ? token : std::to_string((c + 1) % 25);
    }
    return s;
  };
  REQUIRE(parse_state(text()).board == b);

  SECTION("wrong count") {
    const std::string all = text();
    CHECK_THAT(parse_error(all.substr(0, all.rfind(' ')), b), Contains("expected 25 tiles for a 5x5 board, got 24"));
    CHECK_THAT(parse_error(all + " 25", b), Contains("expected 25 tiles") && Contains("got 26"));
    CHECK_THAT(parse_error("1 2 3 4 5 6 7 8 0", b), Contains("got 9"));
  }
  SECTION("duplicates") {
    CHECK_THAT(parse_error(text(3, "24")), Contains("tile 24 appears twice"));
    CHECK_THAT(parse_error(text(0, "_"), b), Contains("blank appears twice"));
  }
  SECTION("unknown symbols and out-of-range tiles") {
    CHECK_THAT(parse_error(text(20, "x")), Contains("unknown symbol 'x'"));
    CHECK_THAT(parse_error(text(7, "25")), Contains("tile 25 does not fit a 5x5 board") && Contains("tiles 1-24"));
    CHECK_THAT(parse_error(text(7, "31"), b), Contains("tile 31 does not fit"));    // beyond a 32-bit set, too
    CHECK_THAT(parse_error(text(7, "255"), b), Contains("tile 255 does not fit"));  // would wrap a byte
  }
  SECTION("the form without separators stays limited to 10 cells") {
    CHECK_THAT(parse_error("123456789ABCDEFGHIJKLMNO_"), Contains("at most 10 cells"));
    CHECK_THAT(parse_error("123456789ABCDEFGHIJKLMNO_", b), Contains("at most 10 cells"));
    CHECK_THAT(parse_error("12345/6789A/BCDEF/GHIJK/LMNO_"), Contains("at most 10 cells") && Contains("25 tiles"));
  }
}

TEST_CASE("5x5 start/goal files and labelled pairs", "[state][file][5x5]") {
  testing::TempDir dir;
  const std::string start_rows = "1 2 3 4 5\n6 7 8 9 10\n11 12 0 13 14\n15 16 17 18 19\n20 21 22 23 24\n";
  const std::string goal_rows = "0 1 2 3 4\n5 6 7 8 9\n10 11 12 13 14\n15 16 17 18 19\n20 21 22 23 24\n";
  SECTION("two blocks of rows") {
    const auto path = write(dir, "5x5.txt", start_rows + "\n" + goal_rows);
    const auto [start, goal] = read_state_file(path);
    CHECK(start.board == Board(5, 5));
    CHECK(start.blank == 12);
    REQUIRE(goal.has_value());
    CHECK(*goal == canonical_goal(Board(5, 5), 0));
  }
  SECTION("two lines, the goal with too few tiles") {
    const auto path = write(dir, "bad.txt", "1 2 3 4 5 6 7 8 9 10 11 12 0 13 14 15 16 17 18 19 20 21 22 23 24\n1 2 3 0\n");
    CHECK_THROWS_WITH(read_state_file(path), Contains("bad.txt") && Contains("expected 25 tiles"));
  }
  SECTION("labelled tiles") {
    const std::string letters = "A B C D E F G H I J K L M N O P Q R S T U V W X";
    const LabelledPair lp = parse_labelled_pair("B A C D E F G H I J K L M N O P Q R S T U V W X _",
                                                letters + " _", std::nullopt);
    CHECK(lp.goal == canonical_goal(Board(5, 5), 24));
    CHECK(lp.start.tiles[0] == 2);
    CHECK(lp.start.tiles[1] == 1);
    CHECK(lp.labels.name(24) == "X");
    CHECK(lp.labels.format(lp.start).substr(0, 4) == "B A ");
    CHECK_THROWS_WITH(parse_labelled_pair("B B C D E F G H I J K L M N O P Q R S T U V W X _", letters + " _",
                                          std::nullopt),
                      Contains("'B' appears twice"));
    CHECK_THROWS_WITH(parse_labelled_pair("Z A C D E F G H I J K L M N O P Q R S T U V W X _", letters + " _",
                                          std::nullopt),
                      Contains("'Z'") && Contains("not in the goal"));
  }
}

TEST_CASE("State packed and unpack round trip", "[state]") {
  const State goal = parse_state("1 2 3 4 5 6 7 8 0");
  CHECK(goal.packed() == 0x087654321ull);
  const State g0 = parse_state("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");
  CHECK(g0.packed() == 0xFEDCBA9876543210ull);

  for (const char* text : {"1 2 3 4 5 6 7 8 0", "8 7 6 5 4 3 2 1 0", "0 8 7 6 5 4 3 2 1", "1 3 2/4 0 5/6 7 8",
                           "15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0", "3 1 2 0", "1 2 3 4 5 6/7 8 9 10 11 0"}) {
    INFO(text);
    const State s = parse_state(text);
    const State u = State::unpack(s.board, s.packed());
    CHECK(u == s);
    CHECK(u.blank == s.blank);
    CHECK(u.packed() == s.packed());
    CHECK(u.to_string() == s.to_string());
  }
  // Different states pack differently.
  CHECK(parse_state("1 2 3 4 5 6 7 8 0").packed() != parse_state("1 2 3 4 5 6 7 0 8").packed());
}

TEST_CASE("State moved, to_string and compact", "[state]") {
  const State s = parse_state("1 2 3 4 5 6 7 8 0");
  const State up = s.moved(5);
  CHECK(up.to_string() == "1 2 3 4 5 0 7 8 6");
  CHECK(up.blank == 5);
  const State left = s.moved(7);
  CHECK(left.to_string() == "1 2 3 4 5 6 7 0 8");
  CHECK(left.moved(8) == s);
  CHECK(s.compact() == "123456780");
  CHECK(parse_state("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0").compact() == "1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-0");
  CHECK(parse_state("1 2 3 4 5 6 7 8 9 0", Board(2, 5)).compact() == "1234567890");
}

TEST_CASE("canonical_goal", "[state]") {
  const Board b(3, 3);
  CHECK(canonical_goal(b, 8).to_string() == "1 2 3 4 5 6 7 8 0");
  CHECK(canonical_goal(b, 0).to_string() == "0 1 2 3 4 5 6 7 8");
  CHECK(canonical_goal(b, 4).to_string() == "1 2 3 4 0 5 6 7 8");
  CHECK(canonical_goal(b, 1).to_string() == "1 0 2 3 4 5 6 7 8");
  for (int c = 0; c < 9; ++c) CHECK(canonical_goal(b, c).blank == c);
  CHECK(canonical_goal(b, 8) == parse_state("1 2 3 4 5 6 7 8 0"));
  CHECK(canonical_goal(Board(4, 4), 0) == parse_state("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"));
  const State g = canonical_goal(Board(2, 3), 5);
  CHECK(g.board == Board(2, 3));
  CHECK(g.to_string() == "1 2 3 4 5 0");
}

TEST_CASE("read_state_file", "[state][file]") {
  testing::TempDir dir;

  SECTION("start and goal on two lines") {
    const auto path = write(dir, "two-lines.txt", "1 3 2 4 0 5 6 7 8\n1 2 3 8 0 4 7 6 5\n");
    const auto [start, goal] = read_state_file(path);
    CHECK(start.to_string() == "1 3 2 4 0 5 6 7 8");
    REQUIRE(goal.has_value());
    CHECK(goal->to_string() == "1 2 3 8 0 4 7 6 5");
    CHECK(goal->blank == 4);
  }
  SECTION("two blocks of rows") {
    const auto path = write(dir, "blocks.txt", "1 3 2\n4 0 5\n6 7 8\n\n1 2 3\n8 0 4\n7 6 5\n");
    const auto [start, goal] = read_state_file(path);
    CHECK(start.to_string() == "1 3 2 4 0 5 6 7 8");
    REQUIRE(goal.has_value());
    CHECK(goal->to_string() == "1 2 3 8 0 4 7 6 5");
  }
  SECTION("CRLF line ends and surrounding blank lines") {
    const auto path = write(dir, "crlf.txt", "\r\n1 3 2 4 0 5 6 7 8\r\n1 2 3 8 0 4 7 6 5\r\n\r\n");
    const auto [start, goal] = read_state_file(path);
    CHECK(start.blank == 4);
    REQUIRE(goal.has_value());
    CHECK(goal->to_string() == "1 2 3 8 0 4 7 6 5");
  }
  SECTION("one state, no goal") {
    const auto path = write(dir, "one.txt", "8 7 6 5 4 3 2 1 0\n");
    const auto [start, goal] = read_state_file(path);
    CHECK(start.to_string() == "8 7 6 5 4 3 2 1 0");
    CHECK_FALSE(goal.has_value());
  }
  SECTION("one block of rows, no goal") {
    // Three rows (two lines would be read as start and goal).
    const auto path = write(dir, "rows.txt", "1 2\n3 4\n5 0\n");
    const auto [start, goal] = read_state_file(path);
    CHECK(start.board == Board(2, 3));
    CHECK(start.blank == 5);
    CHECK_FALSE(goal.has_value());
  }
  SECTION("the goal takes the start's board") {
    const auto path = write(dir, "3x2.txt", "1 2 3/4 5 0\n0 1 2 3 4 5\n");
    const auto [start, goal] = read_state_file(path);
    CHECK(start.board == Board(3, 2));
    REQUIRE(goal.has_value());
    CHECK(goal->board == Board(3, 2));
    CHECK(goal->blank == 0);
  }
  SECTION("explicit board") {
    const auto path = write(dir, "2x3.txt", "1 2 3 4 5 0\n1 2 3 4 0 5\n");
    const auto [start, goal] = read_state_file(path, Board(2, 3));
    CHECK(start.board == Board(2, 3));
    REQUIRE(goal.has_value());
    CHECK(goal->board == Board(2, 3));
    CHECK(goal->blank == 4);
  }
  SECTION("missing file") {
    const auto path = (dir.path / "no-such-file.txt").string();
    CHECK_THROWS_WITH(read_state_file(path), Contains("cannot read") && Contains("no-such-file.txt"));
  }
  SECTION("binary garbage") {
    const auto path = write(dir, "garbage.bin", std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0\xff\xfe", 14));
    CHECK_THROWS_WITH(read_state_file(path), Contains("garbage.bin") && Contains("not a text file"));
  }
  SECTION("text garbage") {
    const auto path = write(dir, "garbage.txt", "hello world, this is not a puzzle\n");
    CHECK_THROWS_WITH(read_state_file(path), Contains("garbage.txt"));
  }
  SECTION("bad goal is reported with the file name") {
    const auto path = write(dir, "badgoal.txt", "1 3 2 4 0 5 6 7 8\n1 2 3 8 0 4 7 7 5\n");
    CHECK_THROWS_WITH(read_state_file(path), Contains("badgoal.txt") && Contains("tile 7 appears twice"));
  }
  SECTION("empty file") {
    const auto path = write(dir, "empty.txt", "\n  \n");
    CHECK_THROWS_AS(read_state_file(path), InputError);
  }
  SECTION("three blocks") {
    const auto path = write(dir, "three.txt", "1 2 3 0\n\n1 2 0 3\n\n1 0 2 3\n");
    CHECK_THROWS_WITH(read_state_file(path), Contains("three.txt line 5: unexpected text after the start and the goal"));
  }
}
