// Reading a whole input file (a config, a result, a dataset) with a cap on its size, so that
// `--config /dev/zero` or a multi-gigabyte file is one error, not memory grown until it fails.
#pragma once

#include <cstdint>
#include <string>

#include <tl/expected.hpp>

#include "source/file_system.h"

namespace gpuport {

inline constexpr std::uint64_t k_config_file_limit = 1ull << 20;    // TOML configs, templates
inline constexpr std::uint64_t k_result_file_limit = 256ull << 20;  // bench results, responses
inline constexpr std::uint64_t k_report_file_limit = 4ull << 30;    // scan reports, datasets

// The text of `path` (a file, a FIFO or a device read to its end). Errors name `path`: the
// strerror text, "is a directory", "larger than LIMIT; not a KIND" past `limit` bytes, or
// "byte N: a NUL byte; a KIND is text" (reading stops there). `kind` names what the file should
// be ("gpuport config", "gpuport bench result").
tl::expected<std::string, IoError> read_bounded_file(const std::string& path, std::uint64_t limit,
                                                     std::string_view kind);

// "1 MiB", "256 MiB", "4 GiB", else bytes.
std::string size_text(std::uint64_t bytes);

}  // namespace gpuport
