// `gpuport scan PATH`: flags, validation into a ScanConfig, running the scan, writing the report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <tl/expected.hpp>

#include "cli/command_table.h"
#include "report/terminal.h"
#include "scan/scanner.h"
#include "scan/tier.h"

namespace gpuport {

enum class ReportFormat : std::uint8_t { Text, Json, Sarif, Markdown };
enum class Progress : std::uint8_t { Show, Quiet };

// The validated form of the command line; nothing below the CLI sees argv.
struct ScanConfig {
  std::string root = ".";
  ReportFormat format = ReportFormat::Text;
  std::string output;  // empty: standard output
  ScanOptions scan;    // scan.walk.excludes: --exclude; run_scan_command puts the config's first
  std::optional<std::string> config_file;  // --config: a .gpuport.toml whose [scan] exclude applies
  std::optional<Tier> fail_on;
  ColorMode color = ColorMode::Auto;
  Progress progress = Progress::Show;
};

// A usage error: one line for stderr, exit code 2.
struct UsageError {
  std::string message;
};

// "16M", "512K", "1G", "4096" (binary multiples; an optional trailing B or iB is accepted).
tl::expected<std::uint64_t, std::string> parse_size(std::string_view text);
std::optional<ReportFormat> parse_report_format(std::string_view name);

// Parses and validates the arguments after `scan`. `help` is set when --help was asked for.
tl::expected<ScanConfig, UsageError> parse_scan_args(const CommandArgs& args, std::string* help);
// The text of `gpuport scan --help`.
std::string scan_help();

int run_scan_command(const CommandArgs& args);

}  // namespace gpuport
