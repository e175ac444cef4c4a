// Fuzz target: checkpoints of a two-bit build (checkpoint.hpp's load_checkpoint), and the search
// continued from a loaded one (bfs.hpp's bfs_two_bit with `resume`), as `build --resume` does.
//
// Input: byte 0 is the harness's control, the rest the file's image. Both checksums (the fields',
// the header's) are recomputed first (support.hpp's fix_checkpoint) so that a header that lies
// reaches the loader's checks; when byte 0 is 0xA0-0xAF its bits 0-1 leave them as they are.
// The search it should continue is the header's board and goal blank when the board has at most
// 9 cells (else 2x3 with the blank last), and the whole table, or with bit 3 of byte 0 the
// header's deal (unit, process, process count) when it is a valid one. Expected outcome for a bad
// file: DataError. A loaded checkpoint must be consistent (one word a field of the slice, a
// histogram that starts at the goal and adds up within the table), and a search continued from it
// must end without a crash, a hang or an internal error (a ResourceError for a search deeper than
// a table's 479 layers).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "support.hpp"
#include "tilespace/bfs.hpp"
#include "tilespace/checkpoint.hpp"
#include "tilespace/database.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"

using namespace tilespace;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t control = data[0];
  std::vector<std::uint8_t> image(data + 1, data + size);
  const bool keep = (control & 0xF0u) == 0xA0u;
  fuzz::fix_checkpoint(image, !(keep && (control & 1u)), !(keep && (control & 2u)));
  const auto path = fuzz::scratch_path("table.ckpt");
  fuzz::write_file(path, image);

  Board board(2, 3);
  int blank = 5;
  if (image.size() >= kHeaderSize) {
    const int w = image[17], h = image[18];
    if (w >= 2 && h >= 2 && w * h <= 9) {
      board = Board(w, h);
      blank = image[19] < w * h ? image[19] : 0;
    }
  }
  const Ranker ranker(board, blank);
  const std::uint64_t words = two_bit_words(ranker);
  CheckpointSlice slice;  // the whole table
  if (control & 8u) {
    const std::uint32_t unit_log2 = fuzz::get_u32(image, 48), p = fuzz::get_u32(image, 56), n = fuzz::get_u32(image, 60);
    if (unit_log2 <= 40 && p < n && n <= 1024) slice = CheckpointSlice(unit_log2, p, n);
  }

  std::optional<LoadedCheckpoint> c;
  try {
    c.emplace(load_checkpoint(path, ranker, slice));
  } catch (const DataError&) {
    return 0;
  }
  const TwoBitProgress& p = c->progress;
  fuzz::check(c->fields->span().size() == slice.held(words), "fields of another size than the slice");
  fuzz::check(!p.histogram.empty() && p.histogram[0] == 1 && p.next_layer == static_cast<int>(p.histogram.size()),
              "a bad histogram loaded");
  std::uint64_t sum = p.pending;
  for (const std::uint64_t h : p.histogram)
    fuzz::check(!__builtin_add_overflow(sum, h, &sum), "a histogram whose sum overflows");
  fuzz::check(sum <= ranker.size(), "more states than the table has");

  if (slice.processes() != 1) return 0;
  // Continue the search, as `build --resume` does.
  TwoBitOptions options;
  options.bfs.threads = 1;
  try {
    const TwoBitResult r = bfs_two_bit(ranker, c->fields->span(), options, &p);
    std::uint64_t total = 0;
    for (const std::uint64_t h : r.histogram)
      fuzz::check(!__builtin_add_overflow(total, h, &total), "a resumed histogram whose sum overflows");
    fuzz::check(total <= ranker.size(), "a resumed search found more states than the table has");
  } catch (const ResourceError&) {  // deeper than the 479 layers a table can list
  }
  return 0;
}
