// The duplicate-pruning move automaton (search/automaton.hpp): the enumeration of move strings on
// the infinite grid, the Aho-Corasick machine of the minimal forbidden strings, its minimisation,
// and the path counts. Its file and store: automaton_store.cpp.
#include "tilespace/search/automaton.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "tilespace/errors.hpp"
#include "tilespace/memory.hpp"
#include "tilespace/table_store.hpp"

namespace tilespace::search {

namespace {

constexpr std::uint32_t kNone = 0xFFFFFFFFu;

// The simulation grid: 64 x 64 cells, the origin in the middle, so a string of at most 30 moves
// never leaves it. A cell's label is its own index.
constexpr int kGridWidth = 64;
constexpr int kGridCells = kGridWidth * kGridWidth;
constexpr int kOrigin = 32 * kGridWidth + 32;
constexpr std::array<int, 4> kStep{-kGridWidth, kGridWidth, -1, 1};  // U, D, L, R
static_assert(MoveAutomaton::kMaxDepth < 32, "strings must stay inside the simulation grid");

// The splitmix64 finaliser: a well-mixed 64-bit value of each (cell, label) pair.
std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A move string is `len` moves packed 2 bits each, the first move in the highest pair, so that
// strings of one length compare as numbers in lexicographic (Dir) order.
int move_at(std::uint64_t s, int len, int i) { return static_cast<int>((s >> (2 * (len - 1 - i))) & 3u); }

// The infinite grid, every cell holding its own label, on which one string at a time is played
// from the origin; restore() puts every label back.
class Grid {
 public:
  Grid() : label_(kGridCells), seen_(kGridCells, 0) {
    for (int c = 0; c < kGridCells; ++c) label_[c] = static_cast<std::uint16_t>(c);
    visited_.reserve(64);
  }

  // Plays `s` (`len` moves) from the origin, recording the cells visited and their bounding box.
  void play(std::uint64_t s, int len) {
    visited_.clear();
    x0_ = y0_ = 32;
    x1_ = y1_ = 32;
    blank_ = kOrigin;
    visit(blank_);
    for (int i = 0; i < len; ++i) {
      const int n = blank_ + kStep[static_cast<std::size_t>(move_at(s, len, i))];
      std::swap(label_[blank_], label_[n]);
      blank_ = n;
      visit(n);
    }
  }

  void restore() {
    for (const int c : visited_) {
      label_[c] = static_cast<std::uint16_t>(c);
      seen_[c] = 0;
    }
  }

  bool in_box(int c) const {
    const int x = c % kGridWidth, y = c / kGridWidth;
    return x >= x0_ && x <= x1_ && y >= y0_ && y <= y1_;
  }

  // With `a` holding string s played and this grid string s2: does s2 visit only cells inside s's
  // bounding box, and leave the same label on every cell? Cells neither visited hold their own
  // label in both, so comparing the visited cells of both decides equality exactly.
  bool same_effect_inside(const Grid& a) const {
    for (const int c : visited_)
      if (!a.in_box(c) || label_[c] != a.label_[c]) return false;
    for (const int c : a.visited_)
      if (label_[c] != a.label_[c]) return false;
    return true;
  }

 private:
  void visit(int c) {
    if (seen_[c]) return;
    seen_[c] = 1;
    visited_.push_back(c);
    const int x = c % kGridWidth, y = c / kGridWidth;
    x0_ = std::min(x0_, x);
    x1_ = std::max(x1_, x);
    y0_ = std::min(y0_, y);
    y1_ = std::max(y1_, y);
  }

  std::vector<std::uint16_t> label_;
  std::vector<std::uint8_t> seen_;
  std::vector<int> visited_;
  int blank_ = kOrigin;
  int x0_ = 0, y0_ = 0, x1_ = 0, y1_ = 0;
};

// The hash of a string's effect: the XOR of a mixed (cell, label) term over the cells whose label
// moved, so that it does not depend on the order in which cells were visited (the identity, the
// empty string's effect, hashes to 0). The Walker keeps it move by move: a move changes the
// labels of two cells only.
std::uint64_t term(int c, std::uint16_t l) { return l == c ? 0 : mix(static_cast<std::uint64_t>(c) << 16 | l); }

// The grid of Grid, for hashing only: it goes from the string played last to the next one by
// undoing the moves after their common prefix and playing the rest (consecutive strings of a
// level share all but a move or two), keeping the blank's cell and the hash after every move.
class Walker {
 public:
  Walker() : label_(kGridCells) {
    for (int c = 0; c < kGridCells; ++c) label_[c] = static_cast<std::uint16_t>(c);
    blank_[0] = kOrigin;
    hash_[0] = 0;
  }

  // Plays `s` (`len` moves) from the origin.
  void go(std::uint64_t s, int len) {
    const int m = std::min(len_, len);
    const std::uint64_t x = (moves_ >> (2 * (len_ - m))) ^ (s >> (2 * (len - m)));
    const int common = m - static_cast<int>((std::bit_width(x) + 1) / 2);
    while (len_ > common) {  // undo
      --len_;
      std::swap(label_[blank_[len_]], label_[blank_[len_ + 1]]);
    }
    for (; len_ < len; ++len_) {
      const int b = blank_[len_], n = b + kStep[static_cast<std::size_t>(move_at(s, len, len_))];
      hash_[len_ + 1] = hash_after(len_, n);
      std::swap(label_[b], label_[n]);
      blank_[len_ + 1] = n;
    }
    moves_ = s;
  }
  std::uint64_t hash() const { return hash_[len_]; }
  // The hash after one more move `d`, without playing it.
  std::uint64_t hash_after(int d) const { return hash_after(len_, blank_[len_] + kStep[static_cast<std::size_t>(d)]); }

 private:
  std::uint64_t hash_after(int at, int n) const {
    const int b = blank_[at];
    return hash_[at] ^ term(b, label_[b]) ^ term(n, label_[n]) ^ term(b, label_[n]) ^ term(n, label_[b]);
  }

  std::vector<std::uint16_t> label_;
  std::array<int, MoveAutomaton::kMaxDepth + 1> blank_{};
  std::array<std::uint64_t, MoveAutomaton::kMaxDepth + 1> hash_{};
  std::uint64_t moves_ = 0;
  int len_ = 0;
};

// Effect hash -> the kept strings with it. Open addressing with linear probing over 64-bit slots:
// the hash's high 32 bits (the fingerprint) and the string's index + 1 (0: an empty slot). The
// bucket comes from the fingerprint alone, so the table grows without the full hashes; strings
// of one effect take a slot each, found together by their fingerprint. A fingerprint match is
// only a candidate: the caller compares the effects exactly. The slots are PageMemory (memory.hpp).
class EffectMap {
 public:
  EffectMap() { allocate(std::uint64_t{1} << 16); }

  // Makes room for `entries` strings in all at most 3/4 full.
  void reserve(std::uint64_t entries) {
    std::uint64_t slots = mask_ + 1;
    while (4 * entries > 3 * slots) slots *= 2;
    if (slots != mask_ + 1) rehash(slots);
  }
  void prefetch(std::uint64_t h) const { __builtin_prefetch(slots_ + bucket(h >> 32)); }
  // Calls same(index) for each string whose hash has h's fingerprint, until one returns true.
  template <class Same>
  bool any(std::uint64_t h, Same&& same) const {
    const std::uint64_t fp = h >> 32;
    for (std::uint64_t i = bucket(fp);; i = (i + 1) & mask_) {
      const std::uint64_t v = slots_[i];
      if (v == 0) return false;
      if ((v >> 32) == fp && same(static_cast<std::uint32_t>(v) - 1)) return true;
    }
  }
  void insert(std::uint64_t h, std::uint32_t index) {
    if (4 * (used_ + 1) > 3 * (mask_ + 1)) rehash(2 * (mask_ + 1));
    put(h >> 32, index);
    ++used_;
  }
  std::uint64_t bytes() const noexcept { return 8 * (mask_ + 1); }

 private:
  std::uint64_t bucket(std::uint64_t fp) const { return mix(fp) & mask_; }
  void put(std::uint64_t fp, std::uint32_t index) {
    std::uint64_t i = bucket(fp);
    while (slots_[i] != 0) i = (i + 1) & mask_;
    slots_[i] = fp << 32 | (static_cast<std::uint64_t>(index) + 1);
  }
  void allocate(std::uint64_t slots) {
    memory_ = PageMemory(8 * slots, "the move automaton's effect table");
    slots_ = memory_.as<std::uint64_t>().data();
    mask_ = slots - 1;
  }
  void rehash(std::uint64_t slots) {
    PageMemory old = std::move(memory_);
    allocate(slots);
    for (const std::uint64_t v : old.as<std::uint64_t>())
      if (v) put(v >> 32, static_cast<std::uint32_t>(v) - 1);
  }

  PageMemory memory_;
  std::uint64_t* slots_ = nullptr;
  std::uint64_t mask_ = 0, used_ = 0;
};

struct MoveString {
  std::uint64_t moves;
  int len;
};

// Breadth-first enumeration in shortlex order: the minimal forbidden strings of at most `depth`
// moves (see the header comment).
//
// Level after level, each kept string p of the level before is played on the Walker (from the
// string before it), and the hashes of its children p d come from one more move each. A child is a
// candidate when its tail (the child without its first move) is kept; candidates go in batches
// whose buckets are prefetched, and are then decided one by one in shortlex order: forbidden when
// a kept string with the same fingerprint has, re-simulated, the same effect inside the
// candidate's bounding box (both strings played again from scratch), else kept and inserted.
std::vector<MoveString> forbidden_strings(int depth, const MoveAutomaton::LevelCallback& on_level) {
  std::vector<MoveString> forbidden;
  std::vector<std::uint64_t> moves{0};   // every kept string, level after level; 0: the empty one
  std::vector<std::size_t> begin{0, 1};  // level l is moves[begin[l], begin[l + 1])
  EffectMap map;
  map.insert(0, 0);  // the empty string: the identity
  Walker walker;
  Grid a, b;
  // Level L-1: for each string, the index in level L-2 of its tail. Level L-2: for each string,
  // the index in level L-1 of its first kept child and the mask of its kept children. A child
  // p d of p has the tail tail(p) d, the child d of tail(p).
  std::vector<std::uint32_t> tail_prev{0}, first_prev2;
  std::vector<std::uint8_t> mask_prev2;
  auto length_of = [&](std::uint32_t idx) {
    return static_cast<int>(std::upper_bound(begin.begin(), begin.end(), idx) - begin.begin()) - 1;
  };
  struct Candidate {
    std::uint64_t s, h;
    std::uint32_t parent, tail;
    unsigned d;
  };
  constexpr std::size_t kBatch = 64;
  std::vector<Candidate> batch;
  batch.reserve(kBatch);
  for (int len = 1; len <= depth; ++len) {
    const std::size_t pb = begin[static_cast<std::size_t>(len - 1)], pe = begin[static_cast<std::size_t>(len)];
    // The next level is at most 3 times this one (4 for the first moves): room for it at once.
    const std::uint64_t expected = (len <= 2 ? 4 : 3) * (pe - pb);
    map.reserve(moves.size() + expected);
    moves.reserve(moves.size() + expected);
    std::vector<std::uint32_t> tail_cur, first_cur(pe - pb, 0);
    tail_cur.reserve(expected);
    std::vector<std::uint8_t> mask_cur(pe - pb, 0);
    std::uint64_t found = 0;
    auto decide = [&] {
      for (const Candidate& c : batch) map.prefetch(c.h);
      for (const Candidate& c : batch) {
        const bool is_forbidden = map.any(c.h, [&](std::uint32_t k) {
          a.play(c.s, len);
          b.play(moves[k], length_of(k));
          const bool same = b.same_effect_inside(a);
          a.restore();
          b.restore();
          return same;
        });
        if (is_forbidden) {
          forbidden.push_back({c.s, len});
          ++found;
          continue;
        }
        if (moves.size() >= kNone - 1) throw ResourceError("move automaton: more than 2^32 kept strings");
        if (mask_cur[c.parent] == 0) first_cur[c.parent] = static_cast<std::uint32_t>(moves.size() - pe);
        mask_cur[c.parent] = static_cast<std::uint8_t>(mask_cur[c.parent] | 1u << c.d);
        map.insert(c.h, static_cast<std::uint32_t>(moves.size()));
        moves.push_back(c.s);
        tail_cur.push_back(c.tail);
      }
      batch.clear();
    };
    for (std::size_t i = 0; i < pe - pb; ++i) {
      const std::uint64_t p = moves[pb + i];
      bool played = false;  // p is played on the walker once it has a candidate child
      for (unsigned d = 0; d < 4; ++d) {
        // The tail must be kept: otherwise a proper suffix of p d is forbidden, and p d is
        // neither kept nor a new minimal forbidden string.
        std::uint32_t tail = 0;
        if (len > 1) {
          const std::uint32_t j = tail_prev[i];
          const unsigned m = mask_prev2[j];
          if (!((m >> d) & 1u)) continue;
          tail = first_prev2[j] + static_cast<std::uint32_t>(std::popcount(m & ((1u << d) - 1)));
        }
        if (!played) {
          walker.go(p, len - 1);
          played = true;
        }
        batch.push_back({p << 2 | d, walker.hash_after(static_cast<int>(d)), static_cast<std::uint32_t>(i), tail, d});
      }
      if (batch.size() + 4 > kBatch) decide();
    }
    decide();
    begin.push_back(moves.size());
    if (on_level) on_level(len, moves.size() - pe, found);
    tail_prev = std::move(tail_cur);
    first_prev2 = std::move(first_cur);
    mask_prev2 = std::move(mask_cur);
  }
  return forbidden;
}

// The Aho-Corasick machine of `forbidden` over the alphabet {U, D, L, R}: the full transition
// table of the live states (numbered in breadth-first order of the trie, the root 0), every
// transition into a state whose string ends in a forbidden string kDead.
std::vector<std::uint32_t> aho_corasick(const std::vector<MoveString>& forbidden) {
  std::vector<std::array<std::uint32_t, 4>> go(1, {kNone, kNone, kNone, kNone});
  std::vector<std::uint8_t> dead(1, 0);
  for (const MoveString& f : forbidden) {
    std::uint32_t u = 0;
    for (int i = 0; i < f.len; ++i) {
      const auto d = static_cast<std::size_t>(move_at(f.moves, f.len, i));
      if (go[u][d] == kNone) {
        go[u][d] = static_cast<std::uint32_t>(go.size());
        go.push_back({kNone, kNone, kNone, kNone});
        dead.push_back(0);
      }
      u = go[u][d];
    }
    dead[u] = 1;
  }
  std::vector<std::uint32_t> fail(go.size(), 0), order{0};
  order.reserve(go.size());
  for (std::size_t at = 0; at < order.size(); ++at) {
    const std::uint32_t u = order[at];
    for (std::size_t d = 0; d < 4; ++d) {
      const std::uint32_t v = go[u][d];
      if (v == kNone) {
        go[u][d] = u == 0 ? 0 : go[fail[u]][d];  // fail[u] is shallower: already resolved
        continue;
      }
      fail[v] = u == 0 ? 0 : go[fail[u]][d];
      dead[v] = static_cast<std::uint8_t>(dead[v] | dead[fail[v]]);
      order.push_back(v);
    }
  }
  std::vector<std::uint32_t> id(go.size(), kNone);
  std::uint32_t live = 0;
  for (const std::uint32_t u : order)
    if (!dead[u]) id[u] = live++;
  std::vector<std::uint32_t> next(static_cast<std::size_t>(live) * 4);
  for (const std::uint32_t u : order) {
    if (dead[u]) continue;
    for (std::size_t d = 0; d < 4; ++d) next[static_cast<std::size_t>(id[u]) * 4 + d] = id[go[u][d]];
  }
  return next;
}

// Moore's partition refinement: the smallest machine of the same language (every live state
// accepts; kDead is the only rejecting one), renumbered breadth-first from the start.
std::vector<std::uint32_t> minimise(const std::vector<std::uint32_t>& next) {
  const std::size_t n = next.size() / 4;
  std::vector<std::uint32_t> cls(n, 0);
  std::size_t classes = 1;
  struct SigHash {
    std::size_t operator()(const std::array<std::uint32_t, 5>& s) const noexcept {
      std::uint64_t h = 0;
      for (const auto x : s) h = mix(h ^ x);
      return static_cast<std::size_t>(h);
    }
  };
  for (;;) {
    std::unordered_map<std::array<std::uint32_t, 5>, std::uint32_t, SigHash> ids;
    ids.reserve(classes * 2);
    std::vector<std::uint32_t> refined(n);
    for (std::size_t q = 0; q < n; ++q) {
      std::array<std::uint32_t, 5> sig{cls[q], 0, 0, 0, 0};
      for (std::size_t d = 0; d < 4; ++d) {
        const std::uint32_t t = next[q * 4 + d];
        sig[d + 1] = t == kNone ? kNone : cls[t];
      }
      refined[q] = ids.try_emplace(sig, static_cast<std::uint32_t>(ids.size())).first->second;
    }
    cls = std::move(refined);
    if (ids.size() == classes) break;
    classes = ids.size();
  }
  // One representative a class; breadth-first numbering from the start's class.
  std::vector<std::uint32_t> rep(classes, kNone);
  for (std::size_t q = 0; q < n; ++q)
    if (rep[cls[q]] == kNone) rep[cls[q]] = static_cast<std::uint32_t>(q);
  std::vector<std::uint32_t> id(classes, kNone), order{cls[0]};
  id[cls[0]] = 0;
  for (std::size_t at = 0; at < order.size(); ++at)
    for (std::size_t d = 0; d < 4; ++d) {
      const std::uint32_t t = next[static_cast<std::size_t>(rep[order[at]]) * 4 + d];
      if (t != kNone && id[cls[t]] == kNone) {
        id[cls[t]] = static_cast<std::uint32_t>(order.size());
        order.push_back(cls[t]);
      }
    }
  std::vector<std::uint32_t> out(order.size() * 4);
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t d = 0; d < 4; ++d) {
      const std::uint32_t t = next[static_cast<std::size_t>(rep[order[i]]) * 4 + d];
      out[i * 4 + d] = t == kNone ? kNone : id[cls[t]];
    }
  return out;
}

}  // namespace

MoveAutomaton MoveAutomaton::build(int depth, const LevelCallback& on_level) {
  if (depth < kMinDepth || depth > kMaxDepth)
    throw std::invalid_argument("MoveAutomaton::build: depth " + std::to_string(depth) + " outside [1, 30]");
  require_memory(estimate_automaton_build(depth).memory, "the move automaton of depth " + std::to_string(depth));
  const std::vector<MoveString> forbidden = forbidden_strings(depth, on_level);
  MoveAutomaton m;
  m.depth_ = depth;
  m.forbidden_ = forbidden.size();
  m.next_ = minimise(aho_corasick(forbidden));
  return m;
}

const MoveAutomaton& MoveAutomaton::accept_all() noexcept {
  static const MoveAutomaton all = [] {
    MoveAutomaton m;
    m.next_.assign(4, 0);  // state 0 goes to state 0 on every move
    return m;
  }();
  return all;
}

std::uint32_t MoveAutomaton::run(const std::string& moves) const noexcept {
  std::uint32_t q = start();
  for (const char ch : moves) {
    const auto it = std::find(kDirLetter.begin(), kDirLetter.end(), ch);
    if (it == kDirLetter.end()) return kDead;
    q = next(q, static_cast<Dir>(it - kDirLetter.begin()));
    if (q == kDead) return kDead;
  }
  return q;
}

std::vector<std::uint64_t> MoveAutomaton::histogram() const {
  std::vector<std::uint64_t> hist;
  if (next_.empty()) return hist;
  std::vector<std::uint32_t> dist(states(), kNone), order{0};
  dist[0] = 0;
  for (std::size_t at = 0; at < order.size(); ++at) {
    const std::uint32_t q = order[at];
    if (hist.size() <= dist[q]) hist.resize(dist[q] + 1, 0);
    ++hist[dist[q]];
    for (std::size_t d = 0; d < 4; ++d) {
      const std::uint32_t t = next_[static_cast<std::size_t>(q) * 4 + d];
      if (t != kDead && t < dist.size() && dist[t] == kNone) {
        dist[t] = dist[q] + 1;
        order.push_back(t);
      }
    }
  }
  return hist;
}


std::vector<std::uint64_t> count_paths(const Board& board, const MoveAutomaton* fsm, int max_len) {
  if (max_len < 0 || max_len > kMaxCountLength)
    throw std::invalid_argument("count_paths: length " + std::to_string(max_len) + " outside [0, 36]");
  // Without a machine the state is the last move (4: none yet), and a move may not undo it.
  const std::size_t states = fsm ? fsm->states() : 5;
  const auto cells = static_cast<std::size_t>(board.cells());
  auto step = [&](std::uint32_t q, Dir d) -> std::uint32_t {
    if (fsm) return fsm->next(q, d);
    const auto m = static_cast<std::uint32_t>(d);
    return q < 4 && (q ^ 1u) == m ? MoveAutomaton::kDead : m;
  };
  const std::uint32_t start = fsm ? fsm->start() : 4;
  std::vector<std::uint64_t> cur(states * cells, 0), nxt(states * cells, 0), counts;
  for (std::size_t c = 0; c < cells; ++c) cur[start * cells + c] = 1;
  counts.push_back(cells);
  for (int len = 1; len <= max_len; ++len) {
    std::fill(nxt.begin(), nxt.end(), 0);
    std::uint64_t total = 0;
    for (std::size_t q = 0; q < states; ++q)
      for (std::size_t c = 0; c < cells; ++c) {
        const std::uint64_t v = cur[q * cells + c];
        if (!v) continue;
        const Board::Neighbours& nb = board.neighbours(static_cast<int>(c));
        for (int k = 0; k < nb.count; ++k) {
          const std::uint32_t t = step(static_cast<std::uint32_t>(q), nb.dir[static_cast<std::size_t>(k)]);
          if (t == MoveAutomaton::kDead) continue;
          nxt[static_cast<std::size_t>(t) * cells + nb.cell[static_cast<std::size_t>(k)]] += v;
          total += v;
        }
      }
    std::swap(cur, nxt);
    counts.push_back(total);
  }
  return counts;
}

double branching_factor(const Board& board, const MoveAutomaton* fsm, int len) {
  if (len < 2) throw std::invalid_argument("branching_factor: length below 2");
  const std::vector<std::uint64_t> n = count_paths(board, fsm, len);
  const auto l = static_cast<std::size_t>(len);
  return n[l - 2] ? std::sqrt(static_cast<double>(n[l]) / static_cast<double>(n[l - 2])) : 0.0;
}

}  // namespace tilespace::search
