// The database file written with MPI-IO (database_writer.hpp).
#include "mpi/database_writer.hpp"

#include <unistd.h>

#include <algorithm>
#include <string>
#include <system_error>
#include <vector>

#include "tilespace/errors.hpp"

namespace tilespace::mpi {

namespace {

constexpr std::uint64_t kPieceBytes = std::uint64_t{1} << 30;  // per MPI_File_write_at_all call
constexpr std::uint64_t kReadBytes = std::uint64_t{64} << 20;   // per MPI_File_read_at_all call: 64 chunks

std::string mpi_error(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

// Views the file from `offset` as runs of `run` bytes dealt round-robin, one every P runs, this
// process seeing the p-th of each P: the payload's units (or checksum chunks) that are its own.
// Collective.
int set_dealt_view(MPI_File file, std::uint64_t offset, std::uint64_t run, int p, int P) {
  MPI_Datatype one, every_p;
  MPI_Type_contiguous(static_cast<int>(run), MPI_BYTE, &one);
  MPI_Type_create_resized(one, 0, static_cast<MPI_Aint>(run * static_cast<std::uint64_t>(P)), &every_p);
  MPI_Type_commit(&every_p);
  const int rc = MPI_File_set_view(file, static_cast<MPI_Offset>(offset + run * static_cast<std::uint64_t>(p)),
                                   MPI_BYTE, every_p, "native", MPI_INFO_NULL);
  MPI_Type_free(&every_p);
  MPI_Type_free(&one);
  return rc;
}

}  // namespace

void write_database(World& world, const std::filesystem::path& path, const DatabaseInfo& info, const Slices& slices,
                    std::span<const std::uint64_t> fields) {
  const std::string name = path.string();
  const int P = world.size(), me = world.rank();
  const std::uint64_t payload = slices.words() * 8;
  const std::span<const std::uint8_t> mine(reinterpret_cast<const std::uint8_t*>(fields.data()), fields.size_bytes());
  // The checksum chunks this process hashes: c with c mod P = me (the deal of slices.hpp, in chunks).
  auto chunk_deal = [&](int p) {
    return CheckpointSlice(kChunkWordsLog2, static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(P));
  };
  const std::uint64_t my_chunk_bytes = 8 * chunk_deal(me).held(slices.words());
  const std::uint64_t chunks = (payload + (std::uint64_t{1} << kChunkLog2) - 1) >> kChunkLog2;

  // Rank 0 checks that `info` can be stored (the trailer's length does not depend on the sums).
  DatabaseFrame frame;
  world.together([&] {
    if (!world.root()) return;
    frame = two_bit_frame(path, info, payload, std::vector<std::uint64_t>(chunks));
    std::error_code ec;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    remove_stale_temporaries(path);
  });
  // Rank 0's pid (the temporary name) and the file's length.
  long long shared[2] = {::getpid(), static_cast<long long>(kHeaderSize + payload + frame.trailer.size())};
  MPI_Bcast(shared, 2, MPI_LONG_LONG, 0, world.comm());
  const std::string tmp = name + ".tmp." + std::to_string(shared[0]);

  try {
    MPI_File file;
    const int rc = MPI_File_open(world.comm(), tmp.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &file);
    world.together([&] {
      if (rc != MPI_SUCCESS) throw DataError(name + ": cannot create " + tmp + ": " + mpi_error(rc));
    });

    // Every collective call is made on every process, whatever failed before; the first failure
    // of each process is agreed on at the end.
    std::string error;
    auto check = [&](int code, const char* what) {
      if (code != MPI_SUCCESS && error.empty()) error = std::string(what) + ": " + mpi_error(code);
    };
    auto transfer = [&](bool write, std::uint64_t offset, void* data, std::uint64_t bytes, bool collective) {
      MPI_Status status;
      const auto n = static_cast<int>(bytes);
      const auto off = static_cast<MPI_Offset>(offset);
      const int code = write ? (collective ? MPI_File_write_at_all(file, off, data, n, MPI_BYTE, &status)
                                           : MPI_File_write_at(file, off, data, n, MPI_BYTE, &status))
                             : MPI_File_read_at_all(file, off, data, n, MPI_BYTE, &status);
      check(code, write ? "write failed" : "read failed");
      int done = 0;
      if (code == MPI_SUCCESS && MPI_Get_count(&status, MPI_BYTE, &done) == MPI_SUCCESS && done != n && error.empty())
        error = std::string(write ? "short write (" : "short read (") + std::to_string(done) + " of " +
                std::to_string(n) + " bytes)";
    };
    // The same number of collective calls on every process: the most any process needs.
    auto pieces = [&](std::uint64_t bytes, std::uint64_t piece) {
      return static_cast<std::uint64_t>(world.max(static_cast<long long>((bytes + piece - 1) / piece)));
    };
    check(MPI_File_set_size(file, static_cast<MPI_Offset>(shared[1])), "cannot set the size");

    // The payload: this process's units.
    check(set_dealt_view(file, kHeaderSize, std::uint64_t{8} << kUnitWordsLog2, me, P), "cannot set the view");
    for (std::uint64_t i = 0, n = pieces(mine.size(), kPieceBytes); i < n; ++i) {
      const std::uint64_t at = std::min<std::uint64_t>(i * kPieceBytes, mine.size());
      transfer(true, at, const_cast<std::uint8_t*>(mine.data() + at), std::min(kPieceBytes, mine.size() - at), true);
    }
    check(MPI_File_sync(file), "sync failed");
    MPI_Barrier(world.comm());
    check(MPI_File_sync(file), "sync failed");

    // The checksums of this process's chunks, read back.
    std::vector<std::uint64_t> sums;
    {
      check(set_dealt_view(file, kHeaderSize, std::uint64_t{1} << kChunkLog2, me, P), "cannot set the view");
      std::vector<std::uint8_t> buffer(std::min(kReadBytes, my_chunk_bytes));
      for (std::uint64_t i = 0, n = pieces(my_chunk_bytes, kReadBytes); i < n; ++i) {
        const std::uint64_t at = std::min(i * kReadBytes, my_chunk_bytes);
        const std::uint64_t bytes = std::min(kReadBytes, my_chunk_bytes - at);
        transfer(false, at, buffer.data(), bytes, true);
        const std::vector<std::uint64_t> piece = chunk_sums(std::span<const std::uint8_t>(buffer.data(), bytes));
        sums.insert(sums.end(), piece.begin(), piece.end());
      }
    }
    const std::vector<std::uint64_t> gathered = world.gather(sums);
    check(MPI_File_set_view(file, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL), "cannot set the view");
    if (world.root() && gathered.size() != chunks && error.empty())
      error = std::to_string(gathered.size()) + " chunk checksums for " + std::to_string(chunks) + " chunks";
    if (world.root() && error.empty()) {
      // Process p's checksums are those of chunks p, p + P, ...: back in chunk order.
      std::vector<std::uint64_t> ordered(chunks);
      std::size_t from = 0;
      for (int p = 0; p < P; ++p)
        for (std::uint64_t c = static_cast<std::uint64_t>(p); c < chunks; c += static_cast<std::uint64_t>(P))
          ordered[c] = gathered[from++];
      frame = two_bit_frame(path, info, payload, ordered);
      transfer(true, 0, frame.header.data(), frame.header.size(), false);
      transfer(true, kHeaderSize + payload, frame.trailer.data(), frame.trailer.size(), false);
    }
    check(MPI_File_sync(file), "sync failed");
    check(MPI_File_close(&file), "close failed");
    world.together([&] {
      if (!error.empty()) throw DataError(name + ": writing " + tmp + ": " + error);
    });
    world.together([&] {
      if (!world.root()) return;
      std::error_code ec;
      std::filesystem::rename(tmp, path, ec);
      if (ec) throw DataError(name + ": cannot rename " + tmp + " into place: " + ec.message());
    });
  } catch (const Exit&) {
    std::error_code ec;
    if (world.root()) std::filesystem::remove(tmp, ec);
    throw;
  }
}

}  // namespace tilespace::mpi
