// Fuzz target: pattern-database files (kind 2) through pdb/database.hpp's PatternDatabase::load,
// mapped or copied into pages, as the store loads them.
//
// Input: byte 0 is the harness's control, the rest the file's image. The checksums are recomputed
// as fuzz_table does (the chunk sums with the chunk size the header claims; bytes 0xA0-0xAF leave
// some as they are). The goal and pattern asked for are those the header names when they are a
// valid state and pattern (else a 3x3 goal and pattern 1); bit 3 of byte 0 asks for the pattern
// reversed instead (a foreign file), bit 4 copies the values into pages. Expected outcome for a
// bad file: DataError. A loaded database must be the one asked for, hold one value a placement
// and a histogram that adds up to them. (Its values are not compared with its histogram: a
// pattern database is verified by its checksums; values that lie behind valid checksums are
// not detectable short of a rebuild, and the histogram is only ever printed.)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "support.hpp"
#include "tilespace/database.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/pdb/database.hpp"

using namespace tilespace;
using namespace tilespace::pdb;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t control = data[0];
  std::vector<std::uint8_t> image(data + 1, data + size);
  const bool keep = (control & 0xF0u) == 0xA0u;
  fuzz::fix_database(image, !(keep && (control & 1u)), !(keep && (control & 2u)), !(keep && (control & 4u)));
  const auto path = fuzz::scratch_path("pattern.pdb");
  fuzz::write_file(path, image);

  // What the store would ask for: the goal and pattern of the file's name, here its header's.
  State goal = canonical_goal(Board(3, 3), 8);
  Pattern pattern{{1}};
  if (image.size() >= kHeaderSize) {
    const int w = image[17], h = image[18];
    if (w >= 2 && h >= 2 && w * h <= kMaxBoardCells) {
      State g{Board(w, h), {}, -1};
      for (int c = 0; c < w * h; ++c) {
        g.tiles[c] = image[72 + c];
        if (g.tiles[c] == 0) g.blank = c;
      }
      if (fuzz::valid_state(g)) goal = g;
    }
    const std::uint32_t k = fuzz::get_u32(image, 68);
    if (k >= 1 && k <= 32) {
      Pattern p;
      for (std::uint32_t i = 0; i < k; ++i) p.tiles.push_back(image[104 + i]);
      pattern = p;
    }
  }
  if (control & 8u) std::reverse(pattern.tiles.begin(), pattern.tiles.end());
  const auto where = (control & 16u) ? PatternDatabase::Residence::pages : PatternDatabase::Residence::mapped;

  std::optional<PatternDatabase> db;
  try {
    db.emplace(PatternDatabase::load(path, goal, pattern, where));
  } catch (const DataError&) {
    return 0;
  }
  fuzz::check(db->goal() == goal && db->pattern() == pattern, "loaded a database of another goal or pattern");
  const auto values = db->values();
  fuzz::check(values.size() == db->ranker().size(), "not one value a placement");
  const std::vector<std::uint64_t>& hist = db->histogram();
  fuzz::check(!hist.empty() && hist[0] == 1, "a bad histogram loaded");
  std::uint64_t sum = 0;
  for (const std::uint64_t h : hist) fuzz::check(h <= values.size() && !__builtin_add_overflow(sum, h, &sum), "a histogram value that lies");
  fuzz::check(sum == values.size(), "a histogram that does not add up");
  // Lookups, as the heuristic makes them: the goal's placement and the last rank's.
  (void)db->value(placement_of(goal, pattern).data());
  std::array<std::uint8_t, kMaxPdbCells> last{};
  db->ranker().unrank(db->ranker().size() - 1, last.data());
  (void)db->value(last.data());
  return 0;
}
