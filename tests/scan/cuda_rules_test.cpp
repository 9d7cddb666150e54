// Edge cases of the C/C++/CUDA rules: asm classification, warp heuristics, calls vs types.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "lex/cuda_lexer.h"
#include "scan/file_analysis.h"
#include "scan/rules/catalog.h"
#include "scan/rules/source_rules.h"

namespace gpuport {
namespace {

using source_rules::AsmKind;
using source_rules::classify_asm;

FileAnalysis analyze(const std::string& source, const std::string& path = "k.cu") {
  TokenStream tokens;
  lex_cuda(source, tokens);
  FileAnalysis out;
  analyze_cuda(path, tokens, out);
  return out;
}

// "line RULE" for every finding, in order.
std::vector<std::string> findings(const FileAnalysis& out) {
  std::vector<std::string> list;
  for (const Finding& f : out.findings) {
    list.push_back(std::to_string(f.line) + " " + std::string(rule_catalog()[f.rule].id));
  }
  std::sort(list.begin(), list.end());
  return list;
}

TEST(AsmClassification, PtxByMnemonicAndQualifiers) {
  auto c = classify_asm("mov.u32 %0, %%laneid;", false);
  EXPECT_EQ(c.kind, AsmKind::Ptx);
  EXPECT_EQ(c.mnemonics, (std::vector<std::string>{"mov.u32"}));
  EXPECT_EQ(c.registers, (std::vector<std::string>{"%laneid"}));
  EXPECT_FALSE(c.tensor);
}

TEST(AsmClassification, TensorInstructionsAcrossEscapedNewlinesAndPredicates) {
  auto c = classify_asm(
      "{\\n .reg .pred p;\\n @p cp.async.cg.shared.global [%0], [%1], 16;\\n"
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0}, {%1}, {%2}, {%3};\\n}",
      true);
  EXPECT_EQ(c.kind, AsmKind::Ptx);
  EXPECT_TRUE(c.tensor);
  EXPECT_EQ(c.mnemonics,
            (std::vector<std::string>{"cp.async.cg.shared.global",
                                      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"}));
}

TEST(AsmClassification, HostIsasAreNotPtx) {
  for (const char* text :
       {"cpuid", "rdtsc", "pause", "mov %%eax, %0", "dmb ish", "fence.i", "fcvt.ps.f16 %0, %1",
        "mov.m.x m0, %0, 0", "cvt.s.d $f0, $f2", "add.uw a0, a1, a2", "lock; xaddl %0, %1"}) {
    EXPECT_EQ(classify_asm(text, true).kind, AsmKind::Unknown) << text;
  }
}

TEST(AsmClassification, AmdgcnIsRecognised) {
  auto c = classify_asm("v_dot2_f32_f16 %0, %1, %2, %0\\n s_waitcnt lgkmcnt(0)", false);
  EXPECT_EQ(c.kind, AsmKind::Amdgcn);
  EXPECT_EQ(c.mnemonics, (std::vector<std::string>{"v_dot2_f32_f16", "s_waitcnt"}));
}

TEST(AsmClassification, UndottedTrapCountsOnlyInCudaCode) {
  EXPECT_EQ(classify_asm("trap;", true).kind, AsmKind::Ptx);
  EXPECT_EQ(classify_asm("trap;", false).kind, AsmKind::Unknown);
}

TEST(AsmRule, ConcatenatedLiteralsFormOneStatementAndOneFinding) {
  FileAnalysis out = analyze(
      "__device__ void f(unsigned a) {\n"
      "  asm volatile(\"prmt.b32 %0, %1, %1, 0;\"\n"
      "               \"lop3.b32 %0, %0, %1, %1, 0xE8;\" : \"+r\"(a));\n"
      "}\n");
  ASSERT_EQ(out.findings.size(), 1u);
  EXPECT_EQ(rule_catalog()[out.findings[0].rule].id, "GP-ASM-001");
  EXPECT_EQ(out.findings[0].line, 2u);
  EXPECT_EQ(out.findings[0].detail, "prmt.b32, lop3.b32");
}

TEST(AsmRule, HipBranchAsmIsAnAmdPathSignNotAFinding) {
  FileAnalysis out = analyze(
      "#ifdef __HIP_PLATFORM_AMD__\n"
      "__device__ float f(float a) { asm(\"v_mov_b32 %0, %1\" : \"=v\"(a) : \"v\"(a)); return a; "
      "}\n"
      "#else\n"
      "__device__ float f(float a) { asm(\"mov.b32 %0, %1;\" : \"=f\"(a) : \"f\"(a)); return a; }\n"
      "#endif\n");
  EXPECT_EQ(findings(out), (std::vector<std::string>{"4 GP-ASM-001"}));
  bool amd_asm = std::any_of(out.amd_path.begin(), out.amd_path.end(), [](const AmdPathSign& s) {
    return s.kind == AmdPathKind::AmdAsm && s.line == 2 &&
           s.detail.find("v_mov_b32") != std::string::npos;
  });
  EXPECT_TRUE(amd_asm);
}

TEST(AsmRule, X86AsmInHeaderIsIgnored) {
  FileAnalysis out = analyze(
      "static inline void f() { asm volatile(\"pause\"); asm(\"mov.m.x a0\"); }\n", "cpu.h");
  EXPECT_TRUE(out.findings.empty());
  EXPECT_TRUE(out.amd_path.empty());
}

TEST(WarpRules, LaneMathNeedsALaneLikeOperand) {
  FileAnalysis out = analyze(
      "__global__ void k(int n) {\n"
      "  int lane = threadIdx.x % 32;\n"
      "  int rounded = (n + 31) / 32;\n"
      "  int warp = tid >> 5;\n"
      "  int bits = n >> 5;\n"
      "}\n");
  EXPECT_EQ(findings(out), (std::vector<std::string>{"2 GP-WARP-001", "4 GP-WARP-001"}));
}

TEST(WarpRules, WarpSizeDefineIsSilencedByWidthParameterisedShuffles) {
  std::string define = "#define WARP_SIZE 32\n";
  std::string shuffle =
      "__device__ float r(float x) { return __shfl_xor_sync(~0ull, x, 1, WARP_SIZE); }\n";
  EXPECT_EQ(findings(analyze(define)), (std::vector<std::string>{"1 GP-WARP-002"}));
  EXPECT_EQ(findings(analyze(define + shuffle)), (std::vector<std::string>{"2 GP-WARP-009"}));
}

TEST(WarpRules, WarpSizeDefineIsSilencedByA64WideAlternative) {
  FileAnalysis out = analyze(
      "#if defined(__GFX9__)\n"
      "#define BNB_WARP_SIZE 64\n"
      "#else\n"
      "#define BNB_WARP_SIZE 32\n"
      "#endif\n");
  EXPECT_TRUE(findings(out).empty());
}

// 0xffffffff matters as an all-lanes test against a ballot result (GP-WARP-004) and as the mask
// of a *_sync call (GP-WARP-014); as a plain bit mask it is nothing.
// Found by analyze_file_fuzzer: a ballot whose `=` is the file's first token made the 32-bit
// result check step before token 0 (prev_code of "none" read past the tokens under ASan). The
// prev_code contract: none before the first token, and none before "none".
TEST(WarpRules, BallotAtTheStartOfTheFileIsNoBallotVariable) {
  FileAnalysis out = analyze("= __ballot_sync(0xffffffff, p);\n");
  EXPECT_EQ(findings(out), (std::vector<std::string>{"1 GP-WARP-009", "1 GP-WARP-014"}));
  TokenStream tokens;
  lex_cuda("x = 1;", tokens);
  FileAnalysis unused;
  source_rules::SourceScratch scratch;
  const SharedString path("t.cu");
  source_rules::SourceContext ctx(path, tokens, unused, scratch);
  EXPECT_EQ(source_rules::prev_code(ctx, 0), SIZE_MAX);
  EXPECT_EQ(source_rules::prev_code(ctx, SIZE_MAX), SIZE_MAX);
  EXPECT_EQ(source_rules::prev_code(ctx, 1), 0u);
}

TEST(WarpRules, FullMaskMattersAgainstABallotResultAndAsASyncMask) {
  FileAnalysis out = analyze(
      "__device__ void f(int p) {\n"
      "  unsigned m = __ballot_sync(0xffffffff, p);\n"
      "  bool all = m == 0xffffffff;\n"
      "  bool low = (p & 0xffffffff) != 0;\n"
      "}\n");
  EXPECT_EQ(findings(out), (std::vector<std::string>{"2 GP-WARP-003", "2 GP-WARP-009",
                                                     "2 GP-WARP-014", "3 GP-WARP-004"}));
}

TEST(CallRules, TypesDeclarationsAndFunctionPointersAreNotCalls) {
  FileAnalysis out = analyze(
      "typedef cublasStatus_t (*sgemm_t)(cublasHandle_t);\n"
      "cublasStatus_t cublasCreate_v2(cublasHandle_t* handle);\n"
      "#define cudaMalloc hipMalloc\n"
      "void f(cublasHandle_t* h) {\n"
      "  cublasCreate(h);\n"
      "  return;\n"
      "}\n");
  EXPECT_EQ(findings(out), (std::vector<std::string>{"5 GP-LIB-001"}));
}

TEST(CallRules, FindingsCarryColumnDetailAndExcerpt) {
  FileAnalysis out = analyze("void f() {\n    ncclAllReduce(a, b, n, t, op, comm, s);\n}\n");
  ASSERT_EQ(out.findings.size(), 1u);
  EXPECT_EQ(out.findings[0].column, 5u);
  EXPECT_EQ(out.findings[0].detail, "ncclAllReduce");
  EXPECT_EQ(out.findings[0].excerpt, "ncclAllReduce(a, b, n, t, op, comm, s);");
}

TEST(LibraryRules, NvinferWithoutTensorRtIncludeIsTheWeakRule) {
  EXPECT_EQ(findings(analyze("nvinfer1::DataType t;\nnvinfer1::DataType u;\n")),
            (std::vector<std::string>{"1 GP-LIB-008"}));
  EXPECT_EQ(findings(analyze("#include <NvInfer.h>\nnvinfer1::DataType t;\n")),
            (std::vector<std::string>{"1 GP-LIB-007"}));
}

TEST(AmdPath, VendorShimNeedsThreeRemaps) {
  FileAnalysis two = analyze("#define cudaMalloc hipMalloc\n#define cudaFree hipFree\n", "hip.h");
  EXPECT_TRUE(two.amd_path.empty());
  FileAnalysis three = analyze(
      "#define cudaMalloc hipMalloc\n#define cudaFree hipFree\n#define cublasSgemm hipblasSgemm\n",
      "hip.h");
  ASSERT_EQ(three.amd_path.size(), 1u);
  EXPECT_EQ(three.amd_path[0].kind, AmdPathKind::VendorShimHeader);
  EXPECT_EQ(three.amd_path[0].line, 1u);
  EXPECT_EQ(three.amd_path[0].detail, "3 #defines of CUDA names to HIP names");
  EXPECT_TRUE(three.findings.empty());
}

TEST(SourceRules, EveryFindingNamesARuleOfASourceFamily) {
  FileAnalysis out = analyze(
      "#include <cuda_fp8.h>\n"
      "__global__ void k(float* x) { __trap(); __nanosleep(1); x[0] = clock64(); }\n");
  EXPECT_EQ(findings(out), (std::vector<std::string>{"1 GP-TYPE-001", "2 GP-DEV-001",
                                                     "2 GP-DEV-002", "2 GP-DEV-003"}));
}

}  // namespace
}  // namespace gpuport
