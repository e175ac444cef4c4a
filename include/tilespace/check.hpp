// Verdicts on another solver's answers: the engine of `tilespace check`.
//
// A checked line is START, GOAL and an ANSWER: a move string (U/D/L/R naming where the blank goes,
// with a count for a multi-tile move, R3, as `tilespace solve` prints it), a claimed optimal length, or `unreachable`. check_answer decides
// one line against the exact solvability criterion (rank.hpp) and an *oracle* that knows the
// optimum of a reachable pair (a distance table, a pattern-database search); CheckSummary counts
// the verdicts and junit_xml writes them for CI. The CLI reads the file and parses the states;
// everything here works on one line at a time, on any board up to kMaxBoardCells cells.
//
// Cost: a line is one solvability test (O(N^2) compares), one replay of its moves (a few
// nanoseconds a move, no allocation) and at most one oracle call, made only when the verdict
// depends on the optimum. Thread-safety: no shared state; lines may be checked in parallel.
#pragma once

#include <array>
#include <cassert>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/state.hpp"

namespace tilespace {

// One line's answer, as parse_answer reads it.
struct Answer {
  enum class Kind : std::uint8_t { moves, length, unreachable };
  Kind kind = Kind::moves;
  std::string moves;                // Kind::moves: upper-case U/D/L/R, one a move; empty = zero moves
  std::vector<std::uint8_t> cells;  // Kind::moves: the cells each move takes the blank (1..kMaxMoveCells)
  int length = 0;                   // Kind::length
};

// The largest claimed length parse_answer accepts: far above any optimal length up to 5x5 (80 on
// 4x4), low enough that no sum of lengths overflows.
inline constexpr int kMaxAnswerLength = 100000;
// The largest count a move may carry ("R3"); a count past the board's edge is an illegal move.
inline constexpr int kMaxMoveCells = 99;

// "unreachable" (any case: UNREACHABLE, Unreachable) -> unreachable; digits only
// (0..kMaxAnswerLength) -> length; otherwise moves: each a letter U D L R (lower case accepted,
// stored upper case) naming where the blank goes, optionally followed by how many cells it goes
// (1..kMaxMoveCells; "R3" is one multi-tile move, three single-tile ones), with spaces or commas
// between moves allowed ("U L D L", "U,L", "R3 U D2", "R3UD2"); the empty field is zero moves.
// Anything else throws InputError(About::general, "answer: ...") in one line naming the first bad
// character and its 1-based position, or the number out of range, e.g. "answer: 'X' (character
// 4) is not a move: expected moves (U, D, L, R, or with a count: R3), a length or 'unreachable'".
// No trimming: the caller splits the line and strips its end of line.
Answer parse_answer(std::string_view field);

// One line of a check file: `START<TAB>GOAL<TAB>ANSWER`, the line without its end of line.
struct CheckFields {
  std::string_view start_text;   // the START field as written (the JUnit class name)
  State start, goal;             // parsed; an empty GOAL is `default_goal`, else the canonical goal
  std::string_view answer_text;  // the ANSWER field without surrounding spaces (parse_answer's input)
};
// Splits a line into its three tab-separated fields and reads the states: on `board` when given
// (the allocation-free forms of query.hpp first, then the grammar of problem.hpp), the goal on the
// start's board. `default_goal`: the goal given for every line (--goal), if any; a line's own GOAL
// must then be the same (problem.hpp require_given_goal). Throws InputError in one line: the
// fields' count, or the state naming its field (`start: ...`, `goal: ...`), a GOAL that differs
// from `default_goal`, or start and goal on different boards. The answer is not parsed.
CheckFields parse_check_line(std::string_view line, const std::optional<Board>& board,
                             const std::optional<State>& default_goal);

enum class Verdict : std::uint8_t {
  ok,                   // optimal path or length, or rightly 'unreachable'
  illegal_move,         // a move takes the blank off the board
  wrong_end,            // the moves are legal but do not end at the goal
  longer,               // the moves reach the goal, but the optimum is shorter
  wrong_length,         // the claimed length is not the optimum
  unreachable_missed,   // the goal is unreachable, the answer says otherwise
  falsely_unreachable,  // the goal is reachable, the answer says 'unreachable'
  undecided,            // the oracle could not give the optimum (a limit): not a pass, not a failure
};
inline constexpr int kVerdicts = 8;
static_assert(static_cast<int>(Verdict::undecided) + 1 == kVerdicts, "kVerdicts counts every verdict");

// "ok", "illegal-move", "wrong-end", "longer", "wrong-length", "unreachable-missed",
// "falsely-unreachable", "undecided": the words of the report, JSON and JUnit failure types.
const char* verdict_name(Verdict v) noexcept;

// The optimum of a reachable pair as an oracle knows it: exact, or not decided (a search hit its limit).
struct Optimum {
  bool known = false;
  int length = 0;
};

struct LineVerdict {
  Verdict verdict = Verdict::ok;
  Answer::Kind kind = Answer::Kind::moves;  // the answer's kind, for describe's wording
  int answered = -1;  // the answer's length (moves or claimed), -1 for 'unreachable'
  int optimal = -1;   // the optimum when it was needed and known
  int step = 0;       // illegal_move: the 1-based step that leaves the board
  char move = 0;      // illegal_move: its letter
  int move_cells = 1; // illegal_move: the cells it would take the blank
  State end;          // wrong_end: where the moves end (check_answer leaves the start otherwise)
};

// Where moves lead from `start`: `end` after every move, or, when move `step` (1-based) is not a
// legal move from where the blank stands (off the board, or not a move letter at all), the state
// before it with `step`, `move` and `cells` set. step == 0: every move was legal. Move i takes the
// blank cells[i] cells (every move one cell when `cells` is empty; else one count a move).
struct Replay {
  State end;
  int step = 0;
  char move = 0;
  int cells = 1;
};
Replay replay_moves(const State& start, std::string_view moves, std::span<const std::uint8_t> cells = {}) noexcept;

namespace detail {
// The answer's length in moves of `metric`: the moves (single: the cells they take the blank; multi:
// the moves themselves; saturated at INT_MAX), the claimed length, or -1.
inline int answered_length(const Answer& a, Metric metric) noexcept {
  switch (a.kind) {
    case Answer::Kind::moves: {
      std::uint64_t n = a.moves.size();
      if (metric == Metric::single && !a.cells.empty()) {
        n = 0;
        for (const std::uint8_t k : a.cells) n += k;
      }
      return n > static_cast<std::uint64_t>(INT_MAX) ? INT_MAX : static_cast<int>(n);
    }
    case Answer::Kind::length: return a.length;
    default: return -1;
  }
}
// A legal path to the goal shorter than the oracle's exact optimum: the oracle is wrong.
[[noreturn]] void shorter_than_optimum(int answered, int optimal);
}  // namespace detail

// The verdict on one line (start and goal on the same board), lengths counted in `metric` (the
// oracle's optimum must be of the same metric). `optimum(start, goal)` returns an
// Optimum; it is called at most once, and only for a reachable pair: the verdict depends on it for
// a legal path that ends at the goal and a claimed length; for a false 'unreachable', an illegal
// move and a wrong end it is reported (`optimal`) beside the verdict. Never for an unreachable
// pair. Rules, in order: an unreachable pair is ok with 'unreachable', else
// unreachable_missed (moves are replayed first: an illegal move there is illegal_move); a reachable
// pair answered 'unreachable' is falsely_unreachable; moves are replayed (illegal_move, wrong_end),
// then compared with the optimum (ok, longer, undecided); a length is compared with the optimum
// (ok, wrong_length, undecided). Throws std::logic_error if a legal path to the goal is shorter
// than the oracle's known optimum (the oracle is wrong). No allocation beyond the State copies.
template <class Oracle>
LineVerdict check_answer(const State& start, const State& goal, const Answer& a, Oracle&& optimum,
                         Metric metric = Metric::single) {
  // `end` copied from the start: cheaper than a default State, which builds a Board.
  assert(start.board == goal.board);
  LineVerdict v{.kind = a.kind, .answered = detail::answered_length(a, metric), .end = start};
  const bool reachable = solvable(start, goal);
  if (a.kind == Answer::Kind::unreachable) {
    v.verdict = reachable ? Verdict::falsely_unreachable : Verdict::ok;
    if (reachable) {
      const Optimum o = optimum(start, goal);
      if (o.known) v.optimal = o.length;
    }
    return v;
  }
  if (a.kind == Answer::Kind::moves) {
    // Replayed even on an unreachable pair: an illegal move is the more precise fault.
    Replay r = replay_moves(start, a.moves, a.cells);
    if (r.step || (reachable && !(r.end == goal))) {
      if (r.step) {
        v.verdict = Verdict::illegal_move;
        v.step = r.step;
        v.move = r.move;
        v.move_cells = r.cells;
      } else {
        v.verdict = Verdict::wrong_end;
        v.end = r.end;
      }
      if (reachable) {  // what the answer should have been, beside the fault
        const Optimum o = optimum(start, goal);
        if (o.known) v.optimal = o.length;
      }
      return v;
    }
  }
  if (!reachable) {
    v.verdict = Verdict::unreachable_missed;
    return v;
  }
  const Optimum o = optimum(start, goal);
  if (!o.known) {
    v.verdict = Verdict::undecided;
    return v;
  }
  v.optimal = o.length;
  if (v.answered == o.length) {
    v.verdict = Verdict::ok;
  } else if (a.kind == Answer::Kind::length) {
    v.verdict = Verdict::wrong_length;
  } else {
    if (v.answered < o.length) detail::shorter_than_optimum(v.answered, o.length);
    v.verdict = Verdict::longer;
  }
  return v;
}

// One English line for a person: "optimal (22 moves)", "step 3: 'L' moves the blank off the
// board", "the 12 moves end at 1 2 3 4 5 6 0 7 8, not at the goal 1 2 3 4 5 6 7 8 0", "24 moves,
// 2 more than the optimal 22", "claimed 20 moves, the optimum is 22", ... (singular "1 move").
std::string describe(const LineVerdict& v, const State& goal);

// The tally of a run of lines. Every line is passed, failed or undecided: an undecided line (the
// optimum not proven within the limits) is neither a pass nor a failure, but counted on its own
// (the text report's "N undecided", JSON's "undecided", JUnit's <skipped>). total_excess sums
// answered - optimal over the `longer` lines.
struct CheckSummary {
  std::uint64_t lines = 0, passed = 0;
  std::array<std::uint64_t, kVerdicts> by_verdict{};
  std::uint64_t total_excess = 0;
  void add(const LineVerdict& v);
  std::uint64_t undecided() const { return by_verdict[static_cast<int>(Verdict::undecided)]; }
  std::uint64_t failed() const { return lines - passed - undecided(); }
};

// One <testcase> of a JUnit report. failure_type and message are used when `failed`; `error`
// makes the failure an <error> (the line could not be judged: malformed), counted in errors=.
// `skipped` (not with `failed`): the case was not decided (an undecided line), a <skipped> with
// `message` as its reason, counted in skipped=.
struct JUnitCase {
  std::string name, classname;
  bool failed = false;
  std::string failure_type, message;
  double seconds = 0;
  bool error = false;
  bool skipped = false;
};

// A JUnit XML document: one <testsuites> holding one <testsuite name=suite_name> with a
// <testcase> per case in order, a <failure type=.. message=..>message</failure> in the failed
// ones (<error ...> for the cases marked `error`; failures= and errors= count each), a
// <skipped message=../> in the skipped ones (counted in skipped=). Every text is escaped, and bytes XML 1.0 forbids (control characters other than tab, LF
// and CR; malformed UTF-8) become '?', so the document always parses. Times in seconds, 6 decimals.
std::string junit_xml(const std::string& suite_name, const std::vector<JUnitCase>& cases);

}  // namespace tilespace
