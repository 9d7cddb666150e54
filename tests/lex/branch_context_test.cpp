// Tests for the #if condition classifier: platform macros, conditions and #elif/#else chains.
#include "lex/branch_context.h"

#include <gtest/gtest.h>

#include <string>

namespace gpuport {
namespace {

using C = BranchContext;

TEST(PlatformMacro, HipNamesBySegment) {
  for (const char* name : {"__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__HIPCC__", "__HIP__",
                           "__HIP_DEVICE_COMPILE__", "USE_ROCM", "GGML_USE_HIP", "BNB_HIP",
                           "IS_HIP_EXTENSION", "USE_ROCM_KERNELS", "__AMDGCN_WAVEFRONT_SIZE",
                           "__gfx942__", "__gfx90a__", "__gfx1100__", "__GFX9__", "__GFX11__"}) {
    EXPECT_EQ(classify_platform_macro(name), PlatformMacro::Hip) << name;
  }
}

TEST(PlatformMacro, NamesThatAreNotHip) {
  for (const char* name :
       {"CHIP", "SHIPPED", "USE_CHIP_ID", "HIPBLAS_FOO", "__HIP_PLATFORM_NVIDIA__",
        "__HIP_PLATFORM_NVCC__", "CUDA_VERSION", "USE_CUDA", "__gfx__", "gfx942", "__GFXX__", ""}) {
    EXPECT_NE(classify_platform_macro(name), PlatformMacro::Hip) << name;
  }
  EXPECT_EQ(classify_platform_macro("CHIP"), PlatformMacro::None);
}

TEST(PlatformMacro, CudaNames) {
  EXPECT_EQ(classify_platform_macro("__CUDA_ARCH__"), PlatformMacro::CudaArch);
  EXPECT_EQ(classify_platform_macro("__CUDACC__"), PlatformMacro::CudaCompiler);
  EXPECT_EQ(classify_platform_macro("__NVCC__"), PlatformMacro::CudaCompiler);
  EXPECT_EQ(classify_platform_macro("__CUDA_ARCH_LIST__"), PlatformMacro::CudaCompiler);
  EXPECT_EQ(classify_platform_macro("__CUDACC_RTC__"), PlatformMacro::CudaRtc);
}

struct Case {
  const char* directive;
  const char* condition;
  BranchContext expected;
};

class ClassifyCondition : public ::testing::TestWithParam<Case> {};

TEST_P(ClassifyCondition, Classifies) {
  const Case& c = GetParam();
  EXPECT_EQ(classify_condition(c.directive, c.condition), c.expected)
      << "#" << c.directive << " " << c.condition;
}

INSTANTIATE_TEST_SUITE_P(
    Rules, ClassifyCondition,
    ::testing::Values(
        // HIP macros, positive
        Case{"ifdef", " __HIP_PLATFORM_AMD__", C::Hip}, Case{"if", " defined(USE_ROCM)", C::Hip},
        Case{"if", " defined USE_ROCM", C::Hip}, Case{"if", " __HIPCC__", C::Hip},
        Case{"if", " GGML_USE_HIP", C::Hip}, Case{"ifdef", " __gfx942__", C::Hip},
        Case{"if", " defined(__GFX9__) || defined(__GFX8__)", C::Hip},
        Case{"if", " defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)", C::Hip},
        Case{"if", " defined(GGML_USE_HIP) && defined(__HIP_PLATFORM_AMD__)", C::Hip},
        Case{"if", " defined(USE_ROCM) && ROCM_VERSION >= 50000", C::Hip},
        Case{"if", " defined(USE_ROCM) ? 1 : 0", C::Hip}, Case{"elifdef", " BNB_HIP", C::Hip},
        Case{"ifdef", " USE_ROCM // comment", C::Hip},
        Case{"if", " defined(USE_ROCM) \\\n  && 1 /* c */", C::Hip},
        // HIP macros, only negated
        Case{"ifndef", " USE_ROCM", C::CudaDevice},
        Case{"if", " !defined(__HIP_PLATFORM_AMD__)", C::CudaDevice},
        Case{"if", " !__HIPCC__", C::CudaDevice},
        Case{"if", " not defined(USE_ROCM)", C::CudaDevice},
        Case{"elifndef", " IS_HIP_EXTENSION", C::CudaDevice},
        // CUDA macros
        Case{"ifdef", " __CUDA_ARCH__", C::CudaDevice},
        Case{"if", " __CUDA_ARCH__ >= 800", C::CudaDevice},
        Case{"if", " defined(__CUDACC__)", C::CudaDevice},
        Case{"if", " defined(__CUDACC_RTC__)", C::CudaDevice},
        Case{"ifndef", " __CUDA_ARCH__", C::Neutral},
        Case{"if", " !defined(__CUDACC__)", C::Neutral},
        Case{"if", " !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700", C::Neutral},
        // mixed
        Case{"if", " defined(__CUDACC__) || defined(__HIPCC__)", C::Neutral},
        Case{"if", " defined(__CUDA_ARCH__) || defined(USE_ROCM)", C::Neutral},
        Case{"if", " defined(__CUDA_ARCH__) && !defined(USE_ROCM)", C::CudaDevice},
        Case{"if",
             " !(defined(GGML_USE_HIP) && defined(__HIP_PLATFORM_AMD__)) && __CUDA_ARCH__ >= "
             "GGML_CUDA_CC_TURING",
             C::CudaDevice},
        Case{"if", " defined(__HIP_PLATFORM_AMD__) && defined(__CUDA_ARCH__)", C::Neutral},
        // neutral
        Case{"if", " 0", C::Neutral}, Case{"if", " 1", C::Neutral},
        Case{"if", " CUDA_VERSION >= 12000", C::Neutral},
        Case{"ifdef", " __HIP_PLATFORM_NVIDIA__", C::Neutral},
        Case{"if", " defined(CHIP) || SHIPPED", C::Neutral},
        Case{"if", " defined(USE_ROCM) || defined(OTHER)", C::Neutral},
        Case{"if", " __has_include(<hip/hip_runtime.h>)", C::Neutral},
        Case{"if", " defined(USE_ROCM) && 0", C::Neutral},
        // malformed: unknown everywhere
        Case{"if", " defined(", C::Neutral}, Case{"if", " defined(USE_ROCM", C::Neutral},
        Case{"if", " USE_ROCM &&", C::Neutral}, Case{"if", "", C::Neutral},
        Case{"ifdef", "", C::Neutral}, Case{"if", " \"USE_ROCM\"", C::Neutral},
        Case{"if", " (USE_ROCM))", C::Neutral}));

TEST(EvaluateCondition, ArithmeticIsEvaluated) {
  WorldTruth t = evaluate_condition("if", "(1 << 3) == 8 && 10 / 3 == 3 && -1 < 0 && 0x10 == 16");
  EXPECT_EQ(t[World::Amd], Truth::True);
  EXPECT_EQ(t[World::Host], Truth::True);
  EXPECT_EQ(evaluate_condition("if", "1 / 0")[World::Host], Truth::Unknown);
  EXPECT_EQ(evaluate_condition("if", "1 ? 0 : 1")[World::Host], Truth::False);
  EXPECT_EQ(evaluate_condition("if", "1'000 > 999")[World::Host], Truth::True);
  EXPECT_EQ(evaluate_condition("if", "FOO(1, (2))")[World::Host], Truth::Unknown);
}

TEST(EvaluateCondition, WorldsForCudaMacros) {
  WorldTruth t = evaluate_condition("ifdef", "__CUDACC__");
  EXPECT_EQ(t[World::Amd], Truth::False);
  EXPECT_EQ(t[World::Host], Truth::False);
  EXPECT_EQ(t[World::CudaHost], Truth::True);
  EXPECT_EQ(t[World::CudaDevice], Truth::True);
}

TEST(EvaluateCondition, DeepParenthesesAreUnknownNotACrash) {
  std::string deep(10000, '(');
  deep += "USE_ROCM";
  deep += std::string(10000, ')');
  EXPECT_EQ(classify_condition("if", deep), C::Neutral);
  std::string shallow = std::string(20, '(') + "USE_ROCM" + std::string(20, ')');
  EXPECT_EQ(classify_condition("if", shallow), C::Hip);
}

TEST(ConditionalChain, ElseFlipsHipToCuda) {
  ConditionalChain chain;
  EXPECT_EQ(chain.begin(evaluate_condition("ifdef", "__HIP_PLATFORM_AMD__")), C::Hip);
  EXPECT_EQ(chain.otherwise(), C::CudaDevice);
}

TEST(ConditionalChain, ElseOfNegatedHipIsHip) {
  ConditionalChain chain;
  EXPECT_EQ(chain.begin(evaluate_condition("ifndef", "USE_ROCM")), C::CudaDevice);
  EXPECT_EQ(chain.otherwise(), C::Hip);
}

TEST(ConditionalChain, ElseOfCudaArchIsNeutralHostCode) {
  ConditionalChain chain;
  EXPECT_EQ(chain.begin(evaluate_condition("ifdef", "__CUDA_ARCH__")), C::CudaDevice);
  EXPECT_EQ(chain.otherwise(), C::Neutral);
}

TEST(ConditionalChain, NeutralElifAfterHipIsCuda) {
  ConditionalChain chain;
  EXPECT_EQ(chain.begin(evaluate_condition("if", "defined(USE_ROCM)")), C::Hip);
  EXPECT_EQ(chain.next(evaluate_condition("elif", "FOO")), C::CudaDevice);
  EXPECT_EQ(chain.otherwise(), C::CudaDevice);
}

TEST(ConditionalChain, NeutralElifAfterCudaStaysNeutral) {
  ConditionalChain chain;
  EXPECT_EQ(chain.begin(evaluate_condition("ifdef", "__CUDA_ARCH__")), C::CudaDevice);
  EXPECT_EQ(chain.next(evaluate_condition("elif", "FOO")), C::Neutral);
}

TEST(ConditionalChain, ElifKeepsItsOwnClass) {
  ConditionalChain chain;
  EXPECT_EQ(chain.begin(evaluate_condition("if", "CUDA_VERSION >= 12000")), C::Neutral);
  EXPECT_EQ(chain.next(evaluate_condition("elif", "defined(__HIP_PLATFORM_AMD__)")), C::Hip);
  EXPECT_EQ(chain.next(evaluate_condition("elif", "defined(__CUDA_ARCH__)")), C::CudaDevice);
  EXPECT_EQ(chain.otherwise(), C::CudaDevice);  // AMD always takes the first or second branch
}

TEST(ConditionalChain, ElseAfterHipThenCudaCoversTheRest) {
  ConditionalChain chain;
  EXPECT_EQ(chain.begin(evaluate_condition("ifdef", "__HIPCC__")), C::Hip);
  EXPECT_EQ(chain.next(evaluate_condition("elifdef", "__CUDA_ARCH__")), C::CudaDevice);
  EXPECT_EQ(chain.otherwise(), C::CudaDevice);  // neither HIP nor device: CUDA host, not AMD
}

}  // namespace
}  // namespace gpuport
