// Pattern databases in memory and on disk: lookup, the file (kind 2 of database.hpp), the folder.
//
// Memory model: a PatternDatabase holds one byte per placement, owned after a build (PageMemory),
// memory-mapped or copied into PageMemory after a load (read-only, shared by every copy). Lookups are one array read.
// Immutable once made; safe to share between threads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tilespace/database.hpp"
#include "tilespace/pdb/build.hpp"
#include "tilespace/pdb/pattern.hpp"

namespace tilespace::pdb {

class PatternDatabase {
 public:
  // Builds the database (see build.hpp).
  static PatternDatabase build(const State& goal, const Pattern& pattern, const BuildOptions& options = {});
  // Where a loaded database's values live: in the mapped file (opens at once), or copied into
  // PageMemory (memory.hpp: huge pages, fewer TLB misses on every lookup). The copy costs about
  // 0.05 s for 7-8 and pays only in long searches: on Korf's 100 with 7-8 (0.15 s of solving) the
  // whole run took 0.23-0.26 s with it, 0.20-0.21 s without; a 24-puzzle IDA* (instance 38, one
  // thread, 141 M generated) 5.75-6.81 s with it, 7.05-7.58 s without. So the store copies on
  // boards above 16 cells (`residence_for`).
  enum class Residence { mapped, pages };
  static Residence residence_for(const Board& board) noexcept {
    return board.cells() > kMaxCells ? Residence::pages : Residence::mapped;
  }
  // Maps and validates `path`, and checks that it holds `pattern` for `goal`; its values stay
  // where `residence_for(goal.board)` says, or `where`.
  // Throws DataError naming the file on any corrupt, truncated or foreign file.
  // A database of the other metric (`metric`: what the file must hold) is refused too.
  static PatternDatabase load(const std::filesystem::path& path, const State& goal, const Pattern& pattern,
                              Metric metric = Metric::single) {
    return load(path, goal, pattern, residence_for(goal.board), metric);
  }
  static PatternDatabase load(const std::filesystem::path& path, const State& goal, const Pattern& pattern,
                              Residence where, Metric metric = Metric::single);
  // Writes the database atomically (temporary file, fsync, rename). Throws DataError on failure.
  void save(const std::filesystem::path& path) const;

  const State& goal() const noexcept { return goal_; }
  const Pattern& pattern() const noexcept { return pattern_; }
  // Single-tile: additive, the blank ignored; multi-tile (build_multi_tile_database): the placement
  // starts with the blank's cell.
  Metric metric() const noexcept { return metric_; }
  const PlacementRanker& ranker() const noexcept { return ranker_; }
  const std::vector<std::uint64_t>& histogram() const noexcept { return histogram_; }
  std::span<const std::uint8_t> values() const noexcept { return values_; }

  // The fewest moves of the pattern's tiles to bring them home from `placement` (cells in
  // pattern order; multi-tile: the blank's cell, then the tiles'). Precondition: a valid placement.
  int value(const std::uint8_t* placement) const noexcept { return values_[ranker_.rank(placement)]; }
  int value_at(std::uint64_t rank) const noexcept { return values_[rank]; }

 private:
  PatternDatabase(State goal, Pattern pattern, Metric metric);
  State goal_;
  Pattern pattern_;
  Metric metric_;
  PlacementRanker ranker_;
  std::vector<std::uint64_t> histogram_;
  std::shared_ptr<const void> owner_;  // the built bytes or the mapped file
  std::span<const std::uint8_t> values_;
};

// The pattern database file at `path` (database.hpp), loaded and checked to be of `kind` (2 or 6)
// and to hold `pattern` for `goal`. Throws DataError naming the file.
LoadedDatabase load_pattern_file(const std::filesystem::path& path, std::uint8_t kind, const State& goal,
                                 const Pattern& pattern);
// A loaded file's payload where `where` says: the mapping itself, or a copy in PageMemory (the
// mapping then released). Returns the bytes and what keeps them alive.
std::pair<std::span<const std::uint8_t>, std::shared_ptr<const void>> resident_payload(
    const LoadedDatabase& file, PatternDatabase::Residence where, const std::string& what);

struct PdbStoreOptions {
  std::filesystem::path dir = "out";
  BuildOptions build;                             // threads and progress for builds
  std::function<void(const std::string&)> note;  // one-line notices (estimate, building, built)
  // Missing databases whose builds are estimated (estimate_build) to take longer than this in all
  // are not built on the fly: get() throws DataError with the estimate and the `tilespace build`
  // command instead (table_store.hpp: too_long_to_build). `tilespace build` sets it to infinity.
  double max_auto_build_seconds = 60;
};

class ZeroAwareDatabase;

// The database folder: files <W>x<H>-<goal>-p<tiles>.pdb, e.g. out/4x4-0-1-2-...-15-p1.2.3.4.5.6.7.pdb,
// for zero-aware databases (zero_aware.hpp) <W>x<H>-<goal>-z<tiles>.zpdb, and for multi-tile ones
// (a store whose options.build.metric is multi: build_multi_tile_database) <W>x<H>-<goal>-m<tiles>.pdb.
// Loads on demand, builds and saves the missing ones (announcing the estimated time and memory
// first) when that is short, caches them. Not thread-safe; the databases it hands out are.
// Each function taking `zero_aware` means the zero-aware database of the pattern when it is true.
class PdbStore {
 public:
  explicit PdbStore(PdbStoreOptions options);
  const PdbStoreOptions& options() const noexcept { return options_; }
  std::filesystem::path path_for(const State& goal, const Pattern& pattern, bool zero_aware = false) const;
  // Whether the file of `pattern` for `goal` exists (it is not read).
  bool has(const State& goal, const Pattern& pattern, bool zero_aware = false) const;
  // What building the partition's missing databases costs: the sum of their times and files;
  // memory: every database of the partition (mapped for the search) plus the marks of the largest
  // build (build.hpp: a byte a placement).
  BuildCost estimate(const State& goal, const Partition& partition, bool zero_aware = false) const;
  // From memory, else its file, else built and saved. Throws DataError for a bad file or when the
  // build is estimated over max_auto_build_seconds (naming `tilespace build --pdb <its tiles>`),
  // ResourceError if a build does not fit.
  std::shared_ptr<const PatternDatabase> get(const State& goal, const Pattern& pattern);
  // Every database of the partition, in its order. The missing ones are built only if together
  // they are estimated within max_auto_build_seconds; else nothing is built and the DataError
  // names the partition's build command (`tilespace build --board 4x4 --pdb 7-8`).
  std::vector<std::shared_ptr<const PatternDatabase>> get(const State& goal, const Partition& partition);
  // The same for zero-aware databases (`tilespace build --zpdb <tiles>`).
  std::shared_ptr<const ZeroAwareDatabase> get_zero_aware(const State& goal, const Pattern& pattern);
  std::vector<std::shared_ptr<const ZeroAwareDatabase>> get_zero_aware(const State& goal, const Partition& partition);
  // Builds and saves even if the file exists.
  std::shared_ptr<const PatternDatabase> build(const State& goal, const Pattern& pattern);
  std::shared_ptr<const ZeroAwareDatabase> build_zero_aware(const State& goal, const Pattern& pattern);

 private:
  template <class Db>
  std::shared_ptr<const Db> get_as(const State& goal, const Pattern& pattern);
  template <class Db>
  std::shared_ptr<const Db> build_as(const State& goal, const Pattern& pattern);
  void check_build_time(const State& goal, const Partition& partition, bool zero_aware) const;
  std::string metric_flag() const;  // "--metric multi " for a multi-tile store, else ""
  std::string kind_words(bool zero_aware) const;  // "pattern", "zero-aware pattern" or "multi-tile pattern"
  PdbStoreOptions options_;
  std::map<std::string, std::shared_ptr<const PatternDatabase>> cache_;
  std::map<std::string, std::shared_ptr<const ZeroAwareDatabase>> zero_aware_cache_;
};

// The board's stock partitions for `goal` in `metric` (pattern.hpp: stock_partitions), the
// strongest first (stronger = more placements in all; 3x3: 4-4; 4x4: 7-8, 6-6-3, 5-5-5, multi-tile
// 7-7, 6-6; 5x5: 6-6-6-6). Throws as choose_partition.
std::vector<Partition> stock_by_strength(const State& goal, Metric metric = Metric::single);

// The partition `solve --heuristic pdb` (zpdb: `zero_aware`; mpdb: a multi-tile store) uses for `goal`: the strongest stock
// partition whose files are all in the store; else the strongest whose missing databases build within the
// store's max_auto_build_seconds (built on first use, with a notice); else the strongest, so that
// get() names the command that builds it. Throws InputError when the board has no stock partition
// or the goal's blank is not in a corner (parse_partition).
Partition choose_partition(const PdbStore& store, const State& goal, bool zero_aware = false);

// The stock catalogue of the goal's board (parse_partition: "max7" on 5x5). Throws InputError
// when the board has none, or as parse_partition.
Partition stock_catalogue(const State& goal);

// What the default search (`solve` without --heuristic on 4x4 and 5x5) uses: the fastest
// pattern databases whose files are all in the store, in the order measured on the 24-puzzle
// (docs/benchmarks.md): each stock partition from the strongest, its zero-aware databases before
// its additive ones; then the board's stock catalogue (fewer nodes, but each costs about three
// times as much: slower on every instance measured); when none is built, choose_partition's
// additive pick. `zero_aware` tells which kind was chosen; a chosen catalogue is one
// (Partition::catalogue()).
struct DefaultChoice {
  Partition partition;
  bool zero_aware = false;
};
DefaultChoice choose_default(const PdbStore& store, const State& goal);

}  // namespace tilespace::pdb
