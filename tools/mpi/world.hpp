// tilespace-mpi: the processes of one run (MPI_COMM_WORLD) and how they fail together.
//
// Every process runs the same steps on its own slice of the table (slices.hpp). A failure ends
// the run in one of two ways:
//  - agreed: a step that may fail on some processes only runs inside World::together(), which
//    ends with an agreement among all processes. If any of them threw, the message of the first
//    one (lowest rank) goes to rank 0, which prints it as one line on stderr, and every process
//    throws Exit with that failure's exit code (errors.hpp: 2 input, 3 data file, 4 resources);
//    main() finalizes MPI and returns it, so every process, and mpirun, exit with the same code.
//    The step itself must hold no collective operation that a throwing process could skip: either
//    none at all, or its failures are the same on every process (decided from agreed values).
//  - fatal: any other exception (e.g. out of memory between two collective operations of a layer)
//    is printed by the process that saw it, which then ends the job with MPI_Abort and that code.
// A process that dies (a signal, a lost node) is handled by Open MPI: with its default error
// handler and mpirun, the other processes are killed and mpirun exits non-zero.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace tilespace::mpi {

// Thrown on every process at once when a together() step failed; main() returns `code`.
struct Exit {
  int code;
};

// An exception as the `tilespace` command reports it: the exit code and the message after
// "tilespace-mpi: " ("error: ...", "database error: ...", "out of resources: ...").
struct Failure {
  int code;
  std::string message;
};
Failure describe(std::exception_ptr e);

class World {
 public:
  World(int& argc, char**& argv);  // MPI_Init
  ~World();                        // MPI_Finalize
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  MPI_Comm comm() const noexcept { return MPI_COMM_WORLD; }
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  bool root() const noexcept { return rank_ == 0; }

  // Runs f() on this process; collective: see the header comment.
  template <class F>
  void together(F&& f) {
    std::optional<Failure> failure;
    try {
      f();
    } catch (...) {
      failure = describe(std::current_exception());
    }
    agree(failure);
  }

  // Rank 0 prints "tilespace-mpi: <text>" on stderr; the other processes do nothing.
  void note(const std::string& text) const;

  // Prints the failure (naming this process) and ends every process with MPI_Abort.
  [[noreturn]] void abort(const Failure& failure) const;

  // Collective helpers over all processes.
  bool all(bool mine) const;                    // logical and
  bool any(bool mine) const;                    // logical or
  long long sum(long long mine) const;
  long long max(long long mine) const;
  // Every process's values on rank 0, in rank order (elsewhere: empty).
  std::vector<std::uint64_t> gather(const std::vector<std::uint64_t>& mine) const;

 private:
  void agree(const std::optional<Failure>& failure) const;  // throws Exit if any process failed
  int rank_ = 0, size_ = 1;
};

}  // namespace tilespace::mpi
