// Every line of text the command prints for a person, in English (the default) or Chinese
// (--lang zh): headlines, labels, table heads, verdicts, summaries and error messages. JSON and
// machine formats (CSV, JUnit) stay in English.
//
// Fixed texts are looked up by key (the English text itself); texts with numbers are functions,
// so singular and plural come out right in both languages. Error messages come from the library
// in English; `error()` translates the known message forms and their subjects (start, goal, an
// option, a file's line), keeping the names of files and options as they were typed.
#pragma once

#include <cstdint>
#include <string>

#include "tilespace/check.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/state.hpp"

namespace tilespace::cli {

class Messages {
 public:
  explicit Messages(const std::string& lang) : zh_(lang == "zh") {}
  bool zh() const { return zh_; }

  // A fixed text by its English wording ("unreachable", "ok", "states", ...).
  std::string get(const std::string& en) const;
  // ": " / "：".
  std::string colon() const { return zh_ ? "：" : ": "; }
  // "1 move" / "2 moves" / "2 步".
  std::string moves(long long n) const;
  // "line 3: " / "第 3 行：".
  std::string line_no(std::uint64_t n) const;

  // solve and query headlines.
  std::string optimal_length(int n) const;       // query: "22" / "最少移动22步到达目标状态"
  std::string solved(int n, bool optimal, const std::string& moves) const;  // solve's first line(s)
  std::string stopped(const std::string& option, const std::string& value) const;
  std::string search_statistics(const std::string& algorithm, const std::string& heuristic, unsigned long long expanded,
                                unsigned long long generated, unsigned long long peak_open, unsigned long long closed,
                                double kib, double seconds) const;
  std::string step_label(std::size_t i, std::size_t last) const;  // "0 (start)", "3", "5 (goal)"

  // build --automaton: a progress line a level, and the summary ("built FILE: ..." or
  // "up to date: FILE: ...") with the effective branching factors without and with the machine.
  std::string automaton_level(int level, std::uint64_t kept, std::uint64_t forbidden, double seconds) const;
  std::string automaton_summary(bool built, const std::string& file, int depth, std::size_t states,
                                std::uint64_t forbidden, double plain4, double fsm4, double plain5, double fsm5,
                                double seconds) const;

  // check.
  std::string describe(const LineVerdict& v, const State& goal) const;
  std::string check_summary(std::uint64_t lines, std::uint64_t passed, std::uint64_t failed, std::uint64_t undecided,
                            std::uint64_t malformed,
                            const std::string& kinds, std::uint64_t excess, double seconds) const;

  // An error for the person: "start: tile 7 appears twice" / "初始状态：数字 7 出现了两次".
  std::string error(const std::exception& e) const;
  // Any other line of the library's or the parser's English (a notice such as "no database FILE
  // yet: building it first", a progress line, a CLI11 parse error), in the chosen language: the
  // same forms as error(). English: the text as it is.
  std::string text(const std::string& en) const;

 private:
  bool zh_;
};

}  // namespace tilespace::cli
