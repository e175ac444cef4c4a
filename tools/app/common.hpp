// The application layer (tools/app/): what every front end (the command line, the server, the
// Python module) shares. Here: the session's options, the problem (start and goal) from options or
// a file, the database stores, board text, the result file, memory limits, and the sources of
// searches. Errors are thrown as InputError (errors.hpp); each front end maps them to its codes.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/goal_table.hpp"
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

namespace tilespace::app {

// What a session holds: the options every command shares (the database folder, the threads, the
// board and goal, the output form and language).
struct Common {
  std::string board, goal, db = "out", blank, lang = "en";
  std::string metric = "single";  // --metric (build, query, stats): how moves are counted (board.hpp Metric)
  int threads = 0;
  bool progress = false, json = false;
  // How the front end words a notice or a progress line for its reader: the command line sets it
  // under --lang zh (cli/messages.hpp Messages::text); empty (the server, Python): the library's
  // English as it is. One hook, so the application layer never holds a second language itself.
  std::function<std::string(const std::string&)> wording;
};

// The --goal option as a state, if given (on --board when given).
std::optional<State> goal_option(const Common& c);

// The --board option, if given; InputError about the board if it is not WxH within the limits.
std::optional<Board> board_option(const Common& c);

// The --metric option; InputError about --metric if it is neither single nor multi.
Metric metric_option(const Common& c);
// InputError about --metric when it is multi on `board` and no exact multi-tile table of it can
// exist (4x4, 5x5; 2x7, whose byte table does not fit): what needs the table (build, stats,
// random --depth) refuses it there.
void require_table_metric(const Common& c, const Board& board);
void require_table_metric(Metric m, const Board& board);
// The same for what answers a pair's optimum (query and its batches, check: app/oracle.hpp), which
// also takes the boards whose multi-tile answers are searched: 4x4, with its stock multi-tile
// pattern databases (pdb::stock_partitions).
void require_answer_metric(const Common& c, const Board& board);
void require_answer_metric(Metric m, const Board& board);

// The distance-table store over --db, with --threads, BFS progress on stderr and notes.
// Per-layer progress lines ("  depth   3  ... states ...") when stderr is a terminal or with
// --progress; empty otherwise. `layer` and `items` must be string literals.
std::function<void(const LayerReport&)> layer_progress(const Common& c, const char* layer, const char* items);
// "tilespace: <s>" on stderr: the notices of the database stores.
void note_on_stderr(const std::string& s);
// The notices of a session: note_on_stderr, worded by c.wording when it is set.
std::function<void(const std::string&)> notes(const Common& c);
// `max_auto_build_seconds`: the longest build a store starts on its own (StoreOptions).
// `metric`: the store's, when not --metric's.
StoreOptions store_options(const Common& c, double max_auto_build_seconds = StoreOptions{}.max_auto_build_seconds,
                           std::optional<Metric> metric = std::nullopt);
TableStore make_store(const Common& c, double max_auto_build_seconds = StoreOptions{}.max_auto_build_seconds);

// The problem of a command (problem.hpp): --board, --goal, --blank and, when `start_arg` is given,
// START: a state, a file holding the start (and the goal), or "-" for standard input.
Problem read_problem(const Common& c, const std::optional<std::string>& start_arg);

// The tiles of `s` as a JSON array, cell by cell.
nlohmann::json tiles_json(const State& s);

// Columns a UTF-8 text takes in a terminal: East Asian wide characters (Chinese, full-width
// punctuation) take two, combining accents none, every other character one. Every column a front
// end aligns (boards of named tiles, stats' labels, the tables of verify and compare) is padded by
// it, not by bytes.
std::size_t display_width(const std::string& text);
// `text` padded with spaces to `width` columns, on the left (right-aligned) or the right.
std::string pad(const std::string& text, std::size_t width, bool right);

// The board as rows of right-aligned names (aligned by display width), the blank as '.' (or its
// given name).
std::string board_text(const State& s, const Labels& labels, const std::string& indent = "  ");

// Writes the outcome of a solve to `file` (result.txt), atomically: every board of the path, or
// one line saying that the goal is unreachable or why the search stopped, so the file always
// describes the run that wrote it.
void write_result(const std::string& file, const std::vector<State>& path, const Labels& labels,
                  const std::string& no_path_line);

// The pattern-database store over --db, with --threads, build progress on stderr and notices;
// builds estimated over `max_auto_build_seconds` are refused with the build command (exit 3).
pdb::PdbStore make_pdb_store(const Common& c, double max_auto_build_seconds = 60, Metric metric = Metric::single);

// The pattern databases a plan's heuristic comes to: the heuristic's catalogue entry ("pdb",
// "zpdb" or "catalogue") and its partition or catalogue. The partition is the one of
// --heuristic pdb:SPEC (zpdb:SPEC, catalogue:SPEC) or --pattern SPEC; plain "pdb" ("zpdb") takes
// the strongest stock partition at hand or quick to build (pdb::choose_partition), plain
// "catalogue" the board's stock catalogue; the default heuristic (plan.heuristic_chosen) takes
// the strongest built (pdb::choose_default). Throws InputError about --heuristic when a pdb or
// zpdb spec names a catalogue.
struct PatternChoice {
  std::string entry;
  pdb::Partition partition;
  bool zero_aware = false;
  std::string name() const { return entry + ":" + partition.name; }
};
PatternChoice pattern_choice(const search::SolvePlan& plan, const State& goal, const pdb::PdbStore& store);

// What searches are made from, loaded once per session and kept alive as long as the searches
// that use them: the pattern databases of each goal and partition (loaded or built through the
// store), the distance tables, the move automaton. Safe to share between threads (the server's
// requests): the databases it hands out are immutable, and its stores are guarded.
class SearchSources {
 public:
  // `max_table_build_seconds`: the longest distance-table build it starts on its own (the
  // command's one-minute rule; the server's few seconds).
  explicit SearchSources(Common& c, double max_table_build_seconds = StoreOptions{}.max_auto_build_seconds);
  ~SearchSources();
  // Fills o's table, databases and automaton for `plan` and `goal`; returns the heuristic's name
  // as reported ("pdb:7-8" for plain "pdb"). `announce`: the databases' loading time on stderr
  // (on a terminal or with --progress).
  std::string prepare(const search::SolvePlan& plan, const State& goal, search::SolveOptions& o, bool announce);
  // The table of goals on `b` with the blank on `blank` in metric `m` (without it: --metric's) when
  // it is at hand (TableStore::at_hand: loaded, on disk, or built within the limit), else null.
  const GoalTable* table(const Board& b, int blank, Metric m);
  const GoalTable* table(const Board& b, int blank);
  // Whether it is at hand, without loading or building it.
  bool table_at_hand(const Board& b, int blank, Metric m);
  // The table store of metric `m` (without it: --metric's), for one thread's use (a command's).
  TableStore& tables(Metric m);
  TableStore& tables();
  // A notice on stderr in the session's words (notes()).
  void note(const std::string& s) const { notes(c_)(s); }

 private:
  Common& c_;
  std::mutex pdbs_mu_, tables_mu_;  // guard pdbs_, heuristics_ and automaton_ / tables_
  pdb::PdbStore pdbs_, multi_pdbs_;   // one store a metric
  TableStore tables_, multi_tables_;  // one store a metric
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

}  // namespace tilespace::app
