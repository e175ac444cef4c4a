// The HTTP/1.1 transport of `tilespace serve`: an event-driven server (Boost.Beast on Asio) that
// knows nothing of puzzles. A few I/O threads hold every connection; a connection costs a socket
// and a buffer, never a thread, so idle, slow and byte-at-a-time clients cannot stall the others.
// A request is read whole within a deadline, then answered by the routing on the I/O thread (short
// work) or on a pool of worker threads (searches and other long work), and written back.
//
// Refusals the transport makes itself (the routing's `error` words them): 400 for what does not
// parse as HTTP, 413 for a body over the route's limit, 414 for a request target over
// max_target, 431 for headers over max_header, 503 when the bodies being read at once would pass
// body_budget. A request that does not arrive whole within request_seconds (an idle keep-alive
// connection included) is closed, as is one beyond max_connections.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "server/http_params.hpp"

namespace tilespace::server {

struct HttpLimits {
  std::size_t max_target = 8192;           // bytes of the request target
  std::size_t max_header = 16384;          // bytes of the request line and headers
  std::uint64_t body_budget = 1ull << 30;  // bytes of request bodies held at once, all connections
  double request_seconds = 10;             // to receive one request, from the end of the previous
  double write_seconds = 10;               // to send one response
  int max_connections = 4096;              // open at once; more are closed when accepted
  int io_threads = 1;                      // threads that run the connections
  int workers = 1;                         // threads that run long requests
};

struct HttpRouting {
  std::function<HttpResponse(const HttpRequest&)> handle;      // the answer (must not throw)
  std::function<bool(const HttpRequest&)> blocking;            // true: answer on a worker thread
  std::function<std::uint64_t(const HttpRequest&)> body_limit; // bytes of body the request may carry (headers read)
  std::function<HttpResponse(int status, const std::string& message)> error;  // the transport's refusals
};

class HttpServer {
 public:
  HttpServer(HttpLimits limits, HttpRouting routing);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Where the server listens: the address as a URL writes it ("127.0.0.1", "[::1]") and the port.
  struct Listening {
    std::string host;
    int port = 0;
  };
  // Listens on host:port (port 0: any free port). `host` is an IP address (IPv6 with or without
  // brackets) or a name that resolves ("localhost"; of its addresses the first IPv4 one, else the
  // first). Throws InputError naming the host when it cannot (no such name, in use, or not an
  // address of this machine).
  Listening bind(const std::string& host, int port);
  // Serves until stop(); returns when every I/O and worker thread has ended.
  void run();
  // Ends run() from any thread: no new connection is accepted, open ones are closed.
  void stop();

  struct Impl;  // the Asio state, in http_server.cpp

 private:
  std::unique_ptr<Impl> impl_;
};

// Answers one request given as raw bytes (a whole HTTP/1.1 request) through the same parsing,
// limits and routing as a connection, on the calling thread; returns the response's status and
// body. For tests and the fuzz target of the request handling.
HttpResponse answer_bytes(std::string_view bytes, const HttpLimits& limits, const HttpRouting& routing);

}  // namespace tilespace::server
