// nvcc -> hipcc flag translation. The HIP side follows HIP-Clang's documented options
// (--offload-arch, -fgpu-rdc, -ffast-math, -fgpu-flush-denormals-to-zero, -ffp-contract).
#include "hipify/nvcc_flags.h"

#include <algorithm>
#include <array>

namespace gpuport {

namespace {

bool starts_with_any(std::string_view flag, std::span<const std::string_view> prefixes) {
  for (std::string_view prefix : prefixes) {
    if (flag.starts_with(prefix)) {
      return true;
    }
  }
  return false;
}

bool equals_any(std::string_view flag, std::span<const std::string_view> names) {
  for (std::string_view name : names) {
    if (flag == name) {
      return true;
    }
  }
  return false;
}

// "-Xcompiler=-Wall,-fPIC" style values: host-compiler options, comma-separated.
std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? text.size() : comma;
    if (end > start) {
      out.emplace_back(text.substr(start, end - start));
    }
    if (comma == std::string_view::npos) {
      break;
    }
    start = comma + 1;
  }
  return out;
}

FlagTranslation replace(std::vector<std::string> flags, std::size_t consumed = 1) {
  FlagTranslation out;
  out.action = FlagAction::Replace;
  out.replacement = std::move(flags);
  out.consumed = consumed;
  return out;
}

FlagTranslation drop(std::size_t consumed = 1) {
  FlagTranslation out;
  out.action = FlagAction::Drop;
  out.consumed = consumed;
  return out;
}

FlagTranslation manual(std::string note, std::size_t consumed = 1) {
  FlagTranslation out;
  out.action = FlagAction::Manual;
  out.note = std::move(note);
  out.consumed = consumed;
  return out;
}

// A flag spelled either "-name=value" or "-name value": the value and how many flags it took.
struct SplitValue {
  std::string_view value;
  std::size_t consumed = 0;  // 0: the flag is not one of `names`
};

SplitValue value_of(std::span<const std::string_view> flags,
                    std::span<const std::string_view> names) {
  const std::string_view flag = flags[0];
  for (std::string_view name : names) {
    if (flag == name) {
      return flags.size() > 1 ? SplitValue{flags[1], 2} : SplitValue{{}, 1};
    }
    if (flag.size() > name.size() && flag.starts_with(name) && flag[name.size()] == '=') {
      return SplitValue{flag.substr(name.size() + 1), 1};
    }
  }
  return {};
}

}  // namespace

FlagTranslation translate_nvcc_flag(std::span<const std::string_view> flags,
                                    std::string_view offload_arch) {
  if (flags.empty()) {
    return {};
  }
  const std::string_view flag = flags[0];
  const std::string arch_flag = "--offload-arch=" + std::string(offload_arch);

  constexpr std::array<std::string_view, 5> k_arch_names = {"-gencode", "--generate-code", "-arch",
                                                            "--gpu-architecture", "-code"};
  if (const SplitValue arch = value_of(flags, k_arch_names); arch.consumed > 0) {
    FlagTranslation out = replace({arch_flag}, arch.consumed);
    if (flag.starts_with("-code")) {
      out = drop(arch.consumed);  // the -arch that goes with it carries the target
    }
    out.architecture = true;
    return out;
  }
  constexpr std::array<std::string_view, 3> k_fast_math = {"--use_fast_math", "-use_fast_math",
                                                           "--use-fast-math"};
  if (equals_any(flag, k_fast_math)) {
    return replace({"-ffast-math"});
  }
  // HIP-Clang allows constexpr calls and __device__ lambdas without these switches.
  constexpr std::array<std::string_view, 6> k_not_needed = {
      "--expt-relaxed-constexpr", "-expt-relaxed-constexpr", "--expt-extended-lambda",
      "-expt-extended-lambda",    "--extended-lambda",       "-extended-lambda"};
  if (equals_any(flag, k_not_needed)) {
    return drop();
  }
  constexpr std::array<std::string_view, 2> k_line_info = {"-lineinfo", "--generate-line-info"};
  if (equals_any(flag, k_line_info)) {
    return replace({"-gline-tables-only"});
  }
  if (flag == "-G" || flag == "--device-debug") {
    return replace({"-g"});
  }
  constexpr std::array<std::string_view, 2> k_host_options = {"-Xcompiler", "--compiler-options"};
  if (const SplitValue host = value_of(flags, k_host_options); host.consumed > 0) {
    std::vector<std::string> options = split_commas(host.value);
    for (const std::string& option : options) {
      const std::string_view view = option;
      if (translate_nvcc_flag(std::span(&view, 1), offload_arch).action != FlagAction::Keep) {
        // Passed on as it is, it would read as an nvcc flag; what the author meant is unclear.
        return manual("host-compiler option that is also an nvcc flag: " + option, host.consumed);
      }
    }
    return replace(std::move(options), host.consumed);
  }
  constexpr std::array<std::string_view, 7> k_nvidia_tools = {
      "-Xptxas",          "--ptxas-options", "-Xcudafe",         "-Xnvlink",
      "--nvlink-options", "-ccbin",          "--compiler-bindir"};
  if (const SplitValue tool = value_of(flags, k_nvidia_tools); tool.consumed > 0) {
    return drop(tool.consumed);  // options of ptxas/cudafe/nvlink, or nvcc's host compiler
  }
  constexpr std::array<std::string_view, 2> k_threads = {"--threads", "-t"};
  if (const SplitValue threads = value_of(flags, k_threads); threads.consumed > 0) {
    return drop(threads.consumed);
  }
  constexpr std::array<std::string_view, 4> k_dropped_prefixes = {
      "--diag-suppress", "-diag-suppress", "--resource-usage", "-res-usage"};
  if (starts_with_any(flag, k_dropped_prefixes) || flag == "--keep" || flag == "-keep") {
    return drop();
  }
  constexpr std::array<std::string_view, 3> k_rdc = {"-rdc=true", "--relocatable-device-code=true",
                                                     "-dc"};
  if (equals_any(flag, k_rdc)) {
    return replace({"-fgpu-rdc"});
  }
  constexpr std::array<std::string_view, 2> k_no_rdc = {"-rdc=false",
                                                        "--relocatable-device-code=false"};
  if (equals_any(flag, k_no_rdc)) {
    return drop();
  }
  constexpr std::array<std::string_view, 2> k_register_limit = {"-maxrregcount", "--maxrregcount"};
  if (const SplitValue limit = value_of(flags, k_register_limit); limit.consumed > 0) {
    return manual("no register cap flag in HIP-Clang; bound registers with __launch_bounds__",
                  limit.consumed);
  }
  if (flag == "--ftz=true" || flag == "-ftz=true") {
    return replace({"-fgpu-flush-denormals-to-zero"});
  }
  if (flag == "--fmad=false" || flag == "-fmad=false") {
    return replace({"-ffp-contract=off"});
  }
  constexpr std::array<std::string_view, 8> k_default_math = {
      "--ftz=false",      "-ftz=false",      "--prec-div=true", "-prec-div=true",
      "--prec-sqrt=true", "-prec-sqrt=true", "--fmad=true",     "-fmad=true"};
  if (equals_any(flag, k_default_math)) {
    return drop();  // HIP-Clang's defaults already
  }
  constexpr std::array<std::string_view, 4> k_fast_division = {
      "--prec-div=false", "-prec-div=false", "--prec-sqrt=false", "-prec-sqrt=false"};
  if (equals_any(flag, k_fast_division)) {
    return manual("no per-operation precision switch in HIP-Clang; -ffast-math relaxes all");
  }
  constexpr std::array<std::string_view, 2> k_default_stream = {"--default-stream",
                                                                "-default-stream"};
  if (const SplitValue stream = value_of(flags, k_default_stream); stream.consumed > 0) {
    if (stream.value == "per-thread") {
      return replace({"-fgpu-default-stream=per-thread"}, stream.consumed);
    }
    return drop(stream.consumed);
  }
  if (flag.starts_with("--std=")) {
    return replace({"-" + std::string(flag.substr(2))});
  }
  return {};
}

FlagListTranslation translate_nvcc_flags(std::span<const std::string_view> flags,
                                         std::string_view offload_arch) {
  FlagListTranslation out;
  bool architecture_written = false;
  std::size_t i = 0;
  while (i < flags.size()) {
    const FlagTranslation step = translate_nvcc_flag(flags.subspan(i), offload_arch);
    const std::size_t consumed = std::max<std::size_t>(1, step.consumed);
    switch (step.action) {
      case FlagAction::Keep:
      case FlagAction::Manual:
        for (std::size_t j = i; j < i + consumed && j < flags.size(); ++j) {
          out.flags.emplace_back(flags[j]);
        }
        if (step.action == FlagAction::Manual) {
          out.notes.push_back(std::string(flags[i]) + ": " + step.note);
        }
        break;
      case FlagAction::Replace:
        out.changed = true;
        if (step.architecture && architecture_written) {
          break;
        }
        architecture_written = architecture_written || step.architecture;
        out.flags.insert(out.flags.end(), step.replacement.begin(), step.replacement.end());
        break;
      case FlagAction::Drop:
        out.changed = true;
        break;
    }
    i += consumed;
  }
  return out;
}

std::vector<std::string_view> split_flags(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) {
      ++i;
    }
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != '\n') {
      ++i;
    }
    if (i > start) {
      out.push_back(text.substr(start, i - start));
    }
  }
  return out;
}

}  // namespace gpuport
