// A*+IDA* (algorithms.hpp; Bu & Korf 2019): best_first.hpp's A* until its node store is full, then
// ida_star.hpp's IDA* below its frontier with one shared bound, the frontier shared out among
// threads (oneTBB).
#pragma once

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "tilespace/search/algorithms/best_first.hpp"
#include "tilespace/search/algorithms/ida_star.hpp"
#include "tilespace/search/concepts.hpp"
#include "tilespace/search/result.hpp"
#include "tilespace/search/trace.hpp"
#include "tilespace/state.hpp"

namespace tilespace::search {

namespace detail {

// One thread's share of a hybrid search.
struct HybridLocal {
  Result r;
  std::uint64_t generated = 0;
  int next_bound = 1 << 30;
};

}  // namespace detail

// What the hybrid search needs beyond the limits.
struct HybridOptions {
  std::uint64_t memory = 0;  // bytes for A*'s nodes (0: 1 GiB)
  int threads = 1;           // threads of the IDA* phase (0: all cores)
};

// A*+IDA* (Bu & Korf 2019). A* stores nodes until `memory` is full (it may solve the instance
// itself); then, with bound t = the smallest f in OPEN, an IDA* iteration runs below every OPEN
// node with f <= t (its g as start, never undoing the move into it, the automaton from its start),
// in order of f and then h, the nodes shared out among threads; the first solution found ends every
// thread; else t becomes the smallest f seen above it. Every solution found at bound t has length t,
// so the length is the same whatever the threads (the path may differ). With a consistent heuristic
// every optimal path leaves A*'s closed nodes through an OPEN node with its optimal g, so the
// search is optimal.
template <SearchDomain D, Heuristic<D> H, class A = NoAutomaton>
Result hybrid(const D& d, const H& h, const State& start, const Limits& limits, const HybridOptions& options,
              const A* fsm = nullptr) {
  if constexpr (!std::is_same_v<A, NoAutomaton>) {
    if (!fsm) fsm = &A::accept_all();  // one instantiation, not two (automaton.hpp)
  }
  using BF = BestFirst<D, H>;
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t memory = options.memory ? options.memory : (std::uint64_t{1} << 30);
  BF astar(d, h, 1, 1);
  Result r = astar.run(start, limits, nullptr, std::max<std::size_t>(64, memory / BF::kBytesPerNode));
  if (r.solved || r.stopped != Stop::Memory) return r;

  // The IDA* phase.
  const auto frontier = astar.frontier();
  const std::uint64_t astar_bytes = astar.bytes();
  astar.release_index();
  r.stopped = Stop::None;
  r.peak_open = frontier.size();
  r.peak_bytes = astar_bytes + frontier.capacity() * sizeof(typename BF::Frontier);
  Limits rest = limits;  // what is left of the limits after A*
  // max_nodes stays: the threads count every expansion, A*'s included (`shared`)
  if (rest.max_seconds > 0) rest.max_seconds = std::max(1e-3, rest.max_seconds - r.seconds);
  rest.max_bytes = 0;  // A*'s memory is the budget; IDA* adds a path per thread

  using Ida = detail::IdaStar<D, H, A, false>;
  constexpr int kNoBound = 1 << 30;
  std::atomic<bool> found{false}, stopped{false};
  std::atomic<std::uint64_t> shared{r.expanded};
  std::mutex solution_mutex;
  std::vector<State> solution;
  using Local = detail::HybridLocal;
  tbb::enumerable_thread_specific<Local> locals;
  Budget budget(rest);
  const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();
  tbb::task_arena arena(threads);
  int t = frontier.empty() ? kNoBound : frontier.front().g + frontier.front().h;
  while (t < kNoBound && !found && !stopped) {
    std::size_t end = 0;  // the frontier nodes with f <= t (a prefix: it is sorted by f)
    while (end < frontier.size() && frontier[end].g + frontier[end].h <= t) ++end;
    for (Local& l : locals) l.next_bound = kNoBound;
    // The threads take the frontier nodes in order (an atomic cursor), so that the whole team
    // works on the most promising nodes first, as one thread would.
    std::atomic<std::size_t> cursor{0};
    arena.execute([&] {
      tbb::parallel_for(0, threads, [&](int) {
        Local& l = locals.local();
        Budget b = budget;
        Ida ida{d, h, fsm, l.r, b, nullptr, &found, &shared, {}};
        ida.bound = t;
        ida.next_bound = kNoBound;
        ida.blanks.assign(static_cast<std::size_t>(t) + 2, 0);
        for (std::size_t i; (i = cursor.fetch_add(1, std::memory_order_relaxed)) < end;) {
          if (found.load(std::memory_order_relaxed) || ida.stop) break;
          const auto& fn = frontier[i];
          ida.blanks[fn.g] = fn.blank;
          std::uint32_t q0 = 0;
          if constexpr (Ida::kFsm) q0 = fsm->start();
          const auto v = [&] {
            if constexpr (BF::kStored) return h.restore(fn.packed, fn.blank, fn.stored);
            else return h.eval(fn.packed, fn.blank);
          }();
          if (fn.g + Ops<H>::h(v) > t) {
            ida.next_bound = std::min(ida.next_bound, fn.g + Ops<H>::h(v));
            continue;
          }
          if (ida.search(fn.packed, fn.blank, fn.parent_blank == 255 ? -1 : fn.parent_blank, fn.g, v, q0, Trace::kNone)) {
            const std::lock_guard lock(solution_mutex);
            if (!found.exchange(true)) {
              solution = astar.path_to(fn.node);
              for (int k = fn.g + 1; k <= t && !(solution.back() == d.goal); ++k)
                solution.push_back(solution.back().moved(ida.blanks[static_cast<std::size_t>(k)]));
            }
            break;
          }
        }
        l.generated += ida.generated;
        l.next_bound = std::min(l.next_bound, ida.next_bound);
        if (ida.stop && !found.load()) {
          stopped = true;
          if (l.r.stopped == Stop::None) l.r.stopped = Stop::Time;
        }
        shared.fetch_add(ida.expanded - ida.reported, std::memory_order_relaxed);
      });
    });
    int next = end < frontier.size() ? frontier[end].g + frontier[end].h : kNoBound;
    for (const Local& l : locals) next = std::min(next, l.next_bound);
    t = next;
  }
  r.expanded = shared.load();
  for (const Local& l : locals) {
    r.generated += l.generated;
    if (r.stopped == Stop::None && l.r.stopped != Stop::None && !found) r.stopped = l.r.stopped;
  }
  if (found) {
    r.path = std::move(solution);
    r.solved = true;
    r.stopped = Stop::None;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace tilespace::search
