// `gpuport compare A B`: two traces of the same workload on two platforms, side by side.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <tl/expected.hpp>

#include "cli/command_output.h"
#include "cli/command_table.h"
#include "cli/scan_command.h"
#include "profile/trace.h"
#include "report/terminal.h"

namespace gpuport {

struct CompareConfig {
  std::string trace_a;
  std::string trace_b;
  std::optional<TraceFormat> input_format;  // applies to both
  std::size_t top = 20;
  ProfileFormat format = ProfileFormat::Text;
  std::string output;
  ColorMode color = ColorMode::Auto;
};

tl::expected<CompareConfig, UsageError> parse_compare_args(const CommandArgs& args,
                                                           std::string* help);
std::string compare_help();

int run_compare_command(const CommandArgs& args);

}  // namespace gpuport
