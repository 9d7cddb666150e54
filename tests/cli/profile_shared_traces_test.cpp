// `gpuport profile` and `gpuport compare` on the real public traces: total kernel time and the
// top five kernels equal expected_answers.json; H100 vs MI300X (same Qwen workload) compares.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "../profile/shared_traces.h"
#include "cli_runner.h"

namespace gpuport {
namespace {

using testing::CliFixture;
using testing::CliRun;
using ::testing::HasSubstr;
using testing::shell_quoted;

// expected_answers.json gives microseconds (decimals) or nanoseconds.
std::int64_t to_ns(const nlohmann::json& value, const std::string& unit) {
  const double number = value.get<double>();
  return unit == "us" ? std::llround(number * 1000.0) : std::llround(number);
}

class SharedTraces : public CliFixture {};

TEST_F(SharedTraces, TotalKernelTimeAndTopFiveMatchTheExpectedAnswers) {
  GPUPORT_REQUIRE_SHARED_TRACES(traces);
  const nlohmann::json answers = testing::expected_answers(traces)["files"];
  ASSERT_FALSE(answers.empty());
  for (const auto& [file, expected] : answers.items()) {
    SCOPED_TRACE(file);
    const CliRun run =
        gpuport("profile " + shell_quoted((traces / file).string()) + " --format json");
    // A reader family still on its placeholder (not merged yet) says so; anything else counts.
    if (run.exit_code == 2 && run.err.find("traces are not read yet") != std::string::npos) {
      ADD_FAILURE() << "reader not available in this build: " << run.err;
      continue;
    }
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto doc = nlohmann::json::parse(run.out);
    const std::string unit = expected["unit"];
    EXPECT_EQ(doc["totals"]["kernel_ns"].get<std::int64_t>(),
              to_ns(expected["kernel_total"], unit));
    EXPECT_EQ(doc["totals"]["kernel_calls"].get<std::int64_t>(),
              expected["n_kernels"].get<std::int64_t>());
    EXPECT_EQ(doc["totals"]["unique_kernels"].get<std::int64_t>(),
              expected["n_unique"].get<std::int64_t>());
    std::vector<nlohmann::json> kernels;
    for (const auto& row : doc["kernels"]) {
      if (row["kind"] == "kernel") {
        kernels.push_back(row);
      }
    }
    const auto& top5 = expected["top5"];
    ASSERT_GE(kernels.size(), top5.size());
    for (std::size_t i = 0; i < top5.size(); ++i) {
      SCOPED_TRACE(i);
      EXPECT_EQ(kernels[i]["name"], top5[i]["name"]);
      EXPECT_EQ(kernels[i]["total_ns"].get<std::int64_t>(), to_ns(top5[i]["total"], unit));
      EXPECT_EQ(kernels[i]["calls"], top5[i]["count"]);
    }
  }
}

TEST_F(SharedTraces, CompareH100WithMi300xOnTheSameQwenWorkload) {
  GPUPORT_REQUIRE_SHARED_TRACES(traces);
  const std::string h100 =
      shell_quoted((traces / "tracelens_h100_qwen1.5-0.5b_inference_kineto.json.gz").string());
  const std::string mi300x =
      shell_quoted((traces / "tracelens_mi300x_qwen1.5-0.5b_inference_kineto.json.gz").string());
  const CliRun run = gpuport("compare " + h100 + " " + mi300x + " --format json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["a"]["trace"]["vendor"], "nvidia");
  EXPECT_EQ(doc["b"]["trace"]["vendor"], "amd");
  EXPECT_EQ(doc["a"]["totals"]["kernel_ns"], 45'432'698);
  EXPECT_EQ(doc["b"]["totals"]["kernel_ns"], 43'062'042);
  EXPECT_DOUBLE_EQ(doc["ratios"]["kernel"].get<double>(), 0.94782);
  // cuBLAS on one side, Tensile on the other: the same class, different kernels.
  bool blas = false;
  for (const auto& row : doc["classes"]) {
    if (row["class"] == "vendor-blas") {
      blas = true;
      EXPECT_EQ(row["a_ns"], 12'793'438);  // sm90_xmma + a cuBLAS CUTLASS kernel
      EXPECT_GT(row["b_ns"].get<std::int64_t>(), 16'000'000);
    }
  }
  EXPECT_TRUE(blas);
  EXPECT_GE(doc["matched"].size(), 5u);  // ATen kernels that both builds share

  const CliRun text = gpuport("compare " + h100 + " " + mi300x);
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_THAT(text.out, HasSubstr("Kernel time: A 45.43 ms, B 43.06 ms; B/A 0.95x"));
}

}  // namespace
}  // namespace gpuport
