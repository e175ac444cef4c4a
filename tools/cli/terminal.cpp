// The command line's terminal side (terminal.hpp).
#include "cli/terminal.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/messages.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/numbers.hpp"

namespace tilespace::cli {

void add_common(CLI::App* app, Common& c, bool goal, bool json_flag, bool start) {
  app->add_option("--board", c.board,
                  start ? "Board as WxH (default: from the state or --goal, else 3x3)" : "Board as WxH (default: from --goal, else 3x3)");
  if (goal) app->add_option("--goal", c.goal, "Goal state (default: 1 2 ... N-1 0)");
  app->add_option("--db", c.db, "Folder of the databases (made when first written; its parent must exist)")->capture_default_str();
  app->add_option("--threads", c.threads, "Threads for builds, batches and an aidastar search (0: all cores)")->check(whole_number(0, 1024), "0 to 1024");
  app->add_flag("--progress", c.progress, "Report each BFS layer on stderr (default: when stderr is a terminal)");
  if (json_flag) app->add_flag("--json", c.json, "Print JSON");
  if (start) app->add_option("--blank", c.blank, "The blank's name when tiles are named (letters, words)");
}

namespace {

constexpr const char* kEmptyValue = "empty value: give a value or leave the option out";

}  // namespace

void value_rules(CLI::App& app) {
  std::vector<CLI::App*> apps{&app};
  for (CLI::App* sub : app.get_subcommands({})) apps.push_back(sub);
  for (CLI::App* a : apps) {
    for (CLI::Option* o : a->get_options({})) {
      if (!o->nonpositional() || o->get_items_expected_max() == 0) continue;  // a flag, or a positional argument
      if (o->check_lname("db"))
        o->check(CLI::Validator(
            [](std::string& v) -> std::string {
              std::error_code ec;
              const auto status = std::filesystem::status(v, ec);
              return !ec && std::filesystem::exists(status) && !std::filesystem::is_directory(status)
                         ? "'" + v + "' is a file, not a folder"
                         : "";
            },
            ""));
      // First (transform() puts a check before the others): "--metric: empty value", not "'' not in {...}".
      o->transform(CLI::Validator(
          [](std::string& v) -> std::string {
            return v.empty() ? kEmptyValue : "";
          },
          ""));
    }
  }
}

std::string empty_after_equals(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* sub = &app;  // the subcommand is argv[1], as unknown_option finds it
  if (argc > 1 && argv[1][0] != '-')
    for (const CLI::App* s : app.get_subcommands({}))
      if (s->get_name() == argv[1]) sub = s;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 4 || arg.rfind("--", 0) != 0 || arg.find('=') != arg.size() - 1) continue;
    const std::string name = arg.substr(0, arg.size() - 1);
    const CLI::Option* o = sub->get_option_no_throw(name);
    if (!o) o = app.get_option_no_throw(name);
    if (o && o->get_items_expected_max() > 0) return o->get_name() + ": " + kEmptyValue;
  }
  return "";
}

std::function<std::string(const std::string&)> whole_number(std::uint64_t lo, std::uint64_t hi) {
  return [lo, hi](const std::string& text) -> std::string {
    try {
      parse_whole("", text, lo, hi);
      return "";
    } catch (const InputError& e) {
      return e.detail;
    }
  };
}

namespace {

// The edit distance of two names (insertions, deletions, substitutions, and swaps of neighbours).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string unknown_option(const CLI::App& app, int argc, const char* const* argv) {
  // The subcommand is argv[1] (main() has refused an unknown one), else the command itself.
  const CLI::App* sub = &app;
  if (argc > 1 && argv[1][0] != '-')
    for (const CLI::App* s : app.get_subcommands({}))
      if (s->get_name() == argv[1]) sub = s;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.rfind("--", 0) != 0 || arg.size() < 3) continue;
    arg = arg.substr(0, arg.find('='));
    if (sub->get_option_no_throw(arg) || app.get_option_no_throw(arg)) continue;
    std::string best;
    std::size_t best_d = 3;  // at most two edits away, and closer than half the name
    for (const CLI::App* a : {sub, &app})
      for (const CLI::Option* o : a->get_options()) {
        for (const std::string& name : o->get_lnames()) {
          const std::size_t dist = edit_distance(arg.substr(2), name);
          if (dist < best_d && 2 * dist < name.size()) {
            best_d = dist;
            best = "--" + name;
          }
        }
      }
    return "unknown option " + arg + (best.empty() ? "" : "; did you mean " + best + "?");
  }
  return "";
}

std::string start_or_stdin(const Common& c, const std::optional<std::string>& start_arg) {
  const std::string start = start_arg.value_or("-");
  if (start == "-" && ::isatty(STDIN_FILENO))
    std::fprintf(stderr, "tilespace: %s\n",
                 Messages(c.lang).text("reading the start state from standard input (Ctrl-D to end)").c_str());
  return start;
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
