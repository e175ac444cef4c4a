// tilespace_engine_split: where the two-bit engine's time goes, on one thread (issue 47, item 1).
//
//   tilespace_engine_split [--board 3x4] [--reps R]
//
// Runs the single-tile two-bit search of BOARD layer by layer with the engine's own expander
// (engine/two_bit_kernel.hpp, one thread, plain loads and stores). Before each layer is expanded
// for real ("full": every target settled into the fields), the same layer is expanded from a copy
// of the fields with every target outside the source's own word handed to a checksum instead of
// being settled ("compute": the scan of the fields, the group cursor, the Lehmer deltas and the
// target ranks; the in-word horizontal moves are still written), and the fields are put back. Per
// layer and in all: the two times, best of R, and their difference, the cost of settling the
// targets (the random reads and writes of the fields). The full expansions' histogram is checked
// against a normal build's.
//
// The machine is noisy: compare the two columns of one run, not runs.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/engine/two_bit_kernel.hpp"
#include "tilespace/rank.hpp"

namespace {

using namespace tilespace;
using detail::TwoBitExpander;
using detail::TwoBitGeometry;
using detail::TwoBitTally;

// Targets not settled: mixed into a checksum so that the compiler keeps their computation.
struct Checksum {
  std::uint64_t sum = 0, count = 0;
  void operator()(std::uint64_t t) noexcept {
    sum += t * 0x9E37'79B9'7F4A'7C15u;
    ++count;
  }
};
// No word is this process's: every target leaves the word it came from through the Remote sink.
struct NoWords {
  bool mine(std::uint64_t) const noexcept { return false; }
  std::uint64_t local(std::uint64_t w) const noexcept { return w; }
};

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int usage() {
  std::fprintf(stderr, "usage: tilespace_engine_split [--board WxH] [--reps R]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string board_name = "3x4";
  int reps = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--board" && i + 1 < argc) {
      board_name = argv[++i];
    } else if (a == "--reps" && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else {
      return usage();
    }
  }
  const auto board = Board::parse(board_name);
  if (!board) return usage();
  const Ranker ranker(*board, board->cells() - 1);
  const TwoBitGeometry T(ranker);
  std::vector<std::uint64_t> fields(T.words, 0), copy;
  fields[T.goal_rank >> 5] |= std::uint64_t{3} << (2 * (T.goal_rank & 31));  // the goal: open
  const detail::ContiguousWords all{0, T.words};
  detail::NoRemote none;

  std::printf("%s: %llu states, %llu words of fields, one thread, best of %d\n", board->name().c_str(),
              static_cast<unsigned long long>(ranker.size()), static_cast<unsigned long long>(T.words), reps);
  std::printf("layer        states   full s  compute s  settle s   targets\n");
  double full_total = 0, compute_total = 0;
  std::uint64_t pending = 1, checksum = 0;
  std::vector<std::uint64_t> histogram;
  for (int layer = 0; pending > 0; ++layer) {
    copy = fields;
    double compute = 1e30, full = 1e30;
    std::uint64_t targets = 0;
    for (int r = 0; r < reps; ++r) {
      std::memcpy(fields.data(), copy.data(), copy.size() * 8);
      Checksum sink;
      TwoBitTally t;
      const double t0 = now();
      detail::with_width(board->width(), [&](auto w) {
        TwoBitExpander<decltype(w)::value, false, Checksum, NoWords> ex(T, fields.data(), NoWords{}, layer, false, sink);
        ex.run(0, T.words, t);
      });
      compute = std::min(compute, now() - t0);
      checksum += sink.sum;
      targets = sink.count;
    }
    TwoBitTally tally;
    for (int r = 0; r < reps; ++r) {
      std::memcpy(fields.data(), copy.data(), copy.size() * 8);
      tally = TwoBitTally{};
      const double t0 = now();
      detail::with_width(board->width(), [&](auto w) {
        TwoBitExpander<decltype(w)::value, false, detail::NoRemote> ex(T, fields.data(), all, layer, false, none);
        ex.run(0, T.words, tally);
      });
      full = std::min(full, now() - t0);
    }
    histogram.push_back(tally.expanded);
    pending = tally.found;
    full_total += full;
    compute_total += compute;
    std::printf("%5d %13llu %8.3f %10.3f %9.3f %9llu\n", layer, static_cast<unsigned long long>(tally.expanded), full,
                compute, full - compute, static_cast<unsigned long long>(targets));
  }
  std::printf("total %13s %8.3f %10.3f %9.3f   (compute %.0f %% of full; checksum %llx)\n", "", full_total,
              compute_total, full_total - compute_total, 100 * compute_total / full_total,
              static_cast<unsigned long long>(checksum & 0xFFFF));
  const DistanceTable reference = DistanceTable::build(*board, board->cells() - 1);
  if (histogram != reference.histogram()) {
    std::fprintf(stderr, "tilespace_engine_split: the layers differ from a normal build's\n");
    return 1;
  }
  return 0;
}
