// DEPLOY rules: NVIDIA base images, the NVIDIA container runtime, nvidia.com/gpu requests,
// nvidia-smi, CUDA_VISIBLE_DEVICES and trtexec in Docker, shell and YAML files; ROCm signs.
#include <array>

#include "scan/rules/stack_rules.h"

namespace gpuport {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool is_ref_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.' || c == '/';
}

enum class ImageClass : std::uint8_t { Other, NvidiaCuda, Ngc, Rocm };

ImageClass classify_image(const ImageRef& image) {
  std::string repo = to_lower_ascii(image.repository);
  std::string registry = to_lower_ascii(image.registry);
  std::string tag = to_lower_ascii(image.tag);
  const bool hub = registry.empty() || registry == "docker.io" || registry == "index.docker.io";
  if (hub && repo == "nvidia/cuda") {
    return ImageClass::NvidiaCuda;
  }
  if (registry == "nvcr.io" && starts_with(repo, "nvidia/")) {
    return ImageClass::Ngc;
  }
  if ((hub && starts_with(repo, "rocm/")) || tag.find("rocm") != std::string::npos ||
      repo.find("rocm") != std::string::npos) {
    return ImageClass::Rocm;
  }
  return ImageClass::Other;
}

class DeployEmitter {
 public:
  DeployEmitter(const SharedString& path, const ConfigLine& line, FileAnalysis& out)
      : m_path(path), m_line(line), m_out(out) {}

  void finding(std::string_view rule, std::size_t at, std::string detail) {
    add_line_finding(m_out, rule, m_path, m_line.line,
                     m_line.indent + 1 + static_cast<std::uint32_t>(at), m_line.text,
                     std::move(detail));
  }
  void sign(std::string detail) {
    m_out.amd_path.push_back({AmdPathKind::RocmImage, m_path, m_line.line, std::move(detail)});
  }
  void image(const ImageRef& image, std::size_t at, std::string_view written) {
    switch (classify_image(image)) {
      case ImageClass::NvidiaCuda:
        finding("GP-DEPLOY-001", at, std::string(written));
        break;
      case ImageClass::Ngc:
        finding("GP-DEPLOY-002", at, std::string(written));
        break;
      case ImageClass::Rocm:
        sign(std::string(written));
        break;
      case ImageClass::Other:
        break;
    }
  }

 private:
  const SharedString& m_path;
  const ConfigLine& m_line;
  FileAnalysis& m_out;
};

// Image references written anywhere on a line (ARG defaults, `image:` keys, docker run).
void scan_image_refs(DeployEmitter& emit, std::string_view text, std::string_view lower) {
  constexpr std::array<std::string_view, 3> k_anchors = {"nvidia/cuda", "nvcr.io/nvidia/", "rocm/"};
  for (std::string_view anchor : k_anchors) {
    std::size_t pos = lower.find(anchor);
    while (pos != std::string_view::npos) {
      std::size_t start = pos;
      if (start >= 10 && lower.substr(start - 10, 10) == "docker.io/") {
        start -= 10;
      }
      const bool word_start = start == 0 || !is_ref_char(lower[start - 1]);
      std::size_t end = start;
      while (end < lower.size() &&
             (is_ref_char(lower[end]) || lower[end] == ':' || lower[end] == '@' ||
              lower[end] == '$' || lower[end] == '{' || lower[end] == '}')) {
        ++end;
      }
      if (word_start) {
        std::string_view written = text.substr(start, end - start);
        if (std::optional<ImageRef> image = parse_image(written)) {
          emit.image(*image, start, written);
        }
      }
      pos = lower.find(anchor, pos + anchor.size());
    }
  }
}

// FROM [--platform=...] image [AS name]
void check_from(DeployEmitter& emit, std::string_view text) {
  std::size_t i = 4;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) {
      ++i;
    }
    std::size_t end = text.find_first_of(" \t", i);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    std::string_view word = text.substr(i, end - i);
    if (word.empty()) {
      return;
    }
    if (word.front() != '-') {
      if (std::optional<ImageRef> image = parse_image(word)) {
        emit.image(*image, i, word);
      }
      return;
    }
    i = end;
  }
}

struct Needle {
  std::string_view text;
  std::string_view rule;
};

// First match wins per rule and line.
// clang-format off
constexpr Needle k_runtime_needles[] = {
  {"--gpus",                     "GP-DEPLOY-003"},
  {"--runtime=nvidia",           "GP-DEPLOY-003"},
  {"--runtime nvidia",           "GP-DEPLOY-003"},
  {"runtime: nvidia",            "GP-DEPLOY-003"},
  {"runtimeclassname: nvidia",   "GP-DEPLOY-003"},
  {"driver: nvidia",             "GP-DEPLOY-003"},
  {"nvidia_visible_devices",     "GP-DEPLOY-003"},
  {"nvidia_driver_capabilities", "GP-DEPLOY-003"},
  {"nvidia_require_cuda",        "GP-DEPLOY-003"},
  {"nvidia-container-toolkit",   "GP-DEPLOY-003"},
  {"nvidia-container-runtime",   "GP-DEPLOY-003"},
  {"nvidia-docker",              "GP-DEPLOY-003"},
  {"nvidia-device-plugin",       "GP-DEPLOY-003"},
  {"nvidia.com/gpu",             "GP-DEPLOY-004"},
  {"nvidia-smi",                 "GP-DEPLOY-005"},
  {"cuda_visible_devices",       "GP-DEPLOY-006"},
  {"trtexec",                    "GP-DEPLOY-007"},
  {"trtllm-build",               "GP-DEPLOY-007"},
};
// clang-format on

constexpr std::array<std::string_view, 7> k_amd_needles = {"amd.com/gpu",
                                                           "amd-smi",
                                                           "rocm-smi",
                                                           "hip_visible_devices",
                                                           "rocr_visible_devices",
                                                           "/dev/kfd",
                                                           "amd-gpu-device-plugin"};

void check_deploy_line(const SharedString& path, Language language, const ConfigLine& line,
                       FileAnalysis& out) {
  DeployEmitter emit(path, line, out);
  const std::string lower_text = to_lower_ascii(line.text);
  const std::string_view lower = lower_text;
  if (language == Language::Docker &&
      (starts_with(lower, "label ") || starts_with(lower, "maintainer "))) {
    return;  // metadata text, not configuration
  }
  if (language == Language::Docker && starts_with(lower, "from ")) {
    check_from(emit, line.text);
  } else {
    scan_image_refs(emit, line.text, lower);
  }
  std::string_view last_rule;
  for (const Needle& needle : k_runtime_needles) {
    if (needle.rule == last_rule) {
      continue;
    }
    const std::size_t at = find_word(lower, needle.text);
    if (at != std::string_view::npos) {
      last_rule = needle.rule;
      emit.finding(needle.rule, at, std::string(line.text.substr(at, needle.text.size())));
    }
  }
  for (std::string_view needle : k_amd_needles) {
    if (find_word(lower, needle) != std::string_view::npos) {
      emit.sign(std::string(needle));
      break;
    }
  }
  check_pip_install(path, line, out);
}

// "nvidia-smi", "nvidia-smi -L", "nvidia-smi topo -m": a command, not prose about the tool.
bool is_smi_command(std::string_view content) {
  if (!starts_with(content, "nvidia-smi")) {
    return false;
  }
  std::string_view rest = content.substr(10);
  if (rest.empty()) {
    return true;
  }
  if (rest.front() != ' ') {
    return false;
  }
  while (!rest.empty() && rest.front() == ' ') {
    rest.remove_prefix(1);
  }
  constexpr std::array<std::string_view, 6> k_subcommands = {"-",   "topo", "nvlink",
                                                             "mig", "dmon", "pmon"};
  for (std::string_view sub : k_subcommands) {
    if (starts_with(rest, sub)) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::optional<ImageRef> parse_image(std::string_view text) {
  while (!text.empty() && (text.front() == '"' || text.front() == '\'')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == '"' || text.back() == '\'' || text.back() == ',')) {
    text.remove_suffix(1);
  }
  if (text.empty() || text.find('$') != std::string_view::npos ||
      text.find_first_of(" \t") != std::string_view::npos) {
    return std::nullopt;
  }
  ImageRef image;
  const std::size_t at = text.find('@');
  if (at != std::string_view::npos) {
    image.digest = std::string(text.substr(at + 1));
    text = text.substr(0, at);
  }
  const std::size_t slash = text.find('/');
  if (slash != std::string_view::npos) {
    std::string_view first = text.substr(0, slash);
    if (first.find_first_of(".:") != std::string_view::npos || first == "localhost") {
      image.registry = std::string(first);
      text = text.substr(slash + 1);
    }
  }
  const std::size_t colon = text.rfind(':');
  const std::size_t last_slash = text.rfind('/');
  if (colon != std::string_view::npos &&
      (last_slash == std::string_view::npos || colon > last_slash)) {
    image.tag = std::string(text.substr(colon + 1));
    text = text.substr(0, colon);
  }
  if (text.empty()) {
    return std::nullopt;
  }
  image.repository = std::string(text);
  return image;
}

void check_deploy(const SharedString& path, Language language, std::span<const ConfigLine> lines,
                  FileAnalysis& out) {
  for (const ConfigLine& line : lines) {
    check_deploy_line(path, language, line, out);
  }
}

void check_python_deploy(const SharedString& path, const TokenStream& tokens,
                         std::span<const PythonString> strings, FileAnalysis& out) {
  std::uint32_t last_smi = 0;
  for (const PythonString& string : strings) {
    const Token& token = *string.token;
    std::string_view content = string.content;
    while (!content.empty() && content.front() == ' ') {
      content.remove_prefix(1);
    }
    if (is_smi_command(content) && token.line != last_smi) {
      last_smi = token.line;
      add_finding(out, "GP-DEPLOY-005", path, tokens, token, "nvidia-smi");
    } else if (content == "CUDA_VISIBLE_DEVICES" || starts_with(content, "CUDA_VISIBLE_DEVICES=")) {
      add_finding(out, "GP-DEPLOY-006", path, tokens, token, "CUDA_VISIBLE_DEVICES");
    }
  }
}

}  // namespace gpuport
