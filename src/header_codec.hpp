// Internal to src/: the one codec of the little-endian 4 KiB headers that open every database file
// (database.cpp) and every checkpoint (checkpoint.cpp): fixed-width values at fixed offsets, the
// header's checksum (XXH3 of the header with its own checksum field zeroed), and errno as text.
#pragma once

#include <xxhash.h>

#include <array>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "tilespace/database.hpp"

namespace tilespace::detail {

static_assert(std::endian::native == std::endian::little, "the headers are written as little-endian");

template <class T>
void put(std::span<std::uint8_t> header, std::size_t offset, T v) {
  std::memcpy(header.data() + offset, &v, sizeof v);
}

template <class T>
T get(std::span<const std::uint8_t> header, std::size_t offset) {
  T v;
  std::memcpy(&v, header.data() + offset, sizeof v);
  return v;
}

// XXH3 of the first `size` bytes of `header` (kHeaderSize unless told), its 8-byte checksum field
// at `checksum_offset` taken as 0 and, when `magic` is given, its first bytes taken as `magic`:
// the checksum of a header whose magic alone was damaged still matches then (a damaged header, not
// a foreign file).
inline std::uint64_t header_checksum(std::span<const std::uint8_t> header, std::size_t checksum_offset,
                                     std::size_t size = kHeaderSize, std::span<const char> magic = {}) {
  std::vector<std::uint8_t> copy(header.begin(), header.begin() + static_cast<std::ptrdiff_t>(size));
  if (!magic.empty()) std::memcpy(copy.data(), magic.data(), magic.size());
  std::memset(copy.data() + checksum_offset, 0, 8);
  return XXH3_64bits(copy.data(), copy.size());
}

inline std::string sys_error() { return std::strerror(errno); }

}  // namespace tilespace::detail
