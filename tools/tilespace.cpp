// The `tilespace` command: build, query, stats, solve, verify, compare, serve. A thin layer over the
// library: this file registers the subcommands and their options and maps errors to the
// documented exit codes (errors.hpp); the subcommands live in tools/cli/ (commands.hpp).
#include <pthread.h>
#include <signal.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>

#include "cli/commands.hpp"
#include "cli/terminal.hpp"
#include "cli/completion.hpp"
#include "cli/messages.hpp"
#include "server/serve.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/search/automaton.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/version.hpp"

using namespace tilespace;
using namespace tilespace::cli;

int main(int argc, char** argv) {
  // Past a file-size limit (ulimit -f) a write fails with EFBIG and is reported like any write
  // error (exit 3, the temporary file removed), instead of SIGXFSZ ending the process mid-file.
  std::signal(SIGXFSZ, SIG_IGN);
  // A closed pipe ends the command quietly, as it ends cat (`tilespace random --count 1000000 |
  // head -1`): SIGPIPE's default action, even when the parent ignored or blocked it (a failed
  // write to standard output is otherwise exit 3). `serve` ignores it again (a client hanging up).
  std::signal(SIGPIPE, SIG_DFL);
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_UNBLOCK, &pipe_signal, nullptr);
  CLI::App app{"tilespace: exhaustive state spaces and optimal solutions of sliding-tile puzzles"};
  app.formatter(help_formatter());  // before the subcommands, which take it over
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("tilespace ") + kVersion);
  // Hidden (group ""): the bash completion script, made from the subcommands and options as
  // registered below (cli/completion.hpp). A callback, like --version, so it needs no subcommand:
  // it runs once the whole command is defined and parsing reaches it.
  app.add_flag_callback(
         "--bash-completion",
         [&app] {
           std::fputs(bash_completion(app).c_str(), stdout);
           throw CLI::Success();
         },
         "Print the bash completion script")
      ->group("");
  app.footer(
      "Exit codes (every command):\n"
      "  0  ok\n"
      "  1  unreachable (a batch with any unreachable pair too), or a check that failed\n"
      "  2  usage or input: a bad option, state, board, file or line, or an input with no line to answer\n"
      "  3  a database file: corrupt, truncated, foreign, or missing and too long to build on the fly\n"
      "     (the message gives the tilespace build command); or output that cannot be written: standard\n"
      "     output (\"standard output: write failed\") or a file (--result, --trace, --junit)\n"
      "  4  resources: out of memory, or a search limit (--max-nodes, --max-seconds, --max-memory, --depth-limit);\n"
      "     in check: a line left undecided (not proven within --max-seconds) and none failed");

  Common c;
  bool all_goals = false;
  std::optional<std::string> start;
  std::string batch;

  // --metric: build, query, stats, check and random (the exact tables, one file per metric); solve,
  // compare and verify take it with the solve options (search/registry.hpp), whose help it shares.
  const CLI::Validator metric_values = one_of("metric", {std::string(metric_name(Metric::single)),
                                                         std::string(metric_name(Metric::multi))});
  auto add_metric = [&](CLI::App* sub) {
    sub->add_option("--metric", c.metric, search::option_help(search::Option::metric) + "; each metric has its own tables")
        ->capture_default_str()
        ->check(metric_values);
  };
  BuildFlags bf;
  auto* build = app.add_subcommand(
      "build", "Build distance tables, pattern databases or the move automaton into the database folder");
  add_common(build, c);
  add_metric(build);
  build->add_flag("--all-goals", bf.all_goals,
                  "One table per blank class (cells alike under the board's mirrors and turns): every (start, goal) "
                  "pair");
  build->add_option("--pdb", bf.pdb,
                    "The pattern databases of a partition instead of a distance table: 7-8, 6-6-3, 5-5-5 (4x4), "
                    "6-6-6-6 (5x5), 4-4 (3x3), or tiles such as 1,2,3/4,5,6");
  build->add_option("--zpdb", bf.zpdb,
                    "The zero-aware pattern databases of a partition (one bit an entry; --heuristic zpdb): the "
                    "partitions of --pdb, patterns of at most N-3 tiles");
  build->add_flag("--force", bf.force, "Rebuild files that exist (a valid file is otherwise kept: 'up to date')");
  build->add_option("--bits", bf.bits,
                    "Bits a state in the table's file: 8 (the byte engine), or 1 or 2 (the two-bit engine, for boards "
                    "up to 16 cells whose byte table does not fit; distances by descent): 1 keeps floor(depth/2) mod 2 "
                    "(single-tile only), 2 the search's fields as they are (multi-tile: depth mod 3), twice the file; "
                    "default: 8 where the byte engine fits, else 1 (multi-tile: 2)")
      ->check(one_of("width in bits", {"1", "2", "8"}));
  auto* every = build->add_option("--checkpoint-every", bf.checkpoint_every,
                                  "Two-bit engine builds (--bits 1 or 2): save a checkpoint between layers at most "
                                  "every SECONDS (0: never)")
                    ->capture_default_str()
                    ->check(real_number(0, 1e9), "0 to 1e9");
  build->add_flag("--resume", bf.resume, "Two-bit engine builds: continue from the checkpoint in the database folder");
  build->add_flag("--count-only", bf.count_only,
                  "Count the states at each distance with the two-bit engine and write no table (no file, no "
                  "checkpoints)");
  build->add_flag("--automaton", bf.automaton,
                  "The move automaton instead of a table: IDA*'s duplicate pruning for every board, "
                  "<db>/moves-d<depth>.fsm");
  build->add_option_function<std::string>(
      "--automaton-depth", [&](const std::string& v) { bf.automaton_depth = v; },
      "With --automaton: the longest move strings compared, 1 to 30 (default " +
          std::to_string(search::MoveAutomaton::kDefaultDepth) +
          "; each level more prunes more and takes about 3 times the time and memory)");

  build->add_option_function<std::string>(
      "--max-memory", [&](const std::string& v) { bf.max_memory = v; },
      "Memory the build may use, e.g. 4G (default: the machine's); a build that needs more is refused with exit 4 "
      "before it starts (a table then takes the two-bit engine when that fits and --bits is not given)");

  auto* query = app.add_subcommand("query", "Print the optimal number of moves from START to the goal");
  query->add_option_function<std::string>("start", [&](const std::string& v) { start = v; },
                                          "Start state, e.g. '1 2 3 4 5 6 7 8 0' or 123456780, a file, or - / nothing for stdin");
  add_common(query, c, true, true, true);
  query->get_option("--goal")->description(
      "Goal state (default: 1 2 ... N-1 0); a goal in the start file, or on a --batch line, must be the same");
  add_metric(query);
  query->add_option("--batch", batch,
                    "Answer one 'START [GOAL]' a line from FILE ('-' for stdin): one answer per line in order "
                    "(length, unreachable, or error: MESSAGE; --json adds each line's number); comment (#) and "
                    "blank lines give no answer; with --goal, a line's own GOAL must be that goal (else an error line)");
  // 4x4 and 5x5 have no exact table: their answers are searched, within solve's limits.
  search::SolveRequest query_limits;
  for (const auto o : {search::Option::max_seconds, search::Option::max_nodes}) {
    std::optional<std::string>* field = query_limits.text(o);
    query->add_option_function<std::string>(
        "--" + std::string(search::option_name(o)), [field](const std::string& v) { *field = v; },
        "4x4 and 5x5 (searched, no exact table): " + search::option_help(o) + "; a batch line it stops says so");
  }

  auto* stats = app.add_subcommand("stats", "Depth histogram, radius, mean and farthest states");
  add_common(stats, c);
  add_metric(stats);
  stats->add_flag("--all-goals", all_goals,
                  "Also every blank class's histogram, radius and farthest states, and the longest optimal solution "
                  "between any two states");

  SolveFlags sf;
  auto* solve = app.add_subcommand("solve", "Solve one instance with a chosen algorithm and heuristic");
  solve->add_option_function<std::string>("start", [&](const std::string& v) { start = v; },
                                          "Start state, a file with the start (and goal), or - / nothing for stdin");
  add_common(solve, c, true, true, true);
  solve->get_option("--goal")->description(
      "Goal state (default: 1 2 ... N-1 0); a goal in the start file, or on a --batch line, must be the same");
  search::SolveRequest& rq = sf.request;
  auto text = [&](const char* name, std::optional<std::string>& to, const std::string& help) {
    return solve->add_option_function<std::string>(name, [&to](const std::string& v) { to = v; }, help);
  };
  text("--algorithm,-a", rq.algorithm,
       search::algorithm_names() +
           " (default: table where the exact table is at hand — built, or under a minute to build — else idastar; "
           "aidastar on boards over 16 cells)");
  // Every option of a solve request, from the registry (search/registry.hpp); the flag --trace
  // takes the file to write here.
  for (int i = 0; i < search::kOptions; ++i) {
    const auto o = static_cast<search::Option>(i);
    const std::string name = "--" + std::string(search::option_name(o));
    if (std::optional<std::string>* field = rq.text(o)) {
      CLI::Option* opt = text(name.c_str(), *field, search::option_help(o));
      if (o == search::Option::metric) opt->check(metric_values);  // as the other commands' --metric
    } else {
      solve->add_option(name, sf.trace, search::option_help(o));
    }
  }
  solve->add_option("--batch", sf.batch,
                    "Solve every 'START [GOAL] [<TAB>expected length]' line of FILE ('-' for stdin) in parallel over "
                    "--threads; one JSON line each, in order; with --goal, a line's own GOAL must be that goal (else an "
                    "error line)");
  solve->add_option("--result", sf.result,
                    "Write every board from start to goal to this file (or why there is none), e.g. result.txt");
  solve->add_flag("--animate", sf.animate, "Play the solution in the terminal, board by board");
  solve->add_option_function<int>("--delay", [&](int v) { sf.delay_ms = v; sf.delay_given = true; },
                                  "Milliseconds between boards with --animate (default 400)")
      ->check(whole_number(0, 10000), "0 to 10000");

  server::ServeFlags vf;
  auto* serve = app.add_subcommand("serve", "HTTP query service and web viewer (API: " + api_document() + ")");
  serve->add_option("--db", c.db, "Folder of the databases")->capture_default_str();
  serve->add_option("--threads", c.threads, "Threads for table builds (0: all cores)")->check(whole_number(0, 1024), "0 to 1024");
  serve->add_flag("--progress", c.progress, "Report each BFS layer of a table build on stderr");
  serve->add_option("--host", vf.host, "Address or name to listen on (127.0.0.1, ::1, localhost)")->capture_default_str();
  serve->add_option("--port", vf.port, "Port (0: any free port; the first stdout line tells)")
      ->capture_default_str()
      ->check(whole_number(0, 65535), "0 to 65535");
  serve->add_option("--static", vf.static_dir, "Serve the viewer from this folder instead of the built-in copy");
  serve->add_option("--workers", vf.workers, "Threads that answer searches, statistics and batches")
      ->capture_default_str()
      ->check(whole_number(1, 1024), "1 to 1024");
  serve->add_option("--io-threads", vf.io_threads, "Threads that hold the connections (0: one per two cores)")
      ->capture_default_str()
      ->check(whole_number(0, 256), "0 to 256");
  serve->add_option("--max-connections", vf.max_connections, "Open connections at once (more are closed)")
      ->capture_default_str()
      ->check(whole_number(1, 1'000'000), "1 to 1000000");
  serve->add_option("--max-solves", vf.max_solves, "Searches at once (0: one per core)")
      ->capture_default_str()
      ->check(whole_number(0, 1024), "0 to 1024");
  serve->add_option("--max-nodes", vf.max_nodes, "Expansions per search request")
      ->capture_default_str()
      ->check(whole_number(1, std::numeric_limits<std::uint64_t>::max()), "at least 1");
  serve->add_option("--max-seconds", vf.max_seconds, "Seconds per search request")
      ->capture_default_str()
      ->check(real_number(0, 1e9, true), "above 0");
  serve->add_option("--max-memory", vf.max_memory, "Search memory per request, e.g. 512M")->capture_default_str();
  serve->add_option("--trace-limit", vf.trace_limit, "Trace nodes per request")
      ->capture_default_str()
      ->check(whole_number(1, 10'000'000), "1 to 10000000");
  serve->add_option("--max-request", vf.max_request, "Largest batch body (POST /api/query), e.g. 64M; larger get 413")
      ->capture_default_str();

  LabFlags lf;
  auto* verify = app.add_subcommand("verify", "Check solvers against the exhaustive table on every (or a sample of) state");
  add_common(verify, c);
  add_metric(verify);
  verify->add_option("--algorithms", lf.algorithms,
                     "Solvers, e.g. bfs,astar:manhattan,idastar:linear-conflict (default: every optimal combination)");
  auto lab_text = [](CLI::App* sub, const char* name, std::optional<std::string>& to, const std::string& help) {
    sub->add_option_function<std::string>(name, [&to](const std::string& v) { to = v; }, help);
  };
  lab_text(verify, "--sample", lf.sample, "Check this many random states instead of all (at least 1)");
  lab_text(verify, "--seed", lf.seed, "Seed of --sample (default 1)");
  lab_text(verify, "--max-nodes", lf.max_nodes, "Per-instance expansion limit (at least 1)");
  lab_text(verify, "--max-seconds", lf.max_seconds, "Per-instance time limit in seconds (above 0)");

  auto* compare = app.add_subcommand("compare", "Run algorithms x heuristics on one instance or a suite; print a table");
  compare->add_option_function<std::string>("start", [&](const std::string& v) { start = v; },
                                            "Start state, a file with the start (and goal), or - / nothing for stdin");
  add_common(compare, c, true, true, true);
  compare->get_option("--goal")->description("Goal state (default: 1 2 ... N-1 0); a goal in the start file must be the same");
  add_metric(compare);
  compare->add_option("--suite", lf.suite, "File of 'START GOAL' lines (e.g. tools/suites/8puzzle-assignment.txt)");
  compare->add_option("--algorithms", lf.algorithms, "Solvers, e.g. bfs,astar:manhattan,idastar:linear-conflict");
  lab_text(compare, "--max-seconds", lf.max_seconds, "Per-run time limit in seconds (above 0; default 10)");
  lab_text(compare, "--max-nodes", lf.max_nodes, "Per-run expansion limit (at least 1)");
  lab_text(compare, "--sample", lf.sample,
           "Also the mean heuristic value of each solver's heuristic over this many random states of the goal "
           "(1 to 1000000); without START or --suite, only that");
  lab_text(compare, "--seed", lf.seed, "Seed of --sample (default 1)");
  auto* csv = compare->add_flag("--csv", lf.csv, "Print CSV");
  auto* md = compare->add_flag("--md", lf.md, "Print a Markdown table");
  csv->excludes(md);
  csv->excludes(compare->get_option("--json"));  // one output format at a time
  md->excludes(compare->get_option("--json"));

  CheckFlags cf;
  std::string check_file;
  auto* check = app.add_subcommand(
      "check", "Verify another solver's answers: one 'START<TAB>GOAL<TAB>ANSWER' a line (ANSWER: moves such as RDLU, "
               "a claimed optimal length, or unreachable)");
  check->add_option("file", check_file, "The answers ('-' for standard input)")->required();
  add_common(check, c, true, true, false);
  check->get_option("--goal")->description(
      "The goal of lines with an empty GOAL (default: 1 2 ... N-1 0); given, a line's own GOAL must be the same (else "
      "the line is malformed)");
  add_metric(check);
  check->add_option("--junit", cf.junit,
                    "Also write JUnit XML: one <testcase> per line, in order (a <failure> for a failed line, <skipped> "
                    "for an undecided one); a check stopped by an error removes the FILE of an earlier run");
  lab_text(check, "--max-seconds", cf.max_seconds,
           "4x4 and 5x5: time to prove each optimum by pattern-database search (above 0; default 60). A line not "
           "proven in time is undecided: not a pass, not a failure; exit 4 when some line is undecided and none "
           "failed or was malformed");

  RandomFlags rf;
  auto* random = app.add_subcommand("random", "Print random start states, uniform over those reachable from the goal");
  add_common(random, c, true, true, false);
  add_metric(random);
  lab_text(random, "--count", rf.count, "How many states, 1 to 1000000000 (default 1)");
  lab_text(random, "--depth", rf.depth, "Only states exactly this many moves from the goal: uniform among them from the distance table; on 4x4 "
           "(at most 45) and 5x5 (at most 55) random walks proven that far by search. Drawn with replacement");
  lab_text(random, "--seed", rf.seed, "Seed: the same seed gives the same states (default: random)");
  // --lang: every subcommand prints for a person (its messages, notices, tables and verdicts);
  // what it prints for a program (JSON, CSV, JUnit, the states of random, the HTTP API) stays English.
  for (CLI::App* sub : app.get_subcommands({}))
    sub->add_option("--lang", c.lang, "Messages in en or zh")->check(one_of("language", {"en", "zh"}));
  // Every option above: no empty value, --db a folder (cli/terminal.hpp).
  value_rules(app);

  // The language of the parser's own errors: CLI11 has not set c.lang when parsing fails, so
  // --lang zh (or --lang=zh) is looked for on the command line itself, up to a "--".
  const Messages parse_messages([&] {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--") break;
      if (arg == "--lang=zh" || (arg == "--lang" && i + 1 < argc && std::string(argv[i + 1]) == "zh")) return "zh";
    }
    return "en";
  }());
  if (argc > 1 && argv[1][0] != '-') {
    const std::string sub = argv[1];
    bool known = false;
    for (const auto* s : app.get_subcommands({})) known = known || s->get_name() == sub;
    if (!known) {
      std::fprintf(stderr,
                   parse_messages.zh()
                       ? "tilespace: 错误：未知子命令 '%s'（可用：build、query、stats、solve、check、random、verify、"
                         "compare、serve；见 --help）\n"
                       : "tilespace: error: unknown subcommand '%s' (build, query, stats, solve, check, random, verify, "
                         "compare, serve; see --help)\n",
                   sub.c_str());
      return kExitInput;
    }
  }

  // One error line on stderr: "tilespace: KIND: MESSAGE", in the language `m` speaks.
  auto report = [](const Messages& m, const char* kind, const std::exception& e, int code) {
    std::fprintf(stderr, "tilespace: %s%s%s\n", m.get(kind).c_str(), m.colon().c_str(), m.error(e).c_str());
    return code;
  };
  try {
    if (const std::string empty = empty_after_equals(app, argc, argv); !empty.empty()) throw CLI::ValidationError(empty);
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version, --bash-completion (CLI11's CallFor* are Success)
    // What they printed, flushed and checked as a command's output.
    const int code = app.exit(e);
    try {
      flush_out();
    } catch (const DataError& d) {
      return report(parse_messages, "file error", d, kExitData);
    }
    return code;
  } catch (const CLI::ParseError& e) {
    std::string msg = parse_error_text(app, e, argc, argv);
    std::replace(msg.begin(), msg.end(), '\n', ' ');
    const Messages& m = parse_messages;
    std::fprintf(stderr, "tilespace: %s%s%s%s\n", m.get("error").c_str(), m.colon().c_str(), m.text(msg).c_str(),
                 m.zh() ? "（见 --help）" : " (see --help)");
    return kExitInput;
  }
  // Notices and progress lines of the application layer in the chosen language (Common::wording).
  if (c.lang != "en") c.wording = [m = Messages(c.lang)](const std::string& s) { return m.text(s); };
  // One line on stderr, in the chosen language.
  auto fail = [&](const std::exception& e, const char* kind, int code) { return report(Messages(c.lang), kind, e, code); };
  // The subcommand; its output is flushed and checked after it returns (one output path,
  // terminal.hpp): a failed write is exit 3, "standard output: write failed", whatever it answered.
  auto run = [&]() -> int {
    if (build->parsed()) {
      bf.checkpoint_given = every->count() > 0;
      bf.threads_given = build->count("--threads") > 0;
      return cmd_build(c, bf);
    }
    if (query->parsed()) {
      if (!batch.empty() && start) throw InputError("give either START or --batch FILE, not both");
      if (!batch.empty() && !c.blank.empty()) throw option_error("blank", "does not apply with --batch (numbered tiles only)");
      if (!batch.empty() && query->count("--lang")) throw option_error("lang", "does not apply with --batch (one answer a line)");
      return batch.empty() ? cmd_query(c, start, query_limits) : cmd_batch(c, batch, query_limits);
    }
    if (stats->parsed()) return cmd_stats(c, all_goals);
    if (solve->parsed()) {
      if (!sf.batch.empty() && !c.blank.empty()) throw option_error("blank", "does not apply with --batch (numbered tiles only)");
      if (!sf.batch.empty() && solve->count("--lang")) throw option_error("lang", "does not apply with --batch (JSON lines)");
      return cmd_solve(c, start, sf);
    }
    if (verify->parsed()) return cmd_verify(c, lf);
    if (compare->parsed()) return cmd_compare(c, start, lf);
    if (serve->parsed()) return server::cmd_serve(c, vf);
    if (check->parsed()) return cmd_check(c, check_file, cf);
    if (random->parsed()) return cmd_random(c, rf);
    return kExitInput;
  };
  try {
    const int code = run();
    // serve's one line ("listening on ...") is a notice to whoever started it, written before it
    // runs for hours: the server is not stopped or failed by where that line went.
    if (!serve->parsed()) flush_out();
    return code;
  } catch (const InputError& e) {
    return fail(e, "error", kExitInput);
  } catch (const DataError& e) {
    return fail(e, "file error", kExitData);
  } catch (const ResourceError& e) {
    return fail(e, "out of resources", kExitResource);
  } catch (const std::bad_alloc&) {
    return fail(std::runtime_error("out of memory"), "out of resources", kExitResource);
  } catch (const std::exception& e) {
    return fail(e, "error", kExitInput);
  }
}
