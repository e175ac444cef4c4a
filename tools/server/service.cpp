// The HTTP service's work (service.hpp).
#include "server/service.hpp"

#include <optional>
#include <random>
#include <sstream>

#include "app/report.hpp"
#include "app/keywords.hpp"
#include "app/solve.hpp"
#include "server/http_params.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/query.hpp"
#include "tilespace/random_states.hpp"
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

const GoalTable* Service::table(const Board& b, int blank) { return sources_.table(b, blank); }

const GoalTable& Service::need_table(const State& goal) {
  if (const GoalTable* t = table(goal.board, goal.blank)) return *t;
  if (is_packed(goal.board)) {
    try {
      DistanceTable::check_fits(goal.board);
    } catch (const ResourceError& e) {  // e.g. 4x4: no table can exist on this machine
      throw HttpError(404, "board", "no distance table for " + goal.board.name() + ": " + e.what() +
                                        " (/api/solve searches it instead)");
    }
  }
  throw HttpError(404, "board",
                  "no distance table for " + goal.board.name() + " with this goal" +
                      (is_packed(goal.board) ? "; build it with: " + build_command(goal, sources_.tables().dir())
                                             : " (boards over 16 cells have none)"));
}

json Service::info() const {
  json algs = json::array(), heus = json::array();
  for (const auto& a : search::algorithm_catalog())
    algs.push_back({{"name", a.name}, {"optimal", a.optimal}, {"uses_heuristic", a.uses_heuristic},
                    {"description", a.description}});
  for (const auto& h : search::heuristic_catalog())
    heus.push_back({{"name", h.name}, {"admissible", h.admissible}, {"description", h.description}});
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
  }
  return {{"version", kVersion},
          {"algorithms", algs},
          {"heuristics", heus},
          {"limits",
           {{"max_nodes", flags_.max_nodes}, {"max_seconds", flags_.max_seconds}, {"trace_limit", flags_.trace_limit},
            {"max_memory", max_bytes_}, {"max_solves", max_solves_}}}};
}

json Service::query(const HttpRequest& req) {
  const Params p(req, {"start", "goal", "board"});
  const Problem pr = parse_pair(p, true);
  const State& s = *pr.start;
  const GoalTable& t = need_table(pr.goal);
  json j{{"board", s.board.name()}, {"start", tiles_json(s)}, {"goal", tiles_json(pr.goal)}};
  const std::optional<int> d = t.distance(s, pr.goal);  // none: the other parity class (the table's ranking tells)
  j["reachable"] = d.has_value();
  j["length"] = d ? json(*d) : json(nullptr);
  return j;
}

std::string Service::batch(const HttpRequest& req, HttpFields& headers) {
  const Params p(req, {"goal", "board", "json"});
  if (const auto type = req.header("Content-Type"); type && type->rfind("text/plain", 0) != 0)
    throw HttpError(415, "", "POST /api/query takes text/plain: one START [GOAL] per line, not " + std::string(*type));
  const Problem pr = parse_pair(p, false);
  need_table(pr.goal);  // 404 now, naming the board, rather than on the first line
  BatchOptions o;
  o.goal = pr.goal;
  o.json = p.flag("json");
  o.name = "body";
  // Lines with goals of their own need the tables of their blanks: the same policy as one query.
  o.table_source = [this](const Board& b, int blank) -> const GoalTable& {
    if (const GoalTable* t = table(b, blank)) return *t;
    throw HttpError(404, "goal",
                    "no distance table for " + b.name() + " with the blank on cell " + std::to_string(blank) +
                        "; build them all with: " +
                        build_command(canonical_goal(b, b.cells() - 1), sources_.tables().dir(), "--all-goals"));
  };
  std::string out;
  out.reserve(req.body.size() / 4);
  std::ostringstream err;  // the lines' messages: in the JSON answers (json=1), not repeated here
  BatchStats st;
  try {
    st = run_batch(sources_.tables(), req.body, out, err, o);  // tables from table_source only
  } catch (const InputError& e) {
    throw http_error(e);
  }
  headers.emplace_back("X-Tilespace-Answered", std::to_string(st.answered));
  headers.emplace_back("X-Tilespace-Unreachable", std::to_string(st.unreachable));
  headers.emplace_back("X-Tilespace-Errors", std::to_string(st.errors));
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
  settings.context.default_algorithm = "astar";
  settings.context.default_heuristic = "manhattan";  // pattern databases when asked for (building them takes seconds)
  settings.context.max_nodes_ceiling = flags_.max_nodes;
  settings.context.max_seconds_ceiling = flags_.max_seconds;
  settings.context.default_max_bytes = max_bytes_;
  settings.context.default_hybrid_bytes = max_bytes_;
  settings.context.max_bytes_ceiling = max_bytes_;
  settings.context.trace_limit_default = flags_.trace_limit;
  settings.context.trace_limit_ceiling = flags_.trace_limit;
  // At most --max-solves searches at once: a slot, taken once the search is planned and prepared.
  bool slot_taken = false;
  struct Slot {  // gives the search slot back however the solve ends
    std::counting_semaphore<4096>& sem;
    bool& taken;
    ~Slot() {
      if (taken) sem.release();
    }
  } slot{solves_, slot_taken};
  settings.before_search = [&] {
    if (!solves_.try_acquire_for(std::chrono::seconds(2)))
      throw HttpError(503, "", "busy: " + std::to_string(max_solves_) + " searches are running; try again");
    slot_taken = true;
  };
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
  if (!t && solvable(s, pr.goal)) t = table(pr.goal.board, pr.goal.blank);
  return solve_document(solve_json(s, pr.goal, out.plan.algorithm, out.heuristic, out.result, t), out.trace.get(),
                        s.board);
}

json Service::stats(const HttpRequest& req) {
  const Params p(req, {"goal", "board"});
  const Problem pr = parse_pair(p, false);
  const std::string key = pr.goal.board.name() + "|" + pr.goal.to_string();
  {
    std::lock_guard lock(cache_mu_);
    if (const auto it = stats_cache_.find(key); it != stats_cache_.end()) return it->second;
  }
  const GoalTable& t = need_table(pr.goal);
  json j = stats_json(t, pr.goal, t.farthest(pr.goal, kFarthestListed));
  std::lock_guard lock(cache_mu_);
  if (stats_cache_.size() >= 256) stats_cache_.clear();
  stats_cache_.emplace(key, j);
  return j;
}

json Service::random(const HttpRequest& req) {
  const Params p(req, {"goal", "board", "depth", "seed"});
  const Problem pr = parse_pair(p, false);
  // The same generator as `tilespace random` (random_states.hpp).
  const GoalTable* t = nullptr;
  try {
    const RandomOptions o = parse_random_options(p.get("seed"), p.get("depth"));
    if (o.depth) {
      t = table(pr.goal.board, pr.goal.blank);
      if (!t) throw option_error("depth", "needs the distance table of " + pr.goal.board.name() + ", which is not built");
    }
    const State s = RandomStates(pr.goal, o, t).next();
    if (!t) t = table(pr.goal.board, pr.goal.blank);
    json j{{"board", s.board.name()}, {"goal", tiles_json(pr.goal)}, {"state", tiles_json(s)}};
    j["length"] = t ? json(t->distance(s, pr.goal).value_or(-1)) : json(nullptr);
    return j;
  } catch (const InputError& e) {
    throw http_error(e);
  }
}

}  // namespace tilespace::server
