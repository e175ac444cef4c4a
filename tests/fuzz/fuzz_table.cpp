// Fuzz target: the database loader (database.hpp's load_database, any kind) and the distance
// tables it gives, byte (kind 1), two-bit (kind 3) and one-bit (kind 5): DistanceTable::from_database
// and what reads a loaded table (distance, descend, farthest, verify_all, RandomStates with a depth).
//
// Input: byte 0 is the harness's control, the rest the file's image. The image's checksums are
// recomputed first (support.hpp's fix_database: with the chunk size, offsets and counts the header
// claims), so that a header whose sizes, offsets, counts or histogram lie reaches the loader's
// checks instead of its checksums; when byte 0 is 0xA0-0xAF its bits 0-2 leave the chunk sums,
// the payload checksum or the header checksum as they are (the corrupt-file paths). Byte 0 also
// picks the depth asked of RandomStates. Expected outcome for a bad file: DataError. A loaded
// file must hold what its header says (a byte table's largest depth is its radius), and what reads
// a table must answer within its radius or find it inconsistent (DataError), never hang.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "support.hpp"
#include "tilespace/database.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/goal_table.hpp"
#include "tilespace/random_states.hpp"

using namespace tilespace;

namespace {

// What every loaded database must satisfy, whatever its kind.
void check_info(const LoadedDatabase& db) {
  const DatabaseInfo& i = db.info;
  fuzz::check(i.kind >= 1 && i.kind <= 5, "an unknown kind loaded");
  fuzz::check(!i.histogram.empty() && i.histogram.size() <= 480 && i.histogram[0] == 1, "a bad histogram loaded");
  const std::uint64_t states = i.kind == kKindMoveAutomaton ? i.entries / 4 : i.entries;
  std::uint64_t sum = 0;
  for (const std::uint64_t h : i.histogram) {
    fuzz::check(h <= states, "a histogram value above the entry count: " + std::to_string(h));
    fuzz::check(!__builtin_add_overflow(sum, h, &sum), "a histogram whose sum overflows");
  }
  fuzz::check(sum == states, "a histogram that does not add up");
  const std::uint64_t bytes = i.kind == kKindTwoBitTable     ? (i.entries + 31) / 32 * 8
                              : i.kind == kKindOneBitTable   ? (i.entries + 63) / 64 * 8
                              : i.kind == kKindMoveAutomaton ? 4 * i.entries
                                                             : i.entries;
  fuzz::check(db.payload.size() == bytes, "a payload of another size than the header's");
  if (i.kind != kKindMoveAutomaton) fuzz::check(fuzz::valid_state(i.goal), "an invalid goal loaded");
  if (i.kind == kKindTwoBitTable || i.kind == kKindOneBitTable) {
    fuzz::check(i.farthest.size() <= kFarthestKept, "too many farthest states");
    for (std::size_t k = 0; k < i.farthest.size(); ++k)
      fuzz::check(i.farthest[k] < i.entries && (k == 0 || i.farthest[k] > i.farthest[k - 1]), "bad farthest ranks");
  }
}

State state_of_rank(const DistanceTable& t, std::uint64_t r) {
  const State goal = t.goal();
  const Labelling lab(goal);
  std::array<std::uint8_t, kMaxCells> tile_of{};
  for (int tile = 1; tile < goal.cells(); ++tile) tile_of[lab.label[tile]] = static_cast<std::uint8_t>(tile);
  Sequence seq{};
  const int blank = t.ranker().unrank(r, seq);
  State s{t.board(), {}, blank};
  for (int c = 0, k = 0; c < goal.cells(); ++c)
    if (c != blank) s.tiles[c] = tile_of[seq[k++]];
  return s;
}

// One state's distance and path, as `query` and `solve --algorithm table` read them.
void check_state(const DistanceTable& t, const State& s) {
  const State goal = t.goal();
  std::optional<int> d;
  try {
    d = t.distance(s, goal);
  } catch (const DataError&) {  // a two-bit or one-bit table found inconsistent by its descent
    fuzz::check(t.by_descent(), "a byte table's lookup threw");
    return;
  }
  fuzz::check(d.has_value(), "a state of a rank is unreachable");
  fuzz::check(*d >= 0 && *d <= t.radius(), "a distance beyond the radius: " + std::to_string(*d));
  // A descent (two-bit or one-bit) ends only at the goal. (A byte table's depths are trusted as its checksum
  // covers them: values that lie behind a valid checksum are not detectable short of a rebuild;
  // what reads them must still not crash, hang or print a path that misses the goal.)
  if (t.by_descent()) fuzz::check((*d == 0) == (s == goal), "distance 0 is not the goal");
  std::vector<State> path;
  try {
    path = t.descend(s, goal);
  } catch (const DataError&) {
    return;
  }
  fuzz::check(path.size() == static_cast<std::size_t>(*d) + 1 && path.front() == s && path.back() == goal,
              "descend: not a path of the distance's length to the goal");
  for (std::size_t k = 1; k < path.size(); ++k) {
    const auto& nb = t.board().neighbours(path[k - 1].blank);
    bool move = false;
    for (int i = 0; i < nb.count; ++i) move = move || path[k - 1].moved(nb.cell[i]) == path[k];
    fuzz::check(move, "descend: a step that is not a move");
  }
}

void check_table(const DistanceTable& t, std::uint8_t control, std::uint64_t salt) {
  if (!t.by_descent()) {
    // The radius is a byte table's largest depth (what `stats` prints, where `farthest` looks).
    int largest = 0;
    for (const std::uint8_t v : t.depths()) largest = std::max<int>(largest, v);
    fuzz::check(largest == t.radius(), "a byte table's largest depth " + std::to_string(largest) + " is not its radius " +
                                           std::to_string(t.radius()));
  } else {
    try {
      t.verify_all(1);
    } catch (const DataError&) {
      return;  // a corrupt chunk: nothing of it may be read
    }
  }
  check_state(t, t.goal());
  const std::uint64_t size = t.ranker().size();
  for (int k = 0; k < 4; ++k) check_state(t, state_of_rank(t, (salt >> (8 * k)) * 2654435761u % size));
  for (const State& s : t.farthest(t.goal(), 4)) {
    fuzz::check(fuzz::valid_state(s) && s.board == t.board(), "farthest: an invalid state");
    if (!t.by_descent()) fuzz::check(t.distance(s, t.goal()) == t.radius(), "farthest: not at the radius");
  }
  // Random states at a depth (-1 .. radius + 1): rejection or the collected ranks.
  RandomOptions ro;
  ro.depth = static_cast<int>(control % (t.radius() + 3)) - 1;
  ro.seed = salt;
  try {
    const GoalTable view(t, t.ranker().goal_blank());
    RandomStates rs(t.goal(), ro, &view);
    for (int k = 0; k < 3; ++k) {
      const State s = rs.next();
      fuzz::check(fuzz::valid_state(s) && s.board == t.board(), "RandomStates: an invalid state");
      if (!t.by_descent()) fuzz::check(t.distance(s, t.goal()) == ro.depth, "RandomStates: a state at another depth");
    }
  } catch (const InputError& e) {
    fuzz::check(e.about == InputError::About::option && e.name == "depth", "RandomStates: an error not about the depth");
  } catch (const DataError&) {  // the table found inconsistent
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t control = data[0];
  std::vector<std::uint8_t> image(data + 1, data + size);
  const bool keep = (control & 0xF0u) == 0xA0u;
  fuzz::fix_database(image, !(keep && (control & 1u)), !(keep && (control & 2u)), !(keep && (control & 4u)));
  const auto path = fuzz::scratch_path("table.tsdb");
  fuzz::write_file(path, image);

  LoadedDatabase db;
  try {
    db = load_database(path);
  } catch (const DataError&) {
    return 0;
  }
  check_info(db);
  const std::uint8_t kind = db.info.kind;
  if (kind != kKindDistanceTable && kind != kKindTwoBitTable && kind != kKindOneBitTable) return 0;
  std::optional<DistanceTable> t;
  try {
    t.emplace(DistanceTable::from_database(std::move(db)));
  } catch (const DataError&) {
    return 0;
  }
  std::uint64_t salt = 0;
  for (const std::uint8_t b : image) salt = salt * 1099511628211u + b;
  check_table(*t, control, salt);
  return 0;
}
