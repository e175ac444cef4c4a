#!/usr/bin/env bash
# The front door's throughput, as whole processes on 8-puzzle inputs made here:
#   tools/bench/front_door.sh [PAIRS] [RUNS]      (default 2000000 pairs, 5 runs each, alternating)
# - query --batch on PAIRS random "START GOAL" lines (independent uniform permutations: about half
#   unreachable), on every core against --threads 1 (the baseline, same run);
# - check on PAIRS/2 answer lines (optimal moves from `solve --batch -a table`), against
#   query --batch --threads 1 over the same starts (the baseline: one table lookup a line).
# Prints each run, the medians, pairs (lines) a second and the ratios.
set -euo pipefail
cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/../.."
pairs=${1:-2000000}
runs=${2:-5}
bin=$PWD/build/tilespace
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$bin" build --all-goals >/dev/null 2>&1
"$bin" random --count "$pairs" --seed 1 --board 3x3 >a.txt
python3 - "$pairs" <<'EOF' >pairs.txt
import random, sys
r = random.Random(11)
for _ in range(int(sys.argv[1])):
    a = list(range(9)); b = list(range(9)); r.shuffle(a); r.shuffle(b)
    print(' '.join(map(str, a)), ' '.join(map(str, b)))
EOF
half=$((pairs / 2))
head -n "$half" a.txt >starts.txt
"$bin" solve --batch starts.txt -a table 2>/dev/null |
  python3 -c 'import json, sys; [print(json.loads(l)["moves"]) for l in sys.stdin]' >moves.txt
paste starts.txt /dev/null moves.txt >answers.tsv

declare -A times
timed() {  # timed KEY COMMAND...
  local key=$1
  shift
  /usr/bin/time -f "%e" -o t "$@" >/dev/null 2>/dev/null || true
  times[$key]+="$(tail -n 1 t) "  # the last line: a non-zero exit adds one before it
}
for ((i = 1; i <= runs; i++)); do
  timed batch "$bin" query --batch pairs.txt
  timed batch1 "$bin" query --batch pairs.txt --threads 1
  timed check "$bin" check answers.tsv
  timed lookup1 "$bin" query --batch starts.txt --threads 1
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN {printf "%.2f M/s", n / s / 1e6}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
b=$(median "${times[batch]}"); b1=$(median "${times[batch1]}")
c=$(median "${times[check]}"); l1=$(median "${times[lookup1]}")
echo "query --batch, $pairs random pairs: $b s on every core ($(rate "$pairs" "$b")), $b1 s on one ($(rate "$pairs" "$b1")); ratio $(ratio "$b" "$b1")"
echo "check, $half optimal answers: $c s ($(rate "$half" "$c") lines); query --batch --threads 1 on the same starts $l1 s; ratio $(ratio "$c" "$l1")"
