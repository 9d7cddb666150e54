// Python sources and notebook code: runs the stack rule families that read Python.
#include "scan/file_analysis.h"
#include "scan/rules/stack_rules.h"

namespace gpuport {

void analyze_python(const std::string& path, const TokenStream& tokens, const PythonFacts& facts,
                    FileAnalysis& out) {
  check_python_frameworks(path, tokens, facts, out);
  check_python_build(path, tokens, facts, out);
  check_python_deploy(path, tokens, out);
  check_python_artifacts(path, tokens, out);
  if (base_name(path) == "setup.py") {
    check_python_requirements(path, tokens, out);
  }
}

}  // namespace gpuport
