// The threaded two-bit engine (bfs.hpp): the layer loop around TwoBitExpander (bfs2_kernel.hpp).
#include <sys/mman.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
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

FieldArray::FieldArray(std::uint64_t words) : words_(words) {
  if (words == 0) return;
  void* p = ::mmap(nullptr, words * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw ResourceError("cannot map " + std::to_string(words * 8) + " bytes for the two-bit search: " + std::strerror(errno));
  ::madvise(p, words * 8, MADV_HUGEPAGE);
  data_ = static_cast<std::uint64_t*>(p);
}

FieldArray::~FieldArray() {
  if (data_) ::munmap(data_, words_ * 8);
}

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

  detail::LayerDriver driver(options.bfs.threads);
  TwoBitResult result;
  const std::uint64_t grain = std::max<std::uint64_t>(64, std::min<std::uint64_t>(1u << 14, T.words / 256 + 1));
  driver.execute([&] {
    for (int layer = p.next_layer; p.pending > 0; ++layer) {
      if (layer > kMaxTwoBitDepth)
        throw ResourceError("search deeper than " + std::to_string(kMaxTwoBitDepth) + " moves");
      const bool collect = p.pending <= kFarthestKept;
      detail::NoRemote none;
      auto tally = driver.pass<detail::TwoBitTally>(T.words, grain, [&]<bool Shared>(std::uint64_t b, std::uint64_t e,
                                                                                      detail::TwoBitTally& t) {
        detail::with_width(T.G.w, [&](auto w) {
          detail::TwoBitExpander<decltype(w)::value, Shared, detail::NoRemote> ex(T, fields.data(), 0, T.words, layer,
                                                                                collect, none);
          ex.run(b, e, t);
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
