// Pieces shared by the fuzz targets (tests/fuzz/fuzz_*.cpp): property checks that abort (so that
// libFuzzer reports the input as a crash), boards chosen by a byte, a per-process scratch folder
// for file images, and the checksums of database and checkpoint files recomputed as their loaders
// read them, so that a mutated header reaches the loader's deeper checks instead of dying at a
// checksum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/state.hpp"

namespace fuzz {

// Prints "fuzz property failed: what" and aborts: a property that does not hold is a finding.
[[noreturn]] void fail(const std::string& what);
inline void check(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

// Every board a Board accepts (2 <= W, H, W*H <= 25), in a fixed order.
const std::vector<tilespace::Board>& all_boards();
// A board chosen by `b`: nullopt for 0 (no board given), else one of all_boards().
std::optional<tilespace::Board> board_from_byte(std::uint8_t b);
// True when `s` is a permutation of 0..N-1 on its board with `blank` on the 0 (cells >= N are 0).
bool valid_state(const tilespace::State& s);

// `text` cut at each `sep` into at most `max` fields (the last one keeps the rest).
std::vector<std::string_view> split_fields(std::string_view text, char sep, std::size_t max);

// A file named `name` in this process's scratch folder (/dev/shm when it is writable, else the
// system temp folder; removed at exit, and those of dead processes at start). Each write makes a
// new file (unlink, create), so a mapping of the previous content stays valid.
std::filesystem::path scratch_path(const std::string& name);
std::filesystem::path scratch_dir();
void write_file(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);

// Database files (database.hpp): recomputes the payload checksum (kinds 1 and 4), or the chunk
// checksums and the trailer's checksum (kinds 2 and 3, with the chunk size the header names), then
// the header checksum, wherever the header's offset, size and counts say they are (clamped to the
// image). `chunks`: recompute the chunk checksums too (else only the trailer's checksum); `payload`
// and `header`: recompute those. Images shorter than the header are left alone.
void fix_database(std::vector<std::uint8_t>& image, bool chunks = true, bool payload = true, bool header = true);
// Checkpoint files (checkpoint.hpp): the fields' checksum and the header checksum.
void fix_checkpoint(std::vector<std::uint8_t>& image, bool fields = true, bool header = true);

// Little-endian fields of a file image (zero beyond its end).
std::uint64_t get_u64(std::span<const std::uint8_t> b, std::size_t off);
std::uint32_t get_u32(std::span<const std::uint8_t> b, std::size_t off);

}  // namespace fuzz
