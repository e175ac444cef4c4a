// An open-addressing hash map from state words (never 0: a state has non-blank tiles) to node
// indices, and the node store the best-first and breadth-first searches share; both are templates
// over the domain's word (64 bits for packed boards, 128 for the 24-puzzle).
// Linear probing, power-of-two capacity, grows at half load; no erase. Not thread-safe.
//
// Memory: capacity() slots of sizeof(K) + 4 bytes (bytes()), all touched (zero-filled); a growth
// holds the old and the new slots at once until the keys are moved (bytes_for(2 * capacity())
// more). A search under a memory limit grows it itself, between expansions (grow(), when fits()
// says the next expansion's keys would pass half load), and when doubling would pass its limit
// lets it fill to three quarters instead (fill_to_most()) before it stops.
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
  // Inserts key -> value if absent; returns the value stored for key. Doubles the capacity first
  // when the map is full (half full, unless fill_to_most() allowed more).
  std::uint32_t insert(K key, std::uint32_t value) {
    if (size_ + 1 > max_size_) rehash(2 * keys_.size());
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
    max_size_ = keys_.size() / 2;
  }
  std::size_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return keys_.size(); }
  std::size_t bytes() const noexcept { return bytes_for(keys_.size()); }
  static constexpr std::uint64_t bytes_for(std::size_t capacity) noexcept {
    return std::uint64_t{capacity} * (sizeof(K) + sizeof(std::uint32_t));
  }
  // Whether `more` keys fit without a growth.
  bool fits(std::size_t more) const noexcept { return size_ + more <= max_size_; }
  // Doubles the capacity now.
  void grow() { rehash(2 * keys_.size()); }
  // Lets the map fill to three quarters of its capacity before it grows (until clear() or a
  // growth); false when it is already that full (a search then stops rather than grow).
  bool fill_to_most(std::size_t more) noexcept {
    const std::size_t most = keys_.size() / 4 * 3;
    if (size_ + more > most) return false;
    max_size_ = most;
    return true;
  }

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
    max_size_ = capacity / 2;
    for (std::size_t i = 0; i < old_keys.size(); ++i)
      if (old_keys[i]) insert(old_keys[i], old_values[i]);
  }
  std::vector<K> keys_;
  std::vector<std::uint32_t> values_;
  std::size_t mask_ = 0, size_ = 0, max_size_ = 0;  // max_size_: the keys held before insert() grows it
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
