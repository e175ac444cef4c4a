#include "tilespace/checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "tilespace/engine/two_bit_kernel.hpp"
#include "tilespace/database.hpp"
#include "header_codec.hpp"
#include "tilespace/errors.hpp"

namespace tilespace {
namespace {

constexpr std::array<char, 8> kCheckpointMagic{'T', 'S', 'C', 'K', 'P', 'T', '\r', '\n'};
constexpr std::size_t kChecksumOffset = 72, kCheckpointHistogramOffset = 256;
constexpr std::size_t kCheckpointMaxHistogram = (kHeaderSize - kCheckpointHistogramOffset) / 8;
constexpr std::uint8_t kEngineTwoBit = 2;

using detail::get;
using detail::put;
using detail::sys_error;

// The fields of the words `slice` holds must be what the search leaves between two layers
// (bfs.hpp): every open field of the next layer's blank parity, nothing beyond the table's last
// rank and, for the whole table, as many open fields as the states found for the next layer and as
// many settled ones as the histogram counts. (An MPI process holds only part of them: the counts
// are of the whole search.) A checkpoint whose checksums match but whose fields do not (a foreign
// or faulty writer) would otherwise stop the continued search midway with an internal error, or
// expand ranks that name no state.
template <class Bad>
void check_fields(std::span<const std::uint64_t> fields, const CheckpointSlice& slice, const Ranker& ranker,
                  const TwoBitProgress& progress, Bad&& bad) {
  const detail::TwoBitGeometry geometry(ranker);
  const bool odd = progress.next_layer & 1;
  std::uint64_t open = 0, settled = 0;
  slice.for_each_unit(geometry.words, [&](std::uint64_t first, std::uint64_t local, std::uint64_t n) {
    // o: the blank cell of the word's first rank, followed word by word (no division a word).
    int o = static_cast<int>((32 * first) % static_cast<std::uint64_t>(geometry.n_cells));
    for (std::uint64_t i = 0; i < n; ++i, o = geometry.next_o[o]) {
      const std::uint64_t w = fields[local + i], rank0 = 32 * (first + i);
      if (rank0 + 32 > geometry.size) {
        const std::uint64_t beyond =
            rank0 >= geometry.size ? ~std::uint64_t{0} : ~std::uint64_t{0} << (2 * (geometry.size - rank0));
        if (w & beyond) throw bad("fields beyond the table's last state are set: the checkpoint is inconsistent");
      }
      const std::uint64_t open_here = detail::open_fields(w);
      if (open_here & (odd ? ~geometry.odd[o] : geometry.odd[o]))
        throw bad("open fields outside layer " + std::to_string(progress.next_layer) +
                  ": the checkpoint is inconsistent");
      open += static_cast<std::uint64_t>(std::popcount(open_here));
      settled += static_cast<std::uint64_t>(std::popcount((w ^ (w >> 1)) & detail::kLowBits));
    }
  });
  if (slice.processes() != 1) return;
  std::uint64_t counted = 0;
  for (const std::uint64_t layer : progress.histogram) counted += layer;  // no overflow: checked by the caller
  if (open != progress.pending || settled != counted)
    throw bad("the fields hold " + std::to_string(settled) + " settled and " + std::to_string(open) +
              " open states, the header " + std::to_string(counted) + " and " + std::to_string(progress.pending) +
              ": the checkpoint is inconsistent");
}

// The multi-tile metric's words between two layers (bfs.hpp): fields of D mod 3 + 1 and the open
// bitmap after them, whose bits are exactly the next layer's states, all of its value; nothing
// beyond the last rank; as many open bits as states pending and as many fields set as states found.
template <class Bad>
void check_multi_fields(std::span<const std::uint64_t> search, const Ranker& ranker, const TwoBitProgress& progress,
                        Bad&& bad) {
  const std::uint64_t words = two_bit_words(ranker), states = ranker.size();
  const std::span<const std::uint64_t> fields = search.first(words), open = search.subspan(words);
  const unsigned value = detail::multi_value(progress.next_layer);
  std::uint64_t opened = 0, found = 0;
  for (std::uint64_t i = 0; i < words; ++i) {
    const std::uint64_t w = fields[i], rank0 = 32 * i;
    if (rank0 + 32 > states && (w & (~std::uint64_t{0} << (2 * (states - rank0)))))
      throw bad("fields beyond the table's last state are set: the checkpoint is inconsistent");
    const std::uint64_t o = detail::spread_bits(detail::open_half(open[i >> 1], i));
    if (o & ~detail::fields_equal(w, value))
      throw bad("open states outside layer " + std::to_string(progress.next_layer) + ": the checkpoint is inconsistent");
    opened += static_cast<std::uint64_t>(std::popcount(o));
    found += static_cast<std::uint64_t>(std::popcount((w | (w >> 1)) & detail::kLowBits));
  }
  if (words % 2 == 1 && (open.back() >> 32) != 0)
    throw bad("open bits beyond the table's last state are set: the checkpoint is inconsistent");
  std::uint64_t counted = progress.pending;
  for (const std::uint64_t layer : progress.histogram) counted += layer;  // no overflow: checked by the caller
  if (opened != progress.pending || found != counted)
    throw bad("the fields hold " + std::to_string(found) + " states found and " + std::to_string(opened) +
              " open, the header " + std::to_string(counted) + " and " + std::to_string(progress.pending) +
              ": the checkpoint is inconsistent");
}

// The words a checkpoint of `slice` holds: its fields and, multi-tile (one process only), the
// open bitmap.
std::uint64_t checkpoint_words(const Ranker& ranker, const CheckpointSlice& slice, Metric metric) {
  const std::uint64_t words = two_bit_words(ranker);
  return slice.held(words) + (metric == Metric::multi ? detail::open_word_count(words) : 0);
}

}  // namespace

CheckpointSlice::CheckpointSlice(std::uint32_t unit_log2, std::uint32_t process, std::uint32_t processes)
    : unit_log2_(unit_log2), process_(process), processes_(processes) {
  if (processes == 0 || process >= processes || unit_log2 > 40)
    throw std::invalid_argument("CheckpointSlice: process " + std::to_string(process) + " of " +
                                std::to_string(processes) + ", units of 2^" + std::to_string(unit_log2) + " words");
  unit_mask_ = (std::uint64_t{1} << unit_log2) - 1;
  if (processes > 1) {
    magic_ = ~std::uint64_t{0} / processes + 1;
    whole_ = 0;
  }
}

std::uint64_t CheckpointSlice::held(std::uint64_t words) const noexcept {
  if (processes_ == 1) return words;
  const std::uint64_t units = (words + unit_mask_) >> unit_log2_;
  if (process_ >= units) return 0;
  const std::uint64_t mine = (units - 1 - process_) / processes_ + 1;
  const bool last = process_ + (mine - 1) * processes_ == units - 1;  // the table's last unit: maybe short
  return (mine << unit_log2_) - (last ? (units << unit_log2_) - words : 0);
}

void save_checkpoint(const std::filesystem::path& path, const Ranker& ranker, const TwoBitProgress& progress,
                     std::span<const std::uint64_t> fields, const CheckpointSlice& slice, Metric metric) {
  if (metric != Metric::single && slice.processes() != 1)
    throw std::invalid_argument("save_checkpoint: a multi-tile search of several processes");
  const std::string name = path.string();
  if (progress.histogram.size() > kCheckpointMaxHistogram) throw DataError(name + ": too many layers for a checkpoint");
  std::vector<std::uint8_t> h(kHeaderSize, 0);
  std::memcpy(h.data(), kCheckpointMagic.data(), kCheckpointMagic.size());
  put<std::uint32_t>(h, 8, kCheckpointVersion);
  put<std::uint32_t>(h, 12, kFormatVersion);
  h[16] = kEngineTwoBit;
  h[17] = static_cast<std::uint8_t>(ranker.board().width());
  h[18] = static_cast<std::uint8_t>(ranker.board().height());
  h[19] = static_cast<std::uint8_t>(ranker.goal_blank());
  put<std::uint32_t>(h, 20, static_cast<std::uint32_t>(progress.next_layer));
  put<std::uint64_t>(h, 24, progress.pending);
  put<std::uint64_t>(h, 32, two_bit_words(ranker));
  if (fields.size() != checkpoint_words(ranker, slice, metric))
    throw std::invalid_argument("save_checkpoint: " + std::to_string(fields.size()) + " words, the slice holds " +
                                std::to_string(checkpoint_words(ranker, slice, metric)));
  put<std::uint64_t>(h, 40, fields.size());
  put<std::uint32_t>(h, 48, slice.unit_log2());
  h[52] = static_cast<std::uint8_t>(metric);
  put<std::uint32_t>(h, 56, slice.process());
  put<std::uint32_t>(h, 60, slice.processes());
  put<std::uint64_t>(h, 64, XXH3_64bits(fields.data(), fields.size_bytes()));
  put<std::uint32_t>(h, 80, static_cast<std::uint32_t>(progress.histogram.size()));
  for (std::size_t i = 0; i < progress.histogram.size(); ++i)
    put<std::uint64_t>(h, kCheckpointHistogramOffset + 8 * i, progress.histogram[i]);
  put<std::uint64_t>(h, kChecksumOffset, detail::header_checksum(h, kChecksumOffset));

  write_atomically(path, {std::span<const std::uint8_t>(h),
                          std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(fields.data()),
                                                        fields.size_bytes())});
}

LoadedCheckpoint load_checkpoint(const std::filesystem::path& path, const Ranker& ranker, const CheckpointSlice& slice,
                                 Metric metric) {
  const std::string name = path.string();
  if (metric != Metric::single && slice.processes() != 1)
    throw std::invalid_argument("load_checkpoint: a multi-tile search of several processes");
  auto bad = [&](const std::string& what) { return DataError(name + ": " + what); };
  const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw bad("cannot open: " + sys_error());
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  auto read_all = [&](void* data, std::size_t n) -> std::size_t {
    auto p = static_cast<std::uint8_t*>(data);
    std::size_t got = 0;
    while (got < n) {
      const ssize_t r = ::read(fd, p + got, std::min<std::size_t>(n - got, 1u << 30));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) throw bad("read failed: " + sys_error());
      if (r == 0) break;
      got += static_cast<std::size_t>(r);
    }
    return got;
  };
  std::array<std::uint8_t, kHeaderSize> h{};
  const std::size_t got = read_all(h.data(), h.size());
  // Every checkpoint version's header is kHeaderSize bytes with its checksum at offset 72: the
  // checksum is verified before any field is believed (a damaged version field is corruption, not
  // another version), and a damaged magic on an otherwise intact header is corruption too.
  const std::string damaged = "checkpoint header checksum mismatch: the checkpoint is corrupt";
  const bool intact =
      got == kHeaderSize && detail::header_checksum(h, kChecksumOffset, kHeaderSize, kCheckpointMagic) ==
                                get<std::uint64_t>(h, kChecksumOffset);
  if (got < kCheckpointMagic.size() || std::memcmp(h.data(), kCheckpointMagic.data(), kCheckpointMagic.size()) != 0)
    throw bad(intact ? damaged : "not a tilespace checkpoint (bad magic)");
  if (got < kHeaderSize) throw bad("truncated checkpoint header");
  if (!intact) throw bad(damaged);
  const auto version = get<std::uint32_t>(h, 8);
  if (version != kCheckpointVersion && version != 1)
    throw bad("checkpoint version " + std::to_string(version) + ", this build writes version " +
              std::to_string(kCheckpointVersion));
  // A checkpoint of a two-bit table (kind 3).
  if (!format_version_readable(get<std::uint32_t>(h, 12), kKindTwoBitTable))
    throw bad("a checkpoint for database format version " + std::to_string(get<std::uint32_t>(h, 12)) +
              ", this build writes version " + std::to_string(kFormatVersion));
  if (h[16] != kEngineTwoBit) throw bad("a checkpoint of another engine (" + std::to_string(h[16]) + ")");
  const Board& b = ranker.board();
  if (h[17] != b.width() || h[18] != b.height())
    throw bad("a checkpoint of the " + std::to_string(h[17]) + "x" + std::to_string(h[18]) + " board, not " + b.name());
  if (h[19] != ranker.goal_blank())
    throw bad("a checkpoint for the goal with the blank on cell " + std::to_string(h[19]) + ", not " +
              std::to_string(ranker.goal_blank()));
  const auto words = get<std::uint64_t>(h, 32);
  if (words != two_bit_words(ranker)) throw bad("inconsistent table size");
  const auto process = get<std::uint32_t>(h, 56), processes = get<std::uint32_t>(h, 60);
  if (version == 1) {
    // Words [first, end): the whole table of a threaded build, read as version 2's, or an MPI
    // process's contiguous slice, a layout this version no longer has.
    const auto first = get<std::uint64_t>(h, 40), end = get<std::uint64_t>(h, 48);
    if (processes != 1 || first != 0 || end != words)
      throw bad("a checkpoint of process " + std::to_string(process) + " of " + std::to_string(processes) +
                " from an older tilespace-mpi, whose processes held contiguous slices (words " + std::to_string(first) +
                ".." + std::to_string(end) + "); this version deals the words round-robin: remove the checkpoints "
                "to start over");
  }
  // The deal's unit matters with several processes only.
  const std::uint32_t unit_log2 = version == 1 ? 0 : get<std::uint32_t>(h, 48);
  auto deal = [](std::uint32_t p, std::uint32_t n, std::uint32_t u) {
    return "process " + std::to_string(p) + " of " + std::to_string(n) +
           (n > 1 ? " (units of 2^" + std::to_string(u) + " words)" : "");
  };
  if (process != slice.process() || processes != slice.processes() ||
      (processes > 1 && unit_log2 != slice.unit_log2()))
    throw bad("a checkpoint of " + deal(process, processes, unit_log2) + ", not of " +
              deal(slice.process(), slice.processes(), slice.unit_log2()));
  // Byte 52: the metric (0 single-tile in every checkpoint written before it was stored).
  const std::uint8_t stored = version == 1 ? 0 : h[52];
  if (stored > static_cast<std::uint8_t>(Metric::multi) || h[53] != 0 || get<std::uint16_t>(h, 54) != 0)
    throw bad("unknown metric " + std::to_string(stored));
  if (stored != static_cast<std::uint8_t>(metric))
    throw bad("a checkpoint of the " + std::string(metric_name(static_cast<Metric>(stored))) + "-tile metric, not the " +
              std::string(metric_name(metric)) + "-tile");
  const std::uint64_t held = checkpoint_words(ranker, slice, metric);
  if (version != 1 && get<std::uint64_t>(h, 40) != held) throw bad("inconsistent slice size");
  LoadedCheckpoint c;
  c.progress.next_layer = static_cast<int>(get<std::uint32_t>(h, 20));
  c.progress.pending = get<std::uint64_t>(h, 24);
  const auto len = get<std::uint32_t>(h, 80);
  if (len > kCheckpointMaxHistogram || len != static_cast<std::uint32_t>(c.progress.next_layer) || len == 0)
    throw bad("inconsistent histogram length");
  std::uint64_t total = 0;  // the states settled so far (checked against overflow: no lie wraps around)
  bool overflow = false;
  for (std::uint32_t i = 0; i < len; ++i) {
    c.progress.histogram.push_back(get<std::uint64_t>(h, kCheckpointHistogramOffset + 8 * i));
    overflow = overflow || __builtin_add_overflow(total, c.progress.histogram.back(), &total);
  }
  std::uint64_t found = 0;
  overflow = overflow || __builtin_add_overflow(total, c.progress.pending, &found);
  if (c.progress.histogram[0] != 1 || overflow || found > ranker.size()) throw bad("inconsistent histogram");
  c.fields = std::make_shared<FieldArray>(held);
  const auto span = c.fields->span();
  const std::size_t want = span.size_bytes();
  const std::size_t have = read_all(span.data(), want);
  if (have < want) throw bad("truncated: the fields end after " + std::to_string(have) + " of " + std::to_string(want) + " bytes");
  std::uint8_t extra;
  if (read_all(&extra, 1) != 0) throw bad("trailing data after the fields");
  if (XXH3_64bits(span.data(), want) != get<std::uint64_t>(h, 64))
    throw bad("fields checksum mismatch: the checkpoint is corrupt");
  if (metric == Metric::multi) {
    check_multi_fields(span, ranker, c.progress, bad);
  } else {
    check_fields(span, slice, ranker, c.progress, bad);
  }
  return c;
}

}  // namespace tilespace
