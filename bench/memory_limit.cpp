// The memory limit of a rank-space BFS on this machine (docs/scale.md): how fast the memory system
// serves the accesses a layer makes, measured over an array as large as the 2x7 table.
//
//   tilespace_memory_limit [GIB] [THREADS]      (default 10 GiB, 2 threads)
//
// Over an array of GIB GiB of 8-byte words (huge pages asked for, as the engines do), each thread
// on its own share of a sequence of random indices (a 64-bit xorshift, nothing precomputed):
//   random reads    independent 8-byte loads, prefetched 32 ahead (as the engines' PrefetchRing)
//   random updates  the same, each word read, OR-ed and written back (a two-bit target's settle)
//   sequential      reading the whole array (a layer's scan of the fields), summed
//   bucketed        the updates of `random updates` deferred: each index appended to one of 16384
//                   buckets by its region of the array, then every bucket applied in turn (each
//                   bucket's region is a few hundred KB, within the caches)
// Prints accesses (or GB) per second for each, and the time one access a state of the 2x7 space
// (43,589,145,600 states) takes at each rate. The figures are the machine's, not the engine's: the
// engine's rate and its ratio to these are in docs/scale.md.
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::uint64_t next(std::uint64_t& x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

template <class F>
double timed_on_threads(int threads, F&& f) {
  std::vector<std::thread> pool;
  const double t0 = now();
  for (int t = 0; t < threads; ++t) pool.emplace_back([&, t] { f(t); });
  for (auto& th : pool) th.join();
  return now() - t0;
}

std::atomic<std::uint64_t> sink{0};

}  // namespace

int main(int argc, char** argv) {
  const double gib = argc > 1 ? std::atof(argv[1]) : 10.0;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 2;
  if (!(gib > 0 && gib <= 1024) || threads < 1 || threads > 256) {
    std::fprintf(stderr, "usage: %s [GIB] [THREADS]\n", argv[0]);
    return 2;
  }
  const std::uint64_t words = static_cast<std::uint64_t>(gib * (1 << 30)) / 8;
  auto* a = static_cast<std::uint64_t*>(
      mmap(nullptr, words * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
  if (a == MAP_FAILED) {
    std::fprintf(stderr, "cannot map %.1f GiB\n", gib);
    return 4;
  }
  madvise(a, words * 8, MADV_HUGEPAGE);
  // Touch every page (in parallel), so that page faults are not measured.
  timed_on_threads(threads, [&](int t) {
    for (std::uint64_t i = t * (words / threads); i < (t + 1) * (words / threads); i += 512) a[i] = i;
  });

  const std::uint64_t per_thread = 200'000'000 / threads;  // accesses per thread for the random tests
  constexpr int kAhead = 32;
  auto random_pass = [&]<bool update>() {
    return timed_on_threads(threads, [&](int t) {
      std::uint64_t x = 0x9E3779B97F4A7C15u * (t + 1), ring[kAhead], sum = 0;
      for (int k = 0; k < kAhead; ++k) {
        ring[k] = next(x) % words;
        __builtin_prefetch(&a[ring[k]], update, 3);
      }
      for (std::uint64_t i = 0; i < per_thread; ++i) {
        const std::uint64_t slot = i % kAhead, idx = ring[slot];
        if constexpr (update) {
          a[idx] |= 1;
        } else {
          sum += a[idx];
        }
        ring[slot] = next(x) % words;
        __builtin_prefetch(&a[ring[slot]], update, 3);
      }
      sink += sum;
    });
  };
  const double reads = static_cast<double>(per_thread * threads) / random_pass.template operator()<false>();
  const double updates = static_cast<double>(per_thread * threads) / random_pass.template operator()<true>();

  const double seq_s = timed_on_threads(threads, [&](int t) {
    std::uint64_t sum = 0;
    for (std::uint64_t i = t * (words / threads); i < (t + 1) * (words / threads); ++i) sum += a[i];
    sink += sum;
  });
  const double seq_gbs = static_cast<double>(words * 8) / seq_s / 1e9;

  // Bucketed: each thread appends its indices (as 32-bit offsets within a bucket's region) to
  // 16384 buckets, then the buckets are applied, each by one thread, region by region.
  constexpr int kBucketLog2 = 14;
  const int shift = 64 - std::countl_zero(words - 1) - kBucketLog2;  // words per region = 2^shift
  const std::uint64_t region = std::uint64_t{1} << std::max(shift, 0);
  // Each thread's buckets: fixed slices of one array (uniform indices: 1/8 more than the mean fits).
  const std::uint64_t buckets = (words + region - 1) / region;
  const std::uint64_t cap = per_thread / buckets * 9 / 8 + 64;
  std::vector<std::vector<std::uint32_t>> store(threads, std::vector<std::uint32_t>(cap << kBucketLog2));
  std::vector<std::vector<std::uint32_t>> count(threads, std::vector<std::uint32_t>(1 << kBucketLog2));
  std::atomic<bool> overflow{false};
  const double fill_s = timed_on_threads(threads, [&](int t) {
    std::uint64_t x = 0x9E3779B97F4A7C15u * (t + 1);
    std::uint32_t* out = store[t].data();
    std::uint32_t* n = count[t].data();
    for (std::uint64_t i = 0; i < per_thread; ++i) {
      const std::uint64_t idx = next(x) % words, b = idx >> shift;
      if (n[b] == cap) {
        overflow = true;
        break;
      }
      out[b * cap + n[b]++] = static_cast<std::uint32_t>(idx & (region - 1));
    }
  });
  if (overflow) {
    std::fprintf(stderr, "a bucket overflowed\n");
    return 1;
  }
  std::atomic<int> next_bucket{0};
  const double apply_s = timed_on_threads(threads, [&](int) {
    for (int b; (b = next_bucket.fetch_add(1)) < static_cast<int>(buckets);) {
      std::uint64_t* base = a + (static_cast<std::uint64_t>(b) << shift);
      for (int t = 0; t < threads; ++t) {
        const std::uint32_t* in = store[t].data() + static_cast<std::uint64_t>(b) * cap;
        for (std::uint32_t j = 0; j < count[t][b]; ++j) base[in[j]] |= 1;
      }
    }
  });
  const double bucketed = static_cast<double>(per_thread * threads) / (fill_s + apply_s);

  const double states = 43'589'145'600.0;
  std::printf("array %.1f GiB, %d threads\n", gib, threads);
  std::printf("random reads    %7.1f M/s   one a 2x7 state: %6.0f s\n", reads / 1e6, states / reads);
  std::printf("random updates  %7.1f M/s   one a 2x7 state: %6.0f s\n", updates / 1e6, states / updates);
  std::printf("bucketed        %7.1f M/s   one a 2x7 state: %6.0f s   (fill %.2f s, apply %.2f s)\n", bucketed / 1e6,
              states / bucketed, fill_s, apply_s);
  std::printf("sequential      %7.1f GB/s  one pass over 2x7's fields (10.9 GB): %.2f s\n", seq_gbs, 10.897 / seq_gbs);
  munmap(a, words * 8);
  return sink.load() == 42 ? 1 : 0;
}
