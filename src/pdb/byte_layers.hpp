// Internal to src/pdb: the layer loop of the pattern-database builders whose values are one byte an
// entry and whose layer is told by the value itself (the zero-aware builder, zero_aware.cpp, and the
// multi-tile one, multi_build.cpp). The single-tile builder (build.cpp) marks its layers apart, for
// the regions it defers, and keeps its own loop.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "tilespace/engine/layer_kernel.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/pdb/build.hpp"

namespace tilespace::detail {

// Writes `next` on a value still `unset`; whether this call did (relaxed byte compare-and-swap
// when Shared, so that of two threads meeting the entry in one layer only one counts it).
template <bool Shared>
bool claim(std::uint8_t& value, std::uint8_t unset, std::uint8_t next) noexcept {
  if constexpr (Shared) {
    std::atomic_ref<std::uint8_t> v(value);
    std::uint8_t expected = unset;
    return v.load(std::memory_order_relaxed) == unset && v.compare_exchange_strong(expected, next, std::memory_order_relaxed);
  } else {
    if (value != unset) return false;
    value = next;
    return true;
  }
}

// Inside driver.execute: fills `values` with `unset` on every core, sets values[start] to 0, then
// runs one pass a layer, expand.template operator()<Shared>(layer, begin, end) on each block (the
// number of entries it set to layer + 1), until a layer finds none; each layer is reported to
// options.on_layer. Returns the values' histogram with its unused top cut. Throws ResourceError
// past `most` layers and std::logic_error naming `what` if an entry was never reached.
template <class Expand>
std::vector<std::uint64_t> byte_layers(LayerDriver& driver, const pdb::BuildOptions& options,
                                       std::span<std::uint8_t> values, std::uint8_t unset, std::uint64_t start, int most,
                                       const std::string& what, Expand&& expand) {
  struct Found {
    std::uint64_t found = 0;
    void join(const Found& o) { found += o.found; }
  };
  const std::uint64_t size = values.size();
  std::vector<std::uint64_t> histogram;
  driver.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, size, 1u << 20), [&](const auto& r) {
      std::fill(values.begin() + static_cast<std::ptrdiff_t>(r.begin()), values.begin() + static_cast<std::ptrdiff_t>(r.end()),
                unset);
    });
    values[start] = 0;
    const std::uint64_t grain = std::max<std::uint64_t>(1024, std::min<std::uint64_t>(1u << 16, size / 256 + 1));
    driver.start_layer();
    std::uint64_t total = 1;
    for (int layer = 0;; ++layer) {
      if (layer >= most) throw ResourceError(what + ": costs above " + std::to_string(most));
      const Found n = driver.pass<Found>(size, grain, [&]<bool Shared>(std::uint64_t begin, std::uint64_t end, Found& f) {
        f.found += expand.template operator()<Shared>(layer, begin, end);
      });
      if (n.found == 0) break;
      total += n.found;
      driver.report(options.on_layer, layer + 1, n.found, total, 0);
    }
    histogram = pdb::count_values(values);
  });
  if (histogram[unset] != 0)
    throw std::logic_error(what + ": " + std::to_string(histogram[unset]) + " entries were never reached");
  while (!histogram.empty() && histogram.back() == 0) histogram.pop_back();
  return histogram;
}

}  // namespace tilespace::detail
