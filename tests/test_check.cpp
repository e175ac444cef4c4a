// The verdict engine of `tilespace check`: every verdict on hand-made 3x3 answers against an exact
// BFS oracle, when the oracle is asked, parse_answer's fields and messages, describe's wording,
// the summary, JUnit XML read back by a small strict parser, and properties on random states.
#include <catch2/catch.hpp>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "support.hpp"
#include "tilespace/check.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/state.hpp"

using namespace tilespace;

namespace {

const State& goal9() {
  static const State g = parse_state("1 2 3 4 5 6 7 8 0");
  return g;
}

// Distances to goal9 of every reachable 3x3 state, computed once.
const std::unordered_map<std::uint64_t, int>& goal9_distances() {
  static const auto d = testing::naive_bfs(goal9());
  return d;
}

// The exact oracle for goal9, counting its calls. `known = false` makes it a search that always
// hits its limit; `lie` is added to every optimum (a broken oracle).
struct BfsOracle {
  int calls = 0;
  bool known = true;
  int lie = 0;
  Optimum operator()(const State& start, const State& goal) {
    ++calls;
    REQUIRE(goal == goal9());
    const auto it = goal9_distances().find(start.packed());
    REQUIRE(it != goal9_distances().end());
    return known ? Optimum{true, it->second + lie} : Optimum{};
  }
};

LineVerdict check(const std::string& start, const State& goal, const std::string& answer, BfsOracle& oracle) {
  return check_answer(parse_state(start), goal, parse_answer(answer), oracle);
}

// The message parse_answer throws for `field`, or "" (and a failed check) if it accepts it.
std::string answer_error(const std::string& field) {
  try {
    parse_answer(field);
    FAIL_CHECK("parse_answer accepted '" << field << "'");
  } catch (const InputError& e) {
    CHECK(e.about == InputError::About::general);
    CHECK(e.detail == e.what());
    return e.what();
  }
  return "";
}

// --- a strict reader for the XML junit_xml writes --------------------------------------------
// Elements, attributes in double quotes, text, the five named entities and numeric character
// references; every byte must be an XML 1.0 character (tab, LF, CR or >= 0x20; UTF-8 checked by
// the decoder of std::string's bytes below). Throws std::runtime_error at the first fault.
struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;
  std::vector<Element> children;
};

struct XmlReader {
  std::string_view s;
  std::size_t i = 0;

  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("XML byte " + std::to_string(i) + ": " + why);
  }
  bool at(std::string_view t) const { return s.substr(i, t.size()) == t; }
  void expect(std::string_view t) {
    if (!at(t)) fail("expected '" + std::string(t) + "'");
    i += t.size();
  }
  void spaces() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')) ++i;
  }
  std::string name() {
    const std::size_t b = i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '-')) ++i;
    if (i == b) fail("expected a name");
    return std::string(s.substr(b, i - b));
  }
  // One character of text or of an attribute value, with references resolved.
  void character(std::string& out) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') fail("control character");
    if (c == '<') fail("raw '<'");
    if (c != '&') {
      out += s[i++];
      return;
    }
    static const std::map<std::string, std::string> named{
        {"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}};
    const std::size_t semi = s.find(';', i);
    if (semi == std::string_view::npos) fail("unterminated reference");
    const std::string ref(s.substr(i + 1, semi - i - 1));
    if (ref.size() > 1 && ref[0] == '#') {
      const int code = std::stoi(ref.substr(1));
      if (code != 9 && code != 10 && code != 13 && code < 0x20) fail("reference to a forbidden character");
      if (code >= 0x80) fail("non-ASCII reference (not written by junit_xml)");
      out += static_cast<char>(code);
    } else if (named.count(ref)) {
      out += named.at(ref);
    } else {
      fail("unknown entity '" + ref + "'");
    }
    i = semi + 1;
  }
  Element element() {
    expect("<");
    Element e;
    e.name = name();
    for (;;) {
      spaces();
      if (at("/>")) {
        i += 2;
        return e;
      }
      if (at(">")) break;
      const std::string key = name();
      expect("=\"");
      std::string value;
      while (i < s.size() && s[i] != '"') character(value);
      expect("\"");
      if (!e.attributes.emplace(key, value).second) fail("duplicate attribute " + key);
    }
    ++i;
    for (;;) {
      if (i >= s.size()) fail("unclosed <" + e.name + ">");
      if (at("</")) {
        i += 2;
        if (name() != e.name) fail("mismatched end tag of <" + e.name + ">");
        spaces();
        expect(">");
        return e;
      }
      if (at("<")) {
        e.children.push_back(element());
      } else {
        if (at("]]>")) fail("']]>' in text");
        character(e.text);
      }
    }
  }
  Element document() {
    expect("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    spaces();
    Element root = element();
    spaces();
    if (i != s.size()) fail("content after the root element");
    return root;
  }
};

// True when `s` is well-formed UTF-8 without surrogates, overlongs, U+FFFE or U+FFFF.
bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const int n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    std::uint32_t cp = n == 1 ? b : b & (0x7Fu >> n);
    for (int k = 1; k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c >> 6) != 2) return false;
      cp = (cp << 6) | (c & 0x3Fu);
    }
    const std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF) return false;
    i += n;
  }
  return true;
}

Element read_xml(const std::string& xml) {
  REQUIRE(valid_utf8(xml));
  XmlReader r{xml};
  try {
    return r.document();
  } catch (const std::runtime_error& e) {
    FAIL(e.what() << "\n" << xml);
  }
  return {};
}

// The letter of the move that takes the blank of `s` to `to`.
char letter(const State& s, int to) {
  const int d = to - s.blank, w = s.board.width();
  return d == -w ? 'U' : d == w ? 'D' : d == -1 ? 'L' : 'R';
}

// An optimal path from `s` to goal9 by descent on the BFS distances (a random choice at each step).
std::string optimal_path(State s, std::mt19937_64& rng) {
  const auto& dist = goal9_distances();
  std::string moves;
  for (int d = dist.at(s.packed()); d > 0; --d) {
    const auto& nb = s.board.neighbours(s.blank);
    std::vector<int> down;
    for (int k = 0; k < nb.count; ++k)
      if (dist.at(s.moved(nb.cell[k]).packed()) == d - 1) down.push_back(nb.cell[k]);
    REQUIRE(!down.empty());
    const int to = down[std::uniform_int_distribution<std::size_t>(0, down.size() - 1)(rng)];
    moves += letter(s, to);
    s = s.moved(to);
  }
  return moves;
}

}  // namespace

TEST_CASE("check: every verdict on hand-made 3x3 answers, the oracle asked only for reachable pairs", "[check]") {
  const State& goal = goal9();
  const std::string one_away = "1 2 3 4 5 6 7 0 8";  // 'R' reaches the goal
  BfsOracle oracle;

  SECTION("the optimal path is ok") {
    const LineVerdict v = check(one_away, goal, "R", oracle);
    CHECK(v.verdict == Verdict::ok);
    CHECK(v.answered == 1);
    CHECK(v.optimal == 1);
    CHECK(oracle.calls == 1);
    CHECK(describe(v, goal) == "optimal (1 move)");
  }
  SECTION("zero moves from the goal itself are ok") {
    const LineVerdict v = check("1 2 3 4 5 6 7 8 0", goal, "", oracle);
    CHECK(v.verdict == Verdict::ok);
    CHECK(v.answered == 0);
    CHECK(describe(v, goal) == "optimal (0 moves)");
  }
  SECTION("a move off the board is illegal; the optimum is reported beside it") {
    LineVerdict v = check(one_away, goal, "D", oracle);
    CHECK(v.verdict == Verdict::illegal_move);
    CHECK(v.step == 1);
    CHECK(v.move == 'D');
    CHECK(describe(v, goal) == "step 1: 'D' moves the blank off the board");
    v = check(one_away, goal, "ruuu", oracle);  // R to cell 8, U to 5, U to 2, then off the top
    CHECK(v.verdict == Verdict::illegal_move);
    CHECK(v.step == 4);
    CHECK(v.move == 'U');
    CHECK(v.optimal == 1);
    CHECK(oracle.calls == 2);
  }
  SECTION("legal moves that end elsewhere are wrong_end; the optimum is reported beside it") {
    LineVerdict v = check(one_away, goal, "RL", oracle);
    CHECK(v.verdict == Verdict::wrong_end);
    CHECK(v.end == parse_state(one_away));
    CHECK(v.answered == 2);
    CHECK(describe(v, goal) == "the 2 moves end at 1 2 3 4 5 6 7 0 8, not at the goal 1 2 3 4 5 6 7 8 0");
    v = check(one_away, goal, "L", oracle);
    CHECK(v.verdict == Verdict::wrong_end);
    CHECK(describe(v, goal) == "the 1 move ends at 1 2 3 4 5 6 0 7 8, not at the goal 1 2 3 4 5 6 7 8 0");
    v = check(one_away, goal, "", oracle);
    CHECK(v.verdict == Verdict::wrong_end);
    CHECK(describe(v, goal) == "no moves, and the start 1 2 3 4 5 6 7 0 8 is not the goal 1 2 3 4 5 6 7 8 0");
    CHECK(v.optimal == 1);
    CHECK(oracle.calls == 3);
  }
  SECTION("a longer path to the goal is longer, by answered - optimal") {
    const LineVerdict v = check(one_away, goal, "RLR", oracle);
    CHECK(v.verdict == Verdict::longer);
    CHECK(v.answered == 3);
    CHECK(v.optimal == 1);
    CHECK(oracle.calls == 1);
    CHECK(describe(v, goal) == "3 moves, 2 more than the optimal 1");
  }
  SECTION("a claimed length is ok when it is the optimum, else wrong_length") {
    LineVerdict v = check(one_away, goal, "1", oracle);
    CHECK(v.verdict == Verdict::ok);
    CHECK(v.kind == Answer::Kind::length);
    CHECK(describe(v, goal) == "optimal (1 move)");
    v = check(one_away, goal, "3", oracle);
    CHECK(v.verdict == Verdict::wrong_length);
    CHECK(v.answered == 3);
    CHECK(v.optimal == 1);
    CHECK(describe(v, goal) == "claimed 3 moves, the optimum is 1");
    CHECK(oracle.calls == 2);
  }
  SECTION("an unreachable pair (two tiles swapped): only 'unreachable' is ok; the oracle is never asked") {
    const State swapped = parse_state("2 1 3 4 5 6 7 8 0");
    const std::string start = "1 2 3 4 5 6 7 8 0";
    LineVerdict v = check_answer(parse_state(start), swapped, parse_answer("unreachable"), oracle);
    CHECK(v.verdict == Verdict::ok);
    CHECK(v.answered == -1);
    CHECK(describe(v, swapped) == "correct: the goal is unreachable from the start");
    for (const std::string answer : {"4", "0", "U", "ULDR", ""}) {
      v = check_answer(parse_state(start), swapped, parse_answer(answer), oracle);
      INFO("answer '" << answer << "'");
      CHECK(v.verdict == Verdict::unreachable_missed);
      CHECK(describe(v, swapped) == "the goal is unreachable from the start, but the answer is not 'unreachable'");
    }
    CHECK(check_answer(parse_state(start), swapped, parse_answer("4"), oracle).answered == 4);
    // The moves are replayed first: an illegal one is reported as such.
    v = check_answer(parse_state(start), swapped, parse_answer("UUUU"), oracle);
    CHECK(v.verdict == Verdict::illegal_move);
    CHECK(v.step == 3);
    CHECK(oracle.calls == 0);
  }
  SECTION("'unreachable' on a reachable pair is falsely_unreachable, with the optimum when known") {
    LineVerdict v = check(one_away, goal, "unreachable", oracle);
    CHECK(v.verdict == Verdict::falsely_unreachable);
    CHECK(v.answered == -1);
    CHECK(v.optimal == 1);
    CHECK(oracle.calls == 1);
    CHECK(describe(v, goal) == "answered 'unreachable', but the optimum is 1 move");
    oracle.known = false;
    v = check(one_away, goal, "unreachable", oracle);
    CHECK(v.verdict == Verdict::falsely_unreachable);
    CHECK(v.optimal == -1);
    CHECK(describe(v, goal) == "answered 'unreachable', but the goal is reachable");
  }
  SECTION("an oracle that cannot decide gives undecided for a legal path or a length") {
    oracle.known = false;
    LineVerdict v = check(one_away, goal, "RLR", oracle);
    CHECK(v.verdict == Verdict::undecided);
    CHECK(v.answered == 3);
    CHECK(v.optimal == -1);
    CHECK(describe(v, goal) == "could not prove the optimum within the limits (the path is legal, 3 moves)");
    v = check(one_away, goal, "1", oracle);
    CHECK(v.verdict == Verdict::undecided);
    CHECK(describe(v, goal) == "could not prove the optimum within the limits (claimed 1 move)");
    CHECK(oracle.calls == 2);
    // Illegal and wrong-end paths are decided without it (it is asked only for the optimum beside).
    v = check(one_away, goal, "D", oracle);
    CHECK(v.verdict == Verdict::illegal_move);
    CHECK(v.optimal == -1);
    v = check(one_away, goal, "RL", oracle);
    CHECK(v.verdict == Verdict::wrong_end);
    CHECK(v.optimal == -1);
    CHECK(oracle.calls == 4);
  }
  SECTION("a legal path shorter than the oracle's optimum proves the oracle wrong") {
    oracle.lie = 2;
    CHECK_THROWS_AS(check(one_away, goal, "R", oracle), std::logic_error);
    CHECK(check(one_away, goal, "RLRLR", oracle).verdict == Verdict::longer);  // 5 > 3: still decided
  }
  SECTION("an answer built by hand with a letter that is not a move is an illegal move") {
    Answer a;
    a.moves = "Rx";
    const LineVerdict v = check_answer(parse_state(one_away), goal, a, oracle);
    CHECK(v.verdict == Verdict::illegal_move);
    CHECK(v.step == 2);
    CHECK(describe(v, goal) == "step 2: 'x' is not a move (U, D, L, R)");
  }
}

TEST_CASE("check: verdict names", "[check]") {
  const char* const names[] = {"ok",           "illegal-move",       "wrong-end",           "longer",
                               "wrong-length", "unreachable-missed", "falsely-unreachable", "undecided"};
  static_assert(sizeof names / sizeof names[0] == kVerdicts);
  for (int v = 0; v < kVerdicts; ++v) CHECK(std::string(verdict_name(static_cast<Verdict>(v))) == names[v]);
}

TEST_CASE("check: parse_answer reads moves, lengths and 'unreachable' and names the first bad character", "[check]") {
  Answer a = parse_answer("RDLU");
  CHECK(a.kind == Answer::Kind::moves);
  CHECK(a.moves == "RDLU");
  CHECK(parse_answer("rdLu").moves == "RDLU");
  a = parse_answer("");
  CHECK(a.kind == Answer::Kind::moves);
  CHECK(a.moves.empty());
  a = parse_answer("22");
  CHECK(a.kind == Answer::Kind::length);
  CHECK(a.length == 22);
  CHECK(parse_answer("0").length == 0);
  CHECK(parse_answer("007").length == 7);
  CHECK(parse_answer("100000").length == 100000);
  CHECK(parse_answer("unreachable").kind == Answer::Kind::unreachable);
  // 'unreachable' in any case; moves parted by spaces or commas, as people write them.
  CHECK(parse_answer("UNREACHABLE").kind == Answer::Kind::unreachable);
  CHECK(parse_answer("Unreachable").kind == Answer::Kind::unreachable);
  CHECK(parse_answer("U L D L").moves == "ULDL");
  CHECK(parse_answer("u, l,d ,L").moves == "ULDL");
  CHECK(parse_answer(" R").moves == "R");
  CHECK(parse_answer(", ,").moves.empty());

  const std::string expected = ": expected moves (U, D, L, R, or with a count: R3), a length or 'unreachable'";
  CHECK(answer_error("RDLX") == "answer: 'X' (character 4) is not a move" + expected);
  CHECK(answer_error("Unreachabl") == "answer: 'n' (character 2) is not a move" + expected);
  CHECK(answer_error("U L X") == "answer: 'X' (character 5) is not a move" + expected);
  CHECK(answer_error("U;L") == "answer: ';' (character 2) is not a move" + expected);
  CHECK(answer_error("R\t") == "answer: byte 0x09 (character 2) is not a move" + expected);
  CHECK(answer_error("RD\r") == "answer: byte 0x0D (character 3) is not a move" + expected);
  CHECK(answer_error("-3") == "answer: '-' (character 1) is not a move" + expected);
  CHECK(answer_error("12R") == "answer: 'R' (character 3) is not a digit" + expected);
  CHECK(answer_error("2.5") == "answer: '.' (character 2) is not a digit" + expected);
  CHECK(answer_error("100001") == "answer: the length 100001 is above 100000");
  CHECK(answer_error("99999999999999999999999999") == "answer: the length 99999999999999999999... is above 100000");
  for (const std::string field : {"RDLX", "12R", "100001", "R\nD"})
    CHECK(answer_error(field).find('\n') == std::string::npos);
}

TEST_CASE("check: describe words singular and plural", "[check]") {
  const State& goal = goal9();
  LineVerdict v;
  v.verdict = Verdict::ok;
  v.answered = 22;
  CHECK(describe(v, goal) == "optimal (22 moves)");
  v.verdict = Verdict::longer;
  v.answered = 24;
  v.optimal = 22;
  CHECK(describe(v, goal) == "24 moves, 2 more than the optimal 22");
  v.answered = 2;
  v.optimal = 1;
  CHECK(describe(v, goal) == "2 moves, 1 more than the optimal 1");
  v.verdict = Verdict::wrong_length;
  v.kind = Answer::Kind::length;
  v.answered = 20;
  v.optimal = 22;
  CHECK(describe(v, goal) == "claimed 20 moves, the optimum is 22");
  v.answered = 1;
  CHECK(describe(v, goal) == "claimed 1 move, the optimum is 22");
  v.verdict = Verdict::falsely_unreachable;
  v.kind = Answer::Kind::unreachable;
  v.answered = -1;
  CHECK(describe(v, goal) == "answered 'unreachable', but the optimum is 22 moves");
  v.verdict = Verdict::undecided;
  v.kind = Answer::Kind::moves;
  v.answered = 30;
  v.optimal = -1;
  CHECK(describe(v, goal) == "could not prove the optimum within the limits (the path is legal, 30 moves)");
  v.verdict = Verdict::wrong_end;
  v.answered = 12;
  v.end = parse_state("1 2 3 4 5 6 0 7 8");
  CHECK(describe(v, goal) == "the 12 moves end at 1 2 3 4 5 6 0 7 8, not at the goal 1 2 3 4 5 6 7 8 0");
  v.verdict = Verdict::illegal_move;
  v.step = 3;
  v.move = 'L';
  CHECK(describe(v, goal) == "step 3: 'L' moves the blank off the board");
}

TEST_CASE("check: CheckSummary counts verdicts, passes and the excess of longer paths", "[check]") {
  CheckSummary sum;
  auto add = [&](Verdict verdict, int answered = -1, int optimal = -1) {
    LineVerdict v;
    v.verdict = verdict;
    v.answered = answered;
    v.optimal = optimal;
    sum.add(v);
  };
  add(Verdict::ok, 22, 22);
  add(Verdict::ok);
  add(Verdict::longer, 24, 22);
  add(Verdict::longer, 31, 21);
  add(Verdict::illegal_move, 5);
  add(Verdict::wrong_end, 7);
  add(Verdict::wrong_length, 20, 22);
  add(Verdict::unreachable_missed, 3);
  add(Verdict::falsely_unreachable);
  add(Verdict::undecided, 30);
  add(Verdict::undecided, 40);
  CHECK(sum.lines == 11);
  CHECK(sum.passed == 2);
  CHECK(sum.failed() == 7);     // undecided is not a pass, and not a failure either
  CHECK(sum.undecided() == 2);  // every line is passed, failed or undecided
  CHECK(sum.total_excess == 12);
  const std::uint64_t by[kVerdicts] = {2, 1, 1, 2, 1, 1, 1, 2};
  for (int i = 0; i < kVerdicts; ++i) {
    INFO(verdict_name(static_cast<Verdict>(i)));
    CHECK(sum.by_verdict[i] == by[i]);
  }
  CHECK(CheckSummary{}.failed() == 0);
  CHECK(CheckSummary{}.undecided() == 0);
}

TEST_CASE("check: junit_xml writes a skipped case as <skipped message=reason>, counted in skipped= only", "[check]") {
  std::vector<JUnitCase> cases(3);
  cases[0].name = "line 1";
  cases[1].name = "line 2";
  cases[1].skipped = true;
  cases[1].message = "could not prove the optimum within the limits (claimed 57 moves) <&>";
  cases[2].name = "line 3";
  cases[2].failed = true;
  cases[2].failure_type = "longer";
  cases[2].message = "5 moves, 2 more than the optimal 3";
  const Element root = read_xml(junit_xml("s", cases));
  CHECK(root.attributes.at("tests") == "3");
  CHECK(root.attributes.at("failures") == "1");
  CHECK(root.attributes.at("errors") == "0");
  const Element& suite = root.children.at(0);
  CHECK(suite.attributes.at("tests") == "3");
  CHECK(suite.attributes.at("failures") == "1");
  CHECK(suite.attributes.at("errors") == "0");
  CHECK(suite.attributes.at("skipped") == "1");
  REQUIRE(suite.children.size() == 3);
  CHECK(suite.children[0].children.empty());
  REQUIRE(suite.children[1].children.size() == 1);
  const Element& skipped = suite.children[1].children[0];
  CHECK(skipped.name == "skipped");
  CHECK(skipped.attributes.at("message") == cases[1].message);
  CHECK(skipped.children.empty());
  CHECK(suite.children[2].children.at(0).name == "failure");
}

TEST_CASE("check: junit_xml is well-formed for any names and messages, cases in order", "[check]") {
  const std::string nasty = "a \"quoted\" 'word' <tag> & ]]> \x01\x02\x1f\x7f tab\there\r\nnext";
  std::vector<JUnitCase> cases;
  cases.push_back({"line 1: 1 2 3 4 5 6 7 0 8", "check.input.tsv", false, "", "", 0.25});
  cases.push_back({"line 2 <" + nasty + ">", "class & co", true, "wrong-end", nasty, 0.5});
  cases.push_back({"line 3 \xff\xfe bad \xc0\xaf overlong \xed\xa0\x80 surrogate \xef\xbf\xbf nonchar", "c", true,
                   "longer", "utf-8: caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 cut \xe2\x82", -1.0});
  cases.push_back({"line 4", "c", false, "", "", std::numeric_limits<double>::quiet_NaN()});
  const std::string xml = junit_xml("check <suite> & \"x\"", cases);
  const Element root = read_xml(xml);

  CHECK(root.name == "testsuites");
  CHECK(root.attributes.at("tests") == "4");
  CHECK(root.attributes.at("failures") == "2");
  REQUIRE(root.children.size() == 1);
  const Element& suite = root.children[0];
  CHECK(suite.name == "testsuite");
  CHECK(suite.attributes.at("name") == "check <suite> & \"x\"");
  CHECK(suite.attributes.at("tests") == "4");
  CHECK(suite.attributes.at("failures") == "2");
  CHECK(suite.attributes.at("errors") == "0");
  CHECK(suite.attributes.at("skipped") == "0");
  CHECK(suite.attributes.at("time") == "0.750000");
  REQUIRE(suite.children.size() == 4);
  // What survives: every character XML allows; control characters become '?'; CR, LF and tab are
  // kept in attributes too (as references).
  const std::string kept = "a \"quoted\" 'word' <tag> & ]]> ???\x7f tab\there\r\nnext";
  for (std::size_t k = 0; k < 4; ++k) {
    const Element& c = suite.children[k];
    INFO("case " << k);
    CHECK(c.name == "testcase");
    CHECK(c.attributes.at("name").rfind("line " + std::to_string(k + 1), 0) == 0);  // in order
    CHECK(c.children.size() == (cases[k].failed ? 1u : 0u));
  }
  CHECK(suite.children[0].attributes.at("time") == "0.250000");
  CHECK(suite.children[0].attributes.at("classname") == "check.input.tsv");
  CHECK(suite.children[1].attributes.at("name") == "line 2 <" + kept + ">");
  CHECK(suite.children[1].attributes.at("classname") == "class & co");
  const Element& failure = suite.children[1].children.at(0);
  CHECK(failure.name == "failure");
  CHECK(failure.attributes.at("type") == "wrong-end");
  CHECK(failure.attributes.at("message") == kept);
  CHECK(failure.text == kept);
  // Malformed UTF-8, surrogates and U+FFFF become '?' byte by byte; valid UTF-8 is kept.
  CHECK(suite.children[2].attributes.at("name") == "line 3 ?? bad ?? overlong ??? surrogate ??? nonchar");
  CHECK(suite.children[2].children.at(0).text == "utf-8: caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 cut ??");
  CHECK(suite.children[2].attributes.at("time") == "0.000000");  // a negative time
  CHECK(suite.children[3].attributes.at("time") == "0.000000");  // NaN
  // The escaped forms as written.
  CHECK(xml.find("&lt;tag&gt; &amp; ]]&gt;") != std::string::npos);
  CHECK(xml.find("&quot;quoted&quot; &apos;word&apos;") != std::string::npos);

  const Element empty = read_xml(junit_xml("", {}));
  CHECK(empty.attributes.at("tests") == "0");
  CHECK(empty.children.at(0).children.empty());
}

TEST_CASE("check: optimal paths from random 3x3 states are ok, a detour makes them longer by 2", "[check]") {
  std::mt19937_64 rng(2026);
  const State& goal = goal9();
  BfsOracle oracle;
  int reachable = 0, unreachable = 0, wrong_ends = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const State start = testing::random_state(goal.board, rng);
    INFO("start " << start.to_string());
    if (!goal9_distances().count(start.packed())) {
      ++unreachable;
      CHECK(check_answer(start, goal, parse_answer("unreachable"), oracle).verdict == Verdict::ok);
      CHECK(check_answer(start, goal, parse_answer("LURD"), oracle).verdict != Verdict::ok);
      continue;
    }
    ++reachable;
    const std::string path = optimal_path(start, rng);
    const LineVerdict v = check_answer(start, goal, parse_answer(path), oracle);
    CHECK(v.verdict == Verdict::ok);
    CHECK(v.answered == static_cast<int>(path.size()));
    // A move legal at the goal (blank in the corner: U or L) and its reversal.
    const std::string detour = std::uniform_int_distribution<int>(0, 1)(rng) ? "UD" : "LR";
    const LineVerdict w = check_answer(start, goal, parse_answer(path + detour), oracle);
    CHECK(w.verdict == Verdict::longer);
    CHECK(w.answered - w.optimal == 2);
    if (!path.empty()) {
      const LineVerdict x = check_answer(start, goal, parse_answer(path.substr(0, path.size() - 1)), oracle);
      CHECK(x.verdict == Verdict::wrong_end);
      CHECK(x.optimal == static_cast<int>(path.size()));
      ++wrong_ends;
    }
    CHECK(check_answer(start, goal, parse_answer(std::to_string(path.size())), oracle).verdict == Verdict::ok);
    CHECK(check_answer(start, goal, parse_answer(std::to_string(path.size() + 2)), oracle).verdict ==
          Verdict::wrong_length);
  }
  CHECK(reachable > 100);
  CHECK(unreachable > 100);
  CHECK(oracle.calls == 4 * reachable + wrong_ends);  // ok, longer, two lengths, wrong_end; never unreachable
}

TEST_CASE("check: replay_moves agrees with Board::step and State::moved on every board shape", "[check]") {
  std::mt19937_64 rng(7);
  const std::vector<std::pair<int, int>> shapes{{2, 2}, {2, 3}, {3, 2}, {3, 3}, {4, 4}, {2, 7}, {5, 5}, {5, 3}};
  for (const auto& [w, h] : shapes) {
    const Board board(w, h);
    INFO("board " << board.name());
    for (int trial = 0; trial < 200; ++trial) {
      const State start = testing::random_state(board, rng);
      std::string moves(std::uniform_int_distribution<std::size_t>(0, 40)(rng), 'U');
      for (char& m : moves) m = kDirLetter[std::uniform_int_distribution<std::size_t>(0, 3)(rng)];
      State s = start;
      int bad = 0;
      for (std::size_t i = 0; i < moves.size() && !bad; ++i) {
        const int to = board.step(s.blank, static_cast<Dir>(std::string("UDLR").find(moves[i])));
        if (to < 0) bad = static_cast<int>(i) + 1;
        else s = s.moved(to);
      }
      const Replay r = replay_moves(start, moves);
      CHECK(r.step == bad);
      CHECK(r.end == s);
      CHECK(r.end.blank == s.blank);
      if (bad) CHECK(r.move == moves[bad - 1]);
    }
  }
}
