// The one check of every front end (check.hpp).
#include "app/check.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>

#include "app/oracle.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::app {

using nlohmann::json;

CheckRun run_check(Common& c, const InputText& input, double max_seconds, Keep keep, const CheckLineSink& each) {
  const std::optional<Board> board = board_option(c);
  const std::optional<State> default_goal = goal_option(c);
  const Metric metric = metric_option(c);
  if (board) require_answer_metric(c, *board);
  search::Limits limits;
  limits.max_seconds = max_seconds;
  SearchSources sources(c);
  Oracle oracle(sources, c.threads, limits, false, default_plan_context(), metric);
  auto optimum = [&](const State& start, const State& goal) { return oracle(start, goal).optimum; };
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
      if (!board) require_answer_metric(c, goal.board);
      verdict = check_answer(fields.start, goal, answer, optimum, metric);
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
    if (v != static_cast<int>(Verdict::ok) && v != static_cast<int>(Verdict::undecided))
      by[verdict_name(static_cast<Verdict>(v))] = run.summary.by_verdict[v];
  return json{{"lines", run.counted},       {"passed", run.summary.passed},  {"failed", run.failed()},
              {"undecided", run.undecided()}, {"malformed", run.malformed},  {"failed_by_kind", by},
              {"total_excess", run.summary.total_excess}, {"seconds", run.seconds}, {"verdicts", verdicts}};
}

}  // namespace tilespace::app
