// The command line's own side of what the subcommands share: the common options on CLI11, and
// boards printed and played on the terminal.
#pragma once

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

// board_text on stdout.
void print_board(const State& s, const Labels& labels = {});

// Plays the path board by board: in place on a terminal, frame after frame otherwise.
void animate(const std::vector<State>& path, const Labels& labels, int delay_ms, bool zh = false);

}  // namespace tilespace::cli
