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

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/messages.hpp"
#include "cli/report.hpp"
#include "tilespace/check.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/pdb/heuristic.hpp"
#include "tilespace/search/automaton.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/query.hpp"
#include "tilespace/random_states.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::cli {

using nlohmann::json;

namespace {

// The optimum of a pair: from the exact table where the board has one, else proven by the
// board's default search with pattern databases (planned and prepared as `tilespace solve` does)
// within --max-seconds per line.
class Oracle {
 public:
  Oracle(Common& c, double max_seconds) : c_(c), sources_(c), max_seconds_(max_seconds) {}

  Optimum operator()(const State& start, const State& goal) {
    if (const GoalTable* t = table(goal)) {
      const auto d = t->distance(start, goal);
      return {d.has_value(), d.value_or(0)};
    }
    const search::Result r = search::solve(start, goal, search_for(goal));
    return {r.solved, r.solved ? r.length() : 0};
  }

 private:
  const GoalTable* table(const State& goal) {
    const std::string key = goal.board.name() + "/" + std::to_string(goal.blank);
    if (const auto it = tables_by_goal_.find(key); it != tables_by_goal_.end()) return it->second;
    // Where no table can exist (4x4): pattern databases.
    const GoalTable* t = table_can_exist(goal.board) ? &sources_.tables().goal(goal.board, goal.blank) : nullptr;
    tables_by_goal_[key] = t;
    return t;
  }
  // The search options of `goal`, made once per goal.
  const search::SolveOptions& search_for(const State& goal) {
    const std::string key = goal.board.name() + "|" + goal.to_string();
    auto it = options_.find(key);
    if (it == options_.end()) {
      search::SolveRequest q;
      q.heuristic = "pdb";
      search::PlanContext ctx;
      ctx.board = goal.board;
      ctx.default_hybrid_bytes = default_hybrid_memory();
      search::SolvePlan plan = search::plan_solve(q, ctx);
      plan.limits.max_seconds = max_seconds_;
      search::SolveOptions o = search::solve_options(plan);
      o.threads = c_.threads;
      sources_.prepare(plan, goal, o, false);
      it = options_.emplace(key, o).first;
    }
    return it->second;
  }

  const Common& c_;
  SearchSources sources_;
  double max_seconds_;
  std::map<std::string, const GoalTable*> tables_by_goal_;
  std::map<std::string, search::SolveOptions> options_;
};

}  // namespace

CheckRun run_check(Common& c, const InputText& input, double max_seconds, Keep keep, const CheckLineSink& each) {
  const std::optional<Board> board = board_option(c);
  const std::optional<State> default_goal = goal_option(c);
  Oracle oracle(c, max_seconds);
  CheckRun run;
  const auto t0 = std::chrono::steady_clock::now();
  LineReader reader(input.text);
  std::string_view line;
  std::uint64_t no = 0;
  while (reader.next(line, no)) {
    if (blank_line(line)) continue;
    CheckLine cl;
    cl.line = no;
    LineVerdict verdict;
    State goal;
    std::optional<InputError> error;
    const auto line_t0 = std::chrono::steady_clock::now();
    try {
      const CheckFields fields = parse_check_line(line, board, default_goal);
      goal = fields.goal;
      const Answer answer = parse_answer(fields.answer_text);
      verdict = check_answer(fields.start, goal, answer, oracle);
      cl.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - line_t0).count();
      cl.verdict = verdict.verdict;
      cl.answered = verdict.answered;
      cl.optimal = verdict.optimal;
      if (keep == Keep::everything || (keep == Keep::failures && verdict.verdict != Verdict::ok))
        cl.message = describe(verdict, goal);
      run.summary.add(verdict);
    } catch (const InputError& e) {
      error = e;
      cl.error = e.what();
      ++run.malformed;
    }
    if (each) each(cl, error ? nullptr : &verdict, error ? &*error : nullptr, goal);
    ++run.counted;
    if (keep != Keep::nothing) run.lines.push_back(std::move(cl));
  }
  if (run.counted == 0) throw InputError(InputError::About::file, "no answers in it", input.name);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return run;
}

json check_json(const CheckRun& run) {
  json verdicts = json::array();
  for (const auto& l : run.lines) {
    json j{{"line", l.line}};
    if (!l.error.empty()) {
      j["verdict"] = "malformed";
      j["error"] = l.error;
    } else {
      j["verdict"] = verdict_name(l.verdict);
      j["answered"] = l.answered < 0 ? json(nullptr) : json(l.answered);
      j["optimal"] = l.optimal < 0 ? json(nullptr) : json(l.optimal);
      j["message"] = l.message;
    }
    verdicts.push_back(std::move(j));
  }
  json by = json::object();
  for (int v = 0; v < kVerdicts; ++v)
    if (v != static_cast<int>(Verdict::ok)) by[verdict_name(static_cast<Verdict>(v))] = run.summary.by_verdict[v];
  return json{{"lines", run.counted},       {"passed", run.summary.passed},  {"failed", run.failed()},
              {"undecided", run.undecided()}, {"malformed", run.malformed},  {"failed_by_kind", by},
              {"total_excess", run.summary.total_excess}, {"seconds", run.seconds}, {"verdicts", verdicts}};
}

int cmd_check(Common& c, const std::string& file, const CheckFlags& f) {
  const Messages m(c.lang);
  const double max_seconds = f.max_seconds ? search::parse_real("max-seconds", *f.max_seconds, 0, 1e9, true) : 60.0;
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
      std::fwrite(out.data(), 1, out.size(), stdout);
      out.clear();
    }
  };
  const CheckRun run = run_check(c, input, max_seconds, keep, print);
  std::fwrite(out.data(), 1, out.size(), stdout);

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
      jc.name = "line " + std::to_string(l.line);
      jc.classname = input.name;
      if (!l.error.empty()) {
        jc.failed = true;
        jc.failure_type = "malformed";
        jc.message = l.error;
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

// ---- random ----

int cmd_random(Common& c, const RandomFlags& f) {
  const Problem p = read_problem(c, std::nullopt);
  const std::uint64_t count = f.count ? search::parse_whole("count", *f.count, 1, 1'000'000'000) : 1;
  const RandomOptions o = parse_random_options(f.seed, f.depth);
  TableStore store = make_store(c);
  const GoalTable* table = nullptr;
  if (o.depth) {
    if (!is_packed(p.board))
      throw option_error("depth", "needs the distance table, and the " + p.board.name() + " board has none");
    table = &store.goal(p.goal.board, p.goal.blank);
  }
  RandomStates states(p.goal, o, table);
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
      if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size()) throw DataError("standard output: write failed");
      out.clear();
    }
  }
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size() || std::fflush(stdout) != 0)
    throw DataError("standard output: write failed");
  return kExitOk;
}

}  // namespace tilespace::cli
