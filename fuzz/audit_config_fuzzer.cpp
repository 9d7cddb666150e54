// libFuzzer target: a project's .gpuport.toml on arbitrary bytes (cpptoml, the key-line pass, the
// merge over the defaults and the range checks). Errors must be one line naming the file; a
// parsed config must place every override on a line of the input.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "audit/config.h"
#include "audit/toml_flat.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::uint64_t lines =
      static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  for (const auto& [key, line] : gpuport::toml_key_lines(text)) {
    if (line == 0 || line > lines) {
      std::abort();
    }
  }
  auto config = gpuport::parse_audit_config(text, "fuzz.toml");
  if (!config) {
    const std::string& message = config.error().message;
    if (!message.starts_with("fuzz.toml") || message.find('\n') != std::string::npos) {
      std::abort();
    }
    return 0;
  }
  for (const gpuport::ConfigOverride& item : config->overrides) {
    if (item.line > lines) {
      std::abort();
    }
  }
  if (!(config->cost.nvidia.throughput_rps > 0) || !(config->cost.amd.throughput_rps > 0) ||
      config->cost.nvidia.gpu_price_per_hour <= 0 || config->effort.hours_per_day <= 0) {
    std::abort();
  }
  return 0;
}
