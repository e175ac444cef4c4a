// The routes of `tilespace serve` (routes.hpp).
#include "server/routes.hpp"

#include <zlib.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "server/assets.hpp"
#include "app/report.hpp"
#include "tilespace/errors.hpp"

namespace tilespace::server {

using nlohmann::json;

namespace {

constexpr std::uint64_t kSmallBody = 16384;  // bytes of body a request other than a batch may carry
constexpr std::size_t kGzipFrom = 1024;      // smaller JSON goes as it is

HttpResponse json_response(int status, std::string text) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(text);
  return r;
}

HttpResponse json_response(int status, const json& j) { return json_response(status, json_text(j)); }

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

bool is_get(const HttpRequest& req) { return req.method == "GET" || req.method == "HEAD"; }

// Runs an endpoint, mapping every exception to a JSON error; nothing escapes to the server.
template <class F>
HttpResponse guarded(F&& f) {
  try {
    return f();
  } catch (const HttpError& e) {
    return Routes::error(e.status, e.what(), e.param);
  } catch (const InputError& e) {
    const HttpError h = http_error(e);
    return Routes::error(h.status, h.what(), h.param);
  } catch (const DataError& e) {
    return Routes::error(500, std::string("database error: ") + e.what());
  } catch (const ResourceError& e) {
    return Routes::error(503, e.what());
  } catch (const std::bad_alloc&) {
    return Routes::error(503, "out of memory for this request");
  } catch (const std::exception& e) {
    return Routes::error(500, std::string("internal error: ") + e.what());
  } catch (...) {
    return Routes::error(500, "internal error");
  }
}

}  // namespace

std::string gzip(std::string_view text) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&z, static_cast<uLong>(text.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return rc == Z_STREAM_END ? out : std::string();
}

Routes::Routes(Service& service, const ServeFlags& flags)
    : service_(service), max_batch_(parse_bytes("max-request", flags.max_request)) {
  if (!flags.static_dir.empty()) {
    static_dir_ = flags.static_dir;
    if (!std::filesystem::is_directory(static_dir_)) throw InputError("--static: no folder " + flags.static_dir);
  }
  static std::unordered_map<std::string, std::string> types;
  for (const Asset& a : viewer_assets()) {
    const std::string& type = types.try_emplace(a.path, content_type(a.path)).first->second;
    files_[a.path] = File{type, a.body()};
  }
}

HttpResponse Routes::error(int status, const std::string& message, const std::string& param) {
  json j{{"error", message}};
  if (!param.empty()) j["param"] = param;
  return json_response(status, j);
}

bool Routes::blocking(const HttpRequest& req) {
  // Short answers stay on the I/O thread; searches, statistics and batches go to a worker.
  return req.method == "POST" || req.path == "/api/solve" || req.path == "/api/stats" || req.path == "/api/random";
}

std::uint64_t Routes::body_limit(const HttpRequest& req) const {
  return req.method == "POST" && req.path == "/api/query" ? max_batch_ : kSmallBody;
}

HttpRouting Routes::routing() {
  HttpRouting r;
  r.handle = [this](const HttpRequest& req) { return handle(req); };
  r.blocking = [](const HttpRequest& req) { return blocking(req); };
  r.body_limit = [this](const HttpRequest& req) { return body_limit(req); };
  r.error = [](int status, const std::string& message) { return error(status, message); };
  return r;
}

HttpResponse Routes::handle(const HttpRequest& req) {
  HttpResponse res = guarded([&] { return req.path.rfind("/api/", 0) == 0 ? api(req) : file(req); });
  // gzip for the API's larger answers when the client takes it (cheap, and worth it off
  // loopback); the viewer's files go as they are.
  if (req.path.rfind("/api/", 0) == 0 && res.body.size() >= kGzipFrom) {
    const auto offer = req.header("Accept-Encoding");
    if (offer && offer->find("gzip") != std::string_view::npos) {
      if (std::string z = gzip(res.body); !z.empty()) {
        res.body = std::move(z);
        res.headers.emplace_back("Content-Encoding", "gzip");
      }
    }
    res.headers.emplace_back("Vary", "Accept-Encoding");
  }
  return res;
}

HttpResponse Routes::api(const HttpRequest& req) {
  const std::string& p = req.path;
  const bool known = p == "/api/query" || p == "/api/info" || p == "/api/solve" || p == "/api/stats" || p == "/api/random";
  if (!known) return error(404, "no such endpoint: " + p + " (info, query, solve, stats, random)");
  if (p == "/api/query" && req.method == "POST") {
    HttpResponse r;
    r.content_type = "text/plain; charset=utf-8";
    bool json_lines = false;
    r.body = service_.batch(req, r.headers, json_lines);
    if (json_lines) r.content_type = "application/x-ndjson";
    return r;
  }
  if (!is_get(req)) {
    HttpResponse r = error(405, "method " + req.method + " not allowed: " + p + " answers GET" +
                                    (p == "/api/query" ? " and POST (a batch)" : ""));
    r.headers.emplace_back("Allow", p == "/api/query" ? "GET, HEAD, POST" : "GET, HEAD");
    return r;
  }
  if (p == "/api/query") return json_response(200, service_.query(req));
  if (p == "/api/info") {
    const Params none(req, {});
    return json_response(200, service_.info());
  }
  if (p == "/api/solve") return json_response(200, service_.solve(req));
  if (p == "/api/stats") return json_response(200, service_.stats(req));
  return json_response(200, service_.random(req));
}

HttpResponse Routes::file(const HttpRequest& req) const {
  if (!is_get(req)) {
    HttpResponse r = error(405, "method " + req.method + " not allowed: the viewer's files answer GET");
    r.headers.emplace_back("Allow", "GET, HEAD");
    return r;
  }
  const std::string path = req.path == "/" ? "/index.html" : req.path;
  HttpResponse r;
  r.headers.emplace_back("Cache-Control", "no-cache");
  r.content_type = content_type(path);
  if (static_dir_.empty()) {
    const auto it = files_.find(path);
    if (it == files_.end()) return error(404, "not found: " + req.path);
    r.body.assign(it->second.body);
    return r;
  }
  // --static DIR: read from disk on every request, within DIR only; d3 from the viewer's npm folder;
  // /app.js, which the build bundles from tools/viewer/src, from DIR when there (esbuild --watch, see
  // tools/viewer/README.md), else the embedded bundle.
  if (path.find("..") != std::string::npos || path.find('\\') != std::string::npos ||
      path.find('\0') != std::string::npos)
    return error(404, "not found: " + req.path);
  const std::filesystem::path disk = path == "/vendor/d3.min.js"
                                         ? static_dir_ / ".." / "node_modules" / "d3" / "dist" / "d3.min.js"
                                         : static_dir_ / path.substr(1);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(disk, ec)) {
    if (const auto it = path == "/app.js" ? files_.find(path) : files_.end(); it != files_.end()) {
      r.body.assign(it->second.body);
      return r;
    }
    return error(404, path == "/vendor/d3.min.js" ? "no " + disk.string() + " (run npm ci in tools/viewer)"
                                                  : "not found: " + req.path);
  }
  std::ifstream in(disk, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  if (!in) return error(500, "cannot read " + disk.string());
  r.body = s.str();
  return r;
}

}  // namespace tilespace::server
