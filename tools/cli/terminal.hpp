// The command line's own side of what the subcommands share: the common options on CLI11, and
// boards printed and played on the terminal.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/common.hpp"
#include "tilespace/state.hpp"

namespace CLI {
class App;
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

// When `argv` holds an option that neither the subcommand given nor the command knows, the error
// for it, with the nearest option's name when one is close ("unknown option --gaol; did you mean
// --goal?"); "" otherwise.
std::string unknown_option(const CLI::App& app, int argc, const char* const* argv);

// The START to read for query, solve and compare: the argument, or "-" (standard input) without
// one. When it comes to standard input and that is a terminal, says so on stderr first (in the
// session's language), instead of waiting silently.
std::string start_or_stdin(const Common& c, const std::optional<std::string>& start_arg);

// board_text on stdout.
void print_board(const State& s, const Labels& labels = {});

// Plays the path board by board: in place on a terminal, frame after frame otherwise.
void animate(const std::vector<State>& path, const Labels& labels, int delay_ms, bool zh = false);

}  // namespace tilespace::cli
