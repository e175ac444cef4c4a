#include "tilespace/query.hpp"

#include <array>
#include <charconv>

#include "tilespace/problem.hpp"
#include "tilespace/rank.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace {

namespace {
int split_tokens(std::string_view line, std::string_view* tok, int max) noexcept;
}  // namespace

std::optional<State> parse_state_fast(std::string_view text, const Board& board) noexcept {
  if (text.find('/') != std::string_view::npos) return std::nullopt;  // rows: the grammar checks them
  std::array<std::string_view, kMaxBoardCells> tok;
  const int count = split_tokens(text, tok.data(), kMaxBoardCells);
  if (count < 0) return std::nullopt;
  return parse_state_fast(tok.data(), count, board);
}

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

bool is_tile_sep(char c) { return c == ' ' || c == '\t' || c == ',' || c == '/' || c == '\r' || c == ';'; }

// Splits `line` into at most `max` tile tokens (blanks, commas, semicolons and '/' separate them);
// the count, or -1 when there are more.
int split_tokens(std::string_view line, std::string_view* tok, int max) noexcept {
  int count = 0;
  for (std::size_t i = 0; i < line.size();) {
    if (is_tile_sep(line[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < line.size() && !is_tile_sep(line[j])) ++j;
    if (count == max) return -1;
    tok[count++] = line.substr(i, j - i);
    i = j;
  }
  return count;
}

// Whether blanks part two tokens of a line: two compact states are two words of the grammar
// ("1230 1203", "1230; 1203"), while "1230;1203" is one word, which it refuses.
bool blank_between(std::string_view a, std::string_view b) noexcept {
  for (const char* p = a.data() + a.size(); p < b.data(); ++p)
    if (*p == ' ' || *p == '\t' || *p == '\r') return true;
  return false;
}

void append_uint(std::string& out, std::uint64_t v) {
  char buf[24];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, p);
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
  const bool searching = options.search && !table_can_exist(board);
  if (!searching) require_packed(board);  // the tables below are indexed by blank cell
  const int n = board.cells();
  // Each goal blank cell's table (its own, or its class's through a symmetry: goal_table.hpp),
  // asked for once, when a line first needs it.
  std::array<const GoalTable*, kMaxCells> tables{};
  auto table_for = [&](int blank) -> const GoalTable& {
    if (!tables[blank]) {
      if (options.table_source) {
        tables[blank] = &options.table_source(board, blank);
      } else if (options.store_mutex) {
        const std::lock_guard lock(*options.store_mutex);
        tables[blank] = &store.goal(board, blank);
      } else {
        tables[blank] = &store.goal(board, blank);
      }
    }
    return *tables[blank];
  };
  std::optional<Labelling> default_goal;  // the default goal's labelling, once its table is known

  BatchStats stats;
  // One answer line: the length, or unreachable (d < 0); in JSON with the input's line number.
  auto json_line = [&](std::uint64_t line_no) {
    out += "\"line\":";
    append_uint(out, line_no);
    out += "}\n";
  };
  auto answer = [&](int d, std::uint64_t line_no) {
    if (d >= 0) {
      ++stats.answered;
      if (options.json) {
        out += "{\"length\":";
        append_uint(out, static_cast<unsigned>(d));
        out += ',';
        json_line(line_no);
      } else {
        append_uint(out, static_cast<unsigned>(d));
        out += '\n';
      }
    } else {
      ++stats.unreachable;
      if (options.json) {
        out += "{\"length\":null,";
        json_line(line_no);
      } else {
        out += "unreachable\n";
      }
    }
  };
  // Answers waiting for their table byte, in line order (a bad line flushes them first).
  struct Pending {
    const std::uint8_t* at;  // the byte to read, or null: `value` is the answer
    int value;
    std::uint64_t line;  // the input's line
  };
  constexpr std::size_t kAhead = 16;
  std::array<Pending, kAhead> ring{};
  std::size_t head = 0, waiting = 0;
  auto retire = [&] {
    const Pending p = ring[head];
    head = (head + 1) % kAhead;
    --waiting;
    answer(p.at ? *p.at : p.value, p.line);
  };
  auto push = [&](Pending p) {
    if (waiting == kAhead) retire();
    ring[(head + waiting) % kAhead] = p;
    ++waiting;
  };
  auto flush = [&] {
    while (waiting) retire();
  };

  std::array<std::string_view, kMaxTokens> tok;
  LineReader lines(input, options.first_line);  // the byte-order mark, CRLF and '#' comments go
  std::string_view line;
  std::uint64_t line_no = options.first_line - 1;
  while (lines.next(line, line_no)) {
    const bool rows = line.find('/') != std::string_view::npos;  // rows are checked by the grammar
    const int found = split_tokens(line, tok.data(), kMaxTokens);
    const bool too_many = found < 0;
    const int count = too_many ? kMaxTokens : found;
    if (count == 0) continue;

    auto fail = [&](const std::string& msg) {
      flush();
      ++stats.errors;
      err << "tilespace: error: " << options.name << " line " << line_no << ": " << msg << '\n';
      if (options.json) {
        out += "{\"error\":\"" + json_escape(msg) + "\",";
        json_line(line_no);
      } else {
        out += "error: " + msg + "\n";
      }
    };
    // The common forms without allocating; anything else (and every error) through the grammar.
    std::optional<State> start, goal;
    if (!too_many && !rows) {
      if (count == 1 || count == n) {
        start = parse_state_fast(tok.data(), count, board);
      } else if (count == 2 * n || (count == 2 && n > 2 && blank_between(tok[0], tok[1]))) {
        const int split = count / 2;
        start = parse_state_fast(tok.data(), split, board);
        goal = parse_state_fast(tok.data() + split, split, board);
        if (!goal) start.reset();
      }
    }
    if (!start) {
      try {
        LinePair p = parse_line_pair(line, board);
        start = p.start;
        goal = p.goal;
      } catch (const InputError& e) {
        fail(e.what());
        continue;
      }
    }
    if (goal && options.goal_given) {
      try {
        require_given_goal(*goal, options.goal, options.goal_name);
      } catch (const InputError& e) {
        fail(e.what());
        continue;
      }
    }
    if (searching) {
      const State& g = goal ? *goal : options.goal;
      if (!solvable(*start, g)) {
        answer(-1, line_no);
        continue;
      }
      const SearchedAnswer a = options.search(*start, g);
      if (a.length >= 0) {
        answer(a.length, line_no);
      } else {
        ++stats.stopped;
        if (options.json) {
          out += "{\"stopped\":\"" + json_escape(a.stopped) + "\",";
          json_line(line_no);
        } else {
          out += a.message + "\n";
        }
      }
      continue;
    }
    // The rank now, the table's byte a few lines later: its cache miss overlaps the next lines.
    const GoalTable& t = table_for(goal ? goal->blank : options.goal.blank);
    if (!goal && !default_goal) default_goal = t.labelling(options.goal);
    const Labelling goal_labels = goal ? t.labelling(*goal) : *default_goal;
    const std::uint64_t r = t.rank_if_reachable(*start, goal_labels);
    if (r == Ranker::kUnreachable) {
      push({nullptr, -1, line_no});
    } else if (t.table().by_descent()) {
      push({nullptr, t.table().depth_of_rank(r), line_no});
    } else {
      const std::uint8_t* at = t.table().depths().data() + r;
      __builtin_prefetch(at);
      push({at, 0, line_no});
    }
  }
  flush();
  stats.lines = line_no - (options.first_line - 1);
  return stats;
}

}  // namespace tilespace
