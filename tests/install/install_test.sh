#!/usr/bin/env bash
# Installs the build into a temporary prefix and uses it as a user would: the command, the CMake
# package (a consumer project built with find_package, and a version it must refuse), the
# pkg-config file (the same program compiled by hand), the Python module, the man page and the
# bash completion. Registered with ctest (tests/CMakeLists.txt) as `install`.
#   tests/install/install_test.sh BUILD_DIR PYTHON
set -euo pipefail
build=$(cd "$1" && pwd)
python=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tilespace-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

fail() { echo "install_test: FAILED: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
version=$(sed -n 's/^#define TILESPACE_VERSION "\(.*\)"$/\1/p' "$prefix/include/tilespace/version.hpp")
[[ -n $version ]] || fail "no version in the installed version.hpp"

# Everything where a user (and their tools) look for it.
libdir=$(cd "$prefix" && dirname "$(find . -name libtilespace.a | head -1)")
[[ $libdir != . ]] || fail "libtilespace.a is not installed"
for f in bin/tilespace include/tilespace/distance_table.hpp include/tilespace/search/registry.hpp \
         include/tilespace/search/algorithms/ida_star.hpp \
         "$libdir/cmake/tilespace/tilespaceConfig.cmake" "$libdir/cmake/tilespace/tilespaceConfigVersion.cmake" \
         "$libdir/pkgconfig/tilespace.pc" share/man/man1/tilespace.1 share/bash-completion/completions/tilespace \
         share/doc/tilespace/API.md; do
  [[ -f $prefix/$f ]] || fail "$f is not installed"
done
[[ $("$prefix/bin/tilespace" --version) == "tilespace $version" ]] || fail "tilespace --version is not 'tilespace $version'"
# serve --help points to the installed API document, not to a source path.
serve_help=$("$prefix/bin/tilespace" serve --help)  # whole: grep -q on a pipe could end it by SIGPIPE
grep -q "share/doc/tilespace/API.md" <<<"$serve_help" || fail "serve --help does not name share/doc/tilespace/API.md"
grep -q "tools/viewer" <<<"$serve_help" && fail "serve --help names a source path"
grep -q "$version" "$prefix/share/man/man1/tilespace.1" || fail "the man page does not give the version $version"
# Nothing in the install may point back into the build or source tree.
if grep -rlI -e "$build" -e "$here" "$prefix" >/dev/null; then
  fail "installed files name the build or source folder: $(grep -rlI -e "$build" -e "$here" "$prefix" | head -3)"
fi

# The example of docs/install.md (tests/install/consumer/main.cpp): the 8-puzzle's facts. The page
# shows the file as it is, from its first #include on.
shown=$(awk '/^```cpp$/ {f = 1; next} /^```$/ {f = 0} f' "$here/../../docs/install.md" | sed -n '/^#include/,$p')
[[ -n $shown && $shown == "$(sed -n '/^#include/,$p' "$here/consumer/main.cpp")" ]] ||
  fail "docs/install.md does not show tests/install/consumer/main.cpp as it is (from its first #include on)"
expected="tilespace $version: 8 6 7 2 5 4 3 0 1 is 31 moves from the goal
181440 states, radius 31, 2 at the radius"

cmake -S "$here/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "find_package(tilespace CONFIG)"; }
cmake --build "$work/consumer" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "building against tilespace::tilespace"; }
[[ $("$work/consumer/consumer") == "$expected" ]] || fail "the consumer printed: $("$work/consumer/consumer")"
echo "install_test: find_package(tilespace CONFIG) and tilespace::tilespace: ok"

# The version file: the same major.minor is accepted, another refused.
IFS=. read -r major minor _ <<<"$version"
cmake -S "$here/consumer" -B "$work/v-same" -DCMAKE_PREFIX_PATH="$prefix" -DTILESPACE_WANTED="$major.$minor" \
  >"$work/v.log" 2>&1 || { cat "$work/v.log"; fail "find_package(tilespace $major.$minor) refused version $version"; }
if cmake -S "$here/consumer" -B "$work/v-next" -DCMAKE_PREFIX_PATH="$prefix" -DTILESPACE_WANTED="$major.$((minor + 1))" \
  >"$work/v.log" 2>&1; then
  fail "find_package(tilespace $major.$((minor + 1))) accepted version $version"
fi
echo "install_test: the package version file: ok"

# pkg-config: the same program compiled by hand.
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
[[ $(pkg-config --modversion tilespace) == "$version" ]] || fail "pkg-config --modversion tilespace"
# shellcheck disable=SC2046
g++ -O1 -o "$work/pc-consumer" "$here/consumer/main.cpp" $(pkg-config --cflags --libs tilespace) ||
  fail "compiling with pkg-config --cflags --libs tilespace"
[[ $("$work/pc-consumer") == "$expected" ]] || fail "the pkg-config consumer printed: $("$work/pc-consumer")"
echo "install_test: pkg-config: ok"

# The Python module, from the prefix alone (a folder of its own so the build tree is not used).
pydir=$(cd "$prefix" && dirname "$(find . -path '*/tilespace/__init__.py' | head -1)")
[[ $pydir != . ]] || fail "the Python module is not installed"
out=$(cd "$work" && PYTHONPATH="$prefix/$(dirname "$pydir")" "$python" -c '
import tilespace, sys
print(tilespace.__version__, tilespace.__file__.startswith(sys.argv[1]), tilespace.distance("8 6 7 2 5 4 3 0 1", db=sys.argv[2]))
' "$prefix" "$work/db")
[[ $out == "$version True 31" ]] || fail "the installed Python module printed: $out"
echo "install_test: the Python module: ok"
