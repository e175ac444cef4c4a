#include "tilespace/database.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "header_codec.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"

namespace tilespace {

static_assert(std::endian::native == std::endian::little, "the .tsdb format is written as little-endian");

namespace {

constexpr std::array<char, 8> kMagic{'T', 'S', 'D', 'B', '\r', '\n', '\x1a', '\n'};
constexpr std::size_t kHistogramOffset = 256;
constexpr std::size_t kMaxHistogram = (kHeaderSize - kHistogramOffset) / 8;  // 480 values
constexpr std::size_t kHeaderChecksumOffset = 56;
constexpr std::size_t kGoalOffset = 72, kPatternOffset = 104, kMaxHeaderCells = 32;
constexpr std::size_t kMetricOffset = 152;  // distance tables: 0 single-tile, 1 multi-tile

using detail::get;
using detail::put;
using detail::sys_error;

constexpr std::size_t kChunkLog2Offset = 136, kFarthestCountOffset = 140, kChunkCountOffset = 144;
// Kind 4 uses the same two fields for its own values.
constexpr std::size_t kAutomatonDepthOffset = 136, kAutomatonForbiddenOffset = 144;
constexpr std::uint32_t kAutomatonMaxDepth = 30;  // search/automaton.hpp: MoveAutomaton::kMaxDepth
constexpr std::uint32_t kNoState = 0xFFFFFFFFu;   // kind 4: a pruned move

// The frame every format version keeps (database.hpp, "Versions"): where the header's checksum is
// and how many bytes it covers. Versions 1 to kFormatVersion have kHeaderSize-byte headers,
// whatever their header-size field says (a damaged one is caught by the checksum); another
// version's header is the size it states, its checksum at offset 56. Version 1 kept the checksum
// at 72.
struct HeaderFrame {
  std::size_t size = kHeaderSize, checksum_offset = kHeaderChecksumOffset;
};
constexpr std::uint64_t kMaxFrameSize = std::uint64_t{1} << 20;  // a larger stated header is damage

HeaderFrame header_frame(std::uint32_t version, std::uint32_t stated_size) {
  HeaderFrame f;
  if (version == 1) f.checksum_offset = 72;
  if (version < 1 || version > kFormatVersion) f.size = stated_size;
  return f;
}

enum class HeaderCheck { intact, damaged, truncated };

// Whether the header at the start of `bytes` is intact as written, its magic taken as kMagic
// whatever it holds (the caller tells a foreign file from a damaged magic): its checksum is
// verified before any other field is believed. `frame` is set when the file is long enough.
HeaderCheck check_header(std::span<const std::uint8_t> bytes, HeaderFrame& frame) {
  if (bytes.size() < 16) return HeaderCheck::truncated;
  frame = header_frame(get<std::uint32_t>(bytes, 8), get<std::uint32_t>(bytes, 12));
  if (frame.size < frame.checksum_offset + 8 || frame.size > kMaxFrameSize) return HeaderCheck::damaged;
  if (bytes.size() < frame.size) return HeaderCheck::truncated;
  return detail::header_checksum(bytes, frame.checksum_offset, frame.size, kMagic) ==
                 get<std::uint64_t>(bytes, frame.checksum_offset)
             ? HeaderCheck::intact
             : HeaderCheck::damaged;
}

std::uint64_t chunk_count(std::uint64_t payload, std::uint32_t log2) {
  return (payload + (std::uint64_t{1} << log2) - 1) >> log2;
}

// The tables of the two-bit engine, two bits or one a state (kinds 3 and 5): read by descent, so
// they list the states at the radius, and large, so their chunks are verified on first touch.
bool by_descent(std::uint8_t kind) { return kind == kKindTwoBitTable || kind == kKindOneBitTable; }

// Kinds 2, 3 and 5 store a checksum per 1 MiB chunk of the payload (in the trailer), kinds 1 and
// 4 one checksum of the whole payload.
bool chunked(std::uint8_t kind) {
  return by_descent(kind) || kind == kKindPatternDatabase || kind == kKindZeroAwareDatabase;
}

// Bits an entry of a kind holds (header offset 19).
std::uint8_t entry_bits(std::uint8_t kind) {
  switch (kind) {
    case kKindTwoBitTable: return 2;
    case kKindOneBitTable:
    case kKindZeroAwareDatabase: return 1;
    case kKindMoveAutomaton: return 32;
    default: return 8;
  }
}

// The header and trailer of a file of `payload_size` bytes of payload. Kinds 1 and 4 store
// `payload_sum` (XXH3-64 of the payload); kinds 2, 3 and 5 store the trailer's checksum, the
// trailer being the chunk checksums `sums` and (kinds 3 and 5) info.farthest.
DatabaseFrame make_frame(const std::string& name, const DatabaseInfo& info, std::uint64_t payload_size,
                         std::uint64_t payload_sum, std::span<const std::uint64_t> sums) {
  if (info.histogram.empty() || info.histogram.size() > kMaxHistogram)
    throw DataError(name + ": histogram of " + std::to_string(info.histogram.size()) + " values cannot be stored");
  DatabaseFrame f;
  std::vector<std::uint8_t>& h = f.header;
  h.assign(kHeaderSize, 0);
  if (info.goal.cells() > static_cast<int>(kMaxHeaderCells) || info.pattern.size() > kMaxHeaderCells)
    throw DataError(name + ": boards of more than 32 cells cannot be stored");
  const bool automaton = info.kind == kKindMoveAutomaton;
  if (automaton && (info.automaton_depth < 1 || info.automaton_depth > kAutomatonMaxDepth || !info.pattern.empty() ||
                    info.entries % 4 != 0 || payload_size != 4 * info.entries))
    throw DataError(name + ": not a move automaton that can be stored (depth " + std::to_string(info.automaton_depth) +
                    ", " + std::to_string(info.entries) + " entries, " + std::to_string(payload_size) + " bytes)");
  if (!by_descent(info.kind) && !info.farthest.empty())
    throw DataError(name + ": only a two-bit or one-bit table lists the states at the radius");
  if (chunked(info.kind)) {
    if (sums.size() != chunk_count(payload_size, kChunkLog2))
      throw std::invalid_argument("make_frame: not one checksum per chunk");
    f.trailer.resize(8 * (sums.size() + info.farthest.size()));
    // memcpy from an empty vector's null data() is undefined even for 0 bytes (UBSan): copy only what there is.
    if (!sums.empty()) std::memcpy(f.trailer.data(), sums.data(), 8 * sums.size());
    if (!info.farthest.empty())
      std::memcpy(f.trailer.data() + 8 * sums.size(), info.farthest.data(), 8 * info.farthest.size());
    put<std::uint32_t>(h, kChunkLog2Offset, kChunkLog2);
    put<std::uint32_t>(h, kFarthestCountOffset, static_cast<std::uint32_t>(info.farthest.size()));
    put<std::uint64_t>(h, kChunkCountOffset, sums.size());
  }
  std::memcpy(h.data(), kMagic.data(), kMagic.size());
  put<std::uint32_t>(h, 8, kFormatVersion);
  put<std::uint32_t>(h, 12, kHeaderSize);
  if (automaton) {
    put<std::uint32_t>(h, kAutomatonDepthOffset, info.automaton_depth);
    put<std::uint64_t>(h, kAutomatonForbiddenOffset, info.automaton_forbidden);
  }
  h[16] = info.kind;
  h[17] = automaton ? 0 : static_cast<std::uint8_t>(info.goal.board.width());  // kind 4: no board
  h[18] = automaton ? 0 : static_cast<std::uint8_t>(info.goal.board.height());
  h[19] = entry_bits(info.kind);
  put<std::uint8_t>(h, kMetricOffset, static_cast<std::uint8_t>(info.metric));
  put<std::uint32_t>(h, 20, static_cast<std::uint32_t>(info.radius()));
  put<std::uint64_t>(h, 24, info.entries);
  put<std::uint64_t>(h, 32, kHeaderSize);
  put<std::uint64_t>(h, 40, payload_size);
  put<std::uint64_t>(h, 48, chunked(info.kind) ? XXH3_64bits(f.trailer.data(), f.trailer.size()) : payload_sum);
  put<std::uint32_t>(h, 64, static_cast<std::uint32_t>(info.histogram.size()));
  put<std::uint32_t>(h, 68, static_cast<std::uint32_t>(info.pattern.size()));
  if (!automaton)
    for (int c = 0; c < info.goal.cells(); ++c) h[kGoalOffset + c] = info.goal.tiles[c];
  for (std::size_t i = 0; i < info.pattern.size(); ++i) h[kPatternOffset + i] = info.pattern[i];
  for (std::size_t i = 0; i < info.histogram.size(); ++i) put<std::uint64_t>(h, kHistogramOffset + 8 * i, info.histogram[i]);
  put<std::uint64_t>(h, kHeaderChecksumOffset, detail::header_checksum(h, kHeaderChecksumOffset));
  return f;
}

}  // namespace

std::vector<std::uint64_t> chunk_sums(std::span<const std::uint8_t> payload) {
  const std::uint64_t n = chunk_count(payload.size(), kChunkLog2), size = std::uint64_t{1} << kChunkLog2;
  std::vector<std::uint64_t> sums(n);
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n), [&](const auto& r) {
    for (std::uint64_t c = r.begin(); c < r.end(); ++c) {
      const std::uint64_t off = c * size;
      sums[c] = XXH3_64bits(payload.data() + off, std::min<std::uint64_t>(size, payload.size() - off));
    }
  });
  return sums;
}

DatabaseFrame two_bit_frame(const std::filesystem::path& path, const DatabaseInfo& info, std::uint64_t payload_size,
                            std::span<const std::uint64_t> sums) {
  if (!by_descent(info.kind)) throw std::invalid_argument("two_bit_frame: not a two-bit or one-bit table");
  return make_frame(path.string(), info, payload_size, 0, sums);
}

void remove_stale_temporaries(const std::filesystem::path& path) {
  std::error_code ec;
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  const std::string prefix = path.filename().string() + ".tmp.";
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string f = e.path().filename().string();
    if (f.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string pid = f.substr(prefix.size());
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos || pid.size() > 9) continue;
    const long p = std::stol(pid);
    if (p == ::getpid() || (::kill(static_cast<pid_t>(p), 0) != 0 && errno == ESRCH)) std::filesystem::remove(e.path(), ec);
  }
}

DataError with_rebuild(const DataError& e, const std::string& command) {
  if (command.empty()) return e;
  return DataError(std::string(e.what()) + "; rebuild it with: " + command);
}

ChunkVerifier::ChunkVerifier(std::string name, std::span<const std::uint8_t> payload, std::span<const std::uint8_t> sums,
                             std::uint32_t chunk_log2, std::string rebuild)
    : name_(std::move(name)), rebuild_(std::move(rebuild)), payload_(payload), sums_(sums), log2_(chunk_log2),
      count_(chunk_count(payload.size(), chunk_log2)), done_(new std::atomic<bool>[count_]) {
  for (std::uint64_t c = 0; c < count_; ++c) done_[c].store(false, std::memory_order_relaxed);
}

void ChunkVerifier::verify(std::uint64_t c) const {
  const std::uint64_t size = std::uint64_t{1} << log2_, off = c * size;
  const std::uint64_t got = XXH3_64bits(payload_.data() + off, std::min<std::uint64_t>(size, payload_.size() - off));
  if (got != get<std::uint64_t>(sums_, 8 * c))
    throw with_rebuild(DataError(name_ + ": chunk " + std::to_string(c) + " of " + std::to_string(count_) + " (bytes " +
                                 std::to_string(kHeaderSize + off) + "..) does not match its checksum: the table is corrupt"),
                       rebuild_);
  done_[c].store(true, std::memory_order_release);
}

void ChunkVerifier::verify_all(int threads) const {
  tbb::task_arena arena(threads > 0 ? threads : tbb::info::default_concurrency());
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, count_), [&](const auto& r) {
      for (std::uint64_t c = r.begin(); c < r.end(); ++c)
        if (!done_[c].load(std::memory_order_acquire)) verify(c);
    });
  });
}

std::uint64_t ChunkVerifier::verified() const noexcept {
  std::uint64_t n = 0;
  for (std::uint64_t c = 0; c < count_; ++c) n += done_[c].load(std::memory_order_relaxed);
  return n;
}

MappedFile::MappedFile(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw DataError(path.string() + ": cannot open: " + sys_error());
  struct stat st{};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw DataError(path.string() + ": not a regular file");
  }
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ > 0) {
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      ::close(fd);
      throw DataError(path.string() + ": cannot map: " + sys_error());
    }
    data_ = static_cast<const std::uint8_t*>(p);
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
}

MappedFile::MappedFile(MappedFile&& o) noexcept : data_(o.data_), size_(o.size_) {
  o.data_ = nullptr;
  o.size_ = 0;
}

void save_database(const std::filesystem::path& path, const DatabaseInfo& info, std::span<const std::uint8_t> payload) {
  const std::string name = path.string();
  const DatabaseFrame frame =
      chunked(info.kind) ? make_frame(name, info, payload.size(), 0, chunk_sums(payload))
                         : make_frame(name, info, payload.size(), XXH3_64bits(payload.data(), payload.size()), {});

  write_atomically(path, {std::span<const std::uint8_t>(frame.header), payload,
                          std::span<const std::uint8_t>(frame.trailer)});
}

void create_folder(const std::filesystem::path& dir) {
  std::error_code ec;
  if (dir.empty() || std::filesystem::is_directory(dir, ec)) return;
  if (std::filesystem::exists(dir, ec)) throw DataError(dir.string() + ": is a file, not a folder");
  const std::filesystem::path parent = dir.parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    throw DataError(dir.string() + ": cannot create the folder: " +
                    (std::filesystem::exists(parent, ec) ? parent.string() + " is a file, not a folder"
                                                         : "no folder " + parent.string()));
  std::error_code made;
  std::filesystem::create_directory(dir, made);  // false also when another process just made it
  if (!std::filesystem::is_directory(dir, ec))
    throw DataError(dir.string() + ": cannot create the folder: " + (made ? made.message() : std::string("a file has that name")));
}

void write_atomically(const std::filesystem::path& path, std::initializer_list<std::span<const std::uint8_t>> parts) {
  const std::string name = path.string();
  std::error_code ec;
  // A device or a pipe (/dev/stdout, /dev/full, a FIFO) is written in place: renaming a
  // temporary file over it would replace the device.
  const auto status = std::filesystem::status(path, ec);
  const bool special = !ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
  if (special && std::filesystem::is_directory(status)) throw DataError(name + ": is a folder, not a file");
  if (!special && path.has_parent_path()) create_folder(path.parent_path());
  if (!special) remove_stale_temporaries(path);
  const std::string tmp = special ? name : name + ".tmp." + std::to_string(::getpid());
  const int fd = special ? ::open(name.c_str(), O_WRONLY | O_CLOEXEC)
                         : ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw DataError(name + ": cannot create " + tmp + ": " + sys_error());
  auto fail = [&](const std::string& what) {
    const std::string err = sys_error();
    ::close(fd);
    if (!special) ::unlink(tmp.c_str());
    throw DataError(name + ": " + what + ": " + err);
  };
  for (std::span<const std::uint8_t> part : parts) {
    const std::uint8_t* p = part.data();
    for (std::size_t n = part.size(); n > 0;) {
      const ssize_t w = ::write(fd, p, std::min<std::size_t>(n, 1u << 30));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) fail("write failed");
      p += w;
      n -= static_cast<std::size_t>(w);
    }
  }
  if (special) {
    if (::close(fd) != 0) throw DataError(name + ": close failed: " + sys_error());
    return;
  }
  if (::fsync(fd) != 0) fail("fsync failed");
  if (::close(fd) != 0) {
    const std::string err = sys_error();
    ::unlink(tmp.c_str());
    throw DataError(name + ": close failed: " + err);
  }
  if (::rename(tmp.c_str(), name.c_str()) != 0) {
    const std::string err = sys_error();
    ::unlink(tmp.c_str());
    throw DataError(name + ": cannot rename " + tmp + " into place: " + err);
  }
}

bool format_version_readable(std::uint32_t version, std::uint8_t kind) noexcept {
  return version == kFormatVersion ||
         (version == 2 && (kind == kKindDistanceTable || kind == kKindTwoBitTable || kind == kKindMoveAutomaton));
}

bool database_outdated(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  std::array<std::uint8_t, kHeaderSize> h{};
  std::size_t got = 0;
  while (got < h.size()) {
    const ssize_t r = ::read(fd, h.data() + got, h.size() - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += static_cast<std::size_t>(r);
  }
  ::close(fd);
  // Only an intact header of an older version: a damaged one is corruption, which loading reports.
  HeaderFrame frame;
  if (got < kMagic.size() || std::memcmp(h.data(), kMagic.data(), kMagic.size()) != 0 ||
      check_header(std::span<const std::uint8_t>(h.data(), got), frame) != HeaderCheck::intact)
    return false;
  const auto version = get<std::uint32_t>(h, 8);
  return version < kFormatVersion && !format_version_readable(version, h[16]);
}

namespace {
LoadedDatabase load_checked(const std::filesystem::path& path, const std::string& rebuild);
}  // namespace

LoadedDatabase load_database(const std::filesystem::path& path, const std::string& rebuild) {
  try {
    return load_checked(path, rebuild);
  } catch (const DataError& e) {
    throw with_rebuild(e, rebuild);
  }
}

namespace {

LoadedDatabase load_checked(const std::filesystem::path& path, const std::string& rebuild) {
  const std::string name = path.string();
  auto bad = [&](const std::string& what) { return DataError(name + ": " + what); };
  auto file = std::make_shared<const MappedFile>(path);
  const auto bytes = file->bytes();
  // The header's checksum is verified before any field is believed: a damaged header is corrupt,
  // whatever its version field now says; only an intact header is taken for another version.
  const std::string damaged = "header checksum mismatch: the header is corrupt";
  HeaderFrame frame;
  const HeaderCheck header = check_header(bytes, frame);
  if (bytes.size() < kMagic.size() || std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0)
    // A damaged magic on an otherwise intact header is corruption too, not a foreign file.
    throw bad(header == HeaderCheck::intact ? damaged : "not a tilespace database (bad magic)");
  switch (header) {
    case HeaderCheck::truncated:
      throw bad("truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the " +
                std::to_string(bytes.size() < 16 ? kHeaderSize : frame.size) + "-byte header");
    case HeaderCheck::damaged: throw bad(damaged);
    case HeaderCheck::intact: break;
  }
  const auto version = get<std::uint32_t>(bytes, 8);
  if (!format_version_readable(version, bytes[16]))
    // One remedy: the command that rebuilds the file when the caller names one (with_rebuild).
    throw bad((version == 2 ? "a pattern database of format version 2, without chunk checksums: this build reads version "
                            : "format version " + std::to_string(version) + ", this build reads version ") +
              std::to_string(kFormatVersion) + (rebuild.empty() ? " (delete the file: it is rebuilt when next needed)" : ""));
  if (get<std::uint32_t>(bytes, 12) != kHeaderSize) throw bad("unexpected header size");

  LoadedDatabase db;
  db.info.kind = bytes[16];
  const bool descent = by_descent(db.info.kind);
  const bool table = db.info.kind == kKindDistanceTable || descent;
  const bool automaton = db.info.kind == kKindMoveAutomaton;
  const bool zero_aware = db.info.kind == kKindZeroAwareDatabase;
  if (!table && !automaton && !zero_aware && db.info.kind != kKindPatternDatabase)
    throw bad("unknown table kind " + std::to_string(db.info.kind));
  const int w = bytes[17], hgt = bytes[18];
  const int max_cells = table ? kMaxCells : kMaxBoardCells;
  // A move automaton has no board (0x0), and only a move automaton.
  if (automaton ? w != 0 || hgt != 0 : w < 2 || hgt < 2 || w * hgt > max_cells)
    throw bad((automaton ? "a move automaton is board-independent (0x0), not " : "unsupported board ") +
              std::to_string(w) + "x" + std::to_string(hgt));
  if (bytes[19] != entry_bits(db.info.kind))
    throw bad("unsupported entry width of " + std::to_string(bytes[19]) + " bits");
  const int n = automaton ? 0 : w * hgt;
  if (!automaton) db.info.goal = State{Board(w, hgt), {}, -1};
  std::uint32_t seen = 0;
  for (int c = 0; c < static_cast<int>(kMaxHeaderCells); ++c) {
    const int t = bytes[kGoalOffset + c];
    if (c >= n) {
      if (t != 0) throw bad("the goal stored in the header is not a valid state");
      continue;
    }
    if (t >= n || (seen >> t) & 1u) throw bad("the goal stored in the header is not a valid state");
    seen |= 1u << t;
    db.info.goal.tiles[c] = static_cast<std::uint8_t>(t);
    if (t == 0) db.info.goal.blank = c;
  }
  const auto k = get<std::uint32_t>(bytes, 68);
  if (table || automaton ? k != 0 : (k < 1 || k + 2 > static_cast<std::uint32_t>(n)))
    throw bad("invalid pattern size " + std::to_string(k));
  std::uint32_t in_pattern = 0;
  for (std::uint32_t i = 0; i < kMaxHeaderCells; ++i) {
    const int t = bytes[kPatternOffset + i];
    if (i >= k) {
      if (t != 0) throw bad("the pattern stored in the header is not a set of tiles");
      continue;
    }
    if (t == 0 || t >= n || (in_pattern >> t) & 1u) throw bad("the pattern stored in the header is not a set of tiles");
    in_pattern |= 1u << t;
    db.info.pattern.push_back(static_cast<std::uint8_t>(t));
  }
  const auto radius = get<std::uint32_t>(bytes, 20);
  db.info.entries = get<std::uint64_t>(bytes, 24);
  const auto offset = get<std::uint64_t>(bytes, 32);
  const auto size = get<std::uint64_t>(bytes, 40);
  // The metric (0 in every file written before it was stored: single-tile); only byte and two-bit
  // tables and pattern databases have another (a multi-tile database's placements hold the blank
  // too; a multi-tile two-bit table's fields are D mod 3).
  const auto metric = get<std::uint8_t>(bytes, kMetricOffset);
  if (metric > static_cast<std::uint8_t>(Metric::multi)) throw bad("unknown metric " + std::to_string(metric));
  if (metric != 0 && db.info.kind != kKindDistanceTable && db.info.kind != kKindTwoBitTable &&
      db.info.kind != kKindPatternDatabase)
    throw bad("a multi-tile metric on a file of kind " + std::to_string(db.info.kind));
  db.info.metric = static_cast<Metric>(metric);
  std::uint64_t expected = 1;
  if (automaton) {
    // Four entries a state; state numbers stay below kNoState.
    if (db.info.entries == 0 || db.info.entries % 4 != 0 || db.info.entries / 4 >= kNoState)
      throw bad("holds " + std::to_string(db.info.entries) + " entries, a move automaton has 4 a state");
    expected = db.info.entries;
  } else if (table) {
    expected = kFactorial[n] / 2;
  } else {
    const std::uint32_t items = k + (db.info.metric == Metric::multi ? 1 : 0);
    for (std::uint32_t i = 0; i < items; ++i) expected *= static_cast<std::uint64_t>(n) - i;
  }
  // A zero-aware database has an entry per placement and region of the blank: between one and
  // N-k a placement (its loader checks the exact count, which depends on the board's geometry).
  if (zero_aware && db.info.entries >= expected && db.info.entries <= expected * (static_cast<std::uint64_t>(n) - k))
    expected = db.info.entries;
  if (db.info.entries != expected)
    throw bad("holds " + std::to_string(db.info.entries) + " entries, " +
              (table ? "a " + db.info.goal.board.name() + " table has "
                     : "a " + std::string(db.info.metric == Metric::multi ? "multi-tile " : "") + "pattern of " +
                           std::to_string(k) + " tiles has ") +
              std::to_string(expected));
  const std::uint64_t payload_size = db.info.kind == kKindTwoBitTable   ? (db.info.entries + 31) / 32 * 8
                                     : db.info.kind == kKindOneBitTable || zero_aware ? (db.info.entries + 63) / 64 * 8
                                     : automaton                        ? 4 * db.info.entries
                                                                        : db.info.entries;
  if (offset != kHeaderSize || size != payload_size) throw bad("inconsistent payload offset or size");
  std::uint64_t trailer = 0, chunks = 0;
  std::uint32_t chunk_log2 = 0, far = 0;
  if (chunked(db.info.kind)) {
    chunk_log2 = get<std::uint32_t>(bytes, kChunkLog2Offset);
    far = get<std::uint32_t>(bytes, kFarthestCountOffset);
    chunks = get<std::uint64_t>(bytes, kChunkCountOffset);
    if (chunk_log2 < 12 || chunk_log2 > 30 || chunks != chunk_count(size, chunk_log2))
      throw bad("inconsistent chunk size or count");
    if (far > (descent ? 1000u : 0u)) throw bad("inconsistent count of states at the radius");
    trailer = 8 * (chunks + far);
  } else if (automaton) {
    db.info.automaton_depth = get<std::uint32_t>(bytes, kAutomatonDepthOffset);
    db.info.automaton_forbidden = get<std::uint64_t>(bytes, kAutomatonForbiddenOffset);
    if (db.info.automaton_depth < 1 || db.info.automaton_depth > kAutomatonMaxDepth)
      throw bad("invalid automaton depth " + std::to_string(db.info.automaton_depth));
    if (get<std::uint32_t>(bytes, kFarthestCountOffset) != 0) throw bad("reserved header fields are not zero");
  } else if (get<std::uint32_t>(bytes, kChunkLog2Offset) != 0 || get<std::uint32_t>(bytes, kFarthestCountOffset) != 0 ||
             get<std::uint64_t>(bytes, kChunkCountOffset) != 0) {
    throw bad("reserved header fields are not zero");
  }
  const std::uint64_t expected_size = offset + size + trailer;
  if (bytes.size() != expected_size)
    throw bad(bytes.size() < expected_size
                  ? "truncated: " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(expected_size)
                  : "trailing data: " + std::to_string(bytes.size()) + " bytes, expected " +
                        std::to_string(expected_size));
  const auto hist_len = get<std::uint32_t>(bytes, 64);
  if (hist_len == 0 || hist_len > kMaxHistogram || hist_len != radius + 1) throw bad("inconsistent histogram length");
  db.info.histogram.resize(hist_len);
  for (std::uint32_t i = 0; i < hist_len; ++i) db.info.histogram[i] = get<std::uint64_t>(bytes, kHistogramOffset + 8 * i);
  // Exactly one entry is 0 in the tables: the goal (all pattern tiles home); one state of a move
  // automaton is at distance 0: the start. The sum is checked against overflow, so that no values
  // above the entry count add up to it modulo 2^64.
  std::uint64_t counted = 0;
  bool overflow = false;
  for (const std::uint64_t h : db.info.histogram) overflow = overflow || __builtin_add_overflow(counted, h, &counted);
  if (overflow || counted != (automaton ? db.info.entries / 4 : db.info.entries) || db.info.histogram[0] != 1)
    throw bad("histogram does not add up to the entry count");
  db.payload = bytes.subspan(offset, size);
  if (chunked(db.info.kind)) {
    const auto tr = bytes.subspan(offset + size, trailer);
    if (XXH3_64bits(tr.data(), tr.size()) != get<std::uint64_t>(bytes, 48))
      throw bad(descent ? "checksum mismatch in the chunk checksums or the states at the radius: the table is corrupt"
                        : "checksum mismatch in the chunk checksums: the table is corrupt");
    // The states at the radius are listed exactly when there are at most 1000 (kFarthestKept).
    if (descent && far != (db.info.histogram.back() <= 1000 ? db.info.histogram.back() : 0))
      throw bad("inconsistent count of states at the radius");
    for (std::uint32_t i = 0; i < far; ++i) {
      const auto r = get<std::uint64_t>(tr, 8 * (chunks + i));
      if (r >= db.info.entries || (i > 0 && r <= db.info.farthest.back())) throw bad("invalid rank among the states at the radius");
      db.info.farthest.push_back(r);
    }
    db.chunks = std::make_shared<const ChunkVerifier>(name, db.payload, tr.subspan(0, 8 * chunks), chunk_log2, rebuild);
    // A pattern database is read at random on every search node, where a check per lookup would
    // cost too much: every chunk is verified now, on every core.
    if (!descent) db.chunks->verify_all();
  } else if (XXH3_64bits(db.payload.data(), db.payload.size()) != get<std::uint64_t>(bytes, 48)) {
    throw bad("payload checksum mismatch: the table is corrupt");
  }
  if (db.info.kind == kKindDistanceTable) {
    // The radius is the largest depth (what `stats` reports, where `farthest` looks, the depths
    // `random --depth` accepts): a byte table must hold it and nothing deeper. One pass, a few
    // milliseconds for the largest byte table (3x4: 8 ms against 13 ms for its checksum).
    std::uint8_t largest = 0;
    for (const std::uint8_t d : db.payload) largest = std::max(largest, d);  // vectorised: no position kept
    if (largest != radius)
      throw bad("the largest depth is " + std::to_string(largest) + ", the header's radius " + std::to_string(radius) +
                ": the table is inconsistent");
  }
  if (automaton) {
    const std::uint64_t states = db.info.entries / 4;
    for (std::uint64_t i = 0; i < db.info.entries; ++i) {
      const auto q = get<std::uint32_t>(db.payload, 4 * i);
      if (q != kNoState && q >= states)
        throw bad("transition " + std::to_string(i) + " leads to state " + std::to_string(q) + " of " +
                  std::to_string(states) + ": the automaton is corrupt");
    }
  }
  db.file = std::move(file);
  return db;
}

}  // namespace

}  // namespace tilespace
