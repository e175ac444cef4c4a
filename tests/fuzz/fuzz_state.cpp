// Fuzz target: one state's text (state.hpp's parse_state, every spelling), the board option
// (problem.hpp's parse_board, Board::parse) and the batch parser's fast path (query.hpp's
// parse_state_fast), which must agree with the grammar.
//
// Input: byte 0 chooses the board given with the text (0: none; support.hpp's board_from_byte),
// the rest is the text. Bad text must be an InputError; a parsed state must be a permutation on
// the board asked for, read back the same from its printed forms, and the fast path may only
// accept what the grammar accepts, as the same state.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "support.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/query.hpp"
#include "tilespace/state.hpp"

using namespace tilespace;

namespace {

std::optional<State> parse(std::string_view text, const std::optional<Board>& board) {
  try {
    return parse_state(text, board);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

void check_board_option(std::string_view text) {
  std::optional<Board> b;
  try {
    b = parse_board(text);
  } catch (const InputError& e) {
    fuzz::check(e.about == InputError::About::board, "parse_board: an error not about the board");
    fuzz::check(!Board::parse(text), "parse_board refused what Board::parse accepts");
    return;
  }
  if (text.empty()) {
    fuzz::check(!b, "parse_board: a board from the empty text");
    return;
  }
  fuzz::check(b && b->width() >= 2 && b->height() >= 2 && b->cells() <= kMaxBoardCells, "parse_board: board out of range");
  const auto again = Board::parse(b->name());
  fuzz::check(again && *again == *b, "a board does not read back from its name " + b->name());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::optional<Board> board = fuzz::board_from_byte(data[0]);
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  check_board_option(text);

  const std::optional<State> s = parse(text, board);
  const std::optional<State> fast = board ? parse_state_fast(text, *board) : std::nullopt;
  if (!s) {
    fuzz::check(!fast, "parse_state_fast accepted a state that parse_state refuses");
    return 0;
  }
  fuzz::check(fuzz::valid_state(*s), "parse_state returned an invalid state");
  if (board) fuzz::check(s->board == *board, "parse_state returned a state of another board");
  if (fast) fuzz::check(*fast == *s && fast->blank == s->blank, "parse_state_fast and parse_state disagree");
  fuzz::check(!has_labels(text), "a numeric state has labels");

  // The printed forms read back as the same state.
  const std::optional<State> back = parse(s->to_string(), s->board);
  fuzz::check(back && *back == *s && back->blank == s->blank, "to_string does not read back: " + s->to_string());
  if (s->board.width() == s->board.height()) {
    const std::optional<State> inferred = parse(s->to_string(), std::nullopt);
    fuzz::check(inferred && *inferred == *s, "a square state does not read back without its board");
  }
  if (s->cells() <= 10) {
    const std::optional<State> compact = parse(s->compact(), s->board);
    fuzz::check(compact && *compact == *s, "compact() does not read back: " + s->compact());
  }
  const std::optional<State> fast_back = parse_state_fast(s->to_string(), s->board);
  fuzz::check(fast_back && *fast_back == *s, "parse_state_fast does not read to_string back");
  return 0;
}
