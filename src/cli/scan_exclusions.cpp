// --exclude and the [scan] exclude globs of --config FILE, the same for every command.
#include "cli/scan_exclusions.h"

#include <cstdio>

#include "audit/config.h"
#include "report/text_util.h"

namespace gpuport {

void add_exclude_option(CLI::App& app, std::vector<std::string>& excludes) {
  app.add_option("--exclude", excludes, "Skip paths matching GLOB (gitignore syntax); repeatable")
      ->type_name("GLOB")
      ->allow_extra_args(false);
}

void add_scan_config_option(CLI::App& app, std::string& config_file) {
  app.add_option("--config", config_file,
                 "A .gpuport.toml whose [scan] exclude globs are added to --exclude")
      ->type_name("FILE");
}

std::optional<int> add_config_excludes(const std::optional<std::string>& config_file,
                                       std::vector<std::string>& excludes,
                                       std::uint16_t* hipify_rocm) {
  if (!config_file) {
    return std::nullopt;
  }
  auto config = load_audit_config(*config_file);
  if (!config) {
    std::fprintf(stderr, "gpuport: error: %s\n", printable(config.error().message).c_str());
    return 2;
  }
  std::vector<std::string> all = std::move(config->scan_exclude);
  all.insert(all.end(), excludes.begin(), excludes.end());
  excludes = std::move(all);
  if (hipify_rocm != nullptr && *hipify_rocm == 0) {
    *hipify_rocm = config->hipify_rocm;
  }
  return std::nullopt;
}

}  // namespace gpuport
