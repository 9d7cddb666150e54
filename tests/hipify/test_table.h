// A small mapping table and helpers shared by the translator unit tests: every expectation is
// exact because the tests know every entry.
#pragma once

#include <string>
#include <string_view>

#include "hipify/mapping.h"
#include "hipify/translator.h"

namespace gpuport::test_table {

inline constexpr Mapping k_entries[] = {
    {"cudaMalloc", "hipMalloc", "", ApiFamily::Runtime, MappingKind::Function},
    {"cudaFree", "hipFree", "", ApiFamily::Runtime, MappingKind::Function},
    {"cudaStream_t", "hipStream_t", "", ApiFamily::Runtime, MappingKind::Type},
    {"cudaSuccess", "hipSuccess", "", ApiFamily::Runtime, MappingKind::Constant},
    {"cudaThreadSynchronize", "hipDeviceSynchronize", "", ApiFamily::Runtime, MappingKind::Function,
     Support::Verified, Lifecycle::Deprecated},
    {"cudaGraphExecNodeSetParams", "", "", ApiFamily::Runtime, MappingKind::Function,
     Support::Unsupported},
    {"cudaMemcpyToSymbol", "hipMemcpyToSymbol", "", ApiFamily::Runtime, MappingKind::Function},
    {"cudaMemcpyToSymbolAsync", "hipMemcpyToSymbolAsync", "", ApiFamily::Runtime,
     MappingKind::Function},
    {"cudaMemcpyFromSymbol", "hipMemcpyFromSymbol", "", ApiFamily::Runtime, MappingKind::Function},
    {"cudaMemcpyFromSymbolAsync", "hipMemcpyFromSymbolAsync", "", ApiFamily::Runtime,
     MappingKind::Function},
    {"cudaGetSymbolAddress", "hipGetSymbolAddress", "", ApiFamily::Runtime, MappingKind::Function},
    {"cudaGetSymbolSize", "hipGetSymbolSize", "", ApiFamily::Runtime, MappingKind::Function},
    {"CUDART_VERSION", "HIP_VERSION", "", ApiFamily::Runtime, MappingKind::Constant},
    {"cuMemAlloc", "hipMemAlloc", "", ApiFamily::Driver, MappingKind::Function},
    {"__syncthreads", "__syncthreads", "", ApiFamily::DeviceFunction, MappingKind::Function},
    {"cublasCreate", "hipblasCreate", "rocblas_create_handle", ApiFamily::Blas,
     MappingKind::Function, Support::Documented},
    {"cublasHandle_t", "hipblasHandle_t", "rocblas_handle", ApiFamily::Blas, MappingKind::Type,
     Support::Documented},
    {"CUBLAS_OP_N", "HIPBLAS_OP_N", "rocblas_operation_none", ApiFamily::Blas,
     MappingKind::Constant, Support::Documented},
    {"CUBLAS_OP_T", "HIPBLAS_OP_T", "rocblas_operation_transpose", ApiFamily::Blas,
     MappingKind::Constant, Support::Documented},
    {"CUBLAS_FILL_MODE_LOWER", "HIPBLAS_FILL_MODE_LOWER", "rocblas_fill_lower", ApiFamily::Blas,
     MappingKind::Constant, Support::Documented},
    {"cublasOperation_t", "hipblasOperation_t", "rocblas_operation", ApiFamily::Blas,
     MappingKind::Type, Support::Documented},
    {"cublasSgemm", "hipblasSgemm", "rocblas_sgemm", ApiFamily::Blas, MappingKind::Function,
     Support::Documented},
    {"cublasGemmEx", "hipblasGemmEx", "", ApiFamily::Blas, MappingKind::Function,
     Support::Documented},
    {"cusolverDnSpotrf", "hipsolverDnSpotrf", "", ApiFamily::Solver, MappingKind::Function,
     Support::Documented},
    {"cusolverDnSgetrs", "hipsolverDnSgetrs", "", ApiFamily::Solver, MappingKind::Function,
     Support::Documented},
    {"cub", "hipcub", "", ApiFamily::Cub, MappingKind::Namespace, Support::Documented},
    {"__nv_fp8_e4m3", "", "", ApiFamily::Fp8, MappingKind::Type, Support::Unsupported},
    {"__nv_bfloat16", "__hip_bfloat16", "", ApiFamily::Bf16, MappingKind::Type},
    {"cuda_runtime.h", "hip/hip_runtime.h", "", ApiFamily::Header, MappingKind::Header},
    {"cuda.h", "hip/hip_runtime.h", "", ApiFamily::Header, MappingKind::Header},
    {"cuda_runtime_api.h", "hip/hip_runtime_api.h", "", ApiFamily::Header, MappingKind::Header},
    {"cublas_v2.h", "hipblas.h", "rocblas.h", ApiFamily::Header, MappingKind::Header,
     Support::Documented},
    {"cuda_fp8.h", "", "", ApiFamily::Header, MappingKind::Header, Support::Unsupported},
};

inline const MappingTable& table() {
  static const MappingTable k_table(k_entries);
  return k_table;
}

inline TranslateOptions plain() {
  TranslateOptions options;
  options.warnings = false;
  return options;
}

inline TranslateOptions hip_launches() {
  TranslateOptions options = plain();
  options.launch_syntax = LaunchSyntax::Hip;
  return options;
}

inline TranslationResult run(std::string_view source, TranslateOptions options = plain(),
                             const std::string& path = "k.cu") {
  return translate_cuda(path, source, table(), options);
}

inline std::string hipify(std::string_view source, TranslateOptions options = plain()) {
  return run(source, options).output;
}

// Files that already include the HIP runtime: no insertion line in the expectation.
inline constexpr std::string_view k_hip = "#include <hip/hip_runtime.h>\n";

inline std::string with_hip(std::string_view body) {
  return std::string(k_hip) + std::string(body);
}

}  // namespace gpuport::test_table
