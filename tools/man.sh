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

# Run as "tilespace": CLI11 prints argv[0] in its "Usage:" lines.
tilespace() { (exec -a tilespace "$bin" "$@"); }
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
