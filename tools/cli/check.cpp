// `tilespace check FILE`: verifies another solver's answers (check.hpp decides each line), and
// `tilespace random`: start states for such a run (random_states.hpp), the same code as /api/random.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/check.hpp"
#include "app/random.hpp"
#include "app/report.hpp"
#include "cli/commands.hpp"
#include "cli/messages.hpp"
#include "cli/terminal.hpp"
#include "tilespace/check.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/random_states.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::cli {

using nlohmann::json;

namespace {

int check_lines(Common& c, const std::string& file, const CheckFlags& f) {
  const Messages m(c.lang);
  const double max_seconds = f.max_seconds ? parse_real("max-seconds", *f.max_seconds, 0, 1e9, true) : 60.0;
  if (!f.junit.empty()) require_writable(f.junit);  // refused before any line is checked
  const InputText input = read_input(file);
  // The lines are kept for --junit and --json only (--junit needs the messages of failures only);
  // the text report is printed as they are decided.
  const Keep keep = c.json ? Keep::everything : !f.junit.empty() ? Keep::failures : Keep::nothing;
  std::string out;
  auto print = [&](const CheckLine& cl, const LineVerdict* verdict, const InputError* error, const State& goal) {
    if (error)
      std::fprintf(stderr, "tilespace: %s%s%s\n", m.get("error").c_str(), m.colon().c_str(),
                   m.error(error->at_line(input.name, cl.line)).c_str());
    if (c.json) return;
    out += m.line_no(cl.line);
    if (error) {
      out += m.get("malformed") + m.colon() + m.error(*error);
    } else {
      out += verdict->verdict == Verdict::ok          ? m.get("ok")
             : verdict->verdict == Verdict::undecided ? m.get("undecided")
                                                      : m.get("FAILED") + " " + m.get(verdict_name(verdict->verdict));
      out += m.colon() + m.describe(*verdict, goal);
    }
    out += '\n';
    if (out.size() > (1 << 16)) {
      write_out(out);  // a failed write stops the check here (terminal.hpp)
      out.clear();
    }
  };
  const CheckRun run = run_check(c, input, max_seconds, keep, print);
  write_out(out);

  if (c.json) {
    std::puts(check_json(run).dump().c_str());
  } else {
    std::string kinds;
    for (int v = 0; v < kVerdicts; ++v)
      if (v != static_cast<int>(Verdict::ok) && v != static_cast<int>(Verdict::undecided) && run.summary.by_verdict[v])
        kinds += (kinds.empty() ? "" : m.zh() ? "，" : ", ") + std::to_string(run.summary.by_verdict[v]) + " " +
                 m.get(verdict_name(static_cast<Verdict>(v)));
    std::printf("%s\n", m.check_summary(run.counted, run.summary.passed, run.failed(), run.undecided(), run.malformed,
                                        kinds, run.summary.total_excess, run.seconds)
                            .c_str());
    std::fflush(stdout);
  }
  if (!f.junit.empty()) {
    std::vector<JUnitCase> cases;
    cases.reserve(run.lines.size());
    for (const auto& l : run.lines) {
      JUnitCase jc;
      jc.name = "line " + std::to_string(l.line) + ": " + l.start;
      jc.classname = input.name;
      if (!l.error.empty()) {
        jc.failed = true;
        jc.error = true;  // not judged: an <error>, not a <failure>
        jc.failure_type = "malformed";
        jc.message = l.error;
      } else if (l.verdict == Verdict::undecided) {
        jc.skipped = true;  // not decided: neither passed nor failed
        jc.message = l.message;
      } else if (l.verdict != Verdict::ok) {
        jc.failed = true;
        jc.failure_type = verdict_name(l.verdict);
        jc.message = l.message;
      }
      jc.seconds = l.seconds;
      cases.push_back(std::move(jc));
    }
    write_file_atomic(f.junit, junit_xml("tilespace check " + input.name, cases));
  }

  if (run.malformed) return kExitInput;
  if (run.failed()) return kExitUnreachable;
  if (run.undecided()) return kExitResource;
  return kExitOk;
}

}  // namespace

int cmd_check(Common& c, const std::string& file, const CheckFlags& f) {
  try {
    return check_lines(c, file, f);
  } catch (...) {
    // Stopped by an error (a bad option, a missing or empty input, a database, the report's own
    // write): no --junit report of an earlier run is left looking like this run's.
    if (!f.junit.empty()) remove_stale_output(f.junit, file);
    throw;
  }
}

// ---- random ----

int cmd_random(Common& c, const RandomFlags& f) {
  const Problem p = read_problem(c, std::nullopt);
  const std::uint64_t count = f.count ? parse_whole("count", *f.count, 1, 1'000'000'000) : 1;
  const RandomOptions o = parse_random_options(f.seed, f.depth);
  if (metric_option(c) != Metric::single) {
    if (!o.depth) throw option_error("metric", "applies with --depth (the reachable states are the same in both metrics)");
    require_answer_metric(c, p.goal.board);  // 4x4: multi-tile walks, proven by multi-tile searches
  }
  app::SearchSources sources(c);
  const GoalTable* table = nullptr;
  if (o.depth && app::RandomSampler::needs_table(p.goal.board)) table = &sources.tables().goal(p.goal.board, p.goal.blank);
  app::RandomSampler states(sources, c.threads, p.goal, o, table, metric_option(c));
  std::string out;
  for (std::uint64_t i = 0; i < count; ++i) {
    const State s = states.next();
    if (c.json) {
      json j{{"state", tiles_json(s)}};
      if (o.depth) j["length"] = *o.depth;
      out += j.dump();
    } else {
      out += s.to_string();
    }
    out += '\n';
    if (out.size() > (1 << 16)) {
      write_out(out);  // a failed write stops the count here (terminal.hpp)
      out.clear();
    }
  }
  write_out(out);
  return kExitOk;
}

}  // namespace tilespace::cli
