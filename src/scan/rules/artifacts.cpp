// ART rules on Python: code that names precompiled cubins/fatbins it loads or downloads.
#include "scan/rules/stack_rules.h"

namespace gpuport {

namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// ".cubin" or ".fatbin" as a file extension inside the text ("fmha_sm90.cubin", "{name}.cubin").
bool names_binary_file(std::string_view content) {
  for (std::string_view ext : {std::string_view(".cubin"), std::string_view(".fatbin")}) {
    std::size_t pos = content.find(ext);
    while (pos != std::string_view::npos) {
      const std::size_t end = pos + ext.size();
      if (end >= content.size() || !is_alnum(content[end])) {
        return true;
      }
      pos = content.find(ext, end);
    }
  }
  return false;
}

}  // namespace

void check_python_artifacts(const SharedString& path, const TokenStream& tokens,
                            std::span<const PythonString> strings, FileAnalysis& out) {
  std::uint32_t last_line = 0;
  for (const PythonString& string : strings) {
    const Token& token = *string.token;
    if (token.line == last_line) {
      continue;
    }
    const std::string_view content = string.content;
    if (content.size() <= 512 && names_binary_file(content)) {
      last_line = token.line;
      add_finding(out, "GP-ART-004", path, tokens, token, std::string(content.substr(0, 80)));
    }
  }
}

}  // namespace gpuport
