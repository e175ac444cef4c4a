#!/bin/bash
# Before/after check for refactors: runs the same command-line examples (query, batch, stats, solve,
# a trace, check, random, verify, compare) and the same HTTP requests (every endpoint, errors
# included) with two `tilespace` binaries on copies of one database folder, and prints "same" or
# the difference for each. Times, seconds and the folder's name are masked.
#
#   tools/compare_binaries.sh OLD_TILESPACE NEW_TILESPACE
#
# Exit 0 when every output is the same, 1 otherwise.
set -u
old=$(realpath "${1:?usage: compare_binaries.sh OLD NEW}")
new=$(realpath "${2:?usage: compare_binaries.sh OLD NEW}")
work=$(mktemp -d)
trap 'kill $(cat "$work"/pid-* 2>/dev/null) 2>/dev/null; rm -rf "$work"' EXIT
differ=0
mask() { sed -E "s/db-(old|new)/db-X/g; s/[0-9]+\.[0-9]+( s\b| *$)/T\1/g; s/\"seconds\":[0-9.e-]*/\"seconds\":T/g; s/ready in [0-9.]*/ready in T/"; }

mkdir -p "$work/db"
"$old" build --board 3x3 --db "$work/db" >/dev/null 2>&1
printf '8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 8 0\n# a comment\nbad line\n1 2 3 4 5 6 8 7 0\n' >"$work/batch.txt"
printf '8 6 7 2 5 4 3 0 1\t1 2 3 4 5 6 7 8 0\tUNREACHABLE\n1 2 3 4 5 6 7 0 8\t1 2 3 4 5 6 7 8 0\tR\n' >"$work/answers.txt"

cli() {  # name, arguments...
  local name=$1 v bin
  shift
  for v in old new; do
    bin=$old
    [[ $v == new ]] && bin=$new
    rm -rf "$work/db-$v"
    cp -r "$work/db" "$work/db-$v"
    (cd "$work" && "$bin" "$@" --db "$work/db-$v" >"$work/$name.$v.out" 2>"$work/$name.$v.err"; echo "exit $?" >>"$work/$name.$v.out")
    mask <"$work/$name.$v.out" >"$work/$name.$v.o"
    mask <"$work/$name.$v.err" >"$work/$name.$v.e"
  done
  if cmp -s "$work/$name.old.o" "$work/$name.new.o" && cmp -s "$work/$name.old.e" "$work/$name.new.e"; then
    echo "same  $name"
  else
    echo "DIFF  $name"
    diff "$work/$name.old.o" "$work/$name.new.o" | head -6
    diff "$work/$name.old.e" "$work/$name.new.e" | head -6
    differ=1
  fi
}
cli query query "8 6 7 2 5 4 3 0 1"
cli query-json query "8 6 7 2 5 4 3 0 1" --json
cli batch query --batch "$work/batch.txt"
cli batch-json query --batch "$work/batch.txt" --json
cli stats stats --board 3x3 --json
cli solve solve "8 6 7 2 5 4 3 0 1"
cli solve-json solve "8 6 7 2 5 4 3 0 1" --json --algorithm astar --heuristic manhattan
cli solve-15 solve "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1" --json
cli trace solve "8 6 7 2 5 4 3 0 1" --algorithm astar --trace "$work/trace.json" --json
cli unreachable solve "1 2 3 4 5 6 8 7 0"
cli bad-option solve "8 6 7 2 5 4 3 0 1" --weight 3
cli random random --board 3x3 --count 3 --seed 7
cli check check "$work/answers.txt"
cli check-json check "$work/answers.txt" --json
cli verify verify --board 2x3 --algorithms astar,idastar
cli compare compare "8 6 7 2 5 4 3 0 1" --algorithms astar,idastar

for v in old new; do
  bin=$old
  [[ $v == new ]] && bin=$new
  rm -rf "$work/db-$v"
  cp -r "$work/db" "$work/db-$v"
  "$bin" serve --port 0 --db "$work/db-$v" >"$work/port-$v" 2>/dev/null &
  echo $! >"$work/pid-$v"
done
for _ in $(seq 50); do
  grep -q http "$work/port-old" 2>/dev/null && grep -q http "$work/port-new" 2>/dev/null && break
  sleep 0.1
done
url_old=$(grep -o 'http://[^/ ]*' "$work/port-old" | head -1)
url_new=$(grep -o 'http://[^/ ]*' "$work/port-new" | head -1)
api() {  # target
  local a b
  a=$(curl -s -w ' %{http_code}' "$url_old$1" | mask)
  b=$(curl -s -w ' %{http_code}' "$url_new$1" | mask)
  if [[ $a == "$b" ]]; then
    echo "same  GET $1 (${a: -3})"
  else
    echo "DIFF  GET $1"
    echo "  old: ${a:0:300}"
    echo "  new: ${b:0:300}"
    differ=1
  fi
}
api "/api/info"
api "/api/query?start=8+6+7+2+5+4+3+0+1"
api "/api/query?start=1+2+3&board=3x3"
api "/api/query?start=1+2+3+4+5+6+7+8+9+10+11+0&board=4x3"
api "/api/solve?start=8+6+7+2+5+4+3+0+1"
api "/api/solve?start=8+6+7+2+5+4+3+0+1&algorithm=idastar&heuristic=linear-conflict&trace=1"
api "/api/solve?start=8+6+7+2+5+4+3+0+1&algorithm=table"
api "/api/solve?start=8+6+7+2+5+4+3+0+1&heuristic=exact"
api "/api/solve?start=1+2+3+4+5+6+8+7+0"
api "/api/solve?start=8+6+7+2+5+4+3+0+1&trace=1&trace_limit=99999999"
api "/api/solve?start=8+6+7+2+5+4+3+0+1&weight=2"
api "/api/solve?start=8+6+7+2+5+4+3+0+1&nonsense=1"
api "/api/solve?start=2+1+3+4+5+6+7+8+9+10+11+12+13+14+15+0"
api "/api/solve?start=1+2+3+4+5+6+7+8+9+10+11+12+13+14+0+15&heuristic=pdb"
api "/api/solve?start=1+2+3+4+5+6+7+8+9+10+11+12+13+14+0+15&algorithm=table"
api "/api/solve?start=1+2+3+4+5+6+7+8+9+10+11+0&board=4x3&algorithm=table"
api "/api/stats?board=3x3"
api "/api/random?board=3x3&seed=3&depth=10"
for v in old new; do
  url=$url_old
  [[ $v == new ]] && url=$url_new
  curl -s -D - -H 'Content-Type: text/plain' --data-binary @"$work/batch.txt" "$url/api/query?json=1" |
    grep -vi '^date' >"$work/post-$v"
done
if cmp -s "$work/post-old" "$work/post-new"; then echo "same  POST /api/query?json=1"; else echo "DIFF  POST /api/query?json=1"; differ=1; fi
exit $differ
