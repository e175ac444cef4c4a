// Fuzz target: move-automaton files (kind 4) through search/automaton.hpp's MoveAutomaton::load,
// and what IDA* and `build --automaton` do with a loaded machine (next, run, count_paths,
// branching_factor).
//
// Input: byte 0 is the harness's control, the rest the file's image. The checksums are recomputed
// as fuzz_table does (bytes 0xA0-0xAF of byte 0 leave some as they are). Bits 3-4 of byte 0 choose
// the depth asked for: any (0), the header's, or the header's + 1 (a file of another depth).
// Expected outcome for a bad file: DataError. A loaded machine must have every transition to a
// state or kDead, every state reached from the start at the distances its histogram gives, and
// the depth asked for.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "support.hpp"
#include "tilespace/board.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/search/automaton.hpp"

using namespace tilespace;
using search::MoveAutomaton;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t control = data[0];
  std::vector<std::uint8_t> image(data + 1, data + size);
  const bool keep = (control & 0xF0u) == 0xA0u;
  fuzz::fix_database(image, !(keep && (control & 1u)), !(keep && (control & 2u)), !(keep && (control & 4u)));
  const auto path = fuzz::scratch_path("moves.fsm");
  fuzz::write_file(path, image);

  const int header_depth = static_cast<int>(fuzz::get_u32(image, 136) & 0x3FFFFFFFu);
  const int asked = (control >> 3) % 3 == 0 ? 0 : (control >> 3) % 3 == 1 ? header_depth : header_depth + 1;
  std::optional<MoveAutomaton> m;
  try {
    m.emplace(MoveAutomaton::load(path, asked));
  } catch (const DataError&) {
    return 0;
  }
  fuzz::check(asked == 0 || m->depth() == asked, "loaded a machine of another depth");
  fuzz::check(m->depth() >= MoveAutomaton::kMinDepth && m->depth() <= MoveAutomaton::kMaxDepth, "a depth out of range");
  fuzz::check(m->states() >= 1 && m->table().size() == 4 * m->states(), "a machine without states");
  for (const std::uint32_t q : m->table())
    fuzz::check(q == MoveAutomaton::kDead || q < m->states(), "a transition to no state: " + std::to_string(q));
  std::uint64_t reached = 0;
  for (const std::uint64_t h : m->histogram()) reached += h;
  fuzz::check(reached == m->states(), "a state not reached from the start");

  // What the searches and `build --automaton` read.
  std::uint32_t q = m->start();
  for (std::size_t i = 0; i < image.size() && i < 64 && q != MoveAutomaton::kDead; ++i)
    q = m->next(q, static_cast<Dir>(image[image.size() - 1 - i] & 3u));
  (void)m->run("UDLRRDLUUL");
  for (const Board& b : {Board(2, 2), Board(3, 3), Board(5, 5)}) {
    const std::vector<std::uint64_t> with = search::count_paths(b, &*m, 12);
    const std::vector<std::uint64_t> without = search::count_paths(b, nullptr, 12);
    fuzz::check(with.size() == 13 && with[0] == without[0], "count_paths: the wrong lengths");
    (void)search::branching_factor(b, &*m, 12);
  }
  return 0;
}
