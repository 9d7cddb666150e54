// Names and values that select a GPU backend in build files: the switch a CMake `if()`, a
// setup.py branch or a Makefile `ifeq` tests, and its truth in the CUDA and the AMD build.
#pragma once

#include <string_view>

#include "scan/project/build_facts.h"

namespace gpuport {

enum class BuildSwitch : std::uint8_t {
  None,          // not a backend switch (an option of one: GGML_CUDA_F16, GGML_HIP_UMA)
  Amd,           // GGML_HIP, BUILD_HIP, USE_ROCM, LLAMA_HIPBLAS, HIP_FOUND
  Cuda,          // GGML_CUDA, BUILD_CUDA, WITH_CUDA, LLAMA_CUBLAS, CUDAToolkit_FOUND
  OtherBackend,  // GGML_MUSA, BUILD_XPU, GGML_SYCL, GGML_VULKAN, GGML_METAL
};

// A variable named for a backend: its last name segment is the backend (GGML_HIP), or the
// backend followed by FOUND (CUDAToolkit_FOUND). Case-insensitive.
BuildSwitch classify_build_switch(std::string_view name);

// A value a backend variable is compared with: "hip", "rocm", "amd"; "cuda", "nvidia"; "xpu",
// "sycl", "musa", "mps", "metal", "vulkan", "opencl". Case-insensitive.
BuildSwitch classify_backend_value(std::string_view value);

// Where a switch is on: the AMD switch in the AMD build only; the CUDA switch in the CUDA build,
// and in the AMD build too when the project has none of its own (the AMD build is then the port
// of the CUDA build); another backend's switch in neither; anything else unknown.
TruthMask switch_truth(BuildSwitch value, const BuildContext& context);

inline TruthMask truth_or(TruthMask a, TruthMask b) {
  return truth_not(truth_and(truth_not(a), truth_not(b)));
}

}  // namespace gpuport
