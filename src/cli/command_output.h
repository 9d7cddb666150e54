// Where a rendered report goes: standard output (a closed pipe ends quietly) or an -o file
// written atomically (never partial). Shared by `profile` and `compare`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "source/walker.h"

namespace gpuport {

enum class ProfileFormat : std::uint8_t { Text, Json, Markdown, Csv };

// "text", "json", "markdown" (or "md"), "csv".
std::optional<ProfileFormat> parse_profile_format(std::string_view name);

// Writes `bytes` to stdout when `path` is empty, else atomically to `path`. Prints a one-line
// error and returns 2 when the output cannot be written; 0 otherwise (also when the reader of
// stdout went away).
int write_command_output(std::string_view bytes, const std::string& path);

// A file named on the command line that was not read (left_unread): prints "cannot read
// 'PATH': Permission denied" or "...: N bytes, over --max-filesize" and returns 2.
int unread_input_error(const std::string& path, SkipReason reason, std::uint64_t size,
                       std::string_view detail);

// Checks an -o path before any work (see resolve_output_path): prints the one-line error and
// returns 2 when it cannot be written; nothing when `path` is empty (stdout) or writable.
std::optional<int> unwritable_output(const std::string& path);

}  // namespace gpuport
