// The groupings the writers share: the order and the cap of the kernel list.
#include "report/report_groups.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

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

}  // namespace
}  // namespace gpuport
