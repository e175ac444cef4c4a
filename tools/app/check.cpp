// The one check of every front end (check.hpp).
#include "app/check.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::app {

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
  for_each_content_line(input.text, [&](std::string_view line, std::uint64_t no) {
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
    if (keep != Keep::nothing) cl.start = std::string(line.substr(0, std::min(line.find('\t'), line.size())));
    if (each) each(cl, error ? nullptr : &verdict, error ? &*error : nullptr, goal);
    ++run.counted;
    if (keep != Keep::nothing) run.lines.push_back(std::move(cl));
  });
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

}  // namespace tilespace::app
