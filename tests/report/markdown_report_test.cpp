// Markdown writer: table rows for a PR comment, the findings list folded, cells escaped.
#include "report/markdown_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sample_result.h"

namespace gpuport {
namespace {

using ::testing::HasSubstr;
using testing::sample_result;

TEST(MarkdownReport, HeadlineAndSections) {
  const std::string md = render_markdown(sample_result(), ReportOptions{});
  EXPECT_THAT(md, HasSubstr("## gpuport scan\n"));
  EXPECT_THAT(md, HasSubstr("**12** files, 2.5 MB scanned in 0.25 s. Highest tier in product "
                            "code the AMD build compiles: **rewrite** (2 findings). 1 more in code "
                            "it leaves out (1 with an AMD alternative).\n"));
  for (const char* section : {"### Portability", "### Custom CUDA inventory",
                              "### Existing AMD path", "### Findings by rule", "### Skipped"}) {
    EXPECT_THAT(md, HasSubstr(section));
  }
}

TEST(MarkdownReport, TableRows) {
  const std::string md = render_markdown(sample_result(), ReportOptions{});
  EXPECT_THAT(md,
              HasSubstr("| rewrite | Inline PTX | none | rewrite with rocWMMA or HIP intrinsics "
                        "| weeks per kernel | 2 | 1 compiled, 1 excluded (1 with an AMD "
                        "alternative) | `csrc/attention.cu:42` |\n"));
  EXPECT_THAT(md, HasSubstr("| `#ifdef NEW_MMA_AVAILABLE` | 1 | 1 | `csrc/attention.cu:55` |\n"));
  EXPECT_THAT(md, HasSubstr("| `csrc/attention.cu:57` | " +
                            std::string(rule_catalog()[testing::rewrite_rule()].id) +
                            " | rewrite | product | excluded, alternative |"));
  EXPECT_THAT(md, HasSubstr("| Kernels | 2 |\n"));
  EXPECT_THAT(md, HasSubstr("| Kernel lines of code | 129 |\n"));
  EXPECT_THAT(md, HasSubstr("| `flash_fwd_kernel` (template) | `csrc/attention.cu:30` | 120 |"));
  EXPECT_THAT(md, HasSubstr("| hip_guard | 2 | `csrc/bias.cu:3` |\n"));
  const RuleInfo& rule = rule_catalog()[testing::rewrite_rule()];
  EXPECT_THAT(md, HasSubstr("| [" + std::string(rule.id) + "](docs/rules/" + std::string(rule.id) +
                            ".md) | rewrite | 2 |"));
  EXPECT_THAT(md, HasSubstr("| binary | 1 |\n"));
}

TEST(MarkdownReport, FindingsListIsCollapsible) {
  const std::string md = render_markdown(sample_result(), ReportOptions{});
  const auto open = md.find("<details>\n<summary>All 3 findings</summary>");
  ASSERT_NE(open, std::string::npos);
  const auto row = md.find("| `csrc/attention.cu:57` |", open);
  const auto close = md.find("</details>");
  EXPECT_LT(open, row);
  EXPECT_LT(row, close);
}

TEST(MarkdownReport, CellsAreEscaped) {
  ScanResult result = sample_result();
  result.components[0].amd_equivalent = "a|b <script> __HIP_ARCH__ *x*";
  result.findings[0].excerpt = "x = a | b; `tick`\xff";
  const std::string md = render_markdown(result, ReportOptions{});
  EXPECT_THAT(md, HasSubstr("a\\|b &lt;script&gt; \\_\\_HIP\\_ARCH\\_\\_ \\*x\\*"));
  EXPECT_THAT(md, HasSubstr("`` x = a \\| b; `tick`\xEF\xBF\xBD ``"));
}

}  // namespace
}  // namespace gpuport
