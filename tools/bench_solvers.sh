#!/usr/bin/env bash
# Solver-lab benchmarks (issue 3): A* with Manhattan on every 8-puzzle state, and IDA* with
# incremental Manhattan on the first 10 of Korf's 100 15-puzzle instances (one core).
# Usage: tools/bench_solvers.sh   (after tools/dev.sh has built build/tilespace)
set -euo pipefail
cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/.."
T=build/tilespace
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT

echo "== A* + Manhattan, every 8-puzzle state (goal 1 2 3 4 5 6 7 8 0), all cores"
"$T" verify --db "$db" --algorithms astar:manhattan 2>/dev/null

echo "== IDA* + Manhattan, Korf's instances 1-10 (goal 0 1 2 ... 15), one core"
goal="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
grep -v '^#' tests/data/korf100.tsv | head -10 | while IFS=$'\t' read -r start len; do
  "$T" solve "$start" --goal "$goal" -a idastar --json |
    python3 -c "import json,sys; j=json.load(sys.stdin); print(j['length'], $len, j['generated'], j['seconds'])"
done | awk '{ printf "  length %d (published %d)  generated %12d  %7.3f s\n", $1, $2, $3, $4;
              g += $3; s += $4; ok += ($1 == $2) }
            END { printf "  %d/10 optimal, %d nodes generated in %.2f s: %.1f M nodes/s (Korf: 1,590,188,172 nodes)\n",
                  ok, g, s, g / s / 1e6 }'
