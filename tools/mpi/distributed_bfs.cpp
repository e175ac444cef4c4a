// The two-bit search over MPI processes (distributed_bfs.hpp): bfs2.cpp's layer loop, with the
// targets of other processes' units delivered in exchange rounds.
#include "mpi/distributed_bfs.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "tilespace/engine/two_bit_kernel.hpp"
#include "tilespace/errors.hpp"

namespace tilespace::mpi {

namespace {

constexpr std::uint64_t kPieceStates = 1u << 20;  // states expanded between two rounds (about, at most)
constexpr std::uint64_t kPieceWords = 1u << 22;   // words scanned between two rounds, at most (32 MiB)
constexpr std::uint64_t kStepWords = 1u << 12;    // words scanned between two looks at the queue
constexpr std::uint64_t kRoundRanks = 1u << 20;   // a queue this long starts a round (8 MiB)
constexpr std::uint64_t kTargetsPerWord = 66;     // at most: 32 states x 2 vertical moves, 2 horizontal
constexpr std::uint64_t kQueueBound = kRoundRanks + kTargetsPerWord * kStepWords;
static_assert(kMaxProcesses * kQueueBound <= INT_MAX, "a round's ranks must be countable in an int");
constexpr std::size_t kSettleAhead = 16;  // received ranks whose words are prefetched ahead

// The targets of this process's scan that other processes own, and the rounds that deliver them.
class Exchange {
 public:
  Exchange(const World& world, const Slices& slices)
      : world_(world), slices_(slices), out_(world.size()), send_counts_(world.size()), recv_counts_(world.size()),
        send_displs_(world.size()), recv_displs_(world.size()) {}

  // TwoBitExpander's Remote: queues target rank t for the process that holds it.
  void operator()(std::uint64_t t) {
    out_[slices_.owner(t >> 5)].push_back(t);
    ++queued_;
  }

  bool full() const noexcept { return queued_ >= kRoundRanks; }

  // One round, with every process: sends the queues, passes the ranks received to settle(span),
  // and returns true when every process said it is `done`.
  template <class Settle>
  bool round(bool done, Settle&& settle) {
    const int P = world_.size();
    send_.clear();
    for (int d = 0; d < P; ++d) {
      send_displs_[d] = static_cast<int>(send_.size());
      send_counts_[d] = static_cast<int>(out_[d].size());
      send_.insert(send_.end(), out_[d].begin(), out_[d].end());
      out_[d].clear();
    }
    MPI_Alltoall(send_counts_.data(), 1, MPI_INT, recv_counts_.data(), 1, MPI_INT, world_.comm());
    int received = 0;
    for (int s = 0; s < P; ++s) {
      recv_displs_[s] = received;
      received += recv_counts_[s];
    }
    recv_.resize(static_cast<std::size_t>(received));
    MPI_Alltoallv(send_.data(), send_counts_.data(), send_displs_.data(), MPI_UINT64_T, recv_.data(),
                  recv_counts_.data(), recv_displs_.data(), MPI_UINT64_T, world_.comm());
    settle(std::span<const std::uint64_t>(recv_));
    sent_ += send_.size();
    queued_ = 0;
    ++rounds_;
    return world_.all(done);
  }

  // Ranks sent and rounds since the last call.
  std::pair<std::uint64_t, std::uint64_t> take_counts() {
    const std::pair<std::uint64_t, std::uint64_t> c{sent_, rounds_};
    sent_ = rounds_ = 0;
    return c;
  }

 private:
  const World& world_;
  const Slices& slices_;
  std::vector<std::vector<std::uint64_t>> out_;  // per destination
  std::vector<std::uint64_t> send_, recv_;
  std::vector<int> send_counts_, recv_counts_, send_displs_, recv_displs_;
  std::uint64_t queued_ = 0, sent_ = 0, rounds_ = 0;
};

// Expands layer `layer` of this process's words (`held` of them, dealt as `s` says, fields at
// `local`), with exchange rounds until every process is done. W: the board width. Only the blocks
// of local words marked in `cur` (open fields of this layer's parity; engine/two_bit_kernel.hpp) are scanned,
// and cleared; blocks that get fields opened are marked in `next`.
template <int W>
void expand_layer(const detail::TwoBitGeometry& T, std::uint64_t* local, const CheckpointSlice& s, std::uint64_t held,
                  int layer, bool collect, std::uint64_t* cur, std::uint64_t* next_marks, Exchange& exchange,
                  detail::TwoBitTally& tally) {
  detail::TwoBitExpander<W, false, Exchange, CheckpointSlice> ex(T, local, s, layer, collect, exchange);
  ex.set_marks(next_marks);
  auto settle = [&](std::span<const std::uint64_t> in) {
    for (std::size_t i = 0; i < in.size(); ++i) {
      if (i + kSettleAhead < in.size()) __builtin_prefetch(local + s.local(in[i + kSettleAhead] >> 5), 1, 3);
      ex.settle(in[i], tally);
    }
  };
  // Expands the marked blocks among the local words [from, to) (block-aligned, but for the end):
  // each of a block's units is a run of consecutive global words (the whole block when P = 1).
  const std::uint64_t unit = s.processes() == 1 ? detail::kBlockWords : std::uint64_t{1} << s.unit_log2();
  auto scan = [&](std::uint64_t from, std::uint64_t to) {
    for (std::uint64_t b = from >> detail::kBlockLog2; (b << detail::kBlockLog2) < to; ++b) {
      std::uint64_t& m = cur[b >> 6];
      const std::uint64_t bit = std::uint64_t{1} << (b & 63);
      if (!(m & bit)) continue;
      m &= ~bit;
      const std::uint64_t end = std::min(held, (b + 1) << detail::kBlockLog2);
      for (std::uint64_t l = b << detail::kBlockLog2; l < end; l += unit) {
        const std::uint64_t first = s.global(l);
        ex.run(first, first + std::min(unit, end - l), tally, true);
      }
    }
    ex.flush(tally);  // the targets still in flight, before any exchange round
  };
  std::uint64_t next = 0;  // local words scanned
  for (bool all_done = false; !all_done;) {
    const std::uint64_t piece_end = std::min(held, next + kPieceWords);
    const std::uint64_t piece_states = tally.expanded + kPieceStates;
    while (next < piece_end && tally.expanded < piece_states && !exchange.full()) {
      const std::uint64_t step_end = std::min(piece_end, next + kStepWords);
      scan(next, step_end);
      next = step_end;
    }
    all_done = exchange.round(next == held, settle);
  }
}

}  // namespace

MpiBfsResult distributed_two_bit(World& world, const Ranker& ranker, const Slices& slices,
                                 std::span<std::uint64_t> fields, const MpiBfsOptions& options,
                                 const TwoBitProgress* resume) {
  const detail::TwoBitGeometry T(ranker);
  const CheckpointSlice s = slices.slice(world.rank());
  const std::uint64_t held = s.held(T.words);
  if (slices.words() != T.words || fields.size() != held)
    throw std::invalid_argument("distributed_two_bit: fields of the wrong size");
  // marks[i]: the blocks of local words holding open fields of parity i.
  std::vector<std::uint64_t> marks[2] = {std::vector<std::uint64_t>(detail::mark_word_count(held)),
                                         std::vector<std::uint64_t>(detail::mark_word_count(held))};
  auto mark = [&](int parity, std::uint64_t l) {
    const std::uint64_t block = l >> detail::kBlockLog2;
    marks[parity][block >> 6] |= std::uint64_t{1} << (block & 63);
  };
  TwoBitProgress p;
  if (resume) {
    p = *resume;
    // Unit by unit (each inside one block): whether it holds open fields of either parity.
    s.for_each_unit(T.words, [&](std::uint64_t first, std::uint64_t l, std::uint64_t n) {
      std::uint64_t open[2] = {0, 0};
      detail::mark_open_blocks(T, fields.data() + l, first, n, &open[0], &open[1]);
      for (int parity = 0; parity < 2; ++parity)
        if (open[parity]) mark(parity, l);
    });
  } else {
    p.pending = 1;
    const std::uint64_t g = T.goal_rank >> 5;
    if (s.mine(g)) {
      fields[s.local(g)] |= std::uint64_t{3} << (2 * (T.goal_rank & 31));
      mark(0, s.local(g));
    }
  }
  std::uint64_t total = std::accumulate(p.histogram.begin(), p.histogram.end(), std::uint64_t{0});

  Exchange exchange(world, slices);
  std::vector<std::uint64_t> farthest;  // this process's states of the last layer, when collected
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t bytes_sent = 0, rounds = 0, most = 0, fewest = 0;  // of the layer, for the report
  auto expand = [&](int layer, bool collect, std::vector<std::uint64_t>& ranks) -> detail::LayerCounts {
    detail::TwoBitTally tally;
    detail::with_width(T.G.w, [&](auto w) {
      expand_layer<decltype(w)::value>(T, fields.data(), s, held, layer, collect, marks[layer & 1].data(),
                                       marks[(layer + 1) & 1].data(), exchange, tally);
      return 0;
    });
    const auto [sent, layer_rounds] = exchange.take_counts();
    std::uint64_t sums[3] = {tally.expanded, tally.found, 8 * sent};
    MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_UINT64_T, MPI_SUM, world.comm());
    std::uint64_t spread[2] = {tally.expanded, ~tally.expanded};  // the most, and the complement of the fewest
    MPI_Allreduce(MPI_IN_PLACE, spread, 2, MPI_UINT64_T, MPI_MAX, world.comm());
    bytes_sent = sums[2];
    rounds = layer_rounds;
    most = spread[0];
    fewest = ~spread[1];
    if (collect) ranks = std::move(tally.ranks);
    return {sums[0], sums[1]};
  };
  detail::two_bit_layers(
      p, total, farthest, expand, [&](auto&& check) { world.together(check); },
      [&](int layer, std::uint64_t expanded, std::uint64_t all) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (options.on_layer) options.on_layer({layer, expanded, fewest, most, all, seconds, bytes_sent, rounds});
        if (p.pending > 0 && options.between_layers) options.between_layers(p);
      });
  MpiBfsResult result;
  result.histogram = std::move(p.histogram);
  result.farthest = world.gather(farthest);
  std::sort(result.farthest.begin(), result.farthest.end());
  return result;
}

}  // namespace tilespace::mpi
