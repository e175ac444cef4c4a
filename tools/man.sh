#!/usr/bin/env bash
# tools/man.sh BINARY OUT: the man page tilespace(1), made from the command itself so that it
# cannot drift from it (cmake/docs.cmake runs it; HELP2MAN names help2man if not on PATH).
# help2man reads `BINARY --help` and `--version`, but the main --help lists only the subcommands:
# the include file adds a SUBCOMMANDS section with each subcommand's --help (its list taken from
# the main --help), every option a .TP entry, and an EXIT STATUS section from the main --help's
# footer. OUT is written under a temporary name and renamed, so a failure leaves none.
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 BINARY OUT" >&2
  exit 2
fi
bin=$1 out=$2
help2man=${HELP2MAN:-help2man}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# CLI11's help text as roff: "Usage:" gives the .SS heading; every entry of a "Positionals:" or
# "Options:" block ("  NAMES  DESCRIPTION", or the description on the next lines, indented, when
# the names are long) a .TP; other lines paragraphs. Backslashes become \e, every '-' \- (options
# stay copyable), and a line starting with '.' or '\'' is guarded by \&.
to_roff() {
  awk '
    function esc(s) {
      gsub(/\\/, "\\e", s)
      gsub(/-/, "\\-", s)
      if (s ~ /^[.\047]/) s = "\\&" s
      return s
    }
    # "-a,--algorithm TEXT" -> bold names, the value italic.
    function names(s,    sp, flags, arg, n, i, f, out) {
      sp = index(s, " ")
      flags = sp ? substr(s, 1, sp - 1) : s
      arg = sp ? substr(s, sp + 1) : ""
      n = split(flags, f, ",")
      for (i = 1; i <= n; i++) out = out (i > 1 ? ", " : "") "\\fB" esc(f[i]) "\\fR"
      return out (arg == "" ? "" : " \\fI" esc(arg) "\\fR")
    }
    NR == 1 && !/^Usage: / { summary = $0; next }
    /^Usage: / { sub(/^Usage: /, ""); print ".SS \"" esc($0) "\""; if (summary != "") print esc(summary); next }
    /^$/ { block = ""; next }
    /^[A-Za-z][^:]*:$/ { block = $0; next }
    block != "" && /^  [^ ]/ {
      line = substr($0, 3)
      split_at = match(line, /  +/)
      print ".TP"
      if (split_at) {
        print names(substr(line, 1, split_at - 1))
        print esc(substr(line, split_at + RLENGTH))
      } else {
        print names(line)
      }
      next
    }
    block != "" { sub(/^ +/, ""); print esc($0); next }
    { print ".PP"; print esc($0) }
  '
}

# Run as "tilespace": CLI11 prints argv[0] in its "Usage:" lines. `serve` names the HTTP API's
# document where the command finds it when it runs (from the build folder: the source tree's); the
# page, installed with the document, names it where it is installed: <prefix>/DOCDIR/API.md
# (TILESPACE_DOCDIR, cmake's CMAKE_INSTALL_DOCDIR).
docdir=${TILESPACE_DOCDIR:-share/doc/tilespace}
tilespace() { (exec -a tilespace "$bin" "$@") | sed -E "s#\(API: [^)]*/API\.md\)#(API: <prefix>/$docdir/API.md)#"; }
main_help=$(tilespace --help)
# The main --help's footer (the exit codes), after the Subcommands: block: each subcommand's
# --help repeats it, the page holds it once.
footer=$(awk '/^Subcommands:$/ { on = 1 } on == 1 && /^$/ { on = 2; next } on == 2' <<<"$main_help")

# The subcommands, in the order of the main --help: the first word of each entry of its
# "Subcommands:" block.
mapfile -t subcommands < <(awk '/^Subcommands:$/ { on = 1; next } on && /^$/ { exit } on && /^  [^ ]/ { print $1 }' \
                           <<<"$main_help")
if [[ ${#subcommands[@]} -eq 0 ]]; then
  echo "$0: no Subcommands: block in $bin --help" >&2
  exit 1
fi

# The include file. Characters beyond ASCII (the help's em dashes) become \[uXXXX], by perl
# (help2man's own language): help2man would turn them into '?'.
{
  echo "[SUBCOMMANDS]"
  printf '%s\n' 'Each subcommand takes the options below; \fBtilespace\fR \fISUBCOMMAND\fR \fB\-\-help\fR prints them.'
  for sub in "${subcommands[@]}"; do
    help=$(tilespace "$sub" --help)
    to_roff <<<"${help%"$footer"}"
  done
  # The footer: "Exit codes (every command):", then "  CODE  MEANING" entries with indented
  # continuation lines.
  echo "[EXIT STATUS]"
  tail -n +2 <<<"$footer" |
    awk '
      /^  [0-9]/ { code = $1; sub(/^ +[0-9]+ +/, ""); print ".TP"; print "\\fB" code "\\fR" }
      { sub(/^ +/, ""); gsub(/\\/, "\\e"); gsub(/-/, "\\-"); if ($0 ~ /^[.\047]/) $0 = "\\&" $0; print }
    '
  # What --help cannot say: the state syntax, the files, examples.
  cat <<'ROFF'
[STATE SYNTAX]
A state is its tiles cell by cell, row after row, the blank written 0 (or the name given with
\fB\-\-blank\fR when the tiles are named, such as letters): tiles separated by blanks or commas
(\fB"1 2 3 4 5 6 7 8 0"\fR), rows split by '/' (\fB"1 2 3/4 5 6/7 8 0"\fR), or one compact token
on boards of at most 10 cells (\fB123456780\fR). The board is \fB\-\-board\fR \fIW\fRx\fIH\fR,
else taken from the number of tiles (a square number), else 3x3. START may also be a file, or
\fB\-\fR for standard input, holding the start and, on the next line, the goal; '#' starts a
comment. The same grammar reads every input: batch lines, check files, the HTTP parameters.
[FILES]
.TP
\fBout/\fR
The database folder (\fB\-\-db\fR): made when a command first writes to it; its parent must exist.
.TP
\fIW\fRx\fIH\fB\-\fIGOAL\fB.tsdb\fR
The exact distance table of a board and its goal's blank, e.g. \fBout/3x3\-123456780.tsdb\fR;
while a build runs, its checkpoint is the same name with \fB.ckpt\fR added.
.TP
\fIW\fRx\fIH\fB\-\fIGOAL\fB\-p\fITILES\fB.pdb\fR
A pattern database: the goal's tiles and the pattern's, joined by '\-' and '.', e.g.
\fBout/4x4\-1\-2\-...\-15\-0\-p3.2.1.pdb\fR.
.TP
\fBmoves\-d\fIN\fB.fsm\fR
The move automaton of depth \fIN\fR (\fBtilespace build \-\-automaton\fR).
.PP
Every file is written under a temporary name and renamed into place, carries checksums, and is
refused (exit 3) when corrupt, truncated or foreign, with the command that rebuilds it.
[EXAMPLES]
The 8\-puzzle's tables for every goal, then one question:
.PP
.nf
tilespace build \-\-all\-goals
tilespace query "2 8 3 1 0 4 7 6 5" \-\-goal "1 2 3 8 0 4 7 6 5"
.fi
.PP
Many questions at once, one answer a line (JSON with each line's number):
.PP
.nf
tilespace query \-\-batch pairs.txt \-\-json
.fi
.PP
An optimal path with a chosen algorithm and heuristic, and the search tree for the viewer:
.PP
.nf
tilespace solve "8 6 7 2 5 4 3 0 1" \-a astar \-\-heuristic manhattan
tilespace solve "8 6 7 2 5 4 3 0 1" \-a idastar \-\-trace tree.json
.fi
.PP
A 15\-puzzle question, answered by search (no table can exist):
.PP
.nf
tilespace query "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3" \-\-goal "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
.fi
.PP
Another solver's answers checked in CI (exit 1 on any non\-optimal answer):
.PP
.nf
tilespace check answers.tsv \-\-junit check.xml
.fi
.PP
Search strategies side by side, and the web viewer:
.PP
.nf
tilespace compare "2 4 3 7 1 6 0 5 8" \-\-algorithms bfs,astar:manhattan,idastar:linear\-conflict
tilespace serve \-\-port 8080
.fi
ROFF
} | perl -CS -pe 's/([^\x00-\x7f])/sprintf("\\[u%04X]", ord $1)/ge' >"$tmp/include"
if ! grep -q '^\.TP' <(sed -n '/^\[EXIT STATUS\]/,$p' "$tmp/include"); then
  echo "$0: no exit codes found in the footer of $bin --help" >&2
  exit 1
fi

# NAME: the main --help's first line, "tilespace: WHAT".
name=$(head -n 1 <<<"$main_help")
name=${name#*: }

# help2man runs a stand-in named tilespace: the command itself, except that its --help leaves out
# the footer, now the EXIT STATUS section, instead of repeating it under OPTIONS.
printf '%s\n' "${main_help%"$footer"}" >"$tmp/help"
printf '#!/usr/bin/env bash\n[[ $* == --help ]] && exec cat %q\nexec -a tilespace %q "$@"\n' "$tmp/help" "$bin" \
  >"$tmp/tilespace"
chmod +x "$tmp/tilespace"

mkdir -p "$(dirname "$out")"
"$help2man" --no-info --section=1 --name="$name" --include="$tmp/include" --output="$tmp/tilespace.1" "$tmp/tilespace"
mv -f "$tmp/tilespace.1" "$out.tmp"
mv -f "$out.tmp" "$out"
