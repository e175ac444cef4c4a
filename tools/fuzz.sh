#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/) with clang into build-fuzz/ and runs each one for
# SECONDS (default 12) under ASan+UBSan on a copy of its seed corpus, with its dictionary.
#
#   tools/fuzz.sh [SECONDS]
#
# FUZZ_JOBS (default: the number of cores) targets run at a time. tools/dev.sh test runs it with
# the default 12 s (tools/sanitize.sh), so a regression any seed or a short run finds fails CI;
# a search for new findings wants minutes a target (`tools/fuzz.sh 600`).
# Exits non-zero, naming the target, if any target finds a crash, a leak, a timeout (an input
# taking over 10 s), undefined behaviour or a failed property; the input that did it is kept as
# build-fuzz/fuzz-runs/<target>/crash-* (or leak-*, timeout-*, oom-*) for `build-fuzz/tests/fuzz/<target> FILE`.
# The repository is not modified: new inputs go to build-fuzz/fuzz-runs/<target>/corpus. Needs
# Debian's clang and libfuzzer-14-dev (tools/dev.sh installs them for `test`).
set -euo pipefail

seconds=${1:-12}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [SECONDS]   (seconds per target, default 12)" >&2
  exit 2
fi

cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/.."

build=build-fuzz
cmake -S . -B "$build" -DTILESPACE_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" --target fuzz -j"$(nproc)"

targets=()
for src in tests/fuzz/fuzz_*.cpp; do
  targets+=("$(basename "$src" .cpp)")
done

# One target's run; its summary line goes to stderr, its status is the target's verdict.
run_target() {
  local t=$1 work=$build/fuzz-runs/$1
  rm -rf "$work"
  mkdir -p "$work/corpus"
  cp -r tests/fuzz/corpus/"$t"/. "$work/corpus/"
  local args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
              -artifact_prefix="$work/")
  [[ -f tests/fuzz/$t.dict ]] && args+=(-dict="tests/fuzz/$t.dict")
  if "$build/tests/fuzz/$t" "${args[@]}" "$work/corpus" >"$work/log" 2>&1; then
    # "#<runs> DONE cov: <edges> ft: <features> corp: <inputs>/<bytes> ... exec/s: <rate> rss: <MB>"
    echo "fuzz.sh: $t: $(grep -E '^#[0-9]+.*DONE' "$work/log" | tail -n 1)" >&2
  else
    { echo "fuzz.sh: $t FAILED (log: $work/log):"
      grep -E 'ERROR|SUMMARY|fuzz property failed|Test unit written' "$work/log" | head -n 20 || true; } >&2
    return 1
  fi
}

# FUZZ_JOBS targets at a time (default: one per core).
jobs=${FUZZ_JOBS:-$(nproc)}
echo "fuzz.sh: ${#targets[@]} targets, ${seconds} s each, ${jobs} at a time" >&2
declare -A running=()  # pid -> target
failed=()
reap() {
  local pid
  for pid in "${!running[@]}"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      wait "$pid" || failed+=("${running[$pid]}")
      unset "running[$pid]"
    fi
  done
}
for t in "${targets[@]}"; do
  while [[ ${#running[@]} -ge $jobs ]]; do
    wait -n || true
    reap
  done
  run_target "$t" &
  running[$!]=$t
done
while [[ ${#running[@]} -gt 0 ]]; do
  wait -n || true
  reap
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz.sh: failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz.sh: ${#targets[@]} targets ran ${seconds} s each without a finding" >&2
