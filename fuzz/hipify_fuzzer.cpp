// libFuzzer target: translate_cuda with the builtin table on arbitrary bytes. Aborts when a
// translation is not idempotent, when `changed` disagrees with the output, or when an unchanged
// translation is not byte-identical to its input.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "hipify/mapping.h"
#include "hipify/translator.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  // The first byte picks the options, so every pass is reached.
  gpuport::TranslateOptions options;
  options.launch_syntax =
      (data[0] & 1) != 0 ? gpuport::LaunchSyntax::Hip : gpuport::LaunchSyntax::Keep;
  options.roc = (data[0] & 2) != 0;
  options.translate_comments = (data[0] & 4) != 0;
  options.warnings = (data[0] & 8) != 0;
  std::string_view source(reinterpret_cast<const char*>(data + 1), size - 1);
  const gpuport::MappingTable& table = gpuport::builtin_mapping_table();

  gpuport::TranslationResult first = gpuport::translate_cuda("fuzz.cu", source, table, options);
  if (first.changed != (first.output != source)) {
    std::abort();
  }
  const gpuport::TranslationStats& stats = first.stats;
  if (stats.changed_lines == 0 && first.output != source) {
    std::abort();  // bytes changed that no statistic accounts for
  }
  if (stats.changed_lines > stats.lines + 1 || stats.includes_added > 1) {
    std::abort();
  }
  for (const gpuport::UnsupportedUse& use : stats.unsupported) {
    if (use.line == 0 || use.line > stats.lines || use.column == 0) {
      std::abort();
    }
  }
  gpuport::TranslationResult second =
      gpuport::translate_cuda("fuzz.cu", first.output, table, options);
  if (second.output != first.output || second.changed) {
    std::abort();
  }
  return 0;
}
