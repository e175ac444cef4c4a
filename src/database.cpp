#include "tilespace/database.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <numeric>

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

template <class T>
void put(std::vector<std::uint8_t>& h, std::size_t off, T v) {
  std::memcpy(h.data() + off, &v, sizeof v);
}
template <class T>
T get(std::span<const std::uint8_t> h, std::size_t off) {
  T v;
  std::memcpy(&v, h.data() + off, sizeof v);
  return v;
}

std::uint64_t header_checksum(std::span<const std::uint8_t> header) {
  std::array<std::uint8_t, kHeaderSize> copy;
  std::memcpy(copy.data(), header.data(), kHeaderSize);
  std::memset(copy.data() + kHeaderChecksumOffset, 0, 8);
  return XXH3_64bits(copy.data(), copy.size());
}

std::string sys_error() { return std::strerror(errno); }

}  // namespace

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
  if (info.histogram.empty() || info.histogram.size() > kMaxHistogram)
    throw DataError(name + ": histogram of " + std::to_string(info.histogram.size()) + " values cannot be stored");
  std::vector<std::uint8_t> h(kHeaderSize, 0);
  if (info.goal.cells() > static_cast<int>(kMaxHeaderCells) || info.pattern.size() > kMaxHeaderCells)
    throw DataError(name + ": boards of more than 32 cells cannot be stored");
  std::memcpy(h.data(), kMagic.data(), kMagic.size());
  put<std::uint32_t>(h, 8, kFormatVersion);
  put<std::uint32_t>(h, 12, kHeaderSize);
  h[16] = info.kind;
  h[17] = static_cast<std::uint8_t>(info.goal.board.width());
  h[18] = static_cast<std::uint8_t>(info.goal.board.height());
  h[19] = 8;
  put<std::uint32_t>(h, 20, static_cast<std::uint32_t>(info.radius()));
  put<std::uint64_t>(h, 24, info.entries);
  put<std::uint64_t>(h, 32, kHeaderSize);
  put<std::uint64_t>(h, 40, payload.size());
  put<std::uint64_t>(h, 48, XXH3_64bits(payload.data(), payload.size()));
  put<std::uint32_t>(h, 64, static_cast<std::uint32_t>(info.histogram.size()));
  put<std::uint32_t>(h, 68, static_cast<std::uint32_t>(info.pattern.size()));
  for (int c = 0; c < info.goal.cells(); ++c) h[kGoalOffset + c] = info.goal.tiles[c];
  for (std::size_t i = 0; i < info.pattern.size(); ++i) h[kPatternOffset + i] = info.pattern[i];
  for (std::size_t i = 0; i < info.histogram.size(); ++i) put<std::uint64_t>(h, kHistogramOffset + 8 * i, info.histogram[i]);
  put<std::uint64_t>(h, kHeaderChecksumOffset, header_checksum(h));

  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  const std::string tmp = name + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw DataError(name + ": cannot create " + tmp + ": " + sys_error());
  auto fail = [&](const std::string& what) {
    const std::string err = sys_error();
    ::close(fd);
    ::unlink(tmp.c_str());
    throw DataError(name + ": " + what + ": " + err);
  };
  auto write_all = [&](const std::uint8_t* p, std::size_t n) {
    while (n > 0) {
      const ssize_t w = ::write(fd, p, std::min<std::size_t>(n, 1u << 30));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) fail("write failed");
      p += w;
      n -= static_cast<std::size_t>(w);
    }
  };
  write_all(h.data(), h.size());
  write_all(payload.data(), payload.size());
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

LoadedDatabase load_database(const std::filesystem::path& path) {
  const std::string name = path.string();
  auto bad = [&](const std::string& what) { return DataError(name + ": " + what); };
  auto file = std::make_shared<const MappedFile>(path);
  const auto bytes = file->bytes();
  if (bytes.size() < kMagic.size() || std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0)
    throw bad("not a tilespace database (bad magic)");
  if (bytes.size() < kHeaderSize)
    throw bad("truncated: " + std::to_string(bytes.size()) + " bytes, shorter than the " +
              std::to_string(kHeaderSize) + "-byte header");
  const auto version = get<std::uint32_t>(bytes, 8);
  if (version != kFormatVersion)
    throw bad("format version " + std::to_string(version) + ", this build reads version " +
              std::to_string(kFormatVersion) + " (delete the file: it is rebuilt when next needed)");
  if (get<std::uint32_t>(bytes, 12) != kHeaderSize) throw bad("unexpected header size");
  if (header_checksum(bytes) != get<std::uint64_t>(bytes, kHeaderChecksumOffset))
    throw bad("header checksum mismatch: the header is corrupt");

  LoadedDatabase db;
  db.info.kind = bytes[16];
  const bool table = db.info.kind == kKindDistanceTable;
  if (!table && db.info.kind != kKindPatternDatabase) throw bad("unknown table kind " + std::to_string(db.info.kind));
  const int w = bytes[17], hgt = bytes[18];
  const int max_cells = table ? kMaxCells : kMaxBoardCells;
  if (w < 2 || hgt < 2 || w * hgt > max_cells)
    throw bad("unsupported board " + std::to_string(w) + "x" + std::to_string(hgt));
  if (bytes[19] != 8) throw bad("unsupported entry width of " + std::to_string(bytes[19]) + " bits");
  const Board board(w, hgt);
  const int n = board.cells();
  db.info.goal = State{board, {}, -1};
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
  if (table ? k != 0 : (k < 1 || k + 2 > static_cast<std::uint32_t>(n))) throw bad("invalid pattern size " + std::to_string(k));
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
  std::uint64_t expected = 1;
  if (table) {
    expected = kFactorial[n] / 2;
  } else {
    for (std::uint32_t i = 0; i < k; ++i) expected *= static_cast<std::uint64_t>(n) - i;
  }
  if (db.info.entries != expected)
    throw bad("holds " + std::to_string(db.info.entries) + " entries, " +
              (table ? "a " + board.name() + " table has " : "a pattern of " + std::to_string(k) + " tiles has ") +
              std::to_string(expected));
  if (offset != kHeaderSize || size != db.info.entries) throw bad("inconsistent payload offset or size");
  if (bytes.size() != offset + size)
    throw bad(bytes.size() < offset + size
                  ? "truncated: " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(offset + size)
                  : "trailing data: " + std::to_string(bytes.size()) + " bytes, expected " +
                        std::to_string(offset + size));
  const auto hist_len = get<std::uint32_t>(bytes, 64);
  if (hist_len == 0 || hist_len > kMaxHistogram || hist_len != radius + 1) throw bad("inconsistent histogram length");
  db.info.histogram.resize(hist_len);
  for (std::uint32_t i = 0; i < hist_len; ++i) db.info.histogram[i] = get<std::uint64_t>(bytes, kHistogramOffset + 8 * i);
  // Exactly one entry is 0 in both kinds: the goal (all pattern tiles home).
  if (std::accumulate(db.info.histogram.begin(), db.info.histogram.end(), std::uint64_t{0}) != db.info.entries ||
      db.info.histogram[0] != 1)
    throw bad("histogram does not add up to the entry count");
  db.payload = bytes.subspan(offset, size);
  if (XXH3_64bits(db.payload.data(), db.payload.size()) != get<std::uint64_t>(bytes, 48))
    throw bad("payload checksum mismatch: the table is corrupt");
  db.file = std::move(file);
  return db;
}

}  // namespace tilespace
