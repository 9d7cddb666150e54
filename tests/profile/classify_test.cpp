// Kernel classes: every rule of the table on its example, the order pitfalls of the trace-format
// notes (§6.3), the CUTLASS template-argument owner, the launch-API refinement and the matchers.
#include "profile/classify.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "profile/classify_rules.h"
#include "profile/name_glob.h"

namespace gpuport {
namespace {

Classification classify(std::string_view raw, LaunchApi launch = LaunchApi::Unknown) {
  return classify_kernel(parse_kernel_name(raw), launch);
}

TEST(ClassifyRules, EveryRuleClassifiesItsOwnExample) {
  for (const ClassRule& rule : class_rules()) {
    const Classification c = classify(rule.example);
    EXPECT_EQ(c.rule.substr(0, rule.id.size()), rule.id) << rule.example;
    if (rule.match != RuleMatch::TemplateOwner) {
      EXPECT_EQ(c.klass, rule.klass) << rule.id;
      EXPECT_EQ(c.owner, rule.owner) << rule.id;
      EXPECT_EQ(c.own_code, rule.own_code) << rule.id;
    }
    EXPECT_FALSE(rule.seen_in.empty()) << rule.id;
  }
}

TEST(ClassifyRules, IdsAreUniqueAndPatternsWellFormed) {
  std::set<std::string_view> ids;
  for (const ClassRule& rule : class_rules()) {
    EXPECT_TRUE(ids.insert(rule.id).second) << "duplicate " << rule.id;
    EXPECT_FALSE(rule.pattern.empty()) << rule.id;
    std::string_view rest = rule.pattern;
    while (true) {
      const std::size_t bar = rest.find('|');
      const std::string_view alternative = rest.substr(0, bar);
      EXPECT_FALSE(alternative.empty()) << rule.id;
      if (rule.match == RuleMatch::Glob) {
        EXPECT_TRUE(NameGlob(alternative).valid()) << rule.id << ": " << alternative;
      }
      if (bar == std::string_view::npos)
        break;
      rest.remove_prefix(bar + 1);
    }
  }
  EXPECT_GE(ids.size(), 50u);
}

TEST(ClassifyRules, DocumentationListsEveryRule) {
  std::ifstream in(std::filesystem::path(GPUPORT_SOURCE_DIR) / "docs/kernel-classes.md");
  ASSERT_TRUE(in) << "docs/kernel-classes.md";
  std::stringstream text;
  text << in.rdbuf();
  for (const ClassRule& rule : class_rules()) {
    EXPECT_NE(text.str().find("`" + std::string(rule.id) + "`"), std::string::npos) << rule.id;
  }
}

TEST(Classify, ClassNamesAreKebabCase) {
  EXPECT_EQ(class_name(KernelClass::VendorBlas), "vendor-blas");
  EXPECT_EQ(class_name(KernelClass::VendorDnn), "vendor-dnn");
  EXPECT_EQ(class_name(KernelClass::VendorOther), "vendor-other");
  EXPECT_EQ(class_name(KernelClass::Framework), "framework");
  EXPECT_EQ(class_name(KernelClass::Attention), "attention");
  EXPECT_EQ(class_name(KernelClass::Communication), "communication");
  EXPECT_EQ(class_name(KernelClass::Jit), "jit");
  EXPECT_EQ(class_name(KernelClass::TensorRt), "tensorrt");
  EXPECT_EQ(class_name(KernelClass::ServingEngine), "serving-engine");
  EXPECT_EQ(class_name(KernelClass::Cutlass), "cutlass");
  EXPECT_EQ(class_name(KernelClass::Memory), "memory");
  EXPECT_EQ(class_name(KernelClass::Unknown), "unknown");
}

TEST(Classify, LaunchApiOfTraceSpellings) {
  EXPECT_EQ(launch_api_of("cudaLaunchKernel"), LaunchApi::Runtime);
  EXPECT_EQ(launch_api_of("cudaLaunchKernel_v7000"), LaunchApi::Runtime);
  EXPECT_EQ(launch_api_of("cudaLaunchKernel_ptsz_v7000"), LaunchApi::Runtime);
  EXPECT_EQ(launch_api_of("hipLaunchKernel"), LaunchApi::Runtime);
  EXPECT_EQ(launch_api_of("cudaLaunchCooperativeKernel_v9000"), LaunchApi::Runtime);
  EXPECT_EQ(launch_api_of("cudaLaunchKernelExC"), LaunchApi::RuntimeEx);
  EXPECT_EQ(launch_api_of("cudaLaunchKernelExC_v11060"), LaunchApi::RuntimeEx);
  EXPECT_EQ(launch_api_of("hipExtModuleLaunchKernel"), LaunchApi::RuntimeEx);
  EXPECT_EQ(launch_api_of("cuLaunchKernel"), LaunchApi::Module);
  EXPECT_EQ(launch_api_of("cuLaunchKernelEx"), LaunchApi::Module);
  EXPECT_EQ(launch_api_of("hipModuleLaunchKernel"), LaunchApi::Module);
  EXPECT_EQ(launch_api_of("cudaGraphLaunch_v10000"), LaunchApi::Graph);
  EXPECT_EQ(launch_api_of("hipGraphLaunch"), LaunchApi::Graph);
  EXPECT_EQ(launch_api_of("cudaMemcpyAsync_v3020"), LaunchApi::Unknown);
  EXPECT_EQ(launch_api_of("cudaLaunchKernel_vX"), LaunchApi::Unknown);
  EXPECT_EQ(launch_api_of(""), LaunchApi::Unknown);
  EXPECT_EQ(launch_api_name(LaunchApi::Runtime), "runtime");
  EXPECT_EQ(launch_api_name(LaunchApi::RuntimeEx), "runtime-ex");
  EXPECT_EQ(launch_api_name(LaunchApi::Module), "module");
  EXPECT_EQ(launch_api_name(LaunchApi::Graph), "graph");
  EXPECT_EQ(launch_api_name(LaunchApi::Unknown), "unknown");
}

TEST(Classify, LaunchApiRefinesOnlyWhatNoRuleKnows) {
  // A CUDA-named user kernel on ROCm (aiter's results.stats.csv): no rule knows it.
  const std::string user = "hk_moe_stage1_fp8_fused_act_kernel";
  const Classification runtime = classify(user, LaunchApi::Runtime);
  EXPECT_EQ(runtime.klass, KernelClass::Unknown);
  EXPECT_TRUE(runtime.own_code);
  EXPECT_EQ(runtime.rule, "launch.runtime");
  EXPECT_TRUE(classify(user, LaunchApi::RuntimeEx).own_code);

  const Classification module = classify("_topk_forward", LaunchApi::Module);
  EXPECT_EQ(module.klass, KernelClass::Jit);
  EXPECT_FALSE(module.own_code);
  EXPECT_EQ(module.rule, "launch.module");

  for (const LaunchApi api : {LaunchApi::Graph, LaunchApi::Unknown}) {
    const Classification none = classify(user, api);
    EXPECT_EQ(none.klass, KernelClass::Unknown);
    EXPECT_FALSE(none.own_code);
    EXPECT_EQ(none.rule, "");
    EXPECT_EQ(none.owner, "");
  }
  // A known kernel keeps its rule whatever launched it.
  EXPECT_EQ(classify("nvjet_tst_192x8_64x8_4x1_v_bz_TNT", LaunchApi::Runtime).rule,
            "blas.cublas-nvjet");
}

TEST(Classify, CutlassBelongsToItsTemplateArgument) {
  const Classification deepseek =
      classify("cutlass::device_kernel<dpsk::grouped_gemm::cuda::fp8_ptp128c::GemmKernel>");
  EXPECT_EQ(deepseek.klass, KernelClass::Cutlass);
  EXPECT_EQ(deepseek.owner, "dpsk");
  EXPECT_TRUE(deepseek.own_code);
  EXPECT_EQ(deepseek.rule, "cutlass.template-owner");

  const Classification fa3 = classify(
      "void cutlass::device_kernel<flash::FlashAttnBwd<flash::CollectiveMainloopBwd<2, "
      "cute::tuple<cute::C<64>, cute::C<128> > > > >(flash::FlashAttnBwd<…>::Params)");
  EXPECT_EQ(fa3.klass, KernelClass::Attention);
  EXPECT_EQ(fa3.owner, "FlashAttention");
  EXPECT_FALSE(fa3.own_code);
  EXPECT_EQ(fa3.rule, "cutlass.template-owner:attention.flash-attn");

  const Classification vllm = classify(
      "void cutlass::device_kernel<vllm::cutlass_3x_gemm<cutlass::float_e4m3_t>::GemmKernel>("
      "vllm::cutlass_3x_gemm<cutlass::float_e4m3_t>::GemmKernel::Params)");
  EXPECT_EQ(vllm.owner, "vLLM");

  const Classification library =
      classify("void cutlass::Kernel<cutlass::gemm::kernel::GemmUniversal<float> >(…)");
  EXPECT_EQ(library.klass, KernelClass::Cutlass);
  EXPECT_EQ(library.owner, "CUTLASS");

  const Classification anonymous =
      classify("cutlass::device_kernel<(anonymous namespace)::MyGemm<float> >(…)");
  EXPECT_EQ(anonymous.owner, "(anonymous namespace)");
  EXPECT_TRUE(anonymous.own_code);

  // cuBLAS's own instances name a `cutlass_NN_…` type: not the team's CUTLASS.
  const Classification cublas = classify(
      "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_bf16_256x128_64x3_tn_align2>("
      "cutlass_80_tensorop_bf16_s16816gemm_bf16_256x128_64x3_tn_align2::Params)");
  EXPECT_EQ(cublas.klass, KernelClass::VendorBlas);
  EXPECT_EQ(cublas.owner, "cuBLAS (CUTLASS kernels shipped in cuBLAS)");
  // Nested wrappers stop after one level; a wrapper without an argument is plain CUTLASS.
  EXPECT_EQ(classify("cutlass::device_kernel<cutlass::device_kernel<x::K> >").owner, "CUTLASS");
  EXPECT_EQ(classify("cutlass::device_kernel<>").rule, "cutlass.library");
  EXPECT_EQ(classify("cutlass::device_kernel<").rule, "cutlass.library");
}

// §6.3: first match wins, so these orders matter.
TEST(Classify, OrderPitfalls) {
  EXPECT_EQ(classify("void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<"
                     "64> >(pytorch_flash::Flash_fwd_params)")
                .owner,
            "PyTorch SDPA (FlashAttention-2 in ATen)");
  EXPECT_EQ(classify("void flash_fwd_kernel<Flash_fwd_kernel_traits<64> >(Flash_fwd_params)").owner,
            "FlashAttention");
  // llama.cpp's flash attention is ggml's, not FlashAttention.
  EXPECT_EQ(classify("void flash_attn_ext_vec<128, 1, (ggml_type)1, (ggml_type)1, false>(…)").owner,
            "ggml");
  // CK's batch-prefill FMHA carries FlashInfer's kernel name inside ck_tile::.
  EXPECT_EQ(classify("void ck_tile::kentry<2, "
                     "ck_tile::FmhaBatchPrefillWithPagedKVCacheKernel<…> >(…)")
                .owner,
            "Composable Kernel (FMHA)");
  // TensorRT-LLM kernels taking a flashinfer:: parameter are TensorRT-LLM's.
  EXPECT_EQ(classify("void tensorrt_llm::kernels::quantize_with_block_size<…>(int, "
                     "flashinfer::QuantizationSFLayout)")
                .owner,
            "TensorRT-LLM");
  // TensorRT's own GEMMs before the arch-prefixed cuBLAS names.
  EXPECT_EQ(classify("trt_ampere_h16816gemm_64x64_ldg8_relu_stages_64x5_tn_v1").klass,
            KernelClass::TensorRt);
  EXPECT_EQ(classify("ampere_sgemm_32x32_sliced1x4_tn").owner, "cuBLAS");
  EXPECT_EQ(classify("ampere_gcgemm_64x64_nt").owner, "cuBLAS");
  // `thrust::pair` inside ATen's arguments is not Thrust; `vllm::` only inside arguments is vLLM.
  EXPECT_EQ(
      classify("void at::native::(anonymous namespace)::sort_kernel<float>(thrust::pair<float, "
               "long>*, int)")
          .owner,
      "PyTorch ATen");
  EXPECT_EQ(classify("void paged_attention_ll4mi_QKV_mfma16_kernel<__hip_bfloat16, "
                     "(vllm::Fp8KVCacheDataType)0, 16, 128>(…)")
                .owner,
            "vLLM");
  EXPECT_EQ(classify("at_cuda_detail::cub::DeviceScanKernel<…>").owner, "CUB (in ATen)");
  // ATen's vendored AOTriton before any Triton guess from the launch API.
  EXPECT_EQ(classify("attn_fwd", LaunchApi::Module).owner, "AOTriton (PyTorch SDPA on ROCm)");
}

TEST(Classify, NamesAreDemangledAndStrippedBeforeMatching) {
  EXPECT_EQ(
      classify("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIN3c104HalfE"
               "EESt5arrayIPcLm1EEEEviT0_T1_")
          .owner,
      "PyTorch ATen");
  EXPECT_EQ(classify("_ZN2at6native13reduce_kernelILi512ELi1E").owner, "PyTorch ATen");  // cut off
  EXPECT_EQ(classify("__amd_rocclr_copyBuffer.kd").klass, KernelClass::Memory);
  EXPECT_EQ(classify("void rms_norm_f32<1024, true, false>(float const*) [clone .kd]").owner,
            "ggml");
  EXPECT_EQ(classify("std::enable_if<!(false), void>::type internal::gemvx::kernel<int, "
                     "cublasGemvParamsEx<int> >(cublasGemvParamsEx<int>)")
                .owner,
            "cuBLAS");
  // RCCL keeps NCCL's names.
  EXPECT_EQ(
      classify("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)")
          .klass,
      KernelClass::Communication);
}

TEST(Classify, UnknownAndArbitraryNames) {
  for (const std::string name : {"", " ", "x", "<<<<", "(((", "void", "::", "\xff\xfe"}) {
    const Classification c = classify(name);
    EXPECT_EQ(c.klass, KernelClass::Unknown) << name;
    EXPECT_EQ(c.rule, "") << name;
  }
}

TEST(Glob, MatchesWholeNamesWithRunsAndDigits) {
  EXPECT_TRUE(NameGlob("sm#_xmma_*_cublas").matches("sm90_xmma_gemm_x_cublas"));
  EXPECT_TRUE(NameGlob("sm#_xmma_*_cublas").matches("sm100_xmma__cublas"));
  EXPECT_FALSE(NameGlob("sm#_xmma_*_cublas").matches("sm_xmma_gemm_cublas"));
  EXPECT_FALSE(NameGlob("sm#_xmma_*_cublas").matches("smX0_xmma_gemm_cublas"));
  EXPECT_FALSE(NameGlob("sm#_xmma_*_cublas").matches("sm90_xmma_gemm_cublas_trt"));
  EXPECT_TRUE(NameGlob("*").matches(""));
  EXPECT_TRUE(NameGlob("").matches(""));
  EXPECT_FALSE(NameGlob("").matches("a"));
  EXPECT_TRUE(NameGlob("a*b*c").matches("aXbYbZc"));
  EXPECT_FALSE(NameGlob("a*b*c").matches("aXbYbZ"));
  EXPECT_TRUE(NameGlob("bmm_*_sm#f").matches("bmm_x_sm100f"));
  EXPECT_FALSE(NameGlob("bmm_*_sm#f").matches("bmm_x_sm100fa"));
  EXPECT_FALSE(NameGlob(std::string(70, 'a')).valid());
  EXPECT_FALSE(NameGlob(std::string(70, 'a')).matches(std::string(70, 'a')));
  // No backtracking blow-up.
  EXPECT_FALSE(NameGlob("*a*a*a*a*a*a*a*a*b").matches(std::string(200000, 'a')));
}

}  // namespace
}  // namespace gpuport
