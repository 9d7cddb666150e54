// Kernel inventory read from CUDA tokens: names, lines, sizes, features, launches, instantiations.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lex/cuda_lexer.h"
#include "scan/file_analysis.h"

namespace gpuport {
namespace {

FileAnalysis analyze(const std::string& source, const std::string& path = "k.cu") {
  TokenStream tokens;
  lex_cuda(source, tokens);
  FileAnalysis out;
  analyze_cuda(path, tokens, out);
  return out;
}

TEST(Inventory, KernelNameLineAndLinesOfCode) {
  FileAnalysis out = analyze(
      "// header\n"
      "__global__ void\n"
      "scale(float* x) {\n"
      "  x[0] = 1;\n"
      "}\n");
  ASSERT_EQ(out.kernels.size(), 1u);
  const Kernel& k = out.kernels[0];
  EXPECT_EQ(k.name, "scale");
  EXPECT_EQ(k.file, "k.cu");
  EXPECT_EQ(k.line, 3u);           // the line of the name
  EXPECT_EQ(k.lines_of_code, 4u);  // from __global__ (line 2) to the closing brace (line 5)
  EXPECT_FALSE(k.is_template);
  EXPECT_FALSE(k.via_macro);
  EXPECT_EQ(k.context, BranchContext::Neutral);
}

TEST(Inventory, DeclarationsAreNotKernels) {
  FileAnalysis out = analyze("__global__ void later(float* x);\nextern __global__ void other();\n");
  EXPECT_TRUE(out.kernels.empty());
}

TEST(Inventory, TemplateAndLaunchBoundsKernel) {
  FileAnalysis out = analyze(
      "template <typename T, int N>\n"
      "__global__ void __launch_bounds__(128) reduce(T* x) { x[0] = N; }\n");
  ASSERT_EQ(out.kernels.size(), 1u);
  EXPECT_EQ(out.kernels[0].name, "reduce");
  EXPECT_TRUE(out.kernels[0].is_template);
  EXPECT_EQ(out.kernels[0].lines_of_code, 1u);
}

TEST(Inventory, KernelDefinedThroughAMacroKeepsTheNameAsWritten) {
  FileAnalysis out = analyze(
      "#define DEFINE_KERNEL(kernelName, ...) \\\n"
      "  template <typename Traits, __VA_ARGS__> \\\n"
      "  __global__ void kernelName(const Params params)\n"
      "#define SCALE(NAME) __global__ void NAME##_kernel(float* x) { x[0] *= 2; }\n");
  ASSERT_EQ(out.kernels.size(), 2u);
  EXPECT_EQ(out.kernels[0].name, "kernelName");
  EXPECT_TRUE(out.kernels[0].via_macro);
  EXPECT_TRUE(out.kernels[0].is_template);
  EXPECT_EQ(out.kernels[0].line, 3u);
  EXPECT_EQ(out.kernels[1].name, "NAME##_kernel");
  EXPECT_TRUE(out.kernels[1].via_macro);
  EXPECT_EQ(out.kernels[1].lines_of_code, 1u);
}

// Each expansion of a kernel macro is a kernel named by the expansion, at its line; the kernels
// share the body's features (here the atomic).
TEST(Inventory, KernelMacroExpansionsAreKernelsOfTheirOwn) {
  FileAnalysis out = analyze(
      "#define DEFINE_KERNEL(N) __global__ void k_##N(int* x) { atomicAdd(x, N); }\n"
      "DEFINE_KERNEL(8)\n"
      "DEFINE_KERNEL(16)\n");
  ASSERT_EQ(out.kernels.size(), 2u);
  EXPECT_EQ(out.kernels[0].name, "k_8");
  EXPECT_EQ(out.kernels[0].line, 2u);
  EXPECT_EQ(out.kernels[1].name, "k_16");
  EXPECT_EQ(out.kernels[1].line, 3u);
  EXPECT_TRUE(out.kernels[1].via_macro);
  EXPECT_TRUE(out.kernels[1].features.atomics);
}

// A macro that writes only the signature: each expansion followed by a body is a kernel with
// that body's lines and features; the #define is no kernel of its own then.
TEST(Inventory, SignatureMacroExpansionsFollowedByABodyAreKernels) {
  FileAnalysis out = analyze(
      "#define DEFINE_FWD(kernelName, ...) \\\n"
      "  template <typename Traits, __VA_ARGS__> \\\n"
      "  __global__ void kernelName(const float* params)\n"
      "DEFINE_FWD(fwd_kernel, bool Causal) {\n"
      "  atomicAdd((float*)params, 1.0f);\n"
      "}\n"
      "DEFINE_FWD(fwd_split_kernel, int Splits) { }\n");
  ASSERT_EQ(out.kernels.size(), 2u);
  EXPECT_EQ(out.kernels[0].name, "fwd_kernel");
  EXPECT_EQ(out.kernels[0].line, 4u);
  EXPECT_EQ(out.kernels[0].lines_of_code, 3u);
  EXPECT_TRUE(out.kernels[0].is_template);
  EXPECT_TRUE(out.kernels[0].features.atomics);
  EXPECT_EQ(out.kernels[1].name, "fwd_split_kernel");
  EXPECT_FALSE(out.kernels[1].features.atomics);
}

TEST(Inventory, GlobalInCommentsAndStringsIsNotAKernel) {
  FileAnalysis out = analyze(
      "// __global__ void a() {}\n"
      "const char* s = \"__global__ void b() {}\";\n");
  EXPECT_TRUE(out.kernels.empty());
  EXPECT_TRUE(out.findings.empty());
}

TEST(Inventory, FeaturesOfAKernelBody) {
  FileAnalysis out = analyze(
      "#include <mma.h>\n"
      "__global__ void k(float* x, cudaTextureObject_t t, cudaSurfaceObject_t s) {\n"
      "  unsigned lane;\n"
      "  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));\n"
      "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0}, [%1];\" : \"=r\"(lane));\n"
      "  float v = __shfl_xor_sync(0xffffffffu, x[0], 1);\n"
      "  v += __shfl_xor_sync(0xffffffffu, v, 2);\n"
      "  __syncwarp();\n"
      "  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;\n"
      "  atomicAdd(x, v);\n"
      "  v += tex1Dfetch<float>(t, 0);\n"
      "  surf2Dwrite(v, s, 0, 0);\n"
      "  cooperative_groups::this_grid().sync();\n"
      "  child<<<1, 1>>>(x);\n"
      "}\n"
      "__global__ void plain(float* x) { x[0] = 0; }\n");
  ASSERT_EQ(out.kernels.size(), 2u);
  const KernelFeatures& f = out.kernels[0].features;
  EXPECT_EQ(f.ptx_instructions,
            (std::vector<std::string>{"mov.u32", "ldmatrix.sync.aligned.m8n8.x4.shared.b16"}));
  EXPECT_EQ(f.warp_intrinsics, (std::vector<std::string>{"__shfl_xor_sync", "__syncwarp"}));
  EXPECT_TRUE(f.mma_ptx);
  EXPECT_TRUE(f.wmma);
  EXPECT_TRUE(f.atomics);
  EXPECT_TRUE(f.textures);
  EXPECT_TRUE(f.surfaces);
  EXPECT_TRUE(f.cooperative_groups);
  EXPECT_TRUE(f.dynamic_parallelism);
  const KernelFeatures& g = out.kernels[1].features;
  EXPECT_TRUE(g.ptx_instructions.empty());
  EXPECT_FALSE(g.atomics || g.wmma || g.mma_ptx || g.dynamic_parallelism || g.textures);
  EXPECT_EQ(g.static_shared_bytes, 0u);
}

TEST(Inventory, KernelsInheritTheFeaturesOfSameFileHelpersTheyCall) {
  FileAnalysis out = analyze(
      "__device__ unsigned lop(unsigned a) {\n"
      "  unsigned r; asm(\"lop3.b32 %0, %1, %1, %1, 0x96;\" : \"=r\"(r) : \"r\"(a)); return r;\n"
      "}\n"
      "__device__ __forceinline__ unsigned mix(unsigned a) { atomicAdd(&a, 1u); return lop(a); }\n"
      "__device__ void unused(int* p) { __shfl_xor_sync(0xffffffffu, *p, 1); }\n"
      "__global__ void uses_helpers(unsigned* x) { x[0] = mix(x[0]); }\n"
      "__global__ void plain(unsigned* x) { x[0] = 1; }\n");
  ASSERT_EQ(out.kernels.size(), 2u);
  const KernelFeatures& uses = out.kernels[0].features;
  EXPECT_EQ(out.kernels[0].name, "uses_helpers");
  EXPECT_EQ(uses.ptx_instructions, std::vector<std::string>{"lop3.b32"});  // two calls deep
  EXPECT_TRUE(uses.atomics);
  EXPECT_TRUE(uses.warp_intrinsics.empty());  // `unused` is never called
  const KernelFeatures& plain = out.kernels[1].features;
  EXPECT_TRUE(plain.ptx_instructions.empty());
  EXPECT_FALSE(plain.atomics);
}

// Every overload of a called name counts, a call cycle ends, and each kernel lists its
// instructions in the order its calls reach them.
TEST(Inventory, HelperCallsFollowOverloadsAndCyclesInCallOrder) {
  FileAnalysis out = analyze(
      "__device__ void a(int x) { asm(\"add.u32 %0, %0, 1;\" : \"+r\"(x)); b(x); }\n"
      "__device__ void b(int x) { asm(\"mul.lo.u32 %0, %0, 3;\" : \"+r\"(x)); a(x); }\n"
      "__device__ void b(float y) { asm(\"shl.b32 %0, %0, 1;\" : \"+f\"(y)); }\n"
      "__global__ void k1() { b(1); }\n"
      "__global__ void k2() { a(1); }\n"
      "__global__ void k3() { }\n");
  ASSERT_EQ(out.kernels.size(), 3u);
  EXPECT_EQ(out.kernels[0].features.ptx_instructions,
            (std::vector<std::string>{"mul.lo.u32", "shl.b32", "add.u32"}));
  EXPECT_EQ(out.kernels[1].features.ptx_instructions,
            (std::vector<std::string>{"add.u32", "mul.lo.u32", "shl.b32"}));
  EXPECT_TRUE(out.kernels[2].features.ptx_instructions.empty());
}

// Kernels and helpers defined in turn: the calls of both kinds arrive interleaved, and each kernel
// still reaches every helper it calls, and the helpers those call.
TEST(Inventory, HelperCallsWhenKernelsAndHelpersAlternate) {
  FileAnalysis out = analyze(
      "__global__ void k1() { h2(1); h1(1); }\n"
      "__device__ void h1(int x) { asm(\"add.u32 %0, %0, 1;\" : \"+r\"(x)); h2(x); }\n"
      "__global__ void k2() { h1(1); }\n"
      "__device__ void h2(int x) { asm(\"mul.lo.u32 %0, %0, 3;\" : \"+r\"(x)); h3(x); }\n"
      "__global__ void k3() { h3(1); }\n"
      "__device__ void h3(int x) { atomicAdd(&x, 1); }\n");
  ASSERT_EQ(out.kernels.size(), 3u);
  EXPECT_EQ(out.kernels[0].features.ptx_instructions,
            (std::vector<std::string>{"add.u32", "mul.lo.u32"}));
  EXPECT_TRUE(out.kernels[0].features.atomics);
  EXPECT_EQ(out.kernels[1].features.ptx_instructions,
            (std::vector<std::string>{"add.u32", "mul.lo.u32"}));
  EXPECT_TRUE(out.kernels[1].features.atomics);
  EXPECT_TRUE(out.kernels[2].features.ptx_instructions.empty());
  EXPECT_TRUE(out.kernels[2].features.atomics);
}

TEST(Inventory, StaticSharedBytesSumKnownArraysAndGiveUpOnUnknownOnes) {
  FileAnalysis out = analyze(
      "__global__ void a() {\n"
      "  __shared__ float tile[32][33];\n"
      "  __shared__ double acc[16], extra[4];\n"
      "  __shared__ __align__(16) unsigned char bytes[64 * 2];\n"
      "  extern __shared__ float dyn[];\n"
      "}\n"
      "template <typename T, int N> __global__ void b() { __shared__ T t[N]; }\n");
  ASSERT_EQ(out.kernels.size(), 2u);
  EXPECT_EQ(out.kernels[0].features.static_shared_bytes, 32u * 33 * 4 + 20 * 8 + 128);
  EXPECT_FALSE(out.kernels[1].features.static_shared_bytes.has_value());
}

TEST(Inventory, LaunchSitesWithTemplateArgumentsAndApis) {
  FileAnalysis out = analyze(
      "void run() {\n"
      "  ns::reduce<float, 4><<<grid, block, 0, stream>>>(x);\n"
      "  plain<<<1, 1>>>(x);\n"
      "  cudaLaunchKernel((void*)my_kernel, grid, block, args, 0, stream);\n"
      "  cudaLaunchCooperativeKernel(reinterpret_cast<void*>(&coop), grid, block, args);\n"
      "  cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, stream, args, nullptr);\n"
      "  cudaLaunchKernelEx(&config, ex_kernel, x);\n"
      "  cutlass::launch_kernel_on_cluster(params, kernel_ptr, x);\n"
      "}\n");
  ASSERT_EQ(out.launches.size(), 7u);
  EXPECT_EQ(out.launches[0].kernel, "ns::reduce<float, 4>");
  EXPECT_EQ(out.launches[0].line, 2u);
  EXPECT_EQ(out.launches[0].kind, LaunchKind::TripleChevron);
  EXPECT_EQ(out.launches[1].kernel, "plain");
  EXPECT_EQ(out.launches[2].kernel, "my_kernel");
  EXPECT_EQ(out.launches[2].kind, LaunchKind::RuntimeApi);
  EXPECT_EQ(out.launches[3].kernel, "coop");
  EXPECT_EQ(out.launches[3].kind, LaunchKind::Cooperative);
  EXPECT_EQ(out.launches[4].kernel, "function");
  EXPECT_EQ(out.launches[4].kind, LaunchKind::DriverApi);
  EXPECT_EQ(out.launches[5].kernel, "ex_kernel");
  EXPECT_EQ(out.launches[6].kernel, "kernel_ptr");
  EXPECT_EQ(out.launches[6].kind, LaunchKind::Cluster);
}

TEST(Inventory, ExplicitInstantiationsAreCounted) {
  FileAnalysis out = analyze(
      "#include \"flash_fwd_launch_template.h\"\n"
      "template void run_mha_fwd_<cutlass::half_t, 128>(Flash_fwd_params& params, cudaStream_t "
      "s);\n"
      "template __global__ void k<float>(float*);\n"
      "template struct Traits<64>;\n"
      "extern template struct Traits<32>;\n"
      "template <typename T> void f(T);\n"
      "void g() { x.template get<0>(); }\n");
  EXPECT_EQ(out.template_instantiations, 3u);
  EXPECT_TRUE(out.kernels.empty());
}

TEST(Inventory, KernelInHipBranchKeepsItsContext) {
  FileAnalysis out = analyze(
      "#if defined(__HIP_PLATFORM_AMD__)\n"
      "__global__ void amd_only(float* x) { x[0] = 1; }\n"
      "#endif\n");
  ASSERT_EQ(out.kernels.size(), 1u);
  EXPECT_EQ(out.kernels[0].context, BranchContext::Hip);
  ASSERT_FALSE(out.amd_path.empty());
  EXPECT_EQ(out.amd_path[0].kind, AmdPathKind::HipGuard);
  EXPECT_EQ(out.amd_path[0].line, 1u);
}

TEST(Inventory, UnbalancedBracesNeverRunPastTheNextKernel) {
  FileAnalysis out = analyze(
      "__global__ void a(int* x) {\n"
      "#if FAST\n"
      "  if (x) {\n"
      "#else\n"
      "  if (!x) {\n"
      "#endif\n"
      "  }\n"
      "}\n"
      "__global__ void b(int* x) { x[0] = 0; }\n"
      "__global__ void c(int* x) {\n");
  ASSERT_EQ(out.kernels.size(), 3u);
  EXPECT_EQ(out.kernels[0].name, "a");
  EXPECT_LE(out.kernels[0].lines_of_code, 8u);
  EXPECT_EQ(out.kernels[1].name, "b");
  EXPECT_EQ(out.kernels[1].lines_of_code, 1u);
  EXPECT_EQ(out.kernels[2].name, "c");
}

TEST(Inventory, ArbitraryBytesDoNotCrash) {
  std::string junk;
  for (int i = 0; i < 4096; ++i) {
    junk.push_back(static_cast<char>((i * 131 + 7) % 256));
  }
  junk += "__global__ void k( { <<< template asm( \"mma.sync";
  FileAnalysis out = analyze(junk);
  SUCCEED();
}

}  // namespace
}  // namespace gpuport
