#!/usr/bin/env bash
# Developer entry point: installs what is missing, builds into build/ and runs a task.
#
#   tools/dev.sh demo   the main job: installs what the command needs, builds only the command
#                       (the `tilespace` target), builds the 8-puzzle databases (every goal) and
#                       answers one query
#   tools/dev.sh test   installs everything, builds every target (the tests, the MPI command, the
#                       Python module, the man page), then runs every test (ctest, including the
#                       viewer in headless Chromium), then the sanitizers and fuzzers
#                       (tools/sanitize.sh: the tests under ASan+UBSan, every fuzz target for 12 s,
#                       the parallel engines' tests under TSan); exits non-zero if anything failed
#
# Works from any directory; everything happens in the repository root.
set -euo pipefail

usage() {
  echo "usage: $0 demo|test" >&2
  exit 2
}

[[ $# -eq 1 ]] || usage
task=$1
case "$task" in
  demo | test) ;;
  *) usage ;;
esac

cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/.."

# Debian packages. The command needs a compiler, CMake (with Ninja, which schedules a parallel build
# better than make: the whole demo in 105 s against 147 s), oneTBB, xxHash, CLI11, nlohmann-json,
# Boost (Beast and Asio: the server), zlib and help2man (the man page, which `cmake --install` makes
# from the installed command); Node.js and npm install the viewer's npm packages
# (d3, embedded into the command; any Node.js >= 18 will do). The test command adds Catch2 and
# cpp-httplib (the tests and their HTTP client), Open MPI (tilespace-mpi), pybind11 and NumPy for
# Debian's python3 (the Python module), pytest, Debian's headless
# Chromium (the viewer's tests), and clang with libFuzzer (tools/sanitize.sh, tools/fuzz.sh).
packages=(g++ cmake make ninja-build pkg-config libtbb-dev libxxhash-dev libcli11-dev nlohmann-json3-dev libboost-dev zlib1g-dev
          help2man)
[[ $task == test ]] && packages+=(catch2 libcpp-httplib-dev libopenmpi-dev openmpi-bin python3-dev pybind11-dev
                                  python3-pybind11 python3-numpy python3-pytest chromium clang
                                  libfuzzer-14-dev)
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
# The docs' examples of the server call curl (tests/docs/examples_test.py).
[[ $task == test ]] && packages+=(curl)

install_missing() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "dev.sh: not a Debian-based system; make sure these are installed: ${packages[*]}" >&2
    return 0
  fi
  local missing=() p
  for p in "${packages[@]}"; do
    if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]]; then
      missing+=("$p")
    fi
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0

  echo "dev.sh: installing ${missing[*]}" >&2
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "dev.sh: need root or sudo to install: ${missing[*]}" >&2
      exit 1
    fi
    sudo=(sudo)
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
}

build() {
  # New build folders (build/ here, build-fuzz/ and build-tsan/ in tools/sanitize.sh) use Ninja; one
  # made before keeps its generator.
  export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
  # The viewer's npm packages, exactly as locked (CMake embeds d3 into the binary).
  if [[ ! -f tools/viewer/node_modules/.package-lock.json ]] ||
     [[ tools/viewer/package-lock.json -nt tools/viewer/node_modules/.package-lock.json ]]; then
    (cd tools/viewer && npm ci --no-audit --no-fund)
  fi
  if [[ $task == demo ]]; then
    # The command alone: no tests, MPI command or Python module (test turns them back on).
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTILESPACE_TESTS=OFF -DTILESPACE_MPI=OFF -DTILESPACE_PYTHON=OFF
    cmake --build build -j"$(nproc)" --target tilespace_cli
  else
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTILESPACE_TESTS=ON -DTILESPACE_MPI=ON -DTILESPACE_PYTHON=ON
    cmake --build build -j"$(nproc)"
  fi
}

run() {
  echo "+ $*" >&2
  "$@"
}

install_missing
build

case "$task" in
  demo)
    run build/tilespace build --all-goals
    run build/tilespace query "1 3 2 4 0 5 6 7 8" --goal "1 2 3 8 0 4 7 6 5"
    ;;
  test)
    status=0
    start=$SECONDS
    # Two at a time; the tests that need both cores, the whole memory bandwidth or quiet timing run
    # alone (RUN_SERIAL, tests/CMakeLists.txt).
    # Meanwhile the sanitizer builds run at the lowest priority: they take the CPU time that the
    # Release tests leave idle, and each sanitizer stage waits for its folder's build
    # (tools/sanitize.sh prebuild; its log in build/sanitize-prebuild.log).
    nice -n 19 tools/sanitize.sh prebuild >build/sanitize-prebuild.log 2>&1 &
    prebuild=$!
    ctest --test-dir build --output-on-failure -j"$(nproc)" || status=$?
    echo "dev.sh: Release tests: $([[ $status -eq 0 ]] && echo ok || echo FAILED) in $((SECONDS - start)) s" >&2
    # The sanitized tests' shared 4x4 databases (tests/support.hpp) are built by this Release
    # command, the same files in 2 s rather than 60; the sanitized commands read them.
    TILESPACE_TEST_BUILDER=$PWD/build/tilespace run tools/sanitize.sh all || status=1
    wait "$prebuild" || true
    echo "dev.sh: test: $([[ $status -eq 0 ]] && echo 'everything passed' || echo FAILED) in $SECONDS s" >&2
    exit "$status"
    ;;
esac
