// The built-in CUDA -> HIP mapping table: lookups a port depends on, invariants over every
// entry, minimum sizes per family, and freshness against the generator.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <span>
#include <string>

#include "hipify/mapping.h"
#include "hipify/value_types.h"

namespace gpuport {
namespace {

const Mapping& entry(std::string_view cuda) {
  const Mapping* found = builtin_mapping_table().find(cuda);
  if (found == nullptr) {
    ADD_FAILURE() << cuda << " is not in the table";
    static const Mapping k_missing{};
    return k_missing;
  }
  return *found;
}

void expect_mapping(std::string_view cuda, std::string_view hip, std::string_view roc,
                    ApiFamily family, MappingKind kind, Support support,
                    Lifecycle lifecycle = Lifecycle::Current) {
  SCOPED_TRACE(std::string(cuda));
  const Mapping& e = entry(cuda);
  EXPECT_EQ(e.hip, hip);
  EXPECT_EQ(e.roc, roc);
  EXPECT_EQ(e.family, family);
  EXPECT_EQ(e.kind, kind);
  EXPECT_EQ(e.support, support);
  EXPECT_EQ(e.lifecycle, lifecycle);
}

void expect_unsupported(std::string_view cuda, ApiFamily family) {
  SCOPED_TRACE(std::string(cuda));
  const Mapping& e = entry(cuda);
  EXPECT_EQ(e.support, Support::Unsupported);
  EXPECT_EQ(e.family, family);
  EXPECT_TRUE(e.hip.empty());
}

TEST(MappingLookup, RuntimeApi) {
  expect_mapping("cudaMalloc", "hipMalloc", "", ApiFamily::Runtime, MappingKind::Function,
                 Support::Verified);
  expect_mapping("cudaMemcpyHostToDevice", "hipMemcpyHostToDevice", "", ApiFamily::Runtime,
                 MappingKind::Constant, Support::Verified);
  expect_mapping("cudaStream_t", "hipStream_t", "", ApiFamily::Runtime, MappingKind::Type,
                 Support::Verified);
  expect_mapping("cudaDevAttrWarpSize", "hipDeviceAttributeWarpSize", "", ApiFamily::Runtime,
                 MappingKind::Constant, Support::Verified);
  expect_mapping("cudaDeviceProp", "hipDeviceProp_t", "", ApiFamily::Runtime, MappingKind::Type,
                 Support::Verified);
  expect_mapping("cudaHostAllocMapped", "hipHostMallocMapped", "", ApiFamily::Runtime,
                 MappingKind::Constant, Support::Verified);
  expect_mapping("cudaCreateTextureObject", "hipCreateTextureObject", "", ApiFamily::Runtime,
                 MappingKind::Function, Support::Verified);
  expect_mapping("cudaErrorInvalidValue", "hipErrorInvalidValue", "", ApiFamily::Runtime,
                 MappingKind::Constant, Support::Verified);
  // HIP 5.2's hipDataType stops at the 16/32/64-bit floats; ROCm 6.0's headers declare the rest.
  expect_mapping("CUDA_R_16F", "HIP_R_16F", "", ApiFamily::Runtime, MappingKind::Constant,
                 Support::Verified);
  expect_mapping("CUDA_R_16BF", "HIP_R_16BF", "", ApiFamily::Runtime, MappingKind::Constant,
                 Support::Verified);
  EXPECT_EQ(entry("CUDA_R_16BF").since, 600);
}

TEST(MappingLookup, RuntimeApiHipLacksIsUnsupported) {
  expect_unsupported("cudaLaunchKernelEx", ApiFamily::Runtime);
  expect_unsupported("cudaGraphConditionalHandleCreate", ApiFamily::Runtime);
}

TEST(MappingLookup, DeprecatedAndRemovedNamesKeepTheirHipName) {
  // Deprecated by CUDA 13's cuda_runtime_api.h; still a HIP function.
  expect_mapping("cudaMemcpyToArray", "hipMemcpyToArray", "", ApiFamily::Runtime,
                 MappingKind::Function, Support::Verified, Lifecycle::Deprecated);
  // Removed from CUDA 13; the CUDA reference names cudaDeviceSynchronize as its equivalent.
  expect_mapping("cudaThreadSynchronize", "hipDeviceSynchronize", "", ApiFamily::Runtime,
                 MappingKind::Function, Support::Verified, Lifecycle::Removed);
  // Texture references: removed in CUDA 12 (generated_cudart_removed_meta.h), deprecated in HIP.
  expect_mapping("cudaBindTexture", "hipBindTexture", "", ApiFamily::Runtime, MappingKind::Function,
                 Support::Verified, Lifecycle::Removed);
  EXPECT_EQ(entry("cuCtxAttach").lifecycle, Lifecycle::Deprecated);
}

TEST(MappingLookup, DriverApi) {
  expect_mapping("cuMemAlloc", "hipMalloc", "", ApiFamily::Driver, MappingKind::Function,
                 Support::Verified);
  expect_mapping("cuMemAlloc_v2", "hipMalloc", "", ApiFamily::Driver, MappingKind::Function,
                 Support::Verified);
  expect_mapping("CUresult", "hipError_t", "", ApiFamily::Driver, MappingKind::Type,
                 Support::Verified);
  expect_mapping("CUDA_ERROR_INVALID_VALUE", "hipErrorInvalidValue", "", ApiFamily::Driver,
                 MappingKind::Constant, Support::Verified);
  expect_mapping("CU_DEVICE_ATTRIBUTE_WARP_SIZE", "hipDeviceAttributeWarpSize", "",
                 ApiFamily::Driver, MappingKind::Constant, Support::Verified);
  expect_mapping("cuLaunchKernel", "hipModuleLaunchKernel", "", ApiFamily::Driver,
                 MappingKind::Function, Support::Verified);
  expect_mapping("CUstream", "hipStream_t", "", ApiFamily::Driver, MappingKind::Type,
                 Support::Verified);
  expect_mapping("cuMemcpy3D", "hipDrvMemcpy3D", "", ApiFamily::Driver, MappingKind::Function,
                 Support::Verified);
  // Not hipMemAllocHost, which HIP deprecates in favour of hipHostMalloc.
  expect_mapping("cuMemAllocHost", "hipHostMalloc", "", ApiFamily::Driver, MappingKind::Function,
                 Support::Verified);
  expect_mapping("cuMemAllocHost_v2", "hipHostMalloc", "", ApiFamily::Driver, MappingKind::Function,
                 Support::Verified);
  // A driver enum type maps to the HIP enum its enumerators map into, not the runtime's.
  expect_mapping("CUresourceViewFormat", "HIPresourceViewFormat", "", ApiFamily::Driver,
                 MappingKind::Type, Support::Verified);
  expect_mapping("CU_RES_VIEW_FORMAT_NONE", "HIP_RES_VIEW_FORMAT_NONE", "", ApiFamily::Driver,
                 MappingKind::Constant, Support::Verified);
  expect_mapping("CUresourcetype", "HIPresourcetype", "", ApiFamily::Driver, MappingKind::Type,
                 Support::Verified);
  // hipMemcpy takes a copy kind that cuMemcpy does not: no rename.
  expect_unsupported("cuMemcpy", ApiFamily::Driver);
}

TEST(MappingLookup, Libraries) {
  // cublas.h's legacy cublasSgemm and cublas_v2.h's macro for cublasSgemm_v2: either call form.
  expect_mapping("cublasSgemm", "hipblasSgemm", "rocblas_sgemm", ApiFamily::Blas,
                 MappingKind::Function, Support::Verified);
  expect_mapping("cublasSgemm_v2", "hipblasSgemm", "rocblas_sgemm", ApiFamily::Blas,
                 MappingKind::Function, Support::Verified);
  expect_mapping("cublasHandle_t", "hipblasHandle_t", "rocblas_handle", ApiFamily::Blas,
                 MappingKind::Type, Support::Verified);
  expect_mapping("CUBLAS_OP_N", "HIPBLAS_OP_N", "rocblas_operation_none", ApiFamily::Blas,
                 MappingKind::Constant, Support::Verified);
  expect_mapping("cublasCreate_v2", "hipblasCreate", "rocblas_create_handle", ApiFamily::Blas,
                 MappingKind::Function, Support::Verified);
  // ROCm 6.x: the hipComplex/hipDataType API of hipBLAS is the `_v2` one.
  expect_mapping("cublasCgemm_v2", "hipblasCgemm_v2", "rocblas_cgemm", ApiFamily::Blas,
                 MappingKind::Function, Support::Verified);
  expect_mapping("cublasGemmEx", "hipblasGemmEx_v2", "", ApiFamily::Blas, MappingKind::Function,
                 Support::Verified);
  expect_unsupported("cublasXtCreate", ApiFamily::Blas);
  expect_mapping("curandCreateGenerator", "hiprandCreateGenerator", "rocrand_create_generator",
                 ApiFamily::Rand, MappingKind::Function, Support::Verified);
  expect_mapping("curand_init", "hiprand_init", "rocrand_init", ApiFamily::Rand,
                 MappingKind::Function, Support::Verified);
  expect_mapping("cusparseCreate", "hipsparseCreate", "rocsparse_create_handle", ApiFamily::Sparse,
                 MappingKind::Function, Support::Verified);
  expect_mapping("cufftExecC2C", "hipfftExecC2C", "", ApiFamily::Fft, MappingKind::Function,
                 Support::Verified);
  expect_mapping("cusolverDnSgetrf", "hipsolverDnSgetrf", "", ApiFamily::Solver,
                 MappingKind::Function, Support::Verified);
  expect_mapping("nvrtcCompileProgram", "hiprtcCompileProgram", "", ApiFamily::Rtc,
                 MappingKind::Function, Support::Verified);
  expect_mapping("ncclAllReduce", "ncclAllReduce", "", ApiFamily::Nccl, MappingKind::Function,
                 Support::Documented);
  expect_mapping("cub", "hipcub", "", ApiFamily::Cub, MappingKind::Namespace, Support::Documented);
  expect_mapping("nvmlShutdown", "rsmi_shut_down", "", ApiFamily::Nvml, MappingKind::Function,
                 Support::Verified);
}

TEST(MappingLookup, CudnnOnlyWhereMiopenCorresponds) {
  expect_mapping("cudnnCreate", "miopenCreate", "", ApiFamily::Dnn, MappingKind::Function,
                 Support::Verified);
  expect_mapping("cudnnHandle_t", "miopenHandle_t", "", ApiFamily::Dnn, MappingKind::Type,
                 Support::Verified);
  expect_mapping("cudnnCreateTensorDescriptor", "miopenCreateTensorDescriptor", "", ApiFamily::Dnn,
                 MappingKind::Function, Support::Verified);
  expect_unsupported("cudnnConvolutionForward", ApiFamily::Dnn);
  // The backend (graph) API: MIOpen declares the same names from ROCm 6.2 on.
  expect_mapping("cudnnBackendExecute", "miopenBackendExecute", "", ApiFamily::Dnn,
                 MappingKind::Function, Support::Verified);
  expect_mapping("CUDNN_ATTR_OPERATIONGRAPH_OPS", "MIOPEN_ATTR_OPERATIONGRAPH_OPS", "",
                 ApiFamily::Dnn, MappingKind::Constant, Support::Verified);
  EXPECT_EQ(entry("cudnnBackendExecute").since, 602);
  EXPECT_EQ(mapping_table_for(601).find("cudnnBackendExecute")->needs_rocm, 602);
}

TEST(MappingLookup, NvtxToRoctx) {
  // Checked against roctracer's roctx.h at each release (the ROCm name lists).
  expect_mapping("nvtxRangePushA", "roctxRangePushA", "", ApiFamily::Nvtx, MappingKind::Function,
                 Support::Verified);
  expect_mapping("nvtxRangeEnd", "roctxRangeStop", "", ApiFamily::Nvtx, MappingKind::Function,
                 Support::Verified);
  expect_unsupported("nvtxDomainCreateA", ApiFamily::Nvtx);
}

TEST(MappingLookup, DeviceCodeKeepsNames) {
  expect_mapping("__syncthreads", "__syncthreads", "", ApiFamily::DeviceFunction,
                 MappingKind::Function, Support::Verified);
  // Declared by ROCm 6.2's headers; HIP 5.2 lacks the *_sync forms.
  expect_mapping("__shfl_xor_sync", "__shfl_xor_sync", "", ApiFamily::DeviceFunction,
                 MappingKind::Function, Support::Verified);
  EXPECT_EQ(entry("__shfl_xor_sync").since, 602);
  expect_mapping("__shfl_xor", "__shfl_xor", "", ApiFamily::DeviceFunction, MappingKind::Function,
                 Support::Verified, Lifecycle::Deprecated);
  expect_mapping("atomicAdd", "atomicAdd", "", ApiFamily::DeviceFunction, MappingKind::Function,
                 Support::Verified);
  expect_mapping("__half2", "__half2", "", ApiFamily::Fp16, MappingKind::Type, Support::Verified);
  expect_mapping("float4", "float4", "", ApiFamily::DeviceType, MappingKind::Type,
                 Support::Verified);
  expect_mapping("this_thread_block", "this_thread_block", "", ApiFamily::CooperativeGroups,
                 MappingKind::Function, Support::Verified);
  expect_unsupported("__nanosleep", ApiFamily::DeviceFunction);
  // Standard C math is not CUDA API: no entry.
  EXPECT_EQ(builtin_mapping_table().find("sinf"), nullptr);
  EXPECT_EQ(builtin_mapping_table().find("printf"), nullptr);
}

TEST(MappingLookup, LowPrecisionTypes) {
  expect_mapping("__nv_bfloat16", "__hip_bfloat16", "", ApiFamily::Bf16, MappingKind::Type,
                 Support::Verified);
  expect_mapping("__nv_fp8_e4m3", "__hip_fp8_e4m3", "", ApiFamily::Fp8, MappingKind::Type,
                 Support::Documented);
  expect_unsupported("__nv_fp4_e2m1", ApiFamily::Fp8);
}

// math_constants.h's CUDART_* macros: hip_math_constants.h spells them HIP_* from ROCm 6.0 on.
TEST(MappingLookup, MathConstants) {
  expect_mapping("CUDART_PI_F", "HIP_PI_F", "", ApiFamily::MathConstant, MappingKind::Constant,
                 Support::Verified);
  expect_mapping("CUDART_INF", "HIP_INF", "", ApiFamily::MathConstant, MappingKind::Constant,
                 Support::Verified);
  EXPECT_EQ(entry("CUDART_PI_F").since, 600);
  EXPECT_EQ(builtin_mapping_table().find_header("math_constants.h")->hip,
            "hip/hip_math_constants.h");
  EXPECT_EQ(mapping_table_for(502).find_header("math_constants.h")->needs_rocm, 600);
  // Not math constants: the runtime's version and calling-convention macros stay out.
  EXPECT_EQ(builtin_mapping_table().find("CUDART_VERSION"), nullptr);
  EXPECT_EQ(builtin_mapping_table().find("CUDART_CB"), nullptr);
}

TEST(MappingLookup, Headers) {
  const MappingTable& table = builtin_mapping_table();
  const Mapping* runtime = table.find_header("cuda_runtime.h");
  ASSERT_NE(runtime, nullptr);
  EXPECT_EQ(runtime->hip, "hip/hip_runtime.h");
  EXPECT_EQ(runtime->kind, MappingKind::Header);
  EXPECT_EQ(runtime->family, ApiFamily::Header);
  EXPECT_EQ(runtime->support, Support::Verified);
  const Mapping* blas = table.find_header("cublas_v2.h");
  ASSERT_NE(blas, nullptr);
  EXPECT_EQ(blas->hip, "hipblas/hipblas.h");
  EXPECT_EQ(blas->roc, "rocblas/rocblas.h");
  EXPECT_EQ(blas->support, Support::Verified);
  EXPECT_EQ(table.find_header("curand_kernel.h")->hip, "hiprand/hiprand_kernel.h");
  EXPECT_EQ(table.find_header("cub/cub.cuh")->hip, "hipcub/hipcub.hpp");
  EXPECT_EQ(table.find_header("nvrtc.h")->hip, "hip/hiprtc.h");
  EXPECT_EQ(table.find_header("mma.h")->support, Support::Unsupported);
  EXPECT_EQ(table.find_header("nvToolsExt.h")->lifecycle, Lifecycle::Removed);
  // Headers and identifiers are separate indexes.
  EXPECT_EQ(table.find("cuda_runtime.h"), nullptr);
  EXPECT_EQ(table.find_header("cudaMalloc"), nullptr);
  EXPECT_EQ(table.find("notACudaName"), nullptr);
}

bool is_identifier(std::string_view name) {
  static const std::regex k_identifier("[A-Za-z_][A-Za-z0-9_]*");
  return std::regex_match(name.begin(), name.end(), k_identifier);
}

bool is_include_path(std::string_view path) {
  static const std::regex k_path("[A-Za-z0-9_][A-Za-z0-9_.+-]*(/[A-Za-z0-9_][A-Za-z0-9_.+-]*)*");
  return std::regex_match(path.begin(), path.end(), k_path) &&
         path.find("..") == std::string_view::npos;
}

TEST(MappingInvariants, SortedUniqueAndIndexed) {
  std::span<const Mapping> entries = builtin_mapping_table().entries();
  for (std::size_t i = 1; i < entries.size(); ++i) {
    EXPECT_LT(entries[i - 1].cuda, entries[i].cuda) << "unsorted or duplicate CUDA name";
  }
  for (const Mapping& e : entries) {
    const Mapping* found = e.kind == MappingKind::Header
                               ? builtin_mapping_table().find_header(e.cuda)
                               : builtin_mapping_table().find(e.cuda);
    EXPECT_EQ(found, &e) << e.cuda;
  }
}

TEST(MappingInvariants, SupportMatchesNames) {
  for (const Mapping& e : builtin_mapping_table().entries()) {
    SCOPED_TRACE(std::string(e.cuda));
    if (e.support == Support::Unsupported) {
      EXPECT_TRUE(e.hip.empty());
      EXPECT_TRUE(e.roc.empty());
    } else {
      EXPECT_FALSE(e.hip.empty());
    }
  }
}

TEST(MappingInvariants, NamesAreWellFormed) {
  for (const Mapping& e : builtin_mapping_table().entries()) {
    SCOPED_TRACE(std::string(e.cuda));
    bool header = e.kind == MappingKind::Header;
    EXPECT_EQ(header, e.family == ApiFamily::Header);
    auto valid = header ? is_include_path : is_identifier;
    EXPECT_TRUE(valid(e.cuda));
    EXPECT_TRUE(e.hip.empty() || valid(e.hip));
    EXPECT_TRUE(e.roc.empty() || valid(e.roc));
  }
}

TEST(MappingInvariants, OnlySharedFamiliesMapANameToItself) {
  for (const Mapping& e : builtin_mapping_table().entries()) {
    if (e.hip != e.cuda) {
      continue;
    }
    // rocThrust keeps Thrust's header paths; HIP keeps the bfloat16 function names (only the
    // types are renamed); hipSPARSE keeps cuSPARSE's solver info types, which rocSPARSE spells
    // rocsparse_mat_info (--roc).
    bool thrust_header = e.kind == MappingKind::Header && e.cuda.starts_with("thrust/");
    bool bf16_function = e.family == ApiFamily::Bf16 && e.kind == MappingKind::Function;
    bool roc_spelling = !e.roc.empty() && e.roc != e.cuda;
    EXPECT_TRUE(family_keeps_names(e.family) || thrust_header || bf16_function || roc_spelling)
        << e.cuda;
  }
}

TEST(MappingInvariants, NoInternalNames) {
  static const std::regex k_internal(
      "(__cuda|__CUDA|_CUDA|__nv_(?!bfloat|fp[468]|half|cvt|saturation)).*"
      "|.*_(H_|H__|HPP_|ptds|ptsz)|CUDART_.*|CUDA_VERSION|CUDART_VERSION|CUDNN_VERSION"
      "|.*_VER_(MAJOR|MINOR|PATCH|BUILD)");
  for (const Mapping& e : builtin_mapping_table().entries()) {
    // Condition macros (__CUDACC__, include guards) are internal spellings by design: they are
    // renamed only in #if conditions. math_constants.h's CUDART_* are API (CUDART_PI_F).
    if (e.kind != MappingKind::Header && e.kind != MappingKind::Condition &&
        e.family != ApiFamily::MathConstant) {
      EXPECT_FALSE(std::regex_match(e.cuda.begin(), e.cuda.end(), k_internal)) << e.cuda;
    }
  }
}

using NamePair = std::pair<std::string_view, std::string_view>;

// Each CUDA name is in `table` with that HIP name, and that kind and support when given.
void expect_hip_names(const MappingTable& table, std::span<const NamePair> expected,
                      std::optional<MappingKind> kind = std::nullopt,
                      std::optional<Support> support = std::nullopt) {
  for (const auto& [cuda, hip] : expected) {
    const Mapping* entry = table.find(cuda);
    ASSERT_NE(entry, nullptr) << cuda;
    EXPECT_EQ(entry->hip, hip) << cuda;
    if (kind) {
      EXPECT_EQ(entry->kind, *kind) << cuda;
    }
    if (support) {
      EXPECT_EQ(entry->support, *support) << cuda;
    }
  }
}

// Struct and enum tags come from the typedefs that name them on both sides (issue 28, item 2):
// `typedef struct CUstream_st* cudaStream_t` with `typedef struct ihipStream_t* hipStream_t`.
TEST(MappingInvariants, StructAndEnumTagsPairTheTypedefsOfBothSides) {
  const MappingTable& table = builtin_mapping_table();
  const std::pair<std::string_view, std::string_view> expected[] =
      {
          {"CUstream_st", "ihipStream_t"},  {"CUevent_st", "ihipEvent_t"},
          {"CUctx_st", "ihipCtx_t"},        {"CUmod_st", "ihipModule_t"},
          {"cudaError_enum", "hipError_t"},  // HIP's tag follows an attribute macro
      };
  expect_hip_names(table, expected, MappingKind::Type, Support::Verified);
}

// Versioned driver functions that old code calls by name: declared in cuda.h's internal-build
// branch or behind the per-thread-stream wrappers (issue 28, item 2). A version whose arguments
// differ from HIP's function is unsupported, not mapped by its base's rule.
TEST(MappingInvariants, VersionedDriverNamesMapWhenTheirArgumentsMatch) {
  const MappingTable& table = builtin_mapping_table();
  const NamePair mapped[] = {
      {"cuCtxCreate_v2", "hipCtxCreate"},
      {"cuMemcpyHtoD_v2", "hipMemcpyHtoD"},
      {"cuMemcpyDtoHAsync_v2", "hipMemcpyDtoHAsync"},
      {"cuMemsetD32_v2", "hipMemsetD32"},
  };
  expect_hip_names(table, mapped);
  for (const std::string_view cuda : {"cuCtxCreate_v3", "cuCtxCreate_v4"}) {
    const Mapping* entry = table.find(cuda);
    ASSERT_NE(entry, nullptr) << cuda;
    EXPECT_EQ(entry->support, Support::Unsupported) << cuda;
  }
}

// Irregular one-for-one names the naming rule cannot derive (issue 28, item 2).
TEST(MappingInvariants, IrregularNamesHaveTheirHipSpelling) {
  const MappingTable& table = builtin_mapping_table();
  const NamePair expected[] = {
      {"cudaDeviceBlockingSync", "hipDeviceScheduleBlockingSync"},
      {"CU_STREAM_WAIT_VALUE_GEQ", "hipStreamWaitValueGte"},
      {"cudaDevAttrMaxPersistingL2CacheSize", "hipDeviceAttributePersistingL2CacheMaxSize"},
      {"cudaDevAttrMaxAccessPolicyWindowSize", "hipDeviceAttributeAccessPolicyMaxWindowSize"},
      {"cudaDevAttrReservedSharedMemoryPerBlock", "hipDeviceAttributeReservedSharedMemPerBlock"},
      {"cudaMallocHost", "hipHostMalloc"},
      {"cudaFreeHost", "hipHostFree"},
  };
  expect_hip_names(table, expected, std::nullopt, Support::Verified);
}

// Headers removed from CUDA that old code still includes keep a HIP spelling (issue 28, item 3).
TEST(MappingInvariants, RemovedCudaHeadersOldCodeIncludesStillMap) {
  const Mapping* texture = builtin_mapping_table().find_header("cuda_texture_types.h");
  ASSERT_NE(texture, nullptr);
  EXPECT_EQ(texture->hip, "hip/hip_texture_types.h");
  EXPECT_EQ(texture->lifecycle, Lifecycle::Removed);
  EXPECT_EQ(texture->support, Support::Verified);
  // cuRAND's internal device headers and cuSOLVER's Rf/Sp headers are rewritten too.
  for (const std::string_view header :
       {"curand_discrete2.h", "curand_globals.h", "curand_normal_static.h", "curand_precalc.h"}) {
    const Mapping* entry = builtin_mapping_table().find_header(header);
    ASSERT_NE(entry, nullptr) << header;
    EXPECT_EQ(entry->hip, "hiprand/hiprand_kernel.h") << header;
  }
  for (const std::string_view header : {"cusolverRf.h", "cusolverSp.h"}) {
    const Mapping* entry = builtin_mapping_table().find_header(header);
    ASSERT_NE(entry, nullptr) << header;
    EXPECT_EQ(entry->hip, "hipsolver/hipsolver.h") << header;
  }
}

// The legacy cuSPARSE API, removed from CUDA but called by old code and declared by hipSPARSE
// (issue 28, item 2): mapped, verified against hipSPARSE's header, marked removed.
TEST(MappingInvariants, LegacyCusparseMapsToHipsparse) {
  const MappingTable& table = builtin_mapping_table();
  for (const std::string_view name :
       {"cusparseScsrmv", "cusparseDcsrmm2", "cusparseCreateHybMat", "cusparseScsr2csc",
        "cusparseDcsrsv2_solve", "cusparseSgemmi", "cusparseZdoti", "cusparseDcsrgemm2",
        "cusparseSdense2csr", "cusparseHybMat_t", "CUSPARSE_HYB_PARTITION_AUTO"}) {
    const Mapping* entry = table.find(name);
    ASSERT_NE(entry, nullptr) << name;
    EXPECT_EQ(entry->support, Support::Verified) << name;
    EXPECT_EQ(entry->lifecycle, Lifecycle::Removed) << name;
    std::string expected = std::string(name);
    expected.replace(0, 2, name.starts_with("CU") ? "HIP" : "hip");
    EXPECT_EQ(entry->hip, expected) << name;
  }
}

// The condition macros and what they become (facts from the headers: the include guards of
// CUDA's and HIP's own headers; __HIPCC__ from the HIP porting guide).
TEST(MappingInvariants, ConditionMacrosAreTheHeadersOwnGuards) {
  const MappingTable& table = builtin_mapping_table();
  const NamePair expected[] = {
      {"__CUDACC__", "__HIPCC__"},
      {"__DRIVER_TYPES_H__", "HIP_INCLUDE_HIP_DRIVER_TYPES_H"},
      {"__CUDA_RUNTIME_H__", "HIP_INCLUDE_HIP_HIP_RUNTIME_H"},
      {"__CUDA_RUNTIME_API_H__", "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H"},
      {"CURAND_H_", "HIPRAND_H_"},
      {"CUSPARSE_H_", "HIPSPARSE_H"},  // `_HIPSPARSE_H_` before ROCm 6.0 (mapping_table_for)
  };
  std::size_t conditions = 0;
  for (const Mapping& e : table.entries()) {
    conditions += e.kind == MappingKind::Condition ? 1 : 0;
  }
  EXPECT_EQ(conditions, std::size(expected));
  expect_hip_names(table, expected, MappingKind::Condition);
}

struct FamilyCounts {
  std::size_t entries = 0;
  std::size_t verified = 0;
  std::size_t documented = 0;
};

std::map<ApiFamily, FamilyCounts> counts() {
  std::map<ApiFamily, FamilyCounts> out;
  for (const Mapping& e : builtin_mapping_table().entries()) {
    FamilyCounts& c = out[e.family];
    ++c.entries;
    c.verified += e.support == Support::Verified;
    c.documented += e.support == Support::Documented;
  }
  return out;
}

// Lower bounds measured on the committed table (CUDA 13.0; ROCm name lists 5.2 to 6.2, the
// newest release's view); a table that shrinks below them lost API coverage.
TEST(MappingInvariants, MinimumCountsPerFamily) {
  struct Minimum {
    ApiFamily family;
    std::size_t entries, verified, documented;
  };
  constexpr std::array k_minimums = {
      Minimum{ApiFamily::Runtime, 1472, 832, 1},
      Minimum{ApiFamily::Driver, 1888, 973, 0},
      Minimum{ApiFamily::Complex, 26, 26, 0},
      Minimum{ApiFamily::DeviceFunction, 547, 338, 6},
      Minimum{ApiFamily::DeviceType, 59, 49, 0},
      Minimum{ApiFamily::Fp16, 212, 180, 0},
      Minimum{ApiFamily::Bf16, 80, 23, 2},
      Minimum{ApiFamily::Fp8, 76, 17, 8},
      Minimum{ApiFamily::CooperativeGroups, 21, 12, 0},
      Minimum{ApiFamily::Blas, 1038, 718, 0},
      Minimum{ApiFamily::BlasLt, 987, 84, 0},
      Minimum{ApiFamily::Rand, 145, 115, 0},
      Minimum{ApiFamily::Fft, 152, 113, 0},
      Minimum{ApiFamily::Sparse, 594, 604, 0},
      Minimum{ApiFamily::Solver, 594, 311, 0},
      Minimum{ApiFamily::Dnn, 1148, 481, 0},
      Minimum{ApiFamily::Nccl, 107, 0, 75},
      Minimum{ApiFamily::Nvtx, 124, 9, 0},
      Minimum{ApiFamily::Rtc, 45, 28, 0},
      Minimum{ApiFamily::Nvml, 60, 12, 0},
      Minimum{ApiFamily::MathConstant, 95, 95, 0},
      Minimum{ApiFamily::Cub, 1, 0, 1},
      Minimum{ApiFamily::Thrust, 1, 0, 1},
      Minimum{ApiFamily::Header, 271, 65, 183},
  };
  std::map<ApiFamily, FamilyCounts> measured = counts();
  for (const Minimum& m : k_minimums) {
    SCOPED_TRACE(std::string(api_family_name(m.family)));
    EXPECT_GE(measured[m.family].entries, m.entries);
    EXPECT_GE(measured[m.family].verified, m.verified);
    EXPECT_GE(measured[m.family].documented, m.documented);
  }
}

// ---- the ROCm target (issue 28, item 1) -------------------------------------------------------

TEST(RocmRelease, ParsesMajorDotMinorOnly) {
  EXPECT_EQ(parse_rocm_release("6.2"), RocmRelease{602});
  EXPECT_EQ(parse_rocm_release("5.2"), RocmRelease{502});
  EXPECT_EQ(parse_rocm_release("10.11"), RocmRelease{1011});
  for (std::string_view bad : {"", "6", "6.", ".2", "6.2.1", "v6.2", "6.x", "6.-1", "600.1"}) {
    EXPECT_EQ(parse_rocm_release(bad), std::nullopt) << bad;
  }
  EXPECT_EQ(rocm_release_name(602), "6.2");
  EXPECT_EQ(rocm_release_name(1011), "10.11");
}

TEST(RocmRelease, TheTablesCoverTheReleasesOfTheNameLists) {
  EXPECT_THAT(rocm_releases(), ::testing::ElementsAre(502, 600, 601, 602));
  EXPECT_EQ(newest_rocm_release(), 602);
  EXPECT_EQ(&mapping_table_for(602), &builtin_mapping_table());
  EXPECT_EQ(&mapping_table_for(700), &builtin_mapping_table());
  EXPECT_EQ(&mapping_table_for(502), &mapping_table_for(502));  // built once
}

// hipBLAS 2.x (ROCm 6.x) declares its hipComplex/hipDataType API as `_v2`; 5.2 has only the
// plain names. The same CUDA name takes the spelling of the target.
TEST(RocmRelease, HipblasV2FormsFollowTheTarget) {
  const Mapping* at_5_2 = mapping_table_for(502).find("cublasCgemm_v2");
  const Mapping* at_6_0 = mapping_table_for(600).find("cublasCgemm_v2");
  const Mapping* at_6_2 = mapping_table_for(602).find("cublasCgemm_v2");
  ASSERT_TRUE(at_5_2 && at_6_0 && at_6_2);
  EXPECT_EQ(at_5_2->hip, "hipblasCgemm");
  EXPECT_EQ(at_5_2->support, Support::Verified);
  EXPECT_EQ(at_6_0->hip, "hipblasCgemm_v2");
  EXPECT_EQ(at_6_2->hip, "hipblasCgemm_v2");
  EXPECT_EQ(at_6_2->since, 600);
  EXPECT_EQ(mapping_table_for(502).find("cublasGemmEx")->hip, "hipblasGemmEx");
  EXPECT_EQ(mapping_table_for(601).find("cublasGemmEx")->hip, "hipblasGemmEx_v2");
  // No _v2 for real types: the plain name at every release.
  EXPECT_EQ(mapping_table_for(502).find("cublasSgemm_v2")->hip, "hipblasSgemm");
  EXPECT_EQ(mapping_table_for(602).find("cublasSgemm_v2")->hip, "hipblasSgemm");
  // The include guard hipSPARSE's header defines changed with 6.0.
  EXPECT_EQ(mapping_table_for(502).find("CUSPARSE_H_")->hip, "_HIPSPARSE_H_");
}

// The table carries when HIP deprecated a target (issue 28, item 1): hipDevicePrimaryCtx* from
// 6.1 on, the context API at every release of the lists; a target before that gets 0.
TEST(RocmRelease, DeprecationOfTheHipNameIsCarriedPerTarget) {
  EXPECT_EQ(builtin_mapping_table().find("cuCtxCreate")->hip_deprecated, 502);
  EXPECT_EQ(builtin_mapping_table().find("cuDevicePrimaryCtxRetain")->hip_deprecated, 601);
  EXPECT_EQ(mapping_table_for(600).find("cuDevicePrimaryCtxRetain")->hip_deprecated, 0);
  EXPECT_EQ(mapping_table_for(601).find("cuDevicePrimaryCtxRetain")->hip_deprecated, 601);
  EXPECT_EQ(builtin_mapping_table().find("cudaMalloc")->hip_deprecated, 0);
}

// A name the target's headers do not declare yet is Unsupported there, with the release that
// has it; the newest table maps it.
TEST(RocmRelease, ANameNewerThanTheTargetNeedsThatRelease) {
  const Mapping* newest = builtin_mapping_table().find("cudaStreamBeginCaptureToGraph");
  ASSERT_NE(newest, nullptr);
  EXPECT_EQ(newest->hip, "hipStreamBeginCaptureToGraph");
  EXPECT_EQ(newest->since, 602);
  EXPECT_EQ(newest->needs_rocm, 0);
  for (RocmRelease target : {RocmRelease{502}, RocmRelease{600}, RocmRelease{601}}) {
    const Mapping* older = mapping_table_for(target).find("cudaStreamBeginCaptureToGraph");
    ASSERT_NE(older, nullptr);
    EXPECT_EQ(older->support, Support::Unsupported) << target;
    EXPECT_TRUE(older->hip.empty());
    EXPECT_EQ(older->needs_rocm, 602);
  }
  // hipBLASLt first shipped after 5.2: its names need 6.0 there, though a rule documents them.
  EXPECT_EQ(mapping_table_for(502).find("cublasLtMatmul")->needs_rocm, 600);
  EXPECT_EQ(mapping_table_for(600).find("cublasLtMatmul")->hip, "hipblasLtMatmul");
  // A name every release declares is the same everywhere.
  EXPECT_EQ(mapping_table_for(502).find("cudaMalloc")->hip, "hipMalloc");
  EXPECT_EQ(mapping_table_for(502).find("cudaMalloc")->needs_rocm, 0);
  // Counts: each older target maps fewer names, none maps more than the newest.
  auto mapped = [](const MappingTable& table) {
    return std::count_if(table.entries().begin(), table.entries().end(),
                         [](const Mapping& e) { return e.support != Support::Unsupported; });
  };
  EXPECT_LT(mapped(mapping_table_for(502)), mapped(mapping_table_for(600)));
  EXPECT_LT(mapped(mapping_table_for(600)), mapped(mapping_table_for(601)));
  EXPECT_LT(mapped(mapping_table_for(601)), mapped(builtin_mapping_table()));
}

TEST(MappingNames, FamilyNamesAreUniqueAndStable) {
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < k_api_family_count; ++i) {
    std::string_view name = api_family_name(static_cast<ApiFamily>(i));
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(names.insert(name).second) << name;
  }
  EXPECT_EQ(api_family_name(ApiFamily::Runtime), "runtime");
  EXPECT_EQ(api_family_name(ApiFamily::BlasLt), "blas_lt");
  EXPECT_EQ(api_family_name(ApiFamily::CooperativeGroups), "cooperative_groups");
  EXPECT_EQ(api_family_name(ApiFamily::Header), "header");
  EXPECT_EQ(support_name(Support::Documented), "documented");
  EXPECT_EQ(lifecycle_name(Lifecycle::Removed), "removed");
}

TEST(MappingTableIndex, SmallTableFindsByKind) {
  static constexpr Mapping k_entries[] = {
      {"cudaFree", "hipFree", "", ApiFamily::Runtime, MappingKind::Function},
      {"cuda.h", "hip/hip_runtime.h", "", ApiFamily::Header, MappingKind::Header},
  };
  MappingTable table(k_entries);
  ASSERT_NE(table.find("cudaFree"), nullptr);
  EXPECT_EQ(table.find("cudaFree")->hip, "hipFree");
  EXPECT_EQ(table.find("cuda.h"), nullptr);
  ASSERT_NE(table.find_header("cuda.h"), nullptr);
  EXPECT_EQ(table.entries().size(), 2u);
  EXPECT_EQ(MappingTable({}).find("cudaFree"), nullptr);
}

// The committed tables are what the generator writes from the CUDA headers and the committed
// ROCm name lists. Exit status 3 means they were generated from another CUDA version than the
// one installed here.
TEST(MappingFreshness, GeneratorCheckPasses) {
  namespace fs = std::filesystem;
  if (!fs::exists("/usr/local/cuda/include/cuda.h")) {
    GTEST_SKIP() << "needs the CUDA headers in /usr/local/cuda/include (the generator's default "
                    "input)";
  }
  std::string command = "cd '" + std::string(GPUPORT_SOURCE_DIR) +
                        "' && python3 scripts/generate_hipify_tables.py --check";
  int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << "the generator did not run";
  int code = WEXITSTATUS(status);
  if (code == 3) {
    GTEST_SKIP() << "the committed table comes from other CUDA/HIP versions than this machine's";
  }
  EXPECT_EQ(code, 0) << "src/hipify/tables/mapping_table.inc is stale: run "
                        "scripts/generate_hipify_tables.py and commit the result";
}

// The generator's header reader (scripts/hipify_tables/cdecl.py): an `operator*=` definition
// read as an initializer hid every declaration after it up to the next top-level `;` (in HIP
// 6.2's amd_hip_bf16.h, the bf16 __hmax2 and __hmin2 among them).
TEST(MappingFreshness, HeaderReaderSeesPastCompoundAssignmentOperators) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "gpuport-cdecl-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "ops.h")
      << "static inline A& operator*=(A& l, const A& r) { l = mul(l, r); return l; }\n"
         "static inline bool operator<=(const A& l, const A& r) { return le(l, r); }\n"
         "static inline A __hmax2(const A a, const A b) { return max2(a, b); }\n"
         "template <int N, typename = enable_if_t<(N >= 2)>> int pick(int);\n";
  const std::string command =
      "cd '" + std::string(GPUPORT_SOURCE_DIR) +
      "' && python3 -c \"import sys; sys.path.insert(0, 'scripts'); sys.dont_write_bytecode = "
      "True; from hipify_tables import cdecl; print(' '.join(d.name for d in cdecl.scan_files("
      "{'ops.h': open(sys.argv[1]).read()}) if d.kind == 'function'))\" '" +
      (dir / "ops.h").string() + "' >'" + (dir / "out.txt").string() + "'";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::ifstream in(dir / "out.txt");
  std::string names;
  std::getline(in, names);
  EXPECT_EQ(names, "__hmax2 pick");
  fs::remove_all(dir);
}

// A `map` line whose CUDA name the collector did not pick up was dropped without a word (the
// cuDNN typedefs with a trailing CUDNN_DEPRECATED were): the generator now fails, naming it.
TEST(MappingFreshness, GeneratorFailsOnARuleNameItDidNotCollect) {
  namespace fs = std::filesystem;
  if (!fs::exists("/usr/local/cuda/include/cuda.h")) {
    GTEST_SKIP() << "needs the CUDA headers in /usr/local/cuda/include (the generator's default "
                    "input)";
  }
  const fs::path rules = fs::temp_directory_path() / "gpuport-rules-test";
  fs::remove_all(rules);
  fs::copy(fs::path(GPUPORT_SOURCE_DIR) / "src/hipify/tables/rules", rules);
  std::ofstream(rules / "dnn.map", std::ios::app)
      << "map cudnnNoSuchTypedef_t miopenTensorDescriptor_t\n";
  const fs::path err = rules / "stderr.txt";
  const std::string command = "cd '" + std::string(GPUPORT_SOURCE_DIR) +
                              "' && python3 scripts/generate_hipify_tables.py --list --rules '" +
                              rules.string() + "' >/dev/null 2>'" + err.string() + "'";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_NE(WEXITSTATUS(status), 0);
  std::ifstream in(err);
  const std::string message((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(message.find("dnn: rule names not collected from the CUDA headers: "
                         "cudnnNoSuchTypedef_t"),
            std::string::npos)
      << message;
  fs::remove_all(rules);
}

}  // namespace
}  // namespace gpuport

namespace gpuport {
namespace {

TEST(RocArguments, ParametersFollowTheTargetReleasesSignature) {
  // rocBLAS 6.0 made trmm out of place: C and ldc joined the parameters.
  const std::vector<ValueParameter> old = value_parameters("rocblas_ctrmm", 502);
  const std::vector<ValueParameter> now = value_parameters("rocblas_ctrmm", 602);
  ASSERT_EQ(old.size(), 3U);
  ASSERT_EQ(now.size(), 4U);
  EXPECT_EQ(old.front().count, 12U);
  EXPECT_EQ(now.front().count, 14U);
  EXPECT_EQ(now.back().index, 12U);
  EXPECT_EQ(now.back().type, "rocblas_float_complex*");
  EXPECT_EQ(value_parameters("rocblas_ctrmm", 0).size(), 4U);  // 0: the newest
  const std::vector<ValueParameter> hgemm = value_parameters("rocblas_hgemm", 602);
  ASSERT_EQ(hgemm.size(), 5U);
  EXPECT_EQ(hgemm.front().index, 6U);
  EXPECT_EQ(hgemm.front().type, "const rocblas_half*");
  EXPECT_TRUE(value_parameters("rocblas_sgemm", 602).empty());  // float needs no cast
}

TEST(RocArguments, CudaDataTypesHaveTheirRocblasDatatypeNames) {
  EXPECT_EQ(rocblas_datatype_of("CUDA_R_16F", 602), "rocblas_datatype_f16_r");
  EXPECT_EQ(rocblas_datatype_of("CUDA_C_64F", 502), "rocblas_datatype_f64_c");
  EXPECT_EQ(rocblas_datatype_of("CUDA_R_16BF", 602), "rocblas_datatype_bf16_r");
  EXPECT_EQ(rocblas_datatype_of("CUDA_R_8U", 602), "rocblas_datatype_u8_r");
  EXPECT_EQ(rocblas_datatype_of("CUDA_R_64I", 602), "");  // rocBLAS has no 64-bit integers
  EXPECT_EQ(rocblas_datatype_of("CUBLAS_OP_N", 602), "");
}

}  // namespace
}  // namespace gpuport

namespace gpuport {
namespace {

std::string_view roc_of(std::string_view cuda) {
  const Mapping* entry = builtin_mapping_table().find(cuda);
  return entry == nullptr ? std::string_view("(none)") : entry->roc;
}

TEST(RocNames, FollowRocsparsesSpellingsWhereTheParametersAgree) {
  // rocSPARSE drops the algorithm version and `Ext`, and keeps one info type for every solver.
  EXPECT_EQ(roc_of("cusparseScsrilu02"), "rocsparse_scsrilu0");
  EXPECT_EQ(roc_of("cusparseXcsrilu02_zeroPivot"), "rocsparse_csrilu0_zero_pivot");
  EXPECT_EQ(roc_of("cusparseScsrsv2_bufferSizeExt"), "rocsparse_scsrsv_buffer_size");
  EXPECT_EQ(roc_of("cusparseXcsrsort_bufferSizeExt"), "rocsparse_csrsort_buffer_size");
  EXPECT_EQ(roc_of("csrilu02Info_t"), "rocsparse_mat_info");
  EXPECT_EQ(roc_of("cusparseCreateCsrilu02Info"), "rocsparse_create_mat_info");
  EXPECT_EQ(roc_of("CUSPARSE_SOLVE_POLICY_USE_LEVEL"), "rocsparse_solve_policy_auto");
  EXPECT_EQ(roc_of("CUSPARSE_ORDER_COL"), "rocsparse_order_column");
  // cuSPARSE's `_bufferSize` writes an int, rocSPARSE's `_buffer_size` a size_t (the removed
  // csrsv2 form is judged by hipSPARSE's copy of its signature).
  EXPECT_EQ(roc_of("cusparseSgemvi_bufferSize"), "");
  EXPECT_EQ(roc_of("cusparseScsrsv2_bufferSize"), "");
  EXPECT_EQ(roc_of("cusparseSDDMM_bufferSize"), "rocsparse_sddmm_buffer_size");  // size_t*
  // The single-precision boost takes a double tolerance in cuSPARSE, a float in rocSPARSE.
  EXPECT_EQ(roc_of("cusparseScsrilu02_numericBoost"), "");
  EXPECT_EQ(roc_of("cusparseDcsrilu02_numericBoost"), "rocsparse_dcsrilu0_numeric_boost");
  // rocSPARSE's csrmv takes a mat_info more than the legacy cuSPARSE csrmv.
  EXPECT_EQ(roc_of("cusparseScsrmv"), "");
  // Same types, other order: rocSPARSE takes the row pointers before the column indices
  // (csr2csr_compress), the column pointers before the row indices (csc2dense).
  EXPECT_EQ(roc_of("cusparseScsr2csr_compress"), "");
  EXPECT_EQ(roc_of("cusparseDcsc2dense"), "");
  EXPECT_EQ(roc_of("cusparseDcsr2dense"), "rocsparse_dcsr2dense");
  // hipSPARSE keeps the info type's name: no change without --roc.
  EXPECT_EQ(builtin_mapping_table().find("csrilu02Info_t")->hip, "csrilu02Info_t");
}

}  // namespace
}  // namespace gpuport
