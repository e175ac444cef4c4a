#include "tilespace/state.hpp"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <vector>

namespace tilespace {

std::uint64_t State::packed() const noexcept {
  assert(is_packed(board));
  std::uint64_t p = 0;
  for (int c = 0; c < cells(); ++c) p |= std::uint64_t(tiles[c]) << (4 * c);
  return p;
}

State State::unpack(const Board& board, std::uint64_t packed) {
  assert(is_packed(board));
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

State State::slid(int to) const noexcept {
  const int w = board.width();
  const int step = board.row(to) == board.row(blank) ? (to > blank ? 1 : -1) : (to > blank ? w : -w);
  State s = *this;
  for (int c = blank; c != to; c += step) s.tiles[c] = s.tiles[c + step];
  s.tiles[to] = 0;
  s.blank = to;
  return s;
}

bool is_move(const State& a, const State& b, Metric metric) noexcept {
  const Board& bd = a.board;
  const int from = a.blank, to = b.blank;
  if (from == to || !(bd == b.board)) return false;
  const bool across = bd.row(from) == bd.row(to), down = bd.col(from) == bd.col(to);
  if (!across && !down) return false;
  const int cells = across ? std::abs(to - from) : std::abs(to - from) / bd.width();
  if (metric == Metric::single && cells != 1) return false;
  return a.slid(to) == b;
}

std::string path_moves(const std::vector<State>& path, Metric metric) {
  std::string out;
  for (std::size_t i = 1; i < path.size(); ++i) {
    const Board& b = path[i].board;
    const int from = path[i - 1].blank, to = path[i].blank;
    const bool across = b.row(from) == b.row(to);
    const int cells = across ? std::abs(to - from) : std::abs(to - from) / b.width();
    const char letter = across ? (to > from ? 'R' : 'L') : (to > from ? 'D' : 'U');
    if (metric == Metric::single) {
      out.append(static_cast<std::size_t>(cells), letter);
      continue;
    }
    if (!out.empty()) out += ' ';
    out += letter;
    if (cells > 1) out += std::to_string(cells);
  }
  return out;
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

// The length of the UTF-8 character that starts at t[i] (1 to 4 bytes), or 0 if the bytes there
// are not one.
std::size_t utf8_char(std::string_view t, std::size_t i) {
  const auto c = static_cast<unsigned char>(t[i]);
  const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > t.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(t[i + k]) & 0xC0) != 0x80) return 0;
  return n;
}

// True when `t` is well-formed UTF-8 (ASCII included).
bool utf8(std::string_view t) {
  for (std::size_t i = 0; i < t.size();) {
    const std::size_t n = utf8_char(t, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

// A token for a one-line message, quoted: as it is when it is UTF-8 text ('é'), with '?' for
// control characters (C0, DEL, C1) and for bytes that are not UTF-8.
std::string quoted_token(std::string_view t) {
  std::string s = "'";
  for (std::size_t i = 0; i < t.size();) {
    const std::size_t n = utf8_char(t, i);
    const auto c = static_cast<unsigned char>(t[i]);
    const bool c1 = n == 2 && c == 0xC2 && static_cast<unsigned char>(t[i + 1]) < 0xA0;  // U+0080..U+009F
    if (n > 1 && !c1) s += t.substr(i, n);
    else s += (n == 1 && c >= 32 && c < 127) ? static_cast<char>(c) : '?';
    i += n ? n : 1;
  }
  return s + "'";
}

// "1 tile", "3 tiles".
std::string tiles(std::size_t n) { return std::to_string(n) + (n == 1 ? " tile" : " tiles"); }

// Why token `t` is no tile of `board`: a number too large, full-width digits, bytes that are not
// UTF-8 text, or a symbol that is none of the tiles' spellings.
std::string bad_symbol(std::string_view t, const Board& board) {
  const bool digits = !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (digits)
    return "tile " + quoted_token(t.size() > 20 ? t.substr(0, 20) : t) + (t.size() > 20 ? "..." : "") +
           " is too large for a " + board.name() + " board (tiles 1-" + std::to_string(board.cells() - 1) +
           " and a blank)";
  if (!utf8(t)) return "not UTF-8 text (" + quoted_token(t) + ")";
  // Full-width digits U+FF10..U+FF19 are EF BC 90..99 in UTF-8.
  for (std::size_t i = 0; i + 2 < t.size(); ++i)
    if (t.substr(i, 2) == "\xEF\xBC" && static_cast<unsigned char>(t[i + 2]) >= 0x90 &&
        static_cast<unsigned char>(t[i + 2]) <= 0x99)
      return "unknown symbol " + quoted_token(t) + ": full-width digits; write tiles with the digits 0-9";
  return "unknown symbol " + quoted_token(t) + ": tiles are numbers, the blank is 0, _ or .";
}

// A state's tokens, by rows: split by '/' or newlines, then by blanks and commas; a row that is
// one token of several characters ("123/456/780", "123456780") has one tile per character (a
// UTF-8 character, however many bytes it takes: "é12" is three).
struct Tokens {
  std::vector<std::vector<std::string_view>> rows;
  std::vector<std::string_view> all;
};

Tokens tokenize(std::string_view text) {
  Tokens t;
  t.rows.emplace_back();
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '/' || c == '\n') {
      t.rows.emplace_back();
      ++i;
    } else if (is_sep(c)) {
      ++i;
    } else {
      std::size_t j = i;
      while (j < text.size() && !is_sep(text[j]) && text[j] != '/' && text[j] != '\n') ++j;
      t.rows.back().push_back(text.substr(i, j - i));
      i = j;
    }
  }
  std::erase_if(t.rows, [](const auto& r) { return r.empty(); });
  if (t.rows.empty()) throw InputError("empty state: expected tiles such as '1 2 3 4 5 6 7 8 0'");
  bool compact = true;
  // A byte that is not UTF-8 is a character of its own here, and is called so by bad_symbol.
  auto chars_of = [](std::string_view token) {
    std::vector<std::string_view> chars;
    for (std::size_t k = 0; k < token.size();) {
      const std::size_t n = std::max<std::size_t>(utf8_char(token, k), 1);
      chars.push_back(token.substr(k, n));
      k += n;
    }
    return chars;
  };
  for (const auto& r : t.rows) compact = compact && r.size() == 1 && chars_of(r[0]).size() > 1;
  if (compact)
    for (auto& r : t.rows) r = chars_of(r[0]);
  for (const auto& r : t.rows) t.all.insert(t.all.end(), r.begin(), r.end());
  if (compact && t.all.size() > 10)
    throw InputError("a state written without separators has at most 10 cells; separate the " +
                     std::to_string(t.all.size()) + " tiles with spaces");
  return t;
}

// The board: given, else from equal rows, else from a square count. Checks the tile count.
Board infer_board(const Tokens& t, const std::optional<Board>& board) {
  const int count = static_cast<int>(t.all.size());
  const auto& rows = t.rows;
  if (rows.size() > 1) {  // rows must agree with each other and with a given board
    std::string sizes;
    bool even = true;
    for (const auto& r : rows) {
      even = even && r.size() == rows[0].size();
      sizes += (sizes.empty() ? "" : ", ") + std::to_string(r.size());
    }
    if (!even) throw InputError("rows of unequal length (" + sizes + " tiles)");
    if (board && (static_cast<int>(rows.size()) != board->height() || static_cast<int>(rows[0].size()) != board->width()))
      throw InputError(std::to_string(rows.size()) + " rows of " + tiles(rows[0].size()) + " do not fit a " +
                       board->name() + " board (" + std::to_string(board->height()) + " rows of " +
                       std::to_string(board->width()) + ")");
  }
  std::optional<Board> b = board;
  if (!b) {
    if (rows.size() > 1 && rows[0].size() >= 2 && rows.size() * rows[0].size() <= kMaxBoardCells) {
      b = Board(static_cast<int>(rows[0].size()), static_cast<int>(rows.size()));
    } else {
      for (int k = 2; k * k <= kMaxBoardCells; ++k)
        if (k * k == count) b = Board(k, k);
    }
    if (!b)
      throw InputError("cannot tell the board from " + tiles(static_cast<std::size_t>(count)) +
                       ": give --board WxH (at most " + std::to_string(kMaxBoardCells) + " cells)");
  }
  if (count != b->cells())
    throw InputError("expected " + std::to_string(b->cells()) + " tiles for a " + b->name() + " board, got " +
                     std::to_string(count));
  return *b;
}

}  // namespace

State parse_state(std::string_view text, const std::optional<Board>& board) {
  const Tokens t = tokenize(text);
  const std::vector<std::string_view>& tokens = t.all;
  const std::optional<Board> b = infer_board(t, board);
  const int n = b->cells();

  State s{*b, {}, -1};
  std::array<bool, kMaxBoardCells> seen{};
  for (int c = 0; c < n; ++c) {
    const auto value = tile_value(tokens[c]);
    if (!value) throw InputError(bad_symbol(tokens[c], *b));
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

bool Labels::numeric() const {
  for (std::size_t t = 0; t < names.size(); ++t)
    if (names[t] != std::to_string(t)) return false;
  return true;
}

std::string Labels::name(int tile) const {
  return tile < static_cast<int>(names.size()) ? names[tile] : std::to_string(tile);
}

std::string Labels::format(const State& s) const {
  std::string out;
  for (int c = 0; c < s.cells(); ++c) {
    if (c) out += ' ';
    out += name(s.tiles[c]);
  }
  return out;
}

bool has_labels(std::string_view text) {
  // No tiles at all (an absent goal): no names, and no exception thrown for it on every query.
  if (text.find_first_not_of(" \t,;\r/\n") == std::string_view::npos) return false;
  try {
    const Tokens t = tokenize(text);
    for (const auto tok : t.all)  // a number too long to be a tile is a bad number, not a name
      if (!tile_value(tok) && tok.find_first_not_of("0123456789") != std::string_view::npos) return true;
  } catch (const InputError&) {
  }
  return false;
}

LabelledPair parse_labelled_pair(std::string_view start_text, std::string_view goal_text,
                                 const std::optional<Board>& board, std::string_view blank_token) {
  const Tokens gt = [&] {
    try {
      return tokenize(goal_text);
    } catch (const InputError& e) {
      throw InputError(std::string("goal: ") + e.what());
    }
  }();
  const Tokens st = tokenize(start_text);
  const Board b = infer_board(st, board);
  const int n = b.cells();
  try {
    infer_board(gt, b);
  } catch (const InputError& e) {
    throw InputError(std::string("goal: ") + e.what());
  }
  auto is_blank = [&](std::string_view t) {
    return blank_token.empty() ? (t == "0" || t == "_" || t == ".") : t == blank_token;
  };
  LabelledPair out{State{b, {}, -1}, State{b, {}, -1}, {}};
  out.labels.names.assign(1, blank_token.empty() ? "_" : std::string(blank_token));
  // The goal fixes the numbering: its tiles in row-major order are 1..N-1.
  for (int c = 0; c < n; ++c) {
    const auto t = gt.all[c];
    if (is_blank(t)) {
      if (out.goal.blank >= 0) throw InputError("goal: the blank appears twice");
      out.goal.blank = c;
      continue;
    }
    if (std::find(out.labels.names.begin() + 1, out.labels.names.end(), t) != out.labels.names.end())
      throw InputError("goal: tile " + quoted_token(t) + " appears twice");
    out.goal.tiles[c] = static_cast<std::uint8_t>(out.labels.names.size());
    out.labels.names.emplace_back(t);
  }
  if (out.goal.blank < 0)
    throw InputError(blank_token.empty() ? "goal: no blank (write it as 0, _ or ., or name it with --blank)"
                                         : "goal: no blank '" + std::string(blank_token) + "'");
  static_assert(kMaxBoardCells <= 32, "seen is a 32-bit set of tiles");
  std::uint32_t seen = 0;
  for (int c = 0; c < n; ++c) {
    const auto t = st.all[c];
    int v = -1;
    if (is_blank(t)) {
      v = 0;
    } else {
      const auto it = std::find(out.labels.names.begin() + 1, out.labels.names.end(), t);
      if (it == out.labels.names.end())
        throw InputError("tile " + quoted_token(t) + " of the start is not in the goal: start and goal must use the same tiles");
      v = static_cast<int>(it - out.labels.names.begin());
    }
    if ((seen >> v) & 1u)
      throw InputError(v == 0 ? std::string("the blank appears twice") : "tile " + quoted_token(t) + " appears twice");
    seen |= 1u << v;
    out.start.tiles[c] = static_cast<std::uint8_t>(v);
    if (v == 0) out.start.blank = c;
  }
  return out;
}

}  // namespace tilespace
