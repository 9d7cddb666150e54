// Kernel names: demangling, what is stripped for display, qualified/base on the awkward names of
// real traces, and one canonical spelling for nsys and Kineto (GNU demangler) names.
#include "profile/kernel_name.h"

#include <random>
#include <string>

#include <gtest/gtest.h>

#include "profile/demangle.h"

namespace gpuport {
namespace {

TEST(KernelName, DemanglesItaniumNames) {
  const KernelName name = parse_kernel_name(
      "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIN3c104HalfEEESt5arrayIPcL"
      "m1EEEEviT0_T1_");
  EXPECT_EQ(name.display,
            "at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<c10::Half>, "
            "std::array<char*, 1ul> >(int, at::native::FillFunctor<c10::Half>, std::array<char*, "
            "1ul>)");
  EXPECT_EQ(name.qualified, "at::native::vectorized_elementwise_kernel");
  EXPECT_EQ(name.base, "vectorized_elementwise_kernel");
  EXPECT_EQ(name.raw.substr(0, 10), "_ZN2at6nat");
}

TEST(KernelName, DemanglesBfloat16ThatTheDemanglerDoesNotKnow) {
  // Raw in the MI300X SGLang trace; DF16b (std::bfloat16_t) is newer than GCC 12's demangler.
  const KernelName name = parse_kernel_name(
      "_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_"
      "diiiiiiib");
  EXPECT_EQ(
      name.display,
      "aiter::add_rmsnorm_quant_kernel<std::bfloat16_t, std::bfloat16_t, 64, 8, false, false, "
      "true, 1>(std::bfloat16_t*, std::bfloat16_t*, float*, std::bfloat16_t*, "
      "std::bfloat16_t*, std::bfloat16_t*, double, int, int, int, int, int, int, int, bool)");
  EXPECT_EQ(name.qualified, "aiter::add_rmsnorm_quant_kernel");
}

TEST(KernelName, Float16StandInKeepsOtherNamesIntact) {
  EXPECT_EQ(demangle_symbol("_Z6kernelPDF16_S_"), "kernel(_Float16*, _Float16*)");
  // GCC 12 reads `DF16b` after another type as a fixed-point type (`bool _Accum`).
  EXPECT_EQ(demangle_symbol("_Z1fiDF16b"), "f(int, std::bfloat16_t)");
  EXPECT_EQ(demangle_symbol("_Z1fDn"), "f(decltype(nullptr))");
  EXPECT_EQ(demangle_symbol("_Z1fv"), "f()");
  EXPECT_EQ(demangle_symbol("_Z"), std::nullopt);
  EXPECT_EQ(demangle_symbol("_Zfoo"), std::nullopt);
  EXPECT_EQ(demangle_symbol(std::string("_Z1f\0v", 6)), std::nullopt);
}

TEST(KernelName, MangledNameTheDemanglerRejectsKeepsItsTextAndReadsItsNamespaces) {
  // `Tn` (a template parameter declaration) is newer than the demangler; seen in the SGLang trace.
  const std::string raw =
      "_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16TnPFT_RKS3_EXadL_Z4siluIS2_ES3_"
      "S5_EEEEvPS3_PS4_i";
  const KernelName name = parse_kernel_name(raw);
  EXPECT_EQ(name.display, raw);
  EXPECT_EQ(name.normalized, raw);
  EXPECT_EQ(name.qualified, "sgl_hip::activation::act_and_mul_kernel");
  EXPECT_EQ(name.base, "act_and_mul_kernel");
}

TEST(KernelName, MangledQualifiedNameReadsStdAnonymousAndPlainNames) {
  EXPECT_EQ(mangled_qualified_name("_ZNSt6vectorIiE9push_backEv"), "std::vector");
  EXPECT_EQ(mangled_qualified_name("_ZN12_GLOBAL__N_13fooEv"), "(anonymous namespace)::foo");
  EXPECT_EQ(mangled_qualified_name("_Z3foov"), "foo");
  EXPECT_EQ(mangled_qualified_name("_ZL3barv"), "bar");
  EXPECT_EQ(mangled_qualified_name("_ZN99tooshort"), "");
  EXPECT_EQ(mangled_qualified_name("notmangled"), "");
}

TEST(KernelName, StripsRocprofCloneSuffixes) {
  const KernelName cloned = parse_kernel_name(
      "void mul_mat_q<(ggml_type)2, 128, false>(char const*, int const*, int const*, int const*, "
      "float*, float*, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, "
      "int, int) [clone .kd]");
  EXPECT_EQ(cloned.display.substr(0, 45), "mul_mat_q<(ggml_type)2, 128, false>(char cons");
  EXPECT_EQ(cloned.display.back(), ')');
  EXPECT_EQ(cloned.normalized, "mul_mat_q<(ggml_type)2, 128, false>");
  EXPECT_EQ(cloned.base, "mul_mat_q");

  EXPECT_EQ(parse_kernel_name("__amd_rocclr_fillBufferAligned.kd").display,
            "__amd_rocclr_fillBufferAligned");
  EXPECT_EQ(parse_kernel_name("__amd_rocclr_copyBuffer.kd  ").base, "__amd_rocclr_copyBuffer");
  EXPECT_EQ(parse_kernel_name("_Z3fooi.kd").display, "foo(int)");
  EXPECT_EQ(parse_kernel_name("foo(int) [clone .constprop.0] [clone .kd]").display, "foo(int)");
}

TEST(KernelName, StripsVoidAndSfinaeReturnTypes) {
  const KernelName vllm = parse_kernel_name(
      "std::enable_if<(((8)>(0)))&&vllm::_typeConvert<c10::BFloat16>::exists, void>::type "
      "vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, long, c10::BFloat16*, "
      "c10::BFloat16 const*, float, int, int)");
  EXPECT_EQ(vllm.display,
            "vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, long, "
            "c10::BFloat16*, c10::BFloat16 const*, float, int, int)");
  EXPECT_EQ(vllm.qualified, "vllm::fused_add_rms_norm_kernel");
  EXPECT_EQ(vllm.normalized, "vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>");

  const KernelName gemvx = parse_kernel_name(
      "std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, float, float, false, "
      "true, true, false, 7, false, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<float "
      "const>, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, "
      "float> >(cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<float const>, "
      "cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, "
      "float>)");
  EXPECT_EQ(gemvx.qualified, "internal::gemvx::kernel");
  EXPECT_EQ(gemvx.base, "kernel");
  EXPECT_EQ(gemvx.display.substr(0, 24), "internal::gemvx::kernel<");

  const KernelName anonymous = parse_kernel_name(
      "void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(c10::BFloat16*, "
      "unsigned long, unsigned int**, unsigned long, unsigned long)");
  EXPECT_EQ(anonymous.display.substr(0, 23), "(anonymous namespace)::");
  EXPECT_EQ(anonymous.qualified, "(anonymous namespace)::multimem_all_reduce_kernel");
  EXPECT_EQ(anonymous.base, "multimem_all_reduce_kernel");
}

TEST(KernelName, KeepsOtherWordsBeforeTheName) {
  // Only `void` and SFINAE types are dropped: a non-C++ activity name stays whole.
  const KernelName copy = parse_kernel_name("Memcpy HtoD (Host -> Device)");
  EXPECT_EQ(copy.display, "Memcpy HtoD (Host -> Device)");
  EXPECT_EQ(copy.qualified, "Memcpy HtoD (Host -> Device)");
  EXPECT_EQ(copy.base, "Memcpy HtoD (Host -> Device)");
  EXPECT_EQ(parse_kernel_name("Memset   (Device)").normalized, "Memset (Device)");
  const KernelName other = parse_kernel_name("static foo(int)");
  EXPECT_EQ(other.display, "static foo(int)");
  EXPECT_EQ(other.qualified, "foo");
}

TEST(KernelName, QualifiedAndBaseOfNestedTemplatesAndLambdas) {
  const KernelName reduce = parse_kernel_name(
      "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, "
      "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "
      "float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> "
      ">(at::native::ReduceOp<float, at::native::func_wrapper_t<float, "
      "at::native::sum_functor<float, "
      "float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, "
      "float, 4>)");
  EXPECT_EQ(reduce.qualified, "at::native::reduce_kernel");
  EXPECT_EQ(reduce.base, "reduce_kernel");
  EXPECT_EQ(reduce.normalized,
            "at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, "
            "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "
            "float>::operator()::{lambda(float, float)#1}>, unsigned int, float, 4>>");

  const KernelName cat = parse_kernel_name(
      "void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous "
      "namespace)::OpaqueType<2u>, unsigned int, 4, 64, 64>(at::native::(anonymous "
      "namespace)::OpaqueType<2u>*, unsigned int)");
  EXPECT_EQ(cat.qualified, "at::native::(anonymous namespace)::CatArrayBatchedCopy");
  EXPECT_EQ(cat.base, "CatArrayBatchedCopy");

  const KernelName nsys = parse_kernel_name(
      "<unnamed>::nvfuser_none_f0_c0_r0_g0(<unnamed>::Tensor<<unnamed>::__half, (int)3, (int)3>, "
      "<unnamed>::TensorMap)");
  EXPECT_EQ(nsys.qualified, "(anonymous namespace)::nvfuser_none_f0_c0_r0_g0");
  EXPECT_EQ(nsys.base, "nvfuser_none_f0_c0_r0_g0");
  EXPECT_EQ(nsys.display.substr(0, 11), "<unnamed>::");
}

TEST(KernelName, FunctionPointerTemplateArguments) {
  const KernelName gated = parse_kernel_name(
      "void unary_gated_op_kernel<&(op_silu(float)), float>(float const*, float const*, float*, "
      "long, long, long, long) [clone .kd]");
  EXPECT_EQ(gated.qualified, "unary_gated_op_kernel");
  EXPECT_EQ(gated.normalized, "unary_gated_op_kernel<&(op_silu), float>");
  EXPECT_EQ(first_template_argument(gated), "&(op_silu(float))");

  const KernelName copy = parse_kernel_name(
      "void cpy_scalar<&(void cpy_1_scalar<float, float>(char const*, char*))>(char const*, char*, "
      "long, long) [clone .kd]");
  EXPECT_EQ(copy.qualified, "cpy_scalar");
  EXPECT_EQ(copy.normalized, "cpy_scalar<&(void cpy_1_scalar<float, float>)>");
}

TEST(KernelName, OperatorNamesAndAbiTags) {
  const KernelName call = parse_kernel_name("std::less<void>::operator()<int>(int const&) const");
  EXPECT_EQ(call.qualified, "std::less::operator()");
  EXPECT_EQ(call.base, "operator()");
  EXPECT_EQ(call.normalized, "std::less<void>::operator()<int>");
  EXPECT_EQ(parse_kernel_name("ns::Outer<int>::operator<<(std::ostream&)").qualified,
            "ns::Outer::operator<<");
  EXPECT_EQ(parse_kernel_name("ns::Outer<int>::operator<(int)").normalized,
            "ns::Outer<int>::operator<");
  const KernelName tagged =
      parse_kernel_name("void ns::f[abi:cxx11]<int>(std::__cxx11::basic_string<char>)");
  EXPECT_EQ(tagged.qualified, "ns::f");
  EXPECT_EQ(tagged.normalized, "ns::f<int>");
  EXPECT_EQ(parse_kernel_name("::global_kernel(int)").qualified, "global_kernel");
}

TEST(KernelName, FirstTemplateArgumentOfWrappers) {
  const KernelName fa3 = parse_kernel_name(
      "cutlass::device_kernel<flash::FlashAttnBwd<cute::tuple<cute::C<64>, cute::C<128> >, "
      "flash::CollectiveMainloopBwd<2> > >(flash::FlashAttnBwd<cute::tuple<cute::C<64>, "
      "cute::C<128> >, flash::CollectiveMainloopBwd<2> >::Params)");
  EXPECT_EQ(first_template_argument(fa3),
            "flash::FlashAttnBwd<cute::tuple<cute::C<64>, cute::C<128> >, "
            "flash::CollectiveMainloopBwd<2> >");
  EXPECT_EQ(first_template_argument(parse_kernel_name("foo(int)")), "");
  EXPECT_EQ(first_template_argument(parse_kernel_name("foo<>(int)")), "");
}

// §3.3 of the trace-format notes: the same kernels as nsys and as Kineto spell them.
TEST(KernelName, NsysAndKinetoSpellingsNormalizeEqual) {
  struct Pair {
    const char* nsys;
    const char* kineto;
  };
  const Pair pairs[] = {
      {"void at::native::vectorized_elementwise_kernel<(int)4, "
       "at::native::CUDAFunctor_add<c10::Half>, "
       "std::array<char *, (unsigned long)3>>(int, T2, T3)",
       "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::Half>, "
       "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::Half>, std::array<char*, "
       "3ul>)"},
      {"void at::native::vectorized_elementwise_kernel<(int)4, "
       "at::native::<unnamed>::CompareFunctor<"
       "c10::Half>, std::array<char *, (unsigned long)3>>(int, T2, T3)",
       "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
       "namespace)::CompareFunctor<c10::Half>, std::array<char*, 3ul> >(int, "
       "at::native::(anonymous "
       "namespace)::CompareFunctor<c10::Half>, std::array<char*, 3ul>)"},
      {"void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<bool, "
       "at::native::func_wrapper_t<bool, at::native::and_kernel_cuda(at::TensorIterator "
       "&)::[lambda() (instance 1)]::operator ()() const::[lambda() (instance 12)]::operator ()() "
       "const::[lambda(bool, bool) (instance 1)]>, unsigned int, bool, (int)4>>(T3)",
       "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<bool, "
       "at::native::func_wrapper_t<bool, "
       "at::native::and_kernel_cuda(at::TensorIterator&)::{lambda()#1}::operator()() "
       "const::{lambda()#12}::operator()() const::{lambda(bool, bool)#1}>, unsigned int, bool, 4> "
       ">(at::native::ReduceOp<bool, at::native::func_wrapper_t<bool, "
       "at::native::and_kernel_cuda(at::TensorIterator&)::{lambda()#1}::operator()() "
       "const::{lambda()#12}::operator()() const::{lambda(bool, bool)#1}>, unsigned int, bool, "
       "4>)"},
      {"<unnamed>::nvfuser_none_f0_c0_r0_g0(<unnamed>::Tensor<<unnamed>::__half, (int)3, (int)3>)",
       "_ZN71_GLOBAL__N__00000000_32___tmp_kernel_none_f0_c0_r0_g0_cu_ab37a358_3015624nvfuser_none_"
       "f0_c0_r0_g0ENS_6TensorINS_6__halfELi3ELi3EEES2_NS_9TensorMapES3_S3_NS0_IS1_Li2ELi2EEE"},
      {"a::b<(bool)1, (long)-3, (unsigned int)7, (unsigned long long)9, (char)65, const float *>",
       "a::b<true, -3l, 7u, 9ull, (char)65, float const*>"},
  };
  for (const Pair& pair : pairs) {
    const KernelName nsys = parse_kernel_name(pair.nsys);
    const KernelName kineto = parse_kernel_name(pair.kineto);
    EXPECT_EQ(nsys.normalized, kineto.normalized) << pair.nsys;
    EXPECT_EQ(nsys.qualified, kineto.qualified) << pair.nsys;
    EXPECT_EQ(nsys.base, kineto.base) << pair.nsys;
  }
  EXPECT_EQ(parse_kernel_name(pairs[0].nsys).normalized,
            "at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::Half>, "
            "std::array<char*, 3ul>>");
  EXPECT_EQ(parse_kernel_name(pairs[4].nsys).normalized,
            "a::b<true, -3l, 7u, 9ull, (char)65, float const*>");
}

TEST(KernelName, DifferentKernelsStayDifferent) {
  EXPECT_NE(parse_kernel_name("void k<4, float>(int)").normalized,
            parse_kernel_name("void k<8, float>(int)").normalized);
  EXPECT_NE(parse_kernel_name("a::k<(int)4>(T1)").normalized,
            parse_kernel_name("a::k<(long)4>(T1)").normalized);
  EXPECT_NE(parse_kernel_name("void k<{lambda()#1}>()").normalized,
            parse_kernel_name("void k<{lambda()#2}>()").normalized);
}

TEST(KernelName, ArbitraryBytesNeverFailAndStayLinear) {
  std::mt19937 random(7);
  const std::string alphabet = "<>()[]{}:,&*#_ aZ09\x80\xff-\"";
  for (int round = 0; round < 2000; ++round) {
    std::string name(random() % 200, ' ');
    for (char& c : name)
      c = alphabet[random() % alphabet.size()];
    const KernelName parsed = parse_kernel_name(name);
    EXPECT_EQ(parsed.raw, name);
  }
  // Deep nesting and long runs of brackets: 1 MiB names parse in well under a second; a
  // quadratic parser would take hours, which the test's watchdog (ctest TIMEOUT) turns into a
  // failure without a wall-clock assertion.
  for (const std::string unit : {"a<", "(", "a<(", "[lambda(", "const ", "_Z", "void a::"}) {
    std::string name;
    while (name.size() < (1u << 20))
      name += unit;
    const KernelName parsed = parse_kernel_name(name);
    EXPECT_EQ(parsed.raw.size(), name.size());
  }
}

}  // namespace
}  // namespace gpuport
