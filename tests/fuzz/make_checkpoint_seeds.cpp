// Writes the seed corpus of fuzz_checkpoint (tests/fuzz/corpus/fuzz_checkpoint/): real checkpoints
// of two-bit builds of small boards, saved between layers as `tilespace build --bits 2` saves
// them, and the two processes' words of an MPI build (checkpoint.hpp's deal); each file is prefixed by the harness's control byte (0;
// 8 for the slices: fuzz_checkpoint then continues the header's slice).
//   cmake --build build-fuzz --target make_checkpoint_seeds
//   build-fuzz/tests/fuzz/make_checkpoint_seeds tests/fuzz/corpus/fuzz_checkpoint
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tilespace/bfs.hpp"
#include "tilespace/checkpoint.hpp"
#include "tilespace/rank.hpp"

using namespace tilespace;

namespace {

void add_control_byte(const std::filesystem::path& from, const std::filesystem::path& to, char control = 0) {
  std::ifstream in(from, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream out(to, std::ios::binary);
  out.put(control);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  std::filesystem::remove(from);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FOLDER\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  struct Case {
    int w, h, blank;
    std::vector<int> layers;  // after which layers to save
  };
  const Case cases[] = {{2, 2, 3, {1, 3}}, {2, 3, 5, {1, 5, 20}}, {3, 2, 0, {2, 12}}, {2, 4, 7, {8, 30}}, {3, 3, 8, {4, 25}}};
  for (const Case& k : cases) {
    const Ranker ranker(Board(k.w, k.h), k.blank);
    std::vector<std::uint64_t> fields(two_bit_words(ranker));
    TwoBitOptions o;
    o.bfs.threads = 1;
    o.between_layers = [&](const TwoBitProgress& p, std::span<const std::uint64_t> f) {
      for (const int l : k.layers) {
        if (p.next_layer != l) continue;
        const std::string name = std::to_string(k.w) + "x" + std::to_string(k.h) + "-b" + std::to_string(k.blank) +
                                 "-L" + std::to_string(l);
        const auto tmp = dir / (name + ".tmp");
        save_checkpoint(tmp, ranker, p, f, CheckpointSlice{});
        add_control_byte(tmp, dir / (name + ".ckpt"));
        if (k.w == 2 && k.h == 3) {  // the two processes of a 2-process build, dealt units of 4 words
          for (std::uint32_t i = 0; i < 2; ++i) {
            const CheckpointSlice s(2, i, 2);
            std::vector<std::uint64_t> held(s.held(f.size()));
            s.for_each_unit(f.size(), [&](std::uint64_t first, std::uint64_t local, std::uint64_t n) {
              std::copy_n(f.begin() + static_cast<std::ptrdiff_t>(first), n, held.begin() + static_cast<std::ptrdiff_t>(local));
            });
            const auto part = dir / (name + "-p" + std::to_string(i) + "of2.tmp");
            save_checkpoint(part, ranker, p, held, s);
            add_control_byte(part, dir / (name + "-p" + std::to_string(i) + "of2.ckpt"), 8);  // the header's slice
          }
        }
      }
    };
    bfs_two_bit(ranker, fields, o);
  }
  return 0;
}
