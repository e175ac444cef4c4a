// tilespace-mpi: the finished table as a database file (database.hpp, kind 3), written by all
// processes at once with MPI-IO; byte for byte what `tilespace build --bits 2` saves.
//
// Every process hashes the 1 MiB chunks of its own slice (slices start on chunk boundaries);
// rank 0 gathers the checksums and builds the header and trailer (two_bit_frame, the bytes
// save_database writes around the payload). The file is written under the temporary name
// <table>.tmp.<pid of rank 0> in the database folder: MPI_File_set_size to its whole length,
// rank 0 writes the header and the trailer, every process its slice of the payload at offset
// 4096 + 8 * (first word) with MPI_File_write_at_all (in pieces of at most 1 GiB, under MPI's 2 GiB
// count limit), then MPI_File_sync and MPI_File_close; rank 0 then renames it into place, so a
// reader never sees a partial table. Any failure is a DataError (exit 3, agreed) after which the
// temporary file is removed; one left by a killed run is removed by the next writer
// (remove_stale_temporaries).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

#include "mpi/slices.hpp"
#include "mpi/world.hpp"
#include "tilespace/database.hpp"

namespace tilespace::mpi {

// Writes the table whose payload is spread over the processes (`fields`: this process's slice of
// `slices`) to `path`. `info` (goal, entries, histogram, farthest) is used on rank 0. Collective.
void write_database(World& world, const std::filesystem::path& path, const DatabaseInfo& info, const Slices& slices,
                    std::span<const std::uint64_t> fields);

}  // namespace tilespace::mpi
