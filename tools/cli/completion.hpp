// The bash completion script of the `tilespace` command (`tilespace --bash-completion`),
// generated from the command's own CLI11 definition so that it cannot drift from it.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace tilespace::cli {

// A plain bash script (no bash-completion helpers) defining _tilespace and registering it with
// `complete -F _tilespace tilespace`: the subcommands, each one's options (hidden ones left
// out), and the values of the options that have a known set: algorithm and heuristic names from
// the registry, boards from the board limits, stock partitions, the members of IsMember checks,
// file and folder names.
std::string bash_completion(CLI::App& app);

}  // namespace tilespace::cli
