// ART rules on Python: code that loads or downloads the precompiled cubins/fatbins it names.
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

// Calls that load a GPU binary (the driver's module and library loaders, CuPy's RawModule,
// cuda.core's ObjectCode) or fetch a file from the network.
bool is_binary_loader(std::string_view name) {
  for (std::string_view loader :
       {"cuModuleLoad", "cuModuleLoadData", "cuModuleLoadDataEx", "cuModuleLoadFatBinary",
        "cuLibraryLoadFromFile", "cuLibraryLoadData", "RawModule", "from_cubin", "from_fatbin",
        "load_cubin", "urlretrieve", "urlopen", "download_file", "download_url", "hf_hub_download",
        "snapshot_download"}) {
    if (name == loader) {
      return true;
    }
  }
  return false;
}

}  // namespace

void check_python_artifacts(const SharedString& path, const TokenStream& tokens,
                            std::span<const PythonString> strings, FileAnalysis& out) {
  // A loader is a file that names .cubin/.fatbin files and loads or downloads them: a string
  // alone (a test's expected path, a usage message, a build step writing ptxas output) loads
  // nothing. One finding per loader, at its first load or download call.
  const PythonString* binary_name = nullptr;
  for (const PythonString& string : strings) {
    if (string.content.size() <= 512 && names_binary_file(string.content)) {
      binary_name = &string;
      break;
    }
  }
  if (binary_name == nullptr) {
    return;
  }
  for (const std::uint32_t anchor : tokens.anchors) {
    const Token& token = tokens.tokens[anchor];
    if (token.kind != TokenKind::Identifier || !is_binary_loader(tokens.text(token))) {
      continue;
    }
    const std::size_t next = anchor + 1;
    if (next < tokens.tokens.size() && tokens.text_is(tokens.tokens[next], "(")) {
      add_finding(out, "GP-ART-004", path, tokens, token,
                  std::string(tokens.text(token)) + " of " +
                      std::string(binary_name->content.substr(0, 80)));
      return;
    }
  }
}

}  // namespace gpuport
