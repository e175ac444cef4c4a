#include "tilespace/state.hpp"

#include <fstream>
#include <sstream>
#include <vector>

namespace tilespace {

std::uint64_t State::packed() const noexcept {
  std::uint64_t p = 0;
  for (int c = 0; c < cells(); ++c) p |= std::uint64_t(tiles[c]) << (4 * c);
  return p;
}

State State::unpack(const Board& board, std::uint64_t packed) {
  State s{board, {}, 0};
  for (int c = 0; c < board.cells(); ++c) {
    s.tiles[c] = static_cast<std::uint8_t>((packed >> (4 * c)) & 15u);
    if (s.tiles[c] == 0) s.blank = c;
  }
  return s;
}

State State::moved(int to) const noexcept {
  State s = *this;
  s.tiles[blank] = s.tiles[to];
  s.tiles[to] = 0;
  s.blank = to;
  return s;
}

std::string State::to_string() const {
  std::string out;
  for (int c = 0; c < cells(); ++c) {
    if (c) out += ' ';
    out += std::to_string(tiles[c]);
  }
  return out;
}

std::string State::compact() const {
  std::string out;
  const bool digits = cells() <= 10;
  for (int c = 0; c < cells(); ++c) {
    if (!digits && c) out += '-';
    out += std::to_string(tiles[c]);
  }
  return out;
}

State canonical_goal(const Board& board, int blank_cell) {
  State s{board, {}, blank_cell};
  std::uint8_t next = 1;
  for (int c = 0; c < board.cells(); ++c)
    if (c != blank_cell) s.tiles[c] = next++;
  return s;
}

namespace {

bool is_sep(char c) { return c == ' ' || c == '\t' || c == ',' || c == ';' || c == '\r'; }

std::string quoted(std::string_view t) {
  std::string s = "'";
  for (char c : t) s += (c >= 32 && c < 127) ? c : '?';
  return s + "'";
}

}  // namespace

State parse_state(std::string_view text, const std::optional<Board>& board) {
  // Rows split by '/' or newlines; tokens by blanks and commas.
  std::vector<std::vector<std::string_view>> rows(1);
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '/' || c == '\n') {
      rows.emplace_back();
      ++i;
    } else if (is_sep(c)) {
      ++i;
    } else {
      std::size_t j = i;
      while (j < text.size() && !is_sep(text[j]) && text[j] != '/' && text[j] != '\n') ++j;
      rows.back().push_back(text.substr(i, j - i));
      i = j;
    }
  }
  std::erase_if(rows, [](const auto& r) { return r.empty(); });
  if (rows.empty()) throw InputError("empty state: expected tiles such as '1 2 3 4 5 6 7 8 0'");

  // "123456780" or "123/456/780": one token per row, several characters each -> one tile a character.
  bool compact = true;
  for (const auto& r : rows) compact = compact && r.size() == 1 && r[0].size() > 1;
  if (compact) {
    for (auto& r : rows) {
      std::vector<std::string_view> chars;
      for (std::size_t k = 0; k < r[0].size(); ++k) chars.push_back(r[0].substr(k, 1));
      r = std::move(chars);
    }
  }
  std::vector<std::string_view> tokens;
  for (const auto& r : rows) tokens.insert(tokens.end(), r.begin(), r.end());
  const int count = static_cast<int>(tokens.size());
  if (compact && count > 10)
    throw InputError("a state written without separators has at most 10 cells; separate the " +
                     std::to_string(count) + " tiles with spaces");

  std::optional<Board> b = board;
  if (!b) {
    bool even_rows = rows.size() > 1;
    for (const auto& r : rows) even_rows = even_rows && r.size() == rows[0].size();
    if (even_rows && rows[0].size() >= 2 && rows.size() * rows[0].size() <= kMaxCells) {
      b = Board(static_cast<int>(rows[0].size()), static_cast<int>(rows.size()));
    } else {
      for (int k = 2; k * k <= kMaxCells; ++k)
        if (k * k == count) b = Board(k, k);
    }
    if (!b)
      throw InputError("cannot tell the board from " + std::to_string(count) +
                       " tiles: give --board WxH (at most 16 cells)");
  }
  const int n = b->cells();
  if (count != n)
    throw InputError("expected " + std::to_string(n) + " tiles for a " + b->name() + " board, got " +
                     std::to_string(count));

  State s{*b, {}, -1};
  std::array<bool, kMaxCells> seen{};
  for (int c = 0; c < n; ++c) {
    const auto value = tile_value(tokens[c]);
    if (!value) throw InputError("unknown symbol " + quoted(tokens[c]) + ": tiles are numbers, the blank is 0, _ or .");
    const int v = *value;
    if (v >= n)
      throw InputError("tile " + std::to_string(v) + " does not fit a " + b->name() + " board (tiles 1-" +
                       std::to_string(n - 1) + " and a blank)");
    if (seen[v]) throw InputError(v == 0 ? std::string("the blank appears twice")
                                         : "tile " + std::to_string(v) + " appears twice");
    seen[v] = true;
    s.tiles[c] = static_cast<std::uint8_t>(v);
    if (v == 0) s.blank = c;
  }
  return s;  // n distinct values in [0, n): a permutation, so exactly one blank
}

std::pair<State, std::optional<State>> read_state_file(const std::string& path, const std::optional<Board>& board) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  if (text.find('\0') != std::string::npos) throw InputError(path + ": not a text file");

  // Blocks separated by blank lines; a single block with two lines is "start\ngoal".
  std::vector<std::vector<std::string>> blocks(1);
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t,") == std::string::npos) {
      if (!blocks.back().empty()) blocks.emplace_back();
    } else {
      blocks.back().push_back(line);
    }
  }
  if (blocks.back().empty()) blocks.pop_back();
  auto join = [](const std::vector<std::string>& ls) {
    std::string j;
    for (const auto& l : ls) j += l + "\n";
    return j;
  };
  auto parse = [&](const std::string& t, const std::optional<Board>& bd) {
    try {
      return parse_state(t, bd);
    } catch (const InputError& e) {
      throw InputError(path + ": " + e.what());
    }
  };
  if (blocks.empty()) throw InputError(path + ": no state in the file");
  if (blocks.size() == 1 && blocks[0].size() == 2) {
    State start = parse(blocks[0][0], board);
    return {start, parse(blocks[0][1], start.board)};
  }
  if (blocks.size() == 1 && blocks[0].size() == 1) return {parse(blocks[0][0], board), std::nullopt};
  if (blocks.size() == 1) {
    State start = parse(join(blocks[0]), board);
    return {start, std::nullopt};
  }
  if (blocks.size() > 2) throw InputError(path + ": expected a start and a goal, found " +
                                          std::to_string(blocks.size()) + " blocks");
  State start = parse(join(blocks[0]), board);
  return {start, parse(join(blocks[1]), start.board)};
}

}  // namespace tilespace
