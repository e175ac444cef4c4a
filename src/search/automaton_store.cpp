// The move automaton's file and store (search/automaton.hpp): the database file of kind 4 (save,
// load, every transition checked), where it lives in a database folder, what its build costs, and
// the load-or-build rule of the stores.
#include "tilespace/search/automaton.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <string>

#include "tilespace/database.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::search {

void MoveAutomaton::save(const std::filesystem::path& path) const {
  DatabaseInfo info;
  info.kind = kKindMoveAutomaton;
  info.entries = next_.size();
  info.histogram = histogram();
  info.automaton_depth = static_cast<std::uint32_t>(depth_);
  info.automaton_forbidden = forbidden_;
  save_database(path, info,
                std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(next_.data()), 4 * next_.size()));
}

MoveAutomaton MoveAutomaton::load(const std::filesystem::path& path, int depth) {
  const LoadedDatabase db = load_database(path);  // every field, the checksum and every transition checked
  const std::string name = path.string();
  if (db.info.kind != kKindMoveAutomaton)
    throw DataError(name + (db.info.kind == kKindPatternDatabase ? ": a pattern database" : ": a distance table") +
                    ", not a move automaton");
  if (depth > 0 && db.info.automaton_depth != static_cast<std::uint32_t>(depth))
    throw DataError(name + ": holds the move automaton of depth " + std::to_string(db.info.automaton_depth) +
                    ", not " + std::to_string(depth));
  MoveAutomaton m;
  m.depth_ = static_cast<int>(db.info.automaton_depth);
  m.forbidden_ = db.info.automaton_forbidden;
  m.next_.resize(db.info.entries);
  std::memcpy(m.next_.data(), db.payload.data(), db.payload.size());
  // Every state is reached from the start, at the distances the header holds.
  if (m.histogram() != db.info.histogram)
    throw DataError(name + ": the distances in the header do not match the transitions: the automaton is corrupt");
  return m;
}

std::filesystem::path automaton_path(const std::filesystem::path& dir, int depth) {
  return dir / ("moves-d" + std::to_string(depth) + ".fsm");
}

BuildCost estimate_automaton_build(int depth) {
  // The measurements of the header comment: `tilespace build --automaton --automaton-depth N`
  // under /usr/bin/time (seconds, peak KiB), and the states of the machine (exact).
  struct Measured {
    int depth;
    double seconds;
    double peak_kib;
    double states;
  };
  static constexpr std::array<Measured, 6> kMeasured{{{12, 0.12, 38276, 7794},
                                                      {13, 0.48, 80732, 9791},
                                                      {14, 1.34, 255352, 54923},
                                                      {15, 4.85, 873940, 71647},
                                                      {16, 15.46, 2063580, 395123},
                                                      {17, 66.72, 7153396, 530698}}};
  const Measured& first = kMeasured.front();
  const Measured& last = kMeasured.back();
  Measured m = depth <= first.depth ? first : last;
  for (const Measured& x : kMeasured)
    if (x.depth == depth) m = x;
  if (depth > last.depth) {
    // Each level keeps about 3 times the strings of the one before (level 17: 150 million), and
    // took 3.2 to 4.3 times the time (the larger tables miss the caches more).
    const int more = depth - last.depth;
    m = {depth, last.seconds * std::pow(4.0, more), last.peak_kib * std::pow(3.0, more),
         last.states * std::pow(2.7, more)};
  }
  BuildCost c;
  c.seconds = m.seconds;
  c.memory = static_cast<std::uint64_t>(m.peak_kib * 1024);
  c.disk = static_cast<std::uint64_t>(m.states * 16) + kHeaderSize;
  return c;
}

MoveAutomaton load_or_build_automaton(const std::filesystem::path& dir, int depth, double max_auto_build_seconds,
                                      const std::function<void(const std::string&)>& note) {
  const auto path = automaton_path(dir, depth);
  std::error_code ec;
  const std::string extra = depth == MoveAutomaton::kDefaultDepth
                                ? "--automaton"
                                : "--automaton --automaton-depth " + std::to_string(depth);
  if (std::filesystem::exists(path, ec)) {
    try {
      return MoveAutomaton::load(path, depth);
    } catch (const DataError& e) {  // the message ends with the command that rebuilds the file
      throw with_rebuild(e, build_command(dir, extra + " --force"));
    }
  }
  const BuildCost cost = estimate_automaton_build(depth);
  if (cost.seconds > max_auto_build_seconds) {
    throw too_long_to_build("move automaton of depth " + std::to_string(depth), dir, cost, build_command(dir, extra));
  }
  create_folder(path.parent_path());  // before any work: a mistyped --db is one error
  if (note) note("no move automaton " + path.string() + " yet: building it first");
  MoveAutomaton m = MoveAutomaton::build(depth);
  m.save(path);
  if (note)
    note("built " + path.string() + ": " + std::to_string(m.states()) + " states, " + std::to_string(m.forbidden()) +
         " forbidden strings");
  return m;
}

}  // namespace tilespace::search
