#include "tilespace/search/lab.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cctype>
#include <chrono>
#include <cmath>
#include <tuple>
#include <type_traits>

#include "catalogue.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/rank.hpp"

namespace tilespace::search {

bool Combo::claims_optimal() const {
  const AlgorithmInfo* a = find_algorithm(algorithm);
  if (!a || !a->optimal) return false;
  if (!a->uses_heuristic) return true;
  const HeuristicInfo* h = find_heuristic(heuristic);
  return h && h->admissible;
}

std::vector<Combo> parse_combos(std::string_view list, const Board& board, Metric metric) {
  std::vector<Combo> out;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    // Items are split at commas, except a comma followed by a digit: tiles of a pattern
    // ("idastar:pdb:1,2,3/4,5,6"); no algorithm's name starts with one.
    std::size_t end = pos;
    for (;; ++end) {
      end = list.find(',', end);
      if (end == std::string_view::npos) {
        end = list.size();
        break;
      }
      std::size_t next = end + 1;
      while (next < list.size() && (list[next] == ' ' || list[next] == '\t')) ++next;
      if (next >= list.size() || !std::isdigit(static_cast<unsigned char>(list[next]))) break;
    }
    // Blanks around an item and its parts are dropped: "astar, bfs", "idastar : manhattan".
    auto trimmed = [](std::string_view t) {
      while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
      while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
      return std::string(t);
    };
    const std::string item = trimmed(list.substr(pos, end - pos));
    pos = end + 1;
    if (item.empty()) continue;
    // The same planning step as a single solve: defaults, and what applies to what.
    SolveRequest q;
    const auto colon = item.find(':');
    q.algorithm = trimmed(std::string_view(item).substr(0, colon));
    if (colon != std::string::npos) q.heuristic = trimmed(std::string_view(item).substr(colon + 1));
    if (metric != Metric::single) q.metric = std::string(metric_name(metric));
    PlanContext ctx;
    ctx.board = board;
    SolvePlan plan;
    try {
      plan = plan_solve(q, ctx);
    } catch (const InputError& e) {
      throw option_error("algorithms", "'" + item + "': " + e.what());
    }
    out.push_back({plan.algorithm, plan.heuristic, plan});
  }
  if (out.empty()) throw option_error("algorithms", "no algorithm given");
  return out;
}

std::vector<Combo> admissible_combos(const Board& board, Metric metric) {
  const bool multi = metric == Metric::multi;
  std::string list;
  for (const auto& a : algorithm_catalog()) {
    if (!a.optimal || (!a.any_board && !is_packed(board)) || (multi && a.single_tile_only)) continue;
    if (!a.uses_heuristic) {
      list += std::string(a.name) + ",";
      continue;
    }
    for (const auto& h : heuristic_catalog())
      if (h.admissible && !h.pattern_database && !(h.needs_table && !is_packed(board)) && (!multi || h.multi_tile))
        list += std::string(a.name) + ":" + std::string(h.name) + ",";
  }
  return parse_combos(list, board, metric);
}

namespace {

}  // namespace

namespace {

// A run function over a search object with reusable storage (BreadthFirst, BestFirst):
// parity first, then the search; `keep` holds what the search refers to.
template <class Search>
std::function<Result(const State&)> reusing(std::shared_ptr<Search> search, std::shared_ptr<void> keep,
                                            const State& goal, const Limits& limits, Metric metric) {
  return [search, keep, goal, limits, metric](const State& s) {
    Result r;
    if (!solvable(s, goal)) {
      r.unreachable = true;
      return r;
    }
    r = search->run(s, limits);
    r.metric = metric;
    fill_moves(r, metric);
    return r;
  };
}

}  // namespace

Solver::Solver(const Combo& combo, const State& goal, const SolveOptions& base) {
  SolveOptions o = base;
  o.algorithm = combo.algorithm;
  o.heuristic = combo.heuristic.empty() ? "manhattan" : combo.heuristic;
  run_ = [o, goal](const State& s) { return solve(s, goal, o); };  // unless a search keeps its storage
  if (!is_packed(goal.board)) return;
  auto domain = std::make_shared<Domain>(goal, o.metric);
  // Breadth-first and the best-first searches (catalogue.hpp: the entries with weights) keep their
  // storage between runs.
  catalogue::with_entry(
      catalogue::Algorithms{}, o.algorithm,
      [&]<class A>() {
        if constexpr (std::is_same_v<A, catalogue::Bfs>) {
          run_ = reusing(std::make_shared<BreadthFirst<Domain>>(*domain), domain, goal, o.limits, o.metric);
        } else if constexpr (requires { A::weights(o); }) {
          // Plain locals, not structured bindings: clang before 16 cannot capture those (C++20).
          const auto weights = A::weights(o);
          const auto wg = weights.first, wh = weights.second;
          with_heuristic(*domain, o.heuristic, HeuristicSources{o.table, o.pdb}, [&](auto h) {
            using H = typename decltype(h)::element_type;
            auto keep = std::make_shared<std::pair<std::shared_ptr<Domain>, decltype(h)>>(domain, h);
            run_ = reusing(std::make_shared<BestFirst<Domain, H>>(*domain, *h, wg, wh), keep, goal, o.limits, o.metric);
            return 0;
          });
        }
        return 0;
      },
      [] {});  // an unknown name: solve() says so
}

Result Solver::run(const State& start) { return run_(start); }

VerifyReport verify(const GoalTable& table, const State& goal, const Combo& combo, const std::vector<std::uint64_t>& ranks,
                    const SolveOptions& base, int threads) {
  VerifyReport rep;
  rep.combo = combo;
  rep.claims_optimal = combo.claims_optimal();
  SolveOptions o = base;
  o.table = &table;
  const auto t0 = std::chrono::steady_clock::now();
  struct Local {
    std::unique_ptr<Solver> solver;
    VerifyReport part;
  };
  tbb::enumerable_thread_specific<Local> locals;
  tbb::task_arena arena(threads > 0 ? threads : tbb::info::default_concurrency());
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, ranks.size(), 16), [&](const auto& range) {
      Local& l = locals.local();
      if (!l.solver) l.solver = std::make_unique<Solver>(combo, goal, o);
      for (std::size_t i = range.begin(); i < range.end(); ++i) {
        const State s = table.state_of_rank(ranks[i], goal);
        const int opt = table.table().depth_of_rank(ranks[i]);
        const Result r = l.solver->run(s);
        VerifyReport& p = l.part;
        ++p.states;
        p.expanded += r.expanded;
        p.generated += r.generated;
        if (r.stopped != Stop::None) {
          ++p.stopped;
          continue;
        }
        bool legal = r.solved && !r.path.empty() && r.path.front() == s && r.path.back() == goal;
        for (std::size_t k = 1; legal && k < r.path.size(); ++k) legal = is_move(r.path[k - 1], r.path[k], o.metric);
        if (!legal || r.length() < opt) {
          ++p.failed;
        } else if (r.length() == opt) {
          ++p.optimal;
        } else {
          ++p.longer;
          const auto excess = static_cast<std::uint64_t>(r.length() - opt);
          p.total_excess += excess;
          p.max_excess = std::max(p.max_excess, excess);
        }
      }
    });
  });
  for (const Local& l : locals) {
    const VerifyReport& p = l.part;
    rep.states += p.states;
    rep.optimal += p.optimal;
    rep.longer += p.longer;
    rep.failed += p.failed;
    rep.stopped += p.stopped;
    rep.total_excess += p.total_excess;
    rep.max_excess = std::max(rep.max_excess, p.max_excess);
    rep.expanded += p.expanded;
    rep.generated += p.generated;
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

namespace {

template <class D>
std::vector<int> values_on(const State& goal, const SolveOptions& o, const std::vector<State>& states) {
  const D d(goal, o.metric);  // walking distance depends on the metric
  return with_heuristic(d, o.heuristic, HeuristicSources{o.table, o.pdb}, [&](const auto& hp) {
    using H = typename std::decay_t<decltype(hp)>::element_type;
    std::vector<int> out;
    out.reserve(states.size());
    for (const State& s : states) out.push_back(Ops<H>::h(hp->eval(D::pack(s), s.blank)));
    return out;
  });
}

}  // namespace

std::vector<int> heuristic_values(const State& goal, const SolveOptions& o, const std::vector<State>& states) {
  if (!find_heuristic(o.heuristic)) throw InputError("unknown heuristic '" + o.heuristic + "'");
  return is_packed(goal.board) ? values_on<Domain>(goal, o, states) : values_on<WideDomain>(goal, o, states);
}

}  // namespace tilespace::search
