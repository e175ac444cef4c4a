// What every solver returns, and the limits that stop a search cleanly.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "tilespace/state.hpp"

namespace tilespace::search {

enum class Stop : std::uint8_t { None, Nodes, Time, Memory, Depth };
// "", "max-nodes", "max-seconds", "max-memory", "depth-limit" (dfs and iddfs found no solution within it)
const char* stop_name(Stop s) noexcept;

// Limits of one search; 0 means none. Checked per expansion (time every 1024 expansions).
struct Limits {
  std::uint64_t max_nodes = 0;   // expanded nodes
  double max_seconds = 0;
  std::uint64_t max_bytes = 0;   // bytes the search holds: OPEN, CLOSED, paths, growths included (algorithms/common.hpp)
};

struct Result {
  bool solved = false;       // a path was found
  bool unreachable = false;  // proven: the goal is in the other parity class
  Stop stopped = Stop::None; // a limit ended the search (statistics are partial)
  std::vector<State> path;   // start .. goal when solved
  std::string moves;         // U/D/L/R: where the blank went ("R3 U D2" in multi: path_moves)
  Metric metric = Metric::single;  // how the path's moves are counted
  std::uint64_t expanded = 0, generated = 0;
  std::uint64_t peak_open = 0, closed = 0;  // peak OPEN size, final CLOSED size
  std::uint64_t peak_bytes = 0;             // peak bytes of the search structures (growths included) and, from
                                            // solve(), of the tables it read
  double seconds = 0;
  int length() const { return solved ? static_cast<int>(path.size()) - 1 : -1; }
};

// Tracks expansions, time and memory against Limits.
class Budget {
 public:
  explicit Budget(const Limits& l) : limits_(l), t0_(std::chrono::steady_clock::now()) {}
  // Call once per expansion with the current bytes in use; false when a limit is reached.
  bool step(Result& r, std::uint64_t bytes) {
    if (bytes > r.peak_bytes) r.peak_bytes = bytes;
    if (limits_.max_nodes && r.expanded >= limits_.max_nodes) return stop(r, Stop::Nodes);
    if (limits_.max_bytes && bytes > limits_.max_bytes) return stop(r, Stop::Memory);
    if (limits_.max_seconds > 0 && (r.expanded & 1023) == 0 && elapsed() > limits_.max_seconds)
      return stop(r, Stop::Time);
    return true;
  }
  // The same checks, the time always (for callers that check every few thousand expansions).
  bool check(Result& r, std::uint64_t bytes) {
    if (!step(r, bytes)) return false;
    if (limits_.max_seconds > 0 && elapsed() > limits_.max_seconds) return stop(r, Stop::Time);
    return true;
  }
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  static bool stop(Result& r, Stop why) {
    r.stopped = why;
    return false;
  }
  Limits limits_;
  std::chrono::steady_clock::time_point t0_;
};

// Fills r.moves from r.path, in the notation of `metric` (state.hpp path_moves).
void fill_moves(Result& r, Metric metric = Metric::single);

}  // namespace tilespace::search
