// CUDA build settings in CMake files and setup.py, what each becomes for HIP, and the rewritten
// file. Without --build-files hipify only reports the items; with it, it writes `rewritten`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport {

enum class BuildFileKind : std::uint8_t { CMake, SetupPy };

// CMakeLists.txt and *.cmake are CMake; setup.py is SetupPy; anything else is not a build file.
std::optional<BuildFileKind> build_file_kind(std::string_view path);
std::string_view build_file_kind_name(BuildFileKind kind);  // "cmake", "setup.py"

enum class BuildChange : std::uint8_t {
  Rewrite,  // an edit inside the line; applied in `rewritten`
  Insert,   // a new line (find_package for a HIP library, LANGUAGE HIP for .cu sources)
  Manual,   // no mechanical equivalent: `hip` says what a person should do
  Note,     // works on ROCm as it is; reported for information
};
std::string_view build_change_name(BuildChange change);  // "rewrite", "insert", ...

struct BuildFileItem {
  std::uint32_t line = 0;  // 1-based, in the original file
  BuildChange change = BuildChange::Rewrite;
  std::string cuda;  // what the file says: "enable_language(CUDA)", "CUDA::cublas", "-gencode ..."
  std::string hip;   // the HIP equivalent, or for Manual/Note the advice
};

struct BuildFileOptions {
  std::string offload_arch = "gfx90a";  // the target CUDA architectures become
  bool rename_sources = false;          // hipify --rename: .cu sources become .hip
  bool roc = false;                     // hipify --roc: rocBLAS/rocRAND/... targets, not hip*
};

struct BuildFileResult {
  BuildFileKind kind = BuildFileKind::CMake;
  std::vector<BuildFileItem> items;  // sorted by line
  std::string rewritten;             // the source with every Rewrite and Insert applied
  bool changed = false;              // rewritten != source
};

// Pure function of the text. Every line not named by a Rewrite item is kept byte for byte;
// Insert items add whole lines (so later line numbers of `rewritten` shift by those).
BuildFileResult analyze_build_file(BuildFileKind kind, std::string_view source,
                                   const BuildFileOptions& options);

}  // namespace gpuport
