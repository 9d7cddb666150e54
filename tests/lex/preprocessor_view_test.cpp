// Tests for the preprocessor view: platform macros, #if evaluation in every world, the project's
// own macros through its headers and build, regions, AMD-build state, paths and bad input.
#include "lex/preprocessor_view.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lex/cuda_lexer.h"
#include "token_invariants.h"

namespace gpuport {
namespace {

using C = BranchContext;

// ---- platform macros -----------------------------------------------------------------------

TEST(PlatformMacro, HipNamesBySegment) {
  for (const char* name : {"__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__HIPCC__", "__HIP__",
                           "__HIP_DEVICE_COMPILE__", "USE_ROCM", "GGML_USE_HIP", "BNB_HIP",
                           "IS_HIP_EXTENSION", "USE_ROCM_KERNELS", "__AMDGCN_WAVEFRONT_SIZE",
                           "__gfx942__", "__gfx90a__", "__gfx1100__", "__GFX9__", "__GFX11__"}) {
    EXPECT_TRUE(is_hip_macro(classify_platform_macro(name))) << name;
  }
}

TEST(PlatformMacro, NamesThatAreNotHip) {
  for (const char* name :
       {"CHIP", "SHIPPED", "USE_CHIP_ID", "HIPBLAS_FOO", "__HIP_PLATFORM_NVIDIA__",
        "__HIP_PLATFORM_NVCC__", "CUDA_VERSION", "USE_CUDA", "__gfx__", "gfx942", "__GFXX__", "",
        "GGML_HIP_NO_VMM", "DISABLE_ROCM_KERNELS"}) {
    EXPECT_FALSE(is_hip_macro(classify_platform_macro(name))) << name;
  }
  EXPECT_EQ(classify_platform_macro("CHIP"), PlatformMacro::None);
  EXPECT_EQ(classify_platform_macro("true"), PlatformMacro::Literal);
}

TEST(PlatformMacro, CudaNames) {
  EXPECT_EQ(classify_platform_macro("__CUDA_ARCH__"), PlatformMacro::CudaArch);
  EXPECT_EQ(classify_platform_macro("__CUDACC__"), PlatformMacro::CudaCompiler);
  EXPECT_EQ(classify_platform_macro("__NVCC__"), PlatformMacro::CudaCompiler);
  EXPECT_EQ(classify_platform_macro("__CUDA_ARCH_LIST__"), PlatformMacro::CudaArchList);
  EXPECT_EQ(classify_platform_macro("__CUDACC_RTC__"), PlatformMacro::CudaRtc);
  EXPECT_EQ(classify_platform_macro("CUDART_VERSION"), PlatformMacro::CudaVersion);
}

TEST(PlatformMacro, ArchitecturesAreSampledAndOneWorldLeavesThemOpen) {
  const PlatformMacro arch = classify_platform_macro("__CUDA_ARCH__");
  EXPECT_EQ(platform_value("__CUDA_ARCH__", arch, World::CudaSm80).value, 800);
  EXPECT_EQ(platform_value("__CUDA_ARCH__", arch, World::CudaDevice).kind,
            PlatformValue::Kind::Nonzero);
  EXPECT_EQ(platform_value("__CUDA_ARCH__", arch, World::CudaHost).kind,
            PlatformValue::Kind::Undefined);
  EXPECT_EQ(platform_value("__CUDA_ARCH__", arch, World::AmdGfx942).kind,
            PlatformValue::Kind::Undefined);
  const PlatformMacro wave = classify_platform_macro("__AMDGCN_WAVEFRONT_SIZE");
  EXPECT_EQ(platform_value("__AMDGCN_WAVEFRONT_SIZE", wave, World::AmdGfx942).value, 64);
  EXPECT_EQ(platform_value("__AMDGCN_WAVEFRONT_SIZE", wave, World::AmdGfx1100).value, 32);
  const PlatformMacro gfx = classify_platform_macro("__gfx942__");
  EXPECT_EQ(platform_value("__gfx942__", gfx, World::AmdGfx942).value, 1);
  EXPECT_EQ(platform_value("__gfx942__", gfx, World::AmdGfx90a).kind,
            PlatformValue::Kind::Undefined);
  EXPECT_EQ(platform_value("__gfx942__", gfx, World::AmdDevice).kind, PlatformValue::Kind::Unknown);
}

// ---- conditions on the platform alone --------------------------------------------------------

struct Case {
  const char* directive;
  const char* condition;
  BranchContext expected;
};

class PlatformCondition : public ::testing::TestWithParam<Case> {};

BranchContext context_of_condition(const char* directive, const char* condition) {
  const PlatformResolver platform;
  return context_of_reach(
      evaluate_condition(directive_of(directive), condition, platform, k_all_worlds).may_true);
}

TEST_P(PlatformCondition, Classifies) {
  const Case& c = GetParam();
  EXPECT_EQ(context_of_condition(c.directive, c.condition), c.expected)
      << "#" << c.directive << " " << c.condition;
}

INSTANTIATE_TEST_SUITE_P(
    Rules, PlatformCondition,
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
        Case{"if", " __AMDGCN_WAVEFRONT_SIZE == 64", C::Hip},
        // HIP macros, only negated
        Case{"ifndef", " USE_ROCM", C::CudaDevice},
        Case{"if", " !defined(__HIP_PLATFORM_AMD__)", C::CudaDevice},
        Case{"if", " !__HIPCC__", C::Neutral},  // the AMD build's host compiler takes it too
        Case{"if", " not defined(USE_ROCM)", C::CudaDevice},
        Case{"elifndef", " IS_HIP_EXTENSION", C::CudaDevice},
        // CUDA macros
        Case{"ifdef", " __CUDA_ARCH__", C::CudaDevice},
        Case{"if", " __CUDA_ARCH__ >= 800", C::CudaDevice},
        Case{"if", " __CUDA_ARCH__ == 750", C::CudaDevice},
        Case{"if", " defined(__CUDACC__)", C::CudaDevice},
        Case{"if", " defined(__CUDACC_RTC__)", C::CudaDevice},
        Case{"ifndef", " __CUDA_ARCH__", C::Neutral},
        Case{"if", " !defined(__CUDACC__)", C::Neutral},
        Case{"if", " !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700", C::Neutral},
        // The CUDA toolkit's version is not defined by hipcc: the AMD build leaves this out.
        Case{"if", " CUDA_VERSION >= 12000", C::CudaDevice},
        Case{"ifdef", " __HIP_PLATFORM_NVIDIA__", C::CudaDevice},
        // mixed
        Case{"if", " defined(__CUDACC__) || defined(__HIPCC__)", C::Neutral},
        Case{"if", " defined(__CUDA_ARCH__) || defined(USE_ROCM)", C::Neutral},
        Case{"if", " defined(__CUDA_ARCH__) && !defined(USE_ROCM)", C::CudaDevice},
        Case{"if",
             " !(defined(GGML_USE_HIP) && defined(__HIP_PLATFORM_AMD__)) && __CUDA_ARCH__ >= "
             "GGML_CUDA_CC_TURING",
             C::CudaDevice},
        // compiled nowhere
        Case{"if", " 0", C::Dead}, Case{"if", " false", C::Dead},
        Case{"if", " defined(USE_ROCM) && 0", C::Dead},
        Case{"if", " defined(__HIP_PLATFORM_AMD__) && defined(__CUDA_ARCH__)", C::Dead},
        // neutral
        Case{"if", " 1", C::Neutral}, Case{"if", " defined(CHIP) || SHIPPED", C::Neutral},
        Case{"if", " defined(USE_ROCM) || defined(OTHER)", C::Neutral},
        Case{"if", " __has_include(<hip/hip_runtime.h>)", C::Neutral},
        // malformed: unknown everywhere
        Case{"if", " defined(", C::Neutral}, Case{"if", " defined(USE_ROCM", C::Neutral},
        Case{"if", " USE_ROCM &&", C::Neutral}, Case{"if", "", C::Neutral},
        Case{"ifdef", "", C::Neutral}, Case{"if", " \"USE_ROCM\"", C::Neutral},
        Case{"if", " (USE_ROCM))", C::Neutral}));

TEST(EvaluateCondition, ArithmeticIsEvaluated) {
  const PlatformResolver p;
  auto truth = [&](const char* text) {
    return evaluate_condition(Directive::If, text, p, world_bit(World::Host));
  };
  EXPECT_EQ(truth("(1 << 3) == 8 && 10 / 3 == 3 && -1 < 0 && 0x10 == 16").sure_true(),
            world_bit(World::Host));
  EXPECT_EQ(truth("1 / 0").unknown(), world_bit(World::Host));
  EXPECT_EQ(truth("1 ? 0 : 1").sure_false(), world_bit(World::Host));
  EXPECT_EQ(truth("1'000 > 999").sure_true(), world_bit(World::Host));
  EXPECT_EQ(truth("FOO(1, (2))").unknown(), world_bit(World::Host));
}

TEST(EvaluateCondition, OnlyTheAskedWorldsGetBits) {
  const PlatformResolver p;
  TruthMask t = evaluate_condition(Directive::Ifdef, "__CUDACC__", p, k_amd_worlds);
  EXPECT_EQ(t.may_true, 0);
  EXPECT_EQ(t.may_false, k_amd_worlds);
}

TEST(EvaluateCondition, DeepParenthesesAreUnknownNotACrash) {
  const PlatformResolver p;
  std::string deep(10000, '(');
  deep += "USE_ROCM";
  deep += std::string(10000, ')');
  EXPECT_EQ(evaluate_condition(Directive::If, deep, p, k_all_worlds).unknown(), k_all_worlds);
  std::string shallow = std::string(20, '(') + "USE_ROCM" + std::string(20, ')');
  EXPECT_EQ(context_of_reach(evaluate_condition(Directive::If, shallow, p, k_all_worlds).may_true),
            C::Hip);
}

// ---- files ---------------------------------------------------------------------------------

// Headers held in memory, resolved by their path as written.
class FakeHeaders : public IncludeSource {
 public:
  void add(const std::string& path, const std::string& text) { m_texts[path] = text; }
  const HeaderSkeleton* find(std::string_view, const IncludeTarget& target) override {
    std::string path(target.header);
    auto it = m_texts.find(path);
    if (it == m_texts.end()) {
      return nullptr;
    }
    auto cached = m_skeletons.find(path);
    if (cached == m_skeletons.end()) {
      TokenStream tokens;
      lex_cuda_tokens(it->second, tokens);
      auto skeleton =
          std::make_unique<HeaderSkeleton>(make_skeleton(path, tokens.directive_list()));
      cached = m_skeletons.emplace(path, std::move(skeleton)).first;
    }
    ++lookups;
    return cached->second.get();
  }
  std::size_t lookups = 0;

 private:
  std::map<std::string, std::string> m_texts;
  std::map<std::string, std::unique_ptr<HeaderSkeleton>> m_skeletons;
};

struct View {
  std::string source;
  TokenStream out;

  // The first token with this text.
  const Token& token(std::string_view text) const {
    for (const Token& t : out.tokens) {
      if (out.text(t) == text) {
        return t;
      }
    }
    ADD_FAILURE() << "no token " << text;
    return out.tokens.front();
  }
  std::size_t index(std::string_view text) const { return &token(text) - out.tokens.data(); }
  BranchContext context(std::string_view text) const { return token(text).context; }
  AmdBuild amd(std::string_view text) const { return out.region_of(index(text))->amd; }
  bool off_path(std::string_view text) const { return (token(text).flags & k_token_off_path) != 0; }
};

void view(View& v, std::string source, const PreprocessorSetup& setup = {}) {
  v.source = std::move(source);
  lex_cuda(v.source, v.out, setup);
  EXPECT_EQ(check_token_invariants(v.out), "");
}

TEST(PreprocessorView, FeatureMacroDefinedOnlyOffAmdExcludesItsUsers) {
  // llama.cpp's pattern: common.cuh defines NEW_MMA_AVAILABLE only when not building for AMD.
  View v;
  view(v,
       "#define TURING 750\n"
       "#if !(defined(GGML_USE_HIP) && defined(__HIP_PLATFORM_AMD__)) && __CUDA_ARCH__ >= "
       "TURING\n"
       "#define NEW_MMA_AVAILABLE\n"
       "#endif\n"
       "__device__ void f() {\n"
       "#ifdef NEW_MMA_AVAILABLE\n"
       "  asm_mma();\n"
       "#else\n"
       "  portable();\n"
       "#endif\n"
       "}\n");
  EXPECT_EQ(v.context("asm_mma"), C::CudaDevice);
  EXPECT_EQ(v.context("portable"), C::Neutral);
  const AmdBuild mma = v.amd("asm_mma");
  EXPECT_EQ(mma.state, AmdBuildState::Excluded);
  EXPECT_EQ(mma.guard_line, 6u);
  EXPECT_TRUE(mma.alternative);
  EXPECT_EQ(v.amd("portable").state, AmdBuildState::Compiled);
  EXPECT_TRUE(v.off_path("asm_mma"));  // the AMD branch is the one brace matching follows
  EXPECT_FALSE(v.off_path("portable"));
}

TEST(PreprocessorView, ExcludedWithoutAnAlternative) {
  View v;
  view(v, "#if __CUDA_ARCH__ >= 900\nwgmma();\n#endif\nafter();\n");
  const AmdBuild amd = v.amd("wgmma");
  EXPECT_EQ(amd.state, AmdBuildState::Excluded);
  EXPECT_EQ(amd.guard_line, 1u);
  EXPECT_FALSE(amd.alternative);
  EXPECT_EQ(v.amd("after").state, AmdBuildState::Compiled);
}

TEST(PreprocessorView, ElseBranchNamesItsIfAsTheGuardAndTheOuterLevelDecides) {
  View v;
  view(v,
       "#ifdef __HIP_PLATFORM_AMD__\n"
       "amd();\n"
       "#else\n"
       "#if __CUDA_ARCH__ >= 800\n"
       "inner();\n"
       "#endif\n"
       "#endif\n");
  const AmdBuild inner = v.amd("inner");
  EXPECT_EQ(inner.state, AmdBuildState::Excluded);
  EXPECT_EQ(inner.guard_line, 1u);  // the #else of line 1's chain decides, not line 4
  EXPECT_TRUE(inner.alternative);
  EXPECT_EQ(v.context("amd"), C::Hip);
}

TEST(PreprocessorView, MacroValuesAndBodiesWithDefinedAreExpanded) {
  // bitsandbytes' pattern: feature macros whose bodies are `defined(...)` tests.
  View v;
  view(v,
       "#define IS_CDNA3 (defined(__gfx942__))\n"
       "#define IS_CDNA (IS_CDNA3 || defined(__gfx90a__))\n"
       "#if IS_CDNA\n"
       "wave64();\n"
       "#else\n"
       "other();\n"
       "#endif\n");
  EXPECT_EQ(v.context("wave64"), C::Hip);
  EXPECT_EQ(v.amd("wave64").state, AmdBuildState::Compiled);
  EXPECT_EQ(v.context("other"), C::Neutral);
}

TEST(PreprocessorView, AShimThatDefinesCudaArchOnAmdIsFollowed) {
  // llama.cpp's HIP shim sets __CUDA_ARCH__ to a large value, so arch guards pass on AMD.
  View v;
  view(v,
       "#ifdef __HIP_PLATFORM_AMD__\n#define __CUDA_ARCH__ 1300\n#endif\n"
       "#if __CUDA_ARCH__ >= 700\nvolta();\n#endif\n");
  EXPECT_EQ(v.amd("volta").state, AmdBuildState::Compiled);
  EXPECT_EQ(v.context("volta"), C::Neutral);
}

TEST(PreprocessorView, SelfReferenceAndRunawayMacrosAreUnknown) {
  View v;
  std::string source = "#define SELF SELF + 1\n#if SELF\nself();\n#endif\n";
  // Each level doubles: 2^40 tokens if expanded naively; the token limit stops it.
  source += "#define M0 1\n";
  for (int i = 1; i <= 40; ++i) {
    source += "#define M" + std::to_string(i) + " (M" + std::to_string(i - 1) + " + M" +
              std::to_string(i - 1) + ")\n";
  }
  source += "#if M40\nrunaway();\n#endif\n";
  view(v, source);
  EXPECT_EQ(v.context("self"), C::Neutral);
  EXPECT_EQ(v.amd("self").state, AmdBuildState::Unknown);
  EXPECT_EQ(v.amd("runaway").state, AmdBuildState::Unknown);
  // The runaway condition is over the token limit: one warning at its #if (line 46); the
  // self-reference is simply unknown (SELF inside its own body is not expanded again).
  ASSERT_EQ(v.out.diagnostics.size(), 1u);
  EXPECT_EQ(v.out.diagnostics[0].line, 46u);
  EXPECT_THAT(v.out.diagnostics[0].message, ::testing::HasSubstr("cannot evaluate"));
}

TEST(PreprocessorView, AConditionThatDoesNotParseIsUnknownWithAWarningAtItsLine) {
  View v;
  view(v,
       "#if defined(\nbroken();\n#elif defined(__HIP_PLATFORM_AMD__)\nhip();\n#endif\n"
       "#if VERSION > \"1\"\nquoted();\n#endif\n#if 0\n#elif (\nnever();\n#endif\n");
  EXPECT_EQ(v.amd("broken").state, AmdBuildState::Unknown);
  EXPECT_EQ(v.amd("hip").state, AmdBuildState::Unknown);  // reached only if the first is false
  EXPECT_EQ(v.amd("quoted").state, AmdBuildState::Unknown);
  EXPECT_EQ(v.amd("never").state, AmdBuildState::Unknown);
  ASSERT_EQ(v.out.diagnostics.size(), 3u);
  EXPECT_EQ(v.out.diagnostics[0].line, 1u);
  EXPECT_EQ(v.out.diagnostics[0].column, 1u);
  EXPECT_EQ(v.out.diagnostics[0].message,
            "cannot evaluate this condition (it does not parse, or exceeds the evaluator's "
            "limits): its branches are unknown in both builds");
  EXPECT_EQ(v.out.diagnostics[1].line, 6u);
  EXPECT_EQ(v.out.diagnostics[2].line, 10u);
}

TEST(PreprocessorView, IfZeroIsDeadAndLeavesTheAnchors) {
  View v;
  view(v, "#if 0\n__global__ void old() {}\nit's prose\n#endif\nlive();\n");
  EXPECT_EQ(v.context("old"), C::Dead);
  EXPECT_TRUE(v.off_path("old"));
  for (std::uint32_t anchor : v.out.anchors) {
    EXPECT_NE(v.out.tokens[anchor].context, C::Dead);
  }
  EXPECT_TRUE(v.out.diagnostics.empty());  // the apostrophe of the prose is not an error
  EXPECT_EQ(v.context("live"), C::Neutral);
}

TEST(PreprocessorView, BraceAlternativesFollowTheAmdBranchElseTheFirst) {
  View v;
  view(v,
       "__global__ void k() {\n"
       "#ifdef __HIP_PLATFORM_AMD__\n"
       "  if (a) { amd_open();\n"
       "#else\n"
       "  if (b) { cuda_open();\n"
       "#endif\n"
       "  } }\n"
       "#if SOME_OPTION\n"
       "  one();\n"
       "#elif OTHER_OPTION\n"
       "  two();\n"
       "#endif\n");
  EXPECT_FALSE(v.off_path("amd_open"));
  EXPECT_TRUE(v.off_path("cuda_open"));
  EXPECT_FALSE(v.off_path("one"));  // undecided on AMD: the first alternative
  EXPECT_TRUE(v.off_path("two"));
}

TEST(PreprocessorView, UnbalancedConditionalsAreReportedAtTheirLines) {
  View v;
  view(v, "#endif\n#else\n#if A\n#elif B\n#if C\nx();\n");
  ASSERT_EQ(v.out.diagnostics.size(), 4u);
  EXPECT_EQ(v.out.diagnostics[0].message, "#endif without #if");
  EXPECT_EQ(v.out.diagnostics[1].message, "#else without #if");
  EXPECT_EQ(v.out.diagnostics[2].line, 3u);
  EXPECT_EQ(v.out.diagnostics[2].message, "unterminated #if");
  EXPECT_EQ(v.out.diagnostics[3].line, 5u);
}

TEST(PreprocessorView, BuildMacrosOverrideNamesAndOptionsStayUnknown) {
  ProjectMacros build;
  build.set(BuildSide::Amd, "BUILD_HIP",
            {BuildMacro::State::Defined, "1", false, "CMakeLists.txt:9"});
  build.set(BuildSide::Cuda, "BUILD_HIP", {BuildMacro::State::Undefined, "1", false, ""});
  build.set(BuildSide::Amd, "GGML_HIP_UMA", {BuildMacro::State::Unknown, "1", false, ""});
  build.set(BuildSide::Amd, "ONLY_CUDA_FEATURE", {BuildMacro::State::Undefined, "1", false, ""});
  build.set(BuildSide::Cuda, "ONLY_CUDA_FEATURE", {BuildMacro::State::Unknown, "1", false, ""});
  PreprocessorSetup setup;
  setup.build = &build;
  View v;
  view(v,
       "#if BUILD_HIP\nhip_path();\n#endif\n#ifdef GGML_HIP_UMA\numa();\n#endif\n"
       "#ifdef ONLY_CUDA_FEATURE\nsm75();\n#endif\n",
       setup);
  EXPECT_EQ(v.context("hip_path"), C::Hip);
  EXPECT_EQ(v.amd("uma").state, AmdBuildState::Unknown);  // an option, not the switch
  EXPECT_EQ(v.amd("sm75").state, AmdBuildState::Excluded);
  EXPECT_FALSE(v.amd("sm75").alternative);
}

TEST(PreprocessorView, DerivedMacrosAreFollowedThroughHeaders) {
  // DeepSpeed's pattern: a header defines PTX_AVAILABLE outside __HIP_PLATFORM_AMD__.
  FakeHeaders headers;
  headers.add("ds_kernel_utils.h",
              "#pragma once\n#ifdef __HIP_PLATFORM_AMD__\n#define HALF 1\n#else\n"
              "#if __CUDA_ARCH__ >= 530\n#define PTX_AVAILABLE\n#endif\n#endif\n");
  headers.add("memory_access_utils.h", "#pragma once\n#include \"ds_kernel_utils.h\"\n");
  PreprocessorSetup setup;
  setup.path = "csrc/x.cu";
  setup.includes = &headers;
  View v;
  view(v,
       "#include \"memory_access_utils.h\"\n#include \"ds_kernel_utils.h\"\n"
       "#ifdef PTX_AVAILABLE\nptx();\n#else\nportable();\n#endif\n",
       setup);
  EXPECT_EQ(v.amd("ptx").state, AmdBuildState::Excluded);
  EXPECT_TRUE(v.amd("ptx").alternative);
  EXPECT_EQ(v.amd("ptx").guard_line, 3u);
  EXPECT_EQ(v.context("portable"), C::Neutral);
  EXPECT_EQ(headers.lookups, 3u);  // ds_kernel_utils.h twice (pragma once), then skipped
}

TEST(PreprocessorView, AMacroTheProjectNeverDefinesStaysUnknown) {
  FakeHeaders headers;
  headers.add("config.h", "#define OWN_FEATURE 1\n");
  PreprocessorSetup setup;
  setup.includes = &headers;
  View v;
  view(v,
       "#include <cutlass/cutlass.h>\n#include \"config.h\"\n"
       "#ifdef CUTLASS_ARCH_MMA_SM80_ENABLED\nexternal();\n#endif\n"
       "#if OWN_FEATURE\nown();\n#endif\n",
       setup);
  EXPECT_EQ(v.amd("external").state, AmdBuildState::Unknown);
  EXPECT_EQ(v.amd("own").state, AmdBuildState::Compiled);
}

TEST(PreprocessorView, IncludeCycleWithoutGuardIsCutWithOneWarning) {
  FakeHeaders headers;
  headers.add("a.h", "#include \"b.h\"\n#define FROM_A 1\n");
  headers.add("b.h", "#include \"a.h\"\n#define FROM_B 1\n");
  PreprocessorSetup setup;
  setup.includes = &headers;
  View v;
  view(v, "\n#include \"a.h\"\n#if FROM_A && FROM_B\nboth();\n#endif\n", setup);
  ASSERT_EQ(v.out.diagnostics.size(), 1u);
  EXPECT_EQ(v.out.diagnostics[0].line, 2u);
  EXPECT_NE(v.out.diagnostics[0].message.find("#include cycle through a.h"), std::string::npos);
  EXPECT_EQ(v.amd("both").state, AmdBuildState::Compiled);
}

TEST(PreprocessorView, TenThousandDeepIncludeChainIsCutNotACrash) {
  FakeHeaders headers;
  for (int i = 0; i < 10000; ++i) {
    headers.add("h" + std::to_string(i) + ".h", "#include \"h" + std::to_string(i + 1) +
                                                    ".h\"\n#define H" + std::to_string(i) + " 1\n");
  }
  PreprocessorSetup setup;
  setup.includes = &headers;
  View v;
  view(v, "#include \"h0.h\"\n#if H9999\ndeep();\n#endif\n#if H1\nshallow();\n#endif\n", setup);
  ASSERT_EQ(v.out.diagnostics.size(), 1u);
  EXPECT_EQ(v.out.diagnostics[0].line, 1u);
  EXPECT_NE(v.out.diagnostics[0].message.find("deeper than 64 files"), std::string::npos);
  EXPECT_EQ(v.amd("deep").state, AmdBuildState::Unknown);
  EXPECT_EQ(v.amd("shallow").state, AmdBuildState::Compiled);
}

TEST(PreprocessorView, DirectiveBudgetStopsFollowingIncludes) {
  FakeHeaders headers;
  std::string big;
  for (int i = 0; i < 50; ++i) {
    big += "#define B" + std::to_string(i) + " 1\n";
  }
  headers.add("big.h", big);
  headers.add("late.h", "#define LATE 1\n");
  PreprocessorSetup setup;
  setup.includes = &headers;
  setup.max_directives = 20;
  View v;
  view(v, "#include \"big.h\"\n#include \"late.h\"\n#if LATE\nlate();\n#endif\n", setup);
  ASSERT_EQ(v.out.diagnostics.size(), 1u);
  EXPECT_NE(v.out.diagnostics[0].message.find("more than 20 preprocessor directives"),
            std::string::npos);
  EXPECT_EQ(v.amd("late").state, AmdBuildState::Unknown);
}

TEST(PreprocessorView, FirstHipTokenComesFromTheRegions) {
  View v;
  view(v, "a();\n#ifdef USE_ROCM\n// note\nhip();\n#endif\n");
  ASSERT_NE(v.out.first_hip_token, TokenStream::k_no_token);
  EXPECT_EQ(v.out.text(v.out.tokens[v.out.first_hip_token]), "// note");
}

TEST(PreprocessorView, RegionAtLineFindsTheBranchOfALine) {
  View v;
  view(v, "a();\n#if __CUDA_ARCH__ >= 800\nb();\n#endif\nc();\n");
  EXPECT_EQ(v.out.region_at_line(3)->amd.state, AmdBuildState::Excluded);
  EXPECT_EQ(v.out.region_at_line(5)->amd.state, AmdBuildState::Compiled);
  EXPECT_EQ(v.out.region_at_line(1)->amd.state, AmdBuildState::Compiled);
}

}  // namespace
}  // namespace gpuport
