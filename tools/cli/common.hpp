// The pieces of the `tilespace` command that several subcommands share: the common options, the
// problem (start and goal) from the command line or a file, board printing, the result file, the
// animation and memory limits. Errors are thrown as InputError (errors.hpp); main() maps them.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/pdb/database.hpp"
#include "tilespace/pdb/pattern.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/state.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::search {
class MoveAutomaton;
struct SolvePlan;
struct SolveOptions;
}
namespace tilespace::pdb {
class PdbHeuristic;
}

namespace CLI {
class App;
}

namespace tilespace::cli {

// Options every subcommand shares.
struct Common {
  std::string board, goal, db = "out", blank, lang = "en";
  int threads = 0;
  bool progress = false, json = false;
};

// Registers --board, --db, --threads, --progress and, if asked, --goal, --json and (for commands
// that take a START) --blank on `app`.
void add_common(CLI::App* app, Common& c, bool goal = true, bool json_flag = true, bool start = false);

// The --goal option as a state, if given (on --board when given).
std::optional<State> goal_option(const Common& c);

// The --board option, if given; InputError about the board if it is not WxH within the limits.
std::optional<Board> board_option(const Common& c);

// The distance-table store over --db, with --threads, BFS progress on stderr and notes.
// Per-layer progress lines ("  depth   3  ... states ...") when stderr is a terminal or with
// --progress; empty otherwise. `layer` and `items` must be string literals.
std::function<void(const LayerReport&)> layer_progress(const Common& c, const char* layer, const char* items);
// "tilespace: <s>" on stderr: the notices of the database stores.
void note_on_stderr(const std::string& s);
// `max_auto_build_seconds`: the longest build a store starts on its own (StoreOptions).
StoreOptions store_options(const Common& c, double max_auto_build_seconds = StoreOptions{}.max_auto_build_seconds);
TableStore make_store(const Common& c, double max_auto_build_seconds = StoreOptions{}.max_auto_build_seconds);

// The problem of a command (problem.hpp): --board, --goal, --blank and, when `start_arg` is given,
// START: a state, a file holding the start (and the goal), or "-" for standard input.
Problem read_problem(const Common& c, const std::optional<std::string>& start_arg);

// The tiles of `s` as a JSON array, cell by cell.
nlohmann::json tiles_json(const State& s);

// The board as rows of right-aligned names, the blank as '.' (or its given name).
std::string board_text(const State& s, const Labels& labels, const std::string& indent = "  ");

// board_text on stdout.
void print_board(const State& s, const Labels& labels = {});

// Writes the outcome of a solve to `file` (result.txt), atomically: every board of the path, or
// one line saying that the goal is unreachable or why the search stopped, so the file always
// describes the run that wrote it.
void write_result(const std::string& file, const std::vector<State>& path, const Labels& labels,
                  const std::string& no_path_line);

// Plays the path board by board: in place on a terminal, frame after frame otherwise.
void animate(const std::vector<State>& path, const Labels& labels, int delay_ms, bool zh = false);

// The pattern-database store over --db, with --threads, build progress on stderr and notices;
// builds estimated over `max_auto_build_seconds` are refused with the build command (exit 3).
pdb::PdbStore make_pdb_store(const Common& c, double max_auto_build_seconds = 60);

// The partition from --heuristic pdb:SPEC or --pattern SPEC; plain "pdb" takes the strongest stock
// partition at hand or quick to build (pdb::choose_partition).
pdb::Partition partition_for(const std::string& heuristic, const std::string& pattern, const State& goal,
                             const pdb::PdbStore& store);

// What searches are made from, loaded once per command and kept alive as long as the searches
// that use them: the pattern databases of each goal and partition (loaded or built through the
// store), the distance tables, the move automaton.
class SearchSources {
 public:
  explicit SearchSources(Common& c);
  ~SearchSources();
  // Fills o's table, databases and automaton for `plan` and `goal`; returns the heuristic's name
  // as reported ("pdb:7-8" for plain "pdb"). `announce`: the databases' loading time on stderr
  // (on a terminal or with --progress).
  std::string prepare(const search::SolvePlan& plan, const State& goal, search::SolveOptions& o, bool announce);
  TableStore& tables() { return tables_; }

 private:
  Common& c_;
  pdb::PdbStore pdbs_;
  TableStore tables_;
  std::map<std::string, std::unique_ptr<pdb::PdbHeuristic>> heuristics_;
  std::shared_ptr<const search::MoveAutomaton> automaton_;
};

// The search memory limit without --max-memory: 3/4 of physical memory.
std::uint64_t default_memory_limit();
// aidastar's A* memory without --max-memory: 256 MiB (at most 1/8 of physical memory).
std::uint64_t default_hybrid_memory();

// The move automaton of --db (automaton.hpp): the deepest one on disk, else the quick one
// (kQuickAutomatonDepth, a tenth of a second) built and saved at first use.
inline constexpr int kQuickAutomatonDepth = 12;
std::shared_ptr<const search::MoveAutomaton> load_automaton(const Common& c);

}  // namespace tilespace::cli
