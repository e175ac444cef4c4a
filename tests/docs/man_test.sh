#!/usr/bin/env bash
# tests/docs/man_test.sh BINARY MANPAGE: the generated man page (cmake/docs.cmake, tools/man.sh)
# holds, in each subcommand's section, every option `tilespace SUB --help` lists and its help
# text; the version `tilespace --version` prints; and, where groff is installed, renders without
# a warning.
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 BINARY MANPAGE" >&2
  exit 2
fi
bin=$1 page=$2
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# The page's source with the escapes that hide text undone: \- and \e (- and \), font changes,
# \& guards, \[uXXXX] characters; one entry's name and description then read as in --help.
source_text=$(sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' "$page" |
              perl -CS -pe 's/\\\[u([0-9A-F]{4,6})\]/chr hex $1/ge')

main_help=$("$bin" --help)
mapfile -t subcommands < <(awk '/^Subcommands:$/ { on = 1; next } on && /^$/ { exit } on && /^  [^ ]/ { print $1 }' \
                           <<<"$main_help")
[[ ${#subcommands[@]} -ge 9 ]] || fail "only ${#subcommands[@]} subcommands in $bin --help: ${subcommands[*]}"

for sub in "${subcommands[@]}"; do
  # The subcommand's section: from its .SS heading ("tilespace SUB [OPTIONS] ...") to the next one.
  section=$(awk -v sub_="$sub" '/^\.S[SH] / { on = index($0, "\"tilespace " sub_ " ") > 0 } on' <<<"$source_text")
  if [[ -z $section ]]; then
    fail "no section for $sub"
    continue
  fi
  # serve's names the API document where this command finds it, the page where it is installed
  # (tools/man.sh): the path is compared apart.
  # The whole --help first: a reader that stops early (head) would end the command by SIGPIPE.
  help=$("$bin" "$sub" --help)
  summary=$(head -n 1 <<<"$help" | sed -E 's#\(API: [^)]*/API\.md\)#(API: <prefix>/#')
  section=$(sed -E 's#\(API: <prefix>/[^)]*/API\.md\)#(API: <prefix>/#' <<<"$section")
  grep -qxF -- "$summary" <<<"$section" || fail "$sub: its summary is not in its section: $summary"
  # The entries' names: the line after each .TP.
  entries=$(awk 'previous == ".TP" { print } { previous = $0 }' <<<"$section")
  options=0
  # --help's entries as "N<TAB>NAMES" and "D<TAB>a line of description" records: an entry is
  # "  NAMES  DESCRIPTION" (two spaces or more between), or its description on the next, more
  # indented lines when NAMES is long.
  while IFS=$'\t' read -r kind text; do
    if [[ $kind == D ]]; then
      grep -qF -- "$text" <<<"$section" || fail "$sub: a help line is not in its section: $text"
      continue
    fi
    while read -r name; do
      options=$((options + 1))
      grep -qE -- "(^|[ ,])$name( |,|\$)" <<<"$entries" || fail "$sub: no entry for $name in its section"
    done < <(grep -oE -- '--[A-Za-z0-9][A-Za-z0-9-]*' <<<"${text%% *}")
  done < <("$bin" "$sub" --help | awk '
    /^$/ { block = 0; next }
    /^(Positionals|Options):$/ { block = 1; next }
    block && /^  [^ ]/ {
      line = substr($0, 3)
      if (match(line, /  +/)) { print "N\t" substr(line, 1, RSTART - 1); print "D\t" substr(line, RSTART + RLENGTH) }
      else print "N\t" line
      next
    }
    block { sub(/^ +/, ""); print "D\t" $0 }')
  [[ $options -gt 2 ]] || fail "$sub: only $options options in $bin $sub --help"
  echo "ok: $sub: $options options"
done

serve_help=$("$bin" serve --help)
api=$(head -n 1 <<<"$serve_help" | sed -nE 's#.*\(API: ([^)]*)\)#\1#p')
[[ -f $api ]] || fail "serve --help names '$api', not a file"
grep -qE '\(API: <prefix>/[^)]*/API\.md\)' <<<"$source_text" || fail "the page does not name the API document under <prefix>/"

version=$("$bin" --version)
[[ $version =~ ^tilespace\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "--version prints '$version'"
if grep -qF -- "$version" <<<"$source_text"; then echo "ok: $version"; else fail "'$version' is not in the page"; fi
# EXIT STATUS: an entry for each exit code of the main --help's footer ("  CODE  MEANING").
mapfile -t codes < <(awk '/^Exit codes/ { on = 1; next } on && /^  [0-9]/ { print $1 }' <<<"$main_help")
exit_status=$(awk '/^\.SH/ { on = /EXIT STATUS/; next } on && previous == ".TP" { print } { previous = $0 }' \
              <<<"$source_text")
[[ ${#codes[@]} -ge 2 ]] || fail "only ${#codes[@]} exit codes in the footer of $bin --help"
for code in "${codes[@]}"; do
  grep -qx -- "$code" <<<"$exit_status" || fail "EXIT STATUS has no entry for $code"
done
echo "ok: EXIT STATUS: ${codes[*]}"

# What --help cannot say: the state syntax, the files and examples whose commands the command takes.
for heading in "STATE SYNTAX" FILES EXAMPLES; do
  grep -q "^\.SH \"\?$heading\"\?\$" "$page" || fail "no $heading section"
done
for name in .tsdb .pdb .fsm .ckpt; do
  awk '/^\.SH/ { on = /FILES/ } on' <<<"$source_text" | grep -qF -- "$name" || fail "FILES does not name $name"
done
examples=$(awk '/^\.SH/ { on = /EXAMPLES/; next } on && /^tilespace / { print }' <<<"$source_text")
[[ $(wc -l <<<"$examples") -ge 6 ]] || fail "fewer than 6 example commands"
while IFS= read -r example; do
  sub=$(awk '{ print $2 }' <<<"$example")
  [[ " ${subcommands[*]} " == *" $sub "* ]] || fail "an example's subcommand is not one: $example"
done <<<"$examples"
echo "ok: STATE SYNTAX, FILES, EXAMPLES"

if command -v groff >/dev/null; then
  warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
  if [[ -z $warnings ]]; then echo "ok: groff renders it without warnings"; else fail "groff: $warnings"; fi
else
  echo "groff is not installed: the rendering is not checked"
fi

if ((failures > 0)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
