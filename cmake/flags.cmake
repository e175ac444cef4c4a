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

add_library(tilespace_flags INTERFACE)
if(TILESPACE_NATIVE)
  target_compile_options(tilespace_flags INTERFACE -march=native)
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
