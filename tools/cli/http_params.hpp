// The HTTP service's requests (serve.cpp): the query parameters an endpoint accepts, and input
// errors in the API's words — the status, the message, and the parameter at fault (`param`),
// from the library's InputError subjects (errors.hpp) without rewriting its messages.
#pragma once

#include <httplib.h>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"

namespace tilespace::cli {

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
std::string api_name(std::string name);

// An input error in the API's words: the parameter at fault, and the message about it.
HttpError http_error(const InputError& e);

// board, start (if `need_start`) and goal from the parameters, in the one grammar (problem.hpp).
Problem parse_pair(const Params& p, bool need_start);

}  // namespace tilespace::cli
