#include "tilespace/memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <mutex>
#include <cstring>
#include <string>
#include <utility>

#include "tilespace/errors.hpp"

namespace tilespace {

std::uint64_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

namespace {

std::atomic<std::uint64_t> budget{0};  // 0: physical memory
std::atomic<std::uint64_t> in_use{0};
std::mutex source_mu;
std::string budget_source;

}  // namespace

std::string byte_words(std::uint64_t b) {
  char s[48];
  if (b >= (std::uint64_t{1} << 30)) std::snprintf(s, sizeof s, "%.1f GiB", static_cast<double>(b) / (1u << 30));
  else if (b >= (std::uint64_t{1} << 20)) std::snprintf(s, sizeof s, "%.1f MiB", static_cast<double>(b) / (1u << 20));
  else std::snprintf(s, sizeof s, "%llu bytes", static_cast<unsigned long long>(b));
  return s;
}

void require_memory(std::uint64_t need, std::string_view what) {
  const std::uint64_t have = memory_budget();
  if (have && need > have / 10 * 9)
    throw ResourceError(std::string(what) + " needs " + byte_words(need) +
                        (need >= (1u << 20) ? " (" + std::to_string(need) + " bytes)" : std::string()) + " of memory, past " +
                        memory_budget_words() +
                        " (at most nine tenths of it)");
}

std::uint64_t memory_budget() {
  const std::uint64_t b = budget.load(std::memory_order_relaxed);
  return b ? b : physical_memory();
}

void set_memory_budget(std::uint64_t bytes, std::string_view source) {
  budget.store(bytes, std::memory_order_relaxed);
  const std::lock_guard lock(source_mu);
  budget_source = source;
}

std::string memory_budget_words() {
  const std::uint64_t b = budget.load(std::memory_order_relaxed);
  if (!b) return "this machine's " + byte_words(physical_memory()) + " of memory";
  const std::lock_guard lock(source_mu);
  return "the memory limit of " + byte_words(b) + " (" + budget_source + ")";
}

std::uint64_t page_memory_in_use() { return in_use.load(std::memory_order_relaxed); }

PageMemory::PageMemory(std::uint64_t bytes, std::string_view what) {
  if (bytes == 0) return;
  const std::uint64_t limit = memory_budget();
  const std::uint64_t before = in_use.fetch_add(bytes, std::memory_order_relaxed);
  if (limit && before + bytes > limit) {
    in_use.fetch_sub(bytes, std::memory_order_relaxed);
    throw ResourceError(std::string(what) + " needs " + byte_words(bytes) + (before ? " more (" + byte_words(before) + " in use)" : "") +
                        ", past " + memory_budget_words());
  }
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    in_use.fetch_sub(bytes, std::memory_order_relaxed);
    throw ResourceError("cannot map " + std::to_string(bytes) + " bytes for " + std::string(what) + ": " +
                        std::strerror(errno));
  }
  ::madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without huge pages it still works
  data_ = static_cast<std::uint8_t*>(p);
  size_ = bytes;
}

PageMemory::~PageMemory() {
  if (data_) {
    ::munmap(data_, size_);
    in_use.fetch_sub(size_, std::memory_order_relaxed);
  }
}

PageMemory::PageMemory(PageMemory&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}

PageMemory& PageMemory::operator=(PageMemory&& o) noexcept {
  if (this != &o) {
    if (data_) {
      ::munmap(data_, size_);
      in_use.fetch_sub(size_, std::memory_order_relaxed);
    }
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}

void PageMemory::shrink(std::uint64_t bytes) noexcept {
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGE_SIZE));
  const std::uint64_t keep = (bytes + page - 1) / page * page;
  if (!data_ || keep >= size_) return;
  if (keep == 0) {
    *this = PageMemory();
    return;
  }
  if (::munmap(data_ + keep, size_ - keep) != 0) return;  // the mapping stays whole: nothing is given back
  in_use.fetch_sub(size_ - keep, std::memory_order_relaxed);
  size_ = keep;
}

PageMemory copy_to_pages(std::span<const std::uint8_t> from, std::string_view what) {
  PageMemory m(from.size(), what);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, from.size(), std::size_t{1} << 21), [&](const auto& r) {
    std::memcpy(m.data() + r.begin(), from.data() + r.begin(), r.end() - r.begin());
  });
  return m;
}

}  // namespace tilespace
