// `tilespace serve`: the server's parameters and lifecycle — checks the options, sets up the
// signals and the descriptor limit, makes the service (service.hpp), its routes (routes.hpp) and
// the transport (http_server.hpp), prints where it listens, and serves until SIGINT/SIGTERM.
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>

#include "server/serve.hpp"
#include "app/common.hpp"
#include "server/http_server.hpp"
#include "server/routes.hpp"
#include "server/service.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"

namespace tilespace::server {

namespace {

// Raises the soft limit on open descriptors so that --max-connections fit (each is a socket);
// refuses a number the hard limit cannot hold.
void fit_descriptors(int connections) {
  constexpr rlim_t kSpare = 256;  // files, databases, the listening socket
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0) return;
  const rlim_t want = static_cast<rlim_t>(connections) + kSpare;
  if (lim.rlim_cur >= want) return;
  if (lim.rlim_max != RLIM_INFINITY && lim.rlim_max < want)
    throw option_error("max-connections", "must be at most " + std::to_string(lim.rlim_max - std::min(lim.rlim_max, kSpare)) +
                                              " here: the open-file limit is " + std::to_string(lim.rlim_max) +
                                              " (ulimit -Hn)");
  lim.rlim_cur = want;
  ::setrlimit(RLIMIT_NOFILE, &lim);
}

}  // namespace

int cmd_serve(Common& c, const ServeFlags& f) {
  if (f.port < 0 || f.port > 65535) throw InputError("--port must be from 0 to 65535");
  if (f.workers < 1 || f.workers > 1024) throw InputError("--workers must be from 1 to 1024");
  if (f.io_threads < 0 || f.io_threads > 256) throw InputError("--io-threads must be from 0 to 256");
  if (f.max_connections < 1 || f.max_connections > 1'000'000) throw InputError("--max-connections must be from 1 to 1000000");
  if (f.max_solves < 0 || f.max_solves > 1024) throw InputError("--max-solves must be from 0 to 1024");
  if (f.max_nodes == 0) throw InputError("--max-nodes must be at least 1");
  if (!(f.max_seconds > 0)) throw InputError("--max-seconds must be positive");
  if (f.trace_limit == 0 || f.trace_limit > 10'000'000) throw InputError("--trace-limit must be from 1 to 10000000");
  fit_descriptors(f.max_connections);

  // Signals: SIGPIPE ignored (a client hanging up must not end the server); SIGINT and SIGTERM
  // are blocked in every thread and waited for by one, which stops the server cleanly.
  ::signal(SIGPIPE, SIG_IGN);
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  Service service(c, f);
  Routes routes(service, f);
  // The 8-puzzle's usual table, ready before the first request (built if missing).
  service.table(Board(3, 3), 8, Metric::single);

  HttpLimits limits;
  // One I/O thread per two cores: on loopback with the client on the same 2 cores, one thread
  // answers 52-55 K queries/s and two 34-42 K (tools/bench/serve.sh); the other cores are the
  // workers' and the clients'.
  limits.io_threads = f.io_threads > 0 ? f.io_threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency() / 2));
  limits.workers = f.workers;
  limits.max_connections = f.max_connections;
  // Batch bodies are held whole, with their answers: at most four of the largest at once, and
  // that within half the machine's memory.
  const std::uint64_t max_batch = routes.body_limit(HttpRequest{"POST", "", "/api/query", {}, {}, {}});
  if (max_batch > physical_memory() / 8)
    throw option_error("max-request", "must be at most " + std::to_string(physical_memory() / 8 >> 20) +
                                          "M on this machine (four bodies at once within half its memory)");
  limits.body_budget = 4 * max_batch;
  HttpServer server(limits, routes.routing());
  const HttpServer::Listening at = server.bind(f.host, f.port);

  std::thread waiter([&server, stop_signals] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    server.stop();
  });
  const std::string listening = "listening on http://" + at.host + ":" + std::to_string(at.port) + "/";
  std::printf("%s\n", (c.wording ? c.wording(listening) : listening).c_str());
  std::fflush(stdout);
  server.run();
  waiter.join();
  return kExitOk;
}

}  // namespace tilespace::server
