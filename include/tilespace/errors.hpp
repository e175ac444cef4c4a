// Error types and the process exit codes they map to (documented in README.md and --help).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tilespace {

// Exit codes of the `tilespace` command, the same in every subcommand.
enum ExitCode : int {
  kExitOk = 0,           // success
  kExitUnreachable = 1,  // the goal cannot be reached from the start (any line of a batch), or a check failed
  kExitInput = 2,        // usage or input error: bad board, tile, file, line or option
  kExitData = 3,         // database file missing, corrupt, truncated or foreign (or too long to build on the fly),
                         // or output that cannot be written (standard output, --result, --trace, --junit)
  kExitResource = 4,     // not enough memory, or a search limit hit (--max-nodes, --max-seconds, --depth-limit)
};

// Bad user input: one line naming the problem and the input it concerns.
//
// `about` says which input is at fault, so that every front end words it in its own vocabulary
// without rewriting the message: the command line says "--max-nodes", the HTTP API says
// "max_nodes" and puts it in the `param` field. `detail` is the message without the subject;
// `what()` is the command line's wording ("start: ...", "--board: ...", "f.txt line 3: ...").
struct InputError : std::runtime_error {
  enum class About {
    general,  // no single input (the message says what)
    start,    // the start state
    goal,     // the goal state
    board,    // the board (--board, board=)
    option,   // an option: `name` is its long name without dashes ("max-nodes")
    file,     // a file or one of its lines: `name` is the file ("standard input" for -), `line` > 0 the line
  };
  About about = About::general;
  std::string name;        // the option or the file
  std::uint64_t line = 0;  // the line of `name`, 1-based (About::file); 0 for the whole file
  std::string detail;      // the message without its subject

  explicit InputError(const std::string& message) : std::runtime_error(message), detail(message) {}
  InputError(About a, const std::string& detail_, std::string name_ = "", std::uint64_t line_ = 0)
      : std::runtime_error(cli_words(a, name_, line_, detail_)), about(a), name(std::move(name_)), line(line_),
        detail(detail_) {}

  // The same error about `file`'s line `line_no` (a state parsed from that line, say): the subject
  // becomes the line, the old subject (start, goal) stays in the detail.
  InputError at_line(const std::string& file, std::uint64_t line_no) const {
    if (about == About::file) return *this;
    return InputError(About::file, what(), file, line_no);
  }

 private:
  // The subject as the command line names it: "start", "goal", "--board", "--max-nodes", "f.txt line 3".
  static std::string cli_subject(About a, const std::string& name, std::uint64_t line) {
    switch (a) {
      case About::start: return "start";
      case About::goal: return "goal";
      case About::board: return "--board";
      case About::option: return "--" + name;
      case About::file: return line ? name + " line " + std::to_string(line) : name;
      default: return "";
    }
  }
  static std::string cli_words(About a, const std::string& name, std::uint64_t line, const std::string& detail) {
    const std::string s = cli_subject(a, name, line);
    return s.empty() ? detail : s + ": " + detail;
  }
};

// An error about an option, by its long name without dashes ("max-nodes").
inline InputError option_error(const std::string& option, const std::string& detail) {
  return InputError(InputError::About::option, detail, option);
}

// A database file that cannot be trusted: the message names the file and the problem. Also a
// missing database whose build is too long to start on the fly (table_store.hpp: too_long_to_build):
// the message names the `tilespace build` command.
struct DataError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A job that would not fit in this machine's memory.
struct ResourceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tilespace
