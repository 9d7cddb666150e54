// The groupings the writers share: the order and the cap of the kernel list.
#include "report/report_groups.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/markdown_report.h"
#include "report/text_report.h"
#include "scan/scanner.h"

namespace gpuport {
namespace {

using ::testing::ElementsAre;

// Kernels named k0..k4 with these lines of code, in two files (two segments, as a scan makes).
ScanResult kernels_with_sizes() {
  ScanResult result;
  const std::vector<std::uint32_t> sizes = {5, 9, 5, 9, 1};
  std::vector<Kernel> first;
  std::vector<Kernel> second;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    Kernel kernel;
    kernel.name = "k" + std::to_string(i);
    kernel.file = i < 2 ? "a.cu" : "b.cu";
    kernel.line = static_cast<std::uint32_t>(10 * (i + 1));
    kernel.lines_of_code = sizes[i];
    (i < 2 ? first : second).push_back(kernel);
  }
  result.kernels.append_segment(std::move(first));
  result.kernels.append_segment(std::move(second));
  return result;
}

std::vector<std::string> names(const std::vector<const Kernel*>& kernels) {
  std::vector<std::string> out;
  for (const Kernel* kernel : kernels) {
    out.push_back(kernel->name);
  }
  return out;
}

TEST(ReportGroups, KernelsBySizeLargestFirstWithTiesInListOrder) {
  const ScanResult result = kernels_with_sizes();
  EXPECT_THAT(names(kernels_by_size(result)), ElementsAre("k1", "k3", "k0", "k2", "k4"));
}

TEST(ReportGroups, KernelsBySizeStopsAtTheLimit) {
  const ScanResult result = kernels_with_sizes();
  EXPECT_THAT(names(kernels_by_size(result, 3)), ElementsAre("k1", "k3", "k0"));
  EXPECT_THAT(names(kernels_by_size(result, 0)), ElementsAre());
  EXPECT_EQ(kernels_by_size(result, 100).size(), 5u);
}

// A scan counts its findings as it collects them; every report must read the same as it does
// from a pass over the findings (what a result put together otherwise gets).
TEST(ReportGroups, TotalsTakenByTheScanMatchAPassOverTheFindings) {
  DiskFileSystem fs;
  ScanOptions options;
  options.walk.jobs = 2;
  auto scanned = scan(fs, std::string(GPUPORT_SOURCE_DIR) + "/tests/fixtures/amd_build", options);
  ASSERT_TRUE(scanned);
  ASSERT_TRUE(scanned->totals.has_value());
  ScanResult recounted = *scanned;
  recounted.totals.reset();
  const FindingTotals expected = finding_totals(recounted);
  const FindingTotals& taken = *scanned->totals;
  EXPECT_EQ(taken.by_scope, expected.by_scope);
  EXPECT_EQ(taken.amd.compiled, expected.amd.compiled);
  EXPECT_EQ(taken.amd.excluded, expected.amd.excluded);
  EXPECT_EQ(taken.amd.excluded_with_alternative, expected.amd.excluded_with_alternative);
  EXPECT_EQ(taken.amd.unknown, expected.amd.unknown);
  EXPECT_EQ(taken.product_open, expected.product_open);
  EXPECT_EQ(taken.product_open_highest, expected.product_open_highest);
  EXPECT_EQ(taken.product_excluded, expected.product_excluded);
  EXPECT_EQ(taken.product_excluded_with_alternative, expected.product_excluded_with_alternative);
  // The fixtures hold every state and several scopes, so the comparison means something.
  EXPECT_GT(expected.amd.compiled, 0u);
  EXPECT_GT(expected.product_excluded_with_alternative, 0u);
  EXPECT_GT(expected.by_scope[static_cast<std::size_t>(Scope::Test)], 0u);

  const ReportOptions report;
  EXPECT_EQ(render_text(*scanned, report), render_text(recounted, report));
  EXPECT_EQ(render_markdown(*scanned, report), render_markdown(recounted, report));
}

}  // namespace
}  // namespace gpuport
