#include "tilespace/pdb/database.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <tuple>
#include <utility>

#include "tilespace/database.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/table_store.hpp"
#include "tilespace/pdb/zero_aware.hpp"

namespace tilespace::pdb {

PatternDatabase::PatternDatabase(State goal, Pattern pattern, Metric metric)
    : goal_(std::move(goal)), pattern_(std::move(pattern)), metric_(metric),
      ranker_(goal_.cells(), static_cast<int>(pattern_.tiles.size()) + (metric == Metric::multi ? 1 : 0)) {}

PatternDatabase PatternDatabase::build(const State& goal, const Pattern& pattern, const BuildOptions& options) {
  PatternDatabase db(goal, pattern, options.metric);
  auto built = std::make_shared<BuiltDatabase>(build_pattern_database(goal, pattern, options));
  db.histogram_ = built->histogram;
  db.values_ = built->values;
  db.owner_ = std::move(built);
  return db;
}

LoadedDatabase load_pattern_file(const std::filesystem::path& path, std::uint8_t kind, const State& goal,
                                 const Pattern& pattern) {
  LoadedDatabase file = load_database(path);
  const std::string name = path.string();
  if (file.info.kind != kind)
    throw DataError(name + (kind == kKindZeroAwareDatabase ? ": not a zero-aware pattern database" : ": not a pattern database"));
  if (!(file.info.goal == goal))
    throw DataError(name + ": built for the goal " + file.info.goal.to_string() + ", not " + goal.to_string());
  if (file.info.pattern != pattern.tiles)
    throw DataError(name + ": holds pattern " + Pattern{file.info.pattern}.name() + ", not " + pattern.name());
  return file;
}

std::pair<std::span<const std::uint8_t>, std::shared_ptr<const void>> resident_payload(
    const LoadedDatabase& file, PatternDatabase::Residence where, const std::string& what) {
  if (where == PatternDatabase::Residence::pages) {  // the mapped file (already verified) copied, then unmapped
    auto copy = std::make_shared<PageMemory>(copy_to_pages(file.payload, what));
    const std::span<const std::uint8_t> bytes = copy->bytes().first(file.payload.size());
    return {bytes, std::move(copy)};
  }
  return {file.payload, file.file};
}

PatternDatabase PatternDatabase::load(const std::filesystem::path& path, const State& goal, const Pattern& pattern,
                                      Residence where, Metric metric) {
  LoadedDatabase file = load_pattern_file(path, kKindPatternDatabase, goal, pattern);
  if (file.info.metric != metric)
    throw DataError(path.string() + ": holds " + std::string(metric_name(file.info.metric)) + "-tile distances, not " +
                    std::string(metric_name(metric)) + "-tile ones");
  PatternDatabase db(goal, pattern, metric);
  db.histogram_ = std::move(file.info.histogram);
  std::tie(db.values_, db.owner_) = resident_payload(file, where, "pattern database " + path.string());
  return db;
}

void PatternDatabase::save(const std::filesystem::path& path) const {
  DatabaseInfo info;
  info.kind = kKindPatternDatabase;
  info.metric = metric_;
  info.goal = goal_;
  info.entries = ranker_.size();
  info.pattern = pattern_.tiles;
  info.histogram = histogram_;
  save_database(path, info, values_);
}

PdbStore::PdbStore(PdbStoreOptions options) : options_(std::move(options)) {}

std::string PdbStore::metric_flag() const {
  return options_.build.metric == Metric::multi ? "--metric multi " : "";
}

std::string PdbStore::kind_words(bool zero_aware) const {
  return zero_aware ? "zero-aware pattern" : options_.build.metric == Metric::multi ? "multi-tile pattern" : "pattern";
}

namespace {

// What the store does differently for the two kinds of database.
template <class Db>
struct Kind;
template <>
struct Kind<PatternDatabase> {
  static constexpr bool kZeroAware = false;
  static constexpr const char* kFlag = "--pdb ";
  static BuildEstimate estimate(const Board& b, const Pattern& p, int threads, Metric m) {
    return estimate_build(b, p, threads, m);
  }
  static int radius(const PatternDatabase& db) { return static_cast<int>(db.histogram().size()) - 1; }
  static PatternDatabase load(const std::filesystem::path& path, const State& goal, const Pattern& p, Metric m) {
    return PatternDatabase::load(path, goal, p, m);
  }
};
template <>
struct Kind<ZeroAwareDatabase> {
  static constexpr bool kZeroAware = true;
  static constexpr const char* kFlag = "--zpdb ";
  static BuildEstimate estimate(const Board& b, const Pattern& p, int threads, Metric) {
    return estimate_zero_aware(b, p, threads);
  }
  static int radius(const ZeroAwareDatabase& db) { return static_cast<int>(db.histogram().size()) - 1; }
  static ZeroAwareDatabase load(const std::filesystem::path& path, const State& goal, const Pattern& p, Metric) {
    return ZeroAwareDatabase::load(path, goal, p);
  }
};

BuildEstimate estimate_of(const Board& b, const Pattern& p, int threads, bool zero_aware, Metric m) {
  return zero_aware ? estimate_zero_aware(b, p, threads) : estimate_build(b, p, threads, m);
}

}  // namespace

std::filesystem::path PdbStore::path_for(const State& goal, const Pattern& pattern, bool zero_aware) const {
  std::string tiles;
  for (const auto t : pattern.tiles) {
    if (!tiles.empty()) tiles += '.';
    tiles += std::to_string(t);
  }
  return options_.dir /
         (goal.board.name() + "-" + goal.compact() +
          (zero_aware ? "-z" : options_.build.metric == Metric::multi ? "-m" : "-p") + tiles + (zero_aware ? ".zpdb" : ".pdb"));
}

bool PdbStore::has(const State& goal, const Pattern& pattern, bool zero_aware) const {
  std::error_code ec;
  const auto path = path_for(goal, pattern, zero_aware);
  const bool cached = zero_aware ? zero_aware_cache_.count(path.string()) != 0 : cache_.count(path.string()) != 0;
  return cached || (std::filesystem::exists(path, ec) && !database_outdated(path));
}

BuildCost PdbStore::estimate(const State& goal, const Partition& partition, bool zero_aware) const {
  BuildCost c;
  std::uint64_t largest = 0;
  for (const auto& p : partition.patterns) {
    const BuildEstimate e = estimate_of(goal.board, p, options_.build.threads, zero_aware, options_.build.metric);
    // In memory for the search: a byte a placement, or a bit an entry.
    c.memory += zero_aware ? (e.entries + 7) / 8 : e.entries;
    if (has(goal, p, zero_aware)) continue;
    c.seconds += e.seconds;
    c.disk += e.disk;
    largest = std::max(largest, zero_aware ? e.bytes : e.entries);
  }
  c.memory += largest;
  return c;
}

void PdbStore::check_build_time(const State& goal, const Partition& partition, bool zero_aware) const {
  const BuildCost c = estimate(goal, partition, zero_aware);
  if (c.seconds <= options_.max_auto_build_seconds) return;
  std::string spec = partition.name;
  const bool plain = std::all_of(spec.begin(), spec.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == ',' || ch == '/';
  });
  if (!plain) spec = "'" + spec + "'";  // a spec has no quote of its own (parse_partition)
  throw too_long_to_build(kind_words(zero_aware) + " database " + partition.name,
                          goal, options_.dir, c, build_command(goal, options_.dir, metric_flag() + (zero_aware ? "--zpdb " : "--pdb ") + spec));
}

template <class Db>
std::shared_ptr<const Db> PdbStore::get_as(const State& goal, const Pattern& pattern) {
  constexpr bool z = Kind<Db>::kZeroAware;
  auto& cache = [this]() -> auto& {
    if constexpr (z) return zero_aware_cache_; else return cache_;
  }();
  const auto path = path_for(goal, pattern, z);
  if (const auto it = cache.find(path.string()); it != cache.end()) return it->second;
  if (!has(goal, pattern, z)) {  // missing, or of an older format: built (under the time limit)
    check_build_time(goal, Partition{pattern.name(), {pattern}, {}}, z);
    return build_as<Db>(goal, pattern);
  }
  std::shared_ptr<const Db> db;
  try {
    db = std::make_shared<const Db>(Kind<Db>::load(path, goal, pattern, options_.build.metric));
  } catch (const DataError& e) {  // the message ends with the command that rebuilds the file
    throw with_rebuild(e, build_command(goal, options_.dir, metric_flag() + Kind<Db>::kFlag + pattern.name() + " --force"));
  }
  cache[path.string()] = db;
  return db;
}

std::shared_ptr<const PatternDatabase> PdbStore::get(const State& goal, const Pattern& pattern) {
  return get_as<PatternDatabase>(goal, pattern);
}

std::shared_ptr<const ZeroAwareDatabase> PdbStore::get_zero_aware(const State& goal, const Pattern& pattern) {
  return get_as<ZeroAwareDatabase>(goal, pattern);
}

std::vector<std::shared_ptr<const PatternDatabase>> PdbStore::get(const State& goal, const Partition& partition) {
  check_build_time(goal, partition, false);
  std::vector<std::shared_ptr<const PatternDatabase>> dbs;
  for (const auto& p : partition.patterns) dbs.push_back(get(goal, p));
  return dbs;
}

std::vector<std::shared_ptr<const ZeroAwareDatabase>> PdbStore::get_zero_aware(const State& goal,
                                                                                const Partition& partition) {
  check_build_time(goal, partition, true);
  std::vector<std::shared_ptr<const ZeroAwareDatabase>> dbs;
  for (const auto& p : partition.patterns) dbs.push_back(get_zero_aware(goal, p));
  return dbs;
}

std::vector<Partition> stock_by_strength(const State& goal, Metric metric) {
  const Board& b = goal.board;
  std::vector<Partition> stock;
  for (const auto& name : stock_partitions(b, metric)) stock.push_back(parse_partition(name, goal));
  if (stock.empty()) throw InputError("no stock partition for the " + b.name() + " board: give --pattern 1,2,3/4,5,6");
  auto placements = [&](const Partition& p) {
    std::uint64_t n = 0;
    for (const auto& pat : p.patterns) n += estimate_build(b, pat, 1).entries;
    return n;
  };
  std::stable_sort(stock.begin(), stock.end(),
                   [&](const Partition& x, const Partition& y) { return placements(x) > placements(y); });
  return stock;
}

Partition choose_partition(const PdbStore& store, const State& goal, bool zero_aware) {
  const std::vector<Partition> stock = stock_by_strength(goal, store.options().build.metric);
  for (const auto& p : stock)
    if (std::all_of(p.patterns.begin(), p.patterns.end(),
                    [&](const Pattern& pat) { return store.has(goal, pat, zero_aware); }))
      return p;
  for (const auto& p : stock)
    if (store.estimate(goal, p, zero_aware).seconds <= store.options().max_auto_build_seconds) return p;
  return stock.front();
}

Partition stock_catalogue(const State& goal) {
  const auto names = stock_catalogues(goal.board);
  if (names.empty())
    throw InputError("no stock catalogue for the " + goal.board.name() + " board: join partitions with '+', e.g. " +
                     "--heuristic catalogue:1,2,3/4,5,6+1,4,5/2,3,6");
  return parse_partition(names.front(), goal);
}

DefaultChoice choose_default(const PdbStore& store, const State& goal) {
  auto built = [&](const Partition& p, bool zero_aware) {
    return std::all_of(p.patterns.begin(), p.patterns.end(),
                       [&](const Pattern& pat) { return store.has(goal, pat, zero_aware); });
  };
  const std::vector<Partition> stock = stock_by_strength(goal);
  for (const auto& p : stock)
    for (const bool zero_aware : {true, false})
      if (built(p, zero_aware)) return {p, zero_aware};
  for (const auto& name : stock_catalogues(goal.board)) {
    try {
      if (Partition c = parse_partition(name, goal); built(c, true)) return {std::move(c), true};
    } catch (const InputError&) {  // the goal's blank is not in a corner: choose_partition says so
    }
  }
  return {choose_partition(store, goal, false), false};
}

template <class Db>
std::shared_ptr<const Db> PdbStore::build_as(const State& goal, const Pattern& pattern) {
  constexpr bool z = Kind<Db>::kZeroAware;
  const auto path = path_for(goal, pattern, z);
  create_folder(path.parent_path());  // before any work: a mistyped --db is one error, nothing built
  if (options_.note) {
    const BuildEstimate e = Kind<Db>::estimate(goal.board, pattern, options_.build.threads, options_.build.metric);
    char buf[320];
    std::snprintf(buf, sizeof buf, "building %s %s: %llu entries, %.0f MiB of memory, about %.0f s, into %s",
                  kind_words(z).c_str(), pattern.name().c_str(), static_cast<unsigned long long>(e.entries),
                  static_cast<double>(e.bytes) / (1 << 20), e.seconds, path.string().c_str());
    options_.note(buf);
  }
  Db::build(goal, pattern, options_.build).save(path);
  // The built copy is gone; load the file as any other (the page cache holds its bytes).
  auto mapped = std::make_shared<const Db>(Kind<Db>::load(path, goal, pattern, options_.build.metric));
  if (options_.note) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "built %s (largest value %d)", path.string().c_str(), Kind<Db>::radius(*mapped));
    options_.note(buf);
  }
  if constexpr (z) zero_aware_cache_[path.string()] = mapped; else cache_[path.string()] = mapped;
  return mapped;
}

std::shared_ptr<const PatternDatabase> PdbStore::build(const State& goal, const Pattern& pattern) {
  return build_as<PatternDatabase>(goal, pattern);
}

std::shared_ptr<const ZeroAwareDatabase> PdbStore::build_zero_aware(const State& goal, const Pattern& pattern) {
  return build_as<ZeroAwareDatabase>(goal, pattern);
}

}  // namespace tilespace::pdb
