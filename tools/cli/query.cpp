// `tilespace query`: one START's optimal length from the exact table, or --batch FILE: one
// answer a line (query.hpp run_batch).
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "cli/terminal.hpp"
#include "cli/messages.hpp"
#include "app/oracle.hpp"
#include "app/report.hpp"
#include "tilespace/distance_table.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"
#include "tilespace/pdb/database.hpp"
#include "tilespace/pdb/pattern.hpp"
#include "tilespace/query.hpp"
#include "tilespace/search/automaton.hpp"
#include "tilespace/search/registry.hpp"
#include "tilespace/symmetry.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::cli {

using nlohmann::json;

namespace {

// "stopped by --max-nodes 1000 before a solution was found": the limit, with its value when given.
std::string stop_line(const Messages& m, search::Stop stop, const search::SolveRequest& limits) {
  const std::string option = search::stop_name(stop);
  const std::optional<std::string>* value =
      option == "max-seconds" ? &limits.max_seconds : option == "max-nodes" ? &limits.max_nodes : nullptr;
  return m.stopped(option, value && *value ? **value : "");
}

}  // namespace

int cmd_query(Common& c, const std::optional<std::string>& start_arg, const search::SolveRequest& limits) {
  const Problem p = read_problem(c, start_or_stdin(c, start_arg));  // no START: standard input, as solve and compare
  require_answer_metric(c, p.goal.board);
  const search::Limits l = app::Oracle::limits(limits, p.goal.board);
  const State& s = *p.start;
  const Messages m(c.lang);
  // --json: the fields of GET /api/query (server/service.cpp), "metric" included.
  auto head = [&] {
    return json{{"board", s.board.name()}, {"start", tiles_json(s)}, {"goal", tiles_json(p.goal)},
                {"metric", metric_name(metric_option(c))}};
  };
  std::optional<int> d;
  if (solvable(s, p.goal)) {
    app::SearchSources sources(c);
    app::Oracle oracle(sources, c.threads, l, true, app::default_plan_context(), metric_option(c));
    const app::Distance answer = oracle(s, p.goal);
    if (!answer.optimum.known) {
      if (c.json) {
        json j = head();
        j["reachable"] = true;
        j["length"] = nullptr;
        j["stopped"] = search::stop_name(answer.stopped);
        std::puts(j.dump().c_str());
      } else {
        std::puts(stop_line(m, answer.stopped, limits).c_str());
      }
      return kExitResource;
    }
    d = answer.optimum.length;
  }
  if (c.json) {
    json j = head();
    j["reachable"] = d.has_value();
    j["length"] = d ? json(*d) : json(nullptr);
    std::puts(j.dump().c_str());
  } else {
    std::puts(d ? m.optimal_length(*d).c_str() : m.get("unreachable").c_str());
  }
  return d ? kExitOk : kExitUnreachable;
}

int cmd_batch(Common& c, const std::string& file, const search::SolveRequest& limits) {
  Problem p = read_problem(c, std::nullopt);
  require_answer_metric(c, p.goal.board);
  const search::Limits l = app::Oracle::limits(limits, p.goal.board);
  TableStore store = make_store(c);
  // 4x4 and 5x5: every reachable line searched, the lines of a part one after another and the
  // parts in parallel.
  app::SearchSources sources(c);
  std::optional<app::Oracle> oracle;
  if (app::Oracle::searches(p.goal.board)) oracle.emplace(sources, c.threads, l, true, app::default_plan_context(), metric_option(c));
  const Messages m(c.lang);
  std::FILE* in = stdin;
  if (file != "-") {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) throw InputError(InputError::About::file, "is a folder, not a file", file);
    in = std::fopen(file.c_str(), "rb");
    if (!in) throw InputError(InputError::About::file, std::string("cannot read: ") + std::strerror(errno), file);
  }
  BatchOptions opt;
  opt.goal = p.goal;
  opt.goal_given = !c.goal.empty();
  opt.json = c.json;
  opt.name = file == "-" ? "standard input" : file;
  std::mutex store_mutex;
  opt.store_mutex = &store_mutex;
  if (oracle) {
    opt.search = [&](const State& start, const State& goal) {
      const app::Distance answer = (*oracle)(start, goal);
      SearchedAnswer a;
      if (answer.optimum.known) {
        a.length = answer.optimum.length;
      } else {
        a.stopped = search::stop_name(answer.stopped);
        a.message = stop_line(m, answer.stopped, limits);
      }
      return a;
    };
  }
  // Each chunk of whole lines is cut into one part per thread, answered in parallel, and written
  // in order; the parts' first line numbers are counted beforehand, so messages name the lines.
  const int threads = c.threads > 0 ? c.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  tbb::task_arena arena(threads);
  struct Part {
    std::string_view text;
    std::string out;
    std::ostringstream err;
    BatchStats stats;
  };
  std::vector<Part> parts(static_cast<std::size_t>(threads));
  BatchStats total;
  std::string buf;
  std::vector<char> chunk(1 << 22);
  const auto t0 = std::chrono::steady_clock::now();
  for (bool eof = false; !eof;) {
    const std::size_t got = std::fread(chunk.data(), 1, chunk.size(), in);
    eof = got < chunk.size();
    // A NUL byte: not text, as every other reader says (problem.hpp read_input).
    if (std::memchr(chunk.data(), 0, got))
      throw InputError(InputError::About::file, "not a text file", file == "-" ? "standard input" : file);
    buf.append(chunk.data(), got);
    const std::size_t cut = eof ? buf.size() : buf.rfind('\n') + 1;  // rfind npos+1 == 0: keep all
    const std::string_view whole = std::string_view(buf).substr(0, cut);
    std::size_t from = 0;
    std::vector<std::uint64_t> first_line(parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
      std::size_t to = i + 1 == parts.size() ? whole.size() : whole.size() * (i + 1) / parts.size();
      if (to > from && to < whole.size()) to = std::min(whole.size(), whole.find('\n', to - 1) + 1);
      if (to < from) to = from;
      parts[i].text = whole.substr(from, to - from);
      first_line[i] = opt.first_line;
      opt.first_line += static_cast<std::uint64_t>(std::count(parts[i].text.begin(), parts[i].text.end(), '\n'));
      if (!parts[i].text.empty() && parts[i].text.back() != '\n') ++opt.first_line;  // the last line, unended
      from = to;
    }
    arena.execute([&] {
      tbb::parallel_for(std::size_t{0}, parts.size(), [&](std::size_t i) {
        Part& part = parts[i];
        part.out.clear();
        part.err.str("");
        BatchOptions o = opt;
        o.first_line = first_line[i];
        part.stats = run_batch(store, part.text, part.out, part.err, o);
      });
    });
    for (Part& part : parts) {
      write_out(part.out);  // a failed write stops the batch here (terminal.hpp)
      std::cerr << part.err.str();
      total.answered += part.stats.answered;
      total.unreachable += part.stats.unreachable;
      total.errors += part.stats.errors;
      total.stopped += part.stats.stopped;
    }
    buf.erase(0, cut);
  }
  flush_out();
  const bool read_error = std::ferror(in);
  if (in != stdin) std::fclose(in);
  if (read_error) throw InputError(InputError::About::file, "cannot read", file == "-" ? "standard input" : file);
  // An input without a query is an error (exit 2), as in solve --batch, check and compare --suite.
  if (total.answered + total.unreachable + total.errors + total.stopped == 0)
    throw InputError(InputError::About::file, "no queries in it", file == "-" ? "standard input" : file);
  if (c.progress || ::isatty(STDERR_FILENO)) {
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto n = total.answered + total.unreachable;
    std::fprintf(stderr, "tilespace: %llu queries (%llu unreachable, %llu bad) in %.3f s\n",
                 static_cast<unsigned long long>(n), static_cast<unsigned long long>(total.unreachable),
                 static_cast<unsigned long long>(total.errors), secs);
  }
  return total.errors ? kExitInput : total.stopped ? kExitResource : total.unreachable ? kExitUnreachable : kExitOk;
}

}  // namespace tilespace::cli
