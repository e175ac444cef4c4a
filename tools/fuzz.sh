#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/) with clang into build-fuzz/ and runs each one for
# SECONDS (default 20) under ASan+UBSan on a copy of its seed corpus, with its dictionary.
#
#   tools/fuzz.sh [SECONDS]
#
# Exits non-zero, naming the target, if any target finds a crash, a leak, a timeout (an input
# taking over 10 s), undefined behaviour or a failed property; the input that did it is kept as
# build-fuzz/fuzz-runs/<target>/crash-* (or leak-*, timeout-*, oom-*) for `build-fuzz/tests/fuzz/<target> FILE`.
# The repository is not modified: new inputs go to build-fuzz/fuzz-runs/<target>/corpus. Needs
# Debian's clang and libfuzzer-14-dev (tools/dev.sh installs them for `test`).
set -euo pipefail

seconds=${1:-20}
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [SECONDS]   (seconds per target, default 20)" >&2
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

failed=()
for t in "${targets[@]}"; do
  work=$build/fuzz-runs/$t
  rm -rf "$work"
  mkdir -p "$work/corpus"
  cp -r tests/fuzz/corpus/"$t"/. "$work/corpus/"
  args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$work/")
  [[ -f tests/fuzz/$t.dict ]] && args+=(-dict="tests/fuzz/$t.dict")
  echo "fuzz.sh: $t for ${seconds} s" >&2
  if "$build/tests/fuzz/$t" "${args[@]}" "$work/corpus" >"$work/log" 2>&1; then
    grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$work/log" | tail -n 1 >&2 || true
  else
    echo "fuzz.sh: $t FAILED (log: $work/log):" >&2
    grep -E 'ERROR|SUMMARY|fuzz property failed|Test unit written' "$work/log" | head -n 20 >&2 || true
    failed+=("$t")
  fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz.sh: failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz.sh: ${#targets[@]} targets ran ${seconds} s each without a finding" >&2
