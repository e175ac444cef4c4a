// The one problem grammar: how every front end (arguments, start files, standard input, batch
// lines, suite lines, `check` files, HTTP parameters) turns text into a board, a start, a goal
// and the tiles' names.
//
// Vocabulary. A *problem* is a board, an optional start, a goal and the tiles' labels. A *state*
// is written as in state.hpp (N tiles separated by blanks or commas, rows split by '/' or line
// breaks, or one compact token such as 123456780). An *input text* is a file's content or
// standard input ("-"); in every input text a UTF-8 byte-order mark, CRLF line ends, '#'
// comments (to the end of the line) and blank lines are accepted, and anything else that is extra
// is an error naming its line.
//
// Errors are InputErrors that say which input they concern (errors.hpp: start, goal, board, a
// file's line), so the command line and the HTTP API word them without rewriting the message.
// Rows must agree with each other and with a given board.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tilespace/board.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/state.hpp"

namespace tilespace {

// A board option's text ("4x4"); nullopt for the empty text. Throws InputError about the board.
std::optional<Board> parse_board(std::string_view text);

// ---- input texts ----

// The whole content of a file, or of standard input for "-"; `name` is how messages call it
// ("standard input" for -). Throws InputError about the file: cannot be read (with the reason),
// a folder, or not text (a NUL byte).
struct InputText {
  std::string name;
  std::string text;
};
InputText read_input(const std::string& path);

// The content lines of an input text, one at a time and without allocating: the byte-order mark,
// the CR of CRLF and '#' comments removed. Blank lines are returned too (empty after trimming
// blanks), so that callers that care about blocks can see them; `number` is 1-based.
class LineReader {
 public:
  // `first_line`: the number of the text's first line (a chunk of a longer input starts later;
  // only a text that starts the input can start with a byte-order mark).
  explicit LineReader(std::string_view text, std::uint64_t first_line = 1) noexcept;
  // False at the end. `line` points into the text. Inline: it is the line loop of batches.
  bool next(std::string_view& line, std::uint64_t& number) noexcept {
    if (pos_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    number = ++number_;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return true;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::uint64_t number_ = 0;
};

// True when a content line (from LineReader) holds nothing but blanks.
bool blank_line(std::string_view line) noexcept;

// Calls f(line, number) for every line of `text` that holds something (LineReader's lines, blank
// ones skipped): the line loop of every file of one item a line (check, solve --batch, suites).
template <class F>
void for_each_content_line(std::string_view text, F&& f) {
  LineReader reader(text);
  std::string_view line;
  std::uint64_t number = 0;
  while (reader.next(line, number))
    if (!blank_line(line)) f(line, number);
}

// ---- problems ----

struct Problem {
  Board board{3, 3};
  std::optional<State> start;
  State goal;
  Labels labels;  // how to write the tiles: numbers unless the input named them
};

// A problem's texts as a front end received them.
struct ProblemText {
  std::string board;                 // "": taken from the start (or the goal), else 3x3
  std::optional<std::string> start;  // the start state's text, if there is a start
  std::string goal;                  // "": 1..N-1 with the blank last
  std::string blank;                 // the blank's name when tiles are named (letters, words)
};

// Parses a problem. A start or goal with named tiles (a token that is not a number or a blank
// symbol, or a given `blank`) is parsed as a labelled pair (state.hpp) and then needs both.
// Throws InputError about the board, the start or the goal.
Problem parse_problem(const ProblemText& text);

// ---- START arguments and files of states ----

// A start (and maybe a goal) read from an input text: the start on its first line and the goal on
// the next, or the start as rows and the goal as rows after a blank line. `*_line` are the lines
// where the states begin, for messages.
struct StateTexts {
  std::string start;
  std::optional<std::string> goal;
  std::uint64_t start_line = 0, goal_line = 0;
};
// Throws InputError about the file's line that is extra (a third state, text after the goal), or
// about the file when it holds no state. `board` decides whether a first line is a whole state.
StateTexts split_states(const InputText& input, const std::optional<Board>& board);

// What a START argument names: the state it spells, else the file (or "-" for standard input)
// holding the start and maybe the goal. A literal state is never shadowed by a file; an argument
// that is neither gets one error about the start that says both. `labelled`: named tiles are
// expected (a goal or a blank name was given), so text with several tokens is a state.
struct StartArg {
  StateTexts texts;
  std::string source;  // "": the argument itself; else the file's name ("standard input" for -)
};
StartArg resolve_start(const std::string& arg, const std::optional<Board>& board, bool labelled);

// parse_problem for a resolved START: the file's goal is used when `text.goal` is empty, and
// errors in a file's states are reported about the file's line.
Problem parse_start_problem(const StartArg& start, ProblemText text);

// ---- lines of batches, suites and check files ----

// One line's start and optional goal: N tiles (2N for both) separated by blanks, commas or
// semicolons, or one compact token each ("123456780 123456780"), or one blank-separated word each
// with rows split by '/' ("1,2,3/4,5,6/7,8,0"). Without a board it is inferred from the count
// (N or 2N tiles, N square) or from the rows. Throws InputError (about neither start nor goal
// unless it knows which: callers add the line with InputError::at_line).
struct LinePair {
  State start;
  std::optional<State> goal;
};
LinePair parse_line_pair(std::string_view line, const std::optional<Board>& board);

// The one rule for a line's own goal (query --batch, solve --batch, check, POST /api/query), as for
// a start file's: when a goal is given for every line (`given`, which the front end calls
// `given_name`: "--goal"), a line's own goal must be that same state (repeating it is fine);
// otherwise InputError about the goal, which the caller reports as it reports any bad line. Without
// `given` a line's own goal stands.
void require_given_goal(const State& line_goal, const std::optional<State>& given, std::string_view given_name = "--goal");

}  // namespace tilespace
