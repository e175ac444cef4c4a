// The HTTP/1.1 transport (http_server.hpp) on Boost.Beast and Asio.
//
// Each connection is a Session on its own strand: read the header (async_read_header) under the
// request deadline, check the target and the body's size against the limits before a byte of
// the body is stored, read the body, answer (inline or on the worker pool), write, and start over
// while the client keeps the connection alive. Nothing here blocks an I/O thread but the
// routing's inline answers, which are short by contract (HttpRouting::blocking).
#include "server/http_server.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <optional>
#include <thread>
#include <vector>

#include "tilespace/errors.hpp"

namespace tilespace::server {

namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

using Parser = http::request_parser<http::string_body>;

std::chrono::milliseconds millis(double seconds) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
}

std::string as_string(beast::string_view s) { return std::string(s.data(), s.size()); }

// A refusal of the transport: status and message.
struct Refusal {
  int status;
  std::string message;
};

// What a parse error means for the client. header_limit: 414 if the request line itself is over
// the limit (no line end yet in what was read), else 431.
Refusal refusal_for(const beast::error_code& ec, std::string_view received) {
  if (ec == http::error::header_limit) {
    if (received.find('\n') == std::string_view::npos) return {414, "request line too long"};
    return {431, "request headers too large"};
  }
  if (ec == http::error::body_limit) return {413, "request body too large"};
  return {400, "bad request: " + ec.message()};
}

// Checks made once the header is read, before the body: the target's length and form, and the
// body's size against the route's limit. Sets the parser's body limit.
std::optional<Refusal> check_header(Parser& parser, const HttpLimits& limits, const HttpRouting& routing,
                                    HttpRequest& req, std::uint64_t& limit) {
  const auto& h = parser.get();
  req.method = as_string(h.method_string());
  req.target = as_string(h.target());
  if (req.target.size() > limits.max_target) return Refusal{414, "request target too long"};
  if (!parse_target(req.target, req.path, req.params)) return Refusal{400, "bad request target: " + req.target.substr(0, 100)};
  req.headers.clear();
  for (const auto& f : h) req.headers.emplace_back(as_string(f.name_string()), as_string(f.value()));
  limit = routing.body_limit(req);
  if (const auto n = parser.content_length(); n && *n > limit)
    return Refusal{413, "request body too large: " + std::to_string(*n) + " bytes, at most " + std::to_string(limit) +
                            " here"};
  parser.body_limit(limit);
  return std::nullopt;
}

// The response as Beast writes it: the body left out for HEAD, Content-Length kept.
template <class Body>
http::response<Body> head_of(const HttpResponse& r, unsigned version, bool keep_alive) {
  http::response<Body> res;
  res.version(version);
  res.result(static_cast<unsigned>(r.status));
  res.set(http::field::content_type, r.content_type);
  for (const auto& [k, v] : r.headers) res.set(k, v);
  res.keep_alive(keep_alive);
  return res;
}

}  // namespace

struct HttpServer::Impl {
  HttpLimits limits;
  HttpRouting routing;
  std::atomic<int> connections{0};
  std::atomic<std::uint64_t> body_bytes{0};  // bytes reserved by bodies being read
  net::io_context ioc;
  tcp::acceptor acceptor{net::make_strand(ioc)};
  net::steady_timer accept_pause{acceptor.get_executor()};
  std::optional<net::thread_pool> pool;

  Impl(HttpLimits l, HttpRouting r) : limits(l), routing(std::move(r)), ioc(std::max(1, l.io_threads)) {}

  void accept();
};

namespace {

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, HttpServer::Impl& server) : stream_(std::move(socket)), server_(server) {
    server_.connections.fetch_add(1, std::memory_order_relaxed);
  }
  ~Session() {
    release_body();
    server_.connections.fetch_sub(1, std::memory_order_relaxed);
  }

  void start() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read_header(); });
  }

 private:
  void read_header() {
    parser_.emplace();
    parser_->header_limit(static_cast<std::uint32_t>(server_.limits.max_header));
    parser_->body_limit(std::numeric_limits<std::uint64_t>::max());  // checked, and set, once the header is read (check_header)
    req_ = HttpRequest{};
    stream_.expires_after(millis(server_.limits.request_seconds));
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(ec); });
  }

  void on_header(beast::error_code ec) {
    if (ec) return fail(ec);
    std::uint64_t limit = 0;
    if (const auto r = check_header(*parser_, server_.limits, server_.routing, req_, limit)) return refuse(*r);
    // Bodies are held in memory: their bytes come out of one budget for all connections (a
    // chunked body of unknown length reserves the route's whole limit).
    const std::uint64_t want = parser_->content_length().value_or(parser_->get().chunked() ? limit : 0);
    if (want > 0) {
      const std::uint64_t before = server_.body_bytes.fetch_add(want, std::memory_order_relaxed);
      reserved_ = want;
      if (before + want > server_.limits.body_budget)
        return refuse({503, "busy: request bodies being received exceed the server's budget; try again"});
    }
    const auto expect = parser_->get()[http::field::expect];
    if (beast::iequals(expect, "100-continue")) {
      static const std::string kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
      return net::async_write(stream_, net::buffer(kContinue), [self = shared_from_this()](beast::error_code e, std::size_t) {
        if (e) return self->fail(e);
        self->read_body();
      });
    }
    read_body();
  }

  void read_body() {
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_body(ec); });
  }

  void on_body(beast::error_code ec) {
    if (ec) return fail(ec);
    keep_alive_ = parser_->get().keep_alive();
    version_ = parser_->get().version();
    req_.body = std::move(parser_->get().body());
    parser_.reset();
    if (server_.routing.blocking(req_)) {
      stream_.expires_never();  // the worker's time is the routing's to limit
      net::post(*server_.pool, [self = shared_from_this()] {
        HttpResponse res = self->server_.routing.handle(self->req_);
        net::post(self->stream_.get_executor(), [self, res = std::move(res)]() mutable { self->write(std::move(res)); });
      });
      return;
    }
    write(server_.routing.handle(req_));
  }

  void release_body() {
    if (reserved_) server_.body_bytes.fetch_sub(reserved_, std::memory_order_relaxed);
    reserved_ = 0;
  }

  // A read that failed: a refusal for what the client sent wrong, a silent close otherwise.
  void fail(beast::error_code ec) {
    if (ec == http::error::end_of_stream || ec == beast::error::timeout || ec == net::error::operation_aborted ||
        ec == net::error::connection_reset || ec == net::error::eof || ec == http::error::partial_message ||
        ec == net::error::broken_pipe)
      return close();
    const auto data = buffer_.data();
    refuse(refusal_for(ec, std::string_view(static_cast<const char*>(data.data()), data.size())));
  }

  // Answers with the transport's error and closes the connection (what follows is not trusted).
  void refuse(const Refusal& r) {
    keep_alive_ = false;
    linger_ = true;
    version_ = parser_ && parser_->is_header_done() ? parser_->get().version() : 11;
    parser_.reset();
    write(server_.routing.error(r.status, r.message));
  }

  void write(HttpResponse res) {
    release_body();
    req_.body.clear();
    req_.body.shrink_to_fit();
    stream_.expires_after(millis(server_.limits.write_seconds));
    auto done = [self = shared_from_this()](beast::error_code ec, std::size_t) {
      self->held_.reset();
      if (!ec && self->linger_) return self->linger();
      if (ec || !self->keep_alive_) return self->close();
      self->read_header();
    };
    if (req_.method == "HEAD") {
      auto msg = std::make_shared<http::response<http::empty_body>>(head_of<http::empty_body>(res, version_, keep_alive_));
      msg->content_length(res.body.size());
      held_ = msg;
      return http::async_write(stream_, *msg, std::move(done));
    }
    auto msg = std::make_shared<http::response<http::string_body>>(head_of<http::string_body>(res, version_, keep_alive_));
    msg->body() = std::move(res.body);
    msg->prepare_payload();
    held_ = msg;
    http::async_write(stream_, *msg, std::move(done));
  }

  // After a refusal the client may still be sending (a body over the limit): closing with
  // unread bytes would reset the connection before it reads the answer. So stop sending, read
  // and drop what comes for a moment, then close.
  void linger() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(std::chrono::seconds(1));
    drain_.resize(16384);
    stream_.async_read_some(net::buffer(drain_), [self = shared_from_this()](beast::error_code ec, std::size_t n) {
      self->drained_ += n;
      if (ec || self->drained_ > (4u << 20)) return self->close();
      self->linger();
    });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  HttpServer::Impl& server_;
  beast::flat_buffer buffer_;
  std::optional<Parser> parser_;
  HttpRequest req_;
  bool keep_alive_ = false;
  unsigned version_ = 11;
  std::uint64_t reserved_ = 0;
  std::shared_ptr<void> held_;  // the response being written
  bool linger_ = false;
  std::vector<char> drain_;
  std::size_t drained_ = 0;
};

}  // namespace

void HttpServer::Impl::accept() {
  acceptor.async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !acceptor.is_open()) return;
    if (ec) {
      // Out of descriptors (EMFILE) and the like: wait a little instead of spinning on accept.
      accept_pause.expires_after(std::chrono::milliseconds(50));
      accept_pause.async_wait([this](beast::error_code e) {
        if (!e) accept();
      });
      return;
    }
    if (connections.load(std::memory_order_relaxed) >= limits.max_connections) {
      beast::error_code ignored;
      socket.close(ignored);
    } else {
      socket.set_option(tcp::no_delay(true), ec);
      std::make_shared<Session>(std::move(socket), *this)->start();
    }
    accept();
  });
}

HttpServer::HttpServer(HttpLimits limits, HttpRouting routing)
    : impl_(std::make_unique<Impl>(limits, std::move(routing))) {}

HttpServer::~HttpServer() = default;

namespace {

// The address `host` names: an IP address (IPv6 with or without brackets), else the resolved
// name's first IPv4 address, else its first. Throws InputError when it names none.
net::ip::address listen_address(net::io_context& ioc, const std::string& host, const std::string& where) {
  std::string h = host;
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  beast::error_code ec;
  const auto literal = net::ip::make_address(h, ec);
  if (!ec) return literal;
  tcp::resolver resolver(ioc);
  tcp::resolver::results_type found;
  if (!h.empty()) found = resolver.resolve(h, "0", ec);
  if (ec || found.empty())
    throw InputError("cannot listen on " + where + ": '" + host + "' is not an IP address or a name that resolves" +
                     (ec ? " (" + ec.message() + ")" : std::string()));
  for (const auto& e : found)
    if (e.endpoint().address().is_v4()) return e.endpoint().address();
  return found.begin()->endpoint().address();
}

}  // namespace

HttpServer::Listening HttpServer::bind(const std::string& host, int port) {
  const std::string where = host + ":" + (port == 0 ? std::string("any port") : std::to_string(port));
  const tcp::endpoint endpoint(listen_address(impl_->ioc, host, where), static_cast<unsigned short>(port));
  beast::error_code ec;
  auto& a = impl_->acceptor;
  a.open(endpoint.protocol(), ec);
  if (!ec) a.set_option(net::socket_base::reuse_address(true), ec);  // not SO_REUSEPORT: a port in use stays refused
  if (!ec) a.bind(endpoint, ec);
  if (!ec) a.listen(net::socket_base::max_listen_connections, ec);
  if (ec) throw InputError("cannot listen on " + where + " (" + ec.message() + ")");
  const auto address = endpoint.address();
  return {address.is_v6() ? "[" + address.to_string() + "]" : address.to_string(), a.local_endpoint().port()};
}

void HttpServer::run() {
  impl_->pool.emplace(static_cast<std::size_t>(std::max(1, impl_->limits.workers)));
  impl_->accept();
  std::vector<std::thread> threads;
  for (int i = 1; i < impl_->limits.io_threads; ++i) threads.emplace_back([this] { impl_->ioc.run(); });
  impl_->ioc.run();
  for (auto& t : threads) t.join();
  impl_->pool->join();
}

void HttpServer::stop() {
  net::post(impl_->acceptor.get_executor(), [this] {
    beast::error_code ignored;
    impl_->acceptor.close(ignored);
    impl_->accept_pause.cancel();
  });
  impl_->ioc.stop();
}

HttpResponse answer_bytes(std::string_view bytes, const HttpLimits& limits, const HttpRouting& routing) {
  Parser parser;
  parser.header_limit(static_cast<std::uint32_t>(limits.max_header));
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  parser.eager(false);  // the header first: the limits are checked before the body is read
  const auto refuse = [&](const beast::error_code& e) {
    const Refusal r = refusal_for(e, bytes);
    return routing.error(r.status, r.message);
  };
  beast::error_code ec;
  std::size_t used = parser.put(net::buffer(bytes.data(), bytes.size()), ec);
  if (ec == http::error::need_more) ec = http::error::partial_message;  // the header is cut short
  if (ec) return refuse(ec);
  HttpRequest req;
  std::uint64_t limit = 0;
  if (const auto r = check_header(parser, limits, routing, req, limit)) return routing.error(r->status, r->message);
  parser.eager(true);
  while (!parser.is_done()) {
    const std::size_t n = parser.put(net::buffer(bytes.data() + used, bytes.size() - used), ec);
    used += n;
    if (ec == http::error::need_more || (!ec && n == 0)) {
      ec = {};
      parser.put_eof(ec);
      if (!ec && !parser.is_done()) ec = http::error::partial_message;
    }
    if (ec) return refuse(ec);
  }
  req.body = std::move(parser.get().body());
  HttpResponse res = routing.handle(req);
  if (req.method == "HEAD") res.body.clear();
  return res;
}

}  // namespace tilespace::server
