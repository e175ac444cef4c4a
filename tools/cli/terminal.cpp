// The command line's terminal side (terminal.hpp).
#include "cli/terminal.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/messages.hpp"
#include "tilespace/errors.hpp"
#include "tilespace/numbers.hpp"

namespace tilespace::cli {

void add_common(CLI::App* app, Common& c, bool goal, bool json_flag, bool start) {
  app->add_option("--board", c.board,
                  start ? "Board as WxH (default: from the state or --goal, else 3x3)" : "Board as WxH (default: from --goal, else 3x3)");
  if (goal) app->add_option("--goal", c.goal, "Goal state (default: 1 2 ... N-1 0)");
  app->add_option("--db", c.db, "Folder of the databases (made when first written; its parent must exist)")->capture_default_str();
  app->add_option("--threads", c.threads, "Threads for builds, batches and an aidastar search (0: all cores)")->check(whole_number(0, 1024), "0 to 1024");
  app->add_flag("--progress", c.progress, "Report each BFS layer on stderr (default: when stderr is a terminal)");
  if (json_flag) app->add_flag("--json", c.json, "Print JSON");
  if (start) app->add_option("--blank", c.blank, "The blank's name when tiles are named (letters, words)");
}

namespace {

constexpr const char* kEmptyValue = "empty value: give a value or leave the option out";

}  // namespace

void value_rules(CLI::App& app) {
  std::vector<CLI::App*> apps{&app};
  for (CLI::App* sub : app.get_subcommands({})) apps.push_back(sub);
  for (CLI::App* a : apps) {
    for (CLI::Option* o : a->get_options({})) {
      if (!o->nonpositional() || o->get_items_expected_max() == 0) continue;  // a flag, or a positional argument
      if (o->check_lname("db"))
        o->check(CLI::Validator(
            [](std::string& v) -> std::string {
              std::error_code ec;
              const auto status = std::filesystem::status(v, ec);
              return !ec && std::filesystem::exists(status) && !std::filesystem::is_directory(status)
                         ? "'" + v + "' is a file, not a folder"
                         : "";
            },
            ""));
      // First (transform() puts a check before the others): "--metric: empty value", not "'' not in {...}".
      o->transform(CLI::Validator(
          [](std::string& v) -> std::string {
            return v.empty() ? kEmptyValue : "";
          },
          ""));
    }
  }
}

std::string empty_after_equals(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* sub = &app;  // the subcommand is argv[1], as unknown_option finds it
  if (argc > 1 && argv[1][0] != '-')
    for (const CLI::App* s : app.get_subcommands({}))
      if (s->get_name() == argv[1]) sub = s;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 4 || arg.rfind("--", 0) != 0 || arg.find('=') != arg.size() - 1) continue;
    const std::string name = arg.substr(0, arg.size() - 1);
    const CLI::Option* o = sub->get_option_no_throw(name);
    if (!o) o = app.get_option_no_throw(name);
    if (o && o->get_items_expected_max() > 0) return o->get_name() + ": " + kEmptyValue;
  }
  return "";
}

std::function<std::string(const std::string&)> whole_number(std::uint64_t lo, std::uint64_t hi) {
  return [lo, hi](const std::string& text) -> std::string {
    try {
      parse_whole("", text, lo, hi);
      return "";
    } catch (const InputError& e) {
      return e.detail;
    }
  };
}

std::function<std::string(const std::string&)> real_number(double lo, double hi, bool lo_open) {
  return [lo, hi, lo_open](const std::string& text) -> std::string {
    try {
      parse_real("", text, lo, hi, lo_open);
      return "";
    } catch (const InputError& e) {
      return e.detail;
    }
  };
}

CLI::Validator one_of(const std::string& what, const std::vector<std::string>& values) {
  std::string listed, braced;
  for (const std::string& v : values) {
    listed += (listed.empty() ? "" : ", ") + v;
    braced += (braced.empty() ? "" : ",") + v;
  }
  return CLI::Validator(
      [what, values, listed](const std::string& text) -> std::string {
        if (std::find(values.begin(), values.end(), text) != values.end()) return "";
        return "'" + text + "' is not " + (std::string("aeiou").find(what[0]) == std::string::npos ? "a " : "an ") + what +
               " (" + listed + ")";
      },
      "{" + braced + "}");
}

namespace {

class HelpFormatter : public CLI::Formatter {
 public:
  // CLI11's names and value, less the "Needs: ..." and "Excludes: ..." it appends: the
  // description says them in words.
  std::string make_option_opts(const CLI::Option* opt) const override {
    std::string s = CLI::Formatter::make_option_opts(opt);
    for (const std::string& label : {" " + get_label("Needs") + ":", " " + get_label("Excludes") + ":"})
      if (const auto at = s.find(label); at != std::string::npos) s.erase(at);
    return s;
  }
  std::string make_option_desc(const CLI::Option* opt) const override {
    std::string s = opt->get_description();
    auto names = [](const std::set<CLI::Option*>& options) {
      std::vector<std::string> n;
      for (const CLI::Option* o : options) n.push_back(o->get_name());
      std::sort(n.begin(), n.end());
      std::string out;
      for (std::size_t i = 0; i < n.size(); ++i) out += (i == 0 ? "" : i + 1 == n.size() ? " or " : ", ") + n[i];
      return out;
    };
    if (!opt->get_needs().empty()) s += " (with " + names(opt->get_needs()) + ")";
    if (!opt->get_excludes().empty()) s += " (not with " + names(opt->get_excludes()) + ")";
    return s;
  }
  // CLI11's layout (detail::format_help) but for its one flaw: names one column short of the
  // description's ran into it with a single space. Here the description starts at the column
  // with at least two spaces before it, or on the next line.
  std::string make_option(const CLI::Option* opt, bool is_positional) const override {
    const std::string name = "  " + make_option_name(opt, is_positional) + make_option_opts(opt);
    const std::string desc = make_option_desc(opt);
    const std::size_t column = get_column_width();
    std::string out = name;
    if (!desc.empty()) {
      out += name.size() + 2 <= column ? std::string(column - name.size(), ' ') : "\n" + std::string(column, ' ');
      for (const char ch : desc) {
        out += ch;
        if (ch == '\n') out += std::string(column, ' ');
      }
    }
    return out + "\n";
  }
};

// The kind of a parse error by its class (not by get_name(): ExtrasError's is the subcommand's
// when a subcommand throws it).
template <class Kind>
bool is_kind(const CLI::ParseError& e) {
  return dynamic_cast<const Kind*>(&e) != nullptr;
}

// The subcommand argv names (main() has refused an unknown one), else the command itself.
const CLI::App* named_subcommand(const CLI::App& app, int argc, const char* const* argv) {
  if (argc > 1 && argv[1][0] != '-')
    for (const CLI::App* s : app.get_subcommands({}))
      if (s->get_name() == argv[1]) return s;
  return &app;
}

}  // namespace

std::string api_document() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  fs::path installed = TILESPACE_INSTALL_DOCDIR;
  if (installed.is_relative() && !ec) {
    fs::path prefix = exe.parent_path();
    for (const auto& part : fs::path(TILESPACE_INSTALL_BINDIR).lexically_normal())
      if (!part.empty() && part != ".") prefix = prefix.parent_path();
    installed = prefix / installed;
  }
  installed = (installed / "API.md").lexically_normal();
  if (fs::is_regular_file(installed, ec)) return installed.string();
  const fs::path source = fs::path(TILESPACE_SOURCE_DIR) / "tools" / "viewer" / "API.md";
  if (fs::is_regular_file(source, ec)) return source.string();
  return installed.string();
}

std::shared_ptr<CLI::FormatterBase> help_formatter() { return std::make_shared<HelpFormatter>(); }

std::string parse_error_text(const CLI::App& app, const CLI::ParseError& e, int argc, const char* const* argv) {
  const std::string what = e.what();
  std::smatch m;
  auto is = [&](const char* pattern) { return std::regex_match(what, m, std::regex(pattern)); };
  const CLI::App* sub = named_subcommand(app, argc, argv);
  auto is_flag = [&](const std::string& name) {
    const CLI::Option* o = sub->get_option_no_throw(name);
    if (!o) o = app.get_option_no_throw(name);
    return o && o->get_expected_max() == 0;
  };
  if (is_kind<CLI::ExtrasError>(e)) {
    if (std::string u = unknown_option(app, argc, argv); !u.empty()) return u;
    // In command-line order (CLI11's text lists them last first).
    const std::vector<std::string> extra = sub->remaining();
    std::string listed;
    for (const std::string& arg : extra) listed += (listed.empty() ? "" : " ") + arg;
    if (!extra.empty()) return (extra.size() == 1 ? "unexpected argument: " : "unexpected arguments: ") + listed;
  } else if (is_kind<CLI::RequiredError>(e)) {
    if (is("A subcommand is required")) {
      std::string names;
      for (const CLI::App* s : app.get_subcommands({})) names += (names.empty() ? "" : ", ") + s->get_name();
      return "no subcommand: give one of " + names;
    }
    if (is("(\\S+) is required")) {
      std::string name = m[1].str();
      if (name.rfind("-", 0) == 0) return name + ": must be given";
      for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      return sub->get_name() + " needs " + name;
    }
  } else if (is_kind<CLI::ArgumentMismatch>(e)) {
    if (is("(\\S+): At Most 1 required but received (\\d+)")) return m[1].str() + ": given " + m[2].str() + " times; give it once";
    if (is("(\\S+): At Most (\\d+) required but received (\\d+)"))
      return m[1].str() + ": given " + m[3].str() + " times; give it at most " + m[2].str() + " times";
    if (is("(\\S+): \\d+ required \\S+ missing")) return m[1].str() + ": needs a value";
    if (is("(\\S+): At least (\\d+) required but received (\\d+)"))
      return m[1].str() + ": needs " + m[2].str() + " values, got " + m[3].str();
    if (is("Expected (?:exactly|at least) (\\d+) arguments to (\\S+), got (\\d+)"))
      return m[2].str() + ": needs " + m[1].str() + " values, got " + m[3].str();
    if (is("(\\S+) was given a disallowed flag override")) return m[1].str() + ": takes no value";
  } else if (is_kind<CLI::ExcludesError>(e)) {
    if (is("(\\S+) excludes (\\S+)")) return m[1].str() + ": does not apply with " + m[2].str();
  } else if (is_kind<CLI::RequiresError>(e)) {
    if (is("(\\S+) requires (\\S+)")) return m[1].str() + ": applies with " + m[2].str();
  } else if (is_kind<CLI::ConversionError>(e)) {
    std::string name, value;
    if (is("Could not convert: (\\S+) = (.*)")) name = m[1], value = m[2];
    else if (is("The value (.*) is not an allowed value for (\\S+)")) name = m[2], value = m[1];
    else if (is("(\\S+): (too many inputs for a flag|Should be true/false or a number)")) name = m[1];
    if (!name.empty() && is_flag(name)) return name + ": takes no value" + (value.empty() ? "" : " (got '" + value + "')");
    if (!name.empty()) return name + ": '" + value + "' is not a valid value";
  } else if (is_kind<CLI::ValidationError>(e)) {
    // The checks registered are the command's own (whole_number, real_number, one_of): their
    // text is already its words. CLI11's own range check, should one be registered again:
    if (is("(\\S+): Value (.*) not in range (\\S+) to (\\S+)"))
      return m[1].str() + ": must be from " + m[3].str() + " to " + m[4].str() + ", not '" + m[2].str() + "'";
  }
  return what;
}

namespace {

// The edit distance of two names (insertions, deletions, substitutions, and swaps of neighbours).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string unknown_option(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* sub = named_subcommand(app, argc, argv);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.rfind("--", 0) != 0 || arg.size() < 3) continue;
    arg = arg.substr(0, arg.find('='));
    if (sub->get_option_no_throw(arg) || app.get_option_no_throw(arg)) continue;
    std::string best;
    std::size_t best_d = 3;  // at most two edits away, and closer than half the name
    for (const CLI::App* a : {sub, &app})
      for (const CLI::Option* o : a->get_options()) {
        for (const std::string& name : o->get_lnames()) {
          const std::size_t dist = edit_distance(arg.substr(2), name);
          if (dist < best_d && 2 * dist < name.size()) {
            best_d = dist;
            best = "--" + name;
          }
        }
      }
    return "unknown option " + arg + (best.empty() ? "" : "; did you mean " + best + "?");
  }
  return "";
}

void write_out(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::ferror(stdout)) throw DataError(kStdoutFailed);
}

void flush_out() {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) throw DataError(kStdoutFailed);
}

std::string start_or_stdin(const Common& c, const std::optional<std::string>& start_arg) {
  const std::string start = start_arg.value_or("-");
  if (start == "-" && ::isatty(STDIN_FILENO))
    std::fprintf(stderr, "tilespace: %s\n",
                 Messages(c.lang).text("reading the start state from standard input (Ctrl-D to end)").c_str());
  return start;
}

void print_board(const State& s, const Labels& labels) { std::fputs(board_text(s, labels).c_str(), stdout); }

// Plays the path board by board: in place on a terminal, frame after frame otherwise.
void animate(const std::vector<State>& path, const Labels& labels, int delay_ms, bool zh) {
  const bool tty = ::isatty(STDOUT_FILENO);
  const int lines = path.empty() ? 0 : path[0].board.height() + 1;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (tty && i) std::printf("\x1b[%dA", lines);  // back to the top of the frame
    std::printf(zh ? "第 %zu/%zu 步%s\n" : "move %zu/%zu%s\n", i, path.size() - 1, tty ? "\x1b[K" : "");
    std::fputs(board_text(path[i], labels).c_str(), stdout);
    if (!tty) std::puts("");
    std::fflush(stdout);
    if (tty && i + 1 < path.size()) ::usleep(static_cast<useconds_t>(delay_ms) * 1000);
  }
}

}  // namespace tilespace::cli
