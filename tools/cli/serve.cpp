// `tilespace serve`: the HTTP server's lifecycle — routes, the viewer's files, compression,
// signals, listening — around the service (service.hpp: tables, searches, answers) and its
// requests (http_params.hpp). Every handler turns bad input into HTTP 400 with a JSON error naming
// the parameter; no request can end the process. API: tools/viewer/API.md.
#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>

#include "cli/assets.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/http_params.hpp"
#include "cli/service.hpp"
#include "tilespace/errors.hpp"

namespace tilespace::cli {

using nlohmann::json;

namespace {

constexpr int kBuildOnDemandCells = 10;  // tables of boards this small are built when first asked for


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
