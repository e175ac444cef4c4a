#!/usr/bin/env bash
# The byte and two-bit engines side by side, as whole processes (BFS and the database write):
#   tools/bench/bfs_engines.sh [BOARD] [RUNS]      (default 3x4, 3 runs each, alternating)
# Prints each run's wall time and peak RSS, the medians and the ratio byte / two-bit.
set -euo pipefail
cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/../.."
board=${1:-3x4}
runs=${2:-3}
bin=build/tilespace
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
declare -A times
for ((i = 1; i <= runs; i++)); do
  for bits in 8 2; do
    rm -rf "$dir/db"
    /usr/bin/time -f "%e %M" -o "$dir/t" "$bin" build --board "$board" --bits "$bits" --db "$dir/db" >/dev/null
    read -r secs kb <"$dir/t"
    echo "run $i, $bits bits: $secs s, peak RSS $((kb / 1024)) MiB, file $(($(stat -c %s "$dir"/db/*.tsdb) / 1048576)) MiB"
    times[$bits]+="$secs "
  done
done
median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
m8=$(median "${times[8]}")
m2=$(median "${times[2]}")
echo "median: byte engine $m8 s, two-bit engine $m2 s, ratio $(awk -v a="$m8" -v b="$m2" 'BEGIN {printf "%.2f", a / b}')"
