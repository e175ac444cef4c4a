// The HTTP service's work (service.hpp).
#include "server/service.hpp"

#include <optional>
#include <random>
#include <sstream>

#include "app/report.hpp"
#include "app/keywords.hpp"
#include "app/oracle.hpp"
#include "app/random.hpp"
#include "app/solve.hpp"
#include "server/http_params.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/query.hpp"
#include "tilespace/random_states.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/version.hpp"

namespace tilespace::server {

using nlohmann::json;

namespace {

// /api/solve's parameters: the pair, the algorithm, and every option of a solve request by its
// keyword (search/registry.hpp: "max_nodes"; the flag trace among them).
const std::vector<std::string_view>& solve_parameters() {
  static const std::vector<std::string> keywords = [] {
    std::vector<std::string> v;
    for (int i = 0; i < search::kOptions; ++i)
      v.push_back(app::keyword_name(std::string(search::option_name(static_cast<search::Option>(i)))));
    return v;
  }();
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v{"start", "goal", "board", "algorithm"};
    v.insert(v.end(), keywords.begin(), keywords.end());
    return v;
  }();
  return names;
}

}  // namespace

const GoalTable* Service::table(const Board& b, int blank, Metric m) { return sources_.table(b, blank, m); }

Metric Service::metric_param(const Params& p, const Board& board, bool answered) {
  try {
    const Metric m = metric_option(p.get("metric").value_or("single"));
    if (answered) app::require_answer_metric(m, board);
    else app::require_table_metric(m, board);
    return m;
  } catch (const InputError& e) {
    throw http_error(e);
  }
}

const GoalTable& Service::need_table(const State& goal, Metric m) {
  if (const GoalTable* t = table(goal.board, goal.blank, m)) return *t;
  if (is_packed(goal.board)) {
    try {
      DistanceTable::check_fits(goal.board, m);
    } catch (const ResourceError& e) {  // e.g. 4x4: no table can exist on this machine
      throw HttpError(404, "board", "no distance table for " + goal.board.name() + ": " + e.what() +
                                        " (/api/solve searches it instead)");
    }
  }
  throw HttpError(404, "board",
                  "no distance table for " + goal.board.name() + " with this goal" +
                      (is_packed(goal.board) ? "; build it with: " + build_command(goal, sources_.tables(m).dir(),
                                                                                    m == Metric::multi ? "--metric multi" : "")
                                             : " (boards over 16 cells have none)"));
}

json Service::info() const {
  json algs = json::array(), heus = json::array();
  for (const auto& a : search::algorithm_catalog())
    algs.push_back({{"name", a.name}, {"optimal", a.optimal}, {"uses_heuristic", a.uses_heuristic},
                    {"multi_tile", !a.single_tile_only}, {"description", a.description}});
  for (const auto& h : search::heuristic_catalog())
    heus.push_back({{"name", h.name}, {"admissible", h.admissible}, {"multi_tile", h.multi_tile},
                    {"description", h.description}});
  for (auto& a : algs) {
    json opts = json::array();
    const search::AlgorithmInfo* info = search::find_algorithm(a["name"].get<std::string>());
    for (int i = 0; i < search::kOptions; ++i)
      if (info->applies & search::bit(static_cast<search::Option>(i)))
        opts.push_back(app::keyword_name(std::string(search::option_name(static_cast<search::Option>(i)))));
    a["options"] = opts;
    a["boards"] = info->any_board ? "any" : "up to 16 cells";
  }
  for (auto& h : heus) {
    const search::HeuristicInfo* info = search::find_heuristic(h["name"].get<std::string>());
    h["needs_table"] = info->needs_table;
    h["pattern_database"] = info->pattern_database;
    h["zero_aware"] = info->zero_aware;
  }
  return {{"version", kVersion},
          {"algorithms", algs},
          {"heuristics", heus},
          {"limits",
           {{"max_nodes", flags_.max_nodes}, {"max_seconds", flags_.max_seconds}, {"trace_limit", flags_.trace_limit},
            {"max_memory", max_bytes_}, {"max_solves", max_solves_}}}};
}

search::PlanContext Service::ceilings() const {
  search::PlanContext ctx;
  ctx.max_nodes_ceiling = flags_.max_nodes;
  ctx.max_seconds_ceiling = flags_.max_seconds;
  ctx.default_max_bytes = max_bytes_;
  ctx.default_hybrid_bytes = max_bytes_;
  ctx.max_bytes_ceiling = max_bytes_;
  ctx.trace_limit_default = flags_.trace_limit;
  ctx.trace_limit_ceiling = flags_.trace_limit;
  return ctx;
}

Service::Slot Service::take_slot() {
  if (!solves_.try_acquire_for(std::chrono::seconds(2)))
    throw HttpError(503, "", "busy: " + std::to_string(max_solves_) + " searches are running; try again");
  return Slot{&solves_};
}

// 4x4 and 5x5: no table can exist, so /api/query searches (app/oracle.hpp) within max_seconds and
// max_nodes (the service's ceilings by default), one search slot a request.
std::optional<app::Oracle> Service::oracle_for(const Params& p, const Board& board, Metric m) {
  search::SolveRequest q;
  q.max_seconds = p.get("max_seconds");
  q.max_nodes = p.get("max_nodes");
  try {
    const search::Limits l = app::Oracle::limits(q, board, ceilings());  // refused where nothing is searched
    if (!app::Oracle::searches(board)) return std::nullopt;
    return std::optional<app::Oracle>(std::in_place, sources_, common_.threads, l, false, ceilings(), m);
  } catch (const InputError& e) {
    throw http_error(e);
  }
}

// A search's answer for one pair, or the HTTP error of a database that is not at hand.
app::Distance Service::searched(app::Oracle& oracle, const State& start, const State& goal) {
  try {
    return oracle(start, goal);
  } catch (const InputError& e) {
    throw http_error(e);
  } catch (const DataError& e) {  // pattern databases that take long to build: `tilespace build` first
    throw HttpError(404, "board", e.what());
  } catch (const ResourceError& e) {
    throw HttpError(404, "board", e.what());
  }
}

json Service::query(const HttpRequest& req) {
  const Params p(req, {"start", "goal", "board", "max_seconds", "max_nodes", "metric"});
  const Problem pr = parse_pair(p, true);
  const State& s = *pr.start;
  const Metric m = metric_param(p, pr.goal.board, true);
  json j{{"board", s.board.name()}, {"start", tiles_json(s)}, {"goal", tiles_json(pr.goal)}, {"metric", metric_name(m)}};
  std::optional<int> d;
  if (std::optional<app::Oracle> oracle = oracle_for(p, pr.goal.board, m)) {
    if (solvable(s, pr.goal)) {
      const Slot slot = take_slot();
      const app::Distance a = searched(*oracle, s, pr.goal);
      if (!a.optimum.known) {
        j["reachable"] = true;
        j["length"] = nullptr;
        j["stopped"] = search::stop_name(a.stopped);
        return j;
      }
      d = a.optimum.length;
    }
  } else {
    d = need_table(pr.goal, m).distance(s, pr.goal);  // none: the other parity class (the table's ranking tells)
  }
  j["reachable"] = d.has_value();
  j["length"] = d ? json(*d) : json(nullptr);
  return j;
}

std::string Service::batch(const HttpRequest& req, HttpFields& headers, bool& json_lines) {
  const Params p(req, {"goal", "board", "json", "max_seconds", "max_nodes", "metric"});
  if (const auto type = req.header("Content-Type"); type && type->rfind("text/plain", 0) != 0)
    throw HttpError(415, "", "POST /api/query takes text/plain: one START [GOAL] per line, not " + std::string(*type));
  if (req.body.find('\0') != std::string::npos) throw HttpError(400, "", "body: not a text file");  // as every reader says
  const Problem pr = parse_pair(p, false);
  const Metric m = metric_param(p, pr.goal.board, true);
  std::optional<app::Oracle> oracle = oracle_for(p, pr.goal.board, m);
  std::optional<Slot> slot;
  BatchOptions o;
  if (oracle) {
    slot.emplace(take_slot());
    o.search = [&](const State& start, const State& goal) {
      const app::Distance a = searched(*oracle, start, goal);
      SearchedAnswer answer;
      if (a.optimum.known) {
        answer.length = a.optimum.length;
      } else {
        answer.stopped = search::stop_name(a.stopped);
        answer.message = app::stopped_line(answer.stopped);
      }
      return answer;
    };
  } else {
    need_table(pr.goal, m);  // 404 now, naming the board, rather than on the first line
  }
  o.goal = pr.goal;
  // A goal parameter holds for every line: a line's own goal must repeat it, as with query --batch --goal.
  if (const auto g = p.get("goal"); g && g->find_first_not_of(" ,+\t") != std::string::npos) {
    o.goal_given = true;
    o.goal_name = "the goal parameter";
  }
  o.json = json_lines = p.flag("json");
  o.name = "body";
  // Lines with goals of their own need the tables of their blanks: the same policy as one query.
  o.table_source = [this, m](const Board& b, int blank) -> const GoalTable& {
    if (const GoalTable* t = table(b, blank, m)) return *t;
    throw HttpError(404, "goal",
                    "no distance table for " + b.name() + " with the blank on cell " + std::to_string(blank) +
                        "; build them all with: " +
                        build_command(canonical_goal(b, b.cells() - 1), sources_.tables(m).dir(),
                                      m == Metric::multi ? "--all-goals --metric multi" : "--all-goals"));
  };
  std::string out;
  out.reserve(req.body.size() / 4);
  std::ostringstream err;  // the lines' messages: in the JSON answers (json=1), not repeated here
  BatchStats st;
  try {
    st = run_batch(sources_.tables(m), req.body, out, err, o);  // tables from table_source only
  } catch (const InputError& e) {
    throw http_error(e);
  }
  headers.emplace_back("X-Tilespace-Answered", std::to_string(st.answered));
  headers.emplace_back("X-Tilespace-Unreachable", std::to_string(st.unreachable));
  headers.emplace_back("X-Tilespace-Errors", std::to_string(st.errors));
  if (oracle) headers.emplace_back("X-Tilespace-Stopped", std::to_string(st.stopped));
  return out;
}

std::string Service::solve(const HttpRequest& req) {
  const Params p(req, solve_parameters());
  const Problem pr = parse_pair(p, true);
  const State& s = *pr.start;
  search::SolveRequest q;
  q.algorithm = p.get("algorithm");
  for (const auto& o : search::named_options()) q.*(o.field) = p.get(o.name);
  q.trace = p.flag("trace");
  // The command line's solve (app/solve.hpp), with the service's defaults and limits as ceilings.
  SolveSettings settings;
  settings.context = ceilings();
  settings.context.default_algorithm = "astar";
  settings.context.default_heuristic = "manhattan";  // pattern databases when asked for (building them takes seconds)
  // At most --max-solves searches at once: a slot, taken once the search is planned and prepared.
  std::optional<Slot> slot;
  settings.before_search = [&] { slot.emplace(take_slot()); };
  SolveStep step = SolveStep::planning;
  settings.step = &step;
  // A database that is not at hand while preparing: 404, about the parameter that asked for it.
  auto not_at_hand = [&](const std::exception& e) {
    const search::AlgorithmInfo* a = q.algorithm ? search::find_algorithm(*q.algorithm) : nullptr;
    return HttpError(404, a && a->needs_table ? "algorithm" : q.heuristic ? "heuristic" : "pattern", e.what());
  };
  SolveOutcome out;
  try {
    out = solve_problem(common_, sources_, pr, q, settings);
  } catch (const InputError& e) {
    throw http_error(e);
  } catch (const ResourceError& e) {
    if (step == SolveStep::planning)  // a trace that cannot fit: the request asks too much
      throw HttpError(400, "trace_limit", std::string("trace_limit: ") + e.what());
    if (step == SolveStep::preparing) throw not_at_hand(e);  // a table that cannot exist here (4x4)
    throw;
  } catch (const DataError& e) {  // databases that take long to build: `tilespace build` first
    if (step == SolveStep::preparing) throw not_at_hand(e);
    throw;
  }
  // The exact distances along the path in the answer, when the goal's table is at hand.
  const GoalTable* t = out.table;
  if (!t && solvable(s, pr.goal)) t = table(pr.goal.board, pr.goal.blank, out.plan.metric);
  return solve_document(solve_json(s, pr.goal, out.plan.algorithm, out.heuristic, out.result, t), out.trace.get(),
                        s.board);
}

json Service::stats(const HttpRequest& req) {
  const Params p(req, {"goal", "board", "metric"});
  const Problem pr = parse_pair(p, false);
  const Metric m = metric_param(p, pr.goal.board);
  const std::string key = pr.goal.board.name() + "|" + pr.goal.to_string() + "|" + std::string(metric_name(m));
  {
    std::lock_guard lock(cache_mu_);
    if (const auto it = stats_cache_.find(key); it != stats_cache_.end()) return it->second;
  }
  const GoalTable& t = need_table(pr.goal, m);
  json j = stats_json(t, pr.goal, t.farthest(pr.goal, kFarthestListed));
  std::lock_guard lock(cache_mu_);
  if (stats_cache_.size() >= 256) stats_cache_.clear();
  stats_cache_.emplace(key, j);
  return j;
}

json Service::random(const HttpRequest& req) {
  const Params p(req, {"goal", "board", "depth", "seed", "metric"});
  const Problem pr = parse_pair(p, false);
  // The metric of the depth and of the length answered; the states drawn without a depth are
  // uniform in either (4x4: multi-tile walks, proven by multi-tile searches).
  const Metric m = metric_param(p, pr.goal.board, true);
  // The same generator as `tilespace random` (random_states.hpp).
  const GoalTable* t = nullptr;
  try {
    const RandomOptions o = parse_random_options(p.get("seed"), p.get("depth"));
    const bool walks = o.depth && !app::RandomSampler::needs_table(pr.goal.board);  // 4x4, 5x5: searched
    if (o.depth && !walks) {
      t = table(pr.goal.board, pr.goal.blank, m);
      if (!t)
        throw option_error("depth", "needs the " + std::string(m == Metric::multi ? "multi-tile " : "") +
                                        "distance table of " + pr.goal.board.name() + ", which is not built");
    }
    std::optional<Slot> slot;
    if (walks) slot.emplace(take_slot());
    State s;
    try {
      s = app::RandomSampler(sources_, common_.threads, pr.goal, o, t, m).next();
    } catch (const DataError& e) {  // pattern databases that take long to build: `tilespace build` first
      throw HttpError(404, "depth", e.what());
    }
    if (!t && !walks) t = table(pr.goal.board, pr.goal.blank, m);
    json j{{"board", s.board.name()}, {"goal", tiles_json(pr.goal)}, {"state", tiles_json(s)}, {"metric", metric_name(m)}};
    j["length"] = walks ? json(*o.depth) : t ? json(t->distance(s, pr.goal).value_or(-1)) : json(nullptr);
    return j;
  } catch (const InputError& e) {
    throw http_error(e);
  }
}

}  // namespace tilespace::server
