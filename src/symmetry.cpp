#include "tilespace/symmetry.hpp"

#include <algorithm>

namespace tilespace {

bool Symmetry::identity() const noexcept {
  for (int c = 0; c < cells; ++c)
    if (to[c] != c) return false;
  return true;
}

State Symmetry::apply(const State& s) const noexcept {
  State t{s.board, {}, to[s.blank]};
  for (int c = 0; c < cells; ++c) t.tiles[to[c]] = s.tiles[c];
  return t;
}

State Symmetry::undo(const State& s) const noexcept {
  State t{s.board, {}, from[s.blank]};
  for (int c = 0; c < cells; ++c) t.tiles[from[c]] = s.tiles[c];
  return t;
}

std::vector<Symmetry> board_symmetries(const Board& board) {
  const int w = board.width(), h = board.height();
  // Each isometry as (row, column) -> (row', column'); the last four only on a square.
  struct Map {
    bool transposes;
    bool flip_rows, flip_cols;  // applied after the transposition
  };
  std::vector<Map> maps{{false, false, false}, {false, false, true}, {false, true, false}, {false, true, true}};
  if (w == h) {
    for (const bool fr : {false, true})
      for (const bool fc : {false, true}) maps.push_back({true, fr, fc});
  }
  std::vector<Symmetry> out;
  for (const Map& m : maps) {
    Symmetry s;
    s.cells = board.cells();
    for (int c = 0; c < board.cells(); ++c) {
      int r = board.row(c), k = board.col(c);
      if (m.transposes) std::swap(r, k);  // square: w == h
      if (m.flip_rows) r = h - 1 - r;
      if (m.flip_cols) k = w - 1 - k;
      const int to = r * w + k;
      s.to[c] = static_cast<std::uint8_t>(to);
      s.from[to] = static_cast<std::uint8_t>(c);
    }
    out.push_back(s);
  }
  return out;
}

std::vector<int> blank_class(const Board& board, int cell) {
  std::vector<int> cls;
  for (const Symmetry& s : board_symmetries(board)) cls.push_back(s.to[cell]);
  std::sort(cls.begin(), cls.end());
  cls.erase(std::unique(cls.begin(), cls.end()), cls.end());
  return cls;
}

std::vector<std::vector<int>> blank_classes(const Board& board) {
  std::vector<std::vector<int>> out;
  for (int c = 0; c < board.cells(); ++c) {
    auto cls = blank_class(board, c);
    if (cls.front() == c) out.push_back(std::move(cls));  // c is its class's representative
  }
  return out;
}

std::optional<Symmetry> symmetry_taking(const Board& board, int from, int to) {
  for (const Symmetry& s : board_symmetries(board))  // the identity first
    if (s.to[from] == to) return s;
  return std::nullopt;
}

Board transposed(const Board& board) { return Board(board.height(), board.width()); }

Symmetry transposition(const Board& board) {
  Symmetry s;
  s.cells = board.cells();
  const int h = board.height();
  for (int c = 0; c < board.cells(); ++c) {
    const int to = board.col(c) * h + board.row(c);  // row col(c), column row(c) of the H x W board
    s.to[c] = static_cast<std::uint8_t>(to);
    s.from[to] = static_cast<std::uint8_t>(c);
  }
  return s;
}

Symmetry compose(const Symmetry& first, const Symmetry& second) {
  Symmetry s;
  s.cells = first.cells;
  for (int c = 0; c < first.cells; ++c) {
    const int to = second.to[first.to[c]];
    s.to[c] = static_cast<std::uint8_t>(to);
    s.from[to] = static_cast<std::uint8_t>(c);
  }
  return s;
}

}  // namespace tilespace
