#include "tilespace/board.hpp"

#include <charconv>
#include <stdexcept>

namespace tilespace {

Board::Board(int w, int h) : w_(w), h_(h) {
  if (w < 2 || h < 2 || w * h > kMaxCells)
    throw std::invalid_argument("board " + std::to_string(w) + "x" + std::to_string(h) +
                                " is not supported (need 2 <= W, H and W*H <= 16)");
  for (int c = 0; c < w * h; ++c) {
    const int r = c / w, k = c % w;
    const std::array<int, 4> to{r > 0 ? c - w : -1, r < h - 1 ? c + w : -1, k > 0 ? c - 1 : -1,
                                k < w - 1 ? c + 1 : -1};
    for (int d = 0; d < 4; ++d) {
      step_[c][d] = static_cast<std::int8_t>(to[d]);
      if (to[d] >= 0) {
        auto& n = nb_[c];
        n.cell[n.count] = static_cast<std::uint8_t>(to[d]);
        n.dir[n.count] = static_cast<Dir>(d);
        ++n.count;
      }
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
  if (w < 2 || h < 2 || w * h > kMaxCells) return std::nullopt;
  return Board(w, h);
}

std::string Board::name() const { return std::to_string(w_) + "x" + std::to_string(h_); }

}  // namespace tilespace
