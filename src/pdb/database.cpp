#include "tilespace/pdb/database.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "tilespace/database.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::pdb {

PatternDatabase::PatternDatabase(State goal, Pattern pattern)
    : goal_(std::move(goal)), pattern_(std::move(pattern)),
      ranker_(goal_.cells(), static_cast<int>(pattern_.tiles.size())) {}

PatternDatabase PatternDatabase::build(const State& goal, const Pattern& pattern, const BuildOptions& options) {
  PatternDatabase db(goal, pattern);
  auto built = std::make_shared<BuiltDatabase>(build_pattern_database(goal, pattern, options));
  db.histogram_ = built->histogram;
  db.values_ = built->values;
  db.owner_ = std::move(built);
  return db;
}

PatternDatabase PatternDatabase::load(const std::filesystem::path& path, const State& goal, const Pattern& pattern,
                                      Residence where) {
  LoadedDatabase file = load_database(path);
  const std::string name = path.string();
  if (file.info.kind != kKindPatternDatabase) throw DataError(name + ": not a pattern database");
  if (!(file.info.goal == goal))
    throw DataError(name + ": built for the goal " + file.info.goal.to_string() + ", not " + goal.to_string());
  if (file.info.pattern != pattern.tiles)
    throw DataError(name + ": holds pattern " + Pattern{file.info.pattern}.name() + ", not " + pattern.name());
  PatternDatabase db(goal, pattern);
  db.histogram_ = std::move(file.info.histogram);
  if (where == Residence::pages) {  // the mapped file (already verified) copied, then unmapped
    auto values = std::make_shared<PageMemory>(copy_to_pages(file.payload, "pattern database " + name));
    db.values_ = values->bytes();
    db.owner_ = std::move(values);
  } else {
    db.values_ = file.payload;
    db.owner_ = std::move(file.file);
  }
  return db;
}

void PatternDatabase::save(const std::filesystem::path& path) const {
  DatabaseInfo info;
  info.kind = kKindPatternDatabase;
  info.goal = goal_;
  info.entries = ranker_.size();
  info.pattern = pattern_.tiles;
  info.histogram = histogram_;
  save_database(path, info, values_);
}

PdbStore::PdbStore(PdbStoreOptions options) : options_(std::move(options)) {}

std::filesystem::path PdbStore::path_for(const State& goal, const Pattern& pattern) const {
  std::string tiles;
  for (const auto t : pattern.tiles) {
    if (!tiles.empty()) tiles += '.';
    tiles += std::to_string(t);
  }
  return options_.dir / (goal.board.name() + "-" + goal.compact() + "-p" + tiles + ".pdb");
}

bool PdbStore::has(const State& goal, const Pattern& pattern) const {
  std::error_code ec;
  const auto path = path_for(goal, pattern);
  return cache_.count(path.string()) || (std::filesystem::exists(path, ec) && !database_outdated(path));
}

BuildCost PdbStore::estimate(const State& goal, const Partition& partition) const {
  BuildCost c;
  std::uint64_t largest = 0;
  for (const auto& p : partition.patterns) {
    const BuildEstimate e = estimate_build(goal.board, p, options_.build.threads);
    c.memory += e.entries;
    if (has(goal, p)) continue;
    c.seconds += e.seconds;
    c.disk += e.disk;
    largest = std::max(largest, e.entries);
  }
  c.memory += largest;
  return c;
}

void PdbStore::check_build_time(const State& goal, const Partition& partition) const {
  const BuildCost c = estimate(goal, partition);
  if (c.seconds <= options_.max_auto_build_seconds) return;
  std::string spec = partition.name;
  const bool plain = std::all_of(spec.begin(), spec.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == ',' || ch == '/';
  });
  if (!plain) spec = "'" + spec + "'";  // a spec has no quote of its own (parse_partition)
  throw too_long_to_build("pattern database " + partition.name, goal, options_.dir, c,
                          build_command(goal, options_.dir, "--pdb " + spec));
}

std::shared_ptr<const PatternDatabase> PdbStore::get(const State& goal, const Pattern& pattern) {
  const auto path = path_for(goal, pattern);
  if (const auto it = cache_.find(path.string()); it != cache_.end()) return it->second;
  if (!has(goal, pattern)) {  // missing, or of an older format: built (under the time limit)
    check_build_time(goal, Partition{pattern.name(), {pattern}});
    return build(goal, pattern);
  }
  std::shared_ptr<const PatternDatabase> db;
  try {
    db = std::make_shared<const PatternDatabase>(PatternDatabase::load(path, goal, pattern));
  } catch (const DataError& e) {  // the message ends with the command that rebuilds the file
    throw with_rebuild(e, build_command(goal, options_.dir, "--pdb " + pattern.name() + " --force"));
  }
  cache_[path.string()] = db;
  return db;
}

std::vector<std::shared_ptr<const PatternDatabase>> PdbStore::get(const State& goal, const Partition& partition) {
  check_build_time(goal, partition);
  std::vector<std::shared_ptr<const PatternDatabase>> dbs;
  for (const auto& p : partition.patterns) dbs.push_back(get(goal, p));
  return dbs;
}

std::vector<Partition> stock_by_strength(const State& goal) {
  const Board& b = goal.board;
  std::vector<Partition> stock;
  for (const auto& name : stock_partitions(b)) stock.push_back(parse_partition(name, goal));
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

Partition choose_partition(const PdbStore& store, const State& goal) {
  const std::vector<Partition> stock = stock_by_strength(goal);
  for (const auto& p : stock)
    if (std::all_of(p.patterns.begin(), p.patterns.end(), [&](const Pattern& pat) { return store.has(goal, pat); }))
      return p;
  for (const auto& p : stock)
    if (store.estimate(goal, p).seconds <= store.options().max_auto_build_seconds) return p;
  return stock.front();
}

std::shared_ptr<const PatternDatabase> PdbStore::build(const State& goal, const Pattern& pattern) {
  const auto path = path_for(goal, pattern);
  create_folder(path.parent_path());  // before any work: a mistyped --db is one error, nothing built
  if (options_.note) {
    const BuildEstimate e = estimate_build(goal.board, pattern, options_.build.threads);
    char buf[256];
    std::snprintf(buf, sizeof buf, "building pattern %s: %llu entries, %.0f MiB of memory, about %.0f s, into %s",
                  pattern.name().c_str(), static_cast<unsigned long long>(e.entries),
                  static_cast<double>(e.bytes) / (1 << 20), e.seconds, path.string().c_str());
    options_.note(buf);
  }
  PatternDatabase::build(goal, pattern, options_.build).save(path);
  // The built copy is gone; load the file as any other (the page cache holds its bytes).
  auto mapped = std::make_shared<const PatternDatabase>(PatternDatabase::load(path, goal, pattern));
  if (options_.note) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "built %s (largest value %d)", path.string().c_str(),
                  static_cast<int>(mapped->histogram().size()) - 1);
    options_.note(buf);
  }
  cache_[path.string()] = mapped;
  return mapped;
}

}  // namespace tilespace::pdb
