#include "tilespace/table_store.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <cstdio>

#include "tilespace/checkpoint.hpp"
#include "tilespace/database.hpp"
#include "tilespace/errors.hpp"

namespace tilespace {

namespace {

// `word` as one shell word: bare when it holds only characters no shell treats specially.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || (ch && std::strchr("_-+=.,:/@%", ch));
  });
  if (plain) return word;
  std::string q = "'";
  for (const char ch : word) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

std::string size_words(std::uint64_t bytes) {
  char buf[32];
  const double gib = static_cast<double>(bytes) / (1ull << 30);
  if (gib >= 0.1) std::snprintf(buf, sizeof buf, "%.1f GiB", gib);
  else std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / (1 << 20));
  return buf;
}

}  // namespace

bool table_can_exist(const Board& board) {
  if (!is_packed(board)) return false;
  try {
    DistanceTable::check_fits(board);
    return true;
  } catch (const ResourceError&) {
    return false;
  }
}

std::string build_command(const State& goal, const std::filesystem::path& dir, const std::string& extra) {
  const Board& b = goal.board;
  std::string cmd = "tilespace build --board " + b.name();
  if (!(goal == canonical_goal(b, b.cells() - 1))) cmd += " --goal " + shell_word(goal.to_string());
  if (!extra.empty()) cmd += " " + extra;
  if (dir != "out") cmd += " --db " + shell_word(dir.string());
  return cmd;
}

std::string build_command(const std::filesystem::path& dir, const std::string& extra) {
  std::string cmd = "tilespace build " + extra;
  if (dir != "out") cmd += " --db " + shell_word(dir.string());
  return cmd;
}

namespace {

// "in DIR/ (building it takes about S s, M GiB of memory, D GiB of disk): run COMMAND".
std::string where_and_cost(const std::filesystem::path& dir, const BuildCost& cost, const std::string& command) {
  std::string where = dir.string();
  if (where.empty() || where.back() != '/') where += '/';
  char secs[64];
  if (cost.seconds >= 120) std::snprintf(secs, sizeof secs, "%.0f s (%.0f min)", cost.seconds, cost.seconds / 60);
  else std::snprintf(secs, sizeof secs, "%.0f s", cost.seconds);
  return "in " + where + " (building it takes about " + secs + ", " + size_words(cost.memory) + " of memory, " +
         size_words(cost.disk) + " of disk): run " + command;
}

}  // namespace

DataError too_long_to_build(const std::string& what, const State& goal, const std::filesystem::path& dir,
                            const BuildCost& cost, const std::string& command) {
  return DataError("no " + what + " for this " + goal.board.name() + " goal " + where_and_cost(dir, cost, command));
}

DataError too_long_to_build(const std::string& what, const std::filesystem::path& dir, const BuildCost& cost,
                            const std::string& command) {
  return DataError("no " + what + " " + where_and_cost(dir, cost, command));
}

TableStore::TableStore(StoreOptions options) : options_(std::move(options)) {}

std::filesystem::path TableStore::path_for(const Board& board, int goal_blank) const {
  const char* metric = options_.bfs.metric == Metric::multi ? "-multi" : "";  // one file per metric
  return options_.dir / (board.name() + "-" + canonical_goal(board, goal_blank).compact() + metric + ".tsdb");
}

std::filesystem::path TableStore::checkpoint_for(const Board& board, int goal_blank) const {
  auto p = path_for(board, goal_blank);
  p += ".ckpt";
  return p;
}

std::string TableStore::metric_option(const std::string& extra) const {
  if (options_.bfs.metric == Metric::single) return extra;
  return "--metric " + std::string(metric_name(options_.bfs.metric)) + (extra.empty() ? "" : " " + extra);
}

const DistanceTable* TableStore::loaded(const Board& board, int goal_blank) const noexcept {
  const auto it = tables_.find(key(board, goal_blank));
  return it == tables_.end() ? nullptr : it->second.get();
}

const DistanceTable& TableStore::table(const Board& board, int goal_blank) {
  if (auto it = tables_.find(key(board, goal_blank)); it != tables_.end()) return *it->second;
  const auto path = path_for(board, goal_blank);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    const Engine engine = DistanceTable::choose_engine(board, options_.engine, options_.bfs.metric);
    const BuildCost cost = DistanceTable::estimate_build(board, engine, options_.bfs.threads, options_.bfs.metric);
    if (cost.seconds > options_.max_auto_build_seconds) {
      const State goal = canonical_goal(board, goal_blank);
      throw too_long_to_build("distance table", goal, options_.dir, cost, build_command(goal, options_.dir, metric_option()));
    }
    create_folder(options_.dir);  // before any work: a mistyped --db is one error, and nothing is built
    if (options_.note) options_.note("no database " + path.string() + " yet: building it first");
    const auto& t = build(board, goal_blank);
    if (options_.note)
      options_.note("built " + path.string() + ": " + std::to_string(t.ranker().size()) + " states, radius " +
                    std::to_string(t.radius()));
    return t;
  }
  // A bad file's message ends with the command that rebuilds it.
  const std::string rebuild = build_command(canonical_goal(board, goal_blank), options_.dir, metric_option("--force"));
  auto t = std::make_unique<DistanceTable>(DistanceTable::from_database(load_database(path, rebuild)));
  if (!(t->board() == board) || t->ranker().goal_blank() != goal_blank)
    throw with_rebuild(DataError(path.string() + ": holds the table of another board or goal"), rebuild);
  if (t->metric() != options_.bfs.metric)
    throw with_rebuild(DataError(path.string() + ": holds a table of the " + std::string(metric_name(t->metric())) +
                                 "-tile metric, not the " + std::string(metric_name(options_.bfs.metric)) + "-tile"),
                       rebuild);
  return *(tables_[key(board, goal_blank)] = std::move(t));
}

bool TableStore::up_to_date(const Board& board, int goal_blank, int bits, int threads) {
  std::error_code ec;
  if (!std::filesystem::exists(path_for(board, goal_blank), ec)) return false;
  const DistanceTable& t = table(board, goal_blank);
  t.verify_all(threads);
  return bits == 0 || t.bits() == bits;
}

void TableStore::release(const Board& board, int goal_blank) {
  const auto it = tables_.find(key(board, goal_blank));
  if (it == tables_.end()) return;
  std::erase_if(goals_, [&](const auto& g) { return &g.second.table() == it->second.get(); });
  tables_.erase(it);
}

const DistanceTable& TableStore::build(const Board& board, int goal_blank) {
  const auto path = path_for(board, goal_blank);
  create_folder(options_.dir);
  const Engine engine = DistanceTable::choose_engine(board, options_.engine, options_.bfs.metric);
  if (engine == Engine::byte) {
    auto t = std::make_unique<DistanceTable>(DistanceTable::build(board, goal_blank, options_.bfs));
    save_database(path, t->info(), t->payload());
    return *(tables_[key(board, goal_blank)] = std::move(t));
  }

  const Ranker ranker(board, goal_blank);
  const auto ckpt = checkpoint_for(board, goal_blank);
  const CheckpointSlice whole;  // every word
  std::error_code ec;
  remove_stale_temporaries(ckpt);  // the folder exists: build() made it first
  std::optional<LoadedCheckpoint> resumed;
  if (std::filesystem::exists(ckpt, ec)) {
    if (options_.resume) {
      resumed = load_checkpoint(ckpt, ranker, whole, options_.bfs.metric);
      if (options_.note)
        options_.note("resuming from " + ckpt.string() + " at depth " + std::to_string(resumed->progress.next_layer));
    } else if (options_.note) {
      options_.note("starting over; " + ckpt.string() + " is replaced at the first checkpoint (--resume continues it)");
    }
  } else if (options_.resume && options_.note) {
    options_.note("no checkpoint " + ckpt.string() + ": starting from the goal");
  }

  TwoBitOptions o;
  o.bfs = options_.bfs;
  // At most every checkpoint_every seconds, and at most a tenth of the time spent saving: the next
  // checkpoint waits at least ten times as long as the last one took (2x7: 10.9 GB a checkpoint, 16.3 GB multi-tile).
  auto last = std::chrono::steady_clock::now();
  double wait = options_.checkpoint_every;
  if (options_.checkpoint_every > 0) {
    o.between_layers = [&](const TwoBitProgress& p, std::span<const std::uint64_t> fields) {
      const auto now = std::chrono::steady_clock::now();
      if (std::chrono::duration<double>(now - last).count() < wait) return;
      save_checkpoint(ckpt, ranker, p, fields, whole, options_.bfs.metric);
      last = std::chrono::steady_clock::now();
      wait = std::max(options_.checkpoint_every, 10 * std::chrono::duration<double>(last - now).count());
      if (options_.note && options_.bfs.on_layer)  // with progress lines: say when each was saved
        options_.note("checkpoint " + ckpt.string() + " saved before depth " + std::to_string(p.next_layer) + " (" +
                      std::to_string(std::chrono::duration<double>(last - now).count()).substr(0, 5) + " s)");
    };
  }
  // The same search (and checkpoints) for either width: a one-bit table is its fields packed.
  const int bits = engine == Engine::one_bit ? 1 : 2;
  std::unique_ptr<DistanceTable> t;
  if (resumed) {
    // A checkpoint whose checksums hold but whose counts disagree with its fields (forged or
    // written by a faulty build) shows as layers of the wrong size: a data error naming it.
    try {
      t = std::make_unique<DistanceTable>(
          DistanceTable::build_two_bit(board, goal_blank, o, resumed->fields, &resumed->progress, bits));
    } catch (const std::logic_error& e) {
      throw DataError(ckpt.string() + ": the checkpoint is inconsistent with its fields (" + e.what() + ")");
    }
  } else {
    t = std::make_unique<DistanceTable>(DistanceTable::build_two_bit(board, goal_blank, o, nullptr, nullptr, bits));
  }
  resumed.reset();
  save_database(path, t->info(), t->payload());
  std::filesystem::remove(ckpt, ec);
  return *(tables_[key(board, goal_blank)] = std::move(t));
}

}  // namespace tilespace
