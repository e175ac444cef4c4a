// `tilespace` as a child process for the tests that kill it (test_checkpoint.cpp, test_kill.cpp):
// its output into a log file, waited for with a deadline or a condition polled every millisecond,
// SIGKILLed at will, optionally under a file-size limit. The child dies with the test runner.
#pragma once

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace testing {

// `tilespace` with `args` as a child process, its stdout and stderr into `log`.
class Child {
 public:
  // fsize_limit > 0: the child's RLIMIT_FSIZE, as on a nearly full file system (writes past it
  // fail with EFBIG; tilespace ignores SIGXFSZ).
  Child(const std::vector<std::string>& args, const std::filesystem::path& log, std::uint64_t fsize_limit = 0) {
    std::vector<std::string> all{TILESPACE_CLI};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string log_name = log.string();
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {  // only async-signal-safe calls until exec
      const int fd = ::open(log_name.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int in = ::open("/dev/null", O_RDONLY);
      if (fd < 0 || in < 0) ::_exit(126);
      // Killed with the test runner: no build runs on, orphaned, when a test process dies.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (fsize_limit > 0) {
        const rlimit lim{fsize_limit, fsize_limit};
        ::setrlimit(RLIMIT_FSIZE, &lim);
      }
      ::dup2(in, STDIN_FILENO);
      ::dup2(fd, STDOUT_FILENO);
      ::dup2(fd, STDERR_FILENO);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    start_ = std::chrono::steady_clock::now();
    id_ = pid_;
  }
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  // Waits up to `seconds`, or until `stop()` holds (polled every millisecond); returns true (and
  // sets the status) if the child ended by then.
  template <class Stop>
  bool wait_for(double seconds, Stop stop) {
    const auto until = start_ + std::chrono::duration<double>(seconds);
    for (;;) {
      int st = 0;
      const pid_t got = ::waitpid(pid_, &st, WNOHANG);
      if (got == pid_) {
        pid_ = -1;
        status_ = st;
        ended_ = std::chrono::steady_clock::now();
        return true;
      }
      if (std::chrono::steady_clock::now() >= until || stop()) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  bool wait_for(double seconds) {
    return wait_for(seconds, [] { return false; });
  }
  // SIGKILLs the child and reaps it. Returns true if the kill ended it, false if the child had
  // ended by itself since the last poll (a run that finishes just as its kill is due): then
  // exit_code() says how it ended, and the caller treats the run as finished.
  [[nodiscard]] bool kill_now() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status_, 0);
    pid_ = -1;
    ended_ = std::chrono::steady_clock::now();
    return killed();
  }
  int exit_code() const { return WIFEXITED(status_) ? WEXITSTATUS(status_) : -1; }
  pid_t id() const { return id_; }
  bool killed() const { return WIFSIGNALED(status_) && WTERMSIG(status_) == SIGKILL; }
  double seconds() const { return std::chrono::duration<double>(ended_ - start_).count(); }

 private:
  pid_t pid_ = -1, id_ = -1;
  int status_ = 0;
  std::chrono::steady_clock::time_point start_, ended_;
};

}  // namespace testing
