// The table of subcommands ({name, summary, run}) and the "did you mean" hint for typos.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport {

// Arguments after the subcommand name, in order.
using CommandArgs = std::vector<std::string>;
using RunCommand = int (*)(const CommandArgs& args);

struct Command {
  std::string_view name;
  std::string_view summary;  // one line for `gpuport --help`
  RunCommand run = nullptr;
};

// Every subcommand, in the order `gpuport --help` lists them.
std::span<const Command> command_table();
const Command* find_command(std::string_view name);

// Edit distance with adjacent transpositions counting as one edit ("scna" -> "scan" is 1).
std::size_t edit_distance(std::string_view a, std::string_view b);
// The closest of `candidates` to `typed`, when it is close enough to be a likely typo.
std::optional<std::string_view> did_you_mean(std::string_view typed,
                                             std::span<const std::string_view> candidates);

// The text of `gpuport --help`.
std::string main_help();

}  // namespace gpuport
