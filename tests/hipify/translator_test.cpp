// Unit tests for translate_cuda over a small in-test table: renaming, statistics, bytes kept,
// warnings, and properties over generated inputs.
#include "hipify/translator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "hipify/call_context.h"
#include "hipify/token_walk.h"
#include "hipify/unknown_names.h"
#include "lex/cuda_lexer.h"
#include "scan/rules/catalog.h"
#include "test_table.h"
#include "translation_properties.h"

namespace gpuport {
namespace {

using namespace test_table;

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// ---- renaming ------------------------------------------------------------------------------

TEST(TranslatorRename, RenamesWholeIdentifierTokensOnly) {
  EXPECT_EQ(hipify(with_hip("cudaMalloc(&p, n); cudaMallocHost(&h, n); my_cudaMalloc(); x = "
                            "cudaFree;\n")),
            with_hip("hipMalloc(&p, n); cudaMallocHost(&h, n); my_cudaMalloc(); x = hipFree;\n"));
}

// A SYCL (or Ascend C, MUSA, Metal, Vulkan, OpenCL) source is another backend's: copied as it is,
// whatever CUDA-looking names it holds, with GP-BACKEND-001 saying why.
TEST(TranslatorRename, LeavesOtherBackendsSourcesAlone) {
  const std::string sycl =
      "#include <sycl/sycl.hpp>\nvoid f(sycl::queue& q) { cudaMalloc(&p, n); cudaFree(p); }\n";
  EXPECT_EQ(hipify(sycl), sycl);
  TranslateOptions options = plain();
  options.warnings = true;
  const MappingTable& table = test_table::table();
  TranslationResult result = translate_cuda("k_sycl.cpp", sycl, table, options);
  EXPECT_FALSE(result.changed);
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_EQ(rule_catalog()[result.warnings[0].rule].id, "GP-BACKEND-001");
  const std::string ascend = "extern \"C\" __global__ __aicore__ void k() { cudaFree(p); }\n";
  EXPECT_EQ(hipify(ascend), ascend);
  EXPECT_EQ(hipify(with_hip("cudaFree(p);\n")), with_hip("hipFree(p);\n"));
}

// A project's own CUDA-to-HIP shim (llama.cpp's vendors/hip.h) is the AMD path already:
// renaming its CUDA names gave `#define HIPBLAS_OP_N HIPBLAS_OP_N` (issue 28, item 4).
TEST(TranslatorRename, LeavesTheProjectsHipShimAlone) {
  const std::string shim =
      "#pragma once\n#include <hip/hip_runtime.h>\n"
      "#define CUBLAS_OP_N HIPBLAS_OP_N\n#define CUBLAS_OP_T HIPBLAS_OP_T\n"
      "#define cudaMalloc hipMalloc\n#define cudaFree(p) hipFree(p)\n"
      "typedef cudaStream_t stream_t;\n";
  const MappingTable& table = test_table::table();
  const TranslationResult result = translate_cuda("vendors/hip.h", shim, table, plain());
  EXPECT_EQ(result.output, shim);
  EXPECT_FALSE(result.changed);
  EXPECT_EQ(result.kept_as_is, KeptAsIs::HipShim);
  // Two shim lines are not a shim header: the file is translated, but never the name a
  // #define or #undef names (as #if conditions keep theirs).
  const std::string two = with_hip(
      "#define CUBLAS_OP_N HIPBLAS_OP_N\n#define cudaFree(p) hipFree(p)\n"
      "#ifndef cudaMalloc\n#define cudaMalloc my_alloc\n#endif\n#undef cudaStream_t\n"
      "#define CHECK(x) cudaMalloc(x)\ncudaStream_t s; cudaFree(p);\n");
  EXPECT_EQ(
      hipify(two),
      with_hip("#define CUBLAS_OP_N HIPBLAS_OP_N\n#define cudaFree(p) hipFree(p)\n"
               "#ifndef cudaMalloc\n#define cudaMalloc my_alloc\n#endif\n#undef cudaStream_t\n"
               "#define CHECK(x) hipMalloc(x)\nhipStream_t s; hipFree(p);\n"));
  EXPECT_EQ(translate_cuda("k.cu", two, table, plain()).kept_as_is, KeptAsIs::No);
}

// llama.cpp's ggml-impl.h, a plain C header, tests `!defined(__CUDACC__)`: renaming the
// condition must not make it include hip_runtime.h.
TEST(TranslatorRename, AConditionMacroAloneNeedsNoRuntimeHeader) {
  const std::string header =
      "#pragma once\n#include \"ggml.h\"\n#if defined(__ARM_NEON) && !defined(__CUDACC__)\n"
      "#include <arm_neon.h>\n#endif\n"
      "#if defined(_MSC_VER) || (defined(__CUDACC__) && __CUDACC_VER_MAJOR__ <= 11)\n#endif\n";
  const TranslationResult result =
      translate_cuda("ggml-impl.h", header, builtin_mapping_table(), plain());
  EXPECT_EQ(result.output,
            "#pragma once\n#include \"ggml.h\"\n#if defined(__ARM_NEON) && !defined(__HIPCC__)\n"
            "#include <arm_neon.h>\n#endif\n"
            // With an nvcc-only macro beside it the condition would change meaning: kept.
            "#if defined(_MSC_VER) || (defined(__CUDACC__) && __CUDACC_VER_MAJOR__ <= 11)\n"
            "#endif\n");
  EXPECT_EQ(result.stats.includes_added, 0u);
}

// An API the tables do not know (GPUDirect Storage's cuFile*, a newer CUDA's function) was
// passed through without a word (issue 28, item 2): each call is a "needs review" entry, unless
// the file declares the name itself or it is a member.
TEST(TranslatorRename, UnknownCudaLookingCallsNeedReview) {
  const std::string source =
      "#include <cuda_runtime.h>\n"
      "static void cudaCheckError(const char* where) {}\n"
      "#define cuLaunchChecked(k) k\n"
      "void f(Reader& r, CUfileHandle_t h, void* p) {\n"
      "  cuFileRead(h, p, 4096, 0, 0);\n"
      "  cudaCheckError(\"f\");\n"
      "  cuLaunchChecked(p);\n"
      "  r.cudaReadAll(p);\n"
      "  cudaMalloc(&p, 16);\n"
      "  int cudaGraphCount = 0;\n"
      "}\n";
  const TranslationResult result =
      translate_cuda("io.cu", source, builtin_mapping_table(), plain());
  ASSERT_EQ(result.stats.needs_review.size(), 1u);
  const UnsupportedUse& use = result.stats.needs_review[0];
  EXPECT_EQ(use.name, "cuFileRead");
  EXPECT_EQ(use.line, 5u);
  EXPECT_EQ(use.column, 3u);
  EXPECT_EQ(use.family, ApiFamily::Driver);
  EXPECT_THAT(std::string(use.why),
              ::testing::HasSubstr("a CUDA-looking name the tables do not know"));
  EXPECT_EQ(cuda_api_family("cublasLtMatmulFoo"), ApiFamily::BlasLt);
  EXPECT_EQ(cuda_api_family("cudnnFoo"), ApiFamily::Dnn);
  EXPECT_EQ(cuda_api_family("cuBLASHandle"), std::nullopt);  // an acronym, not cuX + lower case
  EXPECT_EQ(cuda_api_family("customKernel"), std::nullopt);
}

TEST(TranslatorRename, LeavesCommentsAndStringsByDefault) {
  std::string source = with_hip(
      "// cudaMalloc the buffer\n"
      "/* cudaFree(p) */ const char* s = \"cudaMalloc failed\"; char c = 'c';\n"
      "auto r = R\"(cudaFree)\";\n");
  EXPECT_EQ(hipify(source), source);
}

TEST(TranslatorRename, TranslatesCommentsAndStringsWithTheFlag) {
  TranslateOptions options = plain();
  options.translate_comments = true;
  EXPECT_EQ(hipify(with_hip("// cudaMalloc then cudaFree; cudaMallocHost stays, cub::Sum, the cub "
                            "library\nputs(\"cudaMalloc failed\");\n"),
                   options),
            with_hip("// hipMalloc then hipFree; cudaMallocHost stays, hipcub::Sum, the cub "
                     "library\nputs(\"hipMalloc failed\");\n"));
}

TEST(TranslatorRename, KeepsMemberAccessAndForeignQualifiers) {
  EXPECT_EQ(hipify(with_hip("a.cudaMalloc(); p->cudaFree(); myns::cudaMalloc(); ::cudaFree(); "
                            "T<int>::cudaFree(); cub::cudaFree();\n")),
            with_hip("a.cudaMalloc(); p->cudaFree(); myns::cudaMalloc(); ::hipFree(); "
                     "T<int>::cudaFree(); hipcub::hipFree();\n"));
}

TEST(TranslatorRename, RenamesNamespaceOnlyWhereUsedAsOne) {
  EXPECT_EQ(hipify("using namespace cub;\ncub::BlockReduce<float, 128> r;\nint cub = 0;\n"
                   "namespace cub {}\nnamespace c = cub;\nint x = cub;\n"),
            "using namespace hipcub;\nhipcub::BlockReduce<float, 128> r;\nint cub = 0;\n"
            "namespace hipcub {}\nnamespace c = hipcub;\nint x = cub;\n");
}

TEST(TranslatorRename, TranslatesBothBranchesOfEveryIf) {
  EXPECT_EQ(hipify(with_hip("#ifdef USE_ASYNC\ncudaMalloc(&p, n);\n#elif defined(OTHER)\n"
                            "cuMemAlloc(&d, n);\n#else\ncudaFree(p);\n#endif\n")),
            with_hip("#ifdef USE_ASYNC\nhipMalloc(&p, n);\n#elif defined(OTHER)\n"
                     "hipMemAlloc(&d, n);\n#else\nhipFree(p);\n#endif\n"));
}

TEST(TranslatorRename, TranslatesCudaOnlyBranchesAndLeavesHipBranchesUncounted) {
  std::string source = with_hip(
      "#ifdef __HIP_PLATFORM_AMD__\n#define cudaMalloc hipMalloc\ncudaFree(p);\n"
      "#else\ncudaFree(p);\n#endif\n"
      "#ifdef __CUDA_ARCH__\n__syncthreads();\n#endif\n");
  TranslationResult result = run(source);
  EXPECT_EQ(result.output, with_hip("#ifdef __HIP_PLATFORM_AMD__\n#define cudaMalloc hipMalloc\n"
                                    "cudaFree(p);\n#else\nhipFree(p);\n#endif\n"
                                    "#ifdef __CUDA_ARCH__\n__syncthreads();\n#endif\n"));
  EXPECT_EQ(result.stats.converted, 1U);  // hipFree
  EXPECT_EQ(result.stats.kept, 1U);       // __syncthreads: the same name in HIP
  ASSERT_EQ(result.stats.converted_by_name.size(), 1U);
  EXPECT_EQ(result.stats.converted_by_name[0].cuda, "cudaFree");
}

TEST(TranslatorCallContext, CublasEnumsInCusolverCallsGetHipsolverNames) {
  std::string source = with_hip(
      "void f() {\n"
      "  cusolverDnSpotrf(h, CUBLAS_FILL_MODE_LOWER, n, a, lda, w, lw, info);\n"
      "  cusolverDnSgetrs(h, CUBLAS_OP_N, n, 1, a, lda, ipiv, b, ldb, info);\n"
      "  cublasSgemm(hb, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &al, a, m, b, n, &be, c, m);\n"
      "  cublasOperation_t op = CUBLAS_OP_T;\n"
      "}\n");
  TranslationResult result = run(source);
  EXPECT_EQ(result.output,
            with_hip("void f() {\n"
                     "  hipsolverDnSpotrf(h, HIPSOLVER_FILL_MODE_LOWER, n, a, lda, w, lw, info);\n"
                     "  hipsolverDnSgetrs(h, HIPSOLVER_OP_N, n, 1, a, lda, ipiv, b, ldb, info);\n"
                     "  hipblasSgemm(hb, HIPBLAS_OP_N, HIPBLAS_OP_T, m, n, k, &al, a, m, b, n, "
                     "&be, c, m);\n"
                     "  hipblasOperation_t op = HIPBLAS_OP_T;\n"
                     "}\n"));
  EXPECT_EQ(hipify(result.output), result.output);
}

TEST(TranslatorCallContext, RocEnumsFollowTheLibraryTheCallLandsIn) {
  TranslateOptions roc = plain();
  roc.roc = true;
  std::string source = with_hip(
      "void f() {\n"
      "  cublasSgemm(hb, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &al, a, m, b, n, &be, c, m);\n"
      "  cublasGemmEx(hb, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &al, a, t, m, b, t, k, &be, c, t, m,\n"
      "               ct, al2);\n"
      "  cusolverDnSgetrs(h, CUBLAS_OP_T, n, 1, a, lda, ipiv, b, ldb, info);\n"
      "}\n");
  TranslationResult result = run(source, roc);
  EXPECT_EQ(
      result.output,
      with_hip("void f() {\n"
               "  rocblas_sgemm(hb, rocblas_operation_none, rocblas_operation_transpose, m, n, "
               "k, &al, a, m, b, n, &be, c, m);\n"
               "  hipblasGemmEx(hb, HIPBLAS_OP_N, HIPBLAS_OP_N, m, n, k, &al, a, t, m, b, t, "
               "k, &be, c, t, m,\n"
               "               ct, al2);\n"
               "  hipsolverDnSgetrs(h, HIPSOLVER_OP_T, n, 1, a, lda, ipiv, b, ldb, info);\n"
               "}\n"));
  // The calls that stay hip* need a person: their handle is a rocblas_handle now.
  ASSERT_EQ(result.stats.needs_review.size(), 2U);
  EXPECT_EQ(result.stats.needs_review[0].name, "cublasGemmEx");
  EXPECT_EQ(result.stats.needs_review[0].line, 4U);
  EXPECT_EQ(result.stats.needs_review[1].name, "cusolverDnSgetrs");
  EXPECT_THAT(std::string(result.stats.needs_review[0].why), ::testing::HasSubstr("stays hip*"));
  EXPECT_THAT(run(source).stats.needs_review, IsEmpty());  // without --roc nothing to review
}

TEST(TranslatorCallContext, FindsTheEnclosingCallAcrossNestedParentheses) {
  TokenStream tokens;
  lex_cuda("x = f(a, g(b), (c + d), e);", tokens);
  auto index_of = [&](std::string_view text) {
    for (std::size_t i = 0; i < tokens.tokens.size(); ++i) {
      if (tokens.text(tokens.tokens[i]) == text) {
        return i;
      }
    }
    return k_no_token;
  };
  EXPECT_EQ(tokens.text(tokens.tokens[enclosing_call(tokens, index_of("e"))]), "f");
  EXPECT_EQ(tokens.text(tokens.tokens[enclosing_call(tokens, index_of("b"))]), "g");
  EXPECT_EQ(tokens.text(tokens.tokens[enclosing_call(tokens, index_of("c"))]), "f");  // (c + d)
  lex_cuda("if (x) { y = CUBLAS_OP_N; }", tokens);
  EXPECT_EQ(enclosing_call(tokens, index_of("CUBLAS_OP_N")), k_no_token);
  // "f" is not in this stream: the failed look-up's k_no_token is no call (it read before the
  // token buffer once, and failed one run in a hundred).
  EXPECT_EQ(enclosing_call(tokens, index_of("f")), k_no_token);
  EXPECT_EQ(enclosing_call(tokens, tokens.tokens.size()), k_no_token);
}

TEST(TranslatorWarnings, FindingsTheTranslationFixesAreResolvedNotWarned) {
  std::string source =
      "#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n"
      "__global__ void k(unsigned* out) {\n"
      "  unsigned m = __ballot_sync(0xffffffff, threadIdx.x < 7);\n  out[0] = m;\n}\n"
      "void f(float* p) { cudaMalloc(&p, 16); cudaDeviceSynchronize(); }\n";
  TranslateOptions options = plain();
  options.warnings = true;
  TranslationResult result = run(source, options);
  std::vector<std::string> warned;
  std::vector<std::string> resolved;
  const auto catalog = rule_catalog();
  for (const Finding& f : result.warnings) {
    warned.emplace_back(catalog[f.rule].id);
  }
  for (const Finding& f : result.resolved) {
    resolved.emplace_back(catalog[f.rule].id);
  }
  EXPECT_THAT(resolved, ::testing::Contains("GP-TYPE-003"));
  EXPECT_THAT(resolved, ::testing::Contains("GP-EXEC-011"));
  EXPECT_THAT(warned, ::testing::Not(::testing::Contains("GP-EXEC-011")));
  EXPECT_THAT(warned, ::testing::Not(::testing::Contains("GP-TYPE-003")));
  EXPECT_THAT(warned, ::testing::Contains(::testing::StartsWith("GP-WARP-")));
}

TEST(TranslatorRename, LeavesPreprocessorConditionsAsWritten) {
  EXPECT_EQ(hipify(with_hip("#if CUDART_VERSION >= 11000\nint v = CUDART_VERSION;\n#endif\n")),
            with_hip("#if CUDART_VERSION >= 11000\nint v = HIP_VERSION;\n#endif\n"));
}

TEST(TranslatorRename, RenamesInsideMacroBodies) {
  EXPECT_EQ(hipify(with_hip("#define CHECK(x) do { if ((x) != cudaSuccess) abort(); } while (0)\n"
                            "#define ALLOC(p, n) \\\n  cudaMalloc(&p, n)\n")),
            with_hip("#define CHECK(x) do { if ((x) != hipSuccess) abort(); } while (0)\n"
                     "#define ALLOC(p, n) \\\n  hipMalloc(&p, n)\n"));
}

TEST(TranslatorRename, ReportsUnsupportedNamesWithPositionAndKeepsThem) {
  std::string source = with_hip("void f() {\n  cudaGraphExecNodeSetParams(e, n, &p);\n}\n");
  TranslationResult result = run(source, plain(), "src/graph.cu");
  EXPECT_EQ(result.output, source);
  ASSERT_EQ(result.stats.unsupported.size(), 1U);
  const UnsupportedUse& use = result.stats.unsupported[0];
  EXPECT_EQ(use.name, "cudaGraphExecNodeSetParams");
  EXPECT_EQ(use.file, "src/graph.cu");
  EXPECT_EQ(use.line, 3U);
  EXPECT_EQ(use.column, 3U);
  EXPECT_EQ(use.family, ApiFamily::Runtime);
  EXPECT_EQ(result.stats.converted, 0U);
}

TEST(TranslatorRename, ReportsFp8TypesAsUnsupported) {
  std::string source = with_hip("#include <cuda_fp8.h>\n__device__ __nv_fp8_e4m3 x;\n");
  TranslationResult result = run(source);
  EXPECT_EQ(result.output, source);
  ASSERT_EQ(result.stats.unsupported.size(), 2U);
  EXPECT_EQ(result.stats.unsupported[0].name, "cuda_fp8.h");
  EXPECT_EQ(result.stats.unsupported[0].line, 2U);
  EXPECT_EQ(result.stats.unsupported[0].column, 11U);
  EXPECT_EQ(result.stats.unsupported[1].name, "__nv_fp8_e4m3");
  EXPECT_EQ(result.stats.unsupported[1].family, ApiFamily::Fp8);
}

TEST(TranslatorRename, CountsDeprecatedUses) {
  TranslationResult result = run(with_hip("cudaThreadSynchronize();\ncudaThreadSynchronize();\n"));
  EXPECT_EQ(result.output, with_hip("hipDeviceSynchronize();\nhipDeviceSynchronize();\n"));
  EXPECT_EQ(result.stats.deprecated_uses, 2U);
}

TEST(TranslatorRename, RocUsesRocNamesWhereTheTableHasThem) {
  TranslateOptions options = plain();
  options.roc = true;
  EXPECT_EQ(hipify("#include <cublas_v2.h>\ncublasHandle_t h;\ncublasCreate(&h);\n"
                   "int op = CUBLAS_OP_N;\ncudaStream_t s;\n",
                   options),
            "#include <hip/hip_runtime.h>\n#include <rocblas.h>\nrocblas_handle h;\n"
            "rocblas_create_handle(&h);\nint op = rocblas_operation_none;\nhipStream_t s;\n");
}

// ---- statistics ----------------------------------------------------------------------------

TEST(TranslatorStats, CountsByFamilyByNameAndLines) {
  TranslationResult result =
      run("#include <cublas_v2.h>\n"
          "cublasHandle_t h;\n"
          "\n"
          "void f() { cudaMalloc(&p, n); cudaMalloc(&q, n); cublasCreate(&h); }\n"
          "int untouched;");
  const TranslationStats& stats = result.stats;
  EXPECT_EQ(stats.converted, 5U);
  EXPECT_EQ(stats.converted_by_family[static_cast<std::size_t>(ApiFamily::Runtime)], 2U);
  EXPECT_EQ(stats.converted_by_family[static_cast<std::size_t>(ApiFamily::Blas)], 2U);
  EXPECT_EQ(stats.converted_by_family[static_cast<std::size_t>(ApiFamily::Header)], 1U);
  ASSERT_EQ(stats.converted_by_name.size(), 4U);
  EXPECT_EQ(stats.converted_by_name[0].cuda, "cublasCreate");
  EXPECT_EQ(stats.converted_by_name[0].hip, "hipblasCreate");
  EXPECT_EQ(stats.converted_by_name[1].cuda, "cublasHandle_t");
  EXPECT_EQ(stats.converted_by_name[2].cuda, "cublas_v2.h");
  EXPECT_EQ(stats.converted_by_name[2].hip, "hipblas.h");
  EXPECT_EQ(stats.converted_by_name[3].cuda, "cudaMalloc");
  EXPECT_EQ(stats.converted_by_name[3].count, 2U);
  EXPECT_EQ(stats.lines, 5U);
  EXPECT_EQ(stats.changed_lines, 4U);  // the inserted include, lines 1, 2 and 4
  EXPECT_EQ(stats.includes_added, 1U);
  EXPECT_TRUE(result.changed);
}

TEST(TranslatorStats, MergeSumsCountsAndMergesNames) {
  TranslationStats a = run(with_hip("cudaMalloc(&p, n);\ncudaFree(p);\n")).stats;
  TranslationStats b = run("#include <cuda.h>\n#include <cuda_runtime.h>\ncudaFree(q);\n"
                           "cudaGraphExecNodeSetParams(e, n, &p);\n")
                           .stats;
  merge_stats(a, b);
  EXPECT_EQ(a.converted, 5U);
  std::vector<std::pair<std::string, std::uint64_t>> names;
  for (const ConversionCount& c : a.converted_by_name) {
    names.emplace_back(c.cuda, c.count);
  }
  EXPECT_THAT(names, ElementsAre(std::pair<std::string, std::uint64_t>{"cuda.h", 1},
                                 std::pair<std::string, std::uint64_t>{"cudaFree", 2},
                                 std::pair<std::string, std::uint64_t>{"cudaMalloc", 1},
                                 std::pair<std::string, std::uint64_t>{"cuda_runtime.h", 1}));
  EXPECT_EQ(a.unsupported.size(), 1U);
  EXPECT_EQ(a.lines, 7U);
  EXPECT_EQ(a.includes_removed, 1U);
  EXPECT_EQ(a.converted_by_family[static_cast<std::size_t>(ApiFamily::Runtime)], 3U);
}

// ---- bytes outside changed tokens ----------------------------------------------------------

TEST(TranslatorLossless, KeepsCrlfLineEndings) {
  EXPECT_EQ(
      hipify("#include <cuda_runtime.h>\r\n__global__ void k() {\r\n  __syncthreads();\r\n}\r\n"),
      "#include <hip/hip_runtime.h>\r\n__global__ void k() {\r\n  __syncthreads();\r\n}\r\n");
}

TEST(TranslatorLossless, InsertsWithTheFilesOwnLineEnding) {
  EXPECT_EQ(hipify("// kernels\r\n#include <cstdio>\r\n__global__ void k() {}\r\n"),
            "// kernels\r\n#include <hip/hip_runtime.h>\r\n#include <cstdio>\r\n"
            "__global__ void k() {}\r\n");
}

TEST(TranslatorLossless, KeepsTheByteOrderMarkFirst) {
  EXPECT_EQ(hipify("\xEF\xBB\xBF__global__ void k() { cudaFree(0); }\n"),
            "\xEF\xBB\xBF#include <hip/hip_runtime.h>\n__global__ void k() { hipFree(0); }\n");
}

TEST(TranslatorLossless, KeepsAMissingTrailingNewline) {
  EXPECT_EQ(hipify(with_hip("cudaFree(p);")), with_hip("hipFree(p);"));
  EXPECT_EQ(hipify("cudaFree(p);"), "#include <hip/hip_runtime.h>\nhipFree(p);");
}

TEST(TranslatorLossless, KeepsNonUtf8Bytes) {
  std::string source = with_hip(
      "// caf\xE9 \xFF\xFE\ncudaFree(p); /* \x80\x81 */ char c = '\xE9';\n"
      "const char* s = \"\xC3\x28 cudaFree\";\n");
  EXPECT_EQ(hipify(source),
            with_hip("// caf\xE9 \xFF\xFE\nhipFree(p); /* \x80\x81 */ char c = '\xE9';\n"
                     "const char* s = \"\xC3\x28 cudaFree\";\n"));
}

TEST(TranslatorLossless, IdentifierGluedToNonAsciiBytesIsNotACudaName) {
  std::string source = with_hip("int cudaFree\xE9 = 0;\n");
  EXPECT_EQ(hipify(source), source);
}

TEST(TranslatorLossless, UnchangedInputIsReturnedAsIs) {
  std::string source = "int main() {\n  return 0;\n}\n";
  TranslationResult result = run(source);
  EXPECT_EQ(result.output, source);
  EXPECT_FALSE(result.changed);
  EXPECT_EQ(result.stats.changed_lines, 0U);
  TranslationResult empty = run("");
  EXPECT_EQ(empty.output, "");
  EXPECT_FALSE(empty.changed);
  EXPECT_EQ(empty.stats.lines, 0U);
}

// ---- warnings and diagnostics --------------------------------------------------------------

std::vector<std::string> rule_ids(const std::vector<Finding>& findings) {
  std::vector<std::string> ids;
  for (const Finding& finding : findings) {
    ids.emplace_back(rule_catalog()[finding.rule].id);
  }
  return ids;
}

TEST(TranslatorWarnings, RunsTheScanRuleCatalogOnTheInput) {
  std::string source = with_hip(
      "__global__ void k(float* x) {\n"
      "  float v = x[threadIdx.x];\n"
      "  v += __shfl_xor_sync(0xffffffff, v, 16);\n"
      "  x[threadIdx.x] = v;\n"
      "}\n");
  TranslateOptions options = plain();
  options.warnings = true;
  TranslationResult result = run(source, options, "src/reduce.cu");
  ASSERT_FALSE(result.warnings.empty());
  for (const Finding& finding : result.warnings) {
    EXPECT_EQ(finding.file, "src/reduce.cu");
  }
  EXPECT_THAT(rule_ids(result.warnings), ::testing::Contains(::testing::StartsWith("GP-WARP-")));
  EXPECT_THAT(run(source).warnings, IsEmpty());
}

TEST(TranslatorWarnings, ReportsFp8AsAWarningToo) {
  TranslateOptions options = plain();
  options.warnings = true;
  TranslationResult result = run("#include <cuda_fp8.h>\n__nv_fp8_e4m3 x;\n", options);
  EXPECT_THAT(rule_ids(result.warnings), ::testing::Contains("GP-TYPE-001"));
}

TEST(TranslatorWarnings, HonoursSuppressionComments) {
  TranslateOptions options = plain();
  options.warnings = true;
  TranslationResult result =
      run("__device__ float f(float v) {\n"
          "  return __shfl_xor_sync(0xffffffff, v, 16);  // gpuport-ignore\n}\n",
          options);
  EXPECT_THAT(result.warnings, IsEmpty());
}

TEST(TranslatorWarnings, PassesLexerDiagnosticsOn) {
  TranslationResult result = run(with_hip("int x; /* never closed\n"));
  ASSERT_EQ(result.diagnostics.size(), 1U);
  EXPECT_EQ(result.diagnostics[0].line, 2U);
  EXPECT_EQ(result.diagnostics[0].message, "unterminated block comment");
}

// ---- properties over generated inputs ------------------------------------------------------

// Random token soup from a vocabulary that hits every pass, including broken syntax.
std::string random_source(std::mt19937& rng) {
  static const std::vector<std::string> k_pieces = {
      "cudaMalloc",
      "cudaFree",
      "cudaStream_t",
      "cub",
      "::",
      "cub::Sum",
      "myns::cudaFree",
      "x.cudaFree",
      "->",
      ".",
      "cudaMemcpyToSymbol(",
      "cudaMemcpyFromSymbol(h, ",
      "HIP_SYMBOL(",
      "cudaGraphExecNodeSetParams",
      "__nv_fp8_e4m3",
      "__global__",
      "__device__",
      "k<<<",
      ">>>",
      "<<<1, 1>>>",
      "k<T, 2><<<g, b, 0, s>>>(a, b);",
      "(",
      ")",
      "(",
      ")",
      ",",
      ",",
      ";",
      "{",
      "}",
      "<",
      ">",
      "#",
      "##",
      "\n#include <cuda.h>\n",
      "\n#include <cuda_runtime.h>\n",
      "\n#include \"cublas_v2.h\"\n",
      "\n#ifdef __HIP_PLATFORM_AMD__\n",
      "\n#if CUDART_VERSION\n",
      "\n#else\n",
      "\n#endif\n",
      "\n#define M(a) ",
      "\\\n",
      "\n#pragma once\n",
      "// cudaMalloc comment\n",
      "/* cudaFree\n */",
      "\"cudaMalloc str\"",
      "'c'",
      "\r\n",
      "\n",
      " ",
      "\t",
      "\xEF\xBB\xBF",
      "\xFF",
      "\xE9",
      "0x1f",
      "CUBLAS_OP_N",
      "cublasCreate",
      "__syncthreads",
      "R\"(cudaFree)\"",
      "/* open comment",
      "\"open string",
  };
  std::uniform_int_distribution<std::size_t> count(0, 40);
  std::uniform_int_distribution<std::size_t> pick(0, k_pieces.size() - 1);
  std::string out;
  for (std::size_t n = count(rng); n > 0; --n) {
    out += k_pieces[pick(rng)];
  }
  return out;
}

// Lines as a reader counts them: line breaks, plus a last line without one.
std::uint64_t count_lines(std::string_view text) {
  auto breaks = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n'));
  return text.empty() || text.back() == '\n' ? breaks : breaks + 1;
}

TEST(TranslatorProperties, IdempotentAndExplainedOnRandomInputs) {
  std::mt19937 rng(20240613);
  for (int round = 0; round < 3000; ++round) {
    std::string source = random_source(rng);
    for (int variant = 0; variant < 4; ++variant) {
      TranslateOptions options = plain();
      options.translate_comments = (variant & 1) != 0;
      options.roc = (variant & 2) != 0;
      TranslationResult result = run(source, options);
      ASSERT_EQ(testing::idempotence_failure("k.cu", result.output, table(), options), "")
          << "input: " << ::testing::PrintToString(source);
      ASSERT_EQ(testing::unexplained_difference(source, result.output, table(), options), "")
          << "input: " << ::testing::PrintToString(source);
      ASSERT_EQ(result.changed, result.output != source);
      ASSERT_EQ(result.stats.lines, count_lines(source));
      TranslateOptions launches = options;
      launches.launch_syntax = LaunchSyntax::Hip;
      TranslationResult rewritten = run(source, launches);
      ASSERT_EQ(testing::idempotence_failure("k.cu", rewritten.output, table(), launches), "")
          << "input: " << ::testing::PrintToString(source);
    }
  }
}

}  // namespace
}  // namespace gpuport

namespace gpuport {
namespace {

std::optional<std::size_t> arguments_of_first_call(std::string_view source) {
  TokenStream ts;
  lex_cuda(source, ts);
  for (std::size_t i = 0; i < ts.tokens.size(); ++i) {
    if (is_punct(ts, i, "(")) {
      return count_arguments(ts, i);
    }
  }
  return std::nullopt;
}

TEST(CountArguments, CountsTopLevelCommasOnly) {
  EXPECT_EQ(arguments_of_first_call("f();"), 0U);
  EXPECT_EQ(arguments_of_first_call("f(a);"), 1U);
  EXPECT_EQ(arguments_of_first_call("f(a, g(b, c), d[1, 2], {3, 4}, /* , */ e);"), 5U);
  EXPECT_EQ(arguments_of_first_call("f(a,\n  b);"), 2U);
  // Not countable: the list never closes in the statement, or crosses a directive.
  EXPECT_EQ(arguments_of_first_call("f(a, b; c)"), std::nullopt);
  EXPECT_EQ(arguments_of_first_call("f(a,\n#if X\n b,\n#endif\n c);"), std::nullopt);
  EXPECT_EQ(arguments_of_first_call("#define F f(a, b\nint x;"), std::nullopt);
}

}  // namespace
}  // namespace gpuport

namespace gpuport {
namespace {

TEST(TranslatorKernelPointers, AKernelIsCastAndANullPointerIsLeft) {
  const std::string source =
      "void f() {\n"
      "  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 1);\n"
      "  cudaFuncSetAttribute(nullptr, cudaFuncAttributeMaxDynamicSharedMemorySize, 1);\n"
      "}\n";
  const TranslationResult result =
      translate_cuda("k.cu", source, builtin_mapping_table(), TranslateOptions{});
  EXPECT_THAT(result.output, ::testing::HasSubstr("  hipFuncSetAttribute(reinterpret_cast<const "
                                                  "void*>(k), hipFuncAttributeMax"));
  // reinterpret_cast<const void*>(nullptr) would not compile.
  EXPECT_THAT(result.output, ::testing::HasSubstr("  hipFuncSetAttribute(nullptr, hipFuncAttr"));
  EXPECT_EQ(result.stats.kernel_arguments_cast, 1U);
}

}  // namespace
}  // namespace gpuport
