// How much of a two-bit BFS's traffic crosses between MPI processes (docs/scale.md): samples
// random states of a board, generates every move, and counts the targets whose word another
// process holds when the words are dealt to P processes as tilespace-mpi deals them
// (tools/mpi/slices.hpp: units of 128 words, round-robin). Prints, per P, the fraction of moves
// that are remote (8 bytes a remote target are exchanged).
//
//   tilespace_scale_estimate WxH [SAMPLES]      e.g. tilespace_scale_estimate 5x3 2000000
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "mpi/slices.hpp"
#include "tilespace/bfs.hpp"
#include "tilespace/board.hpp"
#include "tilespace/rank.hpp"

using namespace tilespace;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s WxH [SAMPLES]\n", argv[0]);
    return 2;
  }
  const auto board = Board::parse(argv[1]);
  if (!board || board->cells() > kMaxCells) {
    std::fprintf(stderr, "bad board %s\n", argv[1]);
    return 2;
  }
  const long samples = argc > 2 ? std::atol(argv[2]) : 1000000;
  const Ranker ranker(*board, board->cells() - 1);
  const std::uint64_t words = two_bit_words(ranker);
  const int procs[] = {2, 8, 16, 64, 256};
  const mpi::Slices deals[] = {{words, 2}, {words, 8}, {words, 16}, {words, 64}, {words, 256}};
  std::uint64_t moves = 0, remote[5] = {};
  // The threaded engine's accesses: vertical moves, and of those the ones more than 2^21 ranks
  // (512 KiB of fields) from their source: far outside the caches.
  std::uint64_t vertical = 0, far = 0;
  std::mt19937_64 rng(2026);
  for (long i = 0; i < samples; ++i) {
    const std::uint64_t r = rng() % ranker.size();
    Sequence s{};
    const int blank = ranker.unrank(r, s);
    const auto& nb = board->neighbours(blank);
    for (int k = 0; k < nb.count; ++k) {
      const int c = nb.cell[k];
      Sequence t = s;
      if (c < blank - 1) {  // up: the entry at position c moves to blank-1
        std::rotate(t.begin() + c, t.begin() + c + 1, t.begin() + blank);
      } else if (c > blank + 1) {  // down: the entry at position c-1 moves to blank
        std::rotate(t.begin() + blank, t.begin() + c - 1, t.begin() + c);
      }
      const std::uint64_t nr = ranker.rank(t, c);
      ++moves;
      if (c < blank - 1 || c > blank + 1) {
        ++vertical;
        far += nr - r + (std::uint64_t{1} << 21) > (std::uint64_t{2} << 21);
      }
      for (int j = 0; j < 5; ++j) remote[j] += deals[j].owner(nr >> 5) != deals[j].owner(r >> 5);
    }
  }
  std::printf("%s: %llu states, %llu sampled moves (%.3f moves a state)\n", argv[1],
              static_cast<unsigned long long>(ranker.size()), static_cast<unsigned long long>(moves),
              static_cast<double>(moves) / static_cast<double>(samples));
  std::printf("  vertical moves: %.3f a state; more than 2^21 ranks away: %.3f a state (%.1f %%)\n",
              static_cast<double>(vertical) / static_cast<double>(samples),
              static_cast<double>(far) / static_cast<double>(samples),
              100.0 * static_cast<double>(far) / static_cast<double>(std::max<std::uint64_t>(vertical, 1)));
  for (int j = 0; j < 5; ++j)
    std::printf("  P=%3d: %.2f %% of moves go to another process\n", procs[j],
                100.0 * static_cast<double>(remote[j]) / static_cast<double>(moves));
  return 0;
}
