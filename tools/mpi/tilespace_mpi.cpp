// The `tilespace-mpi` command: the two-bit distance table (`tilespace build --bits 2`) built by
// MPI processes, each holding a P-th of the fields, so that a table larger than one machine's
// memory (2x7: 10.9 GB) can be built by several.
//
//   mpirun -np P tilespace-mpi build [--board WxH] [--goal STATE] [--db DIR] [--force]
//                                    [--resume] [--checkpoint-every SECONDS] [--progress]
//
// The options, the goal (problem.hpp's parse_problem, as `tilespace build` reads --board and
// --goal), the file name (<db>/<W>x<H>-<goal>.tsdb, table_store.hpp), the rule that keeps an
// existing file ("up to date: FILE" unless --force: TableStore::up_to_date) and the file's bytes
// are those of `tilespace build --bits 2`. The pieces: slices.hpp (who holds which words),
// distributed_bfs.hpp (the layer loop and its exchange rounds), checkpoints.hpp (one checkpoint
// per process, committed together), database_writer.hpp (the file, written with MPI-IO), and
// world.hpp (how the processes fail together). Exit codes (errors.hpp): 0 ok, 2 usage or input
// error, 3 database or checkpoint file error, 4 out of memory; every process exits with the same
// code, and so does mpirun.
#include <unistd.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <system_error>

#include "mpi/checkpoints.hpp"
#include "mpi/database_writer.hpp"
#include "mpi/distributed_bfs.hpp"
#include "mpi/slices.hpp"
#include "mpi/world.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/state.hpp"
#include "tilespace/table_store.hpp"
#include "tilespace/version.hpp"

using namespace tilespace;
using namespace tilespace::mpi;

namespace {

struct BuildOptions {
  std::string board, goal, db = "out";
  bool force = false, resume = false, progress = false;
  double checkpoint_every = 300;  // seconds between checkpoints (0: none)
};

// The table to build: the board and the goal's blank cell, read from --board and --goal as
// `tilespace build` reads them (default: 3x3, the blank on the last cell).
struct Target {
  Board board;
  int blank;
};

Target target(const BuildOptions& o) {
  const Problem p = parse_problem(ProblemText{o.board, std::nullopt, o.goal, ""});
  require_packed(p.goal.board);
  return {p.goal.board, p.goal.blank};
}

std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
  return text;
}

// "512 B", "12.3 KiB", "4.5 MiB", "1.25 GiB".
std::string bytes_text(std::uint64_t bytes) {
  char text[32];
  const auto b = static_cast<double>(bytes);
  if (bytes < 1024) {
    std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  } else if (bytes < (1u << 20)) {
    std::snprintf(text, sizeof text, "%.1f KiB", b / 1024);
  } else if (bytes < (1u << 30)) {
    std::snprintf(text, sizeof text, "%.1f MiB", b / (1 << 20));
  } else {
    std::snprintf(text, sizeof text, "%.2f GiB", b / (1 << 30));
  }
  return text;
}

// The fields of the processes sharing a machine must fit in its memory (9/10 of it, as
// DistanceTable::choose_engine asks of a threaded build). Collective.
void check_memory(World& world, const Board& board, std::uint64_t held) {
  MPI_Comm node;
  MPI_Comm_split_type(world.comm(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  unsigned long long need = held * 8;
  MPI_Allreduce(MPI_IN_PLACE, &need, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, node);
  int here = 0;
  MPI_Comm_size(node, &here);
  MPI_Comm_free(&node);
  world.together([&] {
    const std::uint64_t have = physical_memory();
    if (have && need > have / 10 * 9)
      throw ResourceError("the fields of the " + board.name() + " table held by the " + std::to_string(here) +
                          " processes on this machine need " + std::to_string(need) + " bytes (" + gib(need) +
                          "); it has " + gib(have));
  });
}

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int build(World& world, const BuildOptions& o) {
  std::optional<Target> t;
  world.together([&] {
    if (world.size() > kMaxProcesses)
      throw InputError("at most " + std::to_string(kMaxProcesses) + " processes, not " + std::to_string(world.size()));
    t = target(o);
  });
  StoreOptions store_options;
  store_options.dir = o.db;
  const TableStore store(store_options);
  const auto path = store.path_for(t->board, t->blank);
  // An existing valid two-bit file of this table is kept, as `tilespace build --bits 2` keeps it
  // (rank 0 loads and verifies it, with a store of its own that unmaps it at once; a bad one is a
  // DataError naming it).
  int up_to_date = 0;
  world.together([&] {
    up_to_date = world.root() && !o.force && TableStore(store_options).up_to_date(t->board, t->blank, 2);
  });
  MPI_Bcast(&up_to_date, 1, MPI_INT, 0, world.comm());
  if (up_to_date) {
    if (world.root()) std::printf("up to date: %s\n", path.string().c_str());
    return kExitOk;
  }

  const Ranker ranker(t->board, t->blank);
  const Slices slices(two_bit_words(ranker), world.size());
  const std::uint64_t held = slices.slice(world.rank()).held(slices.words());
  check_memory(world, t->board, held);
  CheckpointSet checkpoints(world, ranker, slices, store.checkpoint_for(t->board, t->blank));
  world.together([&] {
    std::error_code ec;
    if (world.root()) std::filesystem::create_directories(o.db, ec);
  });

  std::optional<LoadedCheckpoint> resumed;
  if (o.resume) {
    resumed = checkpoints.resume();
    world.note(resumed ? "resuming from " + checkpoints.pattern() + " at depth " +
                             std::to_string(resumed->progress.next_layer)
                       : "no checkpoints " + checkpoints.pattern() + ": starting from the goal");
  } else if (checkpoints.any_exists()) {
    world.note("starting over; " + checkpoints.pattern() +
               " are replaced at the first checkpoint (--resume continues them)");
  }
  std::shared_ptr<FieldArray> fields;
  world.together([&] { fields = resumed ? resumed->fields : std::make_shared<FieldArray>(held); });

  const bool show = world.root() && (o.progress || ::isatty(STDERR_FILENO));
  MpiBfsOptions bfs;
  if (show) {
    world.note(t->board.name() + " dealt to " + std::to_string(world.size()) +
               (world.size() == 1 ? " process: " : " processes: ") +
               std::to_string((slices.words() + (1u << kUnitWordsLog2) - 1) >> kUnitWordsLog2) + " units of " +
               std::to_string(1u << kUnitWordsLog2) + " words, round-robin");
    // The balance: the fewest and the most states of the layer one process expanded.
    bfs.on_layer = [](const MpiLayerReport& r) {
      std::fprintf(stderr,
                   "  depth %3d  %13llu states  %13llu total  %8.2f s  per process %llu..%llu  %10s exchanged in %llu "
                   "rounds\n",
                   r.depth, static_cast<unsigned long long>(r.states), static_cast<unsigned long long>(r.total),
                   r.seconds, static_cast<unsigned long long>(r.fewest), static_cast<unsigned long long>(r.most),
                   bytes_text(r.exchanged).c_str(), static_cast<unsigned long long>(r.rounds));
    };
  }
  auto last = std::chrono::steady_clock::now();
  if (o.checkpoint_every > 0) {
    // Rank 0's clock decides, so that every process saves between the same two layers.
    bfs.between_layers = [&](const TwoBitProgress& p) {
      int due = world.root() && since(last) >= o.checkpoint_every;
      MPI_Bcast(&due, 1, MPI_INT, 0, world.comm());
      if (!due) return;
      const auto start = std::chrono::steady_clock::now();
      checkpoints.save(p, fields->span());
      last = std::chrono::steady_clock::now();
      if (show) {
        char secs[32];
        std::snprintf(secs, sizeof secs, "%.2f", since(start));
        world.note("checkpoint " + checkpoints.pattern() + " saved before depth " + std::to_string(p.next_layer) +
                   " (" + secs + " s)");
      }
    };
  }

  const auto t0 = std::chrono::steady_clock::now();
  MpiBfsResult result =
      distributed_two_bit(world, ranker, slices, fields->span(), bfs, resumed ? &resumed->progress : nullptr);
  resumed.reset();
  DatabaseInfo info;
  info.kind = kKindTwoBitTable;
  info.goal = canonical_goal(t->board, t->blank);
  info.entries = ranker.size();
  info.histogram = std::move(result.histogram);
  info.farthest = std::move(result.farthest);
  write_database(world, path, info, slices, fields->span());
  checkpoints.remove();
  if (world.root())
    std::printf("built %s: %llu states, radius %d, 2 bits, %.2f s, %d process%s\n", path.string().c_str(),
                static_cast<unsigned long long>(ranker.size()), info.radius(), since(t0), world.size(),
                world.size() == 1 ? "" : "es");
  return kExitOk;
}

int run(World& world, int argc, char** argv) {
  CLI::App app{"tilespace-mpi: the two-bit distance table of a sliding-tile board, built by MPI processes"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("tilespace-mpi ") + kVersion);
  app.footer("Run it under mpirun: mpirun -np P tilespace-mpi build ... Exit codes: 0 ok, 2 usage or input error, "
             "3 database or checkpoint file error, 4 out of memory.");
  BuildOptions o;
  auto* build_cmd =
      app.add_subcommand("build", "Build the two-bit table of a goal (the file `tilespace build --bits 2` writes)");
  build_cmd->add_option("--board", o.board, "Board as WxH (default: from the goal, else 3x3)");
  build_cmd->add_option("--goal", o.goal, "Goal state; its blank cell picks the table (default: 1 2 ... N-1 0)");
  build_cmd->add_option("--db", o.db, "Folder of the databases")->capture_default_str();
  build_cmd->add_flag("--force", o.force, "Rebuild a file that exists (a valid file is otherwise kept: 'up to date')");
  build_cmd->add_flag("--resume", o.resume, "Continue from the processes' checkpoints in the database folder");
  build_cmd->add_option("--checkpoint-every", o.checkpoint_every,
                        "Save a checkpoint per process between layers at most every SECONDS (0: never)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e9));
  build_cmd->add_flag("--progress", o.progress,
                      "Report each layer on stderr, with the fewest and the most states one process expanded "
                      "(default: when stderr is a terminal)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // The same on every process: rank 0 prints, all return the same code.
    const bool info = dynamic_cast<const CLI::CallForHelp*>(&e) || dynamic_cast<const CLI::CallForAllHelp*>(&e) ||
                      dynamic_cast<const CLI::CallForVersion*>(&e);
    if (info) return world.root() ? app.exit(e) : kExitOk;
    std::string msg = e.what();
    std::replace(msg.begin(), msg.end(), '\n', ' ');
    world.note("error: " + msg + " (see --help)");
    return kExitInput;
  }
  return build(world, o);
}

}  // namespace

int main(int argc, char** argv) {
  // A file size limit makes writes fail (EFBIG), reported like any other write error, instead of
  // killing the process.
  std::signal(SIGXFSZ, SIG_IGN);
  World world(argc, argv);
  try {
    return run(world, argc, argv);
  } catch (const Exit& e) {
    return e.code;
  } catch (...) {
    world.abort(describe(std::current_exception()));
  }
}
