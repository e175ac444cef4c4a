// The viewer's files (tools/viewer/static/*, /app.js bundled from tools/viewer/src/*.js and d3's
// bundle at /vendor/d3.min.js, both by esbuild), embedded in the binary at
// build time by CMake (cmake/viewer_assets.cmake writes viewer_assets.cpp with .incbin), so that
// `tilespace serve` needs no files beside it.
#pragma once

#include <span>
#include <string_view>

namespace tilespace::server {

struct Asset {
  const char* path;  // URL path, e.g. "/index.html", "/vendor/d3.min.js"
  const unsigned char* begin;
  const unsigned char* end;
  std::string_view body() const {
    return {reinterpret_cast<const char*>(begin), static_cast<std::size_t>(end - begin)};
  }
};

std::span<const Asset> viewer_assets();

}  // namespace tilespace::server
