#include "tilespace/query.hpp"

#include <array>
#include <charconv>

namespace tilespace {

std::optional<State> parse_state_fast(const std::string_view* tokens, int count, const Board& board) noexcept {
  const int n = board.cells();
  State s{board, {}, -1};
  static_assert(kMaxBoardCells <= 32, "seen is a 32-bit set of tiles");
  std::uint32_t seen = 0;
  auto put = [&](int cell, int v) {
    if (v < 0 || v >= n || ((seen >> v) & 1u)) return false;
    seen |= 1u << v;
    s.tiles[cell] = static_cast<std::uint8_t>(v);
    if (v == 0) s.blank = cell;
    return true;
  };
  if (count == 1 && static_cast<int>(tokens[0].size()) == n && n <= 10) {
    for (int c = 0; c < n; ++c) {
      const char ch = tokens[0][c];
      const int v = (ch == '_' || ch == '.') ? 0 : (ch >= '0' && ch <= '9') ? ch - '0' : -1;
      if (!put(c, v)) return std::nullopt;
    }
    return s;
  }
  if (count != n) return std::nullopt;
  for (int c = 0; c < n; ++c) {
    const auto v = tile_value(tokens[c]);
    if (!v || !put(c, *v)) return std::nullopt;
  }
  return s;
}

namespace {

constexpr int kMaxTokens = 2 * kMaxCells;

bool is_sep(char c) { return c == ' ' || c == '\t' || c == ',' || c == '/' || c == '\r' || c == ';'; }

void append_uint(std::string& out, unsigned v) {
  char buf[16];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, p);
}

std::string join(const std::string_view* t, int count) {
  std::string s;
  for (int i = 0; i < count; ++i) {
    if (i) s += ' ';
    s += t[i];
  }
  return s;
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 32) continue;
    o += c;
  }
  return o;
}

}  // namespace

BatchStats run_batch(TableStore& store, std::string_view input, std::string& out, std::ostream& err,
                     const BatchOptions& options) {
  const Board& board = options.goal.board;
  require_packed(board);  // the tables below are indexed by blank cell
  const int n = board.cells();
  std::array<const DistanceTable*, kMaxCells> tables{};
  auto table_for = [&](int blank) -> const DistanceTable& {
    if (!tables[blank]) tables[blank] = &store.table(board, blank);
    return *tables[blank];
  };
  const Labelling default_goal(options.goal);

  BatchStats stats;
  std::array<std::string_view, kMaxTokens> tok;
  std::size_t pos = 0;
  std::uint64_t line_no = options.first_line - 1;
  while (pos < input.size()) {
    std::size_t end = input.find('\n', pos);
    if (end == std::string_view::npos) end = input.size();
    const std::string_view line = input.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;

    int count = 0;
    bool too_many = false;
    for (std::size_t i = 0; i < line.size();) {
      if (is_sep(line[i])) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < line.size() && !is_sep(line[j])) ++j;
      if (count == kMaxTokens) {
        too_many = true;
        break;
      }
      tok[count++] = line.substr(i, j - i);
      i = j;
    }
    if (count == 0 || tok[0][0] == '#') continue;

    auto fail = [&](const std::string& msg) {
      ++stats.errors;
      err << "tilespace: line " << line_no << ": " << msg << '\n';
      if (options.json) {
        out += "{\"error\":\"" + json_escape(msg) + "\"}\n";
      } else {
        out += "error\n";
      }
    };
    // Split the tokens into a start and an optional goal.
    int split = -1;  // tokens of the start
    if (!too_many) {
      if (count == 1 || count == n) split = count;
      else if (count == 2 && n > 2) split = 1;
      else if (count == 2 * n) split = n;
    }
    std::optional<State> start, goal;
    if (split < 0) {
      // Other spellings ("123/456/780 123/456/780"): the start and the goal are the line's one
      // or two blank-separated words, each parsed whole.
      std::array<std::string_view, 3> words;
      int nwords = 0;
      for (std::size_t i = 0; i < line.size() && nwords < 3;) {
        if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
          ++i;
          continue;
        }
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
        words[nwords++] = line.substr(i, j - i);
        i = j;
      }
      if (nwords < 1 || nwords > 2) {
        fail("expected a start and an optional goal of " + std::to_string(n) + " tiles each (" + board.name() +
             " board), got " + std::to_string(count) + (too_many ? "+" : "") + " tokens");
        continue;
      }
      try {
        start = parse_state(words[0], board);
        if (nwords == 2) goal = parse_state(words[1], board);
      } catch (const InputError& e) {
        fail(e.what());
        continue;
      }
    } else {
      start = parse_state_fast(tok.data(), split, board);
      if (split < count) goal = parse_state_fast(tok.data() + split, count - split, board);
    }
    if (split >= 0 && (!start || (split < count && !goal))) {
      try {  // slow path: parse_state words the problem
        start = parse_state(join(tok.data(), split), board);
        if (split < count) goal = parse_state(join(tok.data() + split, count - split), board);
      } catch (const InputError& e) {
        fail(e.what());
        continue;
      }
    }
    std::optional<int> d;
    if (goal) {
      d = table_for(goal->blank).distance(*start, Labelling(*goal));
    } else {
      d = table_for(default_goal.goal_blank).distance(*start, default_goal);
    }
    if (d) {
      ++stats.answered;
      if (options.json) {
        out += "{\"length\":";
        append_uint(out, static_cast<unsigned>(*d));
        out += "}\n";
      } else {
        append_uint(out, static_cast<unsigned>(*d));
        out += '\n';
      }
    } else {
      ++stats.unreachable;
      out += options.json ? "{\"length\":null}\n" : "unreachable\n";
    }
  }
  stats.lines = line_no - (options.first_line - 1);
  return stats;
}

}  // namespace tilespace
