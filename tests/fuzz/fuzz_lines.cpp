// Fuzz target: lines of batches and suites (problem.hpp's parse_line_pair) and the batch query
// engine (query.hpp's run_batch), whose allocation-free fast path must answer exactly what the
// grammar and the distance table answer, line for line, in order.
//
// Input: byte 0 chooses the board (bits 0-2: 2x2, 2x3, 3x2, 2x4, 4x2, 3x3), JSON output (bit 3)
// and a default goal with the blank on cell byte 1 (bit 4; else the blank last); the rest is the
// batch text. Each line is also parsed without a board (the board inferred from the tiles): a
// parsed pair must be valid and read back the same from its printed form. The tables are built
// once per process into the scratch folder.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "support.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/problem.hpp"
#include "tilespace/query.hpp"
#include "tilespace/table_store.hpp"

using namespace tilespace;

namespace {

TableStore& store() {
  static TableStore s([] {
    StoreOptions o;
    o.dir = fuzz::scratch_dir() / "tables";
    o.bfs.threads = 1;
    o.max_auto_build_seconds = std::numeric_limits<double>::infinity();
    return o;
  }());
  return s;
}

// run_batch skips the lines without a tile token (its separators: blanks, commas, semicolons, '/').
bool no_tokens(std::string_view line) {
  for (const char c : line)
    if (c != ' ' && c != '\t' && c != ',' && c != '/' && c != '\r' && c != ';') return false;
  return true;
}

void check_pair_without_board(std::string_view line) {
  LinePair p;
  try {
    p = parse_line_pair(line, std::nullopt);
  } catch (const InputError&) {
    return;
  }
  fuzz::check(fuzz::valid_state(p.start), "parse_line_pair: invalid start");
  std::string again = p.start.to_string();
  if (p.goal) {
    fuzz::check(fuzz::valid_state(*p.goal) && p.goal->board == p.start.board, "parse_line_pair: invalid goal");
    again += "  " + p.goal->to_string();
  }
  try {
    const LinePair q = parse_line_pair(again, p.start.board);
    fuzz::check(q.start == p.start && q.goal == p.goal, "a line pair does not read back: " + again);
  } catch (const InputError& e) {
    fuzz::fail("a line pair does not read back: " + again + ": " + e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  static const Board kBoards[] = {Board(2, 2), Board(2, 3), Board(3, 2), Board(2, 4), Board(4, 2), Board(3, 3)};
  const Board& board = kBoards[(data[0] & 7u) % 6];
  const bool json = data[0] & 8u;
  const State default_goal = canonical_goal(board, (data[0] & 16u) ? data[1] % board.cells() : board.cells() - 1);
  const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);

  // What every line must give: the grammar's pair and the table's distance, or an error.
  std::vector<std::string> expected;
  std::vector<std::uint64_t> error_lines, numbers;  // the input lines of the errors, of every answer
  LineReader lines(text);
  std::string_view line;
  std::uint64_t no = 0;
  while (lines.next(line, no)) {
    check_pair_without_board(line);
    if (no_tokens(line)) continue;
    try {
      const LinePair p = parse_line_pair(line, board);
      fuzz::check(p.start.board == board && (!p.goal || p.goal->board == board), "parse_line_pair: another board");
      const State goal = p.goal.value_or(default_goal);
      const auto d = store().table(board, goal.blank).distance(p.start, goal);
      // JSON answers carry the input's line number.
      const std::string line_field = ",\"line\":" + std::to_string(no) + "}";
      expected.push_back(d ? (json ? "{\"length\":" + std::to_string(*d) + line_field : std::to_string(*d))
                           : (json ? "{\"length\":null" + line_field : "unreachable"));
    } catch (const InputError&) {
      expected.push_back(json ? "{\"error\":" : "error: ");  // then the message
      error_lines.push_back(no);
    }
    numbers.push_back(no);
  }

  BatchOptions options;
  options.goal = default_goal;
  options.json = json;
  std::string out;
  std::ostringstream err;
  const BatchStats stats = run_batch(store(), text, out, err, options);

  std::vector<std::string_view> got;
  for (std::size_t at = 0; at < out.size();) {
    const std::size_t end = out.find('\n', at);
    fuzz::check(end != std::string::npos, "run_batch: an output line without its line end");
    got.push_back(std::string_view(out).substr(at, end - at));
    at = end + 1;
  }
  fuzz::check(got.size() == expected.size(), "run_batch: " + std::to_string(got.size()) + " answers for " +
                                                 std::to_string(expected.size()) + " lines");
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool error = expected[i].rfind("{\"error\":", 0) == 0 || expected[i] == "error: ";
    const std::string line_field = ",\"line\":" + std::to_string(numbers[i]) + "}";
    const bool line_ok = !json || (got[i].size() >= line_field.size() &&
                                   got[i].substr(got[i].size() - line_field.size()) == line_field);
    fuzz::check(error ? got[i].rfind(expected[i], 0) == 0 && got[i].size() > expected[i].size() && line_ok
                      : got[i] == expected[i],
                "run_batch answered '" + std::string(got[i]) + "' where the grammar and the table give '" + expected[i] +
                    "' (answer " + std::to_string(i + 1) + ")");
  }
  fuzz::check(stats.lines == no, "run_batch: counted " + std::to_string(stats.lines) + " lines of " + std::to_string(no));
  fuzz::check(stats.errors == error_lines.size() && stats.answered + stats.unreachable + stats.errors == got.size(),
              "run_batch: the counts do not add up");
  // One message a bad line, naming it.
  const std::string messages = err.str();
  std::size_t at = 0;
  for (const std::uint64_t e : error_lines) {
    const std::string where = "tilespace: error: input line " + std::to_string(e) + ": ";
    fuzz::check(messages.compare(at, where.size(), where) == 0, "run_batch: no message for line " + std::to_string(e));
    const std::size_t end = messages.find('\n', at);
    fuzz::check(end != std::string::npos, "run_batch: a message without its line end");
    at = end + 1;
  }
  fuzz::check(at == messages.size(), "run_batch: more messages than bad lines");
  return 0;
}
