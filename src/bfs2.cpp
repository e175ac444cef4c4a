// The threaded two-bit engine (bfs.hpp): the layer loop around TwoBitExpander (engine/two_bit_kernel.hpp).

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "tilespace/engine/two_bit_kernel.hpp"
#include "tilespace/bfs.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"

namespace tilespace {

std::uint64_t two_bit_words(const Ranker& ranker) { return (ranker.size() + 31) / 32; }
std::uint64_t two_bit_bytes(const Ranker& ranker) { return two_bit_words(ranker) * 8; }

std::uint64_t two_bit_search_words(const Ranker& ranker, Metric metric) {
  const std::uint64_t words = two_bit_words(ranker);
  return words + (metric == Metric::multi ? detail::open_word_count(words) : 0);
}

std::uint64_t two_bit_back_words(const Ranker& ranker, Metric metric) {
  return metric == Metric::single && ranker.board().height() == 2 ? detail::open_word_count(two_bit_words(ranker)) : 0;
}

std::uint64_t two_bit_build_bytes(const Ranker& ranker, Metric metric) {
  const std::uint64_t words = two_bit_words(ranker);
  // The fields (and the multi-tile metric's open bitmap), the two bitmaps of marks and the rings;
  // the back bits only where they fit beside them.
  return 8 * two_bit_search_words(ranker, metric) + 2 * 8 * detail::mark_word_count(words) + 64 * 1024;
}

TwoBitResult bfs_two_bit(const Ranker& ranker, std::span<std::uint64_t> search, const TwoBitOptions& options,
                         const TwoBitProgress* resume) {
  const bool multi = options.bfs.metric == Metric::multi;
  const detail::TwoBitGeometry T(ranker);
  if (search.size() != two_bit_search_words(ranker, options.bfs.metric))
    throw std::invalid_argument("bfs_two_bit: fields of the wrong size");
  // The fields, then (multi-tile) the open bitmap.
  const std::span<std::uint64_t> fields = search.first(T.words);
  std::uint64_t* const open = multi ? search.data() + T.words : nullptr;
  TwoBitProgress p;
  if (resume) {
    p = *resume;
  } else {
    p.pending = 1;
    const std::uint64_t value = multi ? detail::multi_value(0) : 3u;
    fields[T.goal_rank >> 5] |= value << (2 * (T.goal_rank & 31));
    if (multi) open[T.goal_rank >> 6] |= std::uint64_t{1} << (T.goal_rank & 63);
  }
  // Calls f(std::bool_constant<multi>).
  const auto with_metric = [multi](auto&& f) {
    if (multi) return f(std::true_type{});
    return f(std::false_type{});
  };
  std::uint64_t total = 0;
  for (auto h : p.histogram) total += h;
  // The back bits, where they fit within nine tenths of the memory budget beside what is in use
  // (the fields); without them the search computes every vertical move. All clear at the start
  // and when resuming: the first layer computes every vertical move.
  const std::uint64_t back_bytes = options.back_bits ? 8 * two_bit_back_words(ranker, options.bfs.metric) : 0;
  const bool back_fits = back_bytes && page_memory_in_use() + back_bytes <= memory_budget() / 10 * 9;
  const PageMemory back_memory(back_fits ? back_bytes : 0, "the two-bit search's back bits");
  std::uint64_t* const back = back_memory.size() ? back_memory.as<std::uint64_t>().data() : nullptr;

  // marks[i]: one bit a block holding open fields of parity i (engine/two_bit_kernel.hpp).
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
          if (multi) {  // the blocks with open bits, all of the next layer
            for (std::uint64_t i = 0; i < n; ++i)
              if (detail::open_half(open[(first + i) >> 1], first + i))
                m[p.next_layer & 1] |= std::uint64_t{1} << (i >> detail::kBlockLog2);
          } else {
            detail::mark_open_blocks(T, fields.data() + first, first, n, &m[0], &m[1]);
          }
          marks[0][mw] = m[0];
          marks[1][mw] = m[1];
        }
      });
    }
    auto expand = [&](int layer, bool collect, std::vector<std::uint64_t>& ranks) -> detail::LayerCounts {
      std::uint64_t* cur = marks[layer & 1].data();
      std::uint64_t* next = marks[(layer + 1) & 1].data();
      detail::TwoBitTally tally = driver.pass<detail::TwoBitTally>(
          mark_words, grain, [&]<bool Shared>(std::uint64_t b, std::uint64_t e, detail::TwoBitTally& t) {
        detail::with_width(T.G.w, [&](auto w) {
          return with_metric([&](auto metric) {
            detail::NoRemote none;
            detail::TwoBitExpander<decltype(w)::value, Shared, detail::NoRemote, detail::ContiguousWords,
                                   decltype(metric)::value>
                ex(T, fields.data(), {0, T.words}, layer, collect, none);
            ex.set_marks(next);
            ex.set_open(open);
            ex.set_back(back);
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
      });
      result.vertical_targets += tally.vertical;
      if (collect) {
        std::sort(tally.ranks.begin(), tally.ranks.end());
        ranks = std::move(tally.ranks);
      }
      return {tally.expanded, tally.found};
    };
    detail::two_bit_layers(
        p, total, result.farthest, expand, [](auto&& check) { check(); },
        [&](int layer, std::uint64_t expanded, std::uint64_t all) {
          driver.report(options.bfs.on_layer, layer, expanded, all, ranker.size());
          if (p.pending > 0 && options.between_layers) options.between_layers(p, search);
        });
  });
  result.histogram = std::move(p.histogram);
  result.seconds = driver.seconds();
  result.back_bits = back != nullptr;
  return result;
}

}  // namespace tilespace
