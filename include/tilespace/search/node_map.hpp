// An open-addressing hash map from packed states (never 0: a state has non-blank tiles) to node
// indices, and the node store the best-first and breadth-first searches share.
// Linear probing, power-of-two capacity, grows at half load; no erase. Not thread-safe.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace tilespace::search {

class NodeMap {
 public:
  static constexpr std::uint32_t kAbsent = ~std::uint32_t{0};
  explicit NodeMap(std::size_t expected = 1024) { rehash(std::bit_ceil(std::max<std::size_t>(16, 2 * expected))); }

  std::uint32_t find(std::uint64_t key) const noexcept {
    for (std::size_t i = slot(key);; i = (i + 1) & mask_) {
      if (keys_[i] == key) return values_[i];
      if (keys_[i] == 0) return kAbsent;
    }
  }
  // Inserts key -> value if absent; returns the value stored for key.
  std::uint32_t insert(std::uint64_t key, std::uint32_t value) {
    if (2 * (size_ + 1) > keys_.size()) rehash(2 * keys_.size());
    for (std::size_t i = slot(key);; i = (i + 1) & mask_) {
      if (keys_[i] == key) return values_[i];
      if (keys_[i] == 0) {
        keys_[i] = key;
        values_[i] = value;
        ++size_;
        return value;
      }
    }
  }
  void clear() noexcept {
    std::fill(keys_.begin(), keys_.end(), 0);
    size_ = 0;
  }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return keys_.size() * (sizeof(std::uint64_t) + sizeof(std::uint32_t)); }

 private:
  std::size_t slot(std::uint64_t key) const noexcept {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_) & mask_;
  }
  void rehash(std::size_t capacity) {
    std::vector<std::uint64_t> old_keys(capacity, 0);
    std::vector<std::uint32_t> old_values(capacity);
    old_keys.swap(keys_);
    old_values.swap(values_);
    mask_ = capacity - 1;
    shift_ = 64 - std::countr_zero(capacity);
    size_ = 0;
    for (std::size_t i = 0; i < old_keys.size(); ++i)
      if (old_keys[i]) insert(old_keys[i], old_values[i]);
  }
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> values_;
  std::size_t mask_ = 0, size_ = 0;
  int shift_ = 64;
};

// One search node: the state, how it was reached, and its cost so far.
struct Node {
  std::uint64_t packed;
  std::uint32_t parent;  // index of the parent node; kAbsent for the root
  std::uint16_t g;
  std::uint8_t blank;
  std::uint8_t closed;
};

}  // namespace tilespace::search
