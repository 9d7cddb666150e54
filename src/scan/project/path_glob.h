// Paths relative to the scan root: joining and normalising them, and matching build globs.
#pragma once

#include <string>
#include <string_view>

namespace gpuport {

// The folder of a '/'-separated path ("" for a file at the root).
std::string_view parent_folder(std::string_view path);
// The last component of a '/'-separated path.
std::string_view file_name_of(std::string_view path);

// `relative` joined to `folder` with "." and ".." resolved and repeated slashes collapsed.
// Empty when the result leaves the root or `relative` is absolute.
std::string join_relative(std::string_view folder, std::string_view relative);

// True when the pattern holds a wildcard (*, ?, [).
bool is_glob(std::string_view pattern);

// Matches a root-relative path against a root-relative glob. `*` and `?` do not match '/', and
// `[...]` is a character class (`[!...]` negated), as in CMake's file(GLOB). A recursive glob
// (GLOB_RECURSE, `**`) matches its file-name part in every folder below its folder part.
bool glob_matches(std::string_view pattern, std::string_view path, bool recursive);

}  // namespace gpuport
