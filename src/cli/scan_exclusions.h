// What every command that scans a tree leaves out: `--exclude GLOB` (repeatable) and the
// `[scan] exclude` globs of a .gpuport.toml given with `--config FILE`. scan, hipify, profile
// --source and audit define these flags here, so their help and their meaning are the same.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace gpuport {

// `--exclude GLOB`, repeatable, into `excludes`.
void add_exclude_option(CLI::App& app, std::vector<std::string>& excludes);

// `--config FILE` for the commands whose only use of the config is its [scan] table.
void add_scan_config_option(CLI::App& app, std::string& config_file);

// Reads `config_file` with the audit's loader (load_audit_config) and puts its `[scan] exclude`
// globs in front of `excludes`: the command line's come last, so its "!glob" re-includes what
// the config left out. With `hipify_rocm`, the file's `[hipify] rocm` is stored there unless it
// holds a release already (the command line's --rocm wins). Nothing to do without a file. An
// unreadable or invalid file prints the audit's one line ("gpuport: error: FILE:LINE: ...") and
// returns exit status 2.
std::optional<int> add_config_excludes(const std::optional<std::string>& config_file,
                                       std::vector<std::string>& excludes,
                                       std::uint16_t* hipify_rocm = nullptr);

}  // namespace gpuport
