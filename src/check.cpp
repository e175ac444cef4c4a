#include "tilespace/check.hpp"

#include "tilespace/problem.hpp"
#include "tilespace/query.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace tilespace {

namespace {

const char* const kAnswerExpected = "expected moves (U, D, L, R, or with a count: R3), a length or 'unreachable'";

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The move letter in upper case, or 0 if `c` is not one.
char move_letter(char c) {
  switch (c) {
    case 'U': case 'u': return 'U';
    case 'D': case 'd': return 'D';
    case 'L': case 'l': return 'L';
    case 'R': case 'r': return 'R';
    default: return 0;
  }
}

// A character for a one-line message: 'X' if printable, else its byte value (a tab, a NUL, UTF-8).
std::string shown(char c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + c + "'";
  static const char* const hex = "0123456789ABCDEF";
  const auto b = static_cast<unsigned char>(c);
  return std::string("byte 0x") + hex[b >> 4] + hex[b & 15u];
}

InputError answer_error(const std::string& detail) {
  return InputError(InputError::About::general, "answer: " + detail);
}

InputError bad_character(std::string_view field, std::size_t i, const char* what) {
  return answer_error(shown(field[i]) + " (character " + std::to_string(i + 1) + ") " + what + ": " + kAnswerExpected);
}

// A field that starts with a digit: a length, digits only, at most kMaxAnswerLength.
Answer parse_length(std::string_view field) {
  long long v = 0;
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (!is_digit(field[i])) throw bad_character(field, i, "is not a digit");
    if (v <= kMaxAnswerLength) v = v * 10 + (field[i] - '0');  // stops growing once too large
  }
  if (v > kMaxAnswerLength) {
    const std::string digits = field.size() > 20 ? std::string(field.substr(0, 20)) + "..." : std::string(field);
    throw answer_error("the length " + digits + " is above " + std::to_string(kMaxAnswerLength));
  }
  Answer a;
  a.kind = Answer::Kind::length;
  a.length = static_cast<int>(v);
  return a;
}

std::string moves_word(long long n) { return std::to_string(n) + (n == 1 ? " move" : " moves"); }

// The length of the XML 1.0 character whose UTF-8 encoding starts at s[i], or 0 if the bytes there
// are not one: malformed or overlong UTF-8, a surrogate, U+FFFE, U+FFFF, or a control character
// other than tab, LF and CR.
std::size_t xml_char_length(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return (b0 >= 0x20 || b0 == '\t' || b0 == '\n' || b0 == '\r') ? 1 : 0;
  std::size_t n = 0;
  char32_t cp = 0, least = 0;
  if ((b0 & 0xE0u) == 0xC0u) {
    n = 2, cp = b0 & 0x1Fu, least = 0x80;
  } else if ((b0 & 0xF0u) == 0xE0u) {
    n = 3, cp = b0 & 0x0Fu, least = 0x800;
  } else if ((b0 & 0xF8u) == 0xF0u) {
    n = 4, cp = b0 & 0x07u, least = 0x10000;
  } else {
    return 0;  // a continuation byte or 0xF8..0xFF
  }
  if (s.size() - i < n) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (b & 0x3Fu);
  }
  const bool bad = cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF;
  return bad ? 0 : n;
}

// Appends `s` escaped for XML. In attributes tab, LF and CR are character references (a parser
// would turn them into spaces); in text only CR is (a parser would turn it into LF).
void append_xml(std::string& out, std::string_view s, bool attribute) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = xml_char_length(s, i);
    if (n == 0) {
      out += '?';
      ++i;
      continue;
    }
    if (n > 1) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    switch (const char c = s[i++]) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;  // also keeps "]]>" out of text
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\r': out += "&#13;"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      default: out += c;
    }
  }
}

void append_attribute(std::string& out, const char* name, std::string_view value) {
  out += ' ';
  out += name;
  out += "=\"";
  append_xml(out, value, true);
  out += '"';
}

// Seconds with 6 decimals, whatever the locale; a negative or non-finite time is written as 0.
std::string seconds_text(double s) {
  if (!std::isfinite(s) || s < 0) s = 0;
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, s, std::chars_format::fixed, 6);
  return ec == std::errc() ? std::string(buf, end) : std::string("0");
}

}  // namespace

namespace {

// One state field of a check line: the allocation-free forms first, the grammar for the rest.
State parse_field(std::string_view field, const std::optional<Board>& board, InputError::About about) {
  if (board)
    if (auto s = parse_state_fast(field, *board)) return *s;
  try {
    return parse_state(field, board);
  } catch (const InputError& e) {
    throw InputError(about, e.detail);
  }
}

}  // namespace

CheckFields parse_check_line(std::string_view line, const std::optional<Board>& board,
                             const std::optional<State>& default_goal) {
  // START <TAB> GOAL <TAB> ANSWER; GOAL may be empty (the default goal).
  const std::size_t t1 = line.find('\t');
  const std::size_t t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
  if (t2 == std::string_view::npos || line.find('\t', t2 + 1) != std::string_view::npos)
    throw InputError("expected START<TAB>GOAL<TAB>ANSWER (three fields separated by tabs; GOAL may be empty)");
  CheckFields f;
  f.start_text = line.substr(0, t1);
  f.answer_text = line.substr(t2 + 1);
  while (!f.answer_text.empty() && f.answer_text.back() == ' ') f.answer_text.remove_suffix(1);
  while (!f.answer_text.empty() && f.answer_text.front() == ' ') f.answer_text.remove_prefix(1);
  f.start = parse_field(f.start_text, board, InputError::About::start);
  const std::string_view goal_text = line.substr(t1 + 1, t2 - t1 - 1);
  if (blank_line(goal_text)) {
    f.goal = default_goal ? *default_goal : canonical_goal(f.start.board, f.start.cells() - 1);
  } else {
    f.goal = parse_field(goal_text, f.start.board, InputError::About::goal);
    require_given_goal(f.goal, default_goal);  // a goal of its own repeats --goal, if given
  }
  if (!(f.goal.board == f.start.board)) throw InputError("the start and the goal are on different boards");
  return f;
}

Answer parse_answer(std::string_view field) {
  constexpr std::string_view kUnreachable = "unreachable";
  if (field.size() == kUnreachable.size() &&
      std::equal(field.begin(), field.end(), kUnreachable.begin(),
                 [](char c, char u) { return (c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) == u; })) {
    Answer a;
    a.kind = Answer::Kind::unreachable;
    return a;
  }
  if (!field.empty() && is_digit(field[0])) return parse_length(field);
  Answer a;
  a.moves.resize(field.size());
  a.cells.resize(field.size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] == ' ' || field[i] == ',') continue;  // "U L D L", "U,L,D,L"
    a.moves[n] = move_letter(field[i]);
    if (!a.moves[n]) throw bad_character(field, i, "is not a move");
    int k = 1;
    if (i + 1 < field.size() && is_digit(field[i + 1])) {  // "R3": the cells the blank goes
      const std::size_t first = i + 1;
      k = 0;
      while (i + 1 < field.size() && is_digit(field[i + 1])) {
        if (k <= kMaxMoveCells) k = k * 10 + (field[i + 1] - '0');
        ++i;
      }
      if (k < 1 || k > kMaxMoveCells)
        throw answer_error("the count of move " + std::to_string(n + 1) + " (character " + std::to_string(first + 1) +
                           ") must be 1 to " + std::to_string(kMaxMoveCells));
    }
    a.cells[n] = static_cast<std::uint8_t>(k);
    ++n;
  }
  a.moves.resize(n);
  a.cells.resize(n);
  return a;
}

const char* verdict_name(Verdict v) noexcept {
  switch (v) {
    case Verdict::ok: return "ok";
    case Verdict::illegal_move: return "illegal-move";
    case Verdict::wrong_end: return "wrong-end";
    case Verdict::longer: return "longer";
    case Verdict::wrong_length: return "wrong-length";
    case Verdict::unreachable_missed: return "unreachable-missed";
    case Verdict::falsely_unreachable: return "falsely-unreachable";
    case Verdict::undecided: return "undecided";
  }
  return "?";
}

Replay replay_moves(const State& start, std::string_view moves, std::span<const std::uint8_t> cells) noexcept {
  // The direction of each letter (-1: not a move), and its row and column steps.
  static constexpr auto kCode = [] {
    std::array<std::int8_t, 256> c{};
    c.fill(-1);
    for (int d = 0; d < 4; ++d) c[static_cast<unsigned char>(kDirLetter[d])] = static_cast<std::int8_t>(d);
    return c;
  }();
  static constexpr int kRowStep[4] = {-1, 1, 0, 0}, kColStep[4] = {0, 0, -1, 1};
  Replay r{start, 0, 0, 1};
  // The blank's row and column are followed move by move, and a move is legal when both stay on
  // the board: table lookups and two unsigned compares, no branch on the direction (a random path
  // would mispredict most of them) and no division.
  const int w = start.board.width(), h = start.board.height();
  const int cell_step[4] = {-w, w, -1, 1};
  auto outside = [](int x, int n) { return static_cast<unsigned>(x) >= static_cast<unsigned>(n); };  // -1 included
  int blank = start.blank, row = blank / w, col = blank % w;
  Tiles& t = r.end.tiles;
  const bool counted = !cells.empty();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const int d = kCode[static_cast<unsigned char>(moves[i])];
    const int k = counted ? cells[i] : 1;
    const int nr = d < 0 ? -1 : row + k * kRowStep[d], nc = d < 0 ? -1 : col + k * kColStep[d];
    if (outside(nr, h) || outside(nc, w)) {
      r.step = i + 1 > static_cast<std::size_t>(INT_MAX) ? INT_MAX : static_cast<int>(i + 1);
      r.move = moves[i];
      r.cells = k;
      break;
    }
    const int s = cell_step[d];
    for (int j = 0; j < k; ++j) {  // the tiles between slide one cell each
      t[blank] = t[blank + s];
      blank += s;
    }
    t[blank] = 0;
    row = nr;
    col = nc;
  }
  r.end.blank = blank;
  return r;
}

namespace detail {
void shorter_than_optimum(int answered, int optimal) {
  throw std::logic_error("check: a legal path of " + moves_word(answered) +
                         " reaches the goal, but the oracle's optimum is " + std::to_string(optimal) +
                         ": the oracle is wrong");
}
}  // namespace detail

std::string describe(const LineVerdict& v, const State& goal) {
  switch (v.verdict) {
    case Verdict::ok:
      if (v.kind == Answer::Kind::unreachable) return "correct: the goal is unreachable from the start";
      return "optimal (" + moves_word(v.answered) + ")";
    case Verdict::illegal_move:
      if (move_letter(v.move) != v.move || v.move == 0)
        return "step " + std::to_string(v.step) + ": " + shown(v.move) + " is not a move (U, D, L, R)";
      return "step " + std::to_string(v.step) + ": '" + v.move + (v.move_cells > 1 ? std::to_string(v.move_cells) : "") +
             "' moves the blank off the board";
    case Verdict::wrong_end:
      if (v.answered == 0)
        return "no moves, and the start " + v.end.to_string() + " is not the goal " + goal.to_string();
      return "the " + moves_word(v.answered) + (v.answered == 1 ? " ends at " : " end at ") + v.end.to_string() +
             ", not at the goal " + goal.to_string();
    case Verdict::longer:
      return moves_word(v.answered) + ", " + std::to_string(v.answered - v.optimal) + " more than the optimal " +
             std::to_string(v.optimal);
    case Verdict::wrong_length:
      return "claimed " + moves_word(v.answered) + ", the optimum is " + std::to_string(v.optimal);
    case Verdict::unreachable_missed:
      return "the goal is unreachable from the start, but the answer is not 'unreachable'";
    case Verdict::falsely_unreachable:
      if (v.optimal < 0) return "answered 'unreachable', but the goal is reachable";
      return "answered 'unreachable', but the optimum is " + moves_word(v.optimal);
    case Verdict::undecided:
      return std::string("could not prove the optimum within the limits (") +
             (v.kind == Answer::Kind::length ? "claimed " : "the path is legal, ") + moves_word(v.answered) + ")";
  }
  return verdict_name(v.verdict);
}

void CheckSummary::add(const LineVerdict& v) {
  ++lines;
  ++by_verdict[static_cast<std::size_t>(v.verdict)];
  if (v.verdict == Verdict::ok) ++passed;
  if (v.verdict == Verdict::longer) total_excess += static_cast<std::uint64_t>(v.answered - v.optimal);
}

std::string junit_xml(const std::string& suite_name, const std::vector<JUnitCase>& cases) {
  std::uint64_t failures = 0, errors = 0, skips = 0;
  double total = 0;
  for (const JUnitCase& c : cases) {
    failures += c.failed && !c.error;
    errors += c.failed && c.error;
    skips += !c.failed && c.skipped;
    if (std::isfinite(c.seconds) && c.seconds > 0) total += c.seconds;
  }
  const std::string tests = std::to_string(cases.size()), failed = std::to_string(failures),
                    erred = std::to_string(errors), skipped = std::to_string(skips);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites";
  append_attribute(out, "tests", tests);
  append_attribute(out, "failures", failed);
  append_attribute(out, "errors", erred);
  out += ">\n  <testsuite";
  append_attribute(out, "name", suite_name);
  append_attribute(out, "tests", tests);
  append_attribute(out, "failures", failed);
  append_attribute(out, "errors", erred);
  append_attribute(out, "skipped", skipped);
  append_attribute(out, "time", seconds_text(total));
  out += ">\n";
  for (const JUnitCase& c : cases) {
    out += "    <testcase";
    append_attribute(out, "name", c.name);
    append_attribute(out, "classname", c.classname);
    append_attribute(out, "time", seconds_text(c.seconds));
    if (!c.failed && c.skipped) {
      out += ">\n      <skipped";
      append_attribute(out, "message", c.message);
      out += "/>\n    </testcase>\n";
      continue;
    }
    if (!c.failed) {
      out += "/>\n";
      continue;
    }
    const char* element = c.error ? "error" : "failure";
    out += ">\n      <";
    out += element;
    append_attribute(out, "type", c.failure_type);
    append_attribute(out, "message", c.message);
    out += '>';
    append_xml(out, c.message, false);
    out += "</";
    out += element;
    out += ">\n    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace tilespace
