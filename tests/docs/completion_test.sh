#!/usr/bin/env bash
# tests/docs/completion_test.sh BINARY SCRIPT: the generated bash completion (cmake/docs.cmake,
# tools/cli/completion.cpp) offers what the command's --help lists. Each case runs _tilespace in
# a clean `bash --norc` with COMP_WORDS split as bash splits them, the cursor at the line's end.
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 BINARY SCRIPT" >&2
  exit 2
fi
# Absolute: the file-name cases run in a scratch folder.
bin=$(realpath -- "$1") script=$(realpath -- "$2")
failures=0
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The candidates for LINE, one a line, sorted; run in the current folder.
complete_line() {
  bash --norc --noprofile -c '
    set -u
    source "$1" || exit 1
    complete -p tilespace | grep -q -- "-F _tilespace" || { echo "not registered: $(complete -p tilespace)" >&2; exit 1; }
    line=$2
    # As bash: words at whitespace, and a run of COMP_WORDBREAKS characters (= :) a word of its own;
    # after a space, the word being completed is empty.
    COMP_WORDS=()
    w= kind=
    for ((i = 0; i < ${#line}; i++)); do
      c=${line:i:1}
      if [[ $c == [[:space:]] ]]; then t=space
      elif [[ $COMP_WORDBREAKS == *"$c"* ]]; then t=break
      else t=text; fi
      if [[ -n $w && $t != "$kind" ]]; then COMP_WORDS+=("$w"); w=; fi
      [[ $t != space ]] && w+=$c
      kind=$t
    done
    if [[ -n $w ]]; then COMP_WORDS+=("$w"); else COMP_WORDS+=(""); fi
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$line COMP_POINT=${#line}
    COMPREPLY=()
    _tilespace tilespace "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]:-}"
    ((${#COMPREPLY[@]} == 0)) || printf "%s\n" "${COMPREPLY[@]}" | sort
  ' complete_line "$script" "$1"
}

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# LINE gives exactly the words EXPECTED (in any order).
expect_exactly() {
  local line=$1 got want
  shift
  got=$(complete_line "$line")
  want=$(printf '%s\n' "$@" | sort)
  if [[ $got == "$want" ]]; then
    echo "ok: '$line' -> ${got//$'\n'/ }"
  else
    fail "'$line' gives [${got//$'\n'/ }], expected [${want//$'\n'/ }]"
  fi
}

# LINE gives at least the words EXPECTED.
expect_including() {
  local line=$1 got w missing=()
  shift
  got=$(complete_line "$line")
  for w in "$@"; do grep -qxF -- "$w" <<<"$got" || missing+=("$w"); done
  if [[ ${#missing[@]} -eq 0 ]]; then echo "ok: '$line' offers the $# expected"; else fail "'$line' lacks ${missing[*]}"; fi
}

# LINE offers none of the words given.
expect_none_of() {
  local line=$1 got w found=()
  shift
  got=$(complete_line "$line")
  for w in "$@"; do grep -qxF -- "$w" <<<"$got" && found+=("$w"); done
  if [[ ${#found[@]} -eq 0 ]]; then echo "ok: '$line' offers none of $*"; else fail "'$line' offers ${found[*]}"; fi
}

main_help=$("$bin" --help)
mapfile -t subcommands < <(awk '/^Subcommands:$/ { on = 1; next } on && /^$/ { exit } on && /^  [^ ]/ { print $1 }' \
                           <<<"$main_help")
[[ ${#subcommands[@]} -ge 9 ]] || fail "only ${#subcommands[@]} subcommands in $bin --help: ${subcommands[*]}"

# The option of `tilespace SUB --help` named OPT: its description.
help_of() { "$bin" "$1" --help | awk -v opt="$2" '$1 ~ "(^|,)" opt "($|,)" { sub(/^ *[^ ]+( [^ ]+)? +/, ""); print; exit }'; }

# Subcommands, and the command's own options.
expect_exactly "tilespace " "${subcommands[@]}"
expect_exactly "tilespace so" solve
expect_exactly "tilespace --" --help --version

# Options by prefix, and only the subcommand's own.
expect_exactly "tilespace solve --alg" --algorithm
expect_none_of "tilespace query --" --algorithm --heuristic --algorithms --bits
expect_none_of "tilespace solve --" --bash-completion --bits
# Every option `tilespace SUB --help` lists is offered, long and short.
for sub in "${subcommands[@]}"; do
  mapfile -t listed < <("$bin" "$sub" --help | awk '/^  -/ { n = split($1, f, ","); for (i = 1; i <= n; i++) print f[i] }')
  [[ ${#listed[@]} -gt 1 ]] || fail "no options in $bin $sub --help"
  expect_including "tilespace $sub -" "${listed[@]}"
done

# Values: the registry's names, as --help lists them ("table, bfs, ... (default ...").
mapfile -t algorithms < <(help_of solve --algorithm | sed 's/ (default.*//; s/, /\n/g')
[[ ${#algorithms[@]} -ge 8 ]] || fail "--algorithm's help lists ${#algorithms[@]} algorithms: ${algorithms[*]}"
expect_including "tilespace solve --algorithm " astar idastar "${algorithms[@]}"
expect_exactly "tilespace solve --algorithm " "${algorithms[@]}"
expect_exactly "tilespace solve -a ida" idastar
expect_exactly "tilespace solve --algorithm=ida" idastar
mapfile -t heuristics < <(help_of solve --heuristic | sed 's/^[^:]*: //; s/ (default.*//; s/, /\n/g')
expect_including "tilespace solve --heuristic " manhattan "${heuristics[@]}"
expect_including "tilespace solve --heuristic pdb:" 7-8 6-6-6-6 4-4
expect_including "tilespace verify --algorithms " astar idastar
expect_exactly "tilespace compare --algorithms bfs,ida" bfs,idastar
expect_including "tilespace compare --algorithms=astar:" manhattan
expect_including "tilespace query --board " 3x3 4x4 5x5 2x3
expect_exactly "tilespace build --bits " 1 2 8
expect_exactly "tilespace solve --lang=" en zh
expect_exactly "tilespace solve --automaton " on off
expect_including "tilespace build --pdb " 7-8 6-6-3 5-5-5 6-6-6-6 4-4
expect_exactly "tilespace solve --max-nodes " # no known values
expect_exactly "tilespace build --force " # a flag: the next word is an option or nothing

# File and folder names.
mkdir -p "$scratch/answers.d"
touch "$scratch/answers.txt"
cd "$scratch"
expect_exactly "tilespace check --junit " answers.d answers.txt
expect_exactly "tilespace check --junit=answers.t" answers.txt
expect_exactly "tilespace check ans" answers.d answers.txt
expect_exactly "tilespace solve --db " answers.d
expect_exactly "tilespace solve --board 3x3 answers.t" answers.txt

if ((failures > 0)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
