#include "cli/command_output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "report/text_util.h"
#include "source/atomic_write.h"

namespace gpuport {

std::optional<ProfileFormat> parse_profile_format(std::string_view name) {
  if (name == "text") {
    return ProfileFormat::Text;
  }
  if (name == "json") {
    return ProfileFormat::Json;
  }
  if (name == "markdown" || name == "md") {
    return ProfileFormat::Markdown;
  }
  if (name == "csv") {
    return ProfileFormat::Csv;
  }
  return std::nullopt;
}

int unread_input_error(const std::string& path, SkipReason reason, std::uint64_t size,
                       std::string_view detail) {
  const std::string why = reason == SkipReason::TooLarge
                              ? std::to_string(size) + " bytes, over --max-filesize"
                              : printable(detail);
  std::fprintf(stderr, "gpuport: error: cannot read '%s': %s\n", printable(path).c_str(),
               why.c_str());
  return 2;
}

std::optional<int> unwritable_output(const std::string& path) {
  if (path.empty()) {
    return std::nullopt;
  }
  auto target = resolve_output_path(path);
  if (target) {
    return std::nullopt;
  }
  std::fprintf(stderr, "gpuport: error: cannot write '%s': %s\n",
               printable(target.error().path).c_str(), printable(target.error().message).c_str());
  return 2;
}

int write_command_output(std::string_view bytes, const std::string& path) {
  if (path.empty()) {
    errno = 0;
    const bool written = std::fwrite(bytes.data(), 1, bytes.size(), stdout) == bytes.size() &&
                         std::fflush(stdout) == 0;
    if (written) {
      return 0;
    }
    const int error = errno != 0 ? errno : EIO;
    if (error == EPIPE) {
      return 0;  // `gpuport profile t.json | head`: the reader has what it wanted
    }
    std::fprintf(stderr, "gpuport: error: cannot write the report: %s\n", std::strerror(error));
    return 2;
  }
  if (auto written = write_file_atomically(path, bytes); !written) {
    std::fprintf(stderr, "gpuport: error: cannot write '%s': %s\n",
                 printable(written.error().path).c_str(),
                 printable(written.error().message).c_str());
    return 2;
  }
  return 0;
}

}  // namespace gpuport
