// Unit tests for the rewriting passes: kernel launches to hipLaunchKernelGGL, HIP_SYMBOL.
#include "hipify/translator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "hipify/mapping.h"
#include "test_table.h"

namespace gpuport {
namespace {

using namespace test_table;

// ---- kernel launches -----------------------------------------------------------------------

TEST(TranslatorLaunch, KeepsTripleChevronsByDefault) {
  std::string source = with_hip("k<<<g, b, 0, s>>>(x);\n");
  TranslationResult result = run(source);
  EXPECT_EQ(result.output, source);
  EXPECT_EQ(result.stats.launches_rewritten, 0U);
  EXPECT_EQ(result.stats.launches_not_rewritten, 0U);
}

TEST(TranslatorLaunch, RewritesTwoThreeAndFourPartConfigurations) {
  TranslationResult result =
      run(with_hip("k<<<g, b>>>(x, y);\nk<<<g, b, smem>>>(x);\nk<<<g, b, smem, stream>>>(x);\n"),
          hip_launches());
  EXPECT_EQ(result.output, with_hip("hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, x, y);\n"
                                    "hipLaunchKernelGGL(k, dim3(g), dim3(b), smem, 0, x);\n"
                                    "hipLaunchKernelGGL(k, dim3(g), dim3(b), smem, stream, x);\n"));
  EXPECT_EQ(result.stats.launches_rewritten, 3U);
}

TEST(TranslatorLaunch, WrapsTemplateKernelNames) {
  EXPECT_EQ(
      hipify(with_hip("scale<T, 4><<<blocks, 256, 0, s>>>(out, in, n);\n"
                      "reduce<Pair<int, float>><<<1, 32>>>(p);\n"),
             hip_launches()),
      with_hip("hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<T, 4>), dim3(blocks), dim3(256), 0, s, "
               "out, in, n);\n"
               "hipLaunchKernelGGL(HIP_KERNEL_NAME(reduce<Pair<int, float>>), dim3(1), dim3(32), "
               "0, 0, p);\n"));
}

TEST(TranslatorLaunch, KeepsNamespaceQualifiedNames) {
  EXPECT_EQ(
      hipify(with_hip("ops::detail::k<<<1, 32>>>(p);\n::k<<<1, 32>>>(p);\n"
                      "ops::k<float><<<1, 32>>>(p);\n"),
             hip_launches()),
      with_hip(
          "hipLaunchKernelGGL(ops::detail::k, dim3(1), dim3(32), 0, 0, p);\n"
          "hipLaunchKernelGGL(::k, dim3(1), dim3(32), 0, 0, p);\n"
          "hipLaunchKernelGGL(HIP_KERNEL_NAME(ops::k<float>), dim3(1), dim3(32), 0, 0, p);\n"));
}

// A comment before a leading `::` made the launch "cannot delimit" (issue 28, item 3): the
// comment is skipped; `return` before `::` is a statement, not a namespace.
TEST(TranslatorLaunch, ALeadingScopeAfterACommentOrAKeywordIsStillALeadingScope) {
  TranslationResult result =
      run(with_hip("/* grid-stride */ ::k<<<1, 32>>>(p);\n// next\n::ops::k<<<1, 32>>>(p);\n"
                   "if (x) return ::k<<<1, 32>>>(p);\nelse ::k<<<1, 32>>>(p);\n"),
          hip_launches());
  EXPECT_EQ(result.output,
            with_hip("/* grid-stride */ hipLaunchKernelGGL(::k, dim3(1), dim3(32), 0, 0, p);\n"
                     "// next\nhipLaunchKernelGGL(::ops::k, dim3(1), dim3(32), 0, 0, p);\n"
                     "if (x) return hipLaunchKernelGGL(::k, dim3(1), dim3(32), 0, 0, p);\n"
                     "else hipLaunchKernelGGL(::k, dim3(1), dim3(32), 0, 0, p);\n"));
  EXPECT_EQ(result.stats.launches_rewritten, 4U);
  EXPECT_EQ(result.stats.launches_not_rewritten, 0U);
}

TEST(TranslatorLaunch, HandlesEmptyArgumentLists) {
  EXPECT_EQ(
      hipify(with_hip("k<<<1, 1>>>();\nk<<<1, 1, 0, s>>>();\nk<<<1, 1>>>( );\n"), hip_launches()),
      with_hip("hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0);\n"
               "hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, s);\n"
               "hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0 );\n"));
}

TEST(TranslatorLaunch, HandlesNestedParenthesesTemplatesAndLambdas) {
  EXPECT_EQ(hipify(with_hip("k<<<dim3((n + 255) / 256, 2), std::min<int>(n, 256), sizeof(T) * 2, "
                            "streams[i]>>>(f(a, b), [=](int i) { return i * 2; }(1), "
                            "std::pair<int, int>{1, 2});\n"),
                   hip_launches()),
            with_hip("hipLaunchKernelGGL(k, dim3((n + 255) / 256, 2), dim3(std::min<int>(n, 256)), "
                     "sizeof(T) * 2, streams[i], f(a, b), [=](int i) { return i * 2; }(1), "
                     "std::pair<int, int>{1, 2});\n"));
}

TEST(TranslatorLaunch, RenamesInsideTheLaunch) {
  EXPECT_EQ(hipify(with_hip("cudaStream_t s;\nk<<<g, b, 0, (cudaStream_t)s>>>(cudaSuccess);\n"),
                   hip_launches()),
            with_hip("hipStream_t s;\n"
                     "hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, (hipStream_t)s, hipSuccess);\n"));
}

TEST(TranslatorLaunch, KeepsTheLineStructureOfMultiLineLaunches) {
  TranslationResult result = run(with_hip("  fused<<<grid, block, smem,\n"
                                          "          stream>>>(out,\n"
                                          "                    in, n);\n"
                                          "  k<<<\n      g, b>>>(\n      x);\n"),
                                 hip_launches());
  EXPECT_EQ(result.output,
            with_hip("  hipLaunchKernelGGL(fused, dim3(grid), dim3(block), smem,\n"
                     "          stream, out,\n"
                     "                    in, n);\n"
                     "  hipLaunchKernelGGL(k,\n      dim3(g), dim3(b), 0, 0,\n      x);\n"));
}

TEST(TranslatorLaunch, RewritesInsideMacroBodiesWithoutTokenPasting) {
  EXPECT_EQ(
      hipify(with_hip("#define LAUNCH(k, n, ...) \\\n  k<<<(n + 127) / 128, 128>>>(__VA_ARGS__)\n"),
             hip_launches()),
      with_hip("#define LAUNCH(k, n, ...) \\\n"
               "  hipLaunchKernelGGL(k, dim3((n + 127) / 128), dim3(128), 0, 0, __VA_ARGS__)\n"));
}

TEST(TranslatorLaunch, LeavesLaunchesItCannotDelimitAndCountsThem) {
  std::string source = with_hip(
      "#define LAUNCH(name) name##_kernel<<<1, 1>>>()\n"
      "k<<<g /* grid */, b>>>(x);\n"
      "k<<<g, b, 0, s, extra>>>(x);\n"
      "k<<<g>>>(x);\n"
      "get_kernel()<<<1, 1>>>(x);\n");
  TranslationResult result = run(source, hip_launches());
  EXPECT_EQ(result.output, source);
  EXPECT_EQ(result.stats.launches_rewritten, 0U);
  EXPECT_EQ(result.stats.launches_not_rewritten, 5U);
}

TEST(TranslatorLaunch, LeavesHipBranchLaunchesAlone) {
  std::string source = with_hip("#ifdef __HIP_PLATFORM_AMD__\nk<<<1, 1>>>();\n#endif\n");
  TranslationResult result = run(source, hip_launches());
  EXPECT_EQ(result.output, source);
  EXPECT_EQ(result.stats.launches_not_rewritten, 0U);
}

// ---- HIP_SYMBOL ----------------------------------------------------------------------------

// The graph memcpy-node calls take the symbol the way cudaMemcpyToSymbol does (issue 28, item 3).
TEST(TranslatorSymbol, GraphMemcpyNodesGetTheSymbolTreatment) {
  const std::string source =
      "cudaGraphAddMemcpyNodeToSymbol(&node, graph, nullptr, 0, c_weights, h, n, 0, "
      "cudaMemcpyHostToDevice);\n"
      "cudaGraphAddMemcpyNodeFromSymbol(&node, graph, nullptr, 0, h, c_weights, n, 0, kind);\n"
      "cudaGraphMemcpyNodeSetParamsToSymbol(node, c_weights, h, n, 0, kind);\n"
      "cudaGraphExecMemcpyNodeSetParamsFromSymbol(exec, node, h, c_weights, n, 0, kind);\n";
  const TranslationResult result =
      translate_cuda("graph.cu", source, builtin_mapping_table(), TranslateOptions{});
  EXPECT_THAT(result.output,
              ::testing::HasSubstr("hipGraphAddMemcpyNodeToSymbol(&node, graph, nullptr, 0, "
                                   "HIP_SYMBOL(c_weights), h, n, 0, hipMemcpyHostToDevice);\n"
                                   "hipGraphAddMemcpyNodeFromSymbol(&node, graph, nullptr, 0, h, "
                                   "HIP_SYMBOL(c_weights), n, 0, kind);\n"
                                   "hipGraphMemcpyNodeSetParamsToSymbol(node, "
                                   "HIP_SYMBOL(c_weights), h, n, 0, kind);\n"
                                   "hipGraphExecMemcpyNodeSetParamsFromSymbol(exec, node, h, "
                                   "HIP_SYMBOL(c_weights), n, 0, kind);\n"));
  EXPECT_EQ(result.stats.symbol_arguments_wrapped, 4u);
}

TEST(TranslatorSymbol, WrapsTheSymbolArgument) {
  TranslationResult result =
      run(with_hip("cudaMemcpyToSymbol(c_weights, h, sizeof(h));\n"
                   "cudaMemcpyToSymbolAsync(ops::c_bias, h, n, 0, cudaMemcpyHostToDevice, s);\n"
                   "cudaMemcpyFromSymbol(h, c_weights, sizeof(h));\n"
                   "cudaMemcpyFromSymbolAsync(h, c_table[0], n, 0, kind, s);\n"
                   "cudaGetSymbolAddress((void**)&p, d_counter);\n"
                   "cudaGetSymbolAddress(reinterpret_cast<void**>(&p), d_counter);\n"
                   "cudaGetSymbolSize(&bytes, d_counter);\n"));
  EXPECT_EQ(
      result.output,
      with_hip(
          "hipMemcpyToSymbol(HIP_SYMBOL(c_weights), h, sizeof(h));\n"
          "hipMemcpyToSymbolAsync(HIP_SYMBOL(ops::c_bias), h, n, 0, cudaMemcpyHostToDevice, s);\n"
          "hipMemcpyFromSymbol(h, HIP_SYMBOL(c_weights), sizeof(h));\n"
          "hipMemcpyFromSymbolAsync(h, HIP_SYMBOL(c_table[0]), n, 0, kind, s);\n"
          "hipGetSymbolAddress((void**)&p, HIP_SYMBOL(d_counter));\n"
          "hipGetSymbolAddress(reinterpret_cast<void**>(&p), HIP_SYMBOL(d_counter));\n"
          "hipGetSymbolSize(&bytes, HIP_SYMBOL(d_counter));\n"));
  EXPECT_EQ(result.stats.symbol_arguments_wrapped, 7U);
}

TEST(TranslatorSymbol, WrapsInsideMacroCallsAndAcrossLines) {
  EXPECT_EQ(hipify(with_hip("CHECK(cudaMemcpyToSymbol(/* table */ c_lut, lut,\n"
                            "                         sizeof(lut)));\n")),
            with_hip("CHECK(hipMemcpyToSymbol(/* table */ HIP_SYMBOL(c_lut), lut,\n"
                     "                         sizeof(lut)));\n"));
}

TEST(TranslatorSymbol, NeverWrapsTwiceOrGuesses) {
  std::string source = with_hip(
      "hipMemcpyToSymbol(c, h, n);\n"
      "#define COPY(s) cudaMemcpyToSymbol(#s, h, n)\n"
      "auto f = cudaMemcpyToSymbol;\n"
      "cudaMemcpyFromSymbol(h, table<float, 4>, n);\n"
      "cudaGetSymbolAddress(reinterpret_cast<Pair<int, int>*>(&p), sym);\n");
  TranslationResult result = run(source);
  EXPECT_EQ(result.output, with_hip("hipMemcpyToSymbol(c, h, n);\n"
                                    "#define COPY(s) hipMemcpyToSymbol(#s, h, n)\n"
                                    "auto f = hipMemcpyToSymbol;\n"
                                    "hipMemcpyFromSymbol(h, table<float, 4>, n);\n"
                                    "hipGetSymbolAddress(reinterpret_cast<Pair<int, int>*>(&p), "
                                    "sym);\n"));
  EXPECT_EQ(result.stats.symbol_arguments_wrapped, 0U);
  std::string wrapped = with_hip("cudaMemcpyToSymbol(HIP_SYMBOL(c), h, n);\n");
  EXPECT_EQ(hipify(wrapped), with_hip("hipMemcpyToSymbol(HIP_SYMBOL(c), h, n);\n"));
}

}  // namespace
}  // namespace gpuport
