// One solve, as every front end makes it (the command line's `solve`, the server's /api/solve,
// Python's solve()): planned by the registry (search/registry.hpp) with the front end's defaults
// and ceilings, the exact table used where it is at hand, the databases prepared through the
// session's sources, traced when asked, and searched.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>

#include "app/common.hpp"
#include "tilespace/goal_table.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"

namespace tilespace::app {

// The planning context of the command line and Python: no ceilings; a search may use 3/4 of
// physical memory, aidastar's A* default_hybrid_memory().
search::PlanContext default_plan_context();

// The steps of a solve, in order: where one stopped, for front ends that answer each one's
// errors in their own way (the server: a planning ResourceError is a request too large).
enum class SolveStep { planning, preparing, searching };

// What a front end sets of a solve.
struct SolveSettings {
  search::PlanContext context = default_plan_context();  // board and table_available are filled in
  bool announce = false;  // the databases' loading time on stderr (a terminal, or --progress)
  // Called just before the search (after planning and preparing): the server takes a search slot.
  std::function<void()> before_search;
  SolveStep* step = nullptr;  // kept up to date when given
};

struct SolveOutcome {
  search::SolvePlan plan;
  std::string heuristic;  // as reported ("pdb:7-8" for plain "pdb")
  search::Result result;
  const GoalTable* table = nullptr;  // the goal's table when the plan used it
  std::unique_ptr<search::Trace> trace;  // when the plan asked for one
};

// The metric a request asks for (single when not given or unknown: planning rejects the latter).
Metric request_metric(const search::SolveRequest& request);

// Solves `p` (its start must be given) with `request`: the one solve of every front end.
SolveOutcome solve_problem(Common& c, SearchSources& sources, const Problem& p, const search::SolveRequest& request,
                           const SolveSettings& settings = {});

// The answer of `solve --json`, Python's solve(): result_json (report.hpp) with the path, and the
// tiles' names when the problem named them.
nlohmann::json solve_answer_json(const Problem& p, const std::string& algorithm, const std::string& heuristic,
                                 const search::Result& r);

}  // namespace tilespace::app
