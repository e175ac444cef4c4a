// Fuzz target: the HTTP service's request handling in process — the input is one raw HTTP/1.1
// request (request line, headers, body), run through the server's own parsing, limits and routes
// (http_server.hpp answer_bytes, routes.hpp, service.hpp) against a folder with the 8-puzzle's
// tables. Query strings, percent escapes, parameters, headers, Content-Length and chunked bodies,
// batch bodies and every endpoint are reached; searches run under small limits so that no input
// takes long.
//
// Properties: every answer has a status the API documents and none is an internal error; every
// JSON answer parses, and every error carries its message ("error").
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "app/common.hpp"
#include "server/http_server.hpp"
#include "server/routes.hpp"
#include "server/service.hpp"
#include "support.hpp"
#include "tilespace/board.hpp"

using namespace tilespace;
using namespace tilespace::server;

namespace {

struct Harness {
  Common common;
  ServeFlags flags;
  std::unique_ptr<Service> service;
  std::unique_ptr<Routes> routes;
  HttpRouting routing;
  HttpLimits limits;

  Harness() {
    common.db = (fuzz::scratch_dir() / "db").string();
    common.threads = 1;
    flags.max_nodes = 2000;
    flags.max_seconds = 0.2;
    flags.trace_limit = 200;
    flags.max_request = "64K";
    flags.max_memory = "64M";
    service = std::make_unique<Service>(common, flags);
    service->table(Board(3, 3), 8, Metric::single);  // the 8-puzzle's usual table, built once into the scratch folder
    routes = std::make_unique<Routes>(*service, flags);
    routing = routes->routing();
  }
};

Harness& harness() {
  static Harness h;
  return h;
}

const std::set<int> kStatuses{200, 400, 404, 405, 413, 414, 415, 431, 500, 503};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  harness();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Harness& h = harness();
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const HttpResponse r = answer_bytes(bytes, h.limits, h.routing);
  fuzz::check(kStatuses.count(r.status) == 1, "status " + std::to_string(r.status) + " is not one the API documents");
  fuzz::check(r.status != 500 || r.body.find("database error") != std::string::npos,
              "an internal error: " + r.body.substr(0, 200));
  bool gzipped = false;
  for (const auto& [k, v] : r.headers) gzipped = gzipped || (k == "Content-Encoding" && v == "gzip");
  if (r.content_type == "application/json" && !gzipped && !r.body.empty()) {
    const auto j = nlohmann::json::parse(r.body, nullptr, false);
    fuzz::check(!j.is_discarded(), "a JSON answer that does not parse: " + r.body.substr(0, 200));
    fuzz::check(r.status == 200 || (j.contains("error") && j["error"].is_string() && !j["error"].get<std::string>().empty()),
                "an error without its message: " + r.body.substr(0, 200));
  }
  return 0;
}
