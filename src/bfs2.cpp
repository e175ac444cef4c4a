// The threaded two-bit engine (bfs.hpp): the layer loop around TwoBitExpander (bfs2_kernel.hpp).

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "bfs2_kernel.hpp"
#include "tilespace/bfs.hpp"
#include "tilespace/errors.hpp"

namespace tilespace {

namespace {
// Depths are listed in the database header (at most 480 values).
constexpr int kMaxTwoBitDepth = 479;
}  // namespace

std::uint64_t two_bit_words(const Ranker& ranker) { return (ranker.size() + 31) / 32; }
std::uint64_t two_bit_bytes(const Ranker& ranker) { return two_bit_words(ranker) * 8; }

TwoBitResult bfs_two_bit(const Ranker& ranker, std::span<std::uint64_t> fields, const TwoBitOptions& options,
                         const TwoBitProgress* resume) {
  const detail::TwoBitGeometry T(ranker);
  if (fields.size() != T.words) throw std::invalid_argument("bfs_two_bit: fields of the wrong size");
  TwoBitProgress p;
  if (resume) {
    p = *resume;
  } else {
    p.pending = 1;
    fields[T.goal_rank >> 5] |= std::uint64_t{3} << (2 * (T.goal_rank & 31));
  }
  std::uint64_t total = 0;
  for (auto h : p.histogram) total += h;

  // marks[i]: one bit a block holding open fields of parity i (bfs2_kernel.hpp).
  const std::uint64_t mark_words = detail::mark_word_count(T.words);
  std::vector<std::uint64_t> marks[2] = {std::vector<std::uint64_t>(mark_words), std::vector<std::uint64_t>(mark_words)};
  detail::LayerDriver driver(options.bfs.threads);
  TwoBitResult result;
  const std::uint64_t grain = std::max<std::uint64_t>(1, std::min<std::uint64_t>(64, mark_words / 64 + 1));
  driver.execute([&] {
    // The blocks with open fields: the goal's, or (resuming) those found by one scan.
    if (!resume) {
      const std::uint64_t block = (T.goal_rank >> 5) >> detail::kBlockLog2;
      marks[0][block >> 6] |= std::uint64_t{1} << (block & 63);
    } else {
      // In parallel over spans of 64 blocks (one mark word each).
      const std::uint64_t span = 64 * detail::kBlockWords;
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, mark_words), [&](const auto& r) {
        for (std::uint64_t mw = r.begin(); mw < r.end(); ++mw) {
          const std::uint64_t first = mw * span, n = std::min(T.words, first + span) - first;
          std::uint64_t m[2] = {0, 0};
          detail::mark_open_blocks(T, fields.data() + first, first, n, &m[0], &m[1]);
          marks[0][mw] = m[0];
          marks[1][mw] = m[1];
        }
      });
    }
    for (int layer = p.next_layer; p.pending > 0; ++layer) {
      if (layer > kMaxTwoBitDepth)
        throw ResourceError("search deeper than " + std::to_string(kMaxTwoBitDepth) + " moves");
      const bool collect = p.pending <= kFarthestKept;
      detail::NoRemote none;
      std::uint64_t* cur = marks[layer & 1].data();
      std::uint64_t* next = marks[(layer + 1) & 1].data();
      auto tally = driver.pass<detail::TwoBitTally>(mark_words, grain, [&]<bool Shared>(std::uint64_t b, std::uint64_t e,
                                                                                         detail::TwoBitTally& t) {
        detail::with_width(T.G.w, [&](auto w) {
          detail::TwoBitExpander<decltype(w)::value, Shared, detail::NoRemote> ex(T, fields.data(), {0, T.words}, layer,
                                                                                collect, none);
          ex.set_marks(next);
          // Only this block of the pass reads and clears these mark words (others set the next layer's).
          for (std::uint64_t mw = b; mw < e; ++mw) {
            for (std::uint64_t m = cur[mw]; m; m &= m - 1) {
              const std::uint64_t first = (64 * mw + static_cast<std::uint64_t>(std::countr_zero(m))) << detail::kBlockLog2;
              ex.run(first, std::min(T.words, first + detail::kBlockWords), t);
            }
            cur[mw] = 0;
          }
          return 0;
        });
      });
      if (tally.expanded != p.pending)
        throw std::logic_error("two-bit search: layer " + std::to_string(layer) + " has " +
                               std::to_string(tally.expanded) + " states, " + std::to_string(p.pending) + " were found");
      p.histogram.push_back(tally.expanded);
      total += tally.expanded;
      p.pending = tally.found;
      p.next_layer = layer + 1;
      if (collect) {
        std::sort(tally.ranks.begin(), tally.ranks.end());
        result.farthest = std::move(tally.ranks);
      } else {
        result.farthest.clear();
      }
      driver.report(options.bfs.on_layer, layer, tally.expanded, total, ranker.size());
      if (p.pending > 0 && options.between_layers) options.between_layers(p, fields);
    }
  });
  result.histogram = std::move(p.histogram);
  result.seconds = driver.seconds();
  return result;
}

}  // namespace tilespace
