// Writing a whole file so that readers see either the old contents or the new, never a part.
#pragma once

#include <string>
#include <string_view>

#include <tl/expected.hpp>

#include "source/file_system.h"

namespace gpuport {

// Writes `bytes` to a temporary file beside `path`, flushes it to disk and renames it over `path`.
// On any failure the temporary file is removed, `path` is left as it was, and the error names
// `path` with a strerror-style message. A new file gets the usual 0666 & ~umask permissions; an
// existing file keeps its permissions.
tl::expected<void, IoError> write_file_atomically(const std::string& path, std::string_view bytes);

}  // namespace gpuport
