// Requirement specifiers and wheel index URLs: parsing, and what each says about the stack
// (the PKG rule it triggers, or an AMD package that shows a ROCm path).
#include <algorithm>
#include <array>

#include "scan/rules/stack_rules.h"

namespace gpuport {

namespace {

bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_name_char(char c) {
  return is_name_start(c) || c == '-' || c == '_' || c == '.';
}
bool is_space(char c) {
  return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (is_space(text.front()) || text.front() == '\r')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (is_space(text.back()) || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}
bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

template <std::size_t N>
bool one_of(std::string_view name, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

constexpr std::array<std::string_view, 4> k_torch_names = {"torch", "torchvision", "torchaudio",
                                                           "pytorch"};
constexpr std::array<std::string_view, 7> k_cuda_toolkits = {
    "cudatoolkit",  "cuda-toolkit", "cuda-runtime", "cuda-nvcc",
    "pytorch-cuda", "cuda-cudart",  "cudnn"};
constexpr std::array<std::string_view, 4> k_tensorrt = {"tensorrt", "nvidia-tensorrt",
                                                        "torch-tensorrt", "tensorrt-llm"};
constexpr std::array<std::string_view, 3> k_nvml = {"pynvml", "nvidia-ml-py", "nvidia-ml-py3"};
constexpr std::array<std::string_view, 13> k_cuda_built = {"flash-attn",
                                                           "flash-attn-3",
                                                           "xformers",
                                                           "vllm",
                                                           "sgl-kernel",
                                                           "transformer-engine",
                                                           "transformer-engine-torch",
                                                           "apex",
                                                           "numba-cuda",
                                                           "cuda-python",
                                                           "cuda-bindings",
                                                           "nvidia-cutlass",
                                                           "nvidia-cutlass-dsl"};

// Rule ids, named once.
constexpr std::string_view k_torch_cuda = "GP-PKG-001";
constexpr std::string_view k_cuda_libs = "GP-PKG-002";
constexpr std::string_view k_ort_gpu = "GP-PKG-003";
constexpr std::string_view k_trt = "GP-PKG-004";
constexpr std::string_view k_cupy = "GP-PKG-005";
constexpr std::string_view k_jax = "GP-PKG-006";
constexpr std::string_view k_pynvml = "GP-PKG-007";
constexpr std::string_view k_cuda_built_rule = "GP-PKG-008";

}  // namespace

std::optional<Requirement> parse_requirement(std::string_view text) {
  text = trim(text);
  if (!text.empty() && (text.front() == '"' || text.front() == '\'')) {
    const char quote = text.front();
    text.remove_prefix(1);
    const std::size_t end = text.find(quote);
    text = text.substr(0, end);
  }
  if (text.empty() || !is_name_start(text.front())) {
    return std::nullopt;
  }
  Requirement req;
  std::size_t i = 0;
  while (i < text.size() && is_name_char(text[i])) {
    const char c = text[i];
    req.name.push_back(c == '_' || c == '.' ? '-' : (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c);
    ++i;
  }
  while (i < text.size() && is_space(text[i])) {
    ++i;
  }
  if (i < text.size() && text[i] == '[') {
    const std::size_t close = text.find(']', i);
    const std::size_t end = close == std::string_view::npos ? text.size() : close;
    req.extras = to_lower_ascii(trim(text.substr(i + 1, end - i - 1)));
    i = close == std::string_view::npos ? text.size() : close + 1;
  }
  while (i < text.size() && is_space(text[i])) {
    ++i;
  }
  if (i < text.size() && text[i] == '@') {
    req.op.push_back('@');  // (assigning a literal trips a GCC 12 -Wrestrict false positive)
    std::string_view url = trim(text.substr(i + 1));
    req.version = std::string(url.substr(0, url.find_first_of(" \t;")));
    return req;
  }
  constexpr std::array<std::string_view, 9> k_ops = {
      "===", "==", "~=", "!=", ">=", "<=", ">", "<", "="};
  for (std::string_view op : k_ops) {
    if (text.substr(i, op.size()) == op) {
      req.op = std::string(op);
      i += op.size();
      break;
    }
  }
  if (req.op.empty()) {
    return req;
  }
  while (i < text.size() && is_space(text[i])) {
    ++i;
  }
  const std::size_t start = i;
  while (i < text.size() && !is_space(text[i]) && text[i] != ',' && text[i] != ';' &&
         text[i] != '"' && text[i] != '\'' && text[i] != '=') {
    ++i;
  }
  std::string_view version = text.substr(start, i - start);
  const std::size_t plus = version.find('+');
  if (plus != std::string_view::npos) {
    req.local = to_lower_ascii(version.substr(plus + 1));
    version = version.substr(0, plus);
  }
  req.version = std::string(version);
  return req;
}

RequirementVerdict classify_requirement(const Requirement& req) {
  std::string_view name = req.name;
  std::string_view local = req.local;
  std::string_view extras = req.extras;
  if (one_of(name, k_torch_names)) {
    if (starts_with(local, "cu")) {
      return {k_torch_cuda, {}};
    }
    if (starts_with(local, "rocm")) {
      return {{}, "torch+rocm wheel"};
    }
    return {};
  }
  if (name == "pytorch-triton-rocm" || name == "triton-rocm") {
    return {{}, "Triton ROCm wheel"};
  }
  if (one_of(name, k_tensorrt) || starts_with(name, "tensorrt-")) {
    return {k_trt, {}};
  }
  if (starts_with(name, "nvidia-") &&
      (ends_with(name, "-cu11") || ends_with(name, "-cu12") || ends_with(name, "-cu13"))) {
    return {name.find("tensorrt") != std::string_view::npos ? k_trt : k_cuda_libs, {}};
  }
  if (one_of(name, k_cuda_toolkits)) {
    return {k_cuda_libs, {}};
  }
  if (name == "onnxruntime-gpu") {
    return {k_ort_gpu, {}};
  }
  if (name == "onnxruntime-migraphx" || name == "onnxruntime-rocm") {
    return {{}, "ONNX Runtime AMD build"};
  }
  if (starts_with(name, "cupy-cuda")) {
    return {k_cupy, {}};
  }
  if (starts_with(name, "cupy-rocm")) {
    return {{}, "CuPy ROCm wheel"};
  }
  if (name == "jax" || name == "jaxlib") {
    if (extras.find("cuda") != std::string_view::npos ||
        local.find("cuda") != std::string_view::npos) {
      return {k_jax, {}};
    }
    if (extras.find("rocm") != std::string_view::npos ||
        local.find("rocm") != std::string_view::npos) {
      return {{}, "JAX ROCm plugin"};
    }
    return {};
  }
  if (starts_with(name, "jax-cuda")) {
    return {k_jax, {}};
  }
  if (starts_with(name, "jax-rocm")) {
    return {{}, "JAX ROCm plugin"};
  }
  if (one_of(name, k_nvml)) {
    return {k_pynvml, {}};
  }
  if (name == "amdsmi") {
    return {{}, "amdsmi"};
  }
  if (name == "hip-python" || name == "hip-python-as-cuda") {
    return {{}, "HIP Python"};
  }
  if (one_of(name, k_cuda_built)) {
    return {k_cuda_built_rule, {}};
  }
  return {};
}

IndexUrlVerdict classify_index_url(std::string_view lower) {
  IndexUrlVerdict verdict;
  std::size_t pos = lower.find("/whl/");
  while (pos != std::string_view::npos) {
    std::string_view rest = lower.substr(pos + 5);
    for (int step = 0; step < 2; ++step) {
      const std::size_t end = rest.find_first_of("/ \t\"',;");
      std::string_view segment = rest.substr(0, end);
      if (segment.size() >= 3 && starts_with(segment, "cu") && segment[2] >= '0' &&
          segment[2] <= '9') {
        verdict.cuda = std::string(segment);
        break;
      }
      if (starts_with(segment, "rocm")) {
        verdict.rocm = std::string(segment);
        break;
      }
      if ((segment != "nightly" && segment != "test") || end == std::string_view::npos) {
        break;
      }
      rest = rest.substr(end + 1);
    }
    pos = lower.find("/whl/", pos + 5);
  }
  return verdict;
}

}  // namespace gpuport
