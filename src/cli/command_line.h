// Running CLI11 over a subcommand's arguments, the same way for every subcommand.
#pragma once

#include <string>

#include <CLI/CLI.hpp>
#include <tl/expected.hpp>

#include "cli/command_table.h"
#include "cli/scan_command.h"

namespace gpuport {

// Parses `args` (the words after the subcommand) with `app`. --help sets `*help` to the help
// text and returns an empty UsageError; a parse error returns its one-line message.
tl::expected<void, UsageError> parse_command_line(CLI::App& app, const CommandArgs& args,
                                                  std::string* help);

}  // namespace gpuport
