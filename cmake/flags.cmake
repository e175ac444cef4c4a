# Compiler settings as INTERFACE targets, so each target states what it wants.
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

# -march=native: the databases are built and queried on the machine that compiles the code
# (CI builds from scratch on its own machine). Turn off to produce a portable binary.
option(TILESPACE_NATIVE "Optimise for the building machine's CPU" ON)
# Sanitizers: address (ASan+UBSan) or thread (TSan); empty for none.
set(TILESPACE_SANITIZE "" CACHE STRING "address | thread | empty")

# Position-independent code everywhere, so the library links into the Python module (a shared
# object) as well as into the command. With -fno-semantic-interposition, GCC still inlines and
# calls directly within the library as it does for an executable (clang does by default); the
# linker relaxes the remaining GOT and PLT references in executables.
set(CMAKE_POSITION_INDEPENDENT_CODE ON)

add_library(tilespace_flags INTERFACE)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(tilespace_flags INTERFACE -fno-semantic-interposition)
endif()
if(TILESPACE_NATIVE)
  target_compile_options(tilespace_flags INTERFACE -march=native)
endif()
# Optimisation by the kind of code. A target whose property TILESPACE_GLUE is true is glue around
# the library (the test binary always; the command's own code under the sanitizers): -O1 in a
# normal build (a Catch2 file compiles in two thirds of its -O3 time) and -O0 under the sanitizers
# (half the time of -O1). A sanitizer build (TILESPACE_SANITIZE or TILESPACE_FUZZ) is for finding
# faults, not for speed: the rest at -O1 with line tables only (stack traces name file and line),
# which compiles in well under half the time of -O3 -g with the sanitizers' instrumentation
# (src/search/solve.cpp: 165 s against over 200 s with clang). These come after CMAKE_CXX_FLAGS_<CONFIG>
# on the command line, so they win.
set(TILESPACE_SANITIZED OFF)
if(TILESPACE_SANITIZE OR TILESPACE_FUZZ)
  set(TILESPACE_SANITIZED ON)
  target_compile_options(tilespace_flags INTERFACE $<IF:$<BOOL:$<TARGET_PROPERTY:TILESPACE_GLUE>>,-O0,-O1>)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    target_compile_options(tilespace_flags INTERFACE -gline-tables-only)
  else()
    target_compile_options(tilespace_flags INTERFACE -g1)
  endif()
else()
  target_compile_options(tilespace_flags INTERFACE $<$<BOOL:$<TARGET_PROPERTY:TILESPACE_GLUE>>:-O1>)
endif()
if(TILESPACE_SANITIZE STREQUAL "address")
  target_compile_options(tilespace_flags INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(tilespace_flags INTERFACE -fsanitize=address,undefined)
elseif(TILESPACE_SANITIZE STREQUAL "thread")
  target_compile_options(tilespace_flags INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(tilespace_flags INTERFACE -fsanitize=thread)
endif()

add_library(tilespace_warnings INTERFACE)
target_compile_options(tilespace_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)

# libFuzzer targets (tests/fuzz/, `fuzz_<target>` executables; tools/fuzz.sh builds and runs them):
# clang only. Everything is compiled with ASan and UBSan (any finding aborts), and assert()s stay
# on (-UNDEBUG): an internal invariant that fails on some input is a finding too. What the fuzzers
# explore (the library's parsers, loaders and queries, the application layer, the server) also
# carries the fuzzer's coverage instrumentation (-fsanitize=fuzzer-no-link: edge counters and a
# callback on every comparison). Code no fuzzer steers by its coverage does not:
# - targets whose property TILESPACE_UNFUZZED is true: the Catch2 tests and the command (no fuzz
#   target links them), which tools/sanitize.sh runs in this folder as its ASan+UBSan stage;
# - the compute engines (TILESPACE_UNFUZZED_SOURCES in CMakeLists.txt: the BFS engines, the pattern
#   database and automaton builders, the searches' instantiations), which the fuzzers run (a loaded
#   checkpoint continued, a loaded automaton searched) under ASan and UBSan all the same.
# The instrumentation made those tests 1.5-3 times slower (the two-bit engine's thread test 27.9 s
# against 9.2 s; the whole ASan stage's tests 549 s against 331 s in a build without it).
# The MPI tool and the benches are not needed there: their defaults are off (tests/fuzz also
# leaves the benches out of `all`).
option(TILESPACE_FUZZ "Build the libFuzzer targets of tests/fuzz (clang; ASan+UBSan)" OFF)
if(TILESPACE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "TILESPACE_FUZZ needs clang (libFuzzer): cmake -S . -B build-fuzz -DTILESPACE_FUZZ=ON "
                        "-DCMAKE_CXX_COMPILER=clang++ (Debian: clang, libfuzzer-14-dev)")
  endif()
  if(TILESPACE_SANITIZE)
    message(FATAL_ERROR "TILESPACE_FUZZ brings its own sanitizers (ASan+UBSan): leave TILESPACE_SANITIZE empty")
  endif()
  target_compile_options(tilespace_flags INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -UNDEBUG
    $<$<NOT:$<BOOL:$<TARGET_PROPERTY:TILESPACE_UNFUZZED>>>:-fsanitize=fuzzer-no-link>)
  target_link_options(tilespace_flags INTERFACE -fsanitize=address,undefined)
  if(NOT DEFINED CACHE{TILESPACE_TESTS})
    set(TILESPACE_TESTS OFF CACHE BOOL "Build the Catch2 tests")
  endif()
  if(NOT DEFINED CACHE{TILESPACE_MPI})
    set(TILESPACE_MPI OFF CACHE BOOL "Build tilespace-mpi, the two-bit build over MPI processes (needs Open MPI)")
  endif()
endif()

# ASan's executables (the command, the tests and the fuzz targets; TILESPACE_SANITIZE=address or
# TILESPACE_FUZZ) link at a fixed address: the tests start the sanitized command thousands of
# times, in 0.09 s instead of 0.11-0.14 s (no relocation of ASan's global metadata at start).
# TSan wants its executables position-independent.
if(TILESPACE_SANITIZED AND NOT TILESPACE_SANITIZE STREQUAL "thread")
  target_link_options(tilespace_flags INTERFACE $<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)
endif()

# tilespace_library_first(TARGET LIBRARY...): under the sanitizers, links the objects of each
# LIBRARY (the library's targets: tilespace, tilespace_test_reference) into TARGET before TARGET's
# own objects: first the compute engines' (TILESPACE_FIRST_OBJECTS, a regular expression set in
# CMakeLists.txt) and a LIBRARY's whose TILESPACE_UNFUZZED is true, then the others. An inline function (std::array::operator[], the State and Rank helpers) is
# compiled into every object that uses it, and the linker keeps the first copy it meets. Glue comes
# first on CMake's link line and is compiled at -O0 there, so without this the library's hot loops
# called the glue's -O0 copies, and the other library objects' copies carry the fuzzers'
# instrumentation (the fuzz folder). The objects are linked whole; the archives after them add
# nothing.
function(tilespace_library_first target)
  if(NOT TILESPACE_SANITIZED)
    return()
  endif()
  set(first "")
  set(rest "")
  foreach(library IN LISTS ARGN)
    get_target_property(unfuzzed ${library} TILESPACE_UNFUZZED)
    if(unfuzzed)  # all of it (tilespace_test_reference)
      list(APPEND first "$<TARGET_OBJECTS:${library}>")
    else()
      list(APPEND first "$<FILTER:$<TARGET_OBJECTS:${library}>,INCLUDE,${TILESPACE_FIRST_OBJECTS}>")
      list(APPEND rest "$<FILTER:$<TARGET_OBJECTS:${library}>,EXCLUDE,${TILESPACE_FIRST_OBJECTS}>")
    endif()
  endforeach()
  target_link_options(${target} PRIVATE ${first} ${rest})
endfunction()
