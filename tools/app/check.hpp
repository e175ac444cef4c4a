// The one check of every front end (`tilespace check`, Python's check()): each START<TAB>GOAL<TAB>
// ANSWER line decided (check.hpp) against the optimum, from the goal's exact table or proven by
// pattern-database search.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "app/common.hpp"
#include "tilespace/check.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"

namespace tilespace::app {

// What a check keeps of one line (for --junit, --json and the Python module: a few dozen bytes,
// so a million lines fit).
struct CheckLine {
  std::uint64_t line = 0;
  Verdict verdict = Verdict::ok;
  int answered = -1, optimal = -1;
  std::string error;    // a malformed line: the message, in English
  std::string message;  // the verdict's reason in English (when kept)
  std::string start;    // the START field as written (when kept): JUnit names a case by it
  double seconds = 0;   // to decide it (JUnit's time)
};
struct CheckRun {
  std::vector<CheckLine> lines;  // as kept
  CheckSummary summary;
  std::uint64_t counted = 0, malformed = 0;
  double seconds = 0;
  // Of the decided lines (CheckSummary): an undecided line is neither passed nor failed.
  std::uint64_t undecided() const { return summary.undecided(); }
  std::uint64_t failed() const { return summary.failed(); }
};
// Which lines a check keeps: none (the text report), with the reasons of failures (--junit), or
// every line with its reason (--json, Python).
enum class Keep { nothing, failures, everything };
// Each line as it is decided, in order: its verdict, or for a malformed line the error (about the
// line's field, not yet about the file's line), and the goal.
using CheckLineSink = std::function<void(const CheckLine&, const LineVerdict*, const InputError*, const State& goal)>;
// The one check of every front end: decides every START<TAB>GOAL<TAB>ANSWER line of `input` (the
// optimum from the goal's table, or proven by pattern-database search within `max_seconds` a
// line); InputError about the file when it holds no answer.
CheckRun run_check(Common& c, const InputText& input, double max_seconds, Keep keep, const CheckLineSink& each = {});
// The answer of `check --json`: lines, passed, failed, undecided, malformed (each line counted in
// exactly one of the last four), failed_by_kind (the failures' verdicts: undecided is not one),
// total_excess, seconds and verdicts.
nlohmann::json check_json(const CheckRun& run);
}  // namespace tilespace::app
