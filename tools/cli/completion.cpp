#include "cli/completion.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tilespace/board.hpp"
#include "tilespace/pdb/pattern.hpp"
#include "tilespace/search/registry.hpp"

namespace tilespace::cli {
namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// Single-quoted for bash, whatever the text holds.
std::string single_quoted(std::string_view s) {
  std::string out = "'";
  for (const char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// Every board the parser accepts (board.hpp: both sides at least 2, at most kMaxBoardCells cells).
std::vector<Board> every_board() {
  std::vector<Board> boards;
  for (int w = 2; 2 * w <= kMaxBoardCells; ++w)
    for (int h = 2; w * h <= kMaxBoardCells; ++h) boards.emplace_back(w, h);
  return boards;
}

std::vector<std::string> stock_partitions() {
  std::vector<std::string> names;
  for (const Board& b : every_board())
    for (const Metric m : {Metric::single, Metric::multi})
      for (auto& p : pdb::stock_partitions(b, m))
        if (std::find(names.begin(), names.end(), p) == names.end()) names.push_back(std::move(p));
  return names;
}

// The heuristics as --heuristic takes them: a pattern-database entry ("pdb") also as NAME:SPEC,
// offered with the stock partitions.
std::vector<std::string> heuristic_words(const std::vector<std::string>& partitions) {
  std::vector<std::string> words;
  for (const auto& h : search::heuristic_catalog()) {
    words.emplace_back(h.name);
    if (!h.pattern_database) continue;
    words.push_back(std::string(h.name) + ":");
    for (const auto& p : partitions) words.push_back(std::string(h.name) + ":" + p);
  }
  return words;
}

// The values of a one_of check (terminal.hpp; its description is "{a,b}"), else nothing.
std::vector<std::string> members(CLI::Option& o) {
  std::vector<std::string> out;
  for (int i = 0;; ++i) {
    std::string d;
    try {
      d = o.get_validator(i)->get_description();
    } catch (const CLI::OptionNotFound&) {
      return out;
    }
    if (d.size() < 2 || d.front() != '{' || d.back() != '}') continue;
    std::string word;
    for (const char ch : d.substr(1)) {
      if (ch == ',' || ch == '}') {
        out.push_back(word);
        word.clear();
      } else {
        word += ch;
      }
    }
  }
}

// How bash completes the value of `o`: bash assignments to the caller's `kind` and `list` (see
// _tilespace_value in the script). By the option's long name, the one thing CLI11 does not know:
// what the text means.
std::string value_action(CLI::Option& o) {
  if (!o.nonpositional()) return "kind=files";  // START, FILE: a state, a file or '-'
  if (const auto m = members(o); !m.empty()) return "kind=words list=" + single_quoted(joined(m));
  static const std::map<std::string, std::string, std::less<>> by_name{
      {"algorithm", "kind=words list=$algorithms"},
      {"algorithms", "kind=solvers"},  // ALGORITHM[:HEURISTIC],...
      {"heuristic", "kind=words list=$heuristics"},
      {"board", "kind=words list=$boards"},
      {"pdb", "kind=words list=$partitions"},
      {"zpdb", "kind=words list=$partitions"},
      {"pattern", "kind=words list=$partitions"},
      {"automaton", "kind=words list='on off'"},  // solve --automaton, checked by the registry's plan
      {"db", "kind=dirs"},
      {"static", "kind=dirs"},
      {"batch", "kind=files"},
      {"result", "kind=files"},
      {"trace", "kind=files"},
      {"junit", "kind=files"},
      {"suite", "kind=files"},
  };
  const auto it = o.get_lnames().empty() ? by_name.end() : by_name.find(o.get_lnames().front());
  return it == by_name.end() ? "kind=none" : it->second;
}

bool hidden(const CLI::Option* o) { return o->get_group().empty(); }

// "-a --algorithm": every name an option is given by.
std::vector<std::string> flags_of(const CLI::Option* o) {
  std::vector<std::string> out;
  for (const auto& s : o->get_snames()) out.push_back("-" + s);
  for (const auto& l : o->get_lnames()) out.push_back("--" + l);
  return out;
}

// The part that does not depend on the command: words from COMP_WORDS and COMP_LINE, then the
// candidates. COMP_WORDS also breaks at the COMP_WORDBREAKS characters (--algorithm=ida is three
// words, pdb:7-8 three), and readline replaces only the text after the last of them: the words
// are joined back as typed, and the candidates, made for the whole word, lose what precedes it.
constexpr std::string_view kDriver = R"(
_tilespace() {
  local subcommands=@SUBCOMMANDS@
  local algorithms=@ALGORITHMS@
  local heuristics=@HEURISTICS@
  local boards=@BOARDS@
  local partitions=@PARTITIONS@

  local -a words=()
  local i w pos=0 gap start=0 cur=''
  for ((i = 0; i <= COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    gap=$pos
    while [[ ${COMP_LINE:pos:1} == [[:space:]] ]]; do pos=$((pos + 1)); done
    if ((i > 0 && pos == gap)); then words[-1]+=$w; else words+=("$w"); start=$pos; fi
    pos=$((pos + ${#w}))
  done
  ((COMP_POINT > start)) && cur=${COMP_LINE:start:COMP_POINT-start}
  local cword=$((${#words[@]} - 1)) prev='' sub=''
  ((cword > 0)) && prev=${words[cword - 1]}
  # The subcommand: the first word that is not an option (the command's own options take no value).
  for ((i = 1; i < cword; i++)); do
    if [[ ${words[i]} != -* ]]; then sub=${words[i]}; break; fi
  done

  local kind=words list='' head='' val=$cur
  if [[ -z $sub ]]; then
    if [[ $cur == -* ]]; then list=@MAIN_OPTIONS@; else list=$subcommands; fi
  elif [[ $cur == --*=* ]] && _tilespace_value "$sub" "${cur%%=*}"; then
    head=${cur%%=*}= val=${cur#*=}
  elif [[ $prev == -* ]] && _tilespace_value "$sub" "$prev"; then
    :
  elif [[ $cur == -* ]]; then
    _tilespace_options "$sub"
  elif ! _tilespace_value "$sub" ""; then
    return 0
  fi

  local -a found=()
  case $kind in
    words) mapfile -t found < <(compgen -W "$list" -- "$val") ;;
    files) mapfile -t found < <(compgen -f -- "$val"); compopt -o filenames 2>/dev/null ;;
    dirs) mapfile -t found < <(compgen -d -- "$val"); compopt -o filenames 2>/dev/null ;;
    solvers)  # ALGORITHM[:HEURISTIC],...: the item after the last comma
      local before='' item=${val##*,}
      [[ $val == *,* ]] && before=${val%,*},
      if [[ $item == *:* ]]; then
        mapfile -t found < <(compgen -P "$before${item%%:*}:" -W "$heuristics" -- "${item#*:}")
      else
        mapfile -t found < <(compgen -P "$before" -W "$algorithms" -- "$item")
      fi
      compopt -o nospace 2>/dev/null ;;
  esac
  local kept=${cur%"${cur##*["$COMP_WORDBREAKS"]}"}
  COMPREPLY=()
  for w in "${found[@]}"; do
    w=$head$w
    COMPREPLY+=("${w:${#kept}}")
  done
}
complete -F _tilespace tilespace
)";

void replace(std::string& text, std::string_view key, const std::string& with) {
  text.replace(text.find(key), key.size(), with);
}

}  // namespace

std::string bash_completion(CLI::App& app) {
  std::string options =
      "\n# The options of subcommand $1, into the caller's list.\n"
      "_tilespace_options() {\n"
      "  case $1 in\n";
  std::string values =
      "\n# How the value of option $2 of subcommand $1 ($2 empty: a positional argument) completes:\n"
      "# the caller's kind (words from list, solvers, files, dirs or none); fails when it takes none.\n"
      "_tilespace_value() {\n"
      "  case \"$1 $2\" in\n";
  std::vector<std::string> subcommands;
  for (CLI::App* sub : app.get_subcommands({})) {
    const std::string& name = sub->get_name();
    subcommands.push_back(name);
    std::vector<std::string> flags;
    for (CLI::Option* o : sub->get_options()) {
      if (hidden(o)) continue;
      const auto names = flags_of(o);
      flags.insert(flags.end(), names.begin(), names.end());
      if (o->get_items_expected_max() == 0) continue;  // a flag: no value
      std::string patterns;
      for (const auto& n : names.empty() ? std::vector<std::string>{""} : names)
        patterns += (patterns.empty() ? "" : "|") + single_quoted(name + " " + n);
      values += "    " + patterns + ") " + value_action(*o) + " ;;\n";
    }
    options += "    " + single_quoted(name) + ") list=" + single_quoted(joined(flags)) + " ;;\n";
  }
  options += "  esac\n}\n";
  values += "    *) return 1 ;;\n  esac\n}\n";

  std::vector<std::string> main_options, algorithms, boards;
  for (const CLI::Option* o : app.get_options())
    if (!hidden(o))
      for (const auto& n : flags_of(o)) main_options.push_back(n);
  for (const auto& a : search::algorithm_catalog()) algorithms.emplace_back(a.name);
  for (const Board& b : every_board()) boards.push_back(b.name());
  const auto partitions = stock_partitions();

  std::string driver(kDriver);
  replace(driver, "@SUBCOMMANDS@", single_quoted(joined(subcommands)));
  replace(driver, "@ALGORITHMS@", single_quoted(joined(algorithms)));
  replace(driver, "@HEURISTICS@", single_quoted(joined(heuristic_words(partitions))));
  replace(driver, "@BOARDS@", single_quoted(joined(boards)));
  replace(driver, "@PARTITIONS@", single_quoted(joined(partitions)));
  replace(driver, "@MAIN_OPTIONS@", single_quoted(joined(main_options)));
  return "# shellcheck shell=bash\n"
         "# bash completion for tilespace, written by `tilespace --bash-completion` from the command's own\n"
         "# definition: regenerate rather than edit. Plain bash (no bash-completion helpers needed).\n" +
         options + values + driver;
}

}  // namespace tilespace::cli
