// tilespace-mpi: how the two-bit fields (bfs.hpp) are shared among the processes.
//
// The words [0, two_bit_words) are cut into units of 2^kUnitWordsLog2 words (128 words: 4096
// ranks, 1 KiB) dealt round-robin: unit u belongs to process u mod P, which holds its units one
// after another (checkpoint.hpp's CheckpointSlice: the arithmetic, and the deal as each
// checkpoint names it). Every board is dealt to every process, down to the smallest (2x4: 5
// units, so a fifth process would hold nothing).
//
// Why small units dealt round-robin: a layer's states are far from evenly spread over rank space.
// Contiguous slices left one process with twice the work of the other (3x4 on 2 processes, depth
// 30: 7.0 M states against 3.1 M), and large units dealt round-robin fall into step with the
// ranking's structure (1 MiB units: one process expands 2.4 times the states of another at depth
// 19 of 3x4 on 3 or 4 processes). Units of 128 words keep every layer of at least 100,000 states
// within 6 % between the processes (the most over the fewest, 2 to 5 processes) on 3x4, 4x3, 2x6,
// 6x2, 2x5 and 5x2 (computed from the byte tables' depths); 512-word units reach 1.16 on 2x5.
// The price is traffic: the target of a move lies in another process's unit more often (3x4 on 2
// processes: 17.6 % of the moves, against 3.3 % with contiguous slices; docs/scale.md).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "tilespace/engine/two_bit_kernel.hpp"
#include "tilespace/checkpoint.hpp"
#include "tilespace/database.hpp"

namespace tilespace::mpi {

inline constexpr std::uint32_t kUnitWordsLog2 = 7;                // 128 words (4096 ranks) a unit
inline constexpr std::uint32_t kChunkWordsLog2 = kChunkLog2 - 3;  // 131072 words: a 1 MiB checksum chunk
// A marked block (engine/two_bit_kernel.hpp) is whole units, so that its words are scanned unit by unit.
static_assert(kUnitWordsLog2 <= detail::kBlockLog2);

class Slices {
 public:
  Slices(std::uint64_t words, int processes)
      : words_(words), processes_(processes), deal_(kUnitWordsLog2, 0, static_cast<std::uint32_t>(processes)) {
    if (!deal_.valid_for(words))
      throw std::invalid_argument("a table of " + std::to_string(words) + " words has too many units to deal");
  }

  std::uint64_t words() const noexcept { return words_; }
  int processes() const noexcept { return processes_; }

  // Process p's words.
  CheckpointSlice slice(int p) const {
    return CheckpointSlice(kUnitWordsLog2, static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(processes_));
  }

  // The process holding a word.
  int owner(std::uint64_t word) const noexcept { return static_cast<int>(deal_.owner(word)); }

 private:
  std::uint64_t words_;
  int processes_;
  CheckpointSlice deal_;  // process 0's: owner() is the same for every process
};

}  // namespace tilespace::mpi
