// `tilespace serve` as a child process for the HTTP tests (test_serve.cpp, test_front_door.cpp,
// test_check_cli.cpp), and a GET that expects a JSON reply.
#pragma once

#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace testing {

// `tilespace serve --port 0` as a child process (on `host`); the address listened on and the port
// from its first stdout line ("listening on http://HOST:PORT/", with --lang zh in `extra`
// "正在监听 http://HOST:PORT/").
class Server {
 public:
  explicit Server(const std::filesystem::path& db, std::vector<std::string> extra = {},
                  const std::string& host = "127.0.0.1") {
    int out[2];
    REQUIRE(::pipe(out) == 0);
    pid_ = ::fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // no server runs on, orphaned, when a test process dies
      ::dup2(out[1], STDOUT_FILENO);
      ::close(out[0]);
      ::close(out[1]);
      std::vector<std::string> args{TILESPACE_CLI, "serve", "--host", host, "--port", "0", "--db", db.string()};
      args.insert(args.end(), extra.begin(), extra.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    std::string line;
    char ch = 0;
    while (::read(out[0], &ch, 1) == 1 && ch != '\n') line += ch;
    ::close(out[0]);
    bool zh = false;
    for (std::size_t i = 0; i < extra.size(); ++i)
      zh = zh || extra[i] == "--lang=zh" || (extra[i] == "--lang" && i + 1 < extra.size() && extra[i + 1] == "zh");
    const std::string prefix = zh ? "正在监听 http://" : "listening on http://";
    INFO("first line: " << line);
    REQUIRE(line.rfind(prefix, 0) == 0);
    const std::size_t colon = line.rfind(':');
    REQUIRE((colon != std::string::npos && colon > prefix.size() && line.back() == '/'));
    host_ = line.substr(prefix.size(), colon - prefix.size());
    port_ = std::stoi(line.substr(colon + 1));
  }
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;
  ~Server() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  int port() const { return port_; }
  // The address listened on, as the URL writes it: "127.0.0.1", "[::1]".
  const std::string& host() const { return host_; }
  bool alive() const { return ::kill(pid_, 0) == 0; }
  // SIGTERM; returns the exit status (-1 if it did not exit within 10 s).
  int stop() {
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 1000; ++i) {
      int st = 0;
      if (::waitpid(pid_, &st, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string host_;
};

struct Reply {
  int status = 0;
  nlohmann::json body;
};

inline Reply get(httplib::Client& cli, const std::string& path) {
  auto res = cli.Get(path.c_str());
  REQUIRE(res);
  Reply r;
  r.status = res->status;
  INFO(path << " -> " << res->status << " " << res->body.substr(0, 300));
  REQUIRE(res->get_header_value("Content-Type") == "application/json");
  r.body = nlohmann::json::parse(res->body);
  return r;
}

}  // namespace testing
