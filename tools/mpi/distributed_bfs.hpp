// tilespace-mpi: the two-bit search (bfs.hpp) over MPI processes, each holding the units of the
// fields dealt to it (slices.hpp). The layer loop is bfs2.cpp's, with the same values at every
// step, so the finished fields, histogram and farthest ranks are the threaded engine's, for any
// process count.
//
// A layer: every process scans its marked blocks with TwoBitExpander (tilespace/engine/two_bit_kernel.hpp, with
// the deal as its layout: a block of local words is four units, each a run of consecutive global
// words) in pieces that end after about kPieceStates expanded states or kPieceWords words, so that
// a sparse layer takes one round and a dense one a round per million states or so. Targets in its
// own units are opened at once; the others are queued for their owner. When the queue reaches kRoundRanks ranks
// or the piece ends, the process joins an exchange round, in which all processes take part:
// MPI_Alltoall of the counts, MPI_Alltoallv of the ranks, and every received rank is opened
// (settle). Received targets belong to the next layer (the other blank parity), so the order in
// which they arrive does not matter. Rounds go on until every process has scanned all its words
// (an MPI_Allreduce each round); a process that is done (or holds nothing) joins the remaining
// rounds with nothing to send. The layer's counts (expanded, found, bytes exchanged) are then
// summed with MPI_Allreduce, and the expanded count must equal the states found for it, as in
// bfs2.cpp; the most and fewest states one process expanded show the balance.
//
// Memory per process: its words' fields, plus the queue (kRoundRanks + at most 66 ranks for
// each of the kStepWords words scanned after the check: under 11 MiB), its packed copy, and the
// ranks received in a round (at most P times the queue bound; the targets of a queue spread over
// all processes, so typically about one queue). Nothing grows with the layer size.
//
// Balance: a process waits in a round until the slowest one has scanned its piece, so every
// process must hold about as many states of every layer: hence the deal of small units
// (slices.hpp; 3x4 on 2 to 4 processes: within 3 % in every layer of at least 100,000 states).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "mpi/slices.hpp"
#include "mpi/world.hpp"
#include "tilespace/bfs.hpp"

namespace tilespace::mpi {

// The ranks received in a round are counted in an int: at most this many processes.
inline constexpr int kMaxProcesses = 1024;

// A finished layer, the same on every process.
struct MpiLayerReport {
  int depth;                 // the layer just expanded
  std::uint64_t states;      // states at that depth
  std::uint64_t fewest;      // the fewest of them one process expanded
  std::uint64_t most;        // the most of them one process expanded
  std::uint64_t total;       // states found so far
  double seconds;            // since the search started (or was resumed)
  std::uint64_t exchanged;   // bytes of ranks sent between processes in this layer, over all processes
  std::uint64_t rounds;      // exchange rounds of this layer
};

struct MpiBfsOptions {
  std::function<void(const MpiLayerReport&)> on_layer;  // after each layer, on every process; may be empty
  // Between two layers, on every process with the same progress, while the fields are consistent
  // (checkpoints); may be empty.
  std::function<void(const TwoBitProgress&)> between_layers;
};

struct MpiBfsResult {
  std::vector<std::uint64_t> histogram;  // every process
  std::vector<std::uint64_t> farthest;   // rank 0: the ranks at the radius, increasing (empty when more
                                         // than kFarthestKept); other processes: empty
};

// Fills `fields` (this process's words of `slices`) with its part of the finished table for the
// ranker's goal. A new search needs all-zero fields; with `resume`, the process's fields and the
// progress of a checkpoint (the same progress on every process). Collective.
MpiBfsResult distributed_two_bit(World& world, const Ranker& ranker, const Slices& slices,
                                 std::span<std::uint64_t> fields, const MpiBfsOptions& options,
                                 const TwoBitProgress* resume);

}  // namespace tilespace::mpi
