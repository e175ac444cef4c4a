// Error types and the process exit codes they map to (documented in README.md).
#pragma once

#include <stdexcept>
#include <string>

namespace tilespace {

// Exit codes of the `tilespace` command.
enum ExitCode : int {
  kExitOk = 0,           // success
  kExitUnreachable = 1,  // the goal cannot be reached from the start (or a limit was hit)
  kExitInput = 2,        // usage or input error: bad board, tile, file or option
  kExitData = 3,         // database file missing, corrupt, truncated or foreign
  kExitResource = 4,     // not enough memory (or time) for the job
};

// Bad user input: the message is one line naming the problem.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A database file that cannot be trusted: the message names the file and the problem.
struct DataError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A job that would not fit in this machine's memory.
struct ResourceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tilespace
