// FW rules: Python imports, decorators, attribute chains and string literals that name
// frameworks and CUDA-only libraries (frameworks.md §5), plus the AMD-path signs in Python.
#include <algorithm>
#include <array>
#include <cctype>

#include "scan/python_kernels.h"
#include "scan/rules/stack_rules.h"

namespace gpuport {

namespace {

struct ModuleRule {
  std::string_view root;  // first component of the imported module
  std::string_view rule;
};

// Imports that map one-to-one on a rule by their root module.
// clang-format off
constexpr ModuleRule k_module_rules[] = {
  {"amp_C",                 "GP-FW-014"},
  {"apex",                  "GP-FW-014"},
  {"bitsandbytes",          "GP-FW-012"},
  {"cupy",                  "GP-FW-016"},
  {"cupyx",                 "GP-FW-016"},
  {"cutlass",               "GP-LIB-009"},  // the CUTLASS Python interface and the CuTe DSL
  {"deepspeed",             "GP-FW-013"},
  {"flash_attn_3",          "GP-FW-010"},
  {"flash_attn_interface",  "GP-FW-010"},
  {"fused_layer_norm_cuda", "GP-FW-014"},
  {"numba_cuda",            "GP-FW-018"},
  {"onnxruntime",           "GP-FW-023"},
  {"pynvml",                "GP-FW-020"},
  {"sgl_kernel",            "GP-FW-008"},
  {"sglang",                "GP-FW-008"},
  {"tensorrt",              "GP-FW-005"},
  {"tensorrt_llm",          "GP-FW-006"},
  {"torch",                 "GP-FW-001"},
  {"torch_tensorrt",        "GP-FW-005"},
  {"transformer_engine",    "GP-FW-015"},
  {"triton",                "GP-FW-002"},
  {"vllm",                  "GP-FW-007"},
  {"xformers",              "GP-FW-011"},
};
// clang-format on

constexpr std::array<std::string_view, 4> k_amd_modules = {"amdsmi", "hip", "migraphx", "rocm"};
constexpr std::array<std::string_view, 6> k_cuda_python_names = {"cuda",     "cudart", "nvrtc",
                                                                 "bindings", "core",   "nvjitlink"};

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string_view root_of(std::string_view module) {
  return module.substr(0, module.find('.'));
}

// The rule an import triggers (empty when none).
std::string_view import_rule(const PythonImport& import) {
  std::string_view module = import.module;
  std::string_view root = root_of(module);
  if (root == "flash_attn") {
    const bool fa4 =
        starts_with(module, "flash_attn.cute") || (module == "flash_attn" && import.name == "cute");
    return fa4 ? "GP-FW-010" : "GP-FW-009";
  }
  if (root == "numba") {
    const bool cuda = module == "numba.cuda" || starts_with(module, "numba.cuda.") ||
                      (module == "numba" && import.name == "cuda");
    return cuda ? "GP-FW-018" : std::string_view{};
  }
  if (root == "cuda") {
    std::string_view sub = module.size() > 5 ? root_of(module.substr(5)) : import.name;
    const bool bindings = std::find(k_cuda_python_names.begin(), k_cuda_python_names.end(), sub) !=
                          k_cuda_python_names.end();
    return bindings ? "GP-FW-019" : std::string_view{};
  }
  auto it = std::lower_bound(std::begin(k_module_rules), std::end(k_module_rules), root,
                             [](const ModuleRule& r, std::string_view v) { return r.root < v; });
  if (it != std::end(k_module_rules) && it->root == root) {
    return it->rule;
  }
  return {};
}

// Findings of one Python file: one per import statement, decorator, call or string.
class PythonEmitter {
 public:
  PythonEmitter(const SharedString& path, const TokenStream& tokens, FileAnalysis& out)
      : m_path(path), m_tokens(tokens), m_out(out) {}

  void at_line(std::string_view rule, std::uint32_t line, std::uint32_t column,
               std::string detail) {
    add_line_finding(m_out, rule, m_path, line, column, m_tokens.line_text(line),
                     std::move(detail));
  }

  void at_token(std::string_view rule, const Token& token, std::string detail) {
    add_finding(m_out, rule, m_path, m_tokens, token, std::move(detail));
  }

  void sign(std::uint32_t line, std::string detail) {
    m_out.amd_path.push_back({AmdPathKind::RocmPackage, m_path, line, std::move(detail)});
  }

 private:
  const SharedString& m_path;
  const TokenStream& m_tokens;
  FileAnalysis& m_out;
};

// PTX in an inline-asm string: an opcode with a dotted type or modifier (`cvt.rn.f16x2.f32`,
// `prmt.b32`, `.reg`), which AMD GCN assembly (`v_add_f32`, `s_waitcnt`) never has.
bool looks_like_ptx(std::string_view asm_text) {
  for (std::size_t dot = asm_text.find('.'); dot != std::string_view::npos;
       dot = asm_text.find('.', dot + 1)) {
    const bool letter_before =
        dot > 0 && std::isalpha(static_cast<unsigned char>(asm_text[dot - 1]));
    const bool start = dot == 0 || !std::isalnum(static_cast<unsigned char>(asm_text[dot - 1]));
    const bool letter_after =
        dot + 1 < asm_text.size() && std::isalpha(static_cast<unsigned char>(asm_text[dot + 1]));
    if (letter_after && (letter_before || start)) {
      return true;
    }
  }
  return false;
}

// The first string argument of the call whose name is at token `i` (the asm of
// tl.inline_asm_elementwise), within a few dozen tokens; empty when none.
std::string_view first_string_argument(const TokenStream& tokens, std::size_t i) {
  for (std::size_t j = i + 1; j < tokens.tokens.size() && j < i + 48; ++j) {
    const Token& t = tokens.tokens[j];
    if (t.kind == TokenKind::String) {
      return python_string_content(tokens.text(t));
    }
    if (t.kind == TokenKind::Newline) {
      break;
    }
  }
  return {};
}

// Triton's TMA tensor-descriptor API (experimental and current spellings).
bool is_tma_descriptor_name(std::string_view name) {
  return name == "create_1d_tma_descriptor" || name == "create_2d_tma_descriptor" ||
         name == "_experimental_descriptor_load" || name == "_experimental_descriptor_store" ||
         name == "_experimental_make_tensor_descriptor" || name == "make_tensor_descriptor" ||
         name == "TensorDescriptor";
}

// Every identifier of a Triton file is a candidate: only the lengths of the names
// check_triton_feature looks for can match (cuda, TensorDescriptor, make_tensor_descriptor,
// inline_asm_elementwise, create_[12]d_tma_descriptor, _experimental_descriptor_{load,store},
// _experimental_make_tensor_descriptor).
bool may_be_triton_feature(std::size_t length) {
  return length == 4 || length == 16 || length == 22 || length == 24 || length == 29 ||
         length == 30 || length == 36;
}

// A Triton kernel's NVIDIA-only features (GP-FW-025, GP-FW-026) at identifier `i`.
void check_triton_feature(const TokenStream& tokens, std::size_t i, PythonEmitter& emit,
                          std::uint32_t& last_line) {
  const Token& token = tokens.tokens[i];
  const std::string_view name = tokens.text(token);
  const Token* before = i > 0 ? &tokens.tokens[i - 1] : nullptr;
  const bool member = before != nullptr && tokens.text_is(*before, ".");
  if (name == "inline_asm_elementwise") {
    const std::string_view asm_text = first_string_argument(tokens, i);
    if (looks_like_ptx(asm_text)) {
      const std::string_view shown = asm_text.substr(0, asm_text.find_first_of(";\n"));
      emit.at_token("GP-FW-025", token,
                    "tl.inline_asm_elementwise with PTX: " + std::string(shown.substr(0, 60)));
    }
    return;
  }
  std::string detail;
  if (name == "cuda" && member && i >= 2 && tokens.text_is(tokens.tokens[i - 2], "extra")) {
    detail = "tl.extra.cuda (the CUDA libdevice)";
  } else if (is_tma_descriptor_name(name)) {
    detail = "TMA tensor descriptor (" + std::string(name) + ")";
  } else {
    return;
  }
  if (token.line != last_line) {
    last_line = token.line;
    emit.at_token("GP-FW-026", token, std::move(detail));
  }
}

std::string import_detail(const PythonImport& import) {
  return import.name.empty() ? "import " + import.module
                             : "from " + import.module + " import " + import.name;
}

const Token* next_significant(const TokenStream& tokens, std::size_t i) {
  for (std::size_t j = i + 1; j < tokens.tokens.size(); ++j) {
    if (tokens.tokens[j].kind != TokenKind::Comment) {
      return &tokens.tokens[j];
    }
  }
  return nullptr;
}

// The CuTe DSL's decorators: a kernel, or a host function JIT-compiled with the kernels it
// launches.
bool is_cute_dsl_decorator(std::string_view name) {
  return name == "cute.kernel" || name == "cute.jit" || name == "cutlass.cute.kernel" ||
         name == "cutlass.cute.jit";
}

// Every chain check_python_frameworks looks at starts with one of these.
constexpr std::array<std::string_view, 1> k_chain_roots = {"torch"};

}  // namespace

std::span<const std::string_view> python_chain_roots() {
  return k_chain_roots;
}

void check_python_frameworks(const SharedString& path, const TokenStream& tokens,
                             const PythonFacts& facts, FileAnalysis& out) {
  PythonEmitter emit(path, tokens, out);

  bool numba_cuda = false;
  bool cupy = false;
  bool triton = false;
  std::string_view last_import_rule;
  std::uint32_t last_import_line = 0;
  for (const PythonImport& import : facts.imports) {
    std::string_view rule = import_rule(import);
    std::string_view root = root_of(import.module);
    cupy = cupy || root == "cupy" || root == "cupyx";
    triton = triton || root == "triton";
    if (rule == "GP-FW-018") {
      numba_cuda = true;
    }
    if (std::find(k_amd_modules.begin(), k_amd_modules.end(), root) != k_amd_modules.end()) {
      emit.sign(import.line, import_detail(import));
    }
    // One finding per import statement: `from x import a, b` is one site of x.
    if (rule.empty() || (rule == last_import_rule && import.line == last_import_line)) {
      continue;
    }
    last_import_rule = rule;
    last_import_line = import.line;
    emit.at_line(rule, import.line, 1, import_detail(import));
  }

  const bool cutlass = imports_cutlass(facts);
  for (const PythonDotted& decorator : facts.decorators) {
    if (cutlass && is_cute_dsl_decorator(decorator.name)) {
      emit.at_line("GP-FW-024", decorator.line, decorator.column, "@" + decorator.name);
    } else if (decorator.name == "triton.jit") {
      emit.at_line("GP-FW-002", decorator.line, decorator.column, "@triton.jit");
    } else if (decorator.name == "numba.cuda.jit" || (numba_cuda && decorator.name == "cuda.jit")) {
      emit.at_line("GP-FW-018", decorator.line, decorator.column, "@" + decorator.name);
    }
  }

  std::uint32_t last_knob_line = 0;
  for (const PythonDotted& chain : facts.attribute_chains) {
    std::string_view name = chain.name;
    if (starts_with(name, "torch.backends.cudnn") || starts_with(name, "torch.cuda.nvtx")) {
      if (chain.line != last_knob_line) {
        last_knob_line = chain.line;
        emit.at_line("GP-FW-022", chain.line, chain.column, chain.name);
      }
    } else if (starts_with(name, "torch.version.hip")) {
      emit.sign(chain.line, "torch.version.hip");
    }
  }

  bool hip_extension_seen = false;
  std::uint32_t last_triton_line = 0;  // GP-FW-026: once per line
  // Identifiers and strings are among the anchors. The tokens' data held in a local: the emits
  // write through references the compiler cannot tell apart from `tokens`, so it would reload
  // it at every anchor.
  const Token* const all = tokens.tokens.data();
  for (const std::uint32_t anchor : tokens.anchors) {
    const std::size_t i = anchor;
    const Token& token = all[i];
    if (token.kind == TokenKind::Identifier) {
      const bool raw_kernel =
          tokens.text_is(token, "RawKernel") || tokens.text_is(token, "RawModule");
      if (cupy && raw_kernel) {
        const Token* next = next_significant(tokens, i);
        if (next != nullptr && next->kind == TokenKind::Punct && tokens.text_is(*next, "(")) {
          emit.at_token("GP-FW-017", token, std::string(tokens.text(token)));
        }
      } else if (!hip_extension_seen && tokens.text_is(token, "IS_HIP_EXTENSION")) {
        hip_extension_seen = true;
        emit.sign(token.line, "IS_HIP_EXTENSION");
      } else if (triton && may_be_triton_feature(token.length)) {
        check_triton_feature(tokens, i, emit, last_triton_line);
      }
      continue;
    }
    if (token.kind != TokenKind::String) {
      continue;
    }
    std::string_view content = python_string_content(tokens.text(token));
    if (content == "CUDAExecutionProvider" || content == "TensorrtExecutionProvider") {
      emit.at_token("GP-FW-003", token, std::string(content));
    } else if (content == "ROCMExecutionProvider") {
      emit.at_token("GP-FW-004", token, std::string(content));
    } else if (content == "MIGraphXExecutionProvider") {
      emit.sign(token.line, "MIGraphXExecutionProvider");
    } else if (content.size() > 16 && holds_cuda_kernel_source(content)) {
      emit.at_token("GP-FW-021", token, "__global__ in a string literal");
      inventory_string_kernels(path, content, token.line, out);
    }
  }
}

}  // namespace gpuport
