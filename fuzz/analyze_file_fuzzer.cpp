// libFuzzer target: the whole per-file pipeline (every lexer, reader and rule) on arbitrary bytes.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "scan/file_analysis.h"
#include "scan/scanner.h"

namespace {

// The first input byte picks the file name, so every reader and analyzer is reached.
constexpr const char* k_names[] = {
    "k.cu",           "k.cuh",      "host.cpp",       "x.h",
    "app.py",         "nb.ipynb",   "CMakeLists.txt", "requirements.txt",
    "pyproject.toml", "Dockerfile", "run.sh",         "deploy.yaml",
    "model.engine",   "blob.cubin", "setup.py",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  std::string path = k_names[data[0] % (sizeof(k_names) / sizeof(k_names[0]))];
  std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  gpuport::FileAnalysis analysis;
  gpuport::analyze_file(path, bytes, analysis);
  std::uint64_t max_line = analysis.lines + 1;
  for (const gpuport::Finding& finding : analysis.findings) {
    if (finding.line == 0 || finding.line > max_line || finding.file != path) {
      std::abort();
    }
  }
  for (const gpuport::Kernel& kernel : analysis.kernels) {
    if (kernel.line == 0 || kernel.line > max_line || kernel.lines_of_code > max_line) {
      std::abort();
    }
  }
  return 0;
}
