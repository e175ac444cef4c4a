#!/usr/bin/env bash
# `cmake --install` after `tools/dev.sh demo`, which configures the build without the tests, MPI and
# Python and builds only the command (the `tilespace_cli` target): the install must work and lay out
# the command, the man page and the bash completion, with nothing else built. Rather than compile the
# command a second time, the test configures a folder exactly as the demo does (its flags read from
# tools/dev.sh) and puts there what building the demo's target leaves: the command and the library,
# copied from the test build. Registered with ctest (tests/CMakeLists.txt) as `install_after_demo`.
#   tests/install/demo_install_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tilespace-demo-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "demo_install_test: FAILED: $*" >&2; exit 1; }

# The demo's configure line in tools/dev.sh: `cmake -S . -B build <flags>` under `task == demo`.
line=$(grep -E '^ *cmake -S \. -B build .*-DTILESPACE_TESTS=OFF' "$src/tools/dev.sh") || fail "no demo configure line in tools/dev.sh"
read -r -a flags <<<"${line#*-B build }"
target=$(grep -oE 'cmake --build build .*--target [a-z_ ]+$' "$src/tools/dev.sh" | head -1 | sed 's/.*--target //')
[[ $target == tilespace_cli ]] || fail "the demo builds '$target', this test knows what tilespace_cli leaves"

demo=$work/build
cmake -S "$src" -B "$demo" "${flags[@]}" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure as the demo"; }
cp "$build/tilespace" "$demo/tilespace"
cp "$build/libtilespace.a" "$demo/libtilespace.a"
[[ ! -e $demo/share ]] || fail "the demo's folder already holds generated documents: the test would prove nothing"

prefix=$work/prefix
cmake --install "$demo" --prefix "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install after the demo"; }
for f in bin/tilespace share/bash-completion/completions/tilespace share/man/man1/tilespace.1 share/doc/tilespace/API.md; do
  [[ -s $prefix/$f ]] || fail "$f is not installed"
done
grep -q '^complete .*tilespace' "$prefix/share/bash-completion/completions/tilespace" || fail "the completion is not a completion script"
grep -q '^\.TH TILESPACE' "$prefix/share/man/man1/tilespace.1" || fail "the man page has no .TH line"
# Everything installed is listed in the manifest (what a packager or an uninstall reads).
for f in share/bash-completion/completions/tilespace share/man/man1/tilespace.1; do
  grep -qx "$prefix/$f" "$demo/install_manifest.txt" || fail "$f is not in install_manifest.txt"
done
find "$prefix" -name '*.tmp' | grep -q . && fail "temporary files left in the prefix"
echo "demo_install_test: cmake --install after the demo: ok"
