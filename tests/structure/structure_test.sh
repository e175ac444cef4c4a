#!/bin/bash
# The house's rules of placement (docs/code-map.md), checked with grep over the sources:
#   - the application layer (tools/app) includes no front end: neither the command line nor the server;
#   - the command line (tools/cli, tools/tilespace.cpp aside) and Python include no header of the server;
#   - no front end includes a private header of src/ (tools/ sees include/ and tools/ only);
#   - every algorithm and heuristic is named in one registration (src/search/catalogue.hpp): no
#     other source compares a name with an algorithm's or a heuristic's literal name.
# Usage: structure_test.sh SOURCE_DIR
set -u
root=${1:?usage: structure_test.sh SOURCE_DIR}
cd "$root" || exit 2
fail=0
check() {  # description, then the offending lines on stdin
  local what=$1 lines
  lines=$(cat)
  if [ -n "$lines" ]; then
    echo "FAIL: $what:" >&2
    echo "$lines" >&2
    fail=1
  else
    echo "ok: $what"
  fi
}
src_headers=$(cd src && find . -name '*.hpp' | sed 's|^\./||')

grep -rnE '#include "(cli|server)/' tools/app | check "tools/app includes no front end"
grep -rnE '#include "server/' tools/cli tools/python | check "the command line and Python include no header of the server"
{
  grep -rnE '#include "(\.\./)+src/|#include "src/' tools bench --include=*.cpp --include=*.hpp
  for h in $src_headers; do grep -rnF "#include \"$(basename "$h")\"" tools bench --include=*.cpp --include=*.hpp; done
} | check "no front end includes a header of src/"
grep -nE 'target_include_directories\([^)]*\bsrc\b' CMakeLists.txt tools/*/CMakeLists.txt 2>/dev/null |
  check "no front end's target has src/ on its include path"

# Names compared with string literals outside the registration: == "astar", a == "pdb", ...
algos='table|bfs|bibfs|dfs|iddfs|greedy|astar|wastar|idastar|aidastar'
heurs='misplaced|manhattan|linear-conflict|inversions|inversions-weighted|misplaced-inversions|misplaced-shared-pairs|index-distance|exact'
grep -rnE "(==|!=) *\"($algos|$heurs)\"|\"($algos|$heurs)\" *(==|!=)" src tools/app tools/cli tools/server tools/python \
     --include=*.cpp --include=*.hpp | grep -v '^src/search/catalogue.hpp:' |
  check "algorithms and heuristics are dispatched by their registration, not by name comparisons"

exit $fail
