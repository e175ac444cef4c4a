// The command line's own side of what the subcommands share: the common options on CLI11, and
// boards printed and played on the terminal.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/common.hpp"
#include "tilespace/state.hpp"

namespace CLI {
class App;
class FormatterBase;
class ParseError;
class Validator;
}

namespace tilespace::cli {

using namespace tilespace::app;  // the command line is written in the application layer's terms

// Registers --board, --db, --threads, --progress and, if asked, --goal, --json and (for commands
// that take a START) --blank on `app`.
void add_common(CLI::App* app, Common& c, bool goal = true, bool json_flag = true, bool start = false);

// The rules every option with a value follows, in every subcommand, applied once the whole command
// is defined (main() calls it after the last option): an empty value ("--goal ''", "--result=",
// an unset variable in a script) is refused, naming the option, before any other check of that
// value; and a --db that names a file is refused as a file, not a folder. So no option can forget
// them.
void value_rules(CLI::App& app);

// The empty value that CLI11 does not see: "--result=" is taken by CLI11 as "--result" and its value
// the next argument ("--result= --json" would write a file named --json). When `argv` holds
// "--NAME=" for an option with a value of the subcommand given (or of the command), the error
// value_rules gives an empty value ("--result: empty value: ..."); "" otherwise. Up to a "--".
std::string empty_after_equals(const CLI::App& app, int argc, const char* const* argv);

// A CLI11 check that a value is a whole number in [lo, hi], worded as parse_whole (numbers.hpp)
// words it: "must be a whole number from 0 to 1024, not 'abc' (not a whole number)".
std::function<std::string(const std::string&)> whole_number(std::uint64_t lo, std::uint64_t hi);

// A CLI11 check that a value is a number in [lo, hi], worded as parse_real (numbers.hpp) words
// it: "must be a number from 0 to 1000000000, not 'x'" (lo_open: "above 0 and at most ...").
std::function<std::string(const std::string&)> real_number(double lo, double hi, bool lo_open = false);

// A CLI11 check that a value is one of `values` (shown in the help as {a,b}), worded as the
// library words a bad metric: "'x' is not a metric (single, multi)"; `what` names the kind.
CLI::Validator one_of(const std::string& what, const std::vector<std::string>& values);

// The help's layout: every option's description in its own column, at least two spaces after its
// names (or on the next line), and the options an option excludes said in its description
// ("(not with --csv or --md)") instead of CLI11's "Excludes: --csv --md" among the names.
std::shared_ptr<CLI::FormatterBase> help_formatter();

// The one line that says what is wrong with the command line, in the command's words, for each
// kind of CLI11 parse error (an unknown option, an unexpected argument, no subcommand, a missing
// argument, an option given twice or without its value, options that exclude each other, a value
// refused by a check or that does not convert); CLI11's own text only for a kind none of these is.
std::string parse_error_text(const CLI::App& app, const CLI::ParseError& e, int argc, const char* const* argv);

// Where the HTTP API's document (API.md) is, found at run time: installed beside the command
// (<prefix>/share/doc/tilespace/API.md, the command in <prefix>/bin), else the source tree's
// tools/viewer/API.md (the command run from its build folder); where it would be installed when
// neither exists.
std::string api_document();

// When `argv` holds an option that neither the subcommand given nor the command knows, the error
// for it, with the nearest option's name when one is close ("unknown option --gaol; did you mean
// --goal?"); "" otherwise.
std::string unknown_option(const CLI::App& app, int argc, const char* const* argv);

// Standard output, the one output path of every command: the commands write with stdio (printf,
// puts, these), whose error flag stays set after a failed write; main() flushes and checks it once
// after the command (exit 3, "standard output: write failed"). Long outputs (query --batch, solve
// --batch, check, random, verify's rows) write with these to stop at the first failure instead
// of computing the rest. A closed pipe ends the command by SIGPIPE, quietly (main()).
inline constexpr const char* kStdoutFailed = "standard output: write failed";
// Writes `text` to stdout; DataError(kStdoutFailed) if the stream has failed.
void write_out(std::string_view text);
// Flushes stdout; DataError(kStdoutFailed) if that or any earlier write failed.
void flush_out();

// The START to read for query, solve and compare: the argument, or "-" (standard input) without
// one. When it comes to standard input and that is a terminal, says so on stderr first (in the
// session's language), instead of waiting silently.
std::string start_or_stdin(const Common& c, const std::optional<std::string>& start_arg);

// board_text on stdout.
void print_board(const State& s, const Labels& labels = {});

// Plays the path board by board: in place on a terminal, frame after frame otherwise.
void animate(const std::vector<State>& path, const Labels& labels, int delay_ms, bool zh = false);

}  // namespace tilespace::cli
