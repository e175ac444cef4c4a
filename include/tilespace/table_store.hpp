// The folder of distance databases (out/ by default): finds, loads, builds and caches tables.
//
// File names are <W>x<H>-<canonical goal>.tsdb, e.g. out/3x3-123456780.tsdb, whatever the table's
// bits a state (a byte, two or one: the file's header says, and any is loaded); tables of the
// multi-tile metric are <W>x<H>-<canonical goal>-multi.tsdb (a store has one metric, StoreOptions::bfs,
// and refuses a file of the other: its header says which); one file per blank
// cell of the goal serves every goal with its blank there (see distance_table.hpp), and through the
// board's symmetries every goal with its blank in that cell's blank class (goal_table.hpp): readers
// ask goal(), which finds the table that serves a goal blank cell.
// Not thread-safe: one store per thread of control; the tables it hands out are immutable.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/goal_table.hpp"

namespace tilespace {

struct StoreOptions {
  std::filesystem::path dir = "out";
  BfsOptions bfs;                                  // threads, progress and the metric (of builds and of the files)
  std::function<void(const std::string&)> note;   // one-line notices (building, built); may be empty
  Engine engine = Engine::automatic;               // which BFS builds missing tables, and the bits of their files
  // Two-bit builds: save a checkpoint (<table>.ckpt) between layers at most this often (0: never),
  // and no sooner than ten times the last checkpoint's duration after it (at most a tenth of the
  // time goes to checkpoints); with `resume`, continue from the checkpoint if there is one.
  double checkpoint_every = 300;
  bool resume = false;
  // A missing table whose build is estimated (DistanceTable::estimate_build) to take longer than
  // this is not built on the fly: table() throws DataError with the estimate and the command that
  // builds it (too_long_to_build). `tilespace build` sets it to infinity.
  double max_auto_build_seconds = 60;
};

// Whether a distance table of `board` can exist on this machine: the board has at most 16 cells
// (state.hpp's packed states) and a build of its table fits in memory (DistanceTable::check_fits).
bool table_can_exist(const Board& board);

// The `tilespace build` command that builds a database of `goal`'s board into `dir`, exactly as a
// user types it: --board, --goal unless `goal` is the default goal (tiles 1..N-1, the blank last),
// `extra` (e.g. "--pdb 7-8"), --db unless `dir` is "out". Words a shell would split are quoted.
std::string build_command(const State& goal, const std::filesystem::path& dir, const std::string& extra = "");

// The DataError for a missing database whose build takes longer than the stores start on their own:
// "no WHAT for this WxH goal in DIR/ (building it takes about S s, M GiB of memory, D GiB of disk):
// run COMMAND".
DataError too_long_to_build(const std::string& what, const State& goal, const std::filesystem::path& dir,
                            const BuildCost& cost, const std::string& command);

// The same two for a database that serves every board (the move automaton, search/automaton.hpp):
// "tilespace build EXTRA [--db DIR]", and "no WHAT in DIR/ (building it takes about ...): run COMMAND".
std::string build_command(const std::filesystem::path& dir, const std::string& extra);
DataError too_long_to_build(const std::string& what, const std::filesystem::path& dir, const BuildCost& cost,
                            const std::string& command);

class TableStore {
 public:
  explicit TableStore(StoreOptions options);

  // The folder of the database files (StoreOptions::dir).
  const std::filesystem::path& dir() const noexcept { return options_.dir; }

  std::filesystem::path path_for(const Board& board, int goal_blank) const;
  // The checkpoint of a two-bit build of that table (database.hpp: <table>.ckpt).
  std::filesystem::path checkpoint_for(const Board& board, int goal_blank) const;

  // The table for goals with the blank on `goal_blank`: from memory, else loaded from its file,
  // else built and saved first (with a notice). Throws DataError if the file exists but is bad or
  // is missing and its build is estimated over max_auto_build_seconds (naming the build command),
  // ResourceError if a build does not fit.
  const DistanceTable& table(const Board& board, int goal_blank);

  // Whether a build command (`tilespace build`, `tilespace-mpi build`) keeps the table's file
  // instead of rebuilding it ("up to date"): the file exists, loads (header and checksums checked),
  // every chunk of a two-bit table verifies (on `threads` threads; 0: all cores), and it is of the
  // engine asked for (`bits` 2 or 8; 0: either). DataError naming the file if it exists but is bad.
  bool up_to_date(const Board& board, int goal_blank, int bits, int threads = 0);
  // The one rule for "is an exact table at hand" (solve's planner, check's oracle, the lab, the
  // server, Python): a table of the board can exist (table_can_exist), and one of the goal blank's
  // class, or of the transposed board's (goal()), is in memory or on disk, or its build is estimated within
  // max_auto_build_seconds on the options' threads. Nothing is loaded or built: goal() then gives it.
  bool at_hand(const Board& board, int goal_blank) const;
  // The table if it is already in memory (nothing is loaded or built), else null.
  const DistanceTable* loaded(const Board& board, int goal_blank) const noexcept;

  // Frees the table of `goal_blank` if it is in memory, with the goal views (goal()) that read it;
  // nothing on disk changes. A caller going through several tables holds one at a time: build
  // --all-goals of 2x7 (10.1 GiB a table) needs it to build the second class's within 24 GiB.
  void release(const Board& board, int goal_blank);

  // Builds and saves the table even if a file exists (replacing it atomically), with the engine of
  // the options; a two-bit build checkpoints and resumes as the options say, and removes its
  // checkpoint once the table is saved.
  const DistanceTable& build(const Board& board, int goal_blank);

  // (These three are in src/goal_table.cpp.)
  // The cell whose table serves goals with the blank on `goal_blank` without building anything:
  // that cell when its table is in memory or on disk, else the smallest other cell of its blank
  // class (symmetry.hpp) whose table is; -1 when none is.
  int serving_cell(const Board& board, int goal_blank) const;
  // What answers goals with the blank on `goal_blank`, for every reader: serving_cell's table
  // (loaded when not in memory) seen through the symmetry that takes `goal_blank` to its cell;
  // when no cell of the class has a table, one of the transposed board's class of the transposed
  // cell (a 2x7 goal from a 7x2 table: symmetry.hpp's transposition); when neither has, the cell's
  // own, as table() gives it (built under the one-minute rule, else the DataError naming the
  // command that builds the goal's table). Throws as table() does. The reference lives as long as
  // the store.
  const GoalTable& goal(const Board& board, int goal_blank);
  // goal() as last handed out, if its table is still the one in memory (nothing loaded or built),
  // else null.
  const GoalTable* goal_loaded(const Board& board, int goal_blank) const noexcept;

 private:
  using Key = std::tuple<int, int, int>;
  static Key key(const Board& b, int blank) { return {b.width(), b.height(), blank}; }
  // The board and cell whose table goal() reads without building anything: serving_cell's, else
  // the transposed board's serving_cell of the transposed cell; nullopt when neither has one.
  std::optional<std::pair<Board, int>> serving(const Board& board, int goal_blank) const;
  // `extra` after "--metric M" when the store's metric is not single-tile: a build command's options.
  std::string metric_option(const std::string& extra = "") const;
  StoreOptions options_;
  std::map<Key, std::unique_ptr<DistanceTable>> tables_;
  std::map<Key, GoalTable> goals_;  // goal(): the view of each goal blank cell asked for
};

}  // namespace tilespace
