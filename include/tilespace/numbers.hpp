// Strict numbers from option text, shared by every front end and the library (the planner, the
// random states, the stores' limits): whole numbers, reals and byte sizes, each refused with an
// InputError about the option (errors.hpp: About::option) when it is not exactly one.
#pragma once

#include <cstdint>
#include <string_view>

namespace tilespace {

// A whole number in [lo, hi]; InputError about `option` otherwise (signs, blanks, overflow).
std::uint64_t parse_whole(std::string_view option, std::string_view text, std::uint64_t lo, std::uint64_t hi);
// A finite real in [lo, hi] (NaN and infinities refused); `lo_open`: lo itself is refused.
double parse_real(std::string_view option, std::string_view text, double lo, double hi, bool lo_open = false);
// Bytes: "512M", "2G", "100000" (K, M, G, T; KiB.. also; powers of 1024); at least 1 byte.
std::uint64_t parse_bytes(std::string_view option, std::string_view text);

}  // namespace tilespace
