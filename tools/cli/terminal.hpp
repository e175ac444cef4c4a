// The command line's own side of what the subcommands share: the common options on CLI11, and
// boards printed and played on the terminal.
#pragma once

#include <cstdint>
#include <functional>
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

// A CLI11 check that a value is a whole number in [lo, hi], worded as parse_whole (numbers.hpp)
// words it: "must be a whole number from 0 to 1024, not 'abc' (not a whole number)".
std::function<std::string(const std::string&)> whole_number(std::uint64_t lo, std::uint64_t hi);

// When `argv` holds an option that neither the subcommand given nor the command knows, the error
// for it, with the nearest option's name when one is close ("unknown option --gaol; did you mean
// --goal?"); "" otherwise.
std::string unknown_option(const CLI::App& app, int argc, const char* const* argv);

// board_text on stdout.
void print_board(const State& s, const Labels& labels = {});

// Plays the path board by board: in place on a terminal, frame after frame otherwise.
void animate(const std::vector<State>& path, const Labels& labels, int delay_ms, bool zh = false);

}  // namespace tilespace::cli
