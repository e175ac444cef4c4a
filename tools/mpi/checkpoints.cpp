// Checkpoints of a distributed build: one file per process, saved by a two-phase commit
// (checkpoints.hpp).
#include "mpi/checkpoints.hpp"

#include <system_error>
#include <vector>

#include "tilespace/errors.hpp"

namespace tilespace::mpi {

namespace {

std::string depth_text(long long layer) { return "depth " + std::to_string(layer); }

}  // namespace

CheckpointSet::CheckpointSet(World& world, const Ranker& ranker, const Slices& slices,
                             const std::filesystem::path& base)
    : world_(world), ranker_(ranker), slice_(slices.slice(world.rank())) {
  const std::string processes = std::to_string(world.size());
  path_ = base.string() + '.' + std::to_string(world.rank()) + "of" + processes;
  next_ = path_.string() + ".next";
  pattern_ = base.string() + ".*of" + processes;
}

bool CheckpointSet::any_exists() const {
  std::error_code ec;
  return world_.any(std::filesystem::exists(path_, ec));
}

void CheckpointSet::settle_interrupted_commit() {
  std::error_code ec;
  const bool has_next = std::filesystem::exists(next_, ec);
  if (!world_.any(has_next)) return;
  int staged = -1;  // the layer in this process's .next
  world_.together([&] {
    if (has_next) staged = load_checkpoint(next_, ranker_, slice_).progress.next_layer;
  });
  const long long newest = world_.max(staged);
  const bool staged_newest = staged == newest;
  int kept = -1;  // the layer in this process's checkpoint, when its .next does not hold the newest
  world_.together([&] {
    if (!staged_newest && std::filesystem::exists(path_, ec))
      kept = load_checkpoint(path_, ranker_, slice_).progress.next_layer;
  });
  const bool complete = world_.all(staged_newest || kept == newest);
  world_.together([&] {
    if (complete && staged_newest) {
      std::filesystem::rename(next_, path_, ec);
      if (ec) throw DataError(next_.string() + ": cannot rename it to " + path_.string() + ": " + ec.message());
    } else if (has_next) {
      std::filesystem::remove(next_, ec);
    }
  });
  world_.note(complete ? "completed the checkpoint of " + depth_text(newest) + " that a kill interrupted"
                       : "dropped the unfinished checkpoint of " + depth_text(newest) + " (a kill interrupted it)");
}

std::optional<LoadedCheckpoint> CheckpointSet::resume() {
  settle_interrupted_commit();
  std::error_code ec;
  const bool mine = std::filesystem::exists(path_, ec);
  const long long count = world_.sum(mine);
  if (count == 0) return std::nullopt;
  world_.together([&] {
    if (!mine)
      throw DataError(path_.string() + ": missing, while " + std::to_string(count) + " of the " +
                      std::to_string(world_.size()) + " processes have their checkpoint (" + pattern_ +
                      "); remove those to start over");
  });
  std::optional<LoadedCheckpoint> c;
  world_.together([&] { c = load_checkpoint(path_, ranker_, slice_); });

  // Every process at the same layer, with the same layer sizes.
  int lo[2] = {c->progress.next_layer, world_.rank()}, hi[2] = {lo[0], lo[1]};
  MPI_Allreduce(MPI_IN_PLACE, lo, 1, MPI_2INT, MPI_MINLOC, world_.comm());
  MPI_Allreduce(MPI_IN_PLACE, hi, 1, MPI_2INT, MPI_MAXLOC, world_.comm());
  world_.together([&] {
    if (lo[0] != hi[0])
      throw DataError(pattern_ + ": process " + std::to_string(lo[1]) + " holds the checkpoint of " + depth_text(lo[0]) +
                      ", process " + std::to_string(hi[1]) + " that of " + depth_text(hi[0]) +
                      ": they are not one build's checkpoints");
  });
  std::vector<std::uint64_t> least = c->progress.histogram, most;
  least.push_back(c->progress.pending);
  most = least;
  const int n = static_cast<int>(least.size());
  MPI_Allreduce(MPI_IN_PLACE, least.data(), n, MPI_UINT64_T, MPI_MIN, world_.comm());
  MPI_Allreduce(MPI_IN_PLACE, most.data(), n, MPI_UINT64_T, MPI_MAX, world_.comm());
  world_.together([&] {
    if (least != most)
      throw DataError(pattern_ + ": the checkpoints of " + depth_text(lo[0]) +
                      " disagree on the layer sizes: they are not one build's checkpoints");
  });
  return c;
}

void CheckpointSet::save(const TwoBitProgress& progress, std::span<const std::uint64_t> fields) {
  std::error_code ec;
  try {
    world_.together([&] { save_checkpoint(next_, ranker_, progress, fields, slice_); });
  } catch (const Exit&) {
    std::filesystem::remove(next_, ec);
    throw;
  }
  world_.together([&] {
    std::filesystem::rename(next_, path_, ec);
    if (ec) throw DataError(next_.string() + ": cannot rename it to " + path_.string() + ": " + ec.message());
  });
}

void CheckpointSet::remove() const {
  std::error_code ec;
  std::filesystem::remove(path_, ec);
  std::filesystem::remove(next_, ec);
}

}  // namespace tilespace::mpi
