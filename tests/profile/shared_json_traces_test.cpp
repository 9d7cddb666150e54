// The JSON readers on the real public traces beside the project: kernel count, exact total,
// unique names and the top five (name, total, count) must equal expected_answers.json.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "json_test_util.h"
#include "profile/trace_reader.h"
#include "shared_traces.h"

namespace gpuport {
namespace {

// Expected totals are microseconds (floats) for Kineto files and nanoseconds for rocprofv3.
std::int64_t expected_ns(const nlohmann::json& total, const std::string& unit) {
  const double value = total.get<double>();
  return unit == "us" ? std::llround(value * 1000.0) : std::llround(value);
}

void check_trace(const std::string& file, TraceFormat format) {
  GPUPORT_REQUIRE_SHARED_TRACES(traces);
  const nlohmann::json expected = testing::expected_answers(traces)["files"][file];
  ASSERT_FALSE(expected.is_null()) << file;
  const std::string unit = expected["unit"].get<std::string>();

  auto trace = read_trace((traces / file).string(), {});
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  EXPECT_EQ(trace->format, format);
  // Recorded by a profiler: no generator's label, and (Kineto) the host launches are there, so
  // the audit flags none of these as made by a script.
  EXPECT_TRUE(trace->synthetic.empty()) << file;
  if (format == TraceFormat::KinetoJson) {
    EXPECT_FALSE(trace->launches.empty()) << file;
  }
  EXPECT_EQ(testing::count_kind(*trace, ActivityKind::Kernel),
            expected["n_kernels"].get<std::int64_t>());
  EXPECT_EQ(testing::total_kernel_ns(*trace), expected_ns(expected["kernel_total"], unit));

  const auto totals = testing::kernel_totals_by_name(*trace);
  EXPECT_EQ(static_cast<std::int64_t>(totals.size()), expected["n_unique"].get<std::int64_t>());
  std::vector<std::pair<std::string, testing::CountAndTotal>> ranked(totals.begin(), totals.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second.total_ns > b.second.total_ns;
  });
  const nlohmann::json& top5 = expected["top5"];
  ASSERT_GE(ranked.size(), top5.size());
  for (std::size_t i = 0; i < top5.size(); ++i) {
    EXPECT_EQ(ranked[i].first, top5[i]["name"].get<std::string>()) << file << " #" << i + 1;
    EXPECT_EQ(ranked[i].second.total_ns, expected_ns(top5[i]["total"], unit)) << file;
    EXPECT_EQ(ranked[i].second.count, top5[i]["count"].get<std::int64_t>()) << file;
  }
}

TEST(SharedJsonTracesTest, HtaMi250Rocm62Kineto) {
  check_trace("hta_mi250_minitoy_train_rocm6.2_kineto.json.gz", TraceFormat::KinetoJson);
}

TEST(SharedJsonTracesTest, TraceLensH100QwenKineto) {
  check_trace("tracelens_h100_qwen1.5-0.5b_inference_kineto.json.gz", TraceFormat::KinetoJson);
}

TEST(SharedJsonTracesTest, TraceLensMi300xQwenKineto) {
  check_trace("tracelens_mi300x_qwen1.5-0.5b_inference_kineto.json.gz", TraceFormat::KinetoJson);
}

TEST(SharedJsonTracesTest, TraceLensMi300xSglangKineto) {
  check_trace("tracelens_mi300x_sglang_qwen3-8b_prefilldecode_kineto.json.gz",
              TraceFormat::KinetoJson);
}

TEST(SharedJsonTracesTest, TraceLensB200ServingKineto) {
  check_trace("tracelens_b200_eager_serving_kineto.json.gz", TraceFormat::KinetoJson);
}

TEST(SharedJsonTracesTest, TraceLensMi355xRocprofv3Json) {
  check_trace("tracelens_mi355x_rocprofv3_908_results.json.gz", TraceFormat::Rocprofv3Json);
}

TEST(SharedJsonTracesTest, VendorsOfTheRealTraces) {
  GPUPORT_REQUIRE_SHARED_TRACES(traces);
  const std::pair<const char*, Vendor> cases[] = {
      {"hta_mi250_minitoy_train_rocm6.2_kineto.json.gz", Vendor::Amd},
      {"tracelens_h100_qwen1.5-0.5b_inference_kineto.json.gz", Vendor::Nvidia},
      {"tracelens_mi300x_qwen1.5-0.5b_inference_kineto.json.gz", Vendor::Amd},
      {"tracelens_b200_eager_serving_kineto.json.gz", Vendor::Nvidia},
      {"tracelens_mi355x_rocprofv3_908_results.json.gz", Vendor::Amd},
  };
  for (const auto& [file, vendor] : cases) {
    auto trace = read_trace((traces / file).string(), {});
    ASSERT_TRUE(trace.has_value()) << trace.error().message;
    EXPECT_EQ(trace->vendor, vendor) << file;
  }
}

TEST(SharedJsonTracesTest, Mi355xRocprofv3DevicesAreTheEightGpus) {
  GPUPORT_REQUIRE_SHARED_TRACES(traces);
  auto trace = read_trace((traces / "tracelens_mi355x_rocprofv3_908_results.json.gz").string(), {});
  ASSERT_TRUE(trace.has_value()) << trace.error().message;
  ASSERT_EQ(trace->devices.size(), 8u);
  EXPECT_EQ(trace->devices[0].name, "AMD Instinct MI350X");
  EXPECT_EQ(trace->devices[0].warp_size, 64);
  EXPECT_EQ(trace->devices[0].compute_major, 9);
  EXPECT_EQ(trace->devices[0].compute_minor, 5);
}

}  // namespace
}  // namespace gpuport
