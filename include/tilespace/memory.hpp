// Large arrays of builds and searches, and what the machine has for them.
//
// `PageMemory` is the one owner of anonymous memory in tilespace: a private anonymous mapping,
// zero-filled, whose pages appear on first touch, with transparent huge pages asked for
// (MADV_HUGEPAGE; Linux gives them where it can). The arrays that are read or written at random
// over hundreds of megabytes — the two-bit fields, the pattern-database builder's marks and values,
// the pattern databases a search looks up, the move automaton's effect table — live in it: with
// 2 MiB pages their random accesses mostly hit the TLB instead of walking the page tables.
//
// Memory model: owns its mapping, move-only; unmapped on destruction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace tilespace {

// Bytes of physical memory (0 if unknown).
std::uint64_t physical_memory();

// The memory this process may use for its large arrays: the command's --max-memory when given,
// else the machine's physical memory (0 when unknown: no limit). Builds compare their estimates
// with it before any work (DistanceTable::choose_engine, build_pattern_database), and PageMemory
// refuses a mapping that would take what is held in PageMemory past it.
std::uint64_t memory_budget();
// Sets the budget (0: back to physical memory); `source` names it in refusals ("--max-memory 1G").
void set_memory_budget(std::uint64_t bytes, std::string_view source = "--max-memory");
// How refusals name the budget: "the memory limit of 1.0 GiB (--max-memory)" or "this machine's
// 23.4 GiB of memory".
std::string memory_budget_words();
// Bytes held in PageMemory now, all objects together.
std::uint64_t page_memory_in_use();
// Throws ResourceError ("<what> needs 1.0 GiB of memory, past the memory limit of ...") when `need`
// bytes pass nine tenths of the budget: the check every build makes before it starts.
void require_memory(std::uint64_t need, std::string_view what);
// Bytes for a person: "512 bytes", "381.5 MiB", "1.0 GiB".
std::string byte_words(std::uint64_t bytes);

class PageMemory {
 public:
  PageMemory() = default;
  // Maps `bytes` zero-filled bytes (none for 0). Throws ResourceError naming `what` and the bytes
  // when they would pass the memory budget (memory_budget) or the mapping fails.
  PageMemory(std::uint64_t bytes, std::string_view what);
  ~PageMemory();
  PageMemory(PageMemory&& o) noexcept;
  PageMemory& operator=(PageMemory&& o) noexcept;
  PageMemory(const PageMemory&) = delete;
  PageMemory& operator=(const PageMemory&) = delete;

  // Gives the memory after the first `bytes` (rounded up to whole pages) back to the system and
  // to the budget; size() is then that rounded size. Nothing happens when it would not shrink.
  void shrink(std::uint64_t bytes) noexcept;

  std::uint8_t* data() const noexcept { return data_; }
  std::uint64_t size() const noexcept { return size_; }
  std::span<std::uint8_t> bytes() const noexcept { return {data_, size_}; }
  // The memory as an array of T (size() / sizeof(T) of them).
  template <class T>
  std::span<T> as() const noexcept {
    return {reinterpret_cast<T*>(data_), size_ / sizeof(T)};
  }

 private:
  std::uint8_t* data_ = nullptr;
  std::uint64_t size_ = 0;
};

// A copy of `from` in PageMemory, made on every core (oneTBB); `what` names it in a refusal.
PageMemory copy_to_pages(std::span<const std::uint8_t> from, std::string_view what);

}  // namespace tilespace
