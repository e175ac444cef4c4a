// The HTTP service's work (serve.cpp routes to it): the tables shared by every request (loaded,
// or built when small, under a mutex), searches under the request's plan with at most
// --max-solves at once, the stats cache, and the answers of /api/info, query, solve, stats and
// random as JSON, and batches of queries as text. Input errors leave as HttpError (http_params.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <semaphore>
#include <string>
#include <thread>
#include <optional>
#include <utility>

#include "app/common.hpp"
#include "app/oracle.hpp"
#include "server/http_params.hpp"
#include "server/serve.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/goal_table.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::server {

class Service {
 public:
  // The longest table build a request starts (TableStore::at_hand): the boards of up to 10 cells
  // (a fraction of a second); a larger table is used once `tilespace build` has made it.
  static constexpr double kServeBuildSeconds = 2;

  Service(const Common& c, const ServeFlags& f)
      : flags_(f),
        common_(c),
        sources_(common_, kServeBuildSeconds),
        max_solves_(f.max_solves > 0 ? f.max_solves : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))),
        solves_(max_solves_),
        max_bytes_(parse_bytes("max-memory", f.max_memory)) {}

  // The table for goals on `b` with the blank on `blank` (TableStore::goal: the cell's own or its
  // blank class's): from memory or disk, built when small; null when the board cannot have one or
  // no file of the class was built.
  const GoalTable* table(const Board& b, int blank, Metric m);
  // The table of the goal, or HttpError 404 saying why there is none and how to build it.
  const GoalTable& need_table(const State& goal, Metric m);
  // The metric= parameter on `board` (single when absent): HttpError 400 about it when it is not a
  // metric, or multi where no table can exist (`answered`, /api/query: where its answers are not
  // searched either, app::require_answer_metric).
  static Metric metric_param(const Params& p, const Board& board, bool answered = false);

  // The endpoints' answers (tools/viewer/API.md).
  nlohmann::json info() const;
  nlohmann::json query(const HttpRequest& req);
  std::string solve(const HttpRequest& req);  // JSON text (report.hpp: solve_document)
  nlohmann::json stats(const HttpRequest& req);
  nlohmann::json random(const HttpRequest& req);
  // POST /api/query: the body's "START [GOAL]" lines answered one per line, exactly as
  // `query --batch` (query.hpp run_batch); the counts go into `headers`; `json_lines`: the answers
  // are JSON lines (json=1).
  std::string batch(const HttpRequest& req, HttpFields& headers, bool& json_lines);

 private:
  // A search slot (at most --max-solves searches at once), given back when it goes.
  struct Slot {
    std::counting_semaphore<4096>* sem;
    Slot(std::counting_semaphore<4096>* s) : sem(s) {}
    Slot(Slot&& o) noexcept : sem(std::exchange(o.sem, nullptr)) {}
    Slot& operator=(Slot&&) = delete;
    ~Slot() {
      if (sem) sem->release();
    }
  };
  // Waits up to 2 s for a slot; else HttpError 503 (busy).
  Slot take_slot();
  // The planning context of searches: the service's limits as ceilings and defaults.
  search::PlanContext ceilings() const;
  // /api/query on a board without a table (4x4, 5x5): the oracle that searches in metric `m`, within
  // the request's max_seconds and max_nodes; none on other boards.
  std::optional<app::Oracle> oracle_for(const Params& p, const Board& board, Metric m);
  app::Distance searched(app::Oracle& oracle, const State& start, const State& goal);

  ServeFlags flags_;
  Common common_;
  SearchSources sources_;  // the tables, pattern databases and the move automaton (thread-safe)
  int max_solves_;
  std::counting_semaphore<4096> solves_;
  std::uint64_t max_bytes_;
  std::mutex cache_mu_;
  std::map<std::string, nlohmann::json> stats_cache_;
};

}  // namespace tilespace::server
