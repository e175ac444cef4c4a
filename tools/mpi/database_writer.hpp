// tilespace-mpi: the finished table as a database file (database.hpp, kind 3), written by all
// processes at once with MPI-IO; byte for byte what `tilespace build --bits 2` saves.
//
// The file is written under the temporary name <table>.tmp.<pid of rank 0> in the database folder,
// opened by every process: MPI_File_set_size to the payload's end, then every process writes its
// units of the payload with MPI_File_write_at_all through a file view of its units (one unit every
// P: slices.hpp; in pieces of at most 1 GiB, under MPI's 2 GiB count limit). A 1 MiB checksum chunk
// (database.hpp) spans the units of every process, so the checksums are taken from the file
// itself: after MPI_File_sync, a barrier and another sync (MPI-IO's rule for reading what other
// processes wrote), every process reads the chunks c with c mod P its own through a view of those
// chunks and hashes them (chunk_sums), and rank 0 gathers the checksums, builds the header and the
// trailer (two_bit_frame, the bytes save_database writes around the payload) and writes them. Then
// MPI_File_sync and MPI_File_close; rank 0 renames the file into place, so a reader never sees a
// partial table. Any failure is a DataError (exit 3, agreed) after which the temporary file is
// removed; one left by a killed run is removed by the next writer (remove_stale_temporaries).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

#include "mpi/slices.hpp"
#include "mpi/world.hpp"
#include "tilespace/database.hpp"

namespace tilespace::mpi {

// Writes the table whose payload is spread over the processes (`fields`: this process's words of
// `slices`) to `path`. `info` (goal, entries, histogram, farthest) is used on rank 0. Collective.
void write_database(World& world, const std::filesystem::path& path, const DatabaseInfo& info, const Slices& slices,
                    std::span<const std::uint64_t> fields);

}  // namespace tilespace::mpi
