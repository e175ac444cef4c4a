// `tilespace build`, `query` (one START, or --batch FILE) and `stats`: the exhaustive distance
// tables.
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/messages.hpp"
#include "cli/report.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/query.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::cli {

using nlohmann::json;

int cmd_build(Common& c, const BuildFlags& f) {
  Problem p = read_problem(c, std::nullopt);
  const Board& b = p.goal.board;
  const Engine engine = DistanceTable::choose_engine(b, static_cast<Engine>(f.bits));
  if (engine == Engine::byte && (f.resume || f.checkpoint_given))
    throw InputError(std::string(f.resume ? "--resume" : "--checkpoint-every") +
                     " applies to the two-bit engine (--bits 2); the " + b.name() + " table is built with the byte engine");
  StoreOptions o = store_options(c);
  o.engine = engine;
  o.checkpoint_every = f.checkpoint_every;
  o.resume = f.resume;
  TableStore store(std::move(o));
  std::vector<int> blanks;
  if (f.all_goals) {
    for (int cell = 0; cell < b.cells(); ++cell) blanks.push_back(cell);
  } else {
    blanks.push_back(p.goal.blank);
  }
  json out = json::array();
  for (int blank : blanks) {
    const auto t0 = std::chrono::steady_clock::now();
    const DistanceTable& t = store.build(b, blank);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto path = store.path_for(b, blank).string();
    if (c.json) {
      out.push_back({{"file", path}, {"goal", tiles_json(t.goal())}, {"states", t.ranker().size()},
                     {"radius", t.radius()}, {"bits", t.two_bit() ? 2 : 8}, {"seconds", secs}});
    } else {
      std::printf("built %s: %llu states, radius %d, %s, %.2f s\n", path.c_str(),
                  static_cast<unsigned long long>(t.ranker().size()), t.radius(), t.two_bit() ? "2 bits" : "8 bits", secs);
    }
  }
  if (c.json) std::puts(out.dump().c_str());
  return kExitOk;
}

int cmd_query(Common& c, const std::optional<std::string>& start_arg) {
  if (!start_arg) throw InputError("query needs a START state (or - for standard input) or --batch FILE");
  const Problem p = read_problem(c, start_arg);
  TableStore store = make_store(c);
  const State& s = *p.start;
  std::optional<int> d;
  if (solvable(s, p.goal)) d = store.table(p.goal.board, p.goal.blank).distance(s, p.goal);
  if (c.json) {
    json j{{"board", s.board.name()}, {"start", tiles_json(s)}, {"goal", tiles_json(p.goal)}, {"reachable", d.has_value()}};
    j["length"] = d ? json(*d) : json(nullptr);
    std::puts(j.dump().c_str());
  } else {
    const Messages m(c.lang);
    std::puts(d ? m.optimal_length(*d).c_str() : m.get("unreachable").c_str());
  }
  return d ? kExitOk : kExitUnreachable;
}

int cmd_batch(Common& c, const std::string& file) {
  Problem p = read_problem(c, std::nullopt);
  TableStore store = make_store(c);
  std::FILE* in = stdin;
  if (file != "-") {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) throw InputError(InputError::About::file, "is a folder, not a file", file);
    in = std::fopen(file.c_str(), "rb");
    if (!in) throw InputError(InputError::About::file, std::string("cannot read: ") + std::strerror(errno), file);
  }
  BatchOptions opt;
  opt.goal = p.goal;
  opt.json = c.json;
  BatchStats total;
  std::string buf, out;
  std::vector<char> chunk(1 << 22);
  const auto t0 = std::chrono::steady_clock::now();
  for (bool eof = false; !eof;) {
    const std::size_t got = std::fread(chunk.data(), 1, chunk.size(), in);
    eof = got < chunk.size();
    buf.append(chunk.data(), got);
    const std::size_t cut = eof ? buf.size() : buf.rfind('\n') + 1;  // rfind npos+1 == 0: keep all
    out.clear();
    const BatchStats s = run_batch(store, std::string_view(buf).substr(0, cut), out, std::cerr, opt);
    std::fwrite(out.data(), 1, out.size(), stdout);
    buf.erase(0, cut);
    opt.first_line += s.lines;
    total.answered += s.answered;
    total.unreachable += s.unreachable;
    total.errors += s.errors;
  }
  const bool read_error = std::ferror(in);
  if (in != stdin) std::fclose(in);
  if (read_error) throw InputError(InputError::About::file, "cannot read", file == "-" ? "standard input" : file);
  if (c.progress || ::isatty(STDERR_FILENO)) {
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto n = total.answered + total.unreachable;
    std::fprintf(stderr, "tilespace: %llu queries (%llu unreachable, %llu bad) in %.3f s\n",
                 static_cast<unsigned long long>(n), static_cast<unsigned long long>(total.unreachable),
                 static_cast<unsigned long long>(total.errors), secs);
  }
  return total.errors ? kExitInput : total.unreachable ? kExitUnreachable : kExitOk;
}

int cmd_stats(Common& c, bool all_goals) {
  Problem p = read_problem(c, std::nullopt);
  TableStore store = make_store(c);
  const Board& b = p.goal.board;
  const DistanceTable& t = store.table(b, p.goal.blank);
  const auto& h = t.histogram();
  const std::uint64_t states = t.ranker().size();
  constexpr std::size_t kListed = 1000;
  const auto far = t.farthest(p.goal, kListed);

  int longest = -1;
  json per_goal = json::array();
  if (all_goals) {
    for (int cell = 0; cell < b.cells(); ++cell) {
      const DistanceTable& g = store.table(b, cell);
      longest = std::max(longest, g.radius());
      per_goal.push_back({{"blank", cell}, {"radius", g.radius()}, {"farthest_count", g.histogram().back()}});
    }
  }
  if (c.json) {
    json j = stats_json(t, p.goal, far);
    if (all_goals) {
      j["longest"] = longest;
      j["goals"] = per_goal;
    }
    std::puts(j.dump().c_str());
    return kExitOk;
  }
  const Messages m(c.lang);
  auto label = [&](const char* en) {  // a label padded to 8 columns
    std::string s = m.get(en) + " ";
    while (s.size() < 8) s += ' ';
    return s;
  };
  std::printf("%s%s\n%s%s\n%s%llu\n%s%d\n%s%.4f\n", label("board").c_str(), b.name().c_str(), label("goal").c_str(),
              p.goal.to_string().c_str(), label("states").c_str(), static_cast<unsigned long long>(states),
              label("radius").c_str(), t.radius(), label("mean").c_str(), mean_depth(t));
  std::printf("\n%5s  %s\n", m.get("depth").c_str(), m.get("states").c_str());
  for (std::size_t d = 0; d < h.size(); ++d) std::printf("%5zu  %llu\n", d, static_cast<unsigned long long>(h[d]));
  std::printf("\n%s (%llu):\n", m.get("states at the radius").c_str(), static_cast<unsigned long long>(h.back()));
  constexpr std::size_t kShown = 20;
  for (std::size_t i = 0; i < far.size() && i < kShown; ++i) std::printf("  %s\n", far[i].to_string().c_str());
  if (far.empty() && h.back() > 0) {
    std::printf(m.zh() ? "  （两位表只在不超过 %zu 个时列出）\n" : "  (a two-bit table lists them only when there are at most %zu)\n",
                kFarthestKept);
  } else if (h.back() > kShown) {
    std::printf(m.zh() ? "  ……另有 %llu 个（--json 最多列出 %zu 个）\n" : "  ... and %llu more (--json lists up to %zu)\n",
                static_cast<unsigned long long>(h.back() - kShown), kListed);
  }
  if (all_goals) {
    std::printf("\n%s", m.get("radius by goal blank cell:").c_str());
    for (const auto& g : per_goal) std::printf(" %d", g["radius"].get<int>());
    std::printf("\n%s %d\n", m.get("longest optimal solution between any two states:").c_str(), longest);
  }
  return kExitOk;
}

}  // namespace tilespace::cli
