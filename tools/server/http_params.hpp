// The HTTP service's requests (serve.cpp, routes.cpp): a request and a response as the service
// sees them (independent of the transport, http_server.hpp), the request target's path and query
// parameters, the parameters an endpoint accepts, and input errors in the API's words — the
// status, the message, and the parameter at fault (`param`), from the library's InputError
// subjects (errors.hpp) without rewriting its messages.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"

namespace tilespace::server {

using HttpFields = std::vector<std::pair<std::string, std::string>>;

// One request, whole: read by the server (http_server.hpp), answered by the routes.
struct HttpRequest {
  std::string method;  // as sent: "GET", "HEAD", "POST", ...
  std::string target;  // as sent: "/api/query?start=1+2+3"
  std::string path;    // the target's path, percent-decoded: "/api/query"
  HttpFields params;   // the target's query parameters, decoded ('+' is a blank), in order
  HttpFields headers;  // as sent
  std::string body;
  // The first header of that name (names compare without case), or nullopt.
  std::optional<std::string_view> header(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  HttpFields headers;  // besides Content-Type and Content-Length (Cache-Control, Allow, ...)
};

// Splits an origin-form request target ("/path?query") into its decoded path and parameters;
// false if it is not one (no leading '/'). Malformed escapes ("%ZZ") are kept as they are here;
// Params refuses them (400 naming the parameter).
bool parse_target(std::string_view target, std::string& path, HttpFields& params);
// Percent-decoding; `plus_is_blank` for query strings (application/x-www-form-urlencoded).
std::string url_decode(std::string_view text, bool plus_is_blank);

// A request the service refuses: HTTP status, message, and the parameter at fault (may be empty).
struct HttpError : std::runtime_error {
  int status;
  std::string param;
  HttpError(int st, std::string p, const std::string& msg) : std::runtime_error(msg), status(st), param(std::move(p)) {}
};
inline HttpError bad(const std::string& param, const std::string& msg) { return HttpError(400, param, msg); }

// The query parameters of one request, checked against the names an endpoint accepts.
class Params {
 public:
  Params(const HttpRequest& req, std::initializer_list<std::string_view> allowed)
      : Params(req, std::vector<std::string_view>(allowed)) {}
  Params(const HttpRequest& req, const std::vector<std::string_view>& allowed);
  std::optional<std::string> get(std::string_view name) const;
  bool flag(std::string_view name) const;

 private:
  const HttpRequest& req_;
};

// An input error in the API's words: the parameter at fault, and the message about it.
HttpError http_error(const InputError& e);

// board, start (if `need_start`) and goal from the parameters, in the one grammar (problem.hpp).
Problem parse_pair(const Params& p, bool need_start);

}  // namespace tilespace::server
