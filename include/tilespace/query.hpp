// Batch queries: many "START [GOAL]" lines answered from the distance tables.
//
// Each line holds a start and optionally a goal on the batch's board, in the grammar of
// problem.hpp (parse_line_pair): N (or 2N) tiles separated by blanks or commas, rows split by '/',
// or one (or two) compact tokens such as 123456780. A byte-order mark, CRLF, '#' comments and
// blank lines are accepted. A line is parsed without allocation on the common forms
// (parse_state_fast); anything else, and every error, goes through parse_line_pair.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "tilespace/table_store.hpp"

namespace tilespace {

// A searched line's answer (BatchOptions::search): the length, or why the search gave none.
struct SearchedAnswer {
  int length = -1;       // -1: not decided (a limit stopped the search)
  std::string stopped;   // then: the limit's name ("max-seconds"), as solve's JSON names it
  std::string message;   // then: the line printed in plain text ("stopped by --max-seconds 5 ...")
};

struct BatchOptions {
  State goal;         // used for lines without a goal; also fixes the board
  // `goal` was given for every line (--goal): a line with a goal of its own must repeat it
  // (problem.hpp require_given_goal; `goal_name` names it in the message), else the line is bad.
  // False: `goal` is the default one, and a line's own goal stands.
  bool goal_given = false;
  std::string goal_name = "--goal";
  bool json = false;  // {"length":n} per line instead of n / unreachable
  std::uint64_t first_line = 1;  // number of the first line of `input`, for messages
  std::string name = "input";    // the input's name in messages ("pairs.txt line 7: ...")
  std::mutex* store_mutex = nullptr;  // guards `store` when several run_batch calls share it
  // Where the tables come from, if not `store` (TableStore::goal): the server's, which loads tables
  // but builds only small ones, and refuses (throws) the others. Called once per goal blank a batch
  // meets.
  std::function<const GoalTable&(const Board&, int goal_blank)> table_source;
  // On boards where no exact table can exist (table_can_exist: 4x4, 5x5) each reachable line is
  // answered by this (the board's default optimal search, from several threads at once); without
  // it such a board is refused before any line is read.
  std::function<SearchedAnswer(const State& start, const State& goal)> search;
};

struct BatchStats {
  std::uint64_t lines = 0, answered = 0, unreachable = 0, errors = 0;
  std::uint64_t stopped = 0;  // searched lines a limit stopped
};

// Answers every line of `input`, appending one output line per query line to `out` (comment and
// blank lines give none): the length, or "unreachable"; in JSON {"length":n,"line":L} with L the
// input's line number (null length: unreachable). A bad line (a wrong tile count included, such as
// a 25-tile line on a smaller board) gives "error: MESSAGE" (JSON: {"error":MESSAGE,"line":L}) and
// the message with its line number on `err`. A searched line (options.search) that a limit stopped
// gives the search's message (JSON: {"stopped":"max-seconds","line":L}). Without options.search,
// throws before reading any line if no table of the goal's board can exist.
BatchStats run_batch(TableStore& store, std::string_view input, std::string& out, std::ostream& err,
                     const BatchOptions& options);

// Parses one state of `board` (any board, up to kMaxBoardCells cells) from tokens without
// allocating; nullopt if the tokens are not one of the common forms or not a valid state (the
// caller then asks parse_state for the message).
std::optional<State> parse_state_fast(const std::string_view* tokens, int count, const Board& board) noexcept;
// The same over a whole text (tiles separated by blanks, commas or semicolons; rows split by '/'
// are left to the grammar, which checks them: nullopt).
std::optional<State> parse_state_fast(std::string_view text, const Board& board) noexcept;

}  // namespace tilespace
