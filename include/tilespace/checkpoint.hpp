// Checkpoints of a two-bit search (bfs.hpp): the fields and the progress between two layers, so
// that a killed build continues where it was (`tilespace build --resume`).
//
// File: <database>.ckpt in the database folder (an MPI process's slice: <database>.ckpt.<p>of<P>).
// Layout (little-endian; the header is 4096 bytes so the fields are page-aligned):
//   off  size  field
//     0     8  magic "TSCKPT\r\n"
//     8     4  checkpoint version (kCheckpointVersion)
//    12     4  database format version (kFormatVersion) of the table it will become
//    16     1  engine (2: two-bit)
//    17     1  board width W
//    18     1  board height H
//    19     1  goal blank cell
//    20     4  next layer (the layer to expand next)
//    24     8  pending (states found for the next layer, in this slice's whole search)
//    32     8  words in the whole table (ceil(N!/2 / 32))
//    40     8  slice: first word
//    48     8  slice: end word
//    56     4  process index p (0 when threaded)
//    60     4  process count P (1 when threaded)
//    64     8  XXH3-64 of the slice's fields
//    72     8  XXH3-64 of the header with this field zeroed
//    80     4  histogram length (= next layer)
//   256 8*len  histogram (the whole search's layer sizes so far)
//  4096     -  the fields of words [first, end)
// Saved atomically (temporary file, fsync, rename), so a kill at any moment leaves the previous
// checkpoint or the new one. Loading checks everything above against the build it should continue,
// and the fields against the progress (open fields only of the next layer, none beyond the last
// rank; for the whole table as many open and settled fields as the header counts); any mismatch
// or corruption is a DataError naming the file (exit 3).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "tilespace/bfs.hpp"
#include "tilespace/rank.hpp"

namespace tilespace {

inline constexpr std::uint32_t kCheckpointVersion = 1;

struct CheckpointSlice {
  std::uint64_t first = 0, end = 0;  // words [first, end) of the table
  std::uint32_t process = 0, processes = 1;
};

// Writes the checkpoint of `fields` (the slice's words) atomically; DataError naming the file if
// any step fails (the previous checkpoint, if any, stays).
void save_checkpoint(const std::filesystem::path& path, const Ranker& ranker, const TwoBitProgress& progress,
                     std::span<const std::uint64_t> fields, const CheckpointSlice& slice);

struct LoadedCheckpoint {
  TwoBitProgress progress;
  std::shared_ptr<FieldArray> fields;  // the slice's words
};

// Reads and validates a checkpoint for the search of `ranker` (and `slice`); DataError naming the
// file on anything foreign, truncated or corrupt.
LoadedCheckpoint load_checkpoint(const std::filesystem::path& path, const Ranker& ranker, const CheckpointSlice& slice);

}  // namespace tilespace
