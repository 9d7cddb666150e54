// Python sources and notebook code: runs the stack rule families that read Python.
#include "scan/file_analysis.h"
#include "scan/python_kernels.h"
#include "scan/rules/stack_rules.h"

namespace gpuport {

void analyze_python(const SharedString& path, const TokenStream& tokens, const PythonFacts& facts,
                    FileAnalysis& out) {
  thread_local std::vector<PythonString> strings;  // reused: no allocation per file
  collect_python_strings(tokens, strings);
  check_python_frameworks(path, tokens, facts, out);
  inventory_python_kernels(path, tokens, facts, out);
  check_python_build(path, tokens, facts, strings, out);
  check_python_deploy(path, tokens, strings, out);
  check_python_artifacts(path, tokens, strings, out);
  if (base_name(path) == "setup.py") {
    check_python_requirements(path, tokens, out);
  }
}

void collect_python_strings(const TokenStream& tokens, std::vector<PythonString>& out) {
  out.clear();
  for (const std::uint32_t anchor : tokens.anchors) {  // the strings are among the anchors
    const Token& token = tokens.tokens[anchor];
    if (token.kind == TokenKind::String) {
      out.push_back({&token, python_string_content(tokens.text(token))});
    }
  }
}

}  // namespace gpuport
