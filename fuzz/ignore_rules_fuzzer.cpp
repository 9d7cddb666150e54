// libFuzzer target: parses arbitrary bytes as a .gitignore file and matches paths against it.
// The input is split at the first NUL: the ignore file before it, '\n'-separated paths after it.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "source/ignore_rules.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::size_t split = input.find('\0');
  std::string_view ignore_file = input.substr(0, split);
  std::string_view paths = split == std::string_view::npos ? input : input.substr(split + 1);

  gpuport::IgnoreRules rules = gpuport::IgnoreRules::parse(ignore_file);
  if (rules.size() > ignore_file.size() + 1) {
    std::abort();  // more patterns than lines is impossible
  }
  while (!paths.empty()) {
    std::size_t end = paths.find('\n');
    std::string_view path = paths.substr(0, end);
    for (gpuport::PathKind kind : {gpuport::PathKind::File, gpuport::PathKind::Directory}) {
      gpuport::IgnoreMatch match = rules.match(path, kind);
      if (rules.empty() && match != gpuport::IgnoreMatch::None) {
        std::abort();
      }
    }
    paths = end == std::string_view::npos ? std::string_view() : paths.substr(end + 1);
  }
  return 0;
}
