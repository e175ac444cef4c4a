#include "tilespace/memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "tilespace/errors.hpp"

namespace tilespace {

std::uint64_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

PageMemory::PageMemory(std::uint64_t bytes, std::string_view what) {
  if (bytes == 0) return;
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw ResourceError("cannot map " + std::to_string(bytes) + " bytes for " + std::string(what) + ": " +
                        std::strerror(errno));
  ::madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without huge pages it still works
  data_ = static_cast<std::uint8_t*>(p);
  size_ = bytes;
}

PageMemory::~PageMemory() {
  if (data_) ::munmap(data_, size_);
}

PageMemory::PageMemory(PageMemory&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}

PageMemory& PageMemory::operator=(PageMemory&& o) noexcept {
  if (this != &o) {
    if (data_) ::munmap(data_, size_);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}

PageMemory copy_to_pages(std::span<const std::uint8_t> from, std::string_view what) {
  PageMemory m(from.size(), what);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, from.size(), std::size_t{1} << 21), [&](const auto& r) {
    std::memcpy(m.data() + r.begin(), from.data() + r.begin(), r.end() - r.begin());
  });
  return m;
}

}  // namespace tilespace
