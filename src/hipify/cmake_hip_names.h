// CUDA names in CMake files and their HIP counterparts: CUDA:: imported targets, FindCUDA and
// CUDAToolkit variables, target properties, FindCUDA macros and packages. HIP target and
// package names are those the ROCm packages' CMake configs export (hip::host, roc::hipblas, ...).
// Internal to build_files_cmake.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include "hipify/build_files.h"

namespace gpuport::cmake_names {

struct LibraryTarget {
  std::string_view cuda;  // without the _static suffix
  std::string_view hip;
  std::string_view hip_package;
  std::string_view roc;  // --roc: AMD's native library; empty: same as hip
  std::string_view roc_package;
};

// clang-format off
constexpr std::array<LibraryTarget, 8> k_library_targets = {{
    {"CUDA::cublas",      "roc::hipblas",   "hipblas",   "roc::rocblas",   "rocblas"},
    {"CUDA::cublasLt",    "roc::hipblaslt", "hipblaslt", "",               ""},
    {"CUDA::cuda_driver", "hip::host",      "hip",       "",               ""},
    {"CUDA::cudart",      "hip::host",      "hip",       "",               ""},
    {"CUDA::cufft",       "hip::hipfft",    "hipfft",    "roc::rocfft",    "rocfft"},
    {"CUDA::curand",      "hip::hiprand",   "hiprand",   "roc::rocrand",   "rocrand"},
    {"CUDA::cusolver",    "roc::hipsolver", "hipsolver", "roc::rocsolver", "rocsolver"},
    {"CUDA::cusparse",    "roc::hipsparse", "hipsparse", "roc::rocsparse", "rocsparse"},
}};

struct Advice {
  std::string_view cuda;
  std::string_view advice;
};

constexpr std::array<Advice, 7> k_manual_targets = {{
    {"CUDA::cufile",     "no HIP equivalent in ROCm 5; remove GPUDirect Storage use"},
    {"CUDA::cupti",      "no drop-in; profile with rocprofiler or roctracer"},
    {"CUDA::nvToolsExt", "roctx from roctracer: link roctx64"},
    {"CUDA::nvjpeg",     "rocJPEG (ROCm 6.2+)"},
    {"CUDA::nvml",       "ROCm SMI: find_package(rocm_smi), link rocm_smi64"},
    {"CUDA::nvrtc",      "hipRTC: in the HIP runtime (hip::host) on ROCm 5; ROCm 6+: hiprtc::hiprtc"},
    {"CUDA::nvtx3",      "roctx from roctracer: link roctx64"},
}};

constexpr std::array<Advice, 7> k_manual_packages = {{
    {"cub",           "hipCUB: find_package(hipcub), target hip::hipcub"},
    {"cudnn",         "MIOpen: find_package(miopen), target MIOpen; cuDNN calls need porting"},
    {"cutlass",       "no HIP port; composable_kernel covers similar kernels"},
    {"nccl",          "RCCL: find_package(rccl), target rccl::rccl"},
    {"nvidiacutlass", "no HIP port; composable_kernel covers similar kernels"},
    {"tensorrt",      "no HIP equivalent; MIGraphX serves the same role"},
    {"thrust",        "rocThrust: find_package(rocthrust), target roc::rocthrust"},
}};

enum class VariableAction : std::uint8_t { Rename, Target, Manual };

struct VariableRow {
  std::string_view cuda;
  VariableAction action;
  std::string_view hip;  // new name, CUDA:: target (for Target), or advice
};

constexpr std::array<VariableRow, 30> k_variables = {{
    {"CMAKE_CUDA_ARCHITECTURES",         VariableAction::Rename, "CMAKE_HIP_ARCHITECTURES"},
    {"CMAKE_CUDA_COMPILER",              VariableAction::Rename, "CMAKE_HIP_COMPILER"},
    {"CMAKE_CUDA_COMPILER_ID",           VariableAction::Rename, "CMAKE_HIP_COMPILER_ID"},
    {"CMAKE_CUDA_COMPILER_LAUNCHER",     VariableAction::Rename, "CMAKE_HIP_COMPILER_LAUNCHER"},
    {"CMAKE_CUDA_COMPILER_VERSION",      VariableAction::Rename, "CMAKE_HIP_COMPILER_VERSION"},
    {"CMAKE_CUDA_EXTENSIONS",            VariableAction::Rename, "CMAKE_HIP_EXTENSIONS"},
    {"CMAKE_CUDA_FLAGS",                 VariableAction::Rename, "CMAKE_HIP_FLAGS"},
    {"CMAKE_CUDA_HOST_COMPILER",         VariableAction::Manual, "none: HIP-Clang compiles host code itself; remove it"},
    {"CMAKE_CUDA_RUNTIME_LIBRARY",       VariableAction::Manual, "none: the HIP runtime comes with hip::host"},
    {"CMAKE_CUDA_SEPARABLE_COMPILATION", VariableAction::Manual, "add -fgpu-rdc to CMAKE_HIP_FLAGS and to the link options"},
    {"CMAKE_CUDA_STANDARD",              VariableAction::Rename, "CMAKE_HIP_STANDARD"},
    {"CMAKE_CUDA_STANDARD_REQUIRED",     VariableAction::Rename, "CMAKE_HIP_STANDARD_REQUIRED"},
    {"CUDAToolkit_FOUND",                VariableAction::Rename, "hip_FOUND"},
    {"CUDAToolkit_INCLUDE_DIRS",         VariableAction::Manual, "link hip::host, which carries HIP's include directories"},
    {"CUDAToolkit_ROOT",                 VariableAction::Manual, "ROCM_PATH (usually /opt/rocm)"},
    {"CUDAToolkit_VERSION",              VariableAction::Manual, "hip_VERSION (a HIP version, not a CUDA one)"},
    {"CUDA_CUBLAS_LIBRARIES",            VariableAction::Target, "CUDA::cublas"},
    {"CUDA_CUFFT_LIBRARIES",             VariableAction::Target, "CUDA::cufft"},
    {"CUDA_FOUND",                       VariableAction::Rename, "hip_FOUND"},
    {"CUDA_INCLUDE_DIRS",                VariableAction::Manual, "link hip::host, which carries HIP's include directories"},
    {"CUDA_LIBRARIES",                   VariableAction::Target, "CUDA::cudart"},
    {"CUDA_TOOLKIT_ROOT_DIR",            VariableAction::Manual, "ROCM_PATH (usually /opt/rocm)"},
    {"CUDA_VERSION",                     VariableAction::Manual, "hip_VERSION (a HIP version, not a CUDA one)"},
    {"CUDA_cublas_LIBRARY",              VariableAction::Target, "CUDA::cublas"},
    {"CUDA_cudart_static_LIBRARY",       VariableAction::Target, "CUDA::cudart"},
    {"CUDA_cufft_LIBRARY",               VariableAction::Target, "CUDA::cufft"},
    {"CUDA_curand_LIBRARY",              VariableAction::Target, "CUDA::curand"},
    {"CUDA_cusolver_LIBRARY",            VariableAction::Target, "CUDA::cusolver"},
    {"CUDA_cusparse_LIBRARY",            VariableAction::Target, "CUDA::cusparse"},
    {"CUDA_nvrtc_LIBRARY",               VariableAction::Target, "CUDA::nvrtc"},
}};

struct PropertyRow {
  std::string_view cuda;
  BuildChange change;
  std::string_view hip;
};

constexpr std::array<PropertyRow, 8> k_properties = {{
    {"CUDA_ARCHITECTURES",          BuildChange::Rewrite, "HIP_ARCHITECTURES"},
    {"CUDA_EXTENSIONS",             BuildChange::Rewrite, "HIP_EXTENSIONS"},
    {"CUDA_PTX_COMPILATION",        BuildChange::Manual,  "none: there is no PTX on AMD GPUs"},
    {"CUDA_RESOLVE_DEVICE_SYMBOLS", BuildChange::Manual,  "none: with -fgpu-rdc device code links at the final link"},
    {"CUDA_RUNTIME_LIBRARY",        BuildChange::Manual,  "none: the HIP runtime comes with hip::host"},
    {"CUDA_SEPARABLE_COMPILATION",  BuildChange::Manual,  "add -fgpu-rdc to the target's compile and link options"},
    {"CUDA_STANDARD",               BuildChange::Rewrite, "HIP_STANDARD"},
    {"CUDA_STANDARD_REQUIRED",      BuildChange::Rewrite, "HIP_STANDARD_REQUIRED"},
}};

constexpr std::array<std::pair<std::string_view, std::string_view>, 3> k_renamed_commands = {{
    {"cuda_add_executable",      "add_executable"},
    {"cuda_add_library",         "add_library"},
    {"cuda_include_directories", "include_directories"},
}};

constexpr std::array<Advice, 8> k_manual_commands = {{
    {"cuda_add_cublas_to_target",   "target_link_libraries(TARGET roc::hipblas) after find_package(hipblas)"},
    {"cuda_add_cufft_to_target",    "target_link_libraries(TARGET hip::hipfft) after find_package(hipfft)"},
    {"cuda_compile",                "compile the sources as HIP (LANGUAGE HIP) in a normal target"},
    {"cuda_compile_cubin",          "none: AMD code objects come from --offload-arch builds"},
    {"cuda_compile_fatbin",         "none: AMD code objects come from --offload-arch builds"},
    {"cuda_compile_ptx",            "none: there is no PTX on AMD GPUs"},
    {"cuda_select_nvcc_arch_flags", "set CMAKE_HIP_ARCHITECTURES (e.g. gfx90a)"},
    {"cuda_wrap_srcs",              "compile the sources as HIP (LANGUAGE HIP) in a normal target"},
}};
// clang-format on

constexpr std::string_view k_hip_language_version = "3.21";  // first CMake with LANGUAGE HIP

template <typename Row, std::size_t N>
const Row* find_row(const std::array<Row, N>& rows, std::string_view key) {
  for (const Row& row : rows) {
    if (row.cuda == key) {
      return &row;
    }
  }
  return nullptr;
}

}  // namespace gpuport::cmake_names
