// The database file: a checksummed table, memory-mapped on load. Six kinds share it: distance
// tables of one byte per rank (kind 1, .tsdb), two-bit distance tables (kind 3, .tsdb; the fields
// of bfs.hpp's two-bit engine), one-bit distance tables (kind 5, .tsdb; the two-bit engine's
// finished fields without their redundant bit, distance_table.hpp), pattern databases of one byte
// per placement (kind 2, .pdb), zero-aware pattern databases of one bit per entry (kind 6, .zpdb;
// pdb/zero_aware.hpp) and move automata of 32 bits per transition (kind 4, moves-d<depth>.fsm;
// search/automaton.hpp).
//
// Layout (all integers little-endian; the header is 4096 bytes so the payload is page-aligned):
//   off  size  field
//     0     8  magic "TSDB\r\n\x1a\n"
//     8     4  format version (kFormatVersion)
//    12     4  header size (4096)
//    16     1  kind (1 = distance table, 2 = pattern database, 3 = two-bit distance table,
//                4 = move automaton, 5 = one-bit distance table, 6 = zero-aware pattern database)
//    17     1  board width W (kind 4: 0, the machine is board-independent; only kind 4 has 0)
//    18     1  board height H (kind 4: 0)
//    19     1  entry width in bits (8; 2 for kind 3; 32 for kind 4; 1 for kinds 5 and 6)
//    20     4  radius (largest entry; kind 4: the largest distance of a state from the start)
//    24     8  entry count (N!/2 for a distance table, N!/(N-k)! for a pattern of k tiles;
//                kind 4: 4 x states, one entry per state and move; kind 6: ZeroAwareIndex::size(),
//                between N!/(N-k)! and (N-k) times that)
//    32     8  payload offset (4096)
//    40     8  payload size in bytes (kind 3: ceil(entries / 32) * 8; kind 4: 4 x entries;
//                kinds 5 and 6: ceil(entries / 64) * 8)
//    48     8  XXH3-64 of the payload (kinds 2, 3, 5 and 6: of the trailer, which holds the chunk
//                checksums)
//    56     8  XXH3-64 of the 4096 header bytes with this field zeroed
//    64     4  histogram length (radius + 1, at most 480)
//    68     4  pattern size k (0 for a distance table and a move automaton)
//    72    32  goal: the tile on each cell, 0 for the blank (cells >= W*H are 0; kind 4: all 0)
//   104    32  pattern: its k tiles in ranking order (the rest 0)
//   136     4  kinds 2, 3, 5 and 6: log2 of the chunk size in bytes (20: 1 MiB chunks);
//                kind 4: the depth of the enumeration (1..30); else 0
//   140     4  kinds 3 and 5: farthest count F (ranks at the radius listed, at most 1000; 0 when
//                the radius holds more states than that); else 0 (kinds 2 and 6: F = 0)
//   144     8  kinds 2, 3, 5 and 6: chunk count C = ceil(payload size / chunk size);
//                kind 4: the number of minimal forbidden strings; else 0
//   152     1  kinds 1, 2 and 3: the metric (0 single-tile, 1 multi-tile: board.hpp Metric); else 0
//   153   103  reserved (0)
//   256 8*len  histogram: entries at each value 0..radius (kind 4: states at each distance from
//                the start, so it adds up to entries / 4)
//  4096     -  payload: entry r is the value at rank r (kind 3: two bits, see bfs.hpp; kind 4:
//                entry 4q + d is the state after move d from state q, or 0xFFFFFFFF for a
//                pruned move, uint32 little-endian; state 0 is the start; kind 5: bit r % 64 of
//                the little-endian word r / 64 is floor(D/2) mod 2 of rank r, D its distance, and
//                the bits after the last rank are 0; kind 6: the same, floor(V/2) mod 2 of entry r,
//                V its value)
//  kinds 2, 3, 5 and 6 only, after the payload, the trailer: C chunk checksums (XXH3-64 of each
//  chunk of the payload, the last one shorter), then (kinds 3 and 5) the F ranks at the radius,
//  increasing.
//
// Kind 3 and 5 tables are large (2x7: 10.9 GB in two bits, 5.45 GB in one), so loading one does
// not read its payload: the header and the trailer are validated at once (the header checksum
// covers the trailer's checksum, which covers every chunk checksum), and each chunk is hashed and
// compared the first time a lookup touches it (ChunkVerifier). A corrupt chunk is therefore found
// before any answer that reads it is given; `verify_all` checks every chunk (in parallel). A
// pattern database (kinds 2 and 6) is read at random on every search node, so it is verified whole on
// load, but chunk by chunk on every core: the 7-8 partition's 576 MB take about half the time of
// one sequential checksum.
//
// Versions. Every format version, past and future, keeps the frame of the header: the magic
// (bytes 0-7), the version (8-11), the header size (12-15), and the header checksum, XXH3-64 of
// the header with its own 8 bytes zeroed, at offset 56 (version 1, whose layout differed: 72).
// Versions 1 to kFormatVersion have 4096-byte headers; another version's checksum covers the
// header size it states. Loading verifies that checksum (the magic taken as the magic) before it
// believes any field: a header that fails it is damaged ("header checksum mismatch: the header is
// corrupt"; a damaged magic too, when the rest matches), whatever its version field now reads, and
// only an intact header of a version this build does not read gets the version message.
//
// Writes go to a temporary file in the same folder which is renamed into place, so a reader
// never sees a half-written database. Loading validates every header field, the file size and
// both checksums (kind 1 also that its largest depth is the radius; kind 4 also every transition:
// a state or 0xFFFFFFFF); any failure is a DataError whose message names the file and the problem.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/state.hpp"

namespace tilespace {

// The version this build writes. Version 3 gave pattern databases (kind 2) chunk checksums and
// added one-bit tables (kind 5); kinds 1, 3 and 4 are laid out as in version 2, so their version-2
// files (and checkpoints) are still read, while a version-2 pattern database is not (the stores
// rebuild it: database_outdated).
inline constexpr std::uint32_t kFormatVersion = 3;
inline constexpr std::uint32_t kHeaderSize = 4096;
inline constexpr std::uint8_t kKindDistanceTable = 1;
inline constexpr std::uint8_t kKindPatternDatabase = 2;
inline constexpr std::uint8_t kKindTwoBitTable = 3;
inline constexpr std::uint8_t kKindMoveAutomaton = 4;
inline constexpr std::uint8_t kKindOneBitTable = 5;
inline constexpr std::uint8_t kKindZeroAwareDatabase = 6;
inline constexpr std::uint32_t kChunkLog2 = 20;  // kinds 2, 3 and 5: 1 MiB chunks

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

// What building one database (or a set of them) costs: the estimates of
// DistanceTable::estimate_build and pdb::estimate_build, by which the stores decide whether a
// missing database is built on the fly (table_store.hpp, pdb/database.hpp).
struct BuildCost {
  double seconds = 0;       // wall time on this machine class
  std::uint64_t memory = 0;  // peak bytes of memory
  std::uint64_t disk = 0;    // bytes of the database files written
};

struct DatabaseInfo {
  std::uint8_t kind = kKindDistanceTable;
  State goal;
  std::uint64_t entries = 0;
  std::vector<std::uint8_t> pattern;     // pattern databases: the tiles in ranking order
  std::vector<std::uint64_t> histogram;  // entries at each value, from 0
  std::vector<std::uint64_t> farthest;   // kinds 3 and 5: the ranks at the radius (at most kFarthestKept)
  Metric metric = Metric::single;        // kind 1: how its distances count moves (others: single)
  // Kind 4 (the move automaton, which has no board: `goal` is left default and not stored): the
  // depth of the enumeration and the number of minimal forbidden strings.
  std::uint32_t automaton_depth = 0;
  std::uint64_t automaton_forbidden = 0;
  int radius() const { return static_cast<int>(histogram.size()) - 1; }
};

// Writes info + payload to `path` atomically (temporary file, fsync, rename). Kind 3: the payload
// is the two-bit fields, kind 5 the one-bit table; kinds 2, 3 and 5: the chunk checksums are
// computed here (in parallel).
// Throws DataError naming the file if any step fails; no partial file is left behind.
void save_database(const std::filesystem::path& path, const DatabaseInfo& info, std::span<const std::uint8_t> payload);

// Kinds 2, 3 and 5: XXH3-64 of each chunk (1 << kChunkLog2 bytes, the last one shorter) of `payload`, in
// parallel. A payload held in pieces that start on chunk boundaries (the slices of the MPI build,
// tools/mpi/) may be hashed piece by piece: the lists, concatenated, are the whole payload's.
std::vector<std::uint64_t> chunk_sums(std::span<const std::uint8_t> payload);

// The bytes of a database file around its payload.
struct DatabaseFrame {
  std::vector<std::uint8_t> header;   // the kHeaderSize bytes at offset 0
  std::vector<std::uint8_t> trailer;  // kinds 2, 3, 5: the chunk checksums (3, 5: then info.farthest); else empty
};

// Kinds 3 and 5: the header and trailer that save_database writes around a payload of
// `payload_size` bytes whose chunk checksums are `sums` (chunk_sums), for writers that never hold
// the whole payload in memory (the MPI build). Throws DataError naming `path` if `info` cannot be
// stored, std::invalid_argument if `sums` does not have one checksum per chunk.
DatabaseFrame two_bit_frame(const std::filesystem::path& path, const DatabaseInfo& info, std::uint64_t payload_size,
                            std::span<const std::uint64_t> sums);

// Kinds 2, 3 and 5: checks each chunk of a mapped payload against its checksum (kinds 3 and 5:
// the first time it is touched; kind 2: all of them on load).
// Thread-safe (two threads may hash the same chunk once each). A failure is a DataError naming the
// file and the chunk, raised before the chunk's values are used.
class ChunkVerifier {
 public:
  // `rebuild`: the command that rebuilds the file, named in a failure (with_rebuild).
  ChunkVerifier(std::string name, std::span<const std::uint8_t> payload, std::span<const std::uint8_t> sums,
                std::uint32_t chunk_log2, std::string rebuild = {});
  // Makes sure the chunk holding payload byte `offset` is verified.
  void touch(std::uint64_t offset) const {
    const std::uint64_t c = offset >> log2_;
    if (!done_[c].load(std::memory_order_acquire)) verify(c);
  }
  // Every chunk, in parallel over `threads` (0: all cores).
  void verify_all(int threads = 0) const;
  std::uint64_t chunks() const noexcept { return count_; }
  std::uint64_t verified() const noexcept;

 private:
  void verify(std::uint64_t chunk) const;
  std::string name_, rebuild_;
  std::span<const std::uint8_t> payload_, sums_;
  std::uint32_t log2_;
  std::uint64_t count_;
  std::unique_ptr<std::atomic<bool>[]> done_;
};

struct LoadedDatabase {
  DatabaseInfo info;
  std::shared_ptr<const MappedFile> file;  // keeps the payload alive
  std::span<const std::uint8_t> payload;
  std::shared_ptr<const ChunkVerifier> chunks;  // kinds 3 and 5: verifies chunks on first touch
};

// Writes `parts` one after the other to `path` atomically: a temporary file `<path>.tmp.<pid>` in
// the same folder (those of writers that no longer run are removed first), fsync, rename. Any
// failure is a DataError naming the file, and the temporary file is removed. The one writer of
// database and checkpoint files.
void write_atomically(const std::filesystem::path& path, std::initializer_list<std::span<const std::uint8_t>> parts);

// Removes `<path>.tmp.<pid>` files left by writers that no longer run (killed mid-write).
void remove_stale_temporaries(const std::filesystem::path& path);

// Creates the folder `dir` when it is missing — that folder only: a missing parent (a mistyped
// --db such as typo/deep/er) is a DataError naming it, and nothing is created; so is a file where
// the folder or its parent should be ("out: is a file, not a folder"). Called only by what
// writes (write_atomically, the build's checkpoints), so a command that only reads creates nothing.
void create_folder(const std::filesystem::path& dir);

// Maps and validates `path`. Throws DataError on any missing, truncated, corrupt or foreign file.
// `rebuild`: the command that rebuilds the file (the stores give it); when given, every such
// DataError, now or when a chunk is first touched, ends with "; rebuild it with: COMMAND".
LoadedDatabase load_database(const std::filesystem::path& path, const std::string& rebuild = {});

// `e` with "; rebuild it with: COMMAND" appended (`e` itself when `command` is empty).
DataError with_rebuild(const DataError& e, const std::string& command);

// Whether this build reads a file of format `version` and `kind` (a checkpoint: of kind 3): the
// current version, or version 2 for the kinds whose layout version 3 kept (1, 3 and 4).
bool format_version_readable(std::uint32_t version, std::uint8_t kind) noexcept;

// True when `path` is a database file of a format older than this build reads for its kind (a
// pattern database of version 2) behind an intact header: the stores rebuild such a file as if it
// were missing instead of refusing it. Reads only the header; false for a missing, foreign,
// damaged or current file (a damaged one is reported as corrupt when loaded).
bool database_outdated(const std::filesystem::path& path);

}  // namespace tilespace
