// `gpuport audit REPO`: flags, validation into an AuditCommandConfig, the audit (scan, dry-run
// translation, profile, estimate) and the report: HTML by default, Markdown or JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "cli/command_table.h"
#include "cli/scan_command.h"

namespace gpuport {

enum class AuditFormat : std::uint8_t { Html, Markdown, Json };

// "html", "markdown" (or "md"), "json".
std::optional<AuditFormat> parse_audit_format(std::string_view name);

// Where the HTML report goes when -o is not given.
inline constexpr std::string_view k_default_audit_report = "gpuport-report.html";

// The validated command line; nothing below the CLI sees argv.
struct AuditCommandConfig {
  std::string repo;
  std::vector<std::string> traces;
  std::vector<std::string> excludes;  // --exclude; the config's [scan] exclude join them
  std::optional<std::string> config_file;
  std::optional<std::string> bench_nvidia;  // gpuport bench results giving the throughputs
  std::optional<std::string> bench_amd;
  AuditFormat format = AuditFormat::Html;
  // Empty: stdout. HTML without -o goes to k_default_audit_report; "-o -" is stdout.
  std::string output;
  bool print_default_config = false;
  unsigned jobs = 1;
  bool quiet = false;
  std::uint64_t max_file_size = 0;  // --max-filesize, parsed
};

tl::expected<AuditCommandConfig, UsageError> parse_audit_args(const CommandArgs& args,
                                                              std::string* help);
std::string audit_help();

int run_audit_command(const CommandArgs& args);

}  // namespace gpuport
