#!/usr/bin/env bash
# The sanitizer half of `tools/dev.sh test` (which has installed clang and libFuzzer by then).
#
#   tools/sanitize.sh [address|fuzz|thread|all]     (default: all, in that order)
#   tools/sanitize.sh prebuild                       builds both folders, runs nothing
#
#   address  build-fuzz/ (clang): the library, the command and the Catch2 tests with ASan+UBSan;
#            the same folder builds the fuzz targets, so what they explore also carries the
#            fuzzers' coverage instrumentation (not the tests, the command or the compute engines,
#            which run 1.5-3 times slower with it: cmake/flags.cmake); runs the tests except the
#            long ones (tests/CMakeLists.txt says which), two
#            at a time. Any report aborts the process: UBSan does not recover, and a command that
#            a test runs fails the test on a report whatever its exit code (tests/support.cpp).
#   fuzz     every libFuzzer target for FUZZ_SECONDS (default 12) on its seeds (tools/fuzz.sh).
#   thread   build-tsan/ (clang): the library and the tests with TSan (but the searches of boards of
#            up to 16 cells, which no [threads] test runs: uninstrumented, CMakeLists.txt); runs the
#            parallel engines' tests ([threads]) with the oneTBB suppressions, two at a time (each
#            keeps about one core busy under TSan: 85 s of CPU in 80 s alone).
#   prebuild builds what address, fuzz and thread run, in that order, and runs nothing.
#            tools/dev.sh test starts it in the background at the lowest priority while the Release
#            tests run, so the compilers use the CPU time those tests leave idle (a test running
#            alone on one core, the last tests of a stage). A folder's build holds a lock
#            (<folder>/build.lock) that the stage building and running it waits for: two builds
#            never share a folder, and a stage that finds its folder built only checks it.
#
# Both folders are compiled at -O1 (the tests' own code at -O0; cmake/flags.cmake). Each stage
# prints its wall time. Exits non-zero if any stage fails, after running the others.
set -euo pipefail

what=${1:-all}
case "$what" in
  address | fuzz | thread | all | prebuild) ;;
  *)
    echo "usage: $0 [address|fuzz|thread|all|prebuild]" >&2
    exit 2
    ;;
esac

cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/.."
jobs=$(nproc)
status=0

stage() {
  local name=$1 start=$SECONDS rc=0
  shift
  echo "sanitize.sh: $name" >&2
  "$@" || rc=$?
  echo "sanitize.sh: $name: $([[ $rc -eq 0 ]] && echo ok || echo "FAILED (exit $rc)") in $((SECONDS - start)) s" >&2
  [[ $rc -eq 0 ]] || status=1
  return 0
}

# locked FOLDER COMMAND...: runs COMMAND holding FOLDER's build lock (waiting for it).
locked() {
  local dir=$1
  shift
  mkdir -p "$dir"
  (
    flock 9
    "$@"
  ) 9>"$dir/build.lock"
}

build_address() {
  cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DTILESPACE_FUZZ=ON -DTILESPACE_TESTS=ON \
        -DTILESPACE_MPI=OFF >/dev/null
  cmake --build build-fuzz -j"$jobs" --target tilespace_tests fuzz
}

build_thread() {
  cmake -S . -B build-tsan -DCMAKE_CXX_COMPILER=clang++ -DTILESPACE_SANITIZE=thread -DTILESPACE_MPI=OFF >/dev/null
  cmake --build build-tsan -j"$jobs" --target tilespace_tests
}

address() {
  locked build-fuzz build_address
  ctest --test-dir build-fuzz --output-on-failure -j"$jobs"
}

fuzz() {
  # The targets are built by `address` (the same folder); fuzz.sh builds what is missing.
  locked build-fuzz tools/fuzz.sh "${FUZZ_SECONDS:-12}"
}

thread() {
  locked build-tsan build_thread
  ctest --test-dir build-tsan --output-on-failure -j"$jobs"
}

if [[ $what == prebuild ]]; then
  # A failure here is reported again by the stage that builds the folder after it.
  locked build-fuzz build_address || true
  locked build-tsan build_thread || true
  exit 0
fi

[[ $what == all || $what == address ]] && stage "ASan+UBSan: build and tests (build-fuzz)" address
[[ $what == all || $what == fuzz ]] && stage "libFuzzer: every target for ${FUZZ_SECONDS:-12} s" fuzz
[[ $what == all || $what == thread ]] && stage "TSan: build and the [threads] tests (build-tsan)" thread
exit "$status"
