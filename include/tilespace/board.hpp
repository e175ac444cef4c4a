// Board geometry: a W x H grid of cells numbered row-major from 0, and the moves of the blank.
//
// Memory model: a Board is a small value (about 240 bytes) holding a precomputed neighbour table
// sized for the largest board (kMaxBoardCells); copy it freely. It is immutable after
// construction and safe to share between threads.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilespace {

// Boards of at most kMaxCells cells are the *packed* boards: every state packs into a uint64_t
// (4 bits a cell) and a group of one tile arrangement's blank positions fits a 16-bit lane in the
// BFS. Ranking (rank.hpp), the BFS, distance tables and the solver lab (search/) need them.
inline constexpr int kMaxCells = 16;

// The largest board of all: a Board, a State and the parsers handle up to 5x5 (the 24-puzzle).
// Everything that packs or ranks states refuses boards above kMaxCells (require_packed).
inline constexpr int kMaxBoardCells = 25;

// A move is named by the direction the blank travels.
enum class Dir : std::uint8_t { Up = 0, Down = 1, Left = 2, Right = 3 };
inline constexpr std::array<char, 4> kDirLetter{'U', 'D', 'L', 'R'};

// How moves are counted. single: a move slides one tile (the blank travels one cell). multi: a
// move slides one or more tiles of the blank's row or column at once (the blank travels k cells in
// one direction, 1 <= k <= W-1 or H-1): the multi-tile metric of speed-solvers.
enum class Metric : std::uint8_t { single = 0, multi = 1 };
std::string_view metric_name(Metric m) noexcept;            // "single", "multi"
std::optional<Metric> parse_metric(std::string_view text);  // the names above; nullopt otherwise
// The value of a --metric option (metric= on the server and in Python): parse_metric, else the
// InputError "--metric: 'X' is not a metric (single, multi)". Every front end's one check.
Metric metric_option(std::string_view text);

class Board {
 public:
  // Precondition: 2 <= w, 2 <= h, w*h <= kMaxBoardCells (throws std::invalid_argument otherwise).
  Board(int w, int h);

  // Parses "3x3" (also "3X3"), up to kMaxBoardCells cells; nullopt if malformed or out of range.
  static std::optional<Board> parse(std::string_view text);

  int width() const noexcept { return w_; }
  int height() const noexcept { return h_; }
  int cells() const noexcept { return w_ * h_; }
  int row(int cell) const noexcept { return cell / w_; }
  int col(int cell) const noexcept { return cell % w_; }
  std::string name() const;  // "3x3"

  // The cell the blank reaches from `cell` moving in `d`, or -1 at the edge. O(1), no table.
  int step(int cell, Dir d) const noexcept { return grid_step(w_, h_, cell, d); }
  // The same on a w x h grid, at compile time too (IDA*'s boards of static shape).
  static constexpr int grid_step(int w, int h, int cell, Dir d) noexcept {
    switch (d) {
      case Dir::Up: return cell >= w ? cell - w : -1;
      case Dir::Down: return cell + w < w * h ? cell + w : -1;
      case Dir::Left: return cell % w > 0 ? cell - 1 : -1;
      case Dir::Right: return cell % w < w - 1 ? cell + 1 : -1;
    }
    return -1;
  }

  // Neighbour list of a blank cell: up to 4 target cells, in U, D, L, R order.
  struct Neighbours {
    std::uint8_t count = 0;
    std::array<std::uint8_t, 4> cell{};
    std::array<Dir, 4> dir{};
  };
  const Neighbours& neighbours(int cell) const noexcept { return nb_[cell]; }

  friend bool operator==(const Board& a, const Board& b) noexcept { return a.w_ == b.w_ && a.h_ == b.h_; }

 private:
  int w_, h_;
  std::array<Neighbours, kMaxBoardCells> nb_{};
};

// True when the board's states pack into 64 bits (at most kMaxCells cells).
inline bool is_packed(const Board& board) noexcept { return board.cells() <= kMaxCells; }

// The guard of everything limited to packed boards (Ranker, Labelling, DistanceTable, the BFS,
// the solver lab's Domain): throws InputError (errors.hpp) with a one-line message naming the
// board when it has more than kMaxCells cells. O(1).
void require_packed(const Board& board);

}  // namespace tilespace
