// What one nvcc command-line flag becomes for hipcc (HIP-Clang): kept, replaced, dropped, or left
// to a person. Shared by the CMake and setup.py build-file rewriters.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport {

enum class FlagAction : std::uint8_t {
  Keep,     // hipcc understands it as written (-O3, -DX, -I, -std=c++17, ...)
  Replace,  // `replacement` holds the hipcc flags (possibly several, possibly none)
  Drop,     // nvcc-only and not needed by HIP-Clang
  Manual,   // no mechanical equivalent; `note` says what to do
};

struct FlagTranslation {
  FlagAction action = FlagAction::Keep;
  std::vector<std::string> replacement;
  std::string note;
  std::size_t consumed = 1;   // flags used: 2 for "-gencode arch=..." and other split pairs
  bool architecture = false;  // a GPU-architecture flag (-gencode, -arch, --gpu-architecture)
};

// Translates flags[0] (flags[1], when present, is its possible separate value). `offload_arch`
// is the AMD target an architecture flag becomes ("gfx90a" -> "--offload-arch=gfx90a").
FlagTranslation translate_nvcc_flag(std::span<const std::string_view> flags,
                                    std::string_view offload_arch);

// Translates a whole flag list. Architecture flags collapse to one --offload-arch flag (the
// first one becomes it, later ones are dropped). `changed` tells whether anything differs.
struct FlagListTranslation {
  std::vector<std::string> flags;
  std::vector<std::string> notes;  // one per Manual flag: "-maxrregcount=64: ..."
  bool changed = false;
};
FlagListTranslation translate_nvcc_flags(std::span<const std::string_view> flags,
                                         std::string_view offload_arch);

// Splits a command-line string on blanks (no quoting: build files rarely quote flags).
std::vector<std::string_view> split_flags(std::string_view text);

}  // namespace gpuport
