// Unit tests for the #include pass: renaming, duplicates, hip_runtime.h insertion.
#include "hipify/translator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "test_table.h"

namespace gpuport {
namespace {

using namespace test_table;

// ---- includes ------------------------------------------------------------------------------

TEST(TranslatorIncludes, RenamesHeadersKeepingTheirForm) {
  TranslationResult result =
      run("#include <cuda_runtime.h>\n#include \"cublas_v2.h\"\n"
          "#  include <cuda_runtime_api.h>  // runtime API\n");
  EXPECT_EQ(result.output,
            "#include <hip/hip_runtime.h>\n#include \"hipblas.h\"\n"
            "#  include <hip/hip_runtime_api.h>  // runtime API\n");
  EXPECT_EQ(result.stats.includes_added, 0U);
}

TEST(TranslatorIncludes, KeepsAndReportsHeadersWithoutHipEquivalent) {
  TranslationResult result = run("#include <cuda_fp8.h>\n#include <my/cuda.h>\n");
  EXPECT_EQ(result.output, "#include <cuda_fp8.h>\n#include <my/cuda.h>\n");
  ASSERT_EQ(result.stats.unsupported.size(), 1U);
  EXPECT_EQ(result.stats.unsupported[0].name, "cuda_fp8.h");
}

TEST(TranslatorIncludes, InsertsAfterPragmaOnce) {
  EXPECT_EQ(hipify("#pragma once\n\n#include <cstdint>\n\n__device__ int twice(int x);\n"),
            "#pragma once\n\n#include <hip/hip_runtime.h>\n#include <cstdint>\n\n"
            "__device__ int twice(int x);\n");
}

TEST(TranslatorIncludes, InsertsAfterAnIncludeGuard) {
  EXPECT_EQ(hipify("// Helpers.\n#ifndef OPS_H_\n#define OPS_H_\n#include <cstdint>\n"
                   "__device__ int twice(int x);\n#endif  // OPS_H_\n"),
            "// Helpers.\n#ifndef OPS_H_\n#define OPS_H_\n#include <hip/hip_runtime.h>\n"
            "#include <cstdint>\n__device__ int twice(int x);\n#endif  // OPS_H_\n");
}

TEST(TranslatorIncludes, InsertsAfterALicenseComment) {
  EXPECT_EQ(hipify("/*\n * Copyright 2024 Example Inc.\n * SPDX-License-Identifier: MIT\n */\n\n"
                   "#include <cstdio>\n__global__ void k() {}\n"),
            "/*\n * Copyright 2024 Example Inc.\n * SPDX-License-Identifier: MIT\n */\n\n"
            "#include <hip/hip_runtime.h>\n#include <cstdio>\n__global__ void k() {}\n");
}

TEST(TranslatorIncludes, InsertsBeforeCodeWhenThereAreNoIncludes) {
  EXPECT_EQ(hipify("// Kernel.\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n"),
            "// Kernel.\n#include <hip/hip_runtime.h>\n"
            "__global__ void k(float* x) { x[threadIdx.x] = 0; }\n");
}

TEST(TranslatorIncludes, InsertsAfterACommentThatEndsOnTheFirstCodeLine) {
  EXPECT_EQ(hipify("/* license\n */ __global__ void k() {}\n"),
            "/* license\n */ #include <hip/hip_runtime.h>\n__global__ void k() {}\n");
}

TEST(TranslatorIncludes, NeverAddsASecondRuntimeInclude) {
  std::string source =
      "#include <cstdio>\n#include \"hip/hip_runtime.h\"\n__global__ void k() {}\n";
  TranslationResult result = run(source);
  EXPECT_EQ(result.output, source);
  EXPECT_EQ(result.stats.includes_added, 0U);
  EXPECT_EQ(hipify("#include <cstdio>\n#include <cuda_runtime.h>\n__global__ void k() {}\n"),
            "#include <cstdio>\n#include <hip/hip_runtime.h>\n__global__ void k() {}\n");
}

TEST(TranslatorIncludes, AddsNothingToHostCodeThatNeedsNoRuntime) {
  std::string source =
      "#include <cublas_v2.h>\nvoid f(cublasHandle_t h);\n"
      "// __global__ in a comment is no kernel\nconst char* s = \"<<<\";\n";
  EXPECT_EQ(hipify(source),
            "#include <hipblas.h>\nvoid f(hipblasHandle_t h);\n"
            "// __global__ in a comment is no kernel\nconst char* s = \"<<<\";\n");
}

TEST(TranslatorIncludes, KernelLaunchesAndRuntimeNamesNeedTheRuntime) {
  EXPECT_EQ(hipify("void f() { k<<<1, 1>>>(); }\n"),
            "#include <hip/hip_runtime.h>\nvoid f() { k<<<1, 1>>>(); }\n");
  EXPECT_EQ(hipify("cudaStream_t s;\n"), "#include <hip/hip_runtime.h>\nhipStream_t s;\n");
}

TEST(TranslatorIncludes, RemovesTheDuplicateThatRenamingCreates) {
  TranslationResult result =
      run("#include <cuda.h>\n#include <cstdio>\n#include <cuda_runtime.h>\r\n"
          "  #include \"cuda_runtime.h\" // again\n__global__ void k() {}\n");
  EXPECT_EQ(result.output,
            "#include <hip/hip_runtime.h>\n#include <cstdio>\n__global__ void k() {}\n");
  EXPECT_EQ(result.stats.includes_removed, 2U);
  EXPECT_EQ(result.stats.includes_added, 0U);
}

TEST(TranslatorIncludes, KeepsIncludesInOtherBranches) {
  std::string source =
      "#ifdef __HIP_PLATFORM_AMD__\n#include <hip/hip_runtime.h>\n#else\n#include "
      "<cuda_runtime.h>\n"
      "#endif\n#include <cuda.h>\n__global__ void k() {}\n";
  TranslationResult result = run(source);
  EXPECT_EQ(result.output,
            "#ifdef __HIP_PLATFORM_AMD__\n#include <hip/hip_runtime.h>\n#else\n"
            "#include <hip/hip_runtime.h>\n#endif\n#include <hip/hip_runtime.h>\n__global__ void "
            "k() {}\n");
  EXPECT_EQ(result.stats.includes_removed, 0U);
  // An include inside a branch is seen only there: a later one at file scope stays.
}

TEST(TranslatorIncludes, RemovesADuplicateInsideANestedBranch) {
  EXPECT_EQ(hipify("#include <cuda_runtime.h>\n#if FAST\n#include <cuda.h>\n#endif\n"),
            "#include <hip/hip_runtime.h>\n#if FAST\n#endif\n");
}

TEST(TranslatorIncludes, LeavesDuplicatesTheUserWrote) {
  std::string source = "#include <cstdio>\n#include <cstdio>\n";
  EXPECT_EQ(hipify(source), source);
}

}  // namespace
}  // namespace gpuport
