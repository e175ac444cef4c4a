#!/usr/bin/env bash
# Throughput of `tilespace serve` on loopback: GET /api/query with random 8-puzzle states (wrk, from
# Debian's wrk package), optionally while another client holds idle connections open, and
# POST /api/query with a batch of random pairs over one connection (curl).
#   tools/bench/serve.sh [--bin B] [--seconds 10] [--connections 8] [--idle 0] [--batch 0]
#     --bin B        the tilespace binary (default build/tilespace): run twice to compare two builds
#     --idle N       N connections opened first and held open, silent, for the whole run
#     --batch LINES  also POST LINES random pairs ("START GOAL" lines) in one request
set -euo pipefail
cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/../.."
bin=build/tilespace secs=10 conns=8 idle=0 batch=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --seconds) secs=$2; shift 2 ;;
    --connections) conns=$2; shift 2 ;;
    --idle) idle=$2; shift 2 ;;
    --batch) batch=$2; shift 2 ;;
    *) echo "usage: $0 [--bin B] [--seconds S] [--connections C] [--idle N] [--batch LINES]" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "serve.sh: needs wrk (apt-get install wrk)" >&2; exit 2; }
db=$(mktemp -d)
out=$(mktemp)
holder=
trap 'kill "$pid" $holder 2>/dev/null || true; rm -rf "$db" "$out"' EXIT
# Workers enough for every connection, so that a thread-per-connection server is not starved by
# the count alone.
"$bin" serve --port 0 --db "$db" --workers $((conns + idle + 4)) >"$out" 2>/dev/null &
pid=$!
for _ in $(seq 100); do grep -q listening "$out" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$out")
port=${url##*:}
port=${port%/}
echo "server: $bin at $url (pid $pid)"
if [[ $idle -gt 0 ]]; then
  python3 -c '
import socket, sys, time
held = [socket.create_connection(("127.0.0.1", int(sys.argv[1]))) for _ in range(int(sys.argv[2]))]
print(f"holding {len(held)} idle connections", flush=True)
time.sleep(3600)' "$port" "$idle" &
  holder=$!
  sleep 1
fi
wrk -t1 -c"$conns" -d"${secs}s" -s tools/bench/query.lua "${url}api/query"
if [[ $batch -gt 0 ]]; then
  pairs=$db/pairs.txt
  python3 -c '
import random, sys
random.seed(7)
tiles = list("123456780")
out = []
for _ in range(int(sys.argv[1])):
    a = tiles[:]; random.shuffle(a); b = tiles[:]; random.shuffle(b)
    out.append("".join(a) + " " + "".join(b))
open(sys.argv[2], "w").write("\n".join(out) + "\n")' "$batch" "$pairs"
  bytes=$(stat -c %s "$pairs")
  t=$(curl -s -o "$db/answers.txt" -w '%{time_total}' --data-binary @"$pairs" -H 'Content-Type: text/plain' \
        "${url}api/query")
  lines=$(wc -l <"$db/answers.txt")
  python3 -c 'import sys; n, t, b = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]); print(f"POST /api/query: {n} pairs ({b / 1e6:.1f} MB) answered in {t:.3f} s: {n / t / 1e6:.2f} M pairs/s")' \
    "$lines" "$t" "$bytes"
fi
