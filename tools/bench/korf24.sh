#!/usr/bin/env bash
# The 24-puzzle benchmark: Korf & Felner's 50 instances (tests/data/korf24.tsv), one at a time,
# each with every core and a time cap; a markdown table of lengths, expanded nodes, times and the
# ratio to Korf & Felner 2002's node counts (tests/data/korf24-nodes.tsv). See usage() below.
set -euo pipefail
export LC_NUMERIC=C  # a point in $EPOCHREALTIME and in the numbers awk and printf read

me=korf24.sh
root=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd)
data=$root/tests/data/korf24.tsv
nodes=$root/tests/data/korf24-nodes.tsv

usage() {
  cat <<EOF
Usage: tools/bench/korf24.sh [OPTIONS] [-- SOLVER OPTIONS...]
       tools/bench/korf24.sh --self-test

Solves the 50 instances of tests/data/korf24.tsv one at a time with
  tilespace solve "<25 tiles>" --board 5x5 --goal "0 1 ... 24" --json --max-seconds CAP
                  --threads N --db DIR [SOLVER OPTIONS...]
and prints a markdown table: instance, solved (yes/no/stopped), length against the published
optimal length, expanded nodes, seconds, nodes/s, and expanded nodes against Korf & Felner 2002
(tests/data/korf24-nodes.tsv, column 3); then a summary.

Options:
  --threads N        threads for each instance (default: nproc, here $(nproc 2>/dev/null || echo 1))
  --cap SECONDS      per-instance time limit, passed as --max-seconds (default 600)
  --instances SPEC   a subset, e.g. 1-10,15 (default 1-50)
  --bin PATH         the tilespace binary (default: build/tilespace in the repository root)
  --db DIR           the database folder, passed as --db (default: out/ in the repository root)
  --out FILE.md      also write the table and summary to FILE.md
  --self-test        solve nothing: check the data files agree (50 instances, same numbering and
                     lengths, lengths sum to 5039), the --instances parser and the reading of
                     canned solver answers (the ctest korf24_data)
  -h, --help         this text
  -- ...             the rest goes to tilespace solve, e.g. -- --algorithm idastar --heuristic pdb:6-6-6-6

A search limit (tilespace exit 4) is "stopped", not an error; a stopped row's ratio is a lower
bound (>=: the nodes expanded before the cap). Progress goes to stderr when it is a terminal.
Exit status: 0 every solved length is the published one; 1 a solved length differs, or the
solver gave no answer (FAILURE rows); 2 a bad option, instance list, binary, or solver options;
3 a data file or database missing or wrong; 130 interrupted (Ctrl-C: the rows so far and their
summary are still printed, and written to --out).
EOF
}

die() {  # die STATUS MESSAGE: one line on stderr
  echo "$me: $2" >&2
  exit "$1"
}

# ---- the Python half: data files, --instances, JSON, formatting (python3's standard library only)
read -r -d '' py <<'PY' || true
import json, math, os, re, statistics, sys

def fail(status, message):
    print(f"korf24.sh: {message}", file=sys.stderr)
    sys.exit(status)

def rows(path):
    with open(path, encoding="utf-8") as f:
        return [(n, line.rstrip("\n")) for n, line in enumerate(f, 1)
                if line.strip() and not line.startswith("#")]

def load(data, nodes):
    """The instances of korf24.tsv and the reference counts, checked line by line."""
    inst = []
    for n, line in rows(data):
        fields = line.split("\t")
        tiles = fields[0].split()
        if len(fields) != 2 or sorted(map(int, tiles)) != list(range(25)) or not fields[1].isdigit():
            fail(3, f"{data}:{n}: not '<25 tiles> TAB <length>'")
        inst.append((fields[0], int(fields[1])))
    ref = rows(nodes)
    head, ref = ref[0][1].split("\t"), ref[1:]
    if head[:3] != ["instance", "length", "kf2002_6666"]:
        fail(3, f"{nodes}: the header is not 'instance TAB length TAB kf2002_6666 ...'")
    if len(inst) != 50 or len(ref) != 50:
        fail(3, f"{len(inst)} instances in {data}, {len(ref)} in {nodes}; 50 expected in each")
    kf = []
    for i, ((_, length), (n, line)) in enumerate(zip(inst, ref), 1):
        f = line.split("\t")
        if len(f) < 3 or f[0] != str(i) or f[1] != str(length):
            fail(3, f"{nodes}:{n}: instance {f[0]} length {f[1] if len(f) > 1 else '?'} "
                    f"but korf24.tsv's instance {i} has length {length}")
        try:
            kf.append(float(f[2]))
        except ValueError:
            fail(3, f"{nodes}:{n}: '{f[2]}' is not a node count")
    total = sum(length for _, length in inst)
    if total != 5039:
        fail(3, f"the lengths in {data} sum to {total}, not 5039")
    return inst, kf

def instances(spec):
    """'1-10,15' -> [1..10, 15]; None on anything else."""
    out = set()
    for part in spec.split(","):
        m = re.fullmatch(r"([0-9]+)(?:-([0-9]+))?", part)
        if not m:
            return None
        a, b = int(m[1]), int(m[2] or m[1])
        if not 1 <= a <= b <= 50:
            return None
        out.update(range(a, b + 1))
    return sorted(out)

def num(x, fmt="{:.3g}"):
    return "-" if x is None else fmt.format(x)

def secs(x):
    return "-" if x is None else f"{x:.2f}" if x < 10 else f"{x:.1f}"

def rate(x):
    return "-" if x is None else f"{x / 1e6:.2f} M" if x < 1e9 else f"{x / 1e9:.2f} G"

COLS = [("#", 3), ("solved", 7), ("length", 6), ("optimal", 7), ("expanded", 10), ("seconds", 8),
        ("wall s", 8), ("nodes/s", 8), ("K&F 2002", 8), ("ratio", 9)]

def line(cells):
    return "| " + " | ".join(str(c).rjust(w) for c, (_, w) in zip(cells, COLS)) + " |"

def header():
    print(line([h for h, _ in COLS]))
    print("|" + "|".join("-" * (w + 1) + ":" for _, w in COLS) + "|")

def field(j, *names):
    for n in names:
        if isinstance(j, dict) and j.get(n) is not None:
            return j[n]
    return None

def number(x):
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) else None

def row(results, inst, published, ref, rc, wall, out, err):
    """One instance: its markdown row on stdout, its record appended to RESULTS."""
    j = None
    try:
        with open(out, encoding="utf-8", errors="replace") as f:
            for text in reversed(f.read().splitlines()):
                if text.lstrip().startswith("{"):
                    j = json.loads(text)
                    break
    except (OSError, ValueError):
        j = None
    try:
        with open(err, encoding="utf-8", errors="replace") as f:
            why = ([l.strip() for l in f if l.strip()] or [""])[-1]
    except OSError:
        why = ""
    length = field(j, "length")
    length = length if isinstance(length, int) and not isinstance(length, bool) else None
    expanded = number(field(j, "expanded"))
    seconds = number(field(j, "seconds"))
    wall = float(wall)
    failure = ""
    if rc == 0 and j is not None and length is not None:
        status = "yes"
        if length != published:
            failure = f"instance {inst}: length {length}, but the published optimal length is {published}"
    elif rc == 4:
        # A search limit (or out of memory): the JSON says which, when there is one.
        stopped = field(j, "stopped")
        status = "stopped" if stopped in (None, "max-seconds") else f"stopped ({stopped})"
    else:
        status = "no"
        failure = (f"instance {inst}: no answer (tilespace exit {rc}"
                   + (", no JSON" if j is None else "") + (f": {why}" if why else "") + ")")
    if seconds is None:
        seconds = wall
    per_s = expanded / seconds if expanded is not None and seconds > 0 else None
    ratio = expanded / ref if expanded is not None and ref > 0 else None
    # A stopped run had not finished: its count so far is a lower bound on the count to solve it.
    ratio_text = "-" if ratio is None else f"{ratio:.3g}" if status == "yes" else f">={ratio:.3g}"
    optimal = "-" if status != "yes" else "yes" if not failure else f"NO ({published})"
    if status == "no":
        optimal = "FAILURE"
    print(line([inst, status, "-" if length is None else length, optimal, num(expanded),
                secs(seconds), secs(wall), rate(per_s), num(ref), ratio_text]), flush=True)
    if failure:
        print(f"korf24.sh: FAILURE: {failure}", file=sys.stderr, flush=True)
    meta = [str(field(j, k) if field(j, k) is not None else "-") for k in ("algorithm", "heuristic", "threads")]
    with open(results, "a", encoding="utf-8") as f:
        print("\t".join(map(str, [inst, status, "-" if length is None else length, published,
                                  "-" if expanded is None else expanded, seconds, ref,
                                  1 if failure else 0, *meta])), file=f)

def summary(results, cap, planned, interrupted):
    recs = []
    if os.path.exists(results):
        with open(results, encoding="utf-8") as f:
            recs = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    print()
    if not recs:
        print(f"No instance finished ({'interrupted' if interrupted == '1' else 'none run'}).")
        return 130 if interrupted == "1" else 0
    solved = [r for r in recs if r[1] == "yes"]
    times = [float(r[5]) for r in recs]
    failures = sum(int(r[7]) for r in recs)
    if interrupted == "1":
        print(f"Interrupted after {len(recs)} of the {planned} instances planned.")
    print(f"Solved {len(solved)} of {len(recs)} within the {cap} s cap; time total {sum(times):.1f} s, "
          f"median {statistics.median(times):.1f} s.")
    counted = [r for r in solved if r[4] != "-"]
    if counted:
        ours, refsum = sum(float(r[4]) for r in counted), sum(float(r[6]) for r in counted)
        left = len(solved) - len(counted)
        print(f"Expanded nodes over the {len(counted)} solved: {ours:.3g}; Korf & Felner 2002 "
              f"(6-6-6-6 + reflection) over the same instances: {refsum:.3g} (ratio {ours / refsum:.3g})"
              + (f"; {left} solved without an 'expanded' count left out." if left else "."))
    elif solved:
        print("Expanded nodes: the solver's JSON has no 'expanded' count.")
    def seen(i):
        values = sorted({r[i] for r in recs} - {"-"})
        return "/".join(values) if values else "-"
    print(f"Solver: algorithm {seen(8)}, heuristic {seen(9)}, threads {seen(10)} "
          f"(as its JSON reports; '-': not reported).")
    if failures:
        bad = ", ".join(r[0] for r in recs if r[7] == "1")
        print(f"FAILURE: instance(s) {bad}: a solved length differs from the published one, or no answer.")
        return 1
    return 130 if interrupted == "1" else 0

def rows_ok(tmp):
    """row() on canned solver answers: solved, solved with a wrong length, stopped, no answer."""
    import contextlib, io
    results, out, err = (os.path.join(tmp, n) for n in ("results.tsv", "out.json", "err"))
    cases = [  # rc, solver stdout, status, failure, ratio cell
        (0, '{"length":95,"expanded":1015000000,"seconds":10.0,"threads":2}', "yes", 0, "0.5"),
        (0, '{"length":97,"expanded":1015000000,"seconds":10.0}', "yes", 1, "0.5"),
        (4, '{"length":null,"expanded":203000000,"seconds":600,"stopped":"max-seconds"}', "stopped", 0, ">=0.1"),
        (4, "", "stopped", 0, "-"),
        (139, "", "no", 1, "-"),
        (0, '{"moves":"","seconds":1}', "no", 1, "-"),
    ]
    for rc, text, status, failed, ratio in cases:
        with open(out, "w") as f:
            f.write(text)
        open(err, "w").close()
        with contextlib.redirect_stdout(io.StringIO()) as shown, contextlib.redirect_stderr(io.StringIO()):
            row(results, 1, 95, 2.03e9, rc, "1.5", out, err)
        cells = [c.strip() for c in shown.getvalue().strip().strip("|").split("|")]
        with open(results) as f:
            rec = f.read().splitlines()[-1].split("\t")
        if cells[1] != status or int(rec[7]) != failed or cells[9] != ratio:
            fail(1, f"self-test: tilespace exit {rc} with {text or 'no output'!r} gives the row {cells}, "
                    f"failure {rec[7]}; expected {status}, failure {failed}, ratio {ratio}")
    with contextlib.redirect_stdout(io.StringIO()):
        if summary(results, "600", "6", "0") != 1:
            fail(1, "self-test: the summary of rows with failures does not exit 1")

def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "check":  # check DATA NODES SPEC: one line 'N<TAB>tiles<TAB>length<TAB>ref' each
        inst, kf = load(args[0], args[1])
        picked = instances(args[2])
        if picked is None:
            fail(2, f"--instances '{args[2]}': expected numbers 1 to 50 and ascending ranges, e.g. 1-10,15")
        for i in picked:
            print(f"{i}\t{inst[i - 1][0]}\t{inst[i - 1][1]}\t{kf[i - 1]:g}")
    elif cmd == "self-test":  # self-test DATA NODES TMPDIR
        inst, kf = load(args[0], args[1])
        cases = {"1-50": list(range(1, 51)), "1-10,15": list(range(1, 11)) + [15], "7": [7],
                 "3,1,3": [1, 3], "0": None, "51": None, "3-1": None, "1-": None, "": None,
                 "1,,2": None, " 1": None, "a": None, "1-5x": None}
        for spec, want in cases.items():
            if instances(spec) != want:
                fail(1, f"self-test: --instances '{spec}' gives {instances(spec)}, expected {want}")
        rows_ok(args[2])
        print(f"korf24 data: {len(inst)} instances, numbering and lengths agree with korf24-nodes.tsv, "
              f"lengths sum to {sum(l for _, l in inst)}; Korf & Felner 2002 nodes sum to {sum(kf):.3g}; "
              f"--instances parser and row logic ok")
    elif cmd == "header":
        header()
    elif cmd == "row":
        row(args[0], int(args[1]), int(args[2]), float(args[3]), int(args[4]), args[5], args[6], args[7])
    elif cmd == "summary":
        sys.exit(summary(*args))

main()
PY

command -v python3 >/dev/null 2>&1 || die 2 "python3 is needed to read the solver's JSON"

# ---- options
threads=$(nproc 2>/dev/null || echo 1)
cap=600
spec=1-50
bin=$root/build/tilespace
db=$root/out
out=
self_test=0
extra=()
need() { [[ $# -ge 2 && -n $2 ]] || die 2 "$1 needs a value (--help for usage)"; }
while [[ $# -gt 0 ]]; do
  case $1 in
    --threads) need "$@"; threads=$2; shift 2 ;;
    --cap) need "$@"; cap=$2; shift 2 ;;
    --instances) need "$@"; spec=$2; shift 2 ;;
    --bin) need "$@"; bin=$2; shift 2 ;;
    --db) need "$@"; db=$2; shift 2 ;;
    --out) need "$@"; out=$2; shift 2 ;;
    --threads=* | --cap=* | --instances=* | --bin=* | --db=* | --out=*)
      set -- "${1%%=*}" "${1#*=}" "${@:2}" ;;
    --self-test) self_test=1; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) die 2 "unknown option '$1' (solver options go after --; --help for usage)" ;;
  esac
done

for f in "$data" "$nodes"; do
  [[ -r $f ]] || die 3 "cannot read $f"
done
if ((self_test)); then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  python3 -c "$py" self-test "$data" "$nodes" "$tmp"
  exit
fi

# The data files' agreement, then the chosen instances: 'N<TAB>tiles<TAB>length<TAB>reference'.
plan=$(python3 -c "$py" check "$data" "$nodes" "$spec") || exit $?
planned=$(wc -l <<<"$plan")

if ! [[ $threads =~ ^[0-9]+$ ]] || ((10#$threads < 1 || 10#$threads > 1024)); then
  die 2 "--threads '$threads': expected a whole number from 1 to 1024"
fi
if ! [[ $cap =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)$ ]] || ! awk -v c="$cap" 'BEGIN { exit !(c > 0) }'; then
  die 2 "--cap '$cap': expected a number of seconds above 0"
fi
if [[ $bin != */* ]]; then
  bin=$(command -v -- "$bin") || die 2 "no tilespace binary '$bin' on PATH (pass --bin PATH)"
fi
[[ -f $bin && -x $bin ]] ||
  die 2 "no tilespace binary at $bin (build it with tools/dev.sh, or pass --bin PATH)"
[[ -d $db ]] || die 3 "no database folder $db (build the databases first, e.g. $bin build --board 5x5 --goal '$(seq -s ' ' 0 24)' --db $db)"
if [[ -n $out ]]; then
  [[ -d $(dirname -- "$out") ]] || die 2 "--out $out: no folder $(dirname -- "$out")"
fi

tmp=$(mktemp -d)
child=
interrupted=0
# shellcheck disable=SC2317  # (the traps call these)
cleanup() {
  if [[ -n $child ]]; then kill -TERM "$child" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
# Ctrl-C or TERM: stop the running instance (a background job ignores SIGINT, so it is sent TERM),
# then the summary of the rows so far.
# shellcheck disable=SC2317
on_signal() {
  interrupted=1
  if [[ -n $child ]]; then kill -TERM "$child" 2>/dev/null || true; fi
}
trap on_signal INT TERM

goal=$(seq -s ' ' 0 24)
results=$tmp/results.tsv
: >"$tmp/table.md"
title="Korf & Felner's 24-puzzle instances $spec: tilespace solve --board 5x5 --max-seconds $cap --threads $threads${extra[*]:+ ${extra[*]}}"
header() {  # before the first row, so that an error on the first instance is its only output
  {
    echo "$title"
    echo
    python3 -c "$py" header
  } | tee -a "$tmp/table.md"
}

progress=0
[[ -t 2 ]] && progress=1
start_all=$EPOCHREALTIME
k=0
while IFS=$'\t' read -r inst tiles length ref; do
  ((interrupted)) && break
  k=$((k + 1))
  if ((progress)); then
    printf '%s: instance %s (%d of %d, published %s moves), cap %s s; %.0f s so far\n' \
      "$me" "$inst" "$k" "$planned" "$length" "$cap" \
      "$(awk -v a="$start_all" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')" >&2
  fi
  t0=$EPOCHREALTIME
  "$bin" solve "$tiles" --board 5x5 --goal "$goal" --json --max-seconds "$cap" --threads "$threads" \
    --db "$db" "${extra[@]}" >"$tmp/out.json" 2>"$tmp/err" </dev/null &
  child=$!
  rc=0
  wait "$child" || rc=$?
  if ((interrupted)); then
    wait "$child" 2>/dev/null || true
    child=
    break
  fi
  child=
  wall=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
  why=$(grep -v '^[[:space:]]*$' "$tmp/err" | tail -n 1 || true)
  case $rc in
    2) die 2 "tilespace rejected the run (exit 2): ${why:-no message}" ;;
    3) die 3 "a database is missing or unusable (tilespace exit 3): ${why:-no message}" ;;
  esac
  ((k > 1)) || header
  python3 -c "$py" row "$results" "$inst" "$length" "$ref" "$rc" "$wall" "$tmp/out.json" "$tmp/err" |
    tee -a "$tmp/table.md" || ((interrupted)) || exit 1
done <<<"$plan"

status=0
python3 -c "$py" summary "$results" "$cap" "$planned" "$interrupted" | tee -a "$tmp/table.md" || status=$?
if [[ -n $out ]]; then
  cp -- "$tmp/table.md" "$out" || die 3 "cannot write $out"
fi
exit "$status"
