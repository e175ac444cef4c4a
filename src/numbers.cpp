// Strict numbers from option text (numbers.hpp).
#include "tilespace/numbers.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include "tilespace/errors.hpp"

namespace tilespace {

namespace {

std::string quoted(std::string_view t) {
  std::string s = "'";
  for (const char c : t.substr(0, 40)) s += (c >= 32 && c < 127) ? c : '?';
  return s + (t.size() > 40 ? "...'" : "'");
}

std::string real_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.15g", v);
  return b;
}

}  // namespace

std::uint64_t parse_whole(std::string_view option, std::string_view text, std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  const std::string range = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
  if (ec == std::errc::result_out_of_range) throw option_error(std::string(option), "must be " + range + ", not " + quoted(text) + " (too large)");
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw option_error(std::string(option), "must be " + range + ", not " + quoted(text) + " (not a whole number)");
  if (v < lo || v > hi) throw option_error(std::string(option), "must be " + range + ", not " + quoted(text));
  return v;
}

double parse_real(std::string_view option, std::string_view text, double lo, double hi, bool lo_open) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  const std::string range = lo_open ? "a number above " + real_text(lo) + " and at most " + real_text(hi)
                                    : "a number from " + real_text(lo) + " to " + real_text(hi);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) ||
      v < lo || (lo_open && v == lo) || v > hi)
    throw option_error(std::string(option), "must be " + range + ", not " + quoted(text));
  return v;
}

std::uint64_t parse_bytes(std::string_view option, std::string_view text) {
  const std::string usage = "expected bytes such as 512M or 2G, not " + quoted(text);
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || !std::isfinite(v)) throw option_error(std::string(option), usage);
  const std::string_view unit = text.substr(static_cast<std::size_t>(end - text.data()));
  double scale = 1;
  if (unit == "K" || unit == "k" || unit == "KiB") scale = 1024.0;
  else if (unit == "M" || unit == "MiB") scale = 1024.0 * 1024;
  else if (unit == "G" || unit == "GiB") scale = 1024.0 * 1024 * 1024;
  else if (unit == "T" || unit == "TiB") scale = 1024.0 * 1024 * 1024 * 1024;
  else if (!unit.empty() && unit != "B") throw option_error(std::string(option), "unknown unit " + quoted(unit) + ": " + usage);
  const double bytes = v * scale;
  if (!(bytes >= 1)) throw option_error(std::string(option), "must be at least 1 byte, not " + quoted(text));
  if (bytes > 0x1p60) throw option_error(std::string(option), "must be at most 1024 P, not " + quoted(text));
  return static_cast<std::uint64_t>(bytes);
}

}  // namespace tilespace
