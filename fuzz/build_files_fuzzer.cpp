// libFuzzer target: the CMake and setup.py rewriters and the unified diff on arbitrary bytes.
// Aborts when an item points outside the file, when a file without edits is not returned as
// it was, when rewriting the rewritten file changes it again, or when the diff disagrees.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "hipify/build_files.h"
#include "hipify/unified_diff.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  // The first byte picks the kind and the options.
  const gpuport::BuildFileKind kind =
      (data[0] & 1) != 0 ? gpuport::BuildFileKind::SetupPy : gpuport::BuildFileKind::CMake;
  gpuport::BuildFileOptions options;
  options.rename_sources = (data[0] & 2) != 0;
  options.roc = (data[0] & 4) != 0;
  const std::string_view source(reinterpret_cast<const char*>(data + 1), size - 1);

  const gpuport::BuildFileResult first = gpuport::analyze_build_file(kind, source, options);
  if (first.changed != (first.rewritten != source)) {
    std::abort();
  }
  const auto lines = static_cast<std::uint32_t>(std::count(source.begin(), source.end(), '\n') + 1);
  bool edits = false;
  for (const gpuport::BuildFileItem& item : first.items) {
    if (item.line == 0 || item.line > lines) {
      std::abort();
    }
    edits = edits || item.change == gpuport::BuildChange::Rewrite ||
            item.change == gpuport::BuildChange::Insert;
  }
  if (!edits && first.changed) {
    std::abort();  // bytes changed that no item reports
  }
  const gpuport::BuildFileResult second =
      gpuport::analyze_build_file(kind, first.rewritten, options);
  if (second.changed) {
    std::abort();
  }
  const std::string diff = gpuport::unified_diff(source, first.rewritten, "f", "f");
  if (diff.empty() == first.changed) {
    std::abort();
  }
  return 0;
}
