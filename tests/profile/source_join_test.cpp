// Joining trace kernels to `gpuport scan` definitions, and reading the scan JSON. The fixtures are
// the output of `gpuport scan --format json` on examples/serving-repo and on
// tests/fixtures/profile/source_join/tiny.
#include "profile/source_join.h"

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace gpuport {
namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(GPUPORT_SOURCE_DIR) / "tests/fixtures/profile/source_join";

SourceIndex load(const std::string& file) {
  auto kernels = load_scan_kernels((kDir / file).string());
  EXPECT_TRUE(kernels.has_value()) << (kernels ? "" : kernels.error().message);
  return SourceIndex(kernels ? std::move(*kernels) : std::vector<SourceKernel>{});
}

std::string where(const SourceMatch& match) {
  return match.kernel == nullptr ? "-"
                                 : match.kernel->file + ":" + std::to_string(match.kernel->line);
}

TEST(SourceJoin, ReadsTheKernelsOfAScanOfTheExampleRepository) {
  auto kernels = load_scan_kernels((kDir / "serving-repo.scan.json").string());
  ASSERT_TRUE(kernels.has_value()) << kernels.error().message;
  ASSERT_EQ(kernels->size(), 4u);
  EXPECT_EQ((*kernels)[0].name, "dequant_int4_kernel");
  EXPECT_EQ((*kernels)[0].file, "csrc/dequant_rotary.cu");
  EXPECT_EQ((*kernels)[0].line, 39u);
  EXPECT_EQ((*kernels)[3].name, "masked_softmax_kernel");
  EXPECT_EQ((*kernels)[3].file, "csrc/fused_norm.cu");
  EXPECT_EQ((*kernels)[3].line, 68u);
}

TEST(SourceJoin, FindsTheExampleKernelsFromCudaAndHipTraceNames) {
  const SourceIndex index = load("serving-repo.scan.json");
  ASSERT_EQ(index.size(), 4u);
  const SourceMatch cuda = index.find(parse_kernel_name(
      "void rms_norm_kernel<__nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16 const*, __nv_bfloat16 "
      "const*, int, float)"));
  EXPECT_EQ(where(cuda), "csrc/fused_norm.cu:44");
  EXPECT_EQ(cuda.candidates, 1u);
  // The same kernel hipified, as rocprof writes it.
  const SourceMatch hip = index.find(parse_kernel_name(
      "void rms_norm_kernel<__hip_bfloat16>(__hip_bfloat16*, __hip_bfloat16 const*, "
      "__hip_bfloat16 const*, int, float) [clone .kd]"));
  EXPECT_EQ(where(hip), "csrc/fused_norm.cu:44");
  EXPECT_EQ(where(index.find(parse_kernel_name("_Z13rotary_kernelP13__nv_bfloat16S0_PKlPKS_iiii"))),
            "csrc/dequant_rotary.cu:81");
  // A library kernel of a similar name is not the team's.
  const SourceMatch other = index.find(parse_kernel_name(
      "void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*)"));
  EXPECT_EQ(other.kernel, nullptr);
  EXPECT_EQ(other.candidates, 0u);
}

TEST(SourceJoin, SameNameDefinedTwiceIsAmbiguousWithoutNamespaces) {
  const SourceIndex index = load("tiny.scan.json");
  ASSERT_EQ(index.size(), 4u);
  const SourceMatch gate = index.find(parse_kernel_name("fused_gate_kernel(float*, int)"));
  EXPECT_EQ(gate.candidates, 2u);
  EXPECT_EQ(where(gate), "kernels/gate_hip.cu:2");  // the first by file and line
  // The scan writes names without namespaces: a qualified trace name cannot break the tie.
  const SourceMatch norm = index.find(
      parse_kernel_name("void vllm::rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, int)"));
  EXPECT_EQ(norm.candidates, 2u);
  EXPECT_EQ(where(norm), "kernels/norm.cu:4");
}

TEST(SourceJoin, NamespacesBreakTiesWhenBothSidesHaveThem) {
  const SourceIndex index({{"team::ops::rms_norm_kernel", "b.cu", 12},
                           {"vllm::rms_norm_kernel", "a.cu", 4},
                           {"rms_norm_kernel", "c.cu", 1},
                           {"ops::rms_norm_kernel", "d.cu", 7}});
  const SourceMatch vllm =
      index.find(parse_kernel_name("void vllm::rms_norm_kernel<c10::BFloat16, 8, 2>(float*)"));
  EXPECT_EQ(where(vllm), "a.cu:4");
  EXPECT_EQ(vllm.candidates, 1u);
  const SourceMatch team = index.find(parse_kernel_name("team::ops::rms_norm_kernel(float*)"));
  EXPECT_EQ(where(team), "b.cu:12");
  EXPECT_EQ(team.candidates, 1u);
  // `x::ops::` agrees with `ops::` and `team::ops::` on one level each: a tie.
  const SourceMatch ops = index.find(parse_kernel_name("x::ops::rms_norm_kernel(float*)"));
  EXPECT_EQ(ops.candidates, 2u);
  EXPECT_EQ(where(ops), "b.cu:12");
  // A name without namespaces cannot choose.
  EXPECT_EQ(index.find(parse_kernel_name("rms_norm_kernel(float*)")).candidates, 4u);
  // A conflicting namespace loses to a definition without one.
  const SourceMatch other = index.find(parse_kernel_name("other::rms_norm_kernel(float*)"));
  EXPECT_EQ(where(other), "c.cu:1");
  EXPECT_EQ(other.candidates, 1u);
  EXPECT_EQ(SourceIndex().find(parse_kernel_name("k")).kernel, nullptr);
}

TEST(SourceJoin, TemplatedScanNamesJoinByBaseName) {
  const SourceIndex index({{"ns::k<T>", "a.cu", 3}, {"(anonymous namespace)::h", "b.cu", 9}});
  EXPECT_EQ(where(index.find(parse_kernel_name("void ns::k<float>(float*)"))), "a.cu:3");
  EXPECT_EQ(where(index.find(parse_kernel_name("<unnamed>::h(int)"))), "b.cu:9");
}

class ScanJsonErrors : public ::testing::Test {
 protected:
  std::string write(const std::string& text) {
    const fs::path path =
        fs::temp_directory_path() /
        ("gpuport_scan_" + std::to_string(::getpid()) + "_" + std::to_string(m_count++) + ".json");
    std::ofstream(path) << text;
    m_paths.push_back(path);
    return path.string();
  }
  std::string error_of(const std::string& text) {
    const std::string path = write(text);
    auto kernels = load_scan_kernels(path);
    EXPECT_FALSE(kernels.has_value());
    return kernels ? "" : kernels.error().message.substr(path.size());
  }
  void TearDown() override {
    for (const fs::path& path : m_paths)
      fs::remove(path);
  }

 private:
  std::vector<fs::path> m_paths;
  int m_count = 0;
};

TEST_F(ScanJsonErrors, OneLineNamingTheFile) {
  EXPECT_EQ(load_scan_kernels("/nonexistent/scan.json").error().message,
            "/nonexistent/scan.json: No such file or directory");
  EXPECT_EQ(error_of("{\"schema_version\": \"1\", \"kernels\": ["), ": byte 36: not valid JSON");
  EXPECT_EQ(error_of(""), ": byte 0: not valid JSON");
  EXPECT_EQ(error_of("{\"a\": x}"), ": byte 6: not valid JSON");
  // The library throws out_of_range (not parse_error) for a number beyond a double's range.
  EXPECT_EQ(error_of("{\"a\": 1e505958}"), ": not readable: number overflow parsing '1e505958'");
  EXPECT_EQ(error_of("[1, 2]"), ": not a gpuport scan JSON (no schema_version)");
  EXPECT_EQ(error_of("{\"traceEvents\": []}"), ": not a gpuport scan JSON (no schema_version)");
  EXPECT_EQ(error_of("{\"schema_version\": \"2\", \"kernels\": []}"),
            ": scan schema_version \"2\" is not supported (this gpuport reads \"1\")");
  EXPECT_EQ(error_of("{\"schema_version\": 1}"),
            ": scan schema_version 1 is not supported (this gpuport reads \"1\")");
  EXPECT_EQ(error_of("{\"schema_version\": \"1\"}"),
            ": not a gpuport scan JSON (no kernels array)");
  EXPECT_EQ(error_of("{\"schema_version\": \"1\", \"kernels\": [{\"name\": \"k\", \"file\": "
                     "\"a.cu\", \"line\": 3}, {\"name\": \"k\", \"line\": 4}]}"),
            ": kernels[1]: \"file\" is missing or not a string");
  EXPECT_EQ(error_of("{\"schema_version\": \"1\", \"kernels\": [{\"name\": \"k\", \"file\": "
                     "\"a.cu\", \"line\": -3}]}"),
            ": kernels[0]: \"line\" is missing or not a line number");
  EXPECT_EQ(error_of("{\"schema_version\": \"1\", \"kernels\": [7]}"),
            ": kernels[0]: not an object");
}

TEST_F(ScanJsonErrors, AnEmptyKernelListIsValid) {
  auto kernels = load_scan_kernels(write("{\"schema_version\": \"1\", \"kernels\": []}"));
  ASSERT_TRUE(kernels.has_value());
  EXPECT_TRUE(kernels->empty());
}

}  // namespace
}  // namespace gpuport
