// The one problem grammar (problem.hpp): input texts, START arguments, files of states, problems
// and the lines of batches, suites and check files.
#include "tilespace/problem.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <vector>

namespace tilespace {

using About = InputError::About;

std::optional<Board> parse_board(std::string_view text) {
  if (text.empty()) return std::nullopt;
  auto b = Board::parse(text);
  if (!b)
    throw InputError(About::board, "bad board '" + std::string(text) + "': expected WxH with 2 <= W, H and W*H <= " +
                                       std::to_string(kMaxBoardCells));
  return b;
}

// ---- input texts ----

InputText read_input(const std::string& path) {
  InputText in;
  in.name = path == "-" ? "standard input" : path;
  auto fail = [&](const std::string& why) { return InputError(About::file, why, in.name); };
  if (path.empty()) throw fail("no file named");
  std::FILE* f = stdin;
  if (path != "-") {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw fail("is a folder, not a file");
    f = std::fopen(path.c_str(), "rb");
    if (!f) throw fail(std::string("cannot read: ") + std::strerror(errno));
  }
  char buf[1 << 16];
  // A short read is the end (or an error): no read after it, so that on a terminal one Ctrl-D ends
  // the input, as it ends cat's (stdio would otherwise wait for a second one).
  for (std::size_t got = sizeof buf; got == sizeof buf;) {
    got = std::fread(buf, 1, sizeof buf, f);
    in.text.append(buf, got);
  }
  const bool error = std::ferror(f);
  const int err = errno;
  if (f != stdin) std::fclose(f);
  if (error) throw fail(std::string("cannot read: ") + std::strerror(err));
  if (in.text.find('\0') != std::string::npos) throw fail("not a text file");
  return in;
}

LineReader::LineReader(std::string_view text, std::uint64_t first_line) noexcept
    : text_(text), number_(first_line - 1) {
  if (first_line == 1 && text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a UTF-8 byte-order mark
}

bool blank_line(std::string_view line) noexcept {
  for (const char c : line)
    if (c != ' ' && c != '\t' && c != '\r' && c != ',') return false;
  return true;
}

// ---- problems ----

namespace {

bool labelled(const ProblemText& t) {
  return !t.blank.empty() || (t.start && has_labels(*t.start)) || has_labels(t.goal);
}

}  // namespace

Problem parse_problem(const ProblemText& t) {
  std::optional<Board> board = parse_board(t.board);
  Problem p;
  if (t.start && labelled(t)) {
    if (t.goal.empty()) {
      if (t.blank.empty()) {  // names in the start alone: most likely a mistake, worded as resolve_start does
        try {
          parse_state(*t.start, board);
        } catch (const InputError& e) {
          throw InputError(About::start, e.detail + " (named tiles need --goal with the same names)");
        }
      }
      throw InputError(About::start, "named tiles need a goal with the same names (--goal), and the blank as 0, _ "
                                     "or . or named with --blank");
    }
    LabelledPair lp = parse_labelled_pair(*t.start, t.goal, board, t.blank);
    p.board = lp.start.board;
    p.start = lp.start;
    p.goal = lp.goal;
    p.labels = std::move(lp.labels);
    return p;
  }
  if (t.start) {
    try {
      p.start = parse_state(*t.start, board);
    } catch (const InputError& e) {
      throw InputError(About::start, e.detail);
    }
    board = p.start->board;
  }
  if (!t.goal.empty()) {
    try {
      p.goal = parse_state(t.goal, board);
    } catch (const InputError& e) {
      throw InputError(About::goal, e.detail);
    }
    board = p.goal.board;
  } else {
    const Board b = board.value_or(Board(3, 3));
    p.goal = canonical_goal(b, b.cells() - 1);
  }
  p.board = p.goal.board;
  return p;
}

// ---- START arguments and files of states ----

namespace {

bool is_state(std::string_view text, const std::optional<Board>& board) {
  try {
    parse_state(text, board);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

std::size_t token_count(std::string_view line) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < line.size();) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == ',' || line[i] == ';' || line[i] == '/')) ++i;
    if (i == line.size()) break;
    ++n;
    while (i < line.size() && !(line[i] == ' ' || line[i] == '\t' || line[i] == ',' || line[i] == ';' || line[i] == '/')) ++i;
  }
  return n;
}

// Whether a block's first line is a whole state (start, then the goal on the next line) rather
// than the first row of one: it parses as a state, or it names its tiles (letters) and the block
// is two lines of the same full tile count.
bool whole_state(const std::vector<std::string_view>& lines, const std::optional<Board>& board) {
  if (is_state(lines[0], board)) return true;
  if (lines.size() != 2 || !has_labels(lines[0])) return false;
  const std::size_t n = token_count(lines[0]);
  if (n != token_count(lines[1])) return false;
  if (board) return n == static_cast<std::size_t>(board->cells());
  for (std::size_t k = 2; k * k <= kMaxBoardCells; ++k)
    if (k * k == n) return true;
  return false;
}

std::string join_rows(const std::vector<std::string_view>& rows) {
  std::string s;
  for (const auto r : rows) {
    s += r;
    s += '\n';
  }
  return s;
}

// Whether a START argument that is no state and no file reads as a file's name rather than as a
// state: it starts as a path does ('/', "./", "../", '~'), or its parts between '/' could not be
// the rows of one state: a part is empty, or the parts are of unequal sizes (tiles, or characters
// of a row written without separators): "puzzles/start.txt", not "123/456/780" or "A B/C _".
bool path_like(std::string_view arg) {
  if (arg.starts_with('/') || arg.starts_with("./") || arg.starts_with("../") || arg.starts_with('~')) return true;
  if (arg.find('/') == std::string_view::npos) return false;
  std::optional<std::size_t> size;
  for (std::size_t from = 0;;) {
    const std::size_t to = std::min(arg.find('/', from), arg.size());
    const std::string_view part = arg.substr(from, to - from);
    std::size_t n = token_count(part);
    if (n == 1)  // a row without separators: its characters (UTF-8 ones, not bytes)
      n = static_cast<std::size_t>(std::count_if(part.begin(), part.end(), [](char c) {
        return c != ' ' && c != '\t' && c != ',' && c != ';' && (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      }));
    if (n == 0 || (size && *size != n)) return true;
    size = n;
    if (to == arg.size()) return false;
    from = to + 1;
  }
}

}  // namespace

StateTexts split_states(const InputText& input, const std::optional<Board>& board) {
  // Blocks of content lines separated by blank lines.
  struct Block {
    std::vector<std::string_view> lines;
    std::vector<std::uint64_t> numbers;
  };
  std::vector<Block> blocks;
  bool open = false;
  LineReader reader(input.text);
  std::string_view line;
  std::uint64_t no = 0;
  while (reader.next(line, no)) {
    if (blank_line(line)) {
      open = false;
      continue;
    }
    if (!open) blocks.emplace_back();
    open = true;
    blocks.back().lines.push_back(line);
    blocks.back().numbers.push_back(no);
  }
  auto extra = [&](std::uint64_t at) {
    return InputError(About::file, "unexpected text after the start and the goal (a file holds a start and at most a goal)",
                      input.name, at);
  };
  if (blocks.empty()) throw InputError(About::file, "no state in it", input.name);
  StateTexts t;
  const Block& first = blocks[0];
  t.start_line = first.numbers[0];
  // A first line that is a whole state is the start, and the next line the goal; otherwise the
  // first block is the start's rows.
  if (first.lines.size() >= 2 && whole_state(first.lines, board)) {
    if (first.lines.size() > 2) throw extra(first.numbers[2]);
    if (blocks.size() > 1) throw extra(blocks[1].numbers[0]);
    t.start = std::string(first.lines[0]);
    t.goal = std::string(first.lines[1]);
    t.goal_line = first.numbers[1];
    return t;
  }
  t.start = join_rows(first.lines);
  if (blocks.size() > 2) throw extra(blocks[2].numbers[0]);
  if (blocks.size() == 2) {
    t.goal = join_rows(blocks[1].lines);
    t.goal_line = blocks[1].numbers[0];
  }
  return t;
}

StartArg resolve_start(const std::string& arg, const std::optional<Board>& board, bool labelled_tiles) {
  if (arg == "-") {
    StartArg s;
    s.source = "standard input";
    s.texts = split_states(read_input(arg), board);
    return s;
  }
  StartArg literal;
  literal.texts.start = arg;
  std::string why_not_state;
  try {
    parse_state(arg, board);
    return literal;
  } catch (const InputError& e) {
    why_not_state = e.detail;
  }
  std::error_code ec;
  const auto status = std::filesystem::status(arg, ec);
  if (!ec && std::filesystem::exists(status)) {
    StartArg s;
    s.source = arg;
    s.texts = split_states(read_input(arg), board);
    return s;
  }
  // Several tokens, or rows, and no such file: a state (named tiles, "B A C / D E F / G H _" with a
  // labelled --goal) or a state with a mistake, worded as such; unless it reads as a path
  // ("./start.txt", "~/puzzles/start.txt", "puzzles/start.txt"): '/' also splits rows.
  const bool several_tokens = arg.find_first_of(" \t,;/\n") != std::string::npos;
  if (several_tokens && !path_like(arg)) {
    if (labelled_tiles && has_labels(arg)) return literal;
    throw InputError(About::start, why_not_state + (has_labels(arg) ? " (named tiles need --goal with the same names)" : ""));
  }
  throw InputError(About::start, "'" + arg + "' is neither a state (" + why_not_state + ") nor a file (no such file)");
}

Problem parse_start_problem(const StartArg& start, ProblemText text) {
  text.start = start.texts.start;
  const bool goal_from_file = text.goal.empty() && start.texts.goal;
  const bool goal_twice = !text.goal.empty() && start.texts.goal;
  if (goal_from_file) text.goal = *start.texts.goal;
  try {
    Problem p = parse_problem(text);
    if (goal_twice) {  // the same goal given twice is fine; two different ones are a mistake
      ProblemText from_file = text;
      from_file.goal = *start.texts.goal;
      std::optional<State> file_goal;
      try {
        file_goal = parse_problem(from_file).goal;
      } catch (const InputError&) {
      }
      if (!file_goal || !(*file_goal == p.goal))
        throw InputError(About::goal, "--goal '" + text.goal + "' and the goal of " + start.source + " (line " +
                                          std::to_string(start.texts.goal_line) + ": '" + *start.texts.goal +
                                          "') differ: give one of them");
    }
    return p;
  } catch (const InputError& e) {
    if (start.source.empty()) throw;
    if (e.about == About::start) throw InputError(About::file, e.what(), start.source, start.texts.start_line);
    if (e.about == About::goal && goal_from_file)
      throw InputError(About::file, e.what(), start.source, start.texts.goal_line);
    throw;
  }
}

// ---- lines ----

namespace {

bool is_sep(char c) { return c == ' ' || c == '\t' || c == ',' || c == ';' || c == '\r'; }
bool is_word_sep(char c) { return c == ' ' || c == '\t' || c == '\r'; }

template <class Pred>
std::vector<std::string_view> split(std::string_view line, Pred sep, bool slash_separates) {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < line.size();) {
    if (sep(line[i]) || (slash_separates && line[i] == '/')) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < line.size() && !sep(line[j]) && !(slash_separates && line[j] == '/')) ++j;
    out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

State parse_as(About about, std::string_view text, const std::optional<Board>& board) {
  try {
    return parse_state(text, board);
  } catch (const InputError& e) {
    throw InputError(about, e.detail);
  }
}

}  // namespace

LinePair parse_line_pair(std::string_view line, const std::optional<Board>& board) {
  const auto tokens = split(line, is_sep, true);
  const std::size_t count = tokens.size();
  if (count == 0) throw InputError("empty line: expected a start and an optional goal");
  // Tiles: N (the start) or 2N (start and goal), N from the board or a square count.
  std::optional<std::size_t> n;
  if (board) {
    n = static_cast<std::size_t>(board->cells());
  } else {
    for (int k = 2; k * k <= kMaxBoardCells; ++k)
      if (count == static_cast<std::size_t>(k * k) || count == static_cast<std::size_t>(2 * k * k))
        n = static_cast<std::size_t>(k * k);
  }
  if (n && count == *n) return LinePair{parse_as(About::start, line, board), std::nullopt};
  if (n && count == 2 * *n) {
    // The start is the text up to the end of its last tile, rows and all; the goal the rest.
    const std::size_t cut = static_cast<std::size_t>(tokens[*n - 1].data() + tokens[*n - 1].size() - line.data());
    LinePair p{parse_as(About::start, line.substr(0, cut), board), std::nullopt};
    p.goal = parse_as(About::goal, line.substr(cut), p.start.board);
    return p;
  }
  // Otherwise one or two words, each a whole state ("123456780 123456780"). A word of separators
  // alone ("123456780 , 123456708", "1230 ,") holds no tile and is no state: it is left out, as the
  // tile count above and run_batch's fast path leave it out.
  auto words = split(line, is_word_sep, false);
  std::erase_if(words, [](std::string_view w) {
    return std::all_of(w.begin(), w.end(), [](char c) { return is_sep(c) || c == '/'; });
  });
  if (words.size() > 2) {
    const std::string expected =
        board ? std::to_string(board->cells()) + " tiles each (" + board->name() + " board)"
              : "N tiles each, N = 4, 9, 16 or 25 (or give --board)";
    throw InputError("expected a start and an optional goal of " + expected + ", got " + std::to_string(count) + " tiles");
  }
  LinePair p{parse_as(About::start, words[0], board), std::nullopt};
  if (words.size() == 2) p.goal = parse_as(About::goal, words[1], p.start.board);
  return p;
}

void require_given_goal(const State& line_goal, const std::optional<State>& given, std::string_view given_name) {
  if (given && !(line_goal == *given))
    throw InputError(About::goal, "'" + line_goal.to_string() + "' differs from " + std::string(given_name) + " '" +
                                      given->to_string() + "': give one of them");
}

}  // namespace tilespace
