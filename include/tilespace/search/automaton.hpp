// The duplicate-pruning move automaton (Taylor & Korf 1993): a finite-state machine over move
// strings that rejects strings never needed on an optimal path, so that a depth-first search
// (IDA*) can prune them. Moves are named by where the blank goes (board.hpp: Dir, U=0 D=1 L=2
// R=3); the automaton reads a path's moves one by one, `q = fsm.next(q, dir)`, and the path is
// pruned as soon as `q == MoveAutomaton::kDead`. It is board-independent: one machine serves every
// rectangular board from 2x2 to 5x5 (and any larger rectangle), any start and any goal.
//
// Construction (MoveAutomaton::build). Move strings are enumerated breadth-first on the infinite
// grid in shortlex order (by length, then lexicographically by Dir value), up to `depth` moves.
// The *effect* of a string, started with the blank at the origin and every cell labelled by its
// coordinates, is where the blank ends and which label stands on each cell it visited; two
// strings are equivalent when their effects are equal. A string s is *forbidden* when an earlier
// (shortlex-smaller) kept string s2 has the same effect and every cell s2 visits lies inside the
// bounding box of the cells s visits (both from the same start). A string is *kept* when it
// contains no forbidden string; only kept strings are extended, so a forbidden string found this
// way is minimal: its proper prefixes are kept by construction, and a string whose proper suffix
// is forbidden (its tail, one move shorter, is not kept) is dropped without being recorded.
// Reversals (UD, DU, LR, RL) come out first: the empty string has their effect and visits only
// the origin. Effects are looked up by a 64-bit hash; every hash match is re-simulated and
// compared exactly, so a collision can never forbid a string. The machine is the Aho-Corasick
// automaton of the minimal forbidden strings (goto and failure links resolved into a full table,
// every state whose string ends in a forbidden string mapped to kDead), minimised (Moore's
// partition refinement) and numbered breadth-first from the start state 0.
//
// Why pruning is safe. Take any W x H board, start and goal, and let P be the shortlex-smallest
// of the shortest move strings from the start to the goal that never move the blank off the
// board. Suppose P = x s y with s forbidden, because of s2, and let c be the blank's cell where s
// begins. Every cell s visits from c is on the board (P is legal), so the bounding box of those
// cells is too (the board is a rectangle), and so is every cell s2 visits from c: s2 is legal from
// c. Moves act on the board as on the infinite grid, and cells neither string visits keep their
// tiles, so s2 from c leaves the same tiles on the same cells as s: P' = x s2 y is legal and
// reaches the goal. |s2| <= |s| (s2 is shortlex-smaller), and |P'| < |P| is impossible (P is
// optimal), so |s2| = |s| and s2 is lexicographically smaller than s: P' is a shortest path
// shortlex-smaller than P, a contradiction. So P contains no forbidden string; the automaton
// accepts P and every prefix of P, and a search that prunes only rejected strings keeps P. (A
// string with a forbidden substring is rejected; it never needs to be tested separately.)
//
// Depth. The machine forbids only strings of at most `depth` moves, so deeper is stronger (a
// smaller effective branching factor) and costs more to build: each level keeps about 2.95 times
// the strings of the level before (level 12: 0.67 million, 14: 5.8 M, 16: 51 M, 17: 150 M), and
// every kept string is held until the end (8 bytes of moves, a slot of the effect table, 4 bytes
// of tail link: about 26 bytes). Measured on the 2-core build machine (Release; the time and peak
// resident memory of `tilespace build --automaton --automaton-depth N --db DIR` under
// /usr/bin/time, the branching factors included; table = the transition table, 16 bytes a state;
// branching = branching_factor at length 24, plain IDA* (never undo the last move) -> machine):
//
//   depth  build s  peak MiB  forbidden  states  table KiB  4x4 branching     5x5 branching
//     12     0.12        37       2540     7794        122  2.1304 -> 2.0080  2.3676 -> 2.2716
//     13     0.48        79       3283     9791        153  2.1304 -> 2.0025  2.3676 -> 2.2686
//     14     1.34       249      18700    54923        858  2.1304 -> 1.9854  2.3676 -> 2.2483
//     15     4.85       853      25035    71647       1119  2.1304 -> 1.9783  2.3676 -> 2.2448
//     16    15.46      2015     138856   395123       6174  2.1304 -> 1.9626  2.3676 -> 2.2272
//     17    66.72      6986     189946   530698       8292  2.1304 -> 1.9546  2.3676 -> 2.2233
//
// Depths 18 to 22 were not built: by the growth above depth 18 needs about 16-20 GiB and 4-5
// minutes, 20 about 150 GiB, 22 over a TiB (estimate_automaton_build extrapolates so). Odd levels
// add few forbidden strings (743 of length 13 against 15417 of length 14), so depths go by two:
// kDefaultDepth = 14 builds in about 1.5 s and 249 MiB. Depth 16 prunes the uniform tree further
// (2.13 -> 1.96 a level against 1.99 on the 15-puzzle), but not the tree a pattern database leaves:
// Korf's 100 with 7-8 expand 1.467 M nodes with depth 14 and 1.449 M with 16 (1 % fewer), 24-puzzle
// #38 with the default search 14.61 M and 14.60 M, in the same time or more, because depth 16's
// table (6 MiB) lives in the last-level cache where depth 14's (0.9 MiB) fits in L2, and it takes
// 0.03 s longer to load and check. Depth 16 takes 15 s and 2 GiB to build, 17 over a minute and
// 7 GiB.
//
// Memory model: a MoveAutomaton owns its transition table (4 x states 32-bit entries; 0.9 MiB at
// the default depth), a plain vector; load() copies the mapped file's table into it. Building
// holds every kept string of the enumeration (about 26 bytes each: 2 GiB at depth 16) until the
// forbidden strings are known, then the Aho-Corasick trie (16 bytes a node) while the machine is
// made. count_paths holds two count arrays of cells x states 64-bit words.
// Thread-safety: a built or loaded MoveAutomaton is immutable; any number of threads may call its
// const members at once. build() is single-threaded and touches no shared state.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/database.hpp"

namespace tilespace::search {

class MoveAutomaton {
 public:
  static constexpr std::uint32_t kDead = 0xFFFFFFFFu;
  // Depths build() accepts: strings are packed 2 bits a move in 64 bits, at most 30 moves.
  static constexpr int kMinDepth = 1, kMaxDepth = 30;
  static constexpr int kDefaultDepth = 14;

  // Progress of build(): called after each depth level with the level, the strings of that length
  // kept, and the (minimal) forbidden strings of that length.
  using LevelCallback = std::function<void(int level, std::uint64_t kept, std::uint64_t forbidden)>;

  // Enumerates move strings up to `depth` moves and makes the machine (see the header comment).
  // Throws std::invalid_argument outside [kMinDepth, kMaxDepth].
  static MoveAutomaton build(int depth, const LevelCallback& on_level = {});

  // Reads a file written by save(): every header field, the checksums, every transition (a state
  // or kDead) and the stored distance histogram are checked; any failure, a file of another kind
  // and (with `depth` > 0) a machine of another depth are a DataError naming the file.
  static MoveAutomaton load(const std::filesystem::path& path, int depth = 0);
  // Writes the machine as a database file of kind 4 (database.hpp), atomically (temporary file,
  // fsync, rename). Errors are DataError naming the file.
  void save(const std::filesystem::path& path) const;

  // The machine of one state that rejects nothing: IDA* and A*+IDA* run on it when no automaton is
  // given (`--automaton off`), so that the search is compiled once, for MoveAutomaton, and not a
  // second time without one. The cost is one table load per child on those runs only.
  static const MoveAutomaton& accept_all() noexcept;

  std::uint32_t start() const noexcept { return 0; }
  // The state after move `d` from `state`, or kDead: one array load.
  std::uint32_t next(std::uint32_t state, Dir d) const noexcept {
    return next_[static_cast<std::size_t>(state) * 4 + static_cast<std::size_t>(d)];
  }
  // The state after reading `moves` ("UDLR" letters) from the start, or kDead (also for a letter
  // that is not a move). For tests and diagnostics.
  std::uint32_t run(const std::string& moves) const noexcept;

  int depth() const noexcept { return depth_; }
  std::size_t states() const noexcept { return next_.size() / 4; }
  std::uint64_t forbidden() const noexcept { return forbidden_; }
  // The transition table: state * 4 + Dir -> state or kDead.
  const std::vector<std::uint32_t>& table() const noexcept { return next_; }
  // States at each distance from the start (the length of the shortest string reaching them).
  std::vector<std::uint64_t> histogram() const;

 private:
  int depth_ = 0;
  std::uint64_t forbidden_ = 0;
  std::vector<std::uint32_t> next_;
};

// Number of move strings of each length 0..max_len that are legal on `board` (summed over every
// start cell of the blank) and accepted by `fsm` (nullptr: only "never undo the last move", the
// classic IDA* pruning). Ratio of successive counts = effective branching factor. O(max_len x
// cells x states) time, 16 bytes x cells x states memory. Throws std::invalid_argument unless
// 0 <= max_len <= kMaxCountLength (the counts stay below 2^64 up to there).
inline constexpr int kMaxCountLength = 36;
std::vector<std::uint64_t> count_paths(const Board& board, const MoveAutomaton* fsm, int max_len);

// The effective branching factor at `len` (2..kMaxCountLength): the mean growth of count_paths
// over its last two lengths, sqrt(count[len] / count[len - 2]). A single ratio of successive
// counts alternates on boards with an odd side (5x5: 2.3667, 2.3685, ...), the blank's colour
// alternating between the board's two colour classes; two steps give Korf's figures at once
// (4x4 2.1304, 5x5 2.3676 without the machine).
inline constexpr int kBranchingLength = 24;  // what `tilespace build --automaton` reports
double branching_factor(const Board& board, const MoveAutomaton* fsm, int len = kBranchingLength);

// The file of the machine of `depth` in the database folder: <dir>/moves-d<depth>.fsm.
std::filesystem::path automaton_path(const std::filesystem::path& dir, int depth);

// What building the machine of `depth` costs (seconds, peak memory, file size), from the
// measurements in the header comment: shallower depths are taken as depth 12 (a fraction of a
// second), deeper ones extrapolated from depth 17 (3 times the memory, 4 times the time a level).
BuildCost estimate_automaton_build(int depth);

// The machine of `depth` from its file in `dir`; if there is none, built and saved first (with a
// notice through `note`, which may be empty) when its build is estimated at most
// `max_auto_build_seconds`, else a DataError naming the estimate and the `tilespace build
// --automaton` command (table_store.hpp: too_long_to_build). A bad file is a DataError naming it.
MoveAutomaton load_or_build_automaton(const std::filesystem::path& dir, int depth, double max_auto_build_seconds,
                                      const std::function<void(const std::string&)>& note = {});

}  // namespace tilespace::search
