// The routes of `tilespace serve` (serve.cpp builds them, http_server.hpp carries them): which
// answer a request gets, where it is computed (on an I/O thread when short, on a worker when a
// search, statistics or a batch), how large a body each endpoint takes, the viewer's files
// (embedded, or from --static DIR), gzip for the API's JSON, and every error as JSON naming the
// parameter at fault. No request can end the process. API: tools/viewer/API.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>

#include "server/serve.hpp"
#include "server/http_params.hpp"
#include "server/http_server.hpp"
#include "server/service.hpp"

namespace tilespace::server {

class Routes {
 public:
  // Throws InputError for a --static folder that does not exist.
  Routes(Service& service, const ServeFlags& flags);

  HttpRouting routing();

  HttpResponse handle(const HttpRequest& req);
  static bool blocking(const HttpRequest& req);
  std::uint64_t body_limit(const HttpRequest& req) const;
  static HttpResponse error(int status, const std::string& message, const std::string& param = "");

 private:
  HttpResponse api(const HttpRequest& req);
  HttpResponse file(const HttpRequest& req) const;

  struct File {
    std::string_view type, body;
  };
  Service& service_;
  std::uint64_t max_batch_;
  std::filesystem::path static_dir_;  // empty: the embedded files (with --static, still /app.js when DIR has none)
  std::unordered_map<std::string, File> files_;
};

// The body of `text` gzip-compressed (zlib), or empty if it cannot be.
std::string gzip(std::string_view text);

}  // namespace tilespace::server
