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

std::string mpi_error(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

}  // namespace

void write_database(World& world, const std::filesystem::path& path, const DatabaseInfo& info, const Slices& slices,
                    std::span<const std::uint64_t> fields) {
  const std::string name = path.string();
  const CheckpointSlice s = slices.slice(world.rank());
  const std::uint64_t payload = slices.words() * 8;
  const std::span<const std::uint8_t> mine(reinterpret_cast<const std::uint8_t*>(fields.data()), fields.size_bytes());

  const std::vector<std::uint64_t> sums = world.gather(chunk_sums(mine));
  DatabaseFrame frame;
  world.together([&] {
    if (!world.root()) return;
    frame = two_bit_frame(path, info, payload, sums);
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
    const int rc = MPI_File_open(world.comm(), tmp.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &file);
    world.together([&] {
      if (rc != MPI_SUCCESS) throw DataError(name + ": cannot create " + tmp + ": " + mpi_error(rc));
    });

    // Every collective call is made on every process, whatever failed before; the first failure
    // of each process is agreed on at the end.
    std::string error;
    auto check = [&](int code, const char* what) {
      if (code != MPI_SUCCESS && error.empty()) error = std::string(what) + ": " + mpi_error(code);
    };
    auto write_at = [&](std::uint64_t offset, const void* data, std::uint64_t bytes, bool collective) {
      MPI_Status status;
      const auto n = static_cast<int>(bytes);
      const auto off = static_cast<MPI_Offset>(offset);
      const int code = collective ? MPI_File_write_at_all(file, off, data, n, MPI_BYTE, &status)
                                  : MPI_File_write_at(file, off, data, n, MPI_BYTE, &status);
      check(code, "write failed");
      int written = 0;
      if (code == MPI_SUCCESS && MPI_Get_count(&status, MPI_BYTE, &written) == MPI_SUCCESS && written != n &&
          error.empty())
        error = "short write (" + std::to_string(written) + " of " + std::to_string(n) + " bytes)";
    };
    check(MPI_File_set_size(file, static_cast<MPI_Offset>(shared[1])), "cannot set the size");
    if (world.root()) {
      write_at(0, frame.header.data(), frame.header.size(), false);
      write_at(kHeaderSize + payload, frame.trailer.data(), frame.trailer.size(), false);
    }
    const auto pieces = static_cast<std::uint64_t>(world.max(static_cast<long long>((mine.size() + kPieceBytes - 1) / kPieceBytes)));
    for (std::uint64_t i = 0; i < pieces; ++i) {
      const std::uint64_t at = std::min<std::uint64_t>(i * kPieceBytes, mine.size());
      const std::uint64_t n = std::min<std::uint64_t>(kPieceBytes, mine.size() - at);
      write_at(kHeaderSize + 8 * s.first + at, mine.data() + at, n, true);
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
