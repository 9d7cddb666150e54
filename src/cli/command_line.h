// Running CLI11 over a subcommand's arguments, the same way for every subcommand.
#pragma once

#include <cstdio>
#include <optional>
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

// What a command does with its parsed arguments before running: prints the help asked for
// (exit 0) or the one-line usage error (exit 2). nullopt: go on and run.
template <typename Config>
std::optional<int> usage_exit(const tl::expected<Config, UsageError>& config,
                              const std::string& help) {
  if (!help.empty()) {
    std::fputs(help.c_str(), stdout);
    return 0;
  }
  if (!config) {
    std::fprintf(stderr, "gpuport: error: %s\n", config.error().message.c_str());
    return 2;
  }
  return std::nullopt;
}

}  // namespace gpuport
