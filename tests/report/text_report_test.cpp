// Text writer: the rows a reader looks for, 100-column fit without colour, escapes only with it.
#include "report/text_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "report/text_util.h"
#include "sample_result.h"

namespace gpuport {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::sample_result;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

// The first line containing all of `parts`, or "" when none does.
std::string line_with(const std::string& text, std::vector<std::string> parts) {
  for (const std::string& line : lines_of(text)) {
    bool all = true;
    for (const std::string& part : parts) {
      all = all && line.find(part) != std::string::npos;
    }
    if (all) {
      return line;
    }
  }
  return {};
}

TEST(TextReport, HeaderSectionsAndVerdict) {
  const std::string text = render_text(sample_result(), ReportOptions{});
  EXPECT_THAT(lines_of(text).front(), HasSubstr("serving: 12 files, 2.5 MB in 0.25 s"));
  for (const char* section : {"Portability", "Custom CUDA inventory", "Existing AMD path",
                              "Findings by rule", "Skipped"}) {
    EXPECT_THAT(text, HasSubstr(std::string("\n") + section + "\n")) << section;
  }
  // One rewrite finding is compiled on AMD, one is left out with an alternative (the sample's
  // ldmatrix under NEW_MMA_AVAILABLE), the config one is undecided: two count.
  const auto lines = lines_of(text);
  EXPECT_EQ(lines.back(),
            "Verdict: highest tier rewrite in product code the AMD build compiles (2 findings).");
  EXPECT_EQ(lines[lines.size() - 2],
            "  In code the AMD build leaves out: 1 finding, 1 with an AMD alternative (--format "
            "json lists all)");
}

TEST(TextReport, AmdBuildSection) {
  const std::string text = render_text(sample_result(), ReportOptions{});
  EXPECT_THAT(text, HasSubstr("  AMD build: exists.\n"
                              "    set up in    CMakeLists.txt:12  enable_language(HIP)\n"
                              "    switch       CMakeLists.txt:3  option(USE_HIP \"build for "
                              "AMD\" OFF)\n"
                              "    shim header  csrc/hip_compat.h:4\n"));
  EXPECT_THAT(text,
              HasSubstr("  Kernel files of the product the AMD build compiles: 1 of 2 (50 %), 1 "
                        "undecided\n"));
  EXPECT_THAT(text, HasSubstr("#ifdef NEW_MMA_AVAILABLE"));
}

TEST(TextReport, PortabilityRows) {
  const std::string text = render_text(sample_result(), ReportOptions{});
  const auto lines = lines_of(text);
  const auto ptx = std::find_if(lines.begin(), lines.end(), [](const std::string& line) {
    return line.find("Inline PTX") != std::string::npos;
  });
  ASSERT_NE(ptx, lines.end());
  EXPECT_EQ(*ptx, "  rewrite  Inline PTX       none        2  csrc/attention.cu:42");
  // The AMD equivalent and the cost sit on the line below, under the component name.
  ASSERT_NE(ptx + 1, lines.end());
  EXPECT_EQ(
      *(ptx + 1),
      "           AMD build: 1 compiled, 1 excluded (1 with an AMD alternative). AMD: rewrite "
      "with rocWMMA\u2026");
  EXPECT_NE(line_with(text, {"config", "CUDA base image", "supported", "1", "Dockerfile:1"}), "");
  EXPECT_NE(line_with(text, {"AMD: rocm/pytorch image; cost: image swap"}), "");
}

TEST(TextReport, InventoryCountsAndKernelList) {
  const std::string text = render_text(sample_result(), ReportOptions{});
  EXPECT_NE(line_with(text, {"Kernels", "2", "1 templated, 1 defined via macro"}), "");
  EXPECT_NE(line_with(text, {"Kernel lines of code", "129"}), "");
  EXPECT_NE(line_with(text, {"Launch sites", "1"}), "");
  EXPECT_NE(line_with(text, {"Instantiation-only files", "1", "csrc/flash_fwd_hdim128.cu"}), "");
  EXPECT_NE(line_with(text, {"mma.sync.aligned.m16n8k16", "1", "csrc/attention.cu:42"}), "");
  EXPECT_NE(line_with(text, {"tensorrt_engine", "1", "models/encoder.engine"}), "");
  // Largest kernel first, with its features.
  const std::string kernel = line_with(text, {"flash_fwd_kernel<>", "csrc/attention.cu:30", "120"});
  EXPECT_THAT(kernel, HasSubstr("mma warp smem=49152 ptx(mma.sync,ldmatrix.sync)"));
  EXPECT_LT(text.find("flash_fwd_kernel<>"), text.find("add_bias"));
}

TEST(TextReport, KernelListIsCapped) {
  ScanResult result = sample_result();
  ReportOptions options;
  options.max_kernels = 1;
  const std::string text = render_text(result, options);
  EXPECT_THAT(text, Not(HasSubstr("add_bias")));
  EXPECT_THAT(text, HasSubstr("\u2026 1 more kernels"));
}

TEST(TextReport, AmdPathFindingsAndSkipped) {
  const std::string text = render_text(sample_result(), ReportOptions{});
  EXPECT_NE(line_with(text, {"hip_guard", "2", "csrc/bias.cu:3"}), "");
  const RuleInfo& rewrite = rule_catalog()[testing::rewrite_rule()];
  const std::string rule_line = line_with(text, {std::string(rewrite.id), "rewrite", "2"});
  EXPECT_NE(rule_line, "");
  const RuleInfo& config = rule_catalog()[testing::config_rule()];
  // Sorted by tier, highest first.
  EXPECT_LT(text.find(std::string(rewrite.id)), text.find(std::string(config.id) + " "));
  EXPECT_NE(line_with(text, {"binary", "1", "data/blob.bin"}), "");
  EXPECT_NE(line_with(text, {"too_large", "1"}), "");
  EXPECT_NE(line_with(text, {"ignored", "3"}), "");
}

TEST(TextReport, FitsHundredColumnsWithoutEscapes) {
  ScanResult result = sample_result();
  result.components[0].amd_equivalent =
      "a very long description of the AMD equivalent that would never fit in a narrow column";
  result.components[0].evidence[0].file =
      "third_party/some/deeply/nested/directory/structure/with/a/long/name/attention_kernel.cu";
  const std::string text = render_text(result, ReportOptions{});
  for (const std::string& line : lines_of(text)) {
    EXPECT_LE(display_width(line), 100u) << line;
  }
  // Long paths keep their end, where the file name and line are.
  EXPECT_THAT(text, HasSubstr("attention_kernel.cu:42"));
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
}

TEST(TextReport, ColourOnlyWhenEnabled) {
  ReportOptions options;
  options.color = Color::On;
  const std::string text = render_text(sample_result(), options);
  EXPECT_THAT(text, HasSubstr("\x1b[31mrewrite"));
  EXPECT_THAT(text, HasSubstr("\x1b[0m"));
}

TEST(TextReport, ControlBytesAndBadUtf8InNamesAreNeutralised) {
  ScanResult result = sample_result();
  result.kernels[0].name = "evil\x1b]0;title\x07\xff";
  const std::string text = render_text(result, ReportOptions{});
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_THAT(text, HasSubstr("evil?]0;title?\xEF\xBF\xBD"));
}

TEST(TextReport, EmptyResult) {
  const std::string text = render_text(ScanResult{}, ReportOptions{});
  EXPECT_THAT(text, HasSubstr("No CUDA-specific components found."));
  EXPECT_THAT(text, HasSubstr("No findings."));
  EXPECT_THAT(text, HasSubstr("Verdict: no CUDA-specific findings."));
}

}  // namespace
}  // namespace gpuport
