// `tilespace serve`: the HTTP query service and the web viewer (tools/viewer/, API in
// tools/viewer/API.md). Tables are loaded (or, for small boards, built) once and shared by every
// request; searches run under a per-request node, time and memory budget and at most
// --max-solves at once. Every handler turns bad input into HTTP 400 with a JSON error naming the
// parameter; no request can end the process.
#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <semaphore>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cli/assets.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/report.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/random_states.hpp"
#include "tilespace/search/heuristics.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/search/solve.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::cli {

using nlohmann::json;

namespace {

constexpr int kBuildOnDemandCells = 10;  // tables of boards this small are built when first asked for

// A request the service refuses: HTTP status, message, and the parameter at fault (may be empty).
struct HttpError : std::runtime_error {
  int status;
  std::string param;
  HttpError(int st, std::string p, const std::string& msg) : std::runtime_error(msg), status(st), param(std::move(p)) {}
};
HttpError bad(const std::string& param, const std::string& msg) { return HttpError(400, param, msg); }

// The query parameters of one request, checked against the names an endpoint accepts.
class Params {
 public:
  Params(const httplib::Request& req, std::initializer_list<std::string_view> allowed) : req_(req) {
    for (const auto& [k, v] : req.params) {
      if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
        std::string names;
        for (auto a : allowed) {
          if (!names.empty()) names += ", ";
          names += a;
        }
        throw bad(k, "unknown parameter '" + k + "' (this endpoint takes " + names + ")");
      }
      if (req.params.count(k) > 1) throw bad(k, "parameter '" + k + "' given more than once");
    }
  }
  std::optional<std::string> get(const std::string& name) const {
    const auto it = req_.params.find(name);
    if (it == req_.params.end()) return std::nullopt;
    return it->second;
  }
  bool flag(const std::string& name) const {
    const auto v = get(name);
    if (!v || *v == "0" || *v == "false") return false;
    if (v->empty() || *v == "1" || *v == "true") return true;
    throw bad(name, name + " must be 0 or 1, not '" + *v + "'");
  }

 private:
  const httplib::Request& req_;
};

// An option's name in the API's words: "max-nodes" -> "max_nodes".
std::string api_name(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// An input error in the API's words: the parameter at fault, and the message about it.
HttpError http_error(const InputError& e) {
  using About = InputError::About;
  switch (e.about) {
    case About::start: return bad("start", "start: " + e.detail);
    case About::goal: return bad("goal", "goal: " + e.detail);
    case About::board: return bad("board", "board: " + e.detail);
    case About::option: return bad(api_name(e.name), api_name(e.name) + ": " + e.detail);
    default: return bad("", e.what());
  }
}

// board, start (if `need_start`) and goal from the parameters, in the one grammar (problem.hpp).
Problem parse_pair(const Params& p, bool need_start) {
  ProblemText t;
  t.board = p.get("board").value_or("");
  if (need_start) {
    const auto s = p.get("start");
    if (!s || s->find_first_not_of(" ,+\t") == std::string::npos) throw bad("start", "start is required");
    t.start = *s;
  }
  if (const auto g = p.get("goal"); g && g->find_first_not_of(" ,+\t") != std::string::npos) t.goal = *g;
  try {
    return parse_problem(t);
  } catch (const InputError& e) {
    throw http_error(e);
  }
}

class Service {
 public:
  Service(const Common& c, const ServeFlags& f)
      : flags_(f),
        store_(make_store(c)),
        max_solves_(f.max_solves > 0 ? f.max_solves : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))),
        solves_(max_solves_),
        max_bytes_(search::parse_bytes("max-memory", f.max_memory)) {}

  // The table for goals on `b` with the blank on `blank`: from memory or disk, built when small;
  // null when the board cannot have one or its file was never built.
  const DistanceTable* table(const Board& b, int blank) {
    std::lock_guard lock(store_mu_);
    if (const DistanceTable* t = store_.loaded(b, blank)) return t;
    if (!is_packed(b)) return nullptr;
    try {
      DistanceTable::check_fits(b);
    } catch (const ResourceError&) {
      return nullptr;
    }
    std::error_code ec;
    if (b.cells() > kBuildOnDemandCells && !std::filesystem::exists(store_.path_for(b, blank), ec)) return nullptr;
    return &store_.table(b, blank);
  }
  const DistanceTable& need_table(const State& goal) {
    if (const DistanceTable* t = table(goal.board, goal.blank)) return *t;
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
                        (is_packed(goal.board) ? "; build it with: tilespace build --board " + goal.board.name() +
                                                     " --goal '" + goal.to_string() + "'"
                                               : " (boards over 16 cells have none)"));
  }

  json info() const {
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
        if ((info->applies & search::bit(static_cast<search::Option>(i))) &&
            static_cast<search::Option>(i) != search::Option::pattern)  // pattern databases: command line only
          opts.push_back(api_name(std::string(search::option_name(static_cast<search::Option>(i)))));
      a["options"] = opts;
      a["boards"] = info->any_board ? "any" : "up to 16 cells";
    }
    for (auto& h : heus) {
      const search::HeuristicInfo* info = search::find_heuristic(h["name"].get<std::string>());
      h["needs_table"] = info->needs_table;
      h["pattern_database"] = info->pattern_database;
    }
    return {{"version", "0.1.0"},
            {"algorithms", algs},
            {"heuristics", heus},
            {"limits",
             {{"max_nodes", flags_.max_nodes}, {"max_seconds", flags_.max_seconds}, {"trace_limit", flags_.trace_limit},
              {"max_memory", max_bytes_}, {"max_solves", max_solves_}}}};
  }

  json query(const httplib::Request& req) {
    const Params p(req, {"start", "goal", "board"});
    const Problem pr = parse_pair(p, true);
    const State& s = *pr.start;
    const DistanceTable& t = need_table(pr.goal);
    json j{{"board", s.board.name()}, {"start", tiles_json(s)}, {"goal", tiles_json(pr.goal)}};
    if (solvable(s, pr.goal)) {
      j["reachable"] = true;
      j["length"] = t.distance(s, pr.goal).value_or(-1);
    } else {
      j["reachable"] = false;
      j["length"] = nullptr;
    }
    return j;
  }

  json solve(const httplib::Request& req) {
    const Params p(req, {"start", "goal", "board", "algorithm", "heuristic", "pattern", "trace", "weight",
                         "depth_limit", "max_nodes", "max_seconds", "max_memory", "trace_limit"});
    const Problem pr = parse_pair(p, true);
    const State& s = *pr.start;
    // The same planning step as the command line, with the service's limits as ceilings.
    search::SolveRequest q;
    q.algorithm = p.get("algorithm");
    q.heuristic = p.get("heuristic");
    q.pattern = p.get("pattern");
    q.weight = p.get("weight");
    q.depth_limit = p.get("depth_limit");
    q.max_nodes = p.get("max_nodes");
    q.max_seconds = p.get("max_seconds");
    q.max_memory = p.get("max_memory");
    q.trace_limit = p.get("trace_limit");
    q.trace = p.flag("trace");
    search::PlanContext ctx;
    ctx.board = s.board;
    ctx.default_algorithm = "astar";
    ctx.max_nodes_ceiling = flags_.max_nodes;
    ctx.max_seconds_ceiling = flags_.max_seconds;
    ctx.default_max_bytes = max_bytes_;
    ctx.max_bytes_ceiling = max_bytes_;
    ctx.trace_limit_default = flags_.trace_limit;
    ctx.trace_limit_ceiling = flags_.trace_limit;
    search::SolvePlan plan;
    try {
      plan = search::plan_solve(q, ctx);
    } catch (const InputError& e) {
      throw http_error(e);
    }
    if (plan.pattern_database)
      throw bad(q.heuristic ? "heuristic" : "pattern", std::string(q.heuristic ? "heuristic" : "pattern") + ": pattern-database searches run from the command line (tilespace solve --heuristic pdb)");
    search::SolveOptions o;
    o.algorithm = plan.algorithm;
    o.heuristic = plan.heuristic.empty() ? "manhattan" : plan.heuristic;
    o.weight = plan.weight;
    o.depth_limit = plan.depth_limit;
    o.limits = plan.limits;
    const bool traced = plan.trace;
    const std::size_t trace_limit = plan.trace_limit;

    const bool reachable = solvable(s, pr.goal);
    const DistanceTable* t = reachable ? table(pr.goal.board, pr.goal.blank) : nullptr;
    const bool needs_table = plan.needs_table;
    if (needs_table && reachable && !t)
      throw bad(o.algorithm == "table" ? "algorithm" : "heuristic",
                (o.algorithm == "table" ? std::string("algorithm table") : std::string("heuristic exact")) +
                    " needs the distance table of " + pr.goal.board.name() + ", which is not built");
    o.table = t;

    std::optional<search::Trace> trace;
    if (traced) {
      trace.emplace(trace_limit);
      o.trace = &*trace;
    }
    if (!solves_.try_acquire_for(std::chrono::seconds(2)))
      throw HttpError(503, "", "busy: " + std::to_string(max_solves_) + " searches are running; try again");
    struct Slot {  // gives the search slot back however solve() ends
      std::counting_semaphore<4096>& sem;
      ~Slot() { sem.release(); }
    } slot{solves_};
    const search::Result r = search::solve(s, pr.goal, o);

    json j = solve_json(s, pr.goal, plan.algorithm, plan.heuristic, r, t);
    if (trace) add_trace_json(j, *trace, s.board);
    return j;
  }

  json stats(const httplib::Request& req) {
    const Params p(req, {"goal", "board"});
    const Problem pr = parse_pair(p, false);
    const std::string key = pr.goal.board.name() + "|" + pr.goal.to_string();
    {
      std::lock_guard lock(cache_mu_);
      if (const auto it = stats_cache_.find(key); it != stats_cache_.end()) return it->second;
    }
    const DistanceTable& t = need_table(pr.goal);
    json j = stats_json(t, pr.goal, t.farthest(pr.goal, 1000));
    std::lock_guard lock(cache_mu_);
    if (stats_cache_.size() >= 256) stats_cache_.clear();
    stats_cache_.emplace(key, j);
    return j;
  }

  json random(const httplib::Request& req) {
    const Params p(req, {"goal", "board", "depth", "seed"});
    const Problem pr = parse_pair(p, false);
    // The same generator as `tilespace random` (random_states.hpp).
    RandomOptions o;
    const DistanceTable* t = nullptr;
    try {
      o.seed = p.get("seed") ? search::parse_whole("seed", *p.get("seed"), 0, UINT64_MAX) : random_seed();
      if (const auto d = p.get("depth")) {
        o.depth = static_cast<int>(search::parse_whole("depth", *d, 0, 1000));
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

 private:
  ServeFlags flags_;
  std::mutex store_mu_;  // guards store_ (the tables it hands out are immutable)
  TableStore store_;
  int max_solves_;
  std::counting_semaphore<4096> solves_;
  std::uint64_t max_bytes_;
  std::mutex cache_mu_;
  std::map<std::string, json> stats_cache_;
};

void send_json(httplib::Response& res, int status, const json& j) {
  res.status = status;
  res.set_content(j.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

void send_error(httplib::Response& res, int status, const std::string& msg, const std::string& param = "") {
  json j{{"error", msg}};
  if (!param.empty()) j["param"] = param;
  send_json(res, status, j);
}

// Runs an endpoint, mapping every exception to a JSON error; nothing escapes to the server.
template <class F>
httplib::Server::Handler endpoint(F f) {
  return [f](const httplib::Request& req, httplib::Response& res) {
    try {
      send_json(res, 200, f(req));
    } catch (const HttpError& e) {
      send_error(res, e.status, e.what(), e.param);
    } catch (const InputError& e) {
      const HttpError h = http_error(e);
      send_error(res, h.status, h.what(), h.param);
    } catch (const DataError& e) {
      send_error(res, 500, std::string("database error: ") + e.what());
    } catch (const ResourceError& e) {
      send_error(res, 503, e.what());
    } catch (const std::bad_alloc&) {
      send_error(res, 503, "out of memory for this request");
    } catch (const std::exception& e) {
      send_error(res, 500, std::string("internal error: ") + e.what());
    }
  };
}

std::string content_type(std::string_view path) {
  const auto dot = path.rfind('.');
  const std::string_view ext = dot == std::string_view::npos ? "" : path.substr(dot + 1);
  if (ext == "html") return "text/html; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "json") return "application/json";
  if (ext == "ico") return "image/x-icon";
  return "application/octet-stream";
}

// The viewer's files: embedded (assets.hpp), or from --static DIR on every request.
void mount_viewer(httplib::Server& svr, const ServeFlags& f) {
  if (!f.static_dir.empty()) {
    const std::filesystem::path dir = f.static_dir;
    if (!std::filesystem::is_directory(dir)) throw InputError("--static: no folder " + f.static_dir);
    const std::filesystem::path d3 = dir / ".." / "node_modules" / "d3" / "dist" / "d3.min.js";
    svr.Get("/vendor/d3.min.js", [d3](const httplib::Request&, httplib::Response& res) {
      std::ifstream in(d3, std::ios::binary);
      if (!in) return send_error(res, 404, "no " + d3.string() + " (run npm ci in tools/viewer)");
      std::ostringstream s;
      s << in.rdbuf();
      res.set_header("Cache-Control", "no-cache");
      res.set_content(s.str(), "text/javascript; charset=utf-8");
    });
    svr.set_mount_point("/", dir.string());
    svr.set_file_request_handler([](const httplib::Request&, httplib::Response& res) {
      res.set_header("Cache-Control", "no-cache");
    });
    return;
  }
  for (const Asset& a : viewer_assets()) {
    const std::string path(a.path);
    const std::string type = content_type(path);
    const std::string_view body = a.body();
    auto handler = [type, body](const httplib::Request&, httplib::Response& res) {
      res.set_header("Cache-Control", "no-cache");
      res.set_content(body.data(), body.size(), type.c_str());
    };
    svr.Get(path, handler);
    if (path == "/index.html") svr.Get("/", handler);
  }
}

}  // namespace

int cmd_serve(Common& c, const ServeFlags& f) {
  if (f.port < 0 || f.port > 65535) throw InputError("--port must be from 0 to 65535");
  if (f.workers < 1 || f.workers > 1024) throw InputError("--workers must be from 1 to 1024");
  if (f.max_solves < 0 || f.max_solves > 1024) throw InputError("--max-solves must be from 0 to 1024");
  if (f.max_nodes == 0) throw InputError("--max-nodes must be at least 1");
  if (!(f.max_seconds > 0)) throw InputError("--max-seconds must be positive");
  if (f.trace_limit == 0 || f.trace_limit > 10'000'000) throw InputError("--trace-limit must be from 1 to 10000000");

  // Signals: SIGPIPE ignored (a client hanging up must not end the server); SIGINT and SIGTERM
  // are blocked in every thread and waited for by one, which stops the server cleanly.
  ::signal(SIGPIPE, SIG_IGN);
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  Service service(c, f);
  // The 8-puzzle's usual table, ready before the first request (built if missing).
  service.table(Board(3, 3), 8);

  httplib::Server svr;
  const int workers = f.workers;
  svr.new_task_queue = [workers] { return new httplib::ThreadPool(static_cast<std::size_t>(workers)); };
  svr.set_payload_max_length(f.max_request);
  svr.set_read_timeout(5, 0);
  svr.set_write_timeout(10, 0);
  svr.set_keep_alive_timeout(5);
  svr.set_keep_alive_max_count(100000);
  svr.set_tcp_nodelay(true);
  // SO_REUSEADDR only: httplib's default SO_REUSEPORT would let a second server share a port in use.
  svr.set_socket_options([](int sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });

  // Routes are tried in order (each a regex match): the hot one first.
  svr.Get("/api/query", endpoint([&](const httplib::Request& req) { return service.query(req); }));
  svr.Get("/api/info", endpoint([&](const httplib::Request& req) {
    const Params p(req, {});
    return service.info();
  }));
  svr.Get("/api/solve", endpoint([&](const httplib::Request& req) { return service.solve(req); }));
  svr.Get("/api/stats", endpoint([&](const httplib::Request& req) { return service.stats(req); }));
  svr.Get("/api/random", endpoint([&](const httplib::Request& req) { return service.random(req); }));
  svr.Get(R"(/api/.*)", [](const httplib::Request& req, httplib::Response& res) {
    send_error(res, 404, "no such endpoint: " + req.path + " (info, query, solve, stats, random)");
  });
  const auto not_allowed = [](const httplib::Request& req, httplib::Response& res) {
    res.set_header("Allow", "GET, HEAD");
    send_error(res, 405, "method " + req.method + " not allowed: the service answers GET");
  };
  svr.Post(R"(/.*)", not_allowed);
  svr.Put(R"(/.*)", not_allowed);
  svr.Patch(R"(/.*)", not_allowed);
  svr.Delete(R"(/.*)", not_allowed);
  mount_viewer(svr, f);
  // Compression: cpp-httplib compresses text responses per request, with brotli at its highest
  // quality when the client offers it (0.5 s for d3, seconds for a large trace). Keep gzip for
  // the API's JSON (cheap, worth it off loopback) and send the viewer's files as they are.
  svr.set_pre_routing_handler([](const httplib::Request& creq, httplib::Response&) {
    auto& req = const_cast<httplib::Request&>(creq);  // the server's own, non-const request object
    const auto it = req.headers.find("Accept-Encoding");
    if (it != req.headers.end()) {
      const bool api = req.path.rfind("/api/", 0) == 0;
      const bool gzip = api && it->second.find("gzip") != std::string::npos;
      req.headers.erase("Accept-Encoding");
      if (gzip) req.headers.emplace("Accept-Encoding", "gzip");
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  svr.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    const int st = res.status;
    send_error(res, st,
               st == 404   ? "not found: " + req.path
               : st == 413 ? "request too large"
               : st == 414 ? "request line too long"
                           : "bad request (HTTP " + std::to_string(st) + ")");
  });
  svr.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    send_error(res, 500, "internal error");
  });

  int port = f.port;
  if (port == 0) {
    port = svr.bind_to_any_port(f.host);
    if (port < 0) throw InputError("cannot listen on " + f.host + " (any port)");
  } else if (!svr.bind_to_port(f.host, port)) {
    throw InputError("cannot listen on " + f.host + ":" + std::to_string(port) + " (in use, or not an address of this machine)");
  }
  std::thread waiter([&svr, stop_signals] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    svr.stop();
  });
  const bool v6 = f.host.find(':') != std::string::npos;
  std::printf("listening on http://%s%s%s:%d/\n", v6 ? "[" : "", f.host.c_str(), v6 ? "]" : "", port);
  std::fflush(stdout);
  const bool ok = svr.listen_after_bind();
  if (waiter.joinable()) {
    // Wake the waiter if the server ended by itself.
    pthread_kill(waiter.native_handle(), SIGTERM);
    waiter.join();
  }
  return ok ? kExitOk : kExitResource;
}

}  // namespace tilespace::cli
