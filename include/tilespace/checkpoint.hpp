// Checkpoints of a two-bit search (bfs.hpp): the fields and the progress between two layers, so
// that a killed build continues where it was (`tilespace build --resume`).
//
// File: <database>.ckpt in the database folder (an MPI process's words: <database>.ckpt.<p>of<P>).
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
//    40     8  words in this file (the process's: CheckpointSlice::held; multi-tile: and the open bitmap's)
//    48     4  the deal: log2 of the words in a unit (CheckpointSlice; 0 when threaded)
//    52     1  the metric (0 single-tile, 1 multi-tile: board.hpp Metric; zero in checkpoints written
//              before it was stored, which were all single-tile)
//    53     3  zero
//    56     4  process index p (0 when threaded)
//    60     4  process count P (1 when threaded)
//    64     8  XXH3-64 of the file's fields
//    72     8  XXH3-64 of the header with this field zeroed
//    80     4  histogram length (= next layer)
//   256 8*len  histogram (the whole search's layer sizes so far)
//  4096     -  the fields of the process's words, in their local order (CheckpointSlice); in the
//              multi-tile metric (threaded only) followed by the open bitmap (bfs.hpp)
// Every checkpoint version keeps the magic at 0, the version at 8 and the header checksum at 72:
// the checksum is verified before any field is believed (a damaged header is corrupt, whatever its
// version field reads). Version 1 held one contiguous range of words a process (40: first word, 48: end word): of those,
// only the threaded build's (the whole table, the same bytes) is read; an MPI process's is refused.
// Saved atomically (temporary file, fsync, rename), so a kill at any moment leaves the previous
// checkpoint or the new one. Loading checks everything above against the build it should continue,
// and the fields against the progress (open fields only of the next layer, none beyond the last
// rank; for the whole table as many open and settled fields as the header counts; multi-tile:
// open bits only on fields of the next layer's value, as many as pending); any mismatch
// or corruption is a DataError naming the file (exit 3).
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "tilespace/bfs.hpp"
#include "tilespace/rank.hpp"

namespace tilespace {

inline constexpr std::uint32_t kCheckpointVersion = 2;

// The words of a two-bit table's fields that one process holds. tilespace-mpi deals units of
// 2^unit_log2 words round-robin, unit u to process u mod P (the table's last unit is shorter), and
// a process holds its units one after another (unit u as its local unit u / P): every process then
// holds about as many states of every layer. The threaded build is process 0 of 1: every word, in
// place. This is TwoBitExpander's layout in tilespace-mpi (tilespace/engine/two_bit_kernel.hpp), hence owner() and
// local() in two multiplications: u / P as the high half of u times ceil(2^64 / P) (Lemire, Kaser
// and Kurz, "Faster remainder by direct computation", 2019), exact for u < 2^32 and P < 2^32, so a
// dealt table must have fewer than 2^32 units (valid_for), and u mod P = u - (u / P) P.
class CheckpointSlice {
 public:
  CheckpointSlice() = default;  // the whole table
  CheckpointSlice(std::uint32_t unit_log2, std::uint32_t process, std::uint32_t processes);

  std::uint32_t unit_log2() const noexcept { return unit_log2_; }
  std::uint32_t process() const noexcept { return process_; }
  std::uint32_t processes() const noexcept { return processes_; }

  // The process holding global word w; whether this one does; where this one holds it. (Both
  // from round(u) = u / P, which the compiler computes once for mine() and local() of one word.)
  std::uint32_t owner(std::uint64_t w) const noexcept {
    const std::uint64_t u = w >> unit_log2_;
    return static_cast<std::uint32_t>(u - round(u) * processes_);
  }
  bool mine(std::uint64_t w) const noexcept { return owner(w) == process_; }
  std::uint64_t local(std::uint64_t w) const noexcept { return (round(w >> unit_log2_) << unit_log2_) | (w & unit_mask_); }
  // The global word this process holds as local word l.
  std::uint64_t global(std::uint64_t l) const noexcept {
    return ((((l >> unit_log2_) * processes_) + process_) << unit_log2_) | (l & unit_mask_);
  }

  // False if a table of `words` words has too many units for the arithmetic above.
  bool valid_for(std::uint64_t words) const noexcept { return processes_ == 1 || (words >> unit_log2_) < (1ull << 32); }
  // The words this process holds of a table of `words` words.
  std::uint64_t held(std::uint64_t words) const noexcept;
  // Calls f(first global word, first local word, words) for each unit this process holds of a
  // table of `words` words, in order; once, for the whole table, when P = 1.
  template <class F>
  void for_each_unit(std::uint64_t words, F&& f) const {
    if (processes_ == 1) {
      if (words) f(std::uint64_t{0}, std::uint64_t{0}, words);
      return;
    }
    const std::uint64_t unit = std::uint64_t{1} << unit_log2_;
    for (std::uint64_t u = process_, l = 0; (u << unit_log2_) < words; u += processes_, l += unit)
      f(u << unit_log2_, l, std::min(unit, words - (u << unit_log2_)));
  }

  bool operator==(const CheckpointSlice& o) const noexcept {
    return unit_log2_ == o.unit_log2_ && process_ == o.process_ && processes_ == o.processes_;
  }

 private:
  // u / P, the round of the deal unit u is in. P = 1 has no 64-bit magic (it is 0): whole_ adds u.
  std::uint64_t round(std::uint64_t u) const noexcept {
    __extension__ using Wide = unsigned __int128;  // GCC/Clang
    return static_cast<std::uint64_t>((static_cast<Wide>(magic_) * u) >> 64) + (u & whole_);
  }
  std::uint32_t unit_log2_ = 0, process_ = 0, processes_ = 1;
  std::uint64_t magic_ = 0;                 // ceil(2^64 / P) for P > 1
  std::uint64_t whole_ = ~std::uint64_t{0};  // P = 1: all ones, else 0
  std::uint64_t unit_mask_ = 0;
};

// Writes the checkpoint of `fields` (the words `slice` holds, slice.held of them; in the multi-tile
// metric, of the whole table, followed by the open bitmap: two_bit_search_words) atomically;
// DataError naming the file if any step fails (the previous checkpoint, if any, stays).
void save_checkpoint(const std::filesystem::path& path, const Ranker& ranker, const TwoBitProgress& progress,
                     std::span<const std::uint64_t> fields, const CheckpointSlice& slice,
                     Metric metric = Metric::single);

struct LoadedCheckpoint {
  TwoBitProgress progress;
  std::shared_ptr<FieldArray> fields;  // the slice's words (slice.held of them; multi-tile: and the open bitmap)
};

// Reads and validates a checkpoint for the search of `ranker` (and `slice`) in `metric`; DataError
// naming the file on anything foreign (another metric too), truncated or corrupt.
LoadedCheckpoint load_checkpoint(const std::filesystem::path& path, const Ranker& ranker, const CheckpointSlice& slice,
                                 Metric metric = Metric::single);

}  // namespace tilespace
