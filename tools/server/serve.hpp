// `tilespace serve`: the HTTP service and the viewer (tools/server/), started by the command.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "app/common.hpp"

namespace tilespace::server {

using namespace tilespace::app;  // the server is written in the application layer's terms

// The options of `serve` beyond the common ones.
struct ServeFlags {
  std::string host = "127.0.0.1", static_dir, max_memory = "1G";
  int port = 8080;
  int workers = 16;      // threads that answer long requests (searches, statistics, batches)
  int io_threads = 0;    // threads that hold the connections (0: one per two cores)
  int max_connections = 4096;  // open connections at once
  int max_solves = 0;    // searches at once (0: the number of cores)
  std::uint64_t max_nodes = 5'000'000;  // per /api/solve, expansions
  double max_seconds = 10;              // per /api/solve
  std::size_t trace_limit = 20000;      // per /api/solve?trace=1, nodes
  std::string max_request = "64M";      // bytes of a POST /api/query body
};

// Serves until SIGINT or SIGTERM; the exit code (errors.hpp).
int cmd_serve(Common& c, const ServeFlags& f);

}  // namespace tilespace::server
