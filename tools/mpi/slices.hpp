// tilespace-mpi: how the two-bit fields (bfs.hpp) are split among the processes.
//
// The words [0, two_bit_words) are cut into P contiguous slices of whole 1 MiB checksum chunks
// (database.hpp: 2^kChunkLog2 bytes, 131072 words), so that every process hashes its own chunks
// for the database trailer. Of the C chunks (the last one short), process p holds chunks
// [floor(p C / P), floor((p+1) C / P)): the slices differ by at most one chunk, and the last one
// ends at the last word. A board of fewer chunks than processes leaves some slices empty (every
// board of at most 10 cells fits in one chunk: one process does all of its work).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tilespace/checkpoint.hpp"
#include "tilespace/database.hpp"

namespace tilespace::mpi {

inline constexpr unsigned kChunkWordsLog2 = kChunkLog2 - 3;  // 131072 words of 8 bytes

class Slices {
 public:
  Slices(std::uint64_t words, int processes) : words_(words), processes_(processes) {
    const std::uint64_t chunks = (words + (std::uint64_t{1} << kChunkWordsLog2) - 1) >> kChunkWordsLog2;
    const auto P = static_cast<std::uint64_t>(processes);
    for (std::uint64_t p = 0; p <= P; ++p) first_chunk_.push_back(p * chunks / P);
    owner_.resize(chunks);
    for (std::uint64_t p = 0; p < P; ++p)
      for (std::uint64_t c = first_chunk_[p]; c < first_chunk_[p + 1]; ++c) owner_[c] = static_cast<std::uint32_t>(p);
  }

  std::uint64_t words() const noexcept { return words_; }
  int processes() const noexcept { return processes_; }

  // Process p's words [first, end), as its checkpoints record them.
  CheckpointSlice slice(int p) const {
    auto word = [&](std::uint64_t chunk) { return std::min(words_, chunk << kChunkWordsLog2); };
    return {word(first_chunk_[p]), word(first_chunk_[p + 1]), static_cast<std::uint32_t>(p),
            static_cast<std::uint32_t>(processes_)};
  }

  // The process holding a word.
  int owner(std::uint64_t word) const noexcept { return static_cast<int>(owner_[word >> kChunkWordsLog2]); }

 private:
  std::uint64_t words_;
  int processes_;
  std::vector<std::uint64_t> first_chunk_;  // P + 1 boundaries, in chunks
  std::vector<std::uint32_t> owner_;        // the process of each chunk
};

}  // namespace tilespace::mpi
