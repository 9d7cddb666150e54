// `gpuport profile TRACE`: flags, validation into a ProfileConfig, reading the trace, the
// optional scan join, the analysis and the report.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "cli/command_output.h"
#include "cli/command_table.h"
#include "cli/scan_command.h"
#include "profile/analysis/step_pattern.h"
#include "profile/trace.h"
#include "report/terminal.h"

namespace gpuport {

// The validated command line; nothing below the CLI sees argv.
struct ProfileConfig {
  std::string trace;
  std::string source_root;  // --source: scan this repository in-process
  std::string scan_json;    // --scan: a `gpuport scan --format json` file
  // --exclude globs of the --source scan; the config's [scan] exclude go in front when run.
  std::vector<std::string> excludes;
  std::optional<std::string> config_file;  // --config: a .gpuport.toml
  std::optional<TraceFormat> input_format;
  std::optional<StepPattern> step;  // --step (none: ProfilerStep#, else NVTX)
  std::size_t top = 20;
  ProfileFormat format = ProfileFormat::Text;
  std::string output;
  ColorMode color = ColorMode::Auto;
  unsigned jobs = 1;
  std::uint64_t max_file_size = 0;  // --max-filesize of the --source scan
  bool quiet = false;
};

tl::expected<ProfileConfig, UsageError> parse_profile_args(const CommandArgs& args,
                                                           std::string* help);
std::string profile_help();

// "--input-format" validation shared with compare: the format, or a usage error naming the
// valid spellings.
tl::expected<std::optional<TraceFormat>, UsageError> parse_input_format(const std::string& name);

int run_profile_command(const CommandArgs& args);

}  // namespace gpuport
