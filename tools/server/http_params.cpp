// Requests of the HTTP service: targets and parameters, the API's words for input errors, and
// problems from parameters.
#include "server/http_params.hpp"

#include "app/keywords.hpp"

#include <cctype>
#include <optional>
#include <string>
#include <utility>

#include <strings.h>

namespace tilespace::server {

std::optional<std::string_view> HttpRequest::header(std::string_view name) const {
  for (const auto& [k, v] : headers)
    if (k.size() == name.size() && ::strncasecmp(k.data(), name.data(), k.size()) == 0) return v;
  return std::nullopt;
}

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string url_decode(std::string_view text, bool plus_is_blank) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size()) {
      const int hi = hex_value(text[i + 1]), lo = hex_value(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += plus_is_blank && c == '+' ? ' ' : c;
  }
  return out;
}

bool parse_target(std::string_view target, std::string& path, HttpFields& params) {
  path.clear();
  params.clear();
  if (target.empty() || target.front() != '/') return false;
  const std::size_t q = target.find('?');
  path = url_decode(target.substr(0, q), false);
  if (q == std::string_view::npos) return true;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    params.emplace_back(url_decode(item.substr(0, eq), true),
                        eq == std::string_view::npos ? std::string() : url_decode(item.substr(eq + 1), true));
  }
  return true;
}

namespace {

// The first parameter of `target`'s query whose name or value holds a malformed escape (a '%' not
// followed by two hexadecimal digits), decoded as parse_target decodes it, and that escape.
std::optional<std::pair<std::string, std::string>> malformed_escape(std::string_view target) {
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return std::nullopt;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    for (std::size_t i = item.find('%'); i != std::string_view::npos; i = item.find('%', i + 1)) {
      if (i + 2 < item.size() && hex_value(item[i + 1]) >= 0 && hex_value(item[i + 2]) >= 0) continue;
      return std::pair{url_decode(item.substr(0, item.find('=')), true), std::string(item.substr(i, 3))};
    }
  }
  return std::nullopt;
}

}  // namespace

Params::Params(const HttpRequest& req, const std::vector<std::string_view>& allowed) : req_(req) {
  // A malformed escape is an error about its parameter, not a value read as it happens to be spelt.
  if (const auto bad_escape = malformed_escape(req.target))
    throw bad(bad_escape->first, bad_escape->first + ": malformed percent-encoding '" + bad_escape->second +
                                     "' (a % is followed by two hexadecimal digits; %25 is a '%')");
  for (std::size_t i = 0; i < req.params.size(); ++i) {
    const std::string& k = req.params[i].first;
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
      std::string names;
      for (auto a : allowed) {
        if (!names.empty()) names += ", ";
        names += a;
      }
      throw bad(k, "unknown parameter '" + k + "' (this endpoint takes " + (names.empty() ? "none" : names) + ")");
    }
    for (std::size_t j = 0; j < i; ++j)
      if (req.params[j].first == k) throw bad(k, "parameter '" + k + "' given more than once");
  }
}

std::optional<std::string> Params::get(std::string_view name) const {
  for (const auto& [k, v] : req_.params)
    if (k == name) return v;
  return std::nullopt;
}

bool Params::flag(std::string_view name) const {
  const auto v = get(name);
  if (!v || *v == "0" || *v == "false") return false;
  if (v->empty() || *v == "1" || *v == "true") return true;
  const std::string n(name);
  throw bad(n, n + " must be 0 or 1, not '" + *v + "'");
}

// An input error in the API's words (app/keywords.hpp): the parameter at fault, and the message.
HttpError http_error(const InputError& e) {
  const app::KeywordError k = app::keyword_error(e);
  return bad(k.param, k.message);
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

}  // namespace tilespace::server
