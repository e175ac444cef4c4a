// Board geometry: a W x H grid of cells numbered row-major from 0, and the moves of the blank.
//
// Memory model: a Board is a small value (a few hundred bytes) holding precomputed neighbour
// tables; copy it freely. It is immutable after construction and safe to share between threads.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilespace {

// Boards of at most kMaxCells cells: every state packs into a uint64_t (4 bits a cell) and a
// group of one tile arrangement's blank positions fits a 16-bit lane in the BFS.
inline constexpr int kMaxCells = 16;

// A move is named by the direction the blank travels.
enum class Dir : std::uint8_t { Up = 0, Down = 1, Left = 2, Right = 3 };
inline constexpr std::array<char, 4> kDirLetter{'U', 'D', 'L', 'R'};

class Board {
 public:
  // Precondition: 2 <= w, 2 <= h, w*h <= kMaxCells (throws std::invalid_argument otherwise).
  Board(int w, int h);

  // Parses "3x3" (also "3X3"); nullopt if malformed or out of range.
  static std::optional<Board> parse(std::string_view text);

  int width() const noexcept { return w_; }
  int height() const noexcept { return h_; }
  int cells() const noexcept { return w_ * h_; }
  int row(int cell) const noexcept { return cell / w_; }
  int col(int cell) const noexcept { return cell % w_; }
  std::string name() const;  // "3x3"

  // The cell the blank reaches from `cell` moving in `d`, or -1 at the edge.
  int step(int cell, Dir d) const noexcept { return step_[cell][static_cast<int>(d)]; }

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
  std::array<std::array<std::int8_t, 4>, kMaxCells> step_{};
  std::array<Neighbours, kMaxCells> nb_{};
};

}  // namespace tilespace
