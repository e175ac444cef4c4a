// The English and Chinese texts of the command (messages.hpp).
#include "cli/messages.hpp"

#include <cstdio>
#include <map>
#include <regex>
#include <utility>
#include <vector>

namespace tilespace::cli {

namespace {

// Fixed texts: English -> Chinese.
const std::map<std::string, std::string>& fixed() {
  static const std::map<std::string, std::string> m{
      {"unreachable", "目标状态不可达"},
      {"ok", "通过"},
      {"FAILED", "失败"},
      {"malformed", "格式错误"},
      {"board", "棋盘"},
      {"goal", "目标"},
      {"states", "状态数"},
      {"radius", "半径"},
      {"mean", "平均"},
      {"depth", "深度"},
      {"instance", "实例"},
      {"solver", "求解器"},
      {"length", "长度"},
      {"optimal", "最优"},
      {"expanded", "扩展"},
      {"generated", "生成"},
      {"peak KiB", "内存峰值 KiB"},
      {"seconds", "秒"},
      {"optimal?", "最优?"},
      {"longer", "更长"},
      {"excess", "多余步数"},
      {"failed", "失败"},
      {"stopped", "停止"},
      {"yes", "是"},
      {"no", "否"},
      {"none", "无"},
      {"verified: every path legal, every optimal solver optimal", "验证通过：每条路径合法，每个最优求解器都给出最优解"},
      {"verification FAILED", "验证失败"},
      {"states at the radius", "半径处的状态"},
      {"radius by goal blank cell:", "各目标空格位置的半径："},
      {"blank classes (one table serves each):", "空格类（每类由一张表回答）："},
      {"longest optimal solution between any two states:", "任意两状态间最长的最优解："},
      {"error", "错误"},
      {"illegal-move", "非法移动"},
      {"wrong-end", "终点错误"},
      {"wrong-length", "长度错误"},
      {"unreachable-missed", "未识别不可达"},
      {"falsely-unreachable", "误判不可达"},
      {"undecided", "未判定"},
      {"file error", "文件错误"},
      {"out of resources", "资源不足"},
  };
  return m;
}

// Known library error forms: English pattern -> Chinese replacement ($1.. are the groups).
const std::vector<std::pair<std::regex, std::string>>& error_forms() {
  static const std::vector<std::pair<std::regex, std::string>> forms = [] {
    const std::vector<std::pair<const char*, const char*>> raw{
        {"expected (\\d+) tiles for a (\\S+) board, got (\\d+)", "$2 棋盘需要 $1 个数，得到 $3 个"},
        {"tile (\\d+) appears twice", "数字 $1 出现了两次"},
        {"tile '(.*)' appears twice", "棋子 '$1' 出现了两次"},
        {"the blank appears twice", "空格出现了两次"},
        {"unknown symbol '(.*)': tiles are numbers, the blank is 0, _ or \\.", "未知符号 '$1'：棋子用数字表示，空格写作 0、_ 或 ."},
        {"tile (\\d+) does not fit a (\\S+) board \\(tiles 1-(\\d+) and a blank\\)", "数字 $1 超出 $2 棋盘（棋子 1-$3 和一个空格）"},
        {"rows of unequal length \\((.*) tiles\\)", "各行长度不一致（分别为 $1 个）"},
        {"(\\d+) rows of (\\d+) tiles do not fit a (\\S+) board \\((\\d+) rows of (\\d+)\\)", "$1 行、每行 $2 个，与 $3 棋盘（$4 行、每行 $5 个）不符"},
        {"cannot tell the board from (\\d+) tiles: give --board WxH \\(at most (\\d+) cells\\)", "无法从 $1 个数推断棋盘：请用 --board WxH 指定（最多 $2 格）"},
        {"empty state: expected tiles such as '(.*)'", "状态为空：应写作 '$1' 这样的数字"},
        {"'(.*)' is neither a state \\((.*)\\) nor a file \\(no such file\\)", "'$1' 既不是状态（$2），也不是文件（文件不存在）"},
        {"does not apply to (\\S+) \\(it takes no heuristic\\)", "不适用于 $1（它不使用启发函数）"},
        {"does not apply to (\\S+)", "不适用于 $1"},
        {"does not apply with (\\S+)", "不能与 $1 同用"},
        {"applies with (\\S+)", "只能与 $1 同用"},
        {"applies only when a trace is recorded", "只在记录搜索树（--trace）时适用"},
        {"pattern databases run with idastar, not (\\S+)", "模式数据库只能与 idastar 同用，不能用于 $1"},
        {"must be a whole number from (\\S+) to (\\S+), not '(.*)'( \\(too large\\))?", "必须是 $1 到 $2 之间的整数，而不是 '$3'"},
        {"must be a number above (\\S+) and at most (\\S+), not '(.*)'", "必须是大于 $1、不超过 $2 的数，而不是 '$3'"},
        {"must be a number from (\\S+) to (\\S+), not '(.*)'", "必须是 $1 到 $2 之间的数，而不是 '$3'"},
        {"unknown algorithm '(.*)' \\((.*)\\)", "未知算法 '$1'（可用：$2）"},
        {"unknown heuristic '(.*)' \\((.*)\\)", "未知启发函数 '$1'（可用：$2）"},
        {"cannot read: (.*)", "无法读取：$1"},
        {"is a folder, not a file", "是文件夹，不是文件"},
        {"no state in it", "其中没有状态"},
        {"no answers in it", "其中没有答案"},
        {"unexpected text after the start and the goal.*", "初始状态和目标状态之后有多余的内容（文件最多包含初始状态和目标状态）"},
        {"bad board '(.*)': expected WxH with 2 <= W, H and W\\*H <= (\\d+)", "棋盘 '$1' 无效：应为 WxH，2 <= W, H，且 W*H <= $2"},
        {"expected START<TAB>GOAL<TAB>ANSWER.*", "应为 初始状态<TAB>目标状态<TAB>答案（三个字段以制表符分隔；目标状态可以为空）"},
        {"(.*) \\(character (\\d+)\\) is not a move: .*", "第 $2 个字符 $1 不是移动：答案应为移动（U、D、L、R）、长度或 'unreachable'"},
        {"(.*) \\(character (\\d+)\\) is not a digit: .*", "第 $2 个字符 $1 不是数字：答案应为移动（U、D、L、R）、长度或 'unreachable'"},
        {"the length (\\d+) is above (\\d+)", "长度 $1 超过 $2"},
        {"query needs a START state \\(or - for standard input\\) or --batch FILE", "query 需要初始状态 START（或用 - 表示标准输入）或 --batch FILE"},
        {"give either START or --batch FILE, not both", "START 与 --batch FILE 只能给出一个"},
        {"named tiles need --goal with the same names", "带名字的棋子需要用 --goal 给出同样名字的目标状态"},
        {"the move automaton serves every board", "移动自动机适用于所有棋盘"},
        {"build one at a time", "请分别构建"},
        {"it has no BFS engine", "它不使用广度优先搜索引擎"},
        {"only two-bit table builds take checkpoints", "只有两位距离表的构建才保存检查点"},
        {"the build runs on one thread", "构建只用一个线程"},
        {"(.*): write failed: (.*)", "$1：写入失败：$2"},
        {"(.*): cannot write: no folder (.*)", "$1：无法写入：文件夹 $2 不存在"},
    };
    std::vector<std::pair<std::regex, std::string>> out;
    for (const auto& [en, zh] : raw) out.emplace_back(std::regex(en), zh);
    return out;
  }();
  return forms;
}

std::string translate_detail(const std::string& en) {
  for (const auto& [re, zh] : error_forms()) {
    std::smatch m;
    if (std::regex_match(en, m, re)) {
      std::string out = m.format(zh);
      // A nested reason ("neither a state (REASON) nor a file") is translated as well.
      if (m.size() > 2 && zh.find("既不是状态") != std::string::npos) {
        const std::string inner = m[2].str();
        const std::string inner_zh = translate_detail(inner);
        if (const auto at = out.find(inner); at != std::string::npos) out.replace(at, inner.size(), inner_zh);
      }
      return out;
    }
  }
  // "… (named tiles need --goal …)" and other composed forms: translate the parts we know.
  const auto paren = en.rfind(" (");
  if (paren != std::string::npos && en.back() == ')') {
    const std::string head = translate_detail(en.substr(0, paren));
    const std::string tail = translate_detail(en.substr(paren + 2, en.size() - paren - 3));
    if (head != en.substr(0, paren) || tail != en.substr(paren + 2, en.size() - paren - 3)) return head + "（" + tail + "）";
  }
  return en;
}

std::string subject_zh(const InputError& e) {
  using About = InputError::About;
  switch (e.about) {
    case About::start: return "初始状态";
    case About::goal: return "目标状态";
    case About::board: return "--board";
    case About::option: return "--" + e.name;
    case About::file: {
      const std::string name = e.name == "standard input" ? "标准输入" : e.name;
      return e.line ? name + " 第 " + std::to_string(e.line) + " 行" : name;
    }
    default: return "";
  }
}

}  // namespace

std::size_t display_width(const std::string& text) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    w += len >= 3 ? 2 : 1;  // three- and four-byte sequences here are CJK or full-width forms
    i += len;
  }
  return w;
}

std::string pad(const std::string& text, std::size_t width, bool right) {
  const std::size_t w = display_width(text);
  const std::string fill(width > w ? width - w : 0, ' ');
  return right ? fill + text : text + fill;
}

std::string Messages::get(const std::string& en) const {
  if (!zh_) return en;
  const auto it = fixed().find(en);
  return it == fixed().end() ? en : it->second;
}

std::string Messages::moves(long long n) const {
  if (zh_) return std::to_string(n) + " 步";
  return std::to_string(n) + (n == 1 ? " move" : " moves");
}

std::string Messages::line_no(std::uint64_t n) const {
  return zh_ ? "第 " + std::to_string(n) + " 行：" : "line " + std::to_string(n) + ": ";
}

std::string Messages::optimal_length(int n) const {
  return zh_ ? "最少移动" + std::to_string(n) + "步到达目标状态" : std::to_string(n);
}

std::string Messages::solved(int n, bool optimal, const std::string& moves_text) const {
  if (zh_) return std::string(optimal ? "最少" : "") + "移动" + std::to_string(n) + "步到达目标状态\n" + moves_text;
  return moves(n) + ": " + moves_text;
}

std::string Messages::stopped(const std::string& option, const std::string& value) const {
  const std::string opt = "--" + option + (value.empty() ? "" : " " + value);
  return zh_ ? "找到解之前因 " + opt + " 而停止" : "stopped by " + opt + " before a solution was found";
}

std::string Messages::search_statistics(const std::string& algorithm, const std::string& heuristic,
                                        unsigned long long expanded, unsigned long long generated,
                                        unsigned long long peak_open, unsigned long long closed, double kib,
                                        double seconds) const {
  char b[512];
  if (zh_) {
    std::snprintf(b, sizeof b, "算法 %s%s%s：扩展 %llu 个结点，生成 %llu 个，OPEN 峰值 %llu，CLOSED %llu，内存峰值 %.1f KiB，%.6f 秒",
                  algorithm.c_str(), heuristic.empty() ? "" : "，启发函数 ", heuristic.c_str(), expanded, generated,
                  peak_open, closed, kib, seconds);
  } else {
    std::snprintf(b, sizeof b,
                  "algorithm %s%s%s: expanded %llu, generated %llu, peak open %llu, closed %llu, peak memory %.1f KiB, %.6f s",
                  algorithm.c_str(), heuristic.empty() ? "" : ", heuristic ", heuristic.c_str(), expanded, generated,
                  peak_open, closed, kib, seconds);
  }
  return b;
}

std::string Messages::step_label(std::size_t i, std::size_t last) const {
  const std::string n = std::to_string(i);
  if (i == 0) return n + (zh_ ? "（初始）" : " (start)");
  if (i == last) return n + (zh_ ? "（目标）" : " (goal)");
  return n;
}

std::string Messages::automaton_level(int level, std::uint64_t kept, std::uint64_t forbidden, double seconds) const {
  char b[160];
  if (zh_)
    std::snprintf(b, sizeof b, "  长度 %3d  保留 %13llu 个  禁止 %9llu 个  %8.2f 秒", level,
                  static_cast<unsigned long long>(kept), static_cast<unsigned long long>(forbidden), seconds);
  else
    std::snprintf(b, sizeof b, "  length %3d  %13llu kept  %9llu forbidden  %8.2f s", level,
                  static_cast<unsigned long long>(kept), static_cast<unsigned long long>(forbidden), seconds);
  return b;
}

std::string Messages::automaton_summary(bool built, const std::string& file, int depth, std::size_t states,
                                        std::uint64_t forbidden, double plain4, double fsm4, double plain5, double fsm5,
                                        double seconds) const {
  char b[320];
  if (zh_)
    std::snprintf(b, sizeof b,
                  "%s %s：深度 %d，%zu 个状态，%llu 个禁止串；有效分支因子 4x4 %.4f -> %.4f，5x5 %.4f -> %.4f；%.2f 秒",
                  built ? "已构建" : "已是最新", file.c_str(), depth, states, static_cast<unsigned long long>(forbidden),
                  plain4, fsm4, plain5, fsm5, seconds);
  else
    std::snprintf(b, sizeof b,
                  "%s %s: depth %d, %zu states, %llu forbidden strings; branching factor 4x4 %.4f -> %.4f, "
                  "5x5 %.4f -> %.4f; %.2f s",
                  built ? "built" : "up to date:", file.c_str(), depth, states, static_cast<unsigned long long>(forbidden),
                  plain4, fsm4, plain5, fsm5, seconds);
  return b;
}

std::string Messages::describe(const LineVerdict& v, const State& goal) const {
  if (!zh_) return tilespace::describe(v, goal);
  switch (v.verdict) {
    case Verdict::ok:
      if (v.answered < 0) return "正确：目标状态不可达";
      return "最优（" + moves(v.answered) + "）";
    case Verdict::illegal_move:
      return "第 " + std::to_string(v.step) + " 步：'" + std::string(1, v.move) + "' 使空格移出棋盘";
    case Verdict::wrong_end:
      return moves(v.answered) + "后停在 " + v.end.to_string() + "，不是目标状态 " + goal.to_string();
    case Verdict::longer:
      return moves(v.answered) + "，比最优的 " + moves(v.optimal) + "多 " + std::to_string(v.answered - v.optimal) + " 步";
    case Verdict::wrong_length:
      return "声称 " + moves(v.answered) + "，最优为 " + moves(v.optimal);
    case Verdict::unreachable_missed:
      return "目标状态从初始状态不可达，但答案不是 'unreachable'";
    case Verdict::falsely_unreachable:
      return v.optimal >= 0 ? "答案为 'unreachable'，但最优解为 " + moves(v.optimal) : "答案为 'unreachable'，但目标状态可达";
    case Verdict::undecided:
      return "在限制内未能证明最优长度（答案 " + moves(v.answered) + "）";
  }
  return "";
}

std::string Messages::check_summary(std::uint64_t lines, std::uint64_t passed, std::uint64_t failed,
                                    std::uint64_t undecided, std::uint64_t malformed, const std::string& kinds, std::uint64_t excess,
                                    double seconds) const {
  char b[160];
  std::snprintf(b, sizeof b, "%.3f", seconds);
  if (zh_)
    return "检查 " + std::to_string(lines) + " 行：通过 " + std::to_string(passed) + "，失败 " + std::to_string(failed) +
           (kinds.empty() ? "" : "（" + kinds + "）") + (undecided ? "，未判定 " + std::to_string(undecided) : "") +
           "，格式错误 " + std::to_string(malformed) + "；共多出 " +
           moves(static_cast<long long>(excess)) + "；" + b + " 秒";
  auto n = [](std::uint64_t k, const char* one, const char* many) { return std::to_string(k) + " " + (k == 1 ? one : many); };
  return "checked " + n(lines, "line", "lines") + ": " + std::to_string(passed) + " passed, " + std::to_string(failed) +
         " failed" + (kinds.empty() ? "" : " (" + kinds + ")") +
         (undecided ? ", " + std::to_string(undecided) + " undecided" : "") + ", " + std::to_string(malformed) + " malformed; " +
         moves(static_cast<long long>(excess)) + " in excess in all; " + b + " s";
}

std::string Messages::error(const std::exception& e) const {
  if (!zh_) return e.what();
  if (const auto* ie = dynamic_cast<const InputError*>(&e)) {
    // A file's line may carry an inner subject ("start: ..."): translate that too.
    std::string detail = ie->detail;
    std::string inner;
    if (detail.rfind("start: ", 0) == 0) inner = "初始状态", detail = detail.substr(7);
    else if (detail.rfind("goal: ", 0) == 0) inner = "目标状态", detail = detail.substr(6);
    else if (detail.rfind("answer: ", 0) == 0) inner = "答案", detail = detail.substr(8);
    std::string out = translate_detail(detail);
    if (!inner.empty()) out = inner + "：" + out;
    const std::string subject = subject_zh(*ie);
    return subject.empty() ? out : subject + "：" + out;
  }
  return translate_detail(e.what());
}

}  // namespace tilespace::cli
