// Fuzz target: check files, `START<TAB>GOAL<TAB>ANSWER` a line (check.hpp): parse_check_line (the
// fields and states, as `tilespace check` reads them), parse_answer, check_answer with an exact
// oracle, describe, CheckSummary and junit_xml.
//
// Input: byte 0 chooses the --board option (support.hpp's board_from_byte), byte 1 the --goal
// option (bit 7: a default goal with the blank on cell byte 1 % N of that board) and the oracle
// (bit 6: it never knows the optimum); the rest is the file. The oracle is the exact distance
// table (built once per process) on boards of at most 10 cells, else unknown. Properties: every
// error is an InputError; each verdict agrees with the replay, the solvability and the optimum
// (an exact oracle never makes check_answer throw); the oracle is asked at most once a line;
// the JUnit report is well-formed XML whatever bytes the lines hold.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "support.hpp"
#include "tilespace/check.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/query.hpp"

using namespace tilespace;

namespace {

const DistanceTable* table_for(const Board& b, int blank, Metric metric) {
  static std::map<std::tuple<int, int, int, int>, std::unique_ptr<DistanceTable>> tables;
  if (b.cells() > 10) return nullptr;
  auto& t = tables[{b.width(), b.height(), blank, static_cast<int>(metric)}];
  if (!t) t = std::make_unique<DistanceTable>(DistanceTable::build(b, blank, BfsOptions{.threads = 1, .on_layer = {}, .metric = metric}));
  return t.get();
}

// The text before the line's first tab.
std::string_view start_of(std::string_view line) { return line.substr(0, line.find('\t')); }

char inverse(char m) {
  switch (m) {
    case 'U': return 'D';
    case 'D': return 'U';
    case 'L': return 'R';
    default: return 'L';
  }
}

// ---- a small XML checker: characters, entities, attribute quoting, balanced elements ----

// The length of the XML character at s[i] (UTF-8), or 0 if it is not one.
std::size_t xml_char(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return b0 >= 0x20 || b0 == '\t' || b0 == '\n' || b0 == '\r' ? 1 : 0;
  std::size_t n = (b0 & 0xE0u) == 0xC0u ? 2 : (b0 & 0xF0u) == 0xE0u ? 3 : (b0 & 0xF8u) == 0xF0u ? 4 : 0;
  if (n == 0 || s.size() - i < n) return 0;
  char32_t cp = b0 & (n == 2 ? 0x1Fu : n == 3 ? 0x0Fu : 0x07u);
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (b & 0x3Fu);
  }
  const char32_t least = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
  if (cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF) return 0;
  return n;
}

void check_xml(std::string_view x, std::size_t cases, std::size_t failures) {
  for (std::size_t i = 0; i < x.size();) {
    const std::size_t n = xml_char(x, i);
    fuzz::check(n > 0, "junit_xml: a byte XML forbids at offset " + std::to_string(i));
    if (x[i] == '&') {
      static const char* const kEntities[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#13;", "&#9;", "&#10;"};
      bool ok = false;
      for (const char* e : kEntities) ok = ok || x.substr(i, std::string_view(e).size()) == e;
      fuzz::check(ok, "junit_xml: a bare '&' at offset " + std::to_string(i));
    }
    i += n;
  }
  const std::string_view prolog = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  fuzz::check(x.substr(0, prolog.size()) == prolog, "junit_xml: no prolog");
  std::vector<std::string_view> open;
  std::size_t testcases = 0, failure_elements = 0, roots = 0;
  for (std::size_t i = prolog.size(); i < x.size();) {
    if (x[i] != '<') {
      fuzz::check(x[i] != '>', "junit_xml: a bare '>' in text");
      ++i;
      continue;
    }
    fuzz::check(!open.empty() || roots == 0, "junit_xml: more than one root element");
    if (x.substr(i, 2) == "</") {
      const std::size_t end = x.find('>', i);
      fuzz::check(end != std::string_view::npos, "junit_xml: an unclosed end tag");
      const std::string_view name = x.substr(i + 2, end - i - 2);
      fuzz::check(!open.empty() && open.back() == name, "junit_xml: </" + std::string(name) + "> closes nothing open");
      open.pop_back();
      if (open.empty()) ++roots;
      i = end + 1;
      continue;
    }
    std::size_t j = i + 1;
    while (j < x.size() && x[j] != ' ' && x[j] != '>' && x[j] != '/') ++j;
    const std::string_view name = x.substr(i + 1, j - i - 1);
    fuzz::check(!name.empty(), "junit_xml: an element without a name");
    testcases += name == "testcase";
    failure_elements += name == "failure";
    // Attributes: name="value", the value without '<' or '"' (both escaped).
    for (;;) {
      while (j < x.size() && x[j] == ' ') ++j;
      fuzz::check(j < x.size(), "junit_xml: an unclosed tag");
      if (x[j] == '>' || x.substr(j, 2) == "/>") break;
      const std::size_t eq = x.find('=', j);
      fuzz::check(eq != std::string_view::npos && eq + 1 < x.size() && x[eq + 1] == '"', "junit_xml: a bad attribute");
      const std::size_t close = x.find('"', eq + 2);
      fuzz::check(close != std::string_view::npos, "junit_xml: an unclosed attribute");
      const std::string_view value = x.substr(eq + 2, close - eq - 2);
      fuzz::check(value.find('<') == std::string_view::npos, "junit_xml: '<' in an attribute");
      j = close + 1;
    }
    if (x[j] == '>') {
      open.push_back(name);
      i = j + 1;
    } else {
      if (open.empty()) ++roots;
      i = j + 2;
    }
  }
  fuzz::check(open.empty() && roots == 1, "junit_xml: unbalanced elements");
  fuzz::check(testcases == cases && failure_elements == failures, "junit_xml: not one testcase a case");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::optional<Board> board = fuzz::board_from_byte(data[0]);
  std::optional<State> default_goal;
  if (data[1] & 0x80u) {
    const Board b = board.value_or(Board(3, 3));
    default_goal = canonical_goal(b, data[1] % b.cells());
  }
  const bool knows = !(data[1] & 0x40u);
  const Metric metric = (data[1] & 0x20u) ? Metric::multi : Metric::single;
  const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);

  CheckSummary summary;
  std::vector<JUnitCase> cases;
  std::size_t failures = 0;
  LineReader reader(text);
  std::string_view line;
  std::uint64_t no = 0;
  while (reader.next(line, no)) {
    if (blank_line(line)) continue;
    JUnitCase jc;
    jc.name = "line " + std::to_string(no);
    try {
      jc.classname = std::string(start_of(line));  // whatever bytes it holds, before parsing can fail
      const CheckFields fields = parse_check_line(line, board, default_goal);
      const std::string_view answer_text = fields.answer_text;
      const State& start = fields.start;
      const State& goal = fields.goal;
      fuzz::check(fuzz::valid_state(start) && fuzz::valid_state(goal), "an invalid state");
      if (board) fuzz::check(start.board == *board, "a start on another board than --board");
      fuzz::check(goal.board == start.board, "parse_check_line: start and goal on different boards");
      fuzz::check(fields.start_text == start_of(line), "parse_check_line: not the start field");
      const Answer answer = parse_answer(answer_text);

      // The answer as parsed.
      if (answer.kind == Answer::Kind::moves) {
        // One move a letter, with its count of cells (1 without digits); spaces and commas between
        // moves are dropped.
        const auto letters = std::count_if(answer_text.begin(), answer_text.end(),
                                           [](char c) { return c != ' ' && c != ',' && !(c >= '0' && c <= '9'); });
        fuzz::check(answer.moves.size() == static_cast<std::size_t>(letters), "parse_answer: moves of another length");
        fuzz::check(answer.cells.size() == answer.moves.size(), "parse_answer: not one count a move");
        for (const char m : answer.moves) fuzz::check(m == 'U' || m == 'D' || m == 'L' || m == 'R', "parse_answer: not a move");
        for (const std::uint8_t k : answer.cells) fuzz::check(k >= 1 && k <= kMaxMoveCells, "parse_answer: a count out of range");
        const bool digits = std::any_of(answer_text.begin(), answer_text.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!digits)
          fuzz::check(std::all_of(answer.cells.begin(), answer.cells.end(), [](std::uint8_t k) { return k == 1; }),
                      "parse_answer: a count without digits");
      } else if (answer.kind == Answer::Kind::length) {
        fuzz::check(answer.length >= 0 && answer.length <= kMaxAnswerLength, "parse_answer: length out of range");
        std::string_view digits = answer_text;  // without leading zeros (but one digit at least)
        while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
        fuzz::check(std::to_string(answer.length) == digits, "parse_answer: the length is not the digits");
      } else {
        std::string lower(answer_text);
        for (char& c : lower) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        fuzz::check(lower == "unreachable", "parse_answer: 'unreachable' from another text");
      }

      int calls = 0;
      std::optional<int> optimum;
      const LineVerdict v = check_answer(start, goal, answer, [&](const State& s, const State& g) {
        ++calls;
        fuzz::check(s == start && g == goal, "the oracle asked about another pair");
        const DistanceTable* t = knows && is_packed(s.board) ? table_for(s.board, g.blank, metric) : nullptr;
        if (!t) return Optimum{};
        const auto d = t->distance(s, g);
        fuzz::check(d.has_value(), "the oracle asked about an unreachable pair");
        optimum = *d;
        return Optimum{true, *d};
      }, metric);
      fuzz::check(calls <= 1, "the oracle asked twice");
      fuzz::check(v.answered == tilespace::detail::answered_length(answer, metric), "answered: not the answer's length");

      // The verdict agrees with the facts.
      const bool reachable = solvable(start, goal);
      const Replay r =
          answer.kind == Answer::Kind::moves ? replay_moves(start, answer.moves, answer.cells) : Replay{start, 0, 0, 1};
      if (answer.kind == Answer::Kind::moves) {
        fuzz::check(fuzz::valid_state(r.end), "replay_moves: an invalid state");
        if (r.step == 0) {  // the reverse path comes back to the start
          std::string back(answer.moves.rbegin(), answer.moves.rend());
          for (char& m : back) m = inverse(m);
          const std::vector<std::uint8_t> back_cells(answer.cells.rbegin(), answer.cells.rend());
          const Replay home = replay_moves(r.end, back, back_cells);
          fuzz::check(home.step == 0 && home.end == start && home.end.blank == start.blank, "replay_moves: no way back");
          fuzz::check(solvable(start, r.end), "replay_moves: an end unreachable from the start");
          // A move of k cells is k moves of one cell.
          std::string ones;
          for (std::size_t i = 0; i < answer.moves.size(); ++i) ones.append(answer.cells[i], answer.moves[i]);
          const Replay single = replay_moves(start, ones);
          fuzz::check(single.step == 0 && single.end == r.end, "replay_moves: R3 is not RRR");
        } else {
          fuzz::check(r.step >= 1 && static_cast<std::size_t>(r.step) <= answer.moves.size() &&
                          r.move == answer.moves[r.step - 1],
                      "replay_moves: a bad step");
        }
      }
      switch (v.verdict) {
        case Verdict::ok:
          if (answer.kind == Answer::Kind::unreachable) {
            fuzz::check(!reachable, "ok for 'unreachable' on a reachable pair");
          } else {
            fuzz::check(reachable && optimum && v.answered == *optimum && v.optimal == *optimum, "ok without the optimum");
            if (answer.kind == Answer::Kind::moves) fuzz::check(r.step == 0 && r.end == goal, "ok for moves that miss the goal");
          }
          break;
        case Verdict::illegal_move:
          fuzz::check(r.step > 0 && v.step == r.step && v.move == r.move && v.move_cells == r.cells, "illegal-move without one");
          break;
        case Verdict::wrong_end: fuzz::check(r.step == 0 && !(r.end == goal) && v.end == r.end && reachable, "wrong-end"); break;
        case Verdict::longer: fuzz::check(optimum && r.end == goal && v.answered > *optimum, "longer"); break;
        case Verdict::wrong_length:
          fuzz::check(answer.kind == Answer::Kind::length && optimum && answer.length != *optimum, "wrong-length");
          break;
        case Verdict::unreachable_missed: fuzz::check(!reachable && answer.kind != Answer::Kind::unreachable, "unreachable-missed"); break;
        case Verdict::falsely_unreachable: fuzz::check(reachable && answer.kind == Answer::Kind::unreachable, "falsely-unreachable"); break;
        case Verdict::undecided: fuzz::check(reachable && !optimum, "undecided with the optimum known"); break;
      }
      const std::string words = describe(v, goal);
      fuzz::check(!words.empty(), "describe: nothing");
      summary.add(v);
      jc.failed = v.verdict != Verdict::ok;
      jc.failure_type = verdict_name(v.verdict);
      jc.message = words;
    } catch (const InputError& e) {
      jc.failed = true;
      jc.failure_type = "malformed";
      jc.message = e.what();
    }
    failures += jc.failed;
    jc.seconds = static_cast<double>(no) * 1e-3;
    cases.push_back(std::move(jc));
  }
  fuzz::check(summary.passed <= summary.lines, "CheckSummary: more passed than lines");
  check_xml(junit_xml(std::string(text.substr(0, 40)), cases), cases.size(), failures);
  return 0;
}
