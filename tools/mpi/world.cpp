// The processes of one tilespace-mpi run and their agreement on failures (world.hpp).
#include "mpi/world.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "tilespace/errors.hpp"

namespace tilespace::mpi {

Failure describe(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const InputError& x) {
    return {kExitInput, std::string("error: ") + x.what()};
  } catch (const DataError& x) {
    return {kExitData, std::string("database error: ") + x.what()};
  } catch (const ResourceError& x) {
    return {kExitResource, std::string("out of resources: ") + x.what()};
  } catch (const std::bad_alloc&) {
    return {kExitResource, "out of resources: out of memory"};
  } catch (const std::exception& x) {
    return {kExitInput, std::string("error: ") + x.what()};
  } catch (...) {
    return {kExitInput, "error: unknown exception"};
  }
}

World::World(int& argc, char**& argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

World::~World() { MPI_Finalize(); }

void World::note(const std::string& text) const {
  if (root()) std::fprintf(stderr, "tilespace-mpi: %s\n", text.c_str());
}

void World::abort(const Failure& failure) const {
  std::fprintf(stderr, "tilespace-mpi: process %d of %d: %s\n", rank_, size_, failure.message.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, failure.code);
  std::abort();  // MPI_Abort does not return
}

bool World::all(bool mine) const {
  int v = mine;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return v != 0;
}

bool World::any(bool mine) const {
  int v = mine;
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  return v != 0;
}

long long World::sum(long long mine) const {
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return mine;
}

long long World::max(long long mine) const {
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return mine;
}

std::vector<std::uint64_t> World::gather(const std::vector<std::uint64_t>& mine) const {
  const int n = static_cast<int>(mine.size());
  std::vector<int> counts(root() ? size_ : 0), displs(counts.size());
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<std::uint64_t> all;
  if (root()) {
    std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
    all.resize(static_cast<std::size_t>(std::accumulate(counts.begin(), counts.end(), 0)));
  }
  MPI_Gatherv(mine.data(), n, MPI_UINT64_T, all.data(), counts.data(), displs.data(), MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return all;
}

void World::agree(const std::optional<Failure>& failure) const {
  int first = failure ? rank_ : size_;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == size_) return;
  // The first failing process tells everyone the code, and rank 0 the message.
  int code = failure && rank_ == first ? failure->code : 0;
  MPI_Bcast(&code, 1, MPI_INT, first, MPI_COMM_WORLD);
  std::string message = failure && rank_ == first ? failure->message : std::string();
  std::replace(message.begin(), message.end(), '\n', ' ');
  if (first != 0 && rank_ == first) {
    MPI_Send(message.data(), static_cast<int>(message.size()), MPI_CHAR, 0, 0, MPI_COMM_WORLD);
  } else if (first != 0 && root()) {
    MPI_Status status;
    MPI_Probe(first, 0, MPI_COMM_WORLD, &status);
    int length = 0;
    MPI_Get_count(&status, MPI_CHAR, &length);
    std::vector<char> text(static_cast<std::size_t>(length));
    MPI_Recv(text.data(), length, MPI_CHAR, first, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    message.assign(text.begin(), text.end());
  }
  note(message);
  throw Exit{code};
}

}  // namespace tilespace::mpi
