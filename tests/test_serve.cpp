// `tilespace serve` over real HTTP on a free loopback port: answers checked against an independent
// BFS, the published 8-puzzle distribution and the search lab; bad requests get 400 (or 404, 405,
// 413, 414, 415, 431) with a JSON error naming the parameter; garbage on the socket cannot stop the
// server; idle, byte-at-a-time and hostile clients cannot stall the others; POST /api/query
// answers a batch exactly as `query --batch`; SIGTERM ends it cleanly. Also `solve --trace FILE`,
// the offline form of the same trace.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "serve_support.hpp"
#include "support.hpp"
#include "tilespace/state.hpp"

using nlohmann::json;
using namespace tilespace;

using testing::Reply;
using testing::Server;
using testing::get;

namespace {

// The state as a URL parameter value ("2+4+3+...").
std::string words(const State& s) {
  std::string t = s.to_string();
  std::replace(t.begin(), t.end(), ' ', '+');
  return t;
}

std::vector<int> tiles(const State& s) { return {s.tiles.begin(), s.tiles.begin() + s.cells()}; }

// One raw exchange on a fresh socket: sends `bytes`, returns what came back before the close.
std::string raw(int port, const std::string& bytes) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  timeval tv{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  (void)!::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  ::shutdown(fd, SHUT_WR);
  std::string got;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) got.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return got;
}

}  // namespace

TEST_CASE("serve: query, stats and random agree with an independent BFS and the published distribution", "[serve]") {
  testing::TempDir dir;
  Server srv(dir.path);
  httplib::Client cli("127.0.0.1", srv.port());
  cli.set_url_encode(false);  // the URLs here are already encoded ("+" for spaces)
  std::mt19937_64 rng(2026);

  // Two goals of the 8-puzzle and one of the 2x3: 150 random starts each, both parity classes.
  for (const auto& [g, b] : std::vector<std::pair<std::string, Board>>{
           {"1 2 3 4 5 6 7 8 0", Board(3, 3)}, {"1 2 3 8 0 4 7 6 5", Board(3, 3)}, {"0 1 2 3 4 5", Board(3, 2)}}) {
    const State goal = parse_state(g, b);
    const auto dist = testing::naive_bfs(goal);
    const std::string board = goal.board.name();
    for (int i = 0; i < 150; ++i) {
      const State s = testing::random_state(goal.board, rng);
      const Reply r = get(cli, "/api/query?board=" + board + "&start=" + words(s) + "&goal=" + words(goal));
      REQUIRE(r.status == 200);
      REQUIRE(r.body["start"] == tiles(s));
      const auto it = dist.find(s.packed());
      if (it == dist.end()) {
        REQUIRE(r.body["reachable"] == false);
        REQUIRE(r.body["length"].is_null());
      } else {
        REQUIRE(r.body["reachable"] == true);
        REQUIRE(r.body["length"] == it->second);
      }
    }
  }

  // The histogram of the usual goal is the published one (tests/data/bfs-distributions.txt).
  std::ifstream in(std::string(TILESPACE_TEST_DATA) + "/bfs-distributions.txt");
  std::vector<std::uint64_t> published;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("3x3 corner ", 0) != 0) continue;
    std::istringstream w(line.substr(11));
    std::uint64_t states = 0, radius = 0, x = 0;
    w >> states >> radius;
    while (w >> x) published.push_back(x);
  }
  REQUIRE(published.size() == 32);
  const Reply st = get(cli, "/api/stats?board=3x3");
  REQUIRE(st.status == 200);
  REQUIRE(st.body["histogram"].get<std::vector<std::uint64_t>>() == published);
  REQUIRE(st.body["radius"] == 31);
  REQUIRE(st.body["states"] == 181440);
  // The hardest states: exactly the two published at depth 31, each 31 moves away.
  REQUIRE(st.body["farthest"].size() == 2);
  for (const auto& f : st.body["farthest"]) {
    std::string t;
    for (const auto& x : f) t += std::to_string(x.get<int>()) + "+";
    REQUIRE(get(cli, "/api/query?start=" + t).body["length"] == 31);
  }

  // Random states are reachable and their length is the table's.
  for (int i = 0; i < 20; ++i) {
    const Reply r = get(cli, "/api/random?goal=1+2+3+8+0+4+7+6+5");
    REQUIRE(r.status == 200);
    std::string t;
    for (const auto& x : r.body["state"]) t += std::to_string(x.get<int>()) + "+";
    const Reply q = get(cli, "/api/query?start=" + t + "&goal=1+2+3+8+0+4+7+6+5");
    REQUIRE(q.body["reachable"] == true);
    REQUIRE(q.body["length"] == r.body["length"]);
  }
  REQUIRE(srv.stop() == 0);
}

TEST_CASE("serve: solve returns optimal paths and the search tree, within the request's budget", "[serve][timing]") {
  testing::TempDir dir;
  Server srv(dir.path, {"--max-nodes", "2000000000"});  // so that max_seconds below is what stops iddfs
  httplib::Client cli("127.0.0.1", srv.port());
  cli.set_url_encode(false);  // the URLs here are already encoded ("+" for spaces)
  const std::string start = "2+4+3+7+1+6+0+5+8", goal = "1+2+3+4+5+6+7+8+0";
  const Reply info = get(cli, "/api/info");
  REQUIRE(info.status == 200);
  for (const auto& a : info.body["algorithms"]) {
    const std::string alg = a["name"];
    CAPTURE(alg);
    const bool traces = std::find(a["options"].begin(), a["options"].end(), "trace") != a["options"].end();
    const Reply r = get(cli, "/api/solve?start=" + start + "&goal=" + goal + "&algorithm=" + alg + (traces ? "&trace=1" : ""));
    REQUIRE(r.status == 200);
    const json& j = r.body;
    REQUIRE(j["solvable"] == true);
    REQUIRE(j["optimal_length"] == 8);
    REQUIRE(j["length"].is_number());
    if (a["optimal"] == true) REQUIRE(j["length"] == 8);
    // The path is legal and its moves and remaining distances fit it.
    const auto& path = j["path"];
    REQUIRE(path.size() == j["length"].get<std::size_t>() + 1);
    REQUIRE(j["moves"].get<std::string>().size() + 1 == path.size());
    REQUIRE(path.front() == json::parse("[2,4,3,7,1,6,0,5,8]"));
    REQUIRE(path.back() == json::parse("[1,2,3,4,5,6,7,8,0]"));
    REQUIRE(j["remaining"].size() == path.size());
    REQUIRE(j["remaining"].back() == 0);
    REQUIRE(j["remaining"].front() == 8);
    // The trace: ids are indices, every expansion's children name it as parent, the solution
    // ends at the goal.
    if (!traces) {
      REQUIRE(!j.contains("data"));
      continue;
    }
    const auto& data = j["data"];
    if (j["trace_truncated"] == true) {  // dfs to depth 50 generates more than the 20000 recorded
      REQUIRE(data.size() == 20000);
      continue;
    }
    REQUIRE(data.size() >= j["generated"].get<std::size_t>());
    for (std::size_t i = 0; i < data.size(); ++i) {
      REQUIRE(data[i]["id"] == i);
      REQUIRE(data[i]["f"] == data[i]["g"].get<int>() + data[i]["h"].get<int>());
    }
    REQUIRE(j["process"].size() == j["expanded"].get<std::size_t>());
    for (const auto& e : j["process"])
      for (const auto& c : e["children"]) REQUIRE(data[c.get<std::size_t>()]["parent"] == e["parent"]);
    REQUIRE(j["solution"].size() == path.size());
    REQUIRE(data[j["solution"].back().get<std::size_t>()]["state"] == path.back());
  }
  // Without trace=1 there is no tree.
  const Reply plain = get(cli, "/api/solve?start=" + start);
  REQUIRE(plain.body["length"] == 8);
  REQUIRE_FALSE(plain.body.contains("data"));
  // Zero-aware databases and a catalogue of them, with a trace, as on the command line.
  for (const char* h : {"zpdb:4-4", "catalogue:4-4%2B1,2,3/4,5,6/7,8"}) {
    CAPTURE(h);
    const Reply z = get(cli, std::string("/api/solve?start=8+6+7+2+5+4+3+0+1&algorithm=idastar&trace=1&heuristic=") + h);
    REQUIRE(z.status == 200);
    REQUIRE(z.body["length"] == 31);
    REQUIRE(z.body["data"].size() > 1);
  }
  const Reply refused = get(cli, "/api/solve?start=8+6+7+2+5+4+3+0+1&heuristic=zpdb:4-4%2B4-4");
  REQUIRE(refused.status == 400);
  REQUIRE(refused.body["param"] == "heuristic");

  // A budget stops a blind search on the hardest state cleanly; a trace limit truncates.
  const Reply stopped = get(cli, "/api/solve?start=8+6+7+2+5+4+3+0+1&algorithm=bfs&max_nodes=1000");
  REQUIRE(stopped.status == 200);
  REQUIRE(stopped.body["stopped"] == "max-nodes");
  REQUIRE(stopped.body["length"].is_null());
  REQUIRE(stopped.body["expanded"] == 1000);
  const Reply timed = get(cli, "/api/solve?start=8+6+7+2+5+4+3+0+1&algorithm=iddfs&depth_limit=40&max_seconds=0.2");
  REQUIRE(timed.body["stopped"] == "max-seconds");
  const Reply cut = get(cli, "/api/solve?start=8+6+7+2+5+4+3+0+1&algorithm=astar&trace=1&trace_limit=50");
  REQUIRE(cut.body["length"] == 31);
  REQUIRE(cut.body["data"].size() == 50);
  REQUIRE(cut.body["trace_truncated"] == true);
  // Unreachable pairs are answered without search.
  const Reply un = get(cli, "/api/solve?start=1+2+3+4+5+6+8+7+0&trace=1");
  REQUIRE(un.status == 200);
  REQUIRE(un.body["solvable"] == false);
  REQUIRE(un.body["length"].is_null());
  // A 4x4 instance is searched (no table, so no optimal length).
  const Reply big = get(cli, "/api/solve?board=4x4&start=1+2+3+4+5+6+7+8+9+10+11+12+13+14+0+15&algorithm=idastar");
  REQUIRE(big.body["length"] == 1);
  REQUIRE(big.body["optimal_length"].is_null());
  REQUIRE(srv.stop() == 0);
}

TEST_CASE("serve: bad requests get a JSON error naming the parameter, and the server lives on", "[serve]") {
  testing::TempDir dir;
  Server srv(dir.path, {"--max-nodes", "100000", "--trace-limit", "1000", "--max-request", "64K"});
  httplib::Client cli("127.0.0.1", srv.port());
  cli.set_url_encode(false);  // the URLs here are already encoded ("+" for spaces)
  const std::string ok = "start=2+4+3+7+1+6+0+5+8";
  const std::vector<std::pair<std::string, std::string>> bad{
      {"/api/query", "start"},
      {"/api/query?start=", "start"},
      {"/api/query?start=1+2+3+4+5+6+7+8", "start"},                 // wrong tile count
      {"/api/query?start=1+1+3+4+5+6+7+8+0", "start"},               // duplicate
      {"/api/query?start=1+2+3+4+5+6+7+8+x", "start"},               // unknown symbol
      {"/api/query?start=1+2+3+4+5+6+7+8+9", "start"},               // out of range, no blank
      {"/api/query?" + ok + "&goal=1+2+3", "goal"},
      {"/api/query?" + ok + "&goal=1+2+3+4+5+6+7+7+0", "goal"},
      {"/api/query?" + ok + "&board=3y3", "board"},
      {"/api/query?" + ok + "&board=2x5", "start"},                  // 9 tiles on a 10-cell board
      {"/api/query?" + ok + "&board=9x9", "board"},
      {"/api/query?" + ok + "&sort=1", "sort"},                      // unknown parameter
      {"/api/query?" + ok + "&start=1+2+3+4+5+6+7+8+0", "start"},    // given twice
      {"/api/solve?" + ok + "&algorithm=quantum", "algorithm"},
      {"/api/solve?" + ok + "&heuristic=psychic", "heuristic"},
      {"/api/solve?" + ok + "&max_nodes=-5", "max_nodes"},
      {"/api/solve?" + ok + "&max_nodes=100001", "max_nodes"},       // above the server's budget
      {"/api/solve?" + ok + "&max_nodes=1e3", "max_nodes"},
      {"/api/solve?" + ok + "&max_seconds=abc", "max_seconds"},
      {"/api/solve?" + ok + "&max_seconds=1e9", "max_seconds"},
      {"/api/solve?" + ok + "&weight=0.5", "weight"},
      {"/api/solve?" + ok + "&depth_limit=99999", "depth_limit"},
      {"/api/solve?" + ok + "&trace=yes", "trace"},
      {"/api/solve?" + ok + "&trace_limit=1001", "trace_limit"},
      {"/api/solve?" + ok + "&trace=1&trace_limit=1000&max_memory=100K", "trace_limit"},  // cannot fit
      {"/api/solve?board=5x5&algorithm=table&start=1+2+3+4+5+6+7+8+9+10+11+12+13+14+15+16+17+18+19+20+21+22+23+24+0", "algorithm"},
      {"/api/solve?board=5x5&trace=1&start=1+2+3+4+5+6+7+8+9+10+11+12+13+14+15+16+17+18+19+20+21+22+23+24+0", "trace"},
      {"/api/stats?board=0x3", "board"},
      {"/api/stats?goal=1+2", "goal"},
      {"/api/random?board=3x3&goal=0+0+1+2+3+4+5+6+7", "goal"},
      {"/api/info?x=1", "x"},
  };
  for (const auto& [path, param] : bad) {
    CAPTURE(path);
    const Reply r = get(cli, path);
    REQUIRE(r.status == 400);
    REQUIRE(r.body["param"] == param);
    const std::string msg = r.body["error"];
    REQUIRE(!msg.empty());
    REQUIRE(msg.find('\n') == std::string::npos);
  }
  // No table for a big board that was never built: 404 naming the board, with the command to build it.
  const Reply nt = get(cli, "/api/query?board=3x4&start=1+2+3+4+5+6+7+8+9+10+0+11");
  REQUIRE(nt.status == 404);
  REQUIRE(nt.body["param"] == "board");
  // The command is the one the command line names (table_store.hpp's build_command): this folder.
  REQUIRE_THAT(nt.body["error"].get<std::string>(),
               Catch::EndsWith("; build it with: tilespace build --board 3x4 --db " + dir.path.string()));
  const Reply other = get(cli, "/api/query?board=3x4&start=1+2+3+4+5+6+7+8+9+10+0+11&goal=0+1+2+3+4+5+6+7+8+9+10+11");
  REQUIRE(other.status == 404);
  REQUIRE_THAT(other.body["error"].get<std::string>(),
               Catch::EndsWith("; build it with: tilespace build --board 3x4 --goal '0 1 2 3 4 5 6 7 8 9 10 11' --db " +
                               dir.path.string()));
  // /api/solve's table and exact heuristic without the table: the same 404 and command, about the
  // parameter that asked for it (the one solve of every front end, app/solve.hpp).
  const Reply descent = get(cli, "/api/solve?board=3x4&start=1+2+3+4+5+6+7+8+9+10+0+11&algorithm=table");
  REQUIRE(descent.status == 404);
  REQUIRE(descent.body["param"] == "algorithm");
  REQUIRE_THAT(descent.body["error"].get<std::string>(), Catch::Contains("tilespace build --board 3x4 --db"));
  const Reply exact = get(cli, "/api/solve?board=3x4&start=1+2+3+4+5+6+7+8+9+10+0+11&algorithm=astar&heuristic=exact");
  REQUIRE(exact.status == 404);
  REQUIRE(exact.body["param"] == "heuristic");
  // A batch body that is not text: the readers' words.
  auto binary = cli.Post("/api/query", std::string("1 2 3 4\0 5 6 7 8 0\n", 19), "text/plain");
  REQUIRE(binary);
  REQUIRE(binary->status == 400);
  REQUIRE_THAT(binary->body, Catch::Contains("body: not a text file"));
  // A malformed percent-escape is a 400 naming its parameter (it was read as spelt).
  const Reply escape = get(cli, "/api/query?start=1+2+3+4+5+6+7+8+0&goal=1%2G2+3+4+5+6+7+8+0");
  REQUIRE(escape.status == 400);
  REQUIRE(escape.body["param"] == "goal");
  REQUIRE_THAT(escape.body["error"].get<std::string>(), Catch::Contains("malformed percent-encoding '%2G'"));
  REQUIRE(get(cli, "/api/query?start=1%202%203+4+5+6+7+8+0").status == 200);  // well-formed escapes decode
  // The limits apply where answers are searched, and are refused elsewhere.
  const Reply small = get(cli, "/api/query?start=1+2+3+4+5+6+7+8+0&max_seconds=5");
  REQUIRE(small.status == 400);
  REQUIRE(small.body["param"] == "max_seconds");
  // Unknown endpoints, other methods, oversized requests.
  REQUIRE(get(cli, "/api/nothing").status == 404);
  REQUIRE(get(cli, "/no/such/file.js").status == 404);
  auto post = cli.Post("/api/solve", "start=1", "application/x-www-form-urlencoded");
  REQUIRE(post);
  REQUIRE(post->status == 405);
  REQUIRE(post->get_header_value("Allow") == "GET, HEAD");
  auto put = cli.Put("/api/query", "1 2 3", "text/plain");
  REQUIRE(put);
  REQUIRE(put->status == 405);
  REQUIRE(put->get_header_value("Allow") == "GET, HEAD, POST");
  auto form = cli.Post("/api/query", "start=1", "application/x-www-form-urlencoded");  // a batch is text/plain
  REQUIRE(form);
  REQUIRE(form->status == 415);
  auto huge = cli.Post("/api/query", std::string(100000, 'x'), "text/plain");  // over --max-request 64K
  REQUIRE(huge);
  REQUIRE(huge->status == 413);
  REQUIRE(json::parse(huge->body)["error"].get<std::string>().find("65536") != std::string::npos);
  const Reply longuri = get(cli, "/api/query?start=" + std::string(9000, '1'));
  REQUIRE(longuri.status == 414);
  const Reply bigheader = [&] {
    httplib::Client c2("127.0.0.1", srv.port());
    c2.set_url_encode(false);
    auto res = c2.Get(("/api/query?" + ok).c_str(), httplib::Headers{{"X-Padding", std::string(20000, 'p')}});
    REQUIRE(res);
    return Reply{res->status, json::parse(res->body)};
  }();
  REQUIRE(bigheader.status == 431);
  // A body announced far over the limit is refused from its header, before a byte of it is read.
  const std::string claimed = raw(srv.port(), "POST /api/query HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                                              "Content-Length: 10000000000\r\n\r\n123456780\n");
  REQUIRE(claimed.rfind("HTTP/1.1 413 ", 0) == 0);
  // A GET carries no body worth reading: more than 16 KiB of one is refused.
  REQUIRE(raw(srv.port(), "GET /api/info HTTP/1.1\r\nHost: x\r\nContent-Length: 20000\r\n\r\n").rfind("HTTP/1.1 413 ", 0) == 0);

  // Garbage and half requests on raw sockets: an HTTP error or a close, never a dead server.
  const std::string garbage = raw(srv.port(), "GARBAGE\r\n\r\n");  // a 400, or a close
  REQUIRE((garbage.empty() || garbage.find(" 400 ") != std::string::npos));
  raw(srv.port(), "GET /api/query?start=1+2+3+4+5+6+7+8+0 HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc");
  raw(srv.port(), "GET /api/query?start=%ZZ%00%ff HTTP/1.1\r\nHost: x\r\n\r\n");
  raw(srv.port(), std::string("GET /\0\0\0 HTTP/1.1\r\n\r\n", 21));
  raw(srv.port(), "");
  std::mt19937_64 rng(5);
  for (int i = 0; i < 50; ++i) {
    std::string junk(static_cast<std::size_t>(rng() % 3000), '\0');
    for (auto& ch : junk) ch = static_cast<char>(rng());
    raw(srv.port(), (i % 2 ? "GET /api/solve?" : "") + junk);
  }
  REQUIRE(srv.alive());
  REQUIRE(get(cli, "/api/query?" + ok).body["length"] == 8);
  REQUIRE(srv.stop() == 0);
}

TEST_CASE("serve: 4x4, where no table can exist, is searched by GET and POST /api/query and by /api/random", "[serve][pdb]") {
  testing::TempDir dir;
  // The stock databases of both goals asked below, as the first requests would build them.
  testing::stock_4x4_databases(dir.path, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0");
  testing::stock_4x4_databases(dir.path, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");
  Server srv(dir.path, {"--max-nodes", "100000"});
  httplib::Client cli("127.0.0.1", srv.port());
  cli.set_url_encode(false);  // the URLs here are already encoded ("+" for spaces)
  cli.set_read_timeout(300, 0);  // searches are slow under the sanitizers
  // A board whose table cannot exist (4x4) is searched, as the command's query searches it.
  const Reply big = get(cli, "/api/query?board=4x4&start=1+2+3+4+5+6+7+8+9+10+11+12+13+14+0+15");
  REQUIRE(big.status == 200);
  REQUIRE(big.body["length"] == 1);
  REQUIRE(big.body["reachable"] == true);
  const Reply stopped = get(cli, "/api/query?board=4x4&max_nodes=100&start=14+13+15+7+11+12+9+5+6+0+2+1+4+8+10+3"
                                 "&goal=0+1+2+3+4+5+6+7+8+9+10+11+12+13+14+15");
  REQUIRE(stopped.status == 200);
  REQUIRE(stopped.body["stopped"] == "max-nodes");
  REQUIRE(stopped.body["length"].is_null());
  auto batch4 = cli.Post("/api/query?board=4x4&json=1&max_nodes=100",
                         "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n# comment\n"
                         "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n",
                         "text/plain");
  REQUIRE(batch4);
  REQUIRE(batch4->status == 200);
  REQUIRE(batch4->body == "{\"length\":1,\"line\":1}\n{\"stopped\":\"max-nodes\",\"line\":3}\n");
  REQUIRE(batch4->get_header_value("X-Tilespace-Stopped") == "1");
  // random with a depth on 4x4: a walk proven that far by search.
  const Reply walk = get(cli, "/api/random?board=4x4&depth=12&seed=3");
  REQUIRE(walk.status == 200);
  REQUIRE(walk.body["length"] == 12);
  std::string start;
  for (const auto& t : walk.body["state"]) start += std::to_string(t.get<int>()) + "+";
  const Reply again = get(cli, "/api/query?board=4x4&start=" + start);
  REQUIRE(again.status == 200);
  REQUIRE(again.body["length"] == 12);
  REQUIRE(get(cli, "/api/random?board=4x4&depth=46").status == 400);
}

TEST_CASE("serve: concurrent clients all get right answers, and the viewer is served", "[serve]") {
  testing::TempDir dir;
  Server srv(dir.path);
  const State goal = parse_state("1 2 3 4 5 6 7 8 0", std::nullopt);
  const auto dist = testing::naive_bfs(goal);
  std::atomic<int> wrong{0}, done{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < 6; ++t) {
    clients.emplace_back([&, t] {
      httplib::Client cli("127.0.0.1", srv.port());
      cli.set_url_encode(false);
      std::mt19937_64 rng(100 + t);
      for (int i = 0; i < 300; ++i) {
        const State s = testing::random_state(goal.board, rng);
        auto res = cli.Get(("/api/query?start=" + words(s)).c_str());
        const auto it = dist.find(s.packed());
        if (!res || res->status != 200) {
          ++wrong;
          continue;
        }
        const json j = json::parse(res->body);
        if (it == dist.end() ? !j["length"].is_null() : j["length"] != it->second) ++wrong;
        ++done;
      }
      // A few searches at the same time as the queries.
      auto res = cli.Get("/api/solve?start=8+6+7+2+5+4+3+0+1&algorithm=astar&heuristic=linear-conflict");
      if (!res || (res->status != 200 && res->status != 503)) ++wrong;
      else if (res->status == 200 && json::parse(res->body)["length"] != 31) ++wrong;
    });
  }
  for (auto& c : clients) c.join();
  REQUIRE(wrong == 0);
  REQUIRE(done == 1800);

  // The viewer: the page, its script and d3, from the binary.
  httplib::Client cli("127.0.0.1", srv.port());
  cli.set_url_encode(false);  // the URLs here are already encoded ("+" for spaces)
  auto page = cli.Get("/");
  REQUIRE(page);
  REQUIRE(page->status == 200);
  REQUIRE(page->get_header_value("Content-Type").rfind("text/html", 0) == 0);
  REQUIRE(page->body.find("/vendor/d3.min.js") != std::string::npos);
  auto d3 = cli.Get("/vendor/d3.min.js");
  REQUIRE(d3);
  REQUIRE(d3->status == 200);
  REQUIRE(d3->body.size() > 20000);
  REQUIRE(d3->body.rfind("var d3=", 0) == 0);  // the build's bundle of tools/viewer/d3-entry.js
  // No per-request brotli (seconds for a big trace): files go as they are, the API at most gzipped.
  cli.set_decompress(false);
  const httplib::Headers offer{{"Accept-Encoding", "gzip, deflate, br"}};
  auto d3br = cli.Get("/vendor/d3.min.js", offer);
  REQUIRE(d3br);
  REQUIRE(d3br->get_header_value("Content-Encoding").empty());
  REQUIRE(d3br->body == d3->body);
  auto apibr = cli.Get("/api/stats?board=3x3", offer);
  REQUIRE(apibr);
  REQUIRE(apibr->status == 200);
  REQUIRE(apibr->get_header_value("Content-Encoding") != "br");
  REQUIRE(srv.stop() == 0);
}

TEST_CASE("cli: solve --trace writes the viewer's trace atomically, and refuses what it cannot trace", "[serve][cli]") {
  testing::TempDir dir;
  const auto file = (dir / "trace.json").string();
  auto r = testing::run_cli("solve -a astar --heuristic manhattan --trace " + file + " '2 4 3 7 1 6 0 5 8'", dir.path);
  REQUIRE(r.rc == 0);
  const json j = json::parse(testing::read_file(file));
  REQUIRE(j["length"] == 8);
  REQUIRE(j["optimal_length"] == 8);
  REQUIRE(j["remaining"].front() == 8);
  REQUIRE(j["data"].size() == j["generated"].get<std::size_t>());
  REQUIRE(j["process"].size() == j["expanded"].get<std::size_t>());
  REQUIRE(j["solution"].size() == 9);
  REQUIRE(j["moves"] == "URULDRDR");
  std::size_t leftovers = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) leftovers += e.path().string().find(".tmp.") != std::string::npos;
  REQUIRE(leftovers == 0);

  r = testing::run_cli("solve -a bfs --trace " + file + " --trace-limit 10 '8 6 7 2 5 4 3 0 1'", dir.path);
  REQUIRE(r.rc == 0);
  REQUIRE(json::parse(testing::read_file(file))["data"].size() == 10);

  // The trace is written as text, not built as json values: it reads back to the same bytes, as
  // if nlohmann::json had written it (keys sorted, compact).
  r = testing::run_cli("solve -a idastar --trace " + file + " --trace-limit 3000 '8 6 7 2 5 4 3 0 1'", dir.path);
  REQUIRE(r.rc == 0);
  const std::string text = testing::read_file(file);
  const json doc = json::parse(text);
  REQUIRE(doc["data"].size() == 3000);
  REQUIRE(doc["trace_truncated"] == true);
  REQUIRE(doc.dump() == text);

  // A trace that could not fit the memory limit is refused before the search: exit 4, no file.
  std::filesystem::remove(file);
  r = testing::run_cli("solve -a bfs --trace " + file + " --trace-limit 10000000 --max-memory 1G '8 6 7 2 5 4 3 0 1'", dir.path);
  REQUIRE(r.rc == 4);
  using Catch::Matchers::Contains;
  REQUIRE_THAT(r.err, Contains("a trace of up to 10000000 nodes on 3x3 needs up to") && Contains("GiB of memory") &&
                          Contains("memory limit of 1.0 GiB"));
  REQUIRE(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  REQUIRE(!std::filesystem::exists(file));

  // Pattern databases are traced like any heuristic; aidastar records no trace.
  r = testing::run_cli("solve --heuristic pdb:4-4 --trace " + file + " '2 4 3 7 1 6 0 5 8'", dir.path);
  REQUIRE(r.rc == 0);
  REQUIRE(json::parse(testing::read_file(file))["heuristic"] == "pdb:4-4");
  for (const std::string h : {"zpdb:4-4", "catalogue:4-4+1,2,3/4,5,6/7,8"})
    for (const char* a : {"idastar", "astar"}) {
      r = testing::run_cli("solve -a " + std::string(a) + " --heuristic '" + h + "' --trace " + file + " '2 4 3 7 1 6 0 5 8'", dir.path);
      REQUIRE(r.rc == 0);
      const json t = json::parse(testing::read_file(file));
      REQUIRE(t["heuristic"] == h);
      REQUIRE(t["data"].size() > 1);
    }
  r = testing::run_cli("solve -a aidastar --trace " + file + " '2 4 3 7 1 6 0 5 8'", dir.path);
  REQUIRE(r.rc == 2);
  REQUIRE(r.err.find("--trace") != std::string::npos);
  r = testing::run_cli("solve --batch - --trace " + file, dir.path, "2 4 3 7 1 6 0 5 8\n");
  REQUIRE(r.rc == 2);
  r = testing::run_cli("solve -a astar --trace " + (dir / "no/such/dir/t.json").string() + " '2 4 3 7 1 6 0 5 8'", dir.path);
  REQUIRE(r.rc == 3);  // an output file that cannot be written
  REQUIRE(r.err.find("cannot write") != std::string::npos);
}

TEST_CASE("cli: serve refuses a bad port or a port in use with exit 2", "[serve][cli]") {
  testing::TempDir dir;
  auto r = testing::run_cli("serve --port 70000 --db " + dir.path.string(), dir.path);
  REQUIRE(r.rc == 2);
  Server srv(dir.path);
  r = testing::run_cli("serve --port " + std::to_string(srv.port()) + " --db " + dir.path.string(), dir.path);
  REQUIRE(r.rc == 2);
  REQUIRE(r.err.find("cannot listen") != std::string::npos);
  REQUIRE(srv.stop() == 0);
}

TEST_CASE("cli: serve --host takes IPv6 with or without brackets and names that resolve", "[serve][cli]") {
  testing::TempDir dir;
  // A name: localhost listens on one of its addresses (the IPv4 one where it has one) and answers.
  {
    Server srv(dir.path, {}, "localhost");
    REQUIRE((srv.host() == "127.0.0.1" || srv.host() == "[::1]"));
    httplib::Client cli(srv.host() == "[::1]" ? "::1" : srv.host(), srv.port());
    REQUIRE(testing::get(cli, "/api/info").status == 200);
    REQUIRE(srv.stop() == 0);
  }
  // IPv6 loopback, bare and bracketed, where this machine has it.
  if (std::ifstream("/proc/net/if_inet6").good()) {
    for (const std::string host : {"::1", "[::1]"}) {
      Server srv(dir.path, {}, host);
      REQUIRE(srv.host() == "[::1]");
      httplib::Client cli("::1", srv.port());
      cli.set_url_encode(false);  // "+" for spaces
      const testing::Reply q = testing::get(cli, "/api/query?start=1+2+3+4+5+6+7+0+8");
      INFO(q.status << " " << q.body.dump());
      REQUIRE(q.body["length"] == 1);
      REQUIRE(srv.stop() == 0);
    }
  }
  // A name that resolves to nothing (RFC 6761: .invalid never does): exit 2 naming it.
  const auto r = testing::run_cli("serve --host no-such-host.invalid --port 0 --db " + dir.path.string(), dir.path);
  REQUIRE(r.rc == 2);
  REQUIRE(r.err.find("'no-such-host.invalid' is not an IP address or a name that resolves") != std::string::npos);
  REQUIRE(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

TEST_CASE("serve: searches beyond --max-solves get 503 while queries go on", "[serve][timing]") {
  testing::TempDir dir;
  Server srv(dir.path, {"--max-solves", "1", "--max-nodes", "2000000000"});
  std::atomic<int> first_status{0};
  std::thread slow([&] {  // holds the only search slot for 4 s
    httplib::Client cli("127.0.0.1", srv.port());
    cli.set_url_encode(false);
    cli.set_read_timeout(30, 0);
    auto res = cli.Get("/api/solve?start=8+6+7+2+5+4+3+0+1&algorithm=iddfs&depth_limit=40&max_seconds=4");
    first_status = res ? res->status : -1;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  httplib::Client cli("127.0.0.1", srv.port());
  cli.set_url_encode(false);
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(get(cli, "/api/query?start=2+4+3+7+1+6+0+5+8").body["length"] == 8);  // not queued behind the search
  REQUIRE(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
  const Reply busy = get(cli, "/api/solve?start=2+4+3+7+1+6+0+5+8");
  REQUIRE(busy.status == 503);
  REQUIRE(busy.body["error"].get<std::string>().rfind("busy", 0) == 0);
  slow.join();
  REQUIRE(first_status == 200);
  REQUIRE(get(cli, "/api/solve?start=2+4+3+7+1+6+0+5+8").body["length"] == 8);  // the slot is free again
  REQUIRE(srv.stop() == 0);
}

TEST_CASE("serve: a two-bit or one-bit table answers every endpoint exactly as a byte table",
          "[serve][two-bit][one-bit]") {
  for (const int bits : {2, 1}) {
    CAPTURE(bits);
    // The same tables (3x3 and 2x5, blank last) built by each engine into two folders.
    testing::TempDir two, byte;
    for (const char* board : {"3x3", "2x5"}) {
      REQUIRE(testing::run_cli("build --bits " + std::to_string(bits) + " --board " + board + " --db " + two.path.string(),
                               two.path).rc == 0);
      REQUIRE(testing::run_cli(std::string("build --bits 8 --board ") + board + " --db " + byte.path.string(), byte.path)
                  .rc == 0);
    }
    Server s2(two.path), s8(byte.path);
    httplib::Client c2("127.0.0.1", s2.port()), c8("127.0.0.1", s8.port());
    c2.set_url_encode(false);
    c8.set_url_encode(false);
    std::mt19937_64 rng(77);
    for (const Board& b : {Board(3, 3), Board(2, 5)}) {
      const std::string board = b.name();
      for (int i = 0; i < 100; ++i) {  // both parity classes: random permutations
        const State s = testing::random_state(b, rng);
        for (const std::string& path : {"/api/query?board=" + board + "&start=" + words(s),
                                       "/api/solve?board=" + board + "&algorithm=table&start=" + words(s)}) {
          INFO(path);
          Reply r2 = get(c2, path), r8 = get(c8, path);
          REQUIRE(r2.status == r8.status);
          for (const char* varies : {"seconds", "peak_bytes"}) {  // peak_bytes counts the table read: its size
            r2.body.erase(varies);
            r8.body.erase(varies);
          }
          REQUIRE(r2.body == r8.body);
        }
      }
      const Reply st2 = get(c2, "/api/stats?board=" + board), st8 = get(c8, "/api/stats?board=" + board);
      REQUIRE(st2.status == 200);
      REQUIRE(st2.body == st8.body);
      const Reply rnd = get(c2, "/api/random?board=" + board);
      REQUIRE(rnd.status == 200);
      State r{b, {}, -1};
      for (int c = 0; c < b.cells(); ++c) {
        r.tiles[c] = static_cast<std::uint8_t>(rnd.body["state"][c].get<int>());
        if (r.tiles[c] == 0) r.blank = c;
      }
      REQUIRE(rnd.body["length"] == get(c8, "/api/query?board=" + board + "&start=" + words(r)).body["length"]);
      // A batch, line by line.
      std::string batch;
      for (int i = 0; i < 200; ++i) batch += testing::random_state(b, rng).to_string() + "\n";
      auto p2 = c2.Post("/api/query?board=" + board, batch, "text/plain");
      auto p8 = c8.Post("/api/query?board=" + board, batch, "text/plain");
      REQUIRE(p2);
      REQUIRE(p8);
      REQUIRE(p2->status == 200);
      REQUIRE(p2->body == p8->body);
      REQUIRE(std::count(p2->body.begin(), p2->body.end(), '\n') == 200);
    }
  }
}

TEST_CASE("serve: POST /api/query answers a batch line by line, exactly as query --batch", "[serve]") {
  testing::TempDir dir;
  // Every goal's 3x3 table, so that lines with goals of their own are answered too.
  REQUIRE(testing::run_cli("build --board 3x3 --all-goals --db " + dir.path.string(), dir.path).rc == 0);
  Server srv(dir.path, {"--max-request", "1M"});
  std::mt19937_64 rng(31);
  const Board b(3, 3);
  std::string body = "\xEF\xBB\xBF# a batch: the byte-order mark, comments, CRLF and blank lines as in files\r\n\n";
  for (int i = 0; i < 3000; ++i) {
    const State s = testing::random_state(b, rng);
    switch (i % 7) {
      case 0: body += s.to_string() + " " + testing::random_state(b, rng).to_string() + "\n"; break;  // own goal
      case 1: body += "1 2 3 4 5 6 7 8\n"; break;                                                    // bad line
      case 2: body += "1 2 3 / 4 5 6 / 7 8 0\r\n"; break;                                            // rows
      default: {
        std::string compact;
        for (int c = 0; c < 9; ++c) compact += static_cast<char>('0' + s.tiles[c]);
        body += compact + "\n";
      }
    }
  }
  body += "8 6 7 2 5 4 3 0 1";  // the last line without its end
  const std::filesystem::path file = dir.path / "pairs.txt";
  std::ofstream(file, std::ios::binary) << body;

  httplib::Client cli("127.0.0.1", srv.port());
  cli.set_url_encode(false);  // the URLs here are already encoded ("+" for spaces)
  for (const bool as_json : {false, true}) {
    CAPTURE(as_json);
    const auto want = testing::run_cli(std::string("query --batch pairs.txt") + (as_json ? " --json" : "") + " --db " +
                                           dir.path.string(),
                                       dir.path);
    REQUIRE(want.rc == 2);  // bad lines: the documented exit 2 after answering every line
    auto res = cli.Post(as_json ? "/api/query?json=1" : "/api/query", body, "text/plain; charset=utf-8");
    REQUIRE(res);
    REQUIRE(res->status == 200);
    REQUIRE(res->body == want.out);  // byte for byte, in order
    REQUIRE(std::count(res->body.begin(), res->body.end(), '\n') == 3001);
    REQUIRE(res->get_header_value("X-Tilespace-Errors") == std::to_string(3000 / 7 + 1));
  }
  // Answers agree with an independent BFS (the default goal).
  const auto dist = testing::naive_bfs(parse_state("1 2 3 4 5 6 7 8 0", std::nullopt));
  std::string lines, expect;
  for (int i = 0; i < 500; ++i) {
    const State s = testing::random_state(b, rng);
    lines += s.to_string() + "\n";
    const auto it = dist.find(s.packed());
    expect += (it == dist.end() ? std::string("unreachable") : std::to_string(it->second)) + "\n";
  }
  auto res = cli.Post("/api/query", lines, "text/plain");
  REQUIRE(res);
  REQUIRE(res->body == expect);
  // A board and goal from the parameters; a chunked body; an empty body.
  res = cli.Post("/api/query?board=2x2&goal=1+2+3+0", "1 2 0 3\n3 2 1 0\n", "text/plain");
  REQUIRE(res);
  REQUIRE(res->status == 200);
  REQUIRE(res->body == "1\nunreachable\n");
  // In JSON every answer names its line of the body; comments and blank lines answer nothing.
  res = cli.Post("/api/query?json=1", "# pairs\n\n123456708\n1 2 3\n123456780 123456780\n", "text/plain");
  REQUIRE(res);
  REQUIRE(res->status == 200);
  REQUIRE(res->body == "{\"length\":1,\"line\":3}\n"
                       "{\"error\":\"expected a start and an optional goal of 9 tiles each (3x3 board), got 3 tiles\",\"line\":4}\n"
                       "{\"length\":0,\"line\":5}\n");
  const std::string chunked = raw(srv.port(),
                                  "POST /api/query HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                                  "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                                  "a\r\n123456708\n\r\n6\r\n123456\r\n4\r\n078\n\r\n0\r\n\r\n");
  REQUIRE(chunked.rfind("HTTP/1.1 200 ", 0) == 0);
  REQUIRE(chunked.substr(chunked.find("\r\n\r\n") + 4) == "1\n2\n");
  res = cli.Post("/api/query", "", "text/plain");
  REQUIRE(res);
  REQUIRE(res->status == 200);
  REQUIRE(res->body.empty());
  // Refusals: a board without a table (404), a bad goal (400), a body over the limit (413).
  res = cli.Post("/api/query?board=3x4", "1 2 3 4 5 6 7 8 9 10 0 11\n", "text/plain");
  REQUIRE(res);
  REQUIRE(res->status == 404);
  res = cli.Post("/api/query?goal=1+2+3", "123456780\n", "text/plain");
  REQUIRE(res);
  REQUIRE(res->status == 400);
  REQUIRE(json::parse(res->body)["param"] == "goal");
  res = cli.Post("/api/query", std::string(1024 * 1024 + 1, '\n'), "text/plain");
  REQUIRE(res);
  REQUIRE(res->status == 413);
  REQUIRE(get(cli, "/api/query?start=2+4+3+7+1+6+0+5+8").body["length"] == 8);
  REQUIRE(srv.stop() == 0);
}

namespace {

// A connected loopback socket (not yet sending anything), or -1.
int open_socket(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

TEST_CASE("serve: idle, byte-at-a-time and hostile clients cannot stall the others", "[serve][timing]") {
  testing::TempDir dir;
  // One I/O thread and one worker: a thread-per-connection server would be stalled by one client.
  Server srv(dir.path, {"--io-threads", "1", "--workers", "1"});
  constexpr int kIdle = 300, kSlow = 40;
  std::vector<int> idle, slow;
  for (int i = 0; i < kIdle; ++i) {
    const int fd = open_socket(srv.port());
    REQUIRE(fd >= 0);
    idle.push_back(fd);
  }
  // Byte-at-a-time clients: each sends a whole query, one byte every 40 ms (about 3 s in all).
  const std::string request = "GET /api/query?start=2+4+3+7+1+6+0+5+8 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  for (int i = 0; i < kSlow; ++i) {
    const int fd = open_socket(srv.port());
    REQUIRE(fd >= 0);
    slow.push_back(fd);
  }
  std::atomic<bool> stop{false};
  std::thread dribbler([&] {
    for (std::size_t k = 0; k < request.size() && !stop; ++k) {
      for (const int fd : slow) (void)!::send(fd, &request[k], 1, MSG_NOSIGNAL);
      std::this_thread::sleep_for(std::chrono::milliseconds(40));
    }
  });
  // Hostile clients at the same time: oversized headers, garbage, half requests cut off.
  std::thread hostile([&] {
    std::mt19937_64 rng(9);
    for (int i = 0; i < 200 && !stop; ++i) {
      const int fd = open_socket(srv.port());
      if (fd < 0) continue;
      std::string junk;
      switch (i % 4) {
        case 0: junk = "GET /api/query HTTP/1.1\r\nX: " + std::string(30000, 'a') + "\r\n\r\n"; break;
        case 1: junk = "GET /api/query?start=1+2+3 HTTP/1.1\r\nHost: x\r\nContent-Len"; break;
        case 2: junk = "POST /api/query HTTP/1.1\r\nContent-Length: 5000\r\n\r\n1234"; break;
        default: junk.assign(static_cast<std::size_t>(rng() % 2000), '\0'); for (auto& ch : junk) ch = static_cast<char>(rng());
      }
      (void)!::send(fd, junk.data(), junk.size(), MSG_NOSIGNAL);
      ::close(fd);  // abruptly, without reading
    }
  });
  // A search holds the only worker meanwhile; queries are not queued behind it.
  std::thread search([&] {
    httplib::Client c("127.0.0.1", srv.port());
    c.set_read_timeout(30, 0);
    c.Get("/api/solve?start=8+6+7+2+5+4+3+0+1&algorithm=iddfs&depth_limit=40&max_seconds=3");
  });
  httplib::Client cli("127.0.0.1", srv.port());
  cli.set_url_encode(false);
  double worst = 0;
  for (int i = 0; i < 40; ++i) {
    httplib::Client fresh("127.0.0.1", srv.port());  // a new connection each time, and one kept alive
    fresh.set_url_encode(false);
    for (httplib::Client* c : {&fresh, &cli}) {
      const auto t0 = std::chrono::steady_clock::now();
      auto res = c->Get("/api/query?start=2+4+3+7+1+6+0+5+8");
      worst = std::max(worst, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      REQUIRE(res);
      REQUIRE(res->status == 200);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  INFO("slowest answer while the server was held: " << worst << " s");
  REQUIRE(worst < 1.0);
  hostile.join();
  dribbler.join();
  search.join();
  // The byte-at-a-time clients got their answers too.
  int answered = 0;
  for (const int fd : slow) {
    timeval tv{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::string got;
    char buf[4096];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) got.append(buf, static_cast<std::size_t>(n));
    answered += got.rfind("HTTP/1.1 200 ", 0) == 0 && got.find("\"length\":8") != std::string::npos;
    ::close(fd);
  }
  REQUIRE(answered == kSlow);
  for (const int fd : idle) ::close(fd);
  REQUIRE(srv.alive());
  REQUIRE(get(cli, "/api/query?start=2+4+3+7+1+6+0+5+8").body["length"] == 8);
  REQUIRE(srv.stop() == 0);
}

TEST_CASE("serve: connections beyond --max-connections are closed, and the server goes on", "[serve]") {
  testing::TempDir dir;
  Server srv(dir.path, {"--max-connections", "20"});
  std::vector<int> held;
  for (int i = 0; i < 20; ++i) held.push_back(open_socket(srv.port()));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // The 21st is accepted and closed at once: no answer, and no stall.
  const std::string refused = raw(srv.port(), "GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n");
  REQUIRE(refused.empty());
  for (const int fd : held) ::close(fd);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  httplib::Client cli("127.0.0.1", srv.port());
  REQUIRE(get(cli, "/api/info").status == 200);
  REQUIRE(testing::run_cli("serve --max-connections 0 --db " + dir.path.string(), dir.path).rc == 2);
  REQUIRE(srv.stop() == 0);
}

TEST_CASE("serve: metric=multi on query, POST /api/query, stats and solve, and refused where it cannot be", "[serve][multi]") {
  testing::TempDir dir;
  Server srv(dir.path);
  httplib::Client cli("127.0.0.1", srv.port());
  cli.set_url_encode(false);
  const State goal = canonical_goal(Board(3, 3), 8);
  const auto naive = testing::naive_bfs(goal, Metric::multi);
  std::mt19937_64 rng(77);
  std::string body;
  std::vector<std::string> want;
  for (int i = 0; i < 40; ++i) {
    const State s = testing::random_state(goal.board, rng);
    const auto it = naive.find(s.packed());
    const Reply r = get(cli, "/api/query?metric=multi&start=" + words(s));
    REQUIRE(r.status == 200);
    CHECK(r.body["metric"] == "multi");
    CHECK(r.body["length"] == (it == naive.end() ? json(nullptr) : json(it->second)));
    body += s.to_string() + "\n";
    want.push_back(it == naive.end() ? "unreachable" : std::to_string(it->second));
  }
  const auto posted = cli.Post("/api/query?metric=multi", body, "text/plain");
  REQUIRE(posted);
  REQUIRE(posted->status == 200);
  std::string expected;
  for (const auto& w : want) expected += w + "\n";
  CHECK(posted->body == expected);
  Reply r = get(cli, "/api/stats?metric=multi");
  REQUIRE(r.status == 200);
  CHECK(r.body["radius"] == 24);
  CHECK(r.body["metric"] == "multi");
  r = get(cli, "/api/stats");
  REQUIRE(r.status == 200);
  CHECK(r.body["radius"] == 31);  // the single-tile answer is not the cached multi-tile one
  r = get(cli, "/api/solve?metric=multi&start=8+6+7+2+5+4+3+0+1");
  REQUIRE(r.status == 200);
  CHECK(r.body["metric"] == "multi");
  CHECK(r.body["length"] == 20);
  // The table's distances in the answer are multi-tile ones, for the table and for a search.
  for (const char* alg : {"table", "astar"}) {
    r = get(cli, std::string("/api/solve?metric=multi&start=8+6+7+2+5+4+3+0+1&algorithm=") + alg);
    REQUIRE(r.status == 200);
    INFO(alg << " " << r.body.dump());
    CHECK(r.body["optimal_length"] == 20);
    REQUIRE(r.body["remaining"].size() == 21);
    for (int k = 0; k <= 20; ++k) CHECK(r.body["remaining"][k] == 20 - k);
  }
  r = get(cli, "/api/solve?metric=multi&start=8+6+7+2+5+4+3+0+1");
  CHECK(r.body["heuristic"] == "multi-manhattan");  // the service's default, manhattan, counts single-tile moves
  r = get(cli, "/api/info");
  REQUIRE(r.status == 200);
  for (const auto& h : r.body["heuristics"])
    CHECK(h["multi_tile"] == (h["name"] == "multi-manhattan" || h["name"] == "walking-distance" || h["name"] == "exact" ||
                                h["name"] == "mpdb"));
  // Bad metrics: 400 naming the parameter.
  for (const std::string url : {"/api/query?metric=triple&start=1+2+3+4+5+6+7+0+8", "/api/stats?metric=multi&board=4x4",
                                "/api/solve?metric=multi&algorithm=aidastar&start=8+6+7+2+5+4+3+0+1",
                                "/api/random?metric=multi&board=5x5&depth=10", "/api/random?metric=two"}) {
    r = get(cli, url);
    INFO(url << " " << r.body.dump());
    CHECK(r.status == 400);
    CHECK(r.body.value("param", "") == (url.find("aidastar") != std::string::npos ? "algorithm" : "metric"));
  }
  // The viewer's search tree in multi: a trace whose children are one multi-tile move from their
  // parents, some of them two cells.
  r = get(cli, "/api/solve?metric=multi&trace=1&algorithm=idastar&start=8+6+7+2+5+4+3+0+1");
  REQUIRE(r.status == 200);
  CHECK(r.body["length"] == 20);
  REQUIRE(r.body["data"].size() > 20);
  int longer = 0;
  for (const auto& node : r.body["data"]) {
    if (node["parent"].is_null()) continue;
    const auto& parent = r.body["data"][node["parent"].get<std::size_t>()]["state"];
    std::vector<int> a(parent.begin(), parent.end()), c(node["state"].begin(), node["state"].end());
    const int pa = static_cast<int>(std::find(a.begin(), a.end(), 0) - a.begin());
    const int pc = static_cast<int>(std::find(c.begin(), c.end(), 0) - c.begin());
    REQUIRE((pa / 3 == pc / 3 || pa % 3 == pc % 3));  // along the blank's row or column
    longer += std::abs(pa / 3 - pc / 3) + std::abs(pa % 3 - pc % 3) > 1;
  }
  CHECK(longer > 0);
  // /api/random's length in either metric: the same uniform state, its distance in the metric asked;
  // with a depth, a state at that many multi-tile moves.
  r = get(cli, "/api/random?metric=multi&seed=7");
  REQUIRE(r.status == 200);
  auto single = get(cli, "/api/random?seed=7");
  REQUIRE(single.status == 200);
  CHECK(r.body["state"] == single.body["state"]);
  CHECK(r.body["metric"] == "multi");
  CHECK(single.body["metric"] == "single");
  CHECK(r.body["length"].get<int>() < single.body["length"].get<int>());
  r = get(cli, "/api/random?metric=multi&depth=24&seed=3");
  REQUIRE(r.status == 200);
  CHECK(r.body["length"] == 24);
  std::string start;
  for (const auto& v : r.body["state"]) start += std::to_string(v.get<int>()) + "+";
  r = get(cli, "/api/query?metric=multi&start=" + start);
  REQUIRE(r.status == 200);
  CHECK(r.body["length"] == 24);
}

TEST_CASE("serve: /api/query with metric=multi on 4x4 searches each pair with multi-tile pattern databases, and "
          "/api/solve takes heuristic=mpdb", "[serve][multi][big]") {
  testing::TempDir dir;
  // The stock 6-6 as the first multi-tile query builds it (the Python module's test sees that
  // build happen), from the test cache.
  testing::stock_4x4_databases(dir.path, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", Metric::multi);
  Server srv(dir.path);
  httplib::Client cli("127.0.0.1", srv.port());
  cli.set_url_encode(false);
  cli.set_read_timeout(120, 0);
  // L3 then U from the goal (1 ... 15 and the blank last): two multi-tile moves, four single-tile.
  const std::string two = "start=1+2+3+4+5+6+7+8+0+10+11+12+9+13+14+15";
  Reply r = get(cli, "/api/query?metric=multi&board=4x4&" + two);
  INFO(r.body.dump());
  REQUIRE(r.status == 200);
  CHECK(r.body["metric"] == "multi");
  CHECK(r.body["length"] == 2);
  r = get(cli, "/api/solve?metric=multi&board=4x4&algorithm=idastar&heuristic=mpdb&" + two);
  REQUIRE(r.status == 200);
  CHECK(r.body["length"] == 2);
  CHECK(r.body["heuristic"] == "mpdb:6-6");
  r = get(cli, "/api/query?metric=multi&board=5x5&start=1+2+3+4+5+6+7+8+9+10+11+12+13+14+15+16+17+18+19+20+21+22+23+0+24");
  CHECK(r.status == 400);
  CHECK(r.body.value("param", "") == "metric");
}
