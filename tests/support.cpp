#include "support.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <map>
#include <sstream>
#include <stdexcept>

#define XXH_INLINE_ALL  // header-only, as in the tests that patch files
#define XXH_VECTOR 0    // scalar: the same hashes, without GCC 12's AVX-512 false warnings
#include <xxhash.h>

#include <catch2/catch.hpp>

#include "tilespace/database.hpp"

namespace testing {

TempDir::TempDir() {
  static std::mt19937_64 rng(std::random_device{}());
  path = std::filesystem::temp_directory_path() / ("tilespace-test-" + std::to_string(::getpid()) + "-" + std::to_string(rng()));
  std::filesystem::create_directories(path);
}
TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

std::vector<Instance> read_instances(const std::string& file, const tilespace::Board& board) {
  std::ifstream in(std::string(TILESPACE_TEST_DATA) + "/" + file);
  std::vector<Instance> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    out.push_back({tilespace::parse_state(line.substr(0, tab), board), std::stoi(line.substr(tab + 1))});
  }
  return out;
}

void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool one_line(const std::string& s) { return !s.empty() && s.find('\n') == s.size() - 1; }

std::vector<std::string> temporaries(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->path().filename().string().find(".tmp.") != std::string::npos) found.push_back(it->path().string());
  return found;
}

namespace {

RunResult run_command(const std::string& args, const std::filesystem::path& cwd, const std::string& input,
                      const std::filesystem::path& cli, bool leaks_checked) {
  TempDir io;
  write_file(io / "in", input);
  // The last value of an option in ASAN_OPTIONS wins: the caller's others stay as they are.
  const std::string options = kAddressSanitized && !leaks_checked
                                  ? "export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:malloc_context_size=2\" && "
                                  : "";
  const std::string cmd = options + "cd '" + cwd.string() + "' && '" + cli.string() + "' " + args + " <'" +
                          (io / "in").string() + "' >'" + (io / "out").string() + "' 2>'" + (io / "err").string() + "'";
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(io / "out");
  r.err = read_file(io / "err");
  // Under a sanitizer build (tools/dev.sh test: ASan+UBSan, TSan) the command's own report fails
  // the test, whatever its exit code: a test expecting exit 1 must not pass on ASan's exit 1.
  for (const char* report : {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                             "WARNING: ThreadSanitizer"})
    if (r.err.find(report) != std::string::npos)
      FAIL("tilespace " << args << ": the sanitizer reported a fault:\n" << r.err);
  return r;
}

}  // namespace

RunResult run_cli(const std::string& args, const std::filesystem::path& cwd, const std::string& input,
                  const std::filesystem::path& cli) {
  return run_command(args, cwd, input, cli, false);
}

RunResult run_cli_leak_checked(const std::string& args, const std::filesystem::path& cwd, const std::string& input) {
  return run_command(args, cwd, input, TILESPACE_CLI, true);
}

namespace {

// Runs `use` on the tests' cache folder `name` (TILESPACE_TEST_CACHE/name), holding its lock, after
// `fill` has filled it: once per build of the command (a new binary, another format or another
// default, fills it again). TILESPACE_TEST_BUILDER may name another build of the same sources to
// fill it with: tools/dev.sh test points the sanitizer runs at the Release command it has just
// built (the files are byte-identical; the sanitized code still reads them in every test).
// Two test processes at once (ctest -j2) take turns on the lock.
void with_cache(const std::string& name,
                const std::function<void(const std::filesystem::path& dir, const std::filesystem::path& cli)>& fill,
                const std::function<void(const std::filesystem::path& dir)>& use) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(TILESPACE_TEST_CACHE) / name;
  fs::create_directories(dir.parent_path());
  // The lock goes with the descriptor.
  struct Lock {
    int fd;
    explicit Lock(const fs::path& p) : fd(::open(p.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
      if (fd < 0 || ::flock(fd, LOCK_EX) != 0) throw std::runtime_error("cannot lock " + p.string());
    }
    ~Lock() { ::close(fd); }
  } lock(dir.string() + ".lock");
  const char* builder = std::getenv("TILESPACE_TEST_BUILDER");
  const fs::path cli(builder && *builder ? builder : TILESPACE_CLI);
  const std::string stamp = std::to_string(fs::file_size(cli)) + " " +
                            std::to_string(fs::last_write_time(cli).time_since_epoch().count()) + "\n";
  if (read_file(dir / "built-by") != stamp) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    fill(dir, cli);
    write_file(dir / "built-by", stamp);
  }
  use(dir);
}

}  // namespace

void stock_4x4_databases(const std::filesystem::path& folder, const std::string& goal, tilespace::Metric metric) {
  namespace fs = std::filesystem;
  const tilespace::State g = tilespace::parse_state(goal, tilespace::Board(4, 4));
  std::string key = g.to_string();
  std::replace(key.begin(), key.end(), ' ', '-');
  const bool multi = metric == tilespace::Metric::multi;
  with_cache(
      (multi ? "stock-4x4-multi/" : "stock-4x4/") + key,
      [&](const fs::path& dir, const fs::path& cli) {
        // What the first search from a state one move away builds.
        std::mt19937_64 rng(1);
        const tilespace::State start = random_walk(g, 1, rng);
        const RunResult r = run_cli("solve '" + start.to_string() + "' --board 4x4 --goal '" + goal + "' --db built" +
                                        (multi ? " --metric multi" : ""),
                                    dir, "", cli);
        if (r.rc != 0) throw std::runtime_error("building the stock 4x4 databases failed: " + r.err);
      },
      [&](const fs::path& dir) {
        // Copies, not links: a test may corrupt its files.
        fs::create_directories(folder);
        for (const auto& e : fs::directory_iterator(dir / "built"))
          fs::copy_file(e.path(), folder / e.path().filename(), fs::copy_options::overwrite_existing);
      });
}

tilespace::DistanceTable cached_table(const tilespace::Board& board, int blank, tilespace::Metric metric) {
  namespace fs = std::filesystem;
  const tilespace::State goal = tilespace::canonical_goal(board, blank);
  const std::string name = "tables/" + board.name() + "-" + std::to_string(blank) + "-" +
                           std::string(tilespace::metric_name(metric));
  std::optional<tilespace::DistanceTable> table;
  with_cache(
      name,
      [&](const fs::path& dir, const fs::path& cli) {
        const RunResult r = run_cli("build --board " + board.name() + " --goal '" + goal.to_string() +
                                        "' --bits 8 --metric " + std::string(tilespace::metric_name(metric)) +
                                        " --db table",
                                    dir, "", cli);
        if (r.rc != 0) throw std::runtime_error("building the " + name + " table failed: " + r.err);
      },
      [&](const fs::path& dir) {
        for (const auto& e : fs::directory_iterator(dir / "table"))
          if (e.path().extension() == ".tsdb")
            table.emplace(tilespace::DistanceTable::from_database(tilespace::load_database(e.path())));
      });
  if (!table) throw std::runtime_error("the tests' cache has no " + name + " table");
  REQUIRE(table->bits() == 8);
  REQUIRE(table->metric() == metric);
  REQUIRE(table->goal() == goal);
  return std::move(*table);
}

tilespace::State random_walk(tilespace::State s, int steps, std::mt19937_64& rng) {
  for (int i = 0; i < steps; ++i) {
    const auto& nb = s.board.neighbours(s.blank);
    s = s.moved(nb.cell[std::uniform_int_distribution<int>(0, nb.count - 1)(rng)]);
  }
  return s;
}

tilespace::State random_state(const tilespace::Board& board, std::mt19937_64& rng) {
  tilespace::State s{board, {}, 0};
  for (int c = 0; c < board.cells(); ++c) s.tiles[c] = static_cast<std::uint8_t>(c);
  std::shuffle(s.tiles.begin(), s.tiles.begin() + board.cells(), rng);
  for (int c = 0; c < board.cells(); ++c)
    if (s.tiles[c] == 0) s.blank = c;
  return s;
}

std::string bytes_differ(const std::string& a, const std::string& b) {
  if (a == b) return "";
  const auto at = std::mismatch(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(std::min(a.size(), b.size())), b.begin());
  return "sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + ", first difference at byte " +
         std::to_string(at.first - a.begin());
}

void reseal_header(std::string& bytes, std::size_t offset, std::size_t header_size) {
  std::string h = bytes.substr(0, header_size);
  std::memset(h.data() + offset, 0, 8);
  put_at<std::uint64_t>(bytes, offset, XXH3_64bits(h.data(), h.size()));
}

const std::map<std::string, Published>& published_table() {
  static const std::map<std::string, Published> table = [] {
    std::map<std::string, Published> t;
    const std::string path = std::string(TILESPACE_TEST_DATA) + "/bfs-distributions.txt";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream ls(line);
      std::string board, pos;
      Published p;
      ls >> board >> pos >> p.states >> p.radius;
      for (std::uint64_t v; ls >> v;) p.counts.push_back(v);
      if (!ls.eof()) throw std::runtime_error("bad line in " + path + ": " + line);
      t[board + " " + pos] = p;
    }
    return t;
  }();
  return table;
}

const Published& published(const tilespace::Board& b, const std::string& pos) {
  const auto& t = published_table();
  auto it = t.find(b.name() + " " + pos);
  if (it == t.end()) it = t.find(std::to_string(b.height()) + "x" + std::to_string(b.width()) + " " + pos);
  if (it == t.end()) throw std::runtime_error("no published distribution for " + b.name() + " " + pos);
  return it->second;
}

}  // namespace testing
