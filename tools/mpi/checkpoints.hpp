// tilespace-mpi: checkpoints of a distributed two-bit build. Process p of P saves its words as
// <table>.ckpt.<p>of<P> (p from 0) in checkpoint.hpp's format, whose header records the deal (the
// unit), the process and the process count, so a file of another board, goal, deal or count is
// refused, and so is one of an older tilespace-mpi whose processes held contiguous slices.
//
// The P files are only useful together, at the same layer. A save is therefore a two-phase
// commit: every process writes <file>.next (atomically: save_checkpoint), all agree that every
// write succeeded, then every process renames <file>.next to <file>. A kill during the writes
// leaves the previous files (and some .next files); a kill during the renames leaves every
// process with the new layer, in <file> or in <file>.next. resume() tells the two cases apart:
// it completes the commit when every process holds the newest layer found in the .next files,
// and drops the .next files otherwise. (Files of one layer may come from different runs: between
// two layers the fields, histogram and pending count depend only on the board, goal and layer.)
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "mpi/slices.hpp"
#include "mpi/world.hpp"
#include "tilespace/checkpoint.hpp"
#include "tilespace/rank.hpp"

namespace tilespace::mpi {

class CheckpointSet {
 public:
  // `base`: the threaded build's checkpoint name (TableStore::checkpoint_for, <table>.ckpt).
  CheckpointSet(World& world, const Ranker& ranker, const Slices& slices, const std::filesystem::path& base);

  // "<table>.ckpt.*of<P>", for messages.
  const std::string& pattern() const noexcept { return pattern_; }

  // True when any process has its checkpoint file. Collective.
  bool any_exists() const;

  // The checkpoint to continue, or nullopt when no process has one; the same layer on every
  // process. Exit 3 (agreed) if some processes have one and others not, if a file does not load,
  // or if the files hold different layers. Collective.
  std::optional<LoadedCheckpoint> resume();

  // Saves this process's fields between two layers (the two-phase commit above). Exit 3 (agreed)
  // if any process cannot save; the previous checkpoints stay. Collective.
  void save(const TwoBitProgress& progress, std::span<const std::uint64_t> fields);

  // Removes this process's files (once the database is saved).
  void remove() const;

 private:
  // A complete commit cut short by a kill: finishes it, or drops the .next files of an incomplete one.
  void settle_interrupted_commit();

  World& world_;
  const Ranker& ranker_;
  CheckpointSlice slice_;
  std::filesystem::path path_, next_;
  std::string pattern_;
};

}  // namespace tilespace::mpi
