// The command line's terminal side (terminal.hpp).
#include "cli/terminal.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace tilespace::cli {

void add_common(CLI::App* app, Common& c, bool goal, bool json_flag, bool start) {
  app->add_option("--board", c.board, "Board as WxH (default: from the state, else 3x3)");
  if (goal) app->add_option("--goal", c.goal, "Goal state (default: 1 2 ... N-1 0)");
  app->add_option("--db", c.db, "Folder of the databases (made when first written; its parent must exist)")->capture_default_str();
  app->add_option("--threads", c.threads, "Threads for builds, batches and an aidastar search (0: all cores)")->check(CLI::Range(0, 1024));
  app->add_flag("--progress", c.progress, "Report each BFS layer on stderr (default: when stderr is a terminal)");
  if (json_flag) app->add_flag("--json", c.json, "Print JSON");
  if (start) app->add_option("--blank", c.blank, "The blank's name when tiles are named (letters, words)");
}

void print_board(const State& s, const Labels& labels) { std::fputs(board_text(s, labels).c_str(), stdout); }

// Plays the path board by board: in place on a terminal, frame after frame otherwise.
void animate(const std::vector<State>& path, const Labels& labels, int delay_ms, bool zh) {
  const bool tty = ::isatty(STDOUT_FILENO);
  const int lines = path.empty() ? 0 : path[0].board.height() + 1;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (tty && i) std::printf("\x1b[%dA", lines);  // back to the top of the frame
    std::printf(zh ? "第 %zu/%zu 步%s\n" : "move %zu/%zu%s\n", i, path.size() - 1, tty ? "\x1b[K" : "");
    std::fputs(board_text(path[i], labels).c_str(), stdout);
    if (!tty) std::puts("");
    std::fflush(stdout);
    if (tty && i + 1 < path.size()) ::usleep(static_cast<useconds_t>(delay_ms) * 1000);
  }
}

}  // namespace tilespace::cli
