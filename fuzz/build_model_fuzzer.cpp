// libFuzzer target: the build model's readers (CMake, setup.py, Makefile) on arbitrary bytes.
// Aborts when a source reference, a definition or a scope names a line outside the file, or
// when the model's answers are not the same on a second read of the same files.
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "scan/project/build_model.h"

namespace {

class Paths : public gpuport::PathLookup {
 public:
  bool has_file(std::string_view path) const override { return path.size() % 2 == 0; }
  bool has_folder(std::string_view path) const override { return path.size() % 3 != 0; }
};

std::string describe(const gpuport::BuildModel& model) {
  std::string text = model.amd_build_exists() ? "amd " : "no-amd ";
  for (const char* path : {"csrc/a.cu", "src/ggml-cuda/mmq.cu", "k.cpp", "x/y/z.hip"}) {
    const gpuport::FileMembership m = model.membership(path);
    text += std::to_string(static_cast<int>(m.amd)) + (m.alternative ? "a" : "") + " ";
  }
  for (std::uint32_t line = 1; line < 40; line += 3) {
    const gpuport::AmdBuild amd = model.line_amd("CMakeLists.txt", line);
    text += std::to_string(static_cast<int>(amd.state)) + std::to_string(amd.guard_line) + " ";
  }
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  static const char* const k_names[] = {"CMakeLists.txt", "setup.py", "Makefile"};
  static const gpuport::BuildScriptKind k_kinds[] = {gpuport::BuildScriptKind::CMake,
                                                     gpuport::BuildScriptKind::Python,
                                                     gpuport::BuildScriptKind::Make};
  const std::size_t pick = data[0] % 3;
  std::vector<gpuport::BuildFile> files = {{k_names[pick], text, k_kinds[pick]}};
  if ((data[0] & 4) != 0) {
    files.push_back({"sub/CMakeLists.txt", text, gpuport::BuildScriptKind::CMake});
  }
  const Paths paths;
  const gpuport::BuildModel model = gpuport::BuildModel::read(files, paths);
  std::uint32_t lines = 1;
  for (char c : text) {
    lines += c == '\n' ? 1 : 0;
  }
  for (const gpuport::SourceReference& source : model.facts().sources) {
    if (source.where.line == 0 || source.where.line > lines) {
      std::abort();
    }
  }
  for (const gpuport::BuildDefinition& definition : model.facts().definitions) {
    if (definition.where.line == 0 || definition.where.line > lines || definition.name.empty()) {
      std::abort();
    }
  }
  for (const gpuport::ScopeRange& scope : model.facts().scopes) {
    if (scope.first_line == 0 || scope.first_line > scope.last_line) {
      std::abort();
    }
  }
  const gpuport::BuildModel again = gpuport::BuildModel::read(files, paths);
  if (describe(model) != describe(again)) {
    std::abort();
  }
  return 0;
}
