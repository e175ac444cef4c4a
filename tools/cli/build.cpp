// `tilespace build`: distance tables (one goal or --all-goals), pattern databases (--pdb) and the
// move automaton (--automaton), each checked before it is kept or rebuilt.
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "cli/terminal.hpp"
#include "cli/messages.hpp"
#include "app/report.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"
#include "tilespace/pdb/database.hpp"
#include "tilespace/pdb/pattern.hpp"
#include "tilespace/pdb/zero_aware.hpp"
#include "tilespace/query.hpp"
#include "tilespace/search/automaton.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/symmetry.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::cli {

using nlohmann::json;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool file_exists(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::exists(p, ec);
}

// build --pdb SPEC (--zpdb SPEC: zero-aware databases): the partition's (or catalogue's) databases
// for the goal, each kept when its file is valid, each saved as soon as it is built.
int build_pdb(const Common& c, const BuildFlags& f, const State& goal, bool zero_aware) {
  const pdb::Partition part = pdb::parse_partition(zero_aware ? f.zpdb : f.pdb, goal);
  const Metric metric = metric_option(c);
  pdb::PdbStore store = make_pdb_store(c, std::numeric_limits<double>::infinity(), metric);  // building is what was asked
  const Messages m(c.lang);
  json out = json::array();
  // Every pattern to build is checked against the memory budget before the first is built.
  for (const pdb::Pattern& pattern : part.patterns) {
    const std::string path = store.path_for(goal, pattern, zero_aware).string();
    if (f.force || !file_exists(path) || database_outdated(path))
      require_memory(zero_aware ? pdb::estimate_zero_aware(goal.board, pattern, c.threads).bytes
                                : pdb::estimate_build(goal.board, pattern, c.threads, metric).bytes,
                     "building pattern " + pattern.name());
  }
  for (const pdb::Pattern& pattern : part.patterns) {
    const std::string path = store.path_for(goal, pattern, zero_aware).string();
    // A file of an older format is rebuilt; another existing file is loaded, which checks its
    // header and checksums (DataError naming it).
    const bool up_to_date = !f.force && file_exists(path) && !database_outdated(path);
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t entries = 0;
    int largest = 0;
    if (zero_aware) {
      const auto db = up_to_date ? store.get_zero_aware(goal, pattern) : store.build_zero_aware(goal, pattern);
      entries = db->index().size();
      largest = static_cast<int>(db->histogram().size()) - 1;
    } else {
      const auto db = up_to_date ? store.get(goal, pattern) : store.build(goal, pattern);
      entries = db->ranker().size();
      largest = static_cast<int>(db->histogram().size()) - 1;
    }
    const double secs = seconds_since(t0);
    if (c.json) {
      json tiles = json::array();
      for (const auto t : pattern.tiles) tiles.push_back(static_cast<int>(t));
      out.push_back({{"file", path}, {"up_to_date", up_to_date}, {"partition", part.name}, {"pattern", tiles},
                     {"goal", tiles_json(goal)}, {"entries", entries}, {"largest", largest}, {"seconds", secs}});
      if (zero_aware) out.back()["zero_aware"] = true;
      out.back()["metric"] = metric_name(metric);
    } else if (up_to_date) {
      std::printf("%s\n", m.text("up to date: " + path).c_str());
    } else {
      char line[160];
      std::snprintf(line, sizeof line, ": %spattern %s, %llu %s, largest value %d, %.2f s",
                    zero_aware ? "zero-aware " : metric == Metric::multi ? "multi-tile " : "", pattern.name().c_str(),
                    static_cast<unsigned long long>(entries), zero_aware ? "entries" : "placements", largest, secs);
      std::printf("%s\n", m.text("built " + path + line).c_str());
    }
  }
  if (c.json) std::puts(out.dump().c_str());
  return kExitOk;
}

// 4x4 and 5x5 with the goal's blank in a corner (pdb/pattern.hpp).
bool has_stock_partition(const State& goal) {
  for (const char* name : {"7-8", "6-6-6-6"}) {
    try {
      pdb::parse_partition(name, goal);
      return true;
    } catch (const InputError&) {
    }
  }
  return false;
}

// build --board 4x4 | 5x5 without --pdb: everything the default solve of the board uses (no
// distance table fits): the zero-aware databases of the strongest stock partition (which the
// default solve then prefers to any other on disk, pdb::choose_default) and the move automaton.
// Each database is saved as soon as it is built, so a killed build resumes with the first one
// missing.
// In the multi-tile metric: the strongest stock multi-tile databases (4x4: 7-7), which the
// default multi-tile solve then prefers (pdb::choose_partition); no automaton (it prunes
// single-tile move strings).
int build_search(const Common& c, const BuildFlags& f, const State& goal) {
  BuildFlags g = f;
  if (metric_option(c) == Metric::multi) {
    g.pdb = pdb::stock_by_strength(goal, Metric::multi).front().name;
    return build_pdb(c, g, goal, false);
  }
  g.zpdb = pdb::stock_by_strength(goal).front().name;
  const int rc = build_pdb(c, g, goal, true);
  if (rc != kExitOk) return rc;
  const int depth = search::MoveAutomaton::kDefaultDepth;
  const std::filesystem::path path = search::automaton_path(c.db, depth);
  const bool up_to_date = !f.force && file_exists(path);
  const auto t0 = std::chrono::steady_clock::now();
  if (up_to_date) {
    search::MoveAutomaton::load(path, depth);  // checked
  } else {
    search::MoveAutomaton::build(depth).save(path);
  }
  if (c.json) {
    std::puts(json{{"file", path.string()}, {"up_to_date", up_to_date}, {"depth", depth}, {"seconds", seconds_since(t0)}}.dump().c_str());
  } else {
    char line[160];
    std::snprintf(line, sizeof line, ": the move automaton of depth %d, %.2f s", depth, seconds_since(t0));
    std::printf("%s\n", Messages(c.lang).text(up_to_date ? "up to date: " + path.string() : "built " + path.string() + line).c_str());
  }
  return kExitOk;
}

// build --automaton: the move automaton of the depth asked for, kept when its file is valid;
// per-level progress on stderr while building, then one summary line (or JSON).
int build_automaton(const Common& c, const BuildFlags& f) {
  using search::MoveAutomaton;
  const int depth = f.automaton_depth ? static_cast<int>(parse_whole("automaton-depth", *f.automaton_depth,
                                                                             MoveAutomaton::kMinDepth,
                                                                             MoveAutomaton::kMaxDepth))
                                      : MoveAutomaton::kDefaultDepth;
  // Everything that chooses a table's board, goal or engine is about tables.
  auto not_here = [](const std::string& option, const std::string& why) {
    return option_error(option, "does not apply with --automaton (" + why + ")");
  };
  const std::string every_board = "the move automaton serves every board";
  if (!c.board.empty()) throw not_here("board", every_board);
  if (!c.goal.empty()) throw not_here("goal", every_board);
  if (f.all_goals) throw not_here("all-goals", every_board);
  if (!f.pdb.empty()) throw not_here("pdb", "build one at a time");
  if (!f.zpdb.empty()) throw not_here("zpdb", "build one at a time");
  if (f.bits) throw not_here("bits", "it has no BFS engine");
  if (metric_option(c) != Metric::single) throw not_here("metric", "the move automaton prunes single-tile searches");
  if (f.checkpoint_given) throw not_here("checkpoint-every", "only two-bit table builds take checkpoints");
  if (f.resume) throw not_here("resume", "only two-bit table builds take checkpoints");
  if (f.threads_given) throw not_here("threads", "the build runs on one thread");

  const Messages m(c.lang);
  const std::filesystem::path path = search::automaton_path(c.db, depth);
  const bool up_to_date = !f.force && file_exists(path);
  const auto t0 = std::chrono::steady_clock::now();
  MoveAutomaton fsm;
  if (up_to_date) {
    fsm = MoveAutomaton::load(path, depth);  // header, checksum, transitions and depth checked
  } else {
    const BuildCost cost = search::estimate_automaton_build(depth);
    char buf[160];
    std::snprintf(buf, sizeof buf, "building the move automaton of depth %d: about %.0f s and %.0f MiB of memory, into ",
                  depth, cost.seconds, static_cast<double>(cost.memory) / (1 << 20));
    notes(c)(buf + path.string());
    fsm = MoveAutomaton::build(depth, [&](int level, std::uint64_t kept, std::uint64_t forbidden) {
      std::fprintf(stderr, "%s\n", m.automaton_level(level, kept, forbidden, seconds_since(t0)).c_str());
    });
    fsm.save(path);
  }
  // The effective branching factors without and with the machine (search/automaton.hpp).
  const Board b4(4, 4), b5(5, 5);
  const double plain4 = search::branching_factor(b4, nullptr), fsm4 = search::branching_factor(b4, &fsm);
  const double plain5 = search::branching_factor(b5, nullptr), fsm5 = search::branching_factor(b5, &fsm);
  const double secs = seconds_since(t0);
  if (c.json) {
    const json out = json::array({{{"file", path.string()},
                                   {"up_to_date", up_to_date},
                                   {"depth", fsm.depth()},
                                   {"states", fsm.states()},
                                   {"forbidden", fsm.forbidden()},
                                   {"branching_length", search::kBranchingLength},
                                   {"branching",
                                    {{"4x4", {{"plain", plain4}, {"automaton", fsm4}}},
                                     {"5x5", {{"plain", plain5}, {"automaton", fsm5}}}}},
                                   {"seconds", secs}}});
    std::puts(out.dump().c_str());
  } else {
    std::puts(m.automaton_summary(!up_to_date, path.string(), fsm.depth(), fsm.states(), fsm.forbidden(), plain4, fsm4,
                                  plain5, fsm5, secs)
                  .c_str());
  }
  return kExitOk;
}

// build --count-only: the layer sizes, radius and farthest states of the goal's blank, by the
// two-bit engine (bfs.hpp), in either metric; nothing is written (no file, no checkpoint).
int build_count(Common& c, const BuildFlags& f, const State& goal) {
  auto not_here = [](const std::string& option, const std::string& why) {
    return option_error(option, "does not apply with --count-only (" + why + ")");
  };
  if (f.all_goals) throw not_here("all-goals", "it counts the goal's layers");
  if (f.bits) throw not_here("bits", "it counts with the two-bit engine and keeps no table");
  if (f.force) throw not_here("force", "it writes no file");
  if (f.checkpoint_given) throw not_here("checkpoint-every", "it takes no checkpoints");
  if (f.resume) throw not_here("resume", "it takes no checkpoints");
  const Board& b = goal.board;
  require_packed(b);
  const Ranker ranker(b, goal.blank);
  TwoBitOptions o;
  o.bfs = store_options(c).bfs;
  require_memory(two_bit_build_bytes(ranker, o.bfs.metric), "counting the " + b.name() + " layers");
  FieldArray fields(two_bit_search_words(ranker, o.bfs.metric));
  const TwoBitResult r = bfs_two_bit(ranker, fields.span(), o);
  // The farthest states for the goal as given (the search's are for the canonical goal).
  std::vector<State> far;
  const Labelling lab(goal);
  for (const std::uint64_t rank : r.farthest) {
    Sequence seq{};
    const int blank = ranker.unrank(rank, seq);
    far.push_back(lab.state(b, seq, blank));
  }
  if (c.json) {
    json j = app::distribution_json(goal, o.bfs.metric, ranker.size(), r.histogram, far);
    j["seconds"] = r.seconds;
    std::puts(j.dump().c_str());
    return kExitOk;
  }
  print_distribution(c.lang, {goal, o.bfs.metric, ranker.size(), r.histogram, far, std::nullopt, r.seconds});
  return kExitOk;
}

}  // namespace

int cmd_build(Common& c, const BuildFlags& f) {
  if (f.max_memory) set_memory_budget(parse_bytes("max-memory", *f.max_memory), "--max-memory " + *f.max_memory);
  if (f.automaton_depth && !f.automaton) throw option_error("automaton-depth", "applies with --automaton");
  if (f.automaton && f.count_only) throw option_error("count-only", "does not apply with --automaton");
  if (f.automaton) return build_automaton(c, f);
  if (f.count_only && (!f.pdb.empty() || !f.zpdb.empty()))
    throw option_error("count-only", std::string("does not apply with ") + (f.pdb.empty() ? "--zpdb" : "--pdb"));
  if (f.all_goals && !c.goal.empty())
    throw option_error("goal", "does not apply with --all-goals (it builds one table per blank class)");
  if (!f.pdb.empty() && !f.zpdb.empty()) throw option_error("zpdb", "does not apply with --pdb (build one kind at a time)");
  if (!f.pdb.empty() || !f.zpdb.empty()) {
    const std::string with = f.pdb.empty() ? "--zpdb" : "--pdb";
    if (f.bits)
      throw option_error("bits", "does not apply with " + with + " (the width of a pattern database is its kind's)");
    if (f.checkpoint_given)
      throw option_error("checkpoint-every", "does not apply with " + with + " (only two-bit table builds take checkpoints)");
    if (f.resume) throw option_error("resume", "does not apply with " + with + " (only two-bit table builds take checkpoints)");
    if (f.all_goals)
      throw option_error("all-goals", "does not apply with " + with + " (pattern databases are for one goal: give --goal)");
    if (metric_option(c) != Metric::single && !f.zpdb.empty())
      throw option_error("metric", "does not apply with --zpdb (zero-aware databases count single-tile moves; --pdb "
                                   "builds multi-tile ones)");
  }
  Problem p = read_problem(c, std::nullopt);
  if (!f.pdb.empty() || !f.zpdb.empty()) return build_pdb(c, f, p.goal, f.pdb.empty());
  if (f.count_only) return build_count(c, f, p.goal);
  const Board& b = p.goal.board;
  const bool search_build = !table_can_exist(b) && has_stock_partition(p.goal) && !f.bits && !f.checkpoint_given &&
                            !f.resume && !f.all_goals;
  if (search_build && metric_option(c) == Metric::multi && !pdb::stock_partitions(b, Metric::multi).empty())
    return build_search(c, f, p.goal);
  require_table_metric(c, b);
  if (search_build) return build_search(c, f, p.goal);
  const Engine engine = DistanceTable::choose_engine(b, static_cast<Engine>(f.bits), metric_option(c));
  if (engine == Engine::byte && (f.resume || f.checkpoint_given))
    throw option_error(f.resume ? "resume" : "checkpoint-every",
                       "applies to the two-bit engine (--bits 2 or 1); the " + b.name() +
                           " table is built with the byte engine");
  StoreOptions o = store_options(c);
  o.engine = engine;
  o.checkpoint_every = f.checkpoint_every;
  o.resume = f.resume;
  o.max_auto_build_seconds = std::numeric_limits<double>::infinity();  // building is what was asked
  TableStore store(std::move(o));
  // A table serves every goal whose blank is in its cell's blank class (symmetry.hpp). The table
  // kept for a class is the file of its cell on disk (the goal's own first, then the smallest;
  // TableStore::serving_cell), else the one built: the representative's with --all-goals (one
  // table per class, on every engine: 3x3 3 tables, 3x4 4, 2x7 4), the goal's own otherwise.
  std::vector<int> wanted;  // a cell of each class asked for
  if (f.all_goals) {
    for (const auto& cls : blank_classes(b)) wanted.push_back(cls.front());
  } else {
    wanted.push_back(p.goal.blank);
  }
  std::vector<int> blanks;  // the cell whose table is kept or built for each
  for (const int cell : wanted) {
    const int on_disk = store.serving_cell(b, cell);
    blanks.push_back(on_disk >= 0 ? on_disk : cell);
  }
  json out = json::array();
  for (int blank : blanks) {
    const std::vector<int> serves = blank_class(b, blank);
    std::string cells;
    for (const int cell : serves) {
      if (!cells.empty()) cells += ' ';
      cells += std::to_string(cell);
    }
    const auto path = store.path_for(b, blank).string();
    const auto t0 = std::chrono::steady_clock::now();
    // An existing file is kept if it loads (header and checksums checked; a two-bit or one-bit
    // table's every chunk too) and has the bits asked for, if they were; a bad one is a DataError
    // naming it (TableStore::up_to_date).
    const bool up_to_date = !f.force && store.up_to_date(b, blank, f.bits, c.threads);
    const DistanceTable& t = up_to_date ? store.table(b, blank) : store.build(b, blank);
    const double secs = seconds_since(t0);
    if (c.json) {
      out.push_back({{"file", path}, {"up_to_date", up_to_date}, {"goal", tiles_json(t.goal())},
                     {"serves", serves}, {"states", t.ranker().size()}, {"radius", t.radius()},
                     {"bits", t.bits()}, {"metric", metric_name(t.metric())}, {"seconds", secs}});
    } else if (up_to_date) {
      std::printf("%s\n", Messages(c.lang).text("up to date: " + path + " (serves the blank on cells " + cells + ")").c_str());
    } else {
      char line[200];
      std::snprintf(line, sizeof line, ": %llu states, radius %d%s, %d bit%s, %.2f s; serves the blank on cells %s",
                    static_cast<unsigned long long>(t.ranker().size()), t.radius(),
                    t.metric() == Metric::multi ? " (multi-tile)" : "", t.bits(), t.bits() == 1 ? "" : "s", secs,
                    cells.c_str());
      std::printf("%s\n", Messages(c.lang).text("built " + path + line).c_str());
    }
    store.release(b, blank);  // one class's table in memory at a time (2x7: 10.1 GiB each)
  }
  if (c.json) std::puts(out.dump().c_str());
  return kExitOk;
}

}  // namespace tilespace::cli
