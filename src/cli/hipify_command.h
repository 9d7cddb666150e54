// `gpuport hipify PATH...`: flags, validation into a HipifyConfig, the run, the outputs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "cli/command_table.h"
#include "cli/scan_command.h"
#include "hipify/hipify_tree.h"
#include "hipify/output_tree.h"
#include "hipify/verify.h"

namespace gpuport {

enum class Verify : std::uint8_t { Off, On };
enum class ShowDiff : std::uint8_t { Off, On };
enum class ShowStats : std::uint8_t { Off, On };

// The validated command line; nothing below the CLI sees argv.
struct HipifyConfig {
  std::vector<std::string> inputs;
  OutputOptions output;
  HipifyOptions hipify;  // hipify.walk.excludes: --exclude; the config's go in front when run
  std::optional<std::string> config_file;  // --config: a .gpuport.toml whose [scan] exclude applies
  ReportFormat format = ReportFormat::Text;  // Text or Json
  ShowDiff diff = ShowDiff::Off;
  ShowStats stats = ShowStats::Off;
  Verify verify = Verify::Off;
  VerifyOptions verify_options;
  Progress progress = Progress::Show;
};

// Parses and validates the arguments after `hipify`; `help` is set when --help was asked for.
// `hipcc_env` is $HIPCC (the compiler when --hipcc is not given), or null.
tl::expected<HipifyConfig, UsageError> parse_hipify_args(const CommandArgs& args, std::string* help,
                                                         const char* hipcc_env = nullptr);
std::string hipify_help();

int run_hipify_command(const CommandArgs& args);

}  // namespace gpuport
