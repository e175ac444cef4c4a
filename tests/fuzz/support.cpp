// Pieces shared by the fuzz targets (support.hpp).
#include "support.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tilespace/database.hpp"

namespace fuzz {

using tilespace::Board;

void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz property failed: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

const std::vector<Board>& all_boards() {
  static const std::vector<Board> boards = [] {
    std::vector<Board> v;
    for (int w = 2; w <= tilespace::kMaxBoardCells / 2; ++w)
      for (int h = 2; w * h <= tilespace::kMaxBoardCells; ++h) v.emplace_back(w, h);
    return v;
  }();
  return boards;
}

std::optional<Board> board_from_byte(std::uint8_t b) {
  if (b == 0) return std::nullopt;
  return all_boards()[(b - 1u) % all_boards().size()];
}

bool valid_state(const tilespace::State& s) {
  const int n = s.cells();
  if (n < 4 || n > tilespace::kMaxBoardCells || s.blank < 0 || s.blank >= n || s.tiles[s.blank] != 0) return false;
  std::uint32_t seen = 0;
  for (int c = 0; c < tilespace::kMaxBoardCells; ++c) {
    const int t = s.tiles[c];
    if (c >= n) {
      if (t != 0) return false;
      continue;
    }
    if (t >= n || ((seen >> t) & 1u)) return false;
    seen |= 1u << t;
  }
  return true;
}

std::vector<std::string_view> split_fields(std::string_view text, char sep, std::size_t max) {
  std::vector<std::string_view> out;
  while (out.size() + 1 < max) {
    const std::size_t at = text.find(sep);
    if (at == std::string_view::npos) break;
    out.push_back(text.substr(0, at));
    text.remove_prefix(at + 1);
  }
  out.push_back(text);
  return out;
}

// ---- the scratch folder ----

namespace {

constexpr const char* kPrefix = "tilespace-fuzz.";

std::filesystem::path make_scratch() {
  std::error_code ec;
  std::filesystem::path base = "/dev/shm";
  if (::access(base.c_str(), W_OK) != 0) base = std::filesystem::temp_directory_path(ec);
  // Folders of fuzzing processes that died without cleaning up (a crash is how a finding ends).
  for (const auto& e : std::filesystem::directory_iterator(base, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(kPrefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + std::strlen(kPrefix), nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) std::filesystem::remove_all(e.path(), ec);
  }
  std::filesystem::path dir = base / (kPrefix + std::to_string(::getpid()));
  std::filesystem::create_directories(dir, ec);
  if (ec) fail("cannot create the scratch folder " + dir.string() + ": " + ec.message());
  return dir;
}

void remove_scratch() {
  std::error_code ec;
  std::filesystem::remove_all(scratch_dir(), ec);
}

}  // namespace

std::filesystem::path scratch_dir() {
  // Never destroyed: remove_scratch runs at exit, after the destructors of later statics.
  static const std::filesystem::path* const dir = [] {
    auto* d = new std::filesystem::path(make_scratch());
    std::atexit(remove_scratch);
    return d;
  }();
  return *dir;
}

std::filesystem::path scratch_path(const std::string& name) { return scratch_dir() / name; }

void write_file(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  ::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create " + path.string() + ": " + std::strerror(errno));
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) fail("cannot write " + path.string() + ": " + std::strerror(errno));
    done += static_cast<std::size_t>(w);
  }
  ::close(fd);
}

// ---- checksums ----

std::uint64_t get_u64(std::span<const std::uint8_t> b, std::size_t off) {
  std::uint64_t v = 0;
  if (off <= b.size() && b.size() - off >= 8) std::memcpy(&v, b.data() + off, 8);
  return v;
}
std::uint32_t get_u32(std::span<const std::uint8_t> b, std::size_t off) {
  std::uint32_t v = 0;
  if (off <= b.size() && b.size() - off >= 4) std::memcpy(&v, b.data() + off, 4);
  return v;
}

namespace {

void put_u64(std::vector<std::uint8_t>& b, std::size_t off, std::uint64_t v) {
  if (off <= b.size() && b.size() - off >= 8) std::memcpy(b.data() + off, &v, 8);
}

// XXH3-64 of the header with its checksum field (at `at`) zeroed, as both loaders compute it.
std::uint64_t header_sum(const std::vector<std::uint8_t>& image, std::size_t at) {
  std::vector<std::uint8_t> h(image.begin(), image.begin() + tilespace::kHeaderSize);
  std::memset(h.data() + at, 0, 8);
  return XXH3_64bits(h.data(), h.size());
}

}  // namespace

void fix_database(std::vector<std::uint8_t>& image, bool chunks, bool payload, bool header) {
  constexpr std::size_t H = tilespace::kHeaderSize;
  const std::size_t n = image.size();
  if (n < H) return;
  const std::uint8_t kind = image[16];
  // The payload where the header says it is, else everything after the header.
  std::uint64_t off = get_u64(image, 32), size = get_u64(image, 40);
  if (off > n || size > n - off) off = H, size = n - H;
  const std::span<const std::uint8_t> data(image.data() + off, size);
  if (payload) {
    if (kind == tilespace::kKindPatternDatabase || kind == tilespace::kKindTwoBitTable ||
        kind == tilespace::kKindOneBitTable) {
      const std::uint32_t log2 = get_u32(image, 136);
      const std::uint64_t want = get_u64(image, 144) + get_u32(image, 140);  // chunk sums, then the farthest ranks
      const std::uint64_t start = off + size;
      const std::uint64_t slots = std::min<std::uint64_t>(want, (n - start) / 8);
      const std::uint64_t sums = std::min<std::uint64_t>(slots, get_u64(image, 144));
      if (chunks && log2 < 48) {
        if (log2 == tilespace::kChunkLog2) {  // the library's own chunking
          const std::vector<std::uint64_t> s = tilespace::chunk_sums(data);
          for (std::uint64_t i = 0; i < sums && i < s.size(); ++i) put_u64(image, start + 8 * i, s[i]);
        } else {
          const std::uint64_t chunk = std::uint64_t{1} << log2;
          for (std::uint64_t i = 0; i < sums && (i << log2) < size; ++i)
            put_u64(image, start + 8 * i,
                    XXH3_64bits(data.data() + (i << log2), std::min<std::uint64_t>(chunk, size - (i << log2))));
        }
      }
      put_u64(image, 48, XXH3_64bits(image.data() + start, 8 * slots));
    } else {
      put_u64(image, 48, XXH3_64bits(data.data(), data.size()));
    }
  }
  if (header) put_u64(image, 56, header_sum(image, 56));
}

void fix_checkpoint(std::vector<std::uint8_t>& image, bool fields, bool header) {
  constexpr std::size_t H = tilespace::kHeaderSize;
  if (image.size() < H) return;
  if (fields) put_u64(image, 64, XXH3_64bits(image.data() + H, image.size() - H));
  if (header) put_u64(image, 72, header_sum(image, 72));
}

}  // namespace fuzz
