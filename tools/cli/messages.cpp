// The English and Chinese texts of the command (messages.hpp).
#include "cli/messages.hpp"

#include <cctype>
#include <cstdio>
#include <map>
#include <mutex>
#include <regex>
#include <string_view>
#include <utility>
#include <vector>

#include "app/report.hpp"

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
      {"metric", "计步"},
      {"multi-tile", "多块（一步滑动一行或一列中的一块或多块）"},
      {"depth", "深度"},
      {"instance", "实例"},
      {"solver", "求解器"},
      {"length", "长度"},
      {"optimal", "最优"},
      {"expanded", "扩展"},
      {"generated", "生成"},
      {"peak KiB", "内存峰值 KiB"},
      {"heuristic", "启发函数"},
      {"mean h", "平均 h"},
      {"min h", "最小 h"},
      {"max h", "最大 h"},
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

// The longest run of text that every match of `pattern` (an ECMAScript regular expression, matched
// whole) contains: the literal characters outside any group, a character made optional by the
// quantifier after it left out. Empty when there is none, or when the pattern has an alternative
// (`|`) outside a group.
std::string required_text(const std::string& pattern) {
  std::string best, run;
  int depth = 0;
  auto end_run = [&] {
    if (run.size() > best.size()) best = run;
    run.clear();
  };
  // Whether the atom ending at `i` is made optional or repeated by a quantifier after it.
  auto quantified = [&](std::size_t i) {
    return i + 1 < pattern.size() && std::string_view("?*+{").find(pattern[i + 1]) != std::string_view::npos;
  };
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      const char e = pattern[++i];  // \( and the like are literal; \d, \S and the like are not
      const bool literal = std::string_view("()[]{}.*+?|\\^$-/").find(e) != std::string_view::npos;
      if (depth == 0 && literal && !quantified(i)) run += e;
      else end_run();
    } else if (c == '(') {
      ++depth;
      end_run();
    } else if (c == ')') {
      --depth;
      end_run();
    } else if (c == '[') {
      while (i + 1 < pattern.size() && pattern[i + 1] != ']') i += pattern[i + 1] == '\\' ? 2 : 1;
      ++i;
      end_run();
    } else if (c == '|') {
      if (depth == 0) return "";
    } else if (c == '{') {  // a count: {2} or {2,3}
      while (i + 1 < pattern.size() && pattern[i] != '}') ++i;
      end_run();
    } else if (std::string_view(".^$?*+").find(c) != std::string_view::npos) {
      end_run();
    } else if (depth == 0 && !quantified(i)) {
      run += c;
    } else {
      end_run();
    }
  }
  end_run();
  return best;
}

// One known form: compiled on first use, and only tried on a message that holds its required text
// (std::regex compiles slowly: all of them at once cost 5 ms a command, 190 ms under ASan).
struct ErrorForm {
  std::string en, zh, required;
  mutable std::once_flag compiled;
  mutable std::regex re;

  bool match(const std::string& message, std::smatch& m) const {
    if (message.find(required) == std::string::npos) return false;
    std::call_once(compiled, [this] { re = std::regex(en); });
    return std::regex_match(message, m, re);
  }
};

// Known library error forms: English pattern -> Chinese replacement ($1.. are the groups).
const std::vector<ErrorForm>& error_forms() {
  static const std::vector<ErrorForm> forms = [] {
    const std::vector<std::pair<const char*, const char*>> raw{
        {"expected (\\d+) tiles for a (\\S+) board, got (\\d+)", "$2 棋盘需要 $1 个数，得到 $3 个"},
        {"tile (\\d+) appears twice", "数字 $1 出现了两次"},
        {"tile '(.*)' appears twice", "棋子 '$1' 出现了两次"},
        {"the blank appears twice", "空格出现了两次"},
        {"unknown symbol '(.*)': tiles are numbers, the blank is 0, _ or \\.", "未知符号 '$1'：棋子用数字表示，空格写作 0、_ 或 ."},
        {"tile (\\d+) does not fit a (\\S+) board \\(tiles 1-(\\d+) and a blank\\)", "数字 $1 超出 $2 棋盘（棋子 1-$3 和一个空格）"},
        {"rows of unequal length \\((.*) tiles\\)", "各行长度不一致（分别为 $1 个）"},
        {"(\\d+) rows of (\\d+) tiles? do not fit a (\\S+) board \\((\\d+) rows of (\\d+)\\)", "$1 行、每行 $2 个，与 $3 棋盘（$4 行、每行 $5 个）不符"},
        {"cannot tell the board from (\\d+) tiles?: give --board WxH \\(at most (\\d+) cells\\)", "无法从 $1 个数推断棋盘：请用 --board WxH 指定（最多 $2 格）"},
        {"empty state: expected tiles such as '(.*)'", "状态为空：应写作 '$1' 这样的数字"},
        {"'(.*)' is neither a state \\((.*)\\) nor a file \\(no such file\\)", "'$1' 既不是状态（$2），也不是文件（文件不存在）"},
        {"'(.*)' differs from --goal '(.*)': give one of them", "'$1' 与 --goal '$2' 不同：请只给出其中一个"},
        {"empty value: give a value or leave the option out", "取值为空：请给出取值，或去掉这个选项"},
        {"reading the start state from standard input \\(Ctrl-D to end\\)", "正在从标准输入读取初始状态（按 Ctrl-D 结束）"},
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
        {"cannot read", "无法读取"},
        {"not a text file", "不是文本文件"},
        {"no instances( in it)?", "其中没有实例"},
        {"no queries in it", "其中没有查询"},
        {"is a folder, not a file", "是文件夹，不是文件"},
        {"no state in it", "其中没有状态"},
        {"no answers in it", "其中没有答案"},
        {"unexpected text after the start and the goal.*", "初始状态和目标状态之后有多余的内容（文件最多包含初始状态和目标状态）"},
        {"bad board '(.*)': expected WxH with 2 <= W, H and W\\*H <= (\\d+)", "棋盘 '$1' 无效：应为 WxH，2 <= W, H，且 W*H <= $2"},
        {"expected START<TAB>GOAL<TAB>ANSWER.*", "应为 初始状态<TAB>目标状态<TAB>答案（三个字段以制表符分隔；目标状态可以为空）"},
        {"(.*) \\(character (\\d+)\\) is not a move: .*", "第 $2 个字符 $1 不是移动：答案应为移动（U、D、L、R，或带格数：R3）、长度或 'unreachable'"},
        {"(.*) \\(character (\\d+)\\) is not a digit: .*", "第 $2 个字符 $1 不是数字：答案应为移动（U、D、L、R，或带格数：R3）、长度或 'unreachable'"},
        {"the count of move (\\d+) \\(character (\\d+)\\) must be 1 to (\\d+)", "第 $1 步（第 $2 个字符）的格数必须在 1 到 $3 之间"},
        {"(\\S+) counts single-tile moves; in the multi-tile metric use (.*)", "$1 按单块计步；按多块计步时请用 $2"},
        {"prunes single-tile move strings; it does not apply with --metric multi", "只剪除按单块计步的移动序列，不适用于 --metric multi"},
        {"applies with --depth \\(the reachable states are the same in both metrics\\)", "只与 --depth 一起使用（两种计步方式下可达的状态相同）"},
        {"the distance table of (\\S+) counts (\\S+)-tile moves, not (\\S+)-tile ones", "$1 的距离表按 $2 计步，而不是按 $3 计步"},
        {"multi: aidastar counts single-tile moves", "multi：aidastar 按单块计步"},
        {"walking-distance: the (\\S+) board's (row|column) abstraction has more than (\\d+) states.*",
         "walking-distance：$1 棋盘的行或列抽象超过 $3 个状态，请换用其他启发函数"},
        {"walking-distance: takes boards of at most 16 cells whose row and column abstractions pack into 64 bits "
         "\\(3x3, 3x4, 2x6, 4x4\\), not (\\S+)",
         "walking-distance：只适用于不超过 16 格、行列抽象能放进 64 位的棋盘（3x3、3x4、2x6、4x4），不适用于 $1"},
        {"the length (\\d+) is above (\\d+)", "长度 $1 超过 $2"},
        {"query needs a START state \\(or - for standard input\\) or --batch FILE", "query 需要初始状态 START（或用 - 表示标准输入）或 --batch FILE"},
        {"give either START or --batch FILE, not both", "START 与 --batch FILE 只能给出一个"},
        {"named tiles need --goal with the same names", "带名字的棋子需要用 --goal 给出同样名字的目标状态"},
        {"the move automaton serves every board", "移动自动机适用于所有棋盘"},
        {"build one at a time", "请分别构建"},
        {"it has no BFS engine", "它不使用广度优先搜索引擎"},
        {"only two-bit table builds take checkpoints", "只有两位距离表的构建才保存检查点"},
        {"the width of a pattern database is its kind's", "模式数据库的位宽由其种类决定"},
        {"pattern databases are for one goal: give --goal", "模式数据库只对应一个目标：请给出 --goal"},
        {"build one kind at a time", "请一次只构建一种"},
        {"the build runs on one thread", "构建只用一个线程"},
        {"(\\S+): no exact table of (\\S+) can exist \\(query, check and random --depth search each pair with multi-tile "
         "pattern databases\\)",
         "$1：$2 棋盘不可能有精确距离表（query、check 和 random --depth 用多块计步模式数据库逐对搜索）"},
        {"(\\S+): no exact table of (\\S+) can exist, and its multi-tile searches take too long for every pair "
         "\\(solve --metric multi searches one\\)",
         "$1：$2 棋盘不可能有精确距离表，而它的多块计步搜索太慢，无法逐对回答（solve --metric multi 可搜索单个问题）"},
        {"(\\S+): 1 keeps single-tile tables only \\(one bit cannot hold the multi-tile metric's depth mod 3\\); --bits 2 "
         "builds a multi-tile two-bit table",
         "$1：1 位表只保存单块计步的距离（一位存不下多块计步深度模 3 的值）；--bits 2 可构建多块计步的两位表"},
        {"zero-aware databases count single-tile moves; --pdb builds multi-tile ones",
         "零感知数据库按单块计步；--pdb 可构建按多块计步的模式数据库"},
        {"(\\S+) counts multi-tile moves: give --metric multi \\(pattern databases of single-tile moves: pdb, zpdb, "
         "catalogue\\)",
         "$1 按多块计步：请加 --metric multi（按单块计步的模式数据库：pdb、zpdb、catalogue）"},
        {"holds (\\S+)-tile distances, not (\\S+)-tile ones", "存放的是按 $1 计步的距离，而不是按 $2 计步"},
        {"the move automaton prunes single-tile searches", "移动自动机只用于按单块计步的搜索"},
        {"holds a table of the (\\S+)-tile metric, not the (\\S+)-tile", "存放的是按 $1 计步的距离表，而不是按 $2 计步"},
        {"unknown metric (\\d+)", "未知的计步方式 $1"},
        {"a multi-tile metric on a file of kind (\\d+)", "种类 $1 的文件不能按多块计步"},
        {"(.*): write failed: (.*)", "$1：写入失败：$2"},
        {"(.*): cannot write: no folder (.*)", "$1：无法写入：文件夹 $2 不存在"},
        // More of the library's forms (the start, the lines of a file, the options, the files).
        {"a state written without separators has at most (\\d+) cells; separate the (\\d+) tiles with spaces",
         "不带分隔符的状态最多 $1 格；请用空格分隔这 $2 个数"},
        {"expected a start and an optional goal of (\\d+) tiles each \\((\\S+) board\\), got (\\d+) tiles",
         "应为初始状态和可选的目标状态，各 $1 个数（$2 棋盘），得到 $3 个"},
        {"expected a start and an optional goal of N tiles each, N = 4, 9, 16 or 25 \\(or give --board\\), got (\\d+) tiles",
         "应为初始状态和可选的目标状态，各 N 个数（N 为 4、9、16 或 25，或用 --board 指定），得到 $1 个"},
        {"empty line: expected a start and an optional goal", "空行：应为初始状态和可选的目标状态"},
        {"expected a start and a goal", "应为初始状态和目标状态"},
        {"no blank '(.*)'", "没有空格 '$1'"},
        {"no blank \\(write it as 0, _ or \\., or name it with --blank\\)", "没有空格（空格写作 0、_ 或 .，或用 --blank 命名）"},
        {"(?:the )?start and (?:the )?goal are on different boards", "初始状态和目标状态不在同一个棋盘上"},
        {"give either START or --suite FILE, not both", "START 与 --suite FILE 只能给出一个"},
        {"applies where answers are searched \\(4x4, 5x5\\), not on (\\S+), whose answers come from its exact table",
         "只适用于答案需要搜索的棋盘（4x4、5x5），不适用于 $1：它的答案来自精确距离表"},
        {"tile (\\d+) appears twice in pattern '(.*)'", "数字 $1 在模式 '$2' 中出现了两次"},
        {"'(.*)' is a catalogue of (\\d+) partitions: use --heuristic catalogue:(.*)",
         "'$1' 是由 $2 个划分组成的目录：请用 --heuristic catalogue:$3"},
        {"no stock catalogue for the (\\S+) board: join partitions with '\\+', e\\.g\\. --heuristic catalogue:(.*)",
         "$1 棋盘没有预置目录：请用 '+' 连接划分，例如 --heuristic catalogue:$2"},
        {"empty partition in catalogue '(.*)' \\(partitions are joined by '\\+'\\)", "目录 '$1' 中有空划分（划分之间用 '+' 连接）"},
        {"catalogue (\\S+) is for the (\\S+) board, not (\\S+)", "目录 $1 适用于 $2 棋盘，不适用于 $3"},
        {"partition (\\S+) is for the (\\S+) board, not (\\S+)", "划分 $1 适用于 $2 棋盘，不适用于 $3"},
        {"catalogue (\\S+) is joined with no other partition \\('\\+' joins partitions\\)",
         "目录 $1 不能与其他划分连接（'+' 连接的是划分）"},
        {"a catalogue has at most (\\d+) distinct patterns, not (\\d+)", "一个目录最多有 $1 个不同的模式，而不是 $2 个"},
        {"a catalogue has at most (\\d+) partitions, not (\\d+)", "一个目录最多有 $1 个划分，而不是 $2 个"},
        {"(\\S+) works on boards of at most (\\d+) cells; the (\\S+) board has (\\d+) cells: solve it with a search "
         "\\(--algorithm idastar or aidastar\\)",
         "$1 只适用于最多 $2 格的棋盘；$3 棋盘有 $4 格：请用搜索求解（--algorithm idastar 或 aidastar）"},
        {"records one search: give START, not --batch", "只记录一次搜索：请给出 START，而不是 --batch"},
        {"writes one solution: give START, not --batch", "只写出一个解：请给出 START，而不是 --batch"},
        {"plays one solution: give START, not --batch", "只播放一个解：请给出 START，而不是 --batch"},
        // Parenthesised reasons ("does not apply with --batch (one answer a line)").
        {"one answer a line", "每行一个答案"},
        {"JSON lines", "输出为 JSON 行"},
        {"numbered tiles only", "只支持数字棋子"},
        {"each line has its goal", "每行有自己的目标状态"},
        {"not a whole number", "不是整数"},
        {"too large", "太大"},
        {"no such file", "文件不存在"},
        // Files: databases, results, folders.
        {"cannot write: it is a folder", "无法写入：这是一个文件夹"},
        {"cannot create the folder: no folder (.*)", "无法创建文件夹：文件夹 $1 不存在"},
        {"cannot create the folder: a file has that name", "无法创建文件夹：已有同名文件"},
        {"is a file, not a folder", "是文件，不是文件夹"},
        {"'(.*)' is a file, not a folder", "'$1' 是文件，不是文件夹"},
        {"(\\S+) is a file, not a folder", "$1 是文件，不是文件夹"},
        {"cannot create the folder: (.*)", "无法创建文件夹：$1"},
        {"cannot open: (.*)", "无法打开：$1"},
        {"cannot map: (.*)", "无法映射到内存：$1"},
        {"not a regular file", "不是普通文件"},
        {"not a tilespace database \\(bad magic\\)", "不是 tilespace 数据库（文件标识不符）"},
        {"truncated: (\\d+) bytes, expected (\\d+)", "文件被截断：只有 $1 字节，应为 $2 字节"},
        {"truncated: (\\d+) bytes, shorter than the (.*)", "文件被截断：只有 $1 字节"},
        {"unexpected header size", "文件头大小不符"},
        {"header checksum mismatch: the header is corrupt", "文件头校验和不符：文件头已损坏"},
        {"format version (\\d+), this build reads version (\\d+)", "格式版本为 $1，本程序读取版本 $2"},
        {"a pattern database of format version 2, without chunk checksums: this build reads version (\\d+)",
         "格式版本 2 的模式数据库，没有分块校验和：本程序读取版本 $1"},
        {"delete the file: it is rebuilt when next needed", "请删除该文件：下次需要时会重新构建"},
        {"not a tilespace checkpoint \\(bad magic\\)", "不是 tilespace 检查点（文件标识不符）"},
        {"truncated checkpoint header", "检查点文件头被截断"},
        {"checkpoint header checksum mismatch: the checkpoint is corrupt", "检查点文件头校验和不符：检查点已损坏"},
        {"checkpoint version (\\d+), this build writes version (\\d+)", "检查点版本为 $1，本程序写入版本 $2"},
        {"unknown table kind (\\d+)", "未知的表类型 $1"},
        {"unsupported entry width of (\\d+) bits", "不支持的条目宽度：$1 位"},
        {"holds the table of another board or goal", "存放的是另一个棋盘或目标状态的表"},
        {"not a pattern database", "不是模式数据库"},
        {"not a zero-aware pattern database", "不是零感知模式数据库"},
        {"a (zero-aware )?pattern on the (\\S+) board has 1 to (\\d+) tiles", "$2 棋盘上的$1模式有 1 到 $3 个棋子"},
        {"a multi-tile pattern on the (\\S+) board has 1 to (\\d+) tiles", "$1 棋盘上的多块计步模式有 1 到 $2 个棋子"},
        {"zero-aware ", "零感知"},
        {"zero-aware pattern database (\\S+): no way down to the goal: the values are inconsistent",
         "零感知模式数据库 $1：无法逐步下降到目标：数值不一致"},
        {"built for the goal (.*), not (.*)", "是为目标状态 $1 构建的，而不是 $2"},
        {"holds pattern (\\S+), not (\\S+)", "存放的是模式 $1，而不是 $2"},
        {"chunk (\\d+) of (\\d+) \\(bytes (\\d+)\\.\\.\\) does not match its checksum: the table is corrupt",
         "第 $1 块（共 $2 块，从第 $3 字节起）与校验和不符：表已损坏"},
        {"(.*); rebuild it with: (tilespace .*)", "$1；重建命令：$2"},
        // The one-minute rule: a database too long to build on the fly.
        {"no (.*) for this (\\S+) goal in (\\S+) \\(building it takes about (\\S+) s \\((\\S+) min\\), (\\S+) (\\S+) of memory, "
         "(\\S+) (\\S+) of disk\\): run (.*)",
         "$3 中没有这个 $2 目标的$1（构建约需 $4 秒（$5 分钟）、$6 $7 内存、$8 $9 磁盘）：请运行 $10"},
        {"no (.*) for this (\\S+) goal in (\\S+) \\(building it takes about (\\S+) s, (\\S+) (\\S+) of memory, "
         "(\\S+) (\\S+) of disk\\): run (.*)",
         "$3 中没有这个 $2 目标的$1（构建约需 $4 秒、$5 $6 内存、$7 $8 磁盘）：请运行 $9"},
        {"no (.*) in (\\S+) \\(building it takes about (\\S+) s, (\\S+) (\\S+) of memory, (\\S+) (\\S+) of disk\\): run (.*)",
         "$2 中没有$1（构建约需 $3 秒、$4 $5 内存、$6 $7 磁盘）：请运行 $8"},
        {"zero-aware pattern database (\\S+)", "零感知模式数据库 $1"},
        {"multi-tile pattern database (\\S+)", "多块计步模式数据库 $1"},
        {"pattern database (\\S+)", "模式数据库 $1"},
        {"distance table", "距离表"},
        {"move automaton of depth (\\d+)", "深度为 $1 的移动自动机"},
        // Memory.
        {"(.*) needs (\\S+ \\S+)(?: \\((\\d+) bytes\\))? of memory, past (.*) \\(at most nine tenths of it\\)",
         "$1需要 $2 内存，超过了$4（至多其十分之九）"},
        {"the (\\S+) multi-tile table with the (one-bit|two-bit|byte) engine", "$1 多块计步距离表（$2引擎）"},
        {"the (\\S+) table with the (one-bit|two-bit|byte) engine", "$1 表（$2引擎）"},
        {"this machine's (\\S+ \\S+) of memory", "本机的 $1 内存"},
        {"the (\\S+) table", "$1 表"},
        {"the memory limit of (\\S+ \\S+) \\((.*)\\)", "内存上限 $1（$2）"},
        {"one-bit", "一位"},
        {"two-bit", "两位"},
        {"byte", "字节"},
        {"(.*) needs up to (\\S+ \\S+) of memory, past the memory limit of (\\S+ \\S+): lower the trace limit or raise the "
         "memory limit",
         "$1最多需要 $2 内存，超过了内存上限 $3：请降低 --trace-limit 或提高 --max-memory"},
        {"out of memory", "内存不足"},
        {"standard output: write failed", "标准输出：写入失败"},
        // The system's reasons (strerror), as the library passes them on.
        {"No such file or directory", "文件或文件夹不存在"},
        {"Permission denied", "没有权限"},
        {"File exists", "文件已存在"},
        {"Is a directory", "是文件夹"},
        {"Not a directory", "不是文件夹"},
        {"No space left on device", "磁盘空间不足"},
        {"File too large", "文件过大"},
        {"Read-only file system", "只读文件系统"},
        {"Too many open files", "打开的文件过多"},
        {"Input/output error", "输入输出错误"},
        // The notices on stderr (database stores, searches) and the progress lines.
        {"no database (\\S+) yet: building it first", "数据库 $1 尚不存在：先构建它"},
        {"built (\\S+): (\\d+) states, radius (\\d+)", "已构建 $1：$2 个状态，半径 $3"},
        {"building zero-aware pattern (\\S+): (\\d+) entries, (\\S+) MiB of memory, about (\\S+) s, into (\\S+)",
         "正在构建零感知模式 $1：$2 个条目，内存 $3 MiB，约 $4 秒，写入 $5"},
        {"building multi-tile pattern (\\S+): (\\d+) entries, (\\S+) MiB of memory, about (\\S+) s, into (\\S+)",
         "正在构建多块计步模式 $1：$2 个条目，内存 $3 MiB，约 $4 秒，写入 $5"},
        {"building pattern (\\S+): (\\d+) entries, (\\S+) MiB of memory, about (\\S+) s, into (\\S+)",
         "正在构建模式 $1：$2 个条目，内存 $3 MiB，约 $4 秒，写入 $5"},
        {"built (\\S+) \\(largest value (\\d+)\\)", "已构建 $1（最大值 $2）"},
        {"no move automaton (\\S+) yet: building it first", "移动自动机 $1 尚不存在：先构建它"},
        {"built (\\S+): (\\d+) states, (\\d+) forbidden strings", "已构建 $1：$2 个状态，$3 个禁止串"},
        {"no exact table can exist for (\\S+): each answer is searched \\((\\S+), (\\S+)\\)",
         "$1 不可能有精确距离表：每个答案都靠搜索得出（$2，$3）"},
        {"pattern databases (\\S+) \\(\\+ reflection\\) ready in (\\S+) s", "模式数据库 $1（含镜像）已就绪，用时 $2 秒"},
        {"pattern databases (\\S+) ready in (\\S+) s", "模式数据库 $1 已就绪，用时 $2 秒"},
        {"resuming from (\\S+) at depth (\\d+)", "从 $1 的深度 $2 处继续"},
        {"starting over; (\\S+) is replaced at the first checkpoint \\(--resume continues it\\)",
         "从头开始；$1 将在第一个检查点被替换（--resume 可从它继续）"},
        {"no checkpoint (\\S+): starting from the goal", "没有检查点 $1：从目标状态开始"},
        {"checkpoint (\\S+) saved before depth (\\d+) \\((\\S+) s\\)", "检查点 $1 已在深度 $2 之前保存（$3 秒）"},
        {"  depth( +\\d+)  ( +\\d+) states  ( +\\d+) total  ( +\\S+) s  ~(\\d+) s left",
         "  深度$1  $2 个状态  共$3 个  $4 秒  约剩 $5 秒"},
        {"  depth( +\\d+)  ( +\\d+) states  ( +\\d+) total  ( +\\S+) s", "  深度$1  $2 个状态  共$3 个  $4 秒"},
        {"  cost( +\\d+)  ( +\\d+) placements  ( +\\d+) total  ( +\\S+) s  ~(\\d+) s left",
         "  代价$1  $2 个布局  共$3 个  $4 秒  约剩 $5 秒"},
        {"  cost( +\\d+)  ( +\\d+) placements  ( +\\d+) total  ( +\\S+) s", "  代价$1  $2 个布局  共$3 个  $4 秒"},
        // The command line's own words for the parser's errors (cli/terminal.hpp parse_error_text).
        {"unknown option (\\S+); did you mean (\\S+)\\?", "未知选项 $1；是不是要用 $2？"},
        {"unknown option (\\S+)", "未知选项 $1"},
        {"unexpected arguments?: (.*)", "多余的参数：$1"},
        {"no subcommand: give one of (.*)", "缺少子命令（可用：$1）"},
        {"(\\S+) needs ([A-Z]+)", "$1 缺少参数 $2"},
        {"given (\\d+) times; give it once", "给了 $1 次；只能给一次"},
        {"given (\\d+) times; give it at most (\\d+) times", "给了 $1 次；最多只能给 $2 次"},
        {"needs a value", "缺少取值"},
        {"must be given", "必须给出"},
        {"needs (\\d+) values, got (\\d+)", "需要 $1 个取值，却得到 $2 个"},
        {"takes no value \\(got '(.*)'\\)", "不接受取值（给了 '$1'）"},
        {"takes no value", "不接受取值"},
        {"'(.*)' is not a valid value", "'$1' 不是有效的取值"},
        {"'(.*)' is not a metric \\((.*)\\)", "'$1' 不是计步方式（可用：$2）"},
        {"'(.*)' is not a language \\((.*)\\)", "'$1' 不是可用的语言（可用：$2）"},
        {"'(.*)' is not a width in bits \\((.*)\\)", "'$1' 不是可用的位数（可用：$2）"},
        {"must be from (\\S+) to (\\S+), not '(.*)'", "必须在 $1 到 $2 之间，而不是 '$3'"},
        // build's lines: what it built or found up to date.
        {"up to date: (\\S+) \\(serves the blank on cells (.*)\\)", "已是最新：$1（回答空格在格 $2 上的目标）"},
        {"up to date: (\\S+)", "已是最新：$1"},
        {"built (\\S+): (\\d+) states, radius (\\d+)( \\(multi-tile\\))?, (\\d+) bits?, (\\S+) s; serves the blank on "
         "cells (.*)",
         "已构建 $1：$2 个状态，半径 $3$4，每个状态 $5 位，$6 秒；回答空格在格 $7 上的目标"},
        {" \\(multi-tile\\)", "（多块计步）"},
        {"built (\\S+): (zero-aware |multi-tile )?pattern (\\S+), (\\d+) entries, largest value (\\d+), (\\S+) s",
         "已构建 $1：$2模式 $3，$4 个条目，最大值 $5，$6 秒"},
        {"built (\\S+): (zero-aware |multi-tile )?pattern (\\S+), (\\d+) placements, largest value (\\d+), (\\S+) s",
         "已构建 $1：$2模式 $3，$4 个布局，最大值 $5，$6 秒"},
        {"multi-tile ", "多块计步"},
        {"built (\\S+): the move automaton of depth (\\d+), (\\S+) s", "已构建 $1：深度为 $2 的移动自动机，$3 秒"},
        {"building the move automaton of depth (\\d+): about (\\S+) s and (\\S+) MiB of memory, into (\\S+)",
         "正在构建深度为 $1 的移动自动机：约 $2 秒、内存 $3 MiB，写入 $4"},
        // serve: where it listens, and why it cannot.
        {"listening on (\\S+)", "正在监听 $1"},
        {"cannot listen on (.*): '(.*)' is not an IP address or a name that resolves \\((.*)\\)",
         "无法在 $1 上监听：'$2' 不是 IP 地址，也不是能解析的名字（$3）"},
        {"cannot listen on (.*): '(.*)' is not an IP address or a name that resolves",
         "无法在 $1 上监听：'$2' 不是 IP 地址，也不是能解析的名字"},
        {"cannot listen on (.*) \\((.*)\\)", "无法在 $1 上监听（$2）"},
        {"(\\S+):any port", "$1:任意端口"},
        {"Address already in use", "地址已被占用"},
        {"Cannot assign requested address", "无法使用所请求的地址"},
        {"Host not found \\(authoritative\\)", "找不到主机"},
        {"Host not found \\(non-authoritative\\), try again later", "找不到主机，请稍后再试"},
        {"(--\\S+) must be from (\\S+) to (\\S+)", "$1 必须在 $2 到 $3 之间"},
        {"(--\\S+) must be at least (\\S+)", "$1 至少为 $2"},
        {"(--\\S+) must be positive", "$1 必须大于 0"},
        {"must be at most (\\d+) here: the open-file limit is (\\d+) \\(ulimit -Hn\\)",
         "在这里最多为 $1：打开文件数的上限是 $2（ulimit -Hn）"},
        {"must be at most (\\S+) on this machine \\(four bodies at once within half its memory\\)",
         "在本机最多为 $1（同时容纳四个请求体，且不超过内存的一半）"},
    };
    std::vector<ErrorForm> out(raw.size());  // in place: a once_flag does not move
    for (std::size_t i = 0; i < raw.size(); ++i) {
      out[i].en = raw[i].first;
      out[i].zh = raw[i].second;
      out[i].required = required_text(out[i].en);
    }
    return out;
  }();
  return forms;
}

std::string translate_detail(const std::string& en);

// The subjects an error names before its detail ("start: …"), in Chinese; other names as they are.
std::string subject_word(const std::string& name) {
  return name == "start" ? "初始状态" : name == "goal" ? "目标状态" : name == "answer" ? "答案" : name;
}

// `zh` with $1..$99 replaced by the groups of `m`, each translated in turn where it is itself a
// known form (a nested reason, the system's reason, "pattern database 7-8"), so that no English
// is left inside a translation; names, numbers and states match no form and stay as they are.
std::string format_groups(const std::smatch& m, const std::string& zh) {
  std::string out;
  for (std::size_t i = 0; i < zh.size(); ++i) {
    if (zh[i] == '$' && i + 1 < zh.size() && std::isdigit(static_cast<unsigned char>(zh[i + 1]))) {
      std::size_t g = static_cast<std::size_t>(zh[++i] - '0');
      if (i + 1 < zh.size() && std::isdigit(static_cast<unsigned char>(zh[i + 1])) &&
          g * 10 + static_cast<std::size_t>(zh[i + 1] - '0') < m.size())
        g = g * 10 + static_cast<std::size_t>(zh[++i] - '0');
      if (g < m.size() && m[g].matched) out += translate_detail(m[g].str());
    } else {
      out += zh[i];
    }
  }
  return out;
}

std::string translate_detail(const std::string& en) {
  for (const ErrorForm& form : error_forms()) {
    std::smatch m;
    if (form.match(en, m)) return format_groups(m, form.zh);
  }
  // "NAME: DETAIL", the name of an option, a file or a quoted value before the detail (CLI11's
  // "--threads: ...", "--algorithms: 'x': --algorithm: ..."): the detail translated.
  if (const auto colon = en.find(": "); colon != std::string::npos && colon > 0 &&
                                        en.find(' ') > colon && en.find('(') > colon) {
    const std::string name = en.substr(0, colon), rest = en.substr(colon + 2);
    const std::string subject = subject_word(name);
    const std::string rest_zh = translate_detail(rest);
    if (rest_zh != rest || subject != name) return subject + "：" + rest_zh;
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
    case About::start: return subject_word("start");
    case About::goal: return subject_word("goal");
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
  if (!zh_) return app::stopped_line(option, value);
  return "找到解之前因 --" + option + (value.empty() ? "" : " " + value) + " 而停止";
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
      return "第 " + std::to_string(v.step) + " 步：'" + std::string(1, v.move) +
             (v.move_cells > 1 ? std::to_string(v.move_cells) : "") + "' 使空格移出棋盘";
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

std::string Messages::text(const std::string& en) const { return zh_ ? translate_detail(en) : en; }

std::string Messages::error(const std::exception& e) const {
  if (!zh_) return e.what();
  if (const auto* ie = dynamic_cast<const InputError*>(&e)) {
    // A file's line may carry an inner subject ("start: ..."): translate_detail words it too.
    const std::string out = translate_detail(ie->detail);
    const std::string subject = subject_zh(*ie);
    return subject.empty() ? out : subject + "：" + out;
  }
  return translate_detail(e.what());
}

}  // namespace tilespace::cli
