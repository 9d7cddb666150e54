// BUILD rules: CUDA language, architectures, toolkit targets, FindCUDA and nvcc flags in CMake;
// CUDAExtension, cpp_extension.load and nvcc options in Python build code; HIP CMake signs.
#include <algorithm>
#include <array>
#include <cctype>

#include "scan/rules/stack_rules.h"

namespace gpuport {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// Lowercase line text with the spaces just inside a call's '(' removed: "find_package( cuda".
std::string compact_calls(std::string_view text) {
  std::string lower = to_lower_ascii(text);
  std::string out;
  out.reserve(lower.size());
  for (std::size_t i = 0; i < lower.size(); ++i) {
    const char c = lower[i];
    if ((c == ' ' || c == '\t') && !out.empty() && (out.back() == '(' || out.back() == ' ')) {
      continue;
    }
    if (c == '(' && !out.empty() && out.back() == ' ') {
      out.pop_back();  // "find_package (CUDA)" -> "find_package(cuda)"
    }
    out.push_back(c == '\t' ? ' ' : c);
  }
  return out;
}

// The words after the first one inside `project(...)`, i.e. the languages and options.
bool project_lists_language(std::string_view line, std::string_view language) {
  std::size_t open = line.find('(');
  if (open == std::string_view::npos) {
    return false;
  }
  std::string_view args = line.substr(open + 1);
  std::size_t first_end = args.find_first_of(" )");
  if (first_end == std::string_view::npos) {
    return false;
  }
  return find_word(args.substr(first_end), language) != std::string_view::npos;
}

constexpr std::array<std::string_view, 7> k_nvcc_flags = {
    "-xptxas",        "--maxrregcount",           "-maxrregcount",         "--use_fast_math",
    "-use_fast_math", "--expt-relaxed-constexpr", "--expt-extended-lambda"};

constexpr std::array<std::string_view, 5> k_findcuda_calls = {
    "cuda_add_library(", "cuda_add_executable(", "cuda_include_directories(", "cuda_compile(",
    "cuda_add_cublas_to_target("};

constexpr std::array<std::string_view, 4> k_tensorrt_libs = {"nvinfer", "nvinfer_plugin",
                                                             "nvonnxparser", "nvparsers"};

// Where nvcc's relocatable-device-code flag starts in `text` (-rdc=true, -rdc true,
// --relocatable-device-code=true), or npos; `-fgpu-rdc` is HIP's and not it.
std::size_t nvcc_rdc_flag(std::string_view text) {
  for (std::string_view flag : {"--relocatable-device-code", "-rdc"}) {
    for (std::size_t at = text.find(flag); at != std::string_view::npos;
         at = text.find(flag, at + 1)) {
      const bool starts_word =
          at == 0 ||
          !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '-');
      if (starts_word) {
        return at;
      }
    }
  }
  return std::string_view::npos;
}

struct CMakeEmitter {
  const SharedString& path;
  const ConfigLine& line;
  FileAnalysis& out;

  void finding(std::string_view rule, std::size_t at, std::string detail) {
    add_line_finding(out, rule, path, line.line, line.indent + 1 + static_cast<std::uint32_t>(at),
                     line.text, std::move(detail));
  }
  void sign(std::string detail) {
    out.amd_path.push_back({AmdPathKind::HipCMake, path, line.line, std::move(detail)});
  }
};

void check_cmake_line(const SharedString& path, const ConfigLine& line, FileAnalysis& out) {
  // `t` has call spacing normalised (for "name(" patterns); `raw` keeps the columns.
  const std::string text = compact_calls(line.text);
  const std::string raw_text = to_lower_ascii(line.text);
  CMakeEmitter emit{path, line, out};
  const std::string_view t = text;
  const std::string_view raw = raw_text;

  // BUILD-001: CUDA as a language.
  std::size_t at = std::string_view::npos;
  if (starts_with(t, "enable_language(") && find_word(t, "cuda") != std::string_view::npos) {
    emit.finding("GP-BUILD-001", 0, "enable_language(CUDA)");
  } else if (starts_with(t, "project(") && project_lists_language(t, "cuda")) {
    emit.finding("GP-BUILD-001", 0, "project(... CUDA)");
  } else if ((at = t.find("language cuda")) != std::string_view::npos &&
             find_word(t, "cuda", at) == at + 9) {
    emit.finding("GP-BUILD-001", at, "LANGUAGE CUDA");
  }

  // BUILD-002: NVIDIA architectures.
  if ((at = find_word(raw, "cmake_cuda_architectures")) != std::string_view::npos) {
    emit.finding("GP-BUILD-002", at, "CMAKE_CUDA_ARCHITECTURES");
  } else if ((at = find_word(raw, "cuda_architectures")) != std::string_view::npos) {
    emit.finding("GP-BUILD-002", at, "CUDA_ARCHITECTURES");
  } else if ((at = find_word(raw, "-gencode")) != std::string_view::npos ||
             (at = raw.find("arch=compute_")) != std::string_view::npos) {
    emit.finding("GP-BUILD-002", at, "-gencode");
  }

  // BUILD-003: CUDAToolkit and CUDA:: targets.
  if ((at = t.find("find_package(cudatoolkit")) != std::string_view::npos) {
    emit.finding("GP-BUILD-003", at, "find_package(CUDAToolkit)");
  } else if ((at = find_word(raw, "cuda::")) != std::string_view::npos) {
    const std::size_t end = raw.find_first_of(" )\"", at);
    emit.finding("GP-BUILD-003", at, std::string(line.text.substr(at, end - at)));
  }

  // BUILD-004: the legacy FindCUDA module.
  if ((at = t.find("find_package(cuda")) != std::string_view::npos &&
      (at + 17 >= t.size() || t[at + 17] == ' ' || t[at + 17] == ')')) {
    emit.finding("GP-BUILD-004", at, "find_package(CUDA)");
  } else if ((at = find_word(raw, "cuda_nvcc_flags")) != std::string_view::npos) {
    emit.finding("GP-BUILD-004", at, "CUDA_NVCC_FLAGS");
  } else {
    for (std::string_view call : k_findcuda_calls) {
      if ((at = find_word(t, call)) != std::string_view::npos) {
        emit.finding("GP-BUILD-004", at, std::string(call.substr(0, call.size() - 1)));
        break;
      }
    }
  }

  // BUILD-005: nvcc-only flags.
  for (std::string_view flag : k_nvcc_flags) {
    if ((at = find_word(raw, flag)) != std::string_view::npos) {
      emit.finding("GP-BUILD-005", at, std::string(flag));
      break;
    }
  }

  // BUILD-009: relocatable device code (nvcc's -rdc, not hipcc's -fgpu-rdc).
  if ((at = find_word(raw, "cuda_separable_compilation")) != std::string_view::npos) {
    emit.finding("GP-BUILD-009", at, "CUDA_SEPARABLE_COMPILATION");
  } else if ((at = nvcc_rdc_flag(raw)) != std::string_view::npos) {
    emit.finding("GP-BUILD-009", at,
                 raw.compare(at, 4, "-rdc") == 0 ? "-rdc" : "--relocatable-device-code");
  }

  // BUILD-008: TensorRT libraries.
  for (std::string_view lib : k_tensorrt_libs) {
    if ((at = find_word(raw, lib)) != std::string_view::npos) {
      emit.finding("GP-BUILD-008", at, std::string(lib));
      break;
    }
  }

  // Signs of an existing HIP build.
  if (starts_with(t, "enable_language(") && find_word(t, "hip") != t.npos) {
    emit.sign("enable_language(HIP)");
  } else if (starts_with(t, "project(") && project_lists_language(t, "hip")) {
    emit.sign("project(... HIP)");
  } else if (t.find("find_package(hip") != std::string_view::npos) {
    emit.sign("find_package(hip)");
  } else if (find_word(t, "hip::host") != t.npos || find_word(t, "hip::device") != t.npos) {
    emit.sign("hip:: target");
  } else if (find_word(t, "roc::") != t.npos) {
    emit.sign("roc:: target");
  } else if (find_word(t, "cmake_hip_architectures") != t.npos ||
             find_word(t, "amdgpu_targets") != t.npos || find_word(t, "gpu_targets") != t.npos) {
    emit.sign("HIP architectures");
  } else if (t.find("language hip") != std::string_view::npos) {
    emit.sign("LANGUAGE HIP");
  }
}

// nvcc-only and NVIDIA-architecture options as Python string literals.
bool is_nvcc_option(std::string_view content) {
  const std::string_view head = content.substr(0, 64);
  // Every option below starts with '-', holds '=' or is the 20-byte TORCH_CUDA_ARCH_LIST; most
  // strings are none of these and need no lowercase copy.
  if (head.empty() ||
      (head[0] != '-' && head.find('=') == std::string_view::npos && head.size() != 20)) {
    return false;
  }
  char lower[64];
  for (std::size_t i = 0; i < head.size(); ++i) {
    const char c = head[i];
    lower[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  const std::string_view t(lower, head.size());
  if (starts_with(t, "-gencode") || starts_with(t, "--generate-code") ||
      t.find("arch=compute_") != std::string_view::npos ||
      t.find("code=sm_") != std::string_view::npos || t == "torch_cuda_arch_list") {
    return true;
  }
  return std::any_of(k_nvcc_flags.begin(), k_nvcc_flags.end(),
                     [&](std::string_view flag) { return starts_with(t, flag); }) ||
         starts_with(t, "--ptxas-options");
}

const Token* next_significant(const TokenStream& tokens, std::size_t& i) {
  for (++i; i < tokens.tokens.size(); ++i) {
    if (tokens.tokens[i].kind != TokenKind::Comment &&
        tokens.tokens[i].kind != TokenKind::Newline) {
      return &tokens.tokens[i];
    }
  }
  return nullptr;
}

// CUDA libraries a CUDAExtension may link by name: `cublas`, or `-lcublas` in extra_link_args.
bool is_cuda_library_name(std::string_view name) {
  if (name.starts_with("-l")) {
    name.remove_prefix(2);
  }
  constexpr std::string_view k_libraries[] = {
      "cuda",      "cudart",     "cudart_static", "cublas",     "cublasLt", "cudnn",
      "nvrtc",     "curand",     "cufft",         "cusparse",   "cusolver", "cudadevrt",
      "nvJitLink", "nvToolsExt", "nccl",          "cuda_driver"};
  return std::find(std::begin(k_libraries), std::end(k_libraries), name) != std::end(k_libraries);
}

// A CUDAExtension's link arguments that name CUDA libraries (GP-BUILD-010) and its dlink=True
// (relocatable device code, GP-BUILD-009). `open` is the call's '('.
void check_extension_link(const SharedString& path, const TokenStream& tokens, std::size_t open,
                          FileAnalysis& out) {
  int depth = 0;
  std::string_view keyword;  // the keyword argument being read, at depth 1
  for (std::size_t i = open; i < tokens.tokens.size(); ++i) {
    const Token& token = tokens.tokens[i];
    const std::string_view text = tokens.text(token);
    if (token.kind == TokenKind::Punct) {
      if (text == "(" || text == "[" || text == "{") {
        ++depth;
      } else if (text == ")" || text == "]" || text == "}") {
        if (--depth <= 0) {
          return;
        }
      } else if (text == "," && depth == 1) {
        keyword = {};
      }
      continue;
    }
    if (token.kind == TokenKind::Identifier && depth == 1 && i + 1 < tokens.tokens.size() &&
        tokens.text_is(tokens.tokens[i + 1], "=")) {
      keyword = text;
      if (text == "dlink" && i + 2 < tokens.tokens.size() &&
          tokens.text_is(tokens.tokens[i + 2], "True")) {
        add_finding(out, "GP-BUILD-009", path, tokens, token, "CUDAExtension(dlink=True)");
      }
      continue;
    }
    if (token.kind == TokenKind::String &&
        (keyword == "libraries" || keyword == "dlink_libraries" || keyword == "extra_link_args")) {
      const std::string_view name = python_string_content(text);
      if (is_cuda_library_name(name)) {
        add_finding(out, "GP-BUILD-010", path, tokens, token,
                    std::string(keyword) + ": " + std::string(name));
      }
    }
  }
}

// Scans the arguments of a call whose '(' is at index `open`; reports whether any identifier
// `keyword` or any string ending in .cu/.cuh is among them. Bounded by the matching ')'.
struct CallArgs {
  bool keyword = false;
  bool cuda_source = false;
};
CallArgs scan_call(const TokenStream& tokens, std::size_t open, std::string_view keyword) {
  CallArgs args;
  int depth = 0;
  for (std::size_t i = open; i < tokens.tokens.size(); ++i) {
    const Token& token = tokens.tokens[i];
    std::string_view text = tokens.text(token);
    if (token.kind == TokenKind::Punct) {
      if (text == "(" || text == "[" || text == "{") {
        ++depth;
      } else if (text == ")" || text == "]" || text == "}") {
        if (--depth <= 0) {
          break;
        }
      }
    } else if (token.kind == TokenKind::Identifier && text == keyword) {
      args.keyword = true;
    } else if (token.kind == TokenKind::String) {
      std::string_view content = python_string_content(text);
      if (content.ends_with(".cu") || content.ends_with(".cuh")) {
        args.cuda_source = true;
      }
    }
  }
  return args;
}

}  // namespace

void check_cmake(const SharedString& path, std::span<const ConfigLine> lines, FileAnalysis& out) {
  for (const ConfigLine& line : lines) {
    check_cmake_line(path, line, out);
  }
}

void check_python_build(const SharedString& path, const TokenStream& tokens,
                        const PythonFacts& facts, std::span<const PythonString> strings,
                        FileAnalysis& out) {
  bool load_imported = false;
  bool torch_imported = false;
  for (const PythonImport& import : facts.imports) {
    torch_imported = torch_imported || starts_with(import.module, "torch");
    load_imported =
        load_imported || (import.module == "torch.utils.cpp_extension" && import.name == "load");
  }
  std::uint32_t last_option_line = 0;
  for (const PythonString& string : strings) {
    const Token& token = *string.token;
    if (token.line != last_option_line && is_nvcc_option(string.content)) {
      last_option_line = token.line;
      add_finding(out, "GP-BUILD-007", path, tokens, token,
                  std::string(string.content.substr(0, 64)));
    } else if (string.content.starts_with("-rdc") ||
               string.content.starts_with("--relocatable-device-code")) {
      add_finding(out, "GP-BUILD-009", path, tokens, token,
                  std::string(string.content.substr(0, 64)));
    }
  }
  if (!torch_imported) {
    return;  // CUDAExtension, load_inline and load come from torch
  }
  // The identifiers are among the anchors; the data held in a local, as in
  // check_python_frameworks.
  const Token* const all = tokens.tokens.data();
  for (const std::uint32_t anchor : tokens.anchors) {
    const std::size_t i = anchor;
    const Token& token = all[i];
    if (token.kind != TokenKind::Identifier) {
      continue;
    }
    std::string_view text = tokens.text(token);
    if (text != "CUDAExtension" && text != "load_inline" && text != "load") {
      continue;
    }
    const bool after_dot = i > 0 && tokens.tokens[i - 1].kind == TokenKind::Punct &&
                           tokens.text(tokens.tokens[i - 1]) == ".";
    const bool cpp_extension_attr =
        after_dot && i > 1 && tokens.text(tokens.tokens[i - 2]) == "cpp_extension";
    std::size_t j = i;
    const Token* next = next_significant(tokens, j);
    if (next == nullptr || next->kind != TokenKind::Punct || tokens.text(*next) != "(") {
      continue;
    }
    if (text == "CUDAExtension") {
      add_finding(out, "GP-BUILD-006", path, tokens, token, "CUDAExtension");
      check_extension_link(path, tokens, j, out);
    } else if (text == "load_inline" && scan_call(tokens, j, "cuda_sources").keyword) {
      add_finding(out, "GP-BUILD-006", path, tokens, token, "load_inline(cuda_sources=...)");
    } else if (text == "load" && (cpp_extension_attr || (load_imported && !after_dot)) &&
               scan_call(tokens, j, {}).cuda_source) {
      add_finding(out, "GP-BUILD-006", path, tokens, token, "load(*.cu)");
    }
  }
}

}  // namespace gpuport
