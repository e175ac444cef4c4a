// The `tilespace` command: build, query, stats, solve, verify, compare, serve. A thin layer over the
// library: this file registers the subcommands and their options and maps errors to the
// documented exit codes (errors.hpp); the subcommands live in tools/cli/ (commands.hpp).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "tilespace/errors.hpp"

using namespace tilespace;
using namespace tilespace::cli;

int main(int argc, char** argv) {
  CLI::App app{"tilespace: exhaustive state spaces and optimal solutions of sliding-tile puzzles"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tilespace 0.1.0");
  app.footer("Exit codes: 0 ok, 1 unreachable, 2 usage or input error, 3 database file error, 4 out of memory or a search limit hit.");

  Common c;
  bool all_goals = false;
  std::string start, batch;

  BuildFlags bf;
  auto* build = app.add_subcommand("build", "Build distance tables or pattern databases into the database folder");
  add_common(build, c);
  build->add_flag("--all-goals", bf.all_goals, "One table per blank cell: every (start, goal) pair");
  build->add_option("--pdb", bf.pdb,
                    "The pattern databases of a partition instead of a distance table: 7-8, 6-6-3, 5-5-5 (4x4), "
                    "6-6-6-6 (5x5), 4-4 (3x3), or tiles such as 1,2,3/4,5,6");
  build->add_flag("--force", bf.force, "Rebuild files that exist (a valid file is otherwise kept: 'up to date')");
  build->add_option("--bits", bf.bits,
                    "Engine: 8 (a byte a state) or 2 (two bits a state, for boards up to 16 cells whose byte table "
                    "does not fit; distances by descent); default: 8 where it fits, else 2")
      ->check(CLI::IsMember({2, 8}));
  auto* every = build->add_option("--checkpoint-every", bf.checkpoint_every,
                                  "Two-bit builds: save a checkpoint between layers at most every SECONDS (0: never)")
                    ->capture_default_str()
                    ->check(CLI::Range(0.0, 1e9));
  build->add_flag("--resume", bf.resume, "Two-bit builds: continue from the checkpoint in the database folder");

  auto* query = app.add_subcommand("query", "Print the optimal number of moves from START to the goal");
  query->add_option("start", start, "Start state, e.g. '1 2 3 4 5 6 7 8 0' or 123456780, or a file");
  add_common(query, c);
  query->add_option("--batch", batch, "Answer one 'START [GOAL]' a line from FILE ('-' for stdin)");
  query->add_option("--lang", c.lang, "Messages in en or zh")->check(CLI::IsMember({"en", "zh"}));

  auto* stats = app.add_subcommand("stats", "Depth histogram, radius, mean and farthest states");
  add_common(stats, c);
  stats->add_flag("--all-goals", all_goals, "Also the longest optimal solution between any two states");

  SolveFlags sf;
  auto* solve = app.add_subcommand("solve", "Solve one instance with a chosen algorithm and heuristic");
  solve->add_option("start", start, "Start state, a file with the start (and goal), or - / nothing for stdin");
  add_common(solve, c);
  solve->add_option("--algorithm,-a", sf.algorithm,
                    "table (default where a table fits), bfs, bibfs, dfs, iddfs, greedy, astar, wastar, idastar");
  solve->add_option("--heuristic", sf.heuristic,
                    "misplaced, manhattan (default), linear-conflict, inversions, inversions-weighted, "
                    "misplaced-inversions, misplaced-shared-pairs, index-distance, exact; or pattern databases: "
                    "pdb:7-8, pdb:6-6-3, pdb:5-5-5 (4x4), pdb:6-6-6-6 (5x5), pdb:4-4 (3x3), pdb:1,2,3/4,5,6 (with idastar)");
  solve->add_option("--pattern", sf.pattern, "Pattern-database partition: a stock name or tiles, e.g. 1,2,3,4,5,6,7/8,9,10,11,12,13,14,15");
  solve->add_option("--batch", sf.batch,
                    "Solve every 'START [GOAL] [<TAB>expected length]' line of FILE ('-' for stdin) in parallel over "
                    "--threads; one JSON line each, in order");
  solve->add_option("--weight", sf.weight, "wastar: f = g + weight*h (default 2)")->check(CLI::Range(1.0, 100.0));
  solve->add_option("--depth-limit", sf.depth_limit, "dfs: depth limit; iddfs: largest limit (default 50)")
      ->check(CLI::Range(0, 1000));
  solve->add_option("--max-nodes", sf.max_nodes, "Stop after this many expansions (exit 4)");
  solve->add_option("--max-seconds", sf.max_seconds, "Stop after this many seconds (exit 4)")->check(CLI::PositiveNumber);
  solve->add_option("--max-memory", sf.max_memory,
                    "Stop when search structures exceed this (e.g. 512M; default 3/4 of memory; exit 4)");
  solve->add_option("--result", sf.result, "Write every board from start to goal to this file (result.txt)");
  solve->add_flag("--animate", sf.animate, "Play the solution in the terminal, board by board");
  solve->add_option("--delay", sf.delay_ms, "Milliseconds between boards with --animate")->check(CLI::Range(0, 10000));
  solve->add_option("--lang", c.lang, "Messages in en or zh")->check(CLI::IsMember({"en", "zh"}));
  solve->add_option("--trace", sf.trace,
                    "Write the result and the search tree (the viewer's JSON: data, process, moves) to this file");
  solve->add_option("--trace-limit", sf.trace_limit, "Nodes recorded by --trace (default 100000)")
      ->check(CLI::Range(1, 10000000));

  ServeFlags vf;
  auto* serve = app.add_subcommand("serve", "HTTP query service and web viewer (API: tools/viewer/API.md)");
  serve->add_option("--db", c.db, "Folder of the databases")->capture_default_str();
  serve->add_option("--threads", c.threads, "Threads for table builds (0: all cores)")->check(CLI::Range(0, 1024));
  serve->add_flag("--progress", c.progress, "Report each BFS layer of a table build on stderr");
  serve->add_option("--host", vf.host, "Address to listen on")->capture_default_str();
  serve->add_option("--port", vf.port, "Port (0: any free port; the first stdout line tells)")->capture_default_str();
  serve->add_option("--static", vf.static_dir, "Serve the viewer from this folder instead of the built-in copy");
  serve->add_option("--workers", vf.workers, "Connections served at once")->capture_default_str();
  serve->add_option("--max-solves", vf.max_solves, "Searches at once (0: one per core)")->capture_default_str();
  serve->add_option("--max-nodes", vf.max_nodes, "Expansions per search request")->capture_default_str();
  serve->add_option("--max-seconds", vf.max_seconds, "Seconds per search request")->capture_default_str();
  serve->add_option("--max-memory", vf.max_memory, "Search memory per request, e.g. 512M")->capture_default_str();
  serve->add_option("--trace-limit", vf.trace_limit, "Trace nodes per request")->capture_default_str();
  serve->add_option("--max-request", vf.max_request, "Largest request body in bytes")->capture_default_str();

  if (argc > 1 && argv[1][0] != '-') {
    const std::string sub = argv[1];
    if (sub != "build" && sub != "query" && sub != "stats" && sub != "solve" && sub != "verify" && sub != "compare" &&
        sub != "serve") {
      std::fprintf(stderr,
                   "tilespace: error: unknown subcommand '%s' (build, query, stats, solve, verify, compare, serve; see --help)\n",
                   sub.c_str());
      return kExitInput;
    }
  }
  LabFlags lf;
  auto* verify = app.add_subcommand("verify", "Check solvers against the exhaustive table on every (or a sample of) state");
  add_common(verify, c);
  verify->add_option("--algorithms", lf.algorithms,
                     "Solvers, e.g. bfs,astar:manhattan,idastar:linear-conflict (default: every optimal combination)");
  verify->add_option("--sample", lf.sample, "Check this many random states instead of all");
  verify->add_option("--seed", lf.seed, "Seed of the sample")->capture_default_str();
  verify->add_option("--max-nodes", lf.max_nodes, "Per-instance expansion limit");
  verify->add_option("--max-seconds", lf.max_seconds, "Per-instance time limit")->check(CLI::PositiveNumber);

  auto* compare = app.add_subcommand("compare", "Run algorithms x heuristics on one instance or a suite; print a table");
  compare->add_option("start", start, "Start state (or a file with start and goal)");
  add_common(compare, c);
  compare->add_option("--suite", lf.suite, "File of 'START GOAL' lines (e.g. tools/suites/8puzzle-assignment.txt)");
  compare->add_option("--algorithms", lf.algorithms, "Solvers, e.g. bfs,astar:manhattan,idastar:linear-conflict");
  compare->add_option("--max-seconds", lf.max_seconds, "Per-run time limit (default 10)")->check(CLI::PositiveNumber);
  compare->add_option("--max-nodes", lf.max_nodes, "Per-run expansion limit");
  auto* csv = compare->add_flag("--csv", lf.csv, "Print CSV");
  auto* md = compare->add_flag("--md", lf.md, "Print a Markdown table");
  csv->excludes(md);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    std::replace(msg.begin(), msg.end(), '\n', ' ');
    std::fprintf(stderr, "tilespace: error: %s (see --help)\n", msg.c_str());
    return kExitInput;
  }
  try {
    if (build->parsed()) {
      bf.checkpoint_given = every->count() > 0;
      return cmd_build(c, bf);
    }
    if (query->parsed()) {
      if (!batch.empty() && !start.empty()) throw InputError("give either START or --batch FILE, not both");
      return batch.empty() ? cmd_query(c, start) : cmd_batch(c, batch);
    }
    if (stats->parsed()) return cmd_stats(c, all_goals);
    if (solve->parsed()) return cmd_solve(c, start, sf);
    if (verify->parsed()) return cmd_verify(c, lf);
    if (compare->parsed()) return cmd_compare(c, start, lf);
    if (serve->parsed()) return cmd_serve(c, vf);
  } catch (const InputError& e) {
    std::fprintf(stderr, "tilespace: error: %s\n", e.what());
    return kExitInput;
  } catch (const DataError& e) {
    std::fprintf(stderr, "tilespace: database error: %s\n", e.what());
    return kExitData;
  } catch (const ResourceError& e) {
    std::fprintf(stderr, "tilespace: out of resources: %s\n", e.what());
    return kExitResource;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "tilespace: out of resources: out of memory\n");
    return kExitResource;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilespace: error: %s\n", e.what());
    return kExitInput;
  }
  return kExitInput;
}
