// The database file: a checksummed table of one byte per entry, memory-mapped on load. Two kinds
// share it: distance tables (.tsdb, one entry per rank of a full state) and pattern databases
// (.pdb, one entry per placement of a pattern's tiles).
//
// Layout (all integers little-endian; the header is 4096 bytes so the payload is page-aligned):
//   off  size  field
//     0     8  magic "TSDB\r\n\x1a\n"
//     8     4  format version (kFormatVersion)
//    12     4  header size (4096)
//    16     1  kind (1 = distance table, 2 = pattern database)
//    17     1  board width W
//    18     1  board height H
//    19     1  entry width in bits (8)
//    20     4  radius (largest entry)
//    24     8  entry count (N!/2 for a distance table, N!/(N-k)! for a pattern of k tiles)
//    32     8  payload offset (4096)
//    40     8  payload size in bytes
//    48     8  XXH3-64 of the payload
//    56     8  XXH3-64 of the 4096 header bytes with this field zeroed
//    64     4  histogram length (radius + 1, at most 480)
//    68     4  pattern size k (0 for a distance table)
//    72    32  goal: the tile on each cell, 0 for the blank (cells >= W*H are 0)
//   104    32  pattern: its k tiles in ranking order (the rest 0)
//   136   120  reserved (0)
//   256 8*len  histogram: entries at each value 0..radius
//  4096     -  payload: entry r is the value at rank r
//
// Writes go to a temporary file in the same folder which is renamed into place, so a reader
// never sees a half-written database. Loading validates every header field, the file size and
// both checksums; any failure is a DataError whose message names the file and the problem.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/state.hpp"

namespace tilespace {

inline constexpr std::uint32_t kFormatVersion = 2;
inline constexpr std::uint32_t kHeaderSize = 4096;
inline constexpr std::uint8_t kKindDistanceTable = 1;
inline constexpr std::uint8_t kKindPatternDatabase = 2;

// A read-only memory mapping of a whole file. Movable, not copyable.
class MappedFile {
 public:
  // Throws DataError naming the file if it cannot be opened or mapped.
  explicit MappedFile(const std::filesystem::path& path);
  ~MappedFile();
  MappedFile(MappedFile&& o) noexcept;
  MappedFile& operator=(MappedFile&&) = delete;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::span<const std::uint8_t> bytes() const noexcept { return {data_, size_}; }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

struct DatabaseInfo {
  std::uint8_t kind = kKindDistanceTable;
  State goal;
  std::uint64_t entries = 0;
  std::vector<std::uint8_t> pattern;     // pattern databases: the tiles in ranking order
  std::vector<std::uint64_t> histogram;  // entries at each value, from 0
  int radius() const { return static_cast<int>(histogram.size()) - 1; }
};

// Writes info + payload to `path` atomically (temporary file, fsync, rename).
// Throws DataError naming the file if any step fails; no partial file is left behind.
void save_database(const std::filesystem::path& path, const DatabaseInfo& info, std::span<const std::uint8_t> payload);

struct LoadedDatabase {
  DatabaseInfo info;
  std::shared_ptr<const MappedFile> file;  // keeps the payload alive
  std::span<const std::uint8_t> payload;
};

// Maps and validates `path`. Throws DataError on any missing, truncated, corrupt or foreign file.
LoadedDatabase load_database(const std::filesystem::path& path);

}  // namespace tilespace
