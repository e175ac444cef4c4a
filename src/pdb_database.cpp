#include "tilespace/pdb/database.hpp"

#include <cstdio>

#include "tilespace/errors.hpp"

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

PatternDatabase PatternDatabase::load(const std::filesystem::path& path, const State& goal, const Pattern& pattern) {
  LoadedDatabase file = load_database(path);
  const std::string name = path.string();
  if (file.info.kind != kKindPatternDatabase) throw DataError(name + ": not a pattern database");
  if (!(file.info.goal == goal))
    throw DataError(name + ": built for the goal " + file.info.goal.to_string() + ", not " + goal.to_string());
  if (file.info.pattern != pattern.tiles)
    throw DataError(name + ": holds pattern " + Pattern{file.info.pattern}.name() + ", not " + pattern.name());
  PatternDatabase db(goal, pattern);
  db.histogram_ = std::move(file.info.histogram);
  db.values_ = file.payload;
  db.owner_ = std::move(file.file);
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

std::shared_ptr<const PatternDatabase> PdbStore::get(const State& goal, const Pattern& pattern) {
  const auto path = path_for(goal, pattern);
  if (const auto it = cache_.find(path.string()); it != cache_.end()) return it->second;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return build(goal, pattern);
  auto db = std::make_shared<const PatternDatabase>(PatternDatabase::load(path, goal, pattern));
  cache_[path.string()] = db;
  return db;
}

std::shared_ptr<const PatternDatabase> PdbStore::build(const State& goal, const Pattern& pattern) {
  const auto path = path_for(goal, pattern);
  if (options_.note) {
    const BuildEstimate e = estimate_build(goal.board, pattern, options_.build.threads);
    char buf[256];
    std::snprintf(buf, sizeof buf, "building pattern %s: %llu entries, %.0f MiB of memory, about %.0f s, into %s",
                  pattern.name().c_str(), static_cast<unsigned long long>(e.entries),
                  static_cast<double>(e.bytes) / (1 << 20), e.seconds, path.string().c_str());
    options_.note(buf);
  }
  PatternDatabase::build(goal, pattern, options_.build).save(path);
  // The built copy is gone; map the file: the page cache holds the bytes, not the heap.
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
