// Backend switch names and values.
#include "scan/project/build_switches.h"

#include <string>

namespace gpuport {

namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') {
      c = static_cast<char>(c - 'a' + 'A');
    }
  }
  return out;
}

BuildSwitch backend_word(std::string_view word) {
  if (word == "HIP" || word == "ROCM" || word == "HIPBLAS" || word == "AMD" || word == "AMDGPU") {
    return BuildSwitch::Amd;
  }
  if (word == "CUDA" || word == "CUBLAS" || word == "CUDATOOLKIT" || word == "NVIDIA") {
    return BuildSwitch::Cuda;
  }
  if (word == "MUSA" || word == "XPU" || word == "SYCL" || word == "VULKAN" || word == "METAL" ||
      word == "OPENCL" || word == "CANN" || word == "KOMPUTE" || word == "MPS" ||
      word == "ASCEND" || word == "NPU" || word == "HPU" || word == "MLU") {
    return BuildSwitch::OtherBackend;
  }
  return BuildSwitch::None;
}

}  // namespace

BuildSwitch classify_build_switch(std::string_view name) {
  if (name.empty() || name.size() > 128) {
    return BuildSwitch::None;
  }
  const std::string text = upper(name);
  std::string_view view = text;
  std::size_t last = view.rfind('_');
  std::string_view tail = last == std::string_view::npos ? view : view.substr(last + 1);
  if (tail == "FOUND" && last != std::string_view::npos) {
    std::string_view head = view.substr(0, last);
    std::size_t before = head.rfind('_');
    return backend_word(before == std::string_view::npos ? head : head.substr(before + 1));
  }
  return backend_word(tail);
}

BuildSwitch classify_backend_value(std::string_view value) {
  const std::string text = upper(value);
  if (text == "ROCM" || text == "HIP" || text == "AMD") {
    return BuildSwitch::Amd;
  }
  if (text == "CUDA" || text == "NVIDIA") {
    return BuildSwitch::Cuda;
  }
  if (text == "CPU") {
    return BuildSwitch::None;
  }
  return backend_word(text) == BuildSwitch::OtherBackend ? BuildSwitch::OtherBackend
                                                         : BuildSwitch::None;
}

TruthMask switch_truth(BuildSwitch value, const BuildContext& context) {
  switch (value) {
    case BuildSwitch::Amd:
      return {k_side_amd, k_side_cuda};
    case BuildSwitch::Cuda:
      return context.amd_build_exists ? TruthMask{k_side_cuda, k_side_amd}
                                      : TruthMask::all_true(k_both_sides);
    case BuildSwitch::OtherBackend:
      return TruthMask::all_false(k_both_sides);
    case BuildSwitch::None:
      break;
  }
  return TruthMask::all_unknown(k_both_sides);
}

}  // namespace gpuport
