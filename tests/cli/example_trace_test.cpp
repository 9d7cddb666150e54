// The bundled example's synthetic trace (examples/traces/serving-h100.json.gz): `gpuport
// profile` reads it as a Kineto trace of an H100, finds the example's own kernels and joins each
// to its definition in examples/serving-repo; and the committed file is exactly what
// examples/make_example_trace.py generates.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace gpuport {
namespace {

using testing::CliFixture;
using testing::CliRun;
using testing::read_text;
using testing::shell_quoted;

const std::string k_trace =
    std::string(GPUPORT_SOURCE_DIR) + "/examples/traces/serving-h100.json.gz";
const std::string k_repo = std::string(GPUPORT_SOURCE_DIR) + "/examples/serving-repo";

class ExampleTrace : public CliFixture {};

TEST_F(ExampleTrace, ProfileJoinsTheExamplesOwnKernelsToTheirSource) {
  const CliRun run = gpuport("profile " + shell_quoted(k_trace) + " --source " +
                             shell_quoted(k_repo) + " --format json -q");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["trace"]["format"], "kineto");
  EXPECT_EQ(json["trace"]["vendor"], "nvidia");
  EXPECT_EQ(json["trace"]["devices"][0]["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(json["steps"]["count"], 12);
  EXPECT_EQ(json["source_join"]["definitions"], 4);
  EXPECT_EQ(json["source_join"]["joined"], 4);
  EXPECT_EQ(json["totals"]["own_code_kernels"], 4);

  // Own kernel -> (definition, calls): 24 layers x 12 steps, times the launches per layer.
  std::map<std::string, std::pair<std::string, std::int64_t>> own;
  for (const auto& kernel : json["kernels"]) {
    if (kernel["own_code"] == true) {
      ASSERT_FALSE(kernel["source"].is_null()) << kernel["name"];
      own[kernel["source"]["name"]] = {kernel["source"]["file"].get<std::string>() + ":" +
                                           std::to_string(kernel["source"]["line"].get<int>()),
                                       kernel["calls"].get<std::int64_t>()};
    }
  }
  const std::map<std::string, std::pair<std::string, std::int64_t>> expected = {
      {"dequant_int4_kernel", {"csrc/dequant_rotary.cu:39", 4 * 24 * 12}},
      {"rotary_kernel", {"csrc/dequant_rotary.cu:81", 24 * 12}},
      {"rms_norm_kernel", {"csrc/fused_norm.cu:44", 2 * 24 * 12}},
      {"masked_softmax_kernel", {"csrc/fused_norm.cu:68", 24 * 12}},
  };
  EXPECT_EQ(own, expected);

  // The hand-written Triton kernel is JIT code (module launch), not an own CUDA kernel.
  bool swiglu = false;
  for (const auto& kernel : json["kernels"]) {
    if (kernel["name"] == "_swiglu_kernel") {
      swiglu = true;
      EXPECT_EQ(kernel["class"], "jit");
      EXPECT_EQ(kernel["launch_api"], "module");
    }
  }
  EXPECT_TRUE(swiglu);
}

TEST_F(ExampleTrace, CommittedTraceIsWhatTheScriptGenerates) {
  if (std::system("command -v python3 >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "python3 is not installed; cannot regenerate the example trace";
  }
  const auto generated = m_dir / "serving-h100.json.gz";
  const std::string command =
      "python3 " +
      shell_quoted(std::string(GPUPORT_SOURCE_DIR) + "/examples/make_example_trace.py") + " -o " +
      shell_quoted(generated.string()) + " >/dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const std::string fresh = read_text(generated);
  EXPECT_GT(fresh.size(), 100'000u);
  EXPECT_LT(fresh.size(), 500'000u);  // small enough to commit
  EXPECT_TRUE(fresh == read_text(k_trace))
      << "examples/traces/serving-h100.json.gz is stale: run examples/make_example_trace.py";
}

}  // namespace
}  // namespace gpuport
