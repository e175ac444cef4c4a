// Fuzz target: the problem grammar of every front end (problem.hpp): a problem's texts
// (parse_problem: --board, START, --goal, --blank, named tiles included), start files
// (split_states, parse_start_problem) and START arguments (resolve_start).
//
// Input: byte 0 is the mode, the rest the fields BOARD|START|GOAL|BLANK cut at '|'.
//   bit 0: no START (a goal only); bit 1: START is the content of a start file (split_states,
//   then parse_start_problem); bit 2: START is a START argument (resolve_start; skipped when it
//   names something that exists, or is "-").
// Bad input must be an InputError about the right input; a parsed problem must be consistent
// (one board, valid states, labels naming every tile) and read back the same from its printed form.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "support.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"

using namespace tilespace;
using About = InputError::About;

namespace {

void check_problem(const Problem& p, const ProblemText& t) {
  fuzz::check(fuzz::valid_state(p.goal), "invalid goal");
  fuzz::check(p.board == p.goal.board, "the problem's board is not the goal's");
  if (p.start) {
    fuzz::check(fuzz::valid_state(*p.start), "invalid start");
    fuzz::check(p.start->board == p.goal.board, "start and goal on different boards");
  }
  if (!t.board.empty()) {
    const auto b = Board::parse(t.board);
    fuzz::check(b && *b == p.board, "the problem's board is not the one given");
  }
  if (p.labels.names.empty()) {
    // Numbered tiles: the printed problem reads back the same.
    ProblemText again;
    again.board = p.board.name();
    if (p.start) again.start = p.start->to_string();
    again.goal = p.goal.to_string();
    try {
      const Problem q = parse_problem(again);
      fuzz::check(q.goal == p.goal && q.start == p.start, "a numbered problem does not read back");
    } catch (const InputError& e) {
      fuzz::fail(std::string("a numbered problem does not read back: ") + e.what());
    }
    return;
  }
  // Named tiles: one distinct name a tile, and the names read back as the same states.
  fuzz::check(p.labels.names.size() == static_cast<std::size_t>(p.board.cells()), "not one label a tile");
  const std::set<std::string> distinct(p.labels.names.begin(), p.labels.names.end());
  fuzz::check(distinct.size() == p.labels.names.size(), "two tiles with the same label");
  fuzz::check(p.start.has_value(), "labels without a start");
  try {
    const LabelledPair lp = parse_labelled_pair(p.labels.format(*p.start), p.labels.format(p.goal), p.board,
                                                t.blank.empty() ? std::string_view() : std::string_view(p.labels.names[0]));
    fuzz::check(lp.start == *p.start && lp.goal == p.goal && lp.labels.names == p.labels.names,
                "a labelled problem does not read back: " + p.labels.format(*p.start));
  } catch (const InputError& e) {
    fuzz::fail("a labelled problem does not read back: " + p.labels.format(*p.start) + ": " + e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  const auto f = fuzz::split_fields(input, '|', 4);
  ProblemText t;
  t.board = std::string(f[0]);
  if (!(mode & 1) && f.size() > 1) t.start = std::string(f[1]);
  if (f.size() > 2) t.goal = std::string(f[2]);
  if (f.size() > 3) t.blank = std::string(f[3]);

  if (t.start && (mode & 6)) {
    std::optional<Board> board;
    try {
      board = parse_board(t.board);
    } catch (const InputError& e) {
      fuzz::check(e.about == About::board, "a bad board not reported about the board");
      return 0;
    }
    StartArg arg;
    try {
      if (mode & 2) {
        arg.source = "start.txt";
        arg.texts = split_states(InputText{"start.txt", *t.start}, board);
        fuzz::check(!arg.texts.start.empty(), "split_states: an empty start");
        fuzz::check(arg.texts.start_line >= 1 && (!arg.texts.goal || arg.texts.goal_line > arg.texts.start_line),
                    "split_states: lines out of order");
      } else {
        // resolve_start looks for a file of that name: only names that do not exist, so that the
        // result does not depend on the machine.
        std::error_code ec;
        if (*t.start == "-" || t.start->find('\0') != std::string::npos || std::filesystem::exists(*t.start, ec) || ec)
          return 0;
        arg = resolve_start(*t.start, board, !t.goal.empty() || !t.blank.empty());
        fuzz::check(arg.source.empty() && arg.texts.start == *t.start, "resolve_start: not the argument itself");
      }
    } catch (const InputError& e) {
      fuzz::check(e.about == About::file || e.about == About::start, "a bad start file not reported about it");
      return 0;
    }
    try {
      const Problem p = parse_start_problem(arg, t);
      ProblemText used = t;
      used.start = arg.texts.start;
      if (used.goal.empty() && arg.texts.goal) used.goal = *arg.texts.goal;
      check_problem(p, used);
    } catch (const InputError& e) {
      fuzz::check(e.about != About::option, "a problem's error about an option");
    }
    return 0;
  }

  try {
    const Problem p = parse_problem(t);
    check_problem(p, t);
  } catch (const InputError& e) {
    fuzz::check(e.about == About::board || e.about == About::start || e.about == About::goal || e.about == About::general,
                "a problem's error about something else than its texts");
  }
  return 0;
}
