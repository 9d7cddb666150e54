// CMake, packaging, Docker, shell and YAML files: runs the BUILD, PKG and DEPLOY rule families.
#include "scan/file_analysis.h"
#include "scan/rules/stack_rules.h"

namespace gpuport {

void analyze_config(const SharedString& path, Language language, std::span<const ConfigLine> lines,
                    FileAnalysis& out) {
  switch (language) {
    case Language::CMake:
      check_cmake(path, lines, out);
      break;
    case Language::Packaging:
      check_packaging(path, lines, out);
      break;
    case Language::Docker:
    case Language::Shell:
    case Language::Yaml:
      check_deploy(path, language, lines, out);
      break;
    default:
      break;
  }
}

}  // namespace gpuport
