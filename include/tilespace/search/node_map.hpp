// An open-addressing hash map from state words (never 0: a state has non-blank tiles) to node
// indices, and the node store the best-first and breadth-first searches share; both are templates
// over the domain's word (64 bits for packed boards, 128 for the 24-puzzle).
// Linear probing, power-of-two capacity, grows at half load; no erase. Not thread-safe.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace tilespace::search {

template <class K>
class BasicNodeMap {
 public:
  static constexpr std::uint32_t kAbsent = ~std::uint32_t{0};
  explicit BasicNodeMap(std::size_t expected = 1024) { rehash(std::bit_ceil(std::max<std::size_t>(16, 2 * expected))); }

  std::uint32_t find(K key) const noexcept {
    for (std::size_t i = slot(key);; i = (i + 1) & mask_) {
      if (keys_[i] == key) return values_[i];
      if (keys_[i] == 0) return kAbsent;
    }
  }
  // Inserts key -> value if absent; returns the value stored for key.
  std::uint32_t insert(K key, std::uint32_t value) {
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
  std::size_t bytes() const noexcept { return keys_.size() * (sizeof(K) + sizeof(std::uint32_t)); }

 private:
  std::size_t slot(K key) const noexcept {
    std::uint64_t k = static_cast<std::uint64_t>(key);
    if constexpr (sizeof(K) > 8) k ^= static_cast<std::uint64_t>(key >> 64) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ull) >> shift_) & mask_;
  }
  void rehash(std::size_t capacity) {
    std::vector<K> old_keys(capacity, 0);
    std::vector<std::uint32_t> old_values(capacity);
    old_keys.swap(keys_);
    old_values.swap(values_);
    mask_ = capacity - 1;
    shift_ = 64 - std::countr_zero(capacity);
    size_ = 0;
    for (std::size_t i = 0; i < old_keys.size(); ++i)
      if (old_keys[i]) insert(old_keys[i], old_values[i]);
  }
  std::vector<K> keys_;
  std::vector<std::uint32_t> values_;
  std::size_t mask_ = 0, size_ = 0;
  int shift_ = 64;
};

using NodeMap = BasicNodeMap<std::uint64_t>;

// One search node: the state, how it was reached, and its cost so far.
template <class W>
struct BasicNode {
  W packed;
  std::uint32_t parent;  // index of the parent node; kAbsent for the root
  std::uint16_t g;
  std::uint8_t blank;
  std::uint8_t closed;
};

using Node = BasicNode<std::uint64_t>;

}  // namespace tilespace::search
