#!/usr/bin/env bash
# Throughput of `tilespace serve` on loopback: /api/query with random 8-puzzle states (wrk, from
# Debian's wrk package), then the first render of the viewer (tools/viewer/e2e.mjs prints it).
#   tools/bench/serve.sh [seconds=10] [connections=8]
set -euo pipefail
cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/../.."
secs=${1:-10}
conns=${2:-8}
command -v wrk >/dev/null || { echo "serve.sh: needs wrk (apt-get install wrk)" >&2; exit 2; }
db=$(mktemp -d)
out=$(mktemp)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$db" "$out"' EXIT
build/tilespace serve --port 0 --db "$db" --workers $((conns + 4)) >"$out" 2>/dev/null &
pid=$!
for _ in $(seq 100); do grep -q listening "$out" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$out")
echo "server: $url (pid $pid)"
wrk -t1 -c"$conns" -d"${secs}s" -s tools/bench/query.lua "${url}api/query"
