#include "tilespace/board.hpp"

#include <charconv>
#include <stdexcept>

#include "tilespace/errors.hpp"

namespace tilespace {

Board::Board(int w, int h) : w_(w), h_(h) {
  if (w < 2 || h < 2 || w > kMaxBoardCells || h > kMaxBoardCells || w * h > kMaxBoardCells)
    throw std::invalid_argument("board " + std::to_string(w) + "x" + std::to_string(h) +
                                " is not supported (need 2 <= W, H and W*H <= " + std::to_string(kMaxBoardCells) +
                                ")");
  for (int c = 0; c < w * h; ++c) {
    for (int d = 0; d < 4; ++d) {
      const int to = step(c, static_cast<Dir>(d));
      if (to < 0) continue;
      auto& n = nb_[c];
      n.cell[n.count] = static_cast<std::uint8_t>(to);
      n.dir[n.count] = static_cast<Dir>(d);
      ++n.count;
    }
  }
}

std::optional<Board> Board::parse(std::string_view text) {
  const auto x = text.find_first_of("xX");
  if (x == std::string_view::npos) return std::nullopt;
  int w = 0, h = 0;
  const auto a = text.substr(0, x), b = text.substr(x + 1);
  auto [pa, ea] = std::from_chars(a.data(), a.data() + a.size(), w);
  auto [pb, eb] = std::from_chars(b.data(), b.data() + b.size(), h);
  if (ea != std::errc{} || eb != std::errc{} || pa != a.data() + a.size() || pb != b.data() + b.size() ||
      a.empty() || b.empty())
    return std::nullopt;
  if (w < 2 || h < 2 || w > kMaxBoardCells || h > kMaxBoardCells || w * h > kMaxBoardCells) return std::nullopt;
  return Board(w, h);
}

std::string Board::name() const { return std::to_string(w_) + "x" + std::to_string(h_); }

void require_packed(const Board& board) {
  if (is_packed(board)) return;
  // The 24-puzzle's usual additive pattern database splits its tiles 6-6-6-6.
  const std::string hint = board.cells() == 25 ? "--heuristic pdb:6-6-6-6" : "a pattern-database heuristic";
  throw InputError("the " + board.name() + " board has " + std::to_string(board.cells()) +
                   " cells; distance tables and the solver lab handle at most " + std::to_string(kMaxCells) +
                   " (solve it with " + hint + ")");
}

std::string_view metric_name(Metric m) noexcept { return m == Metric::multi ? "multi" : "single"; }

std::optional<Metric> parse_metric(std::string_view text) {
  if (text == "single") return Metric::single;
  if (text == "multi") return Metric::multi;
  return std::nullopt;
}

Metric metric_option(std::string_view text) {
  if (const std::optional<Metric> m = parse_metric(text)) return *m;
  throw option_error("metric", "'" + std::string(text) + "' is not a metric (single, multi)");
}

}  // namespace tilespace
