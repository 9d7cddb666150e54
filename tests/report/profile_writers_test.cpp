// The profile and compare writers, byte for byte on a small hand-built profile (golden files in
// tests/fixtures/profile/analysis/, reviewed by hand; GPUPORT_UPDATE_GOLDEN=1 rewrites them), and
// the escaping of names that hold , " < > & | per format.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "profile_sample.h"
#include "report/profile/compare_csv.h"
#include "report/profile/compare_json.h"
#include "report/profile/compare_markdown.h"
#include "report/profile/compare_text.h"
#include "report/profile/profile_csv.h"
#include "report/profile/profile_json.h"
#include "report/profile/profile_markdown.h"
#include "report/profile/profile_text.h"
#include "report/profile/profile_units.h"
#include "version.h"

namespace gpuport {
namespace {

namespace fs = std::filesystem;
using testing::k_tricky_name;
using testing::sample_amd_profile;
using testing::sample_profile;

ReportOptions plain() {
  ReportOptions options;
  options.width = 100;
  options.color = Color::Off;
  options.max_kernels = 20;
  return options;
}

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// Compares `actual` with the golden file; "@VERSION@" in the file stands for the version.
void expect_golden(const std::string& actual, const std::string& name) {
  const fs::path path = fs::path(GPUPORT_SOURCE_DIR) / "tests/fixtures/profile/analysis" / name;
  const std::string with_placeholder = replace_all(actual, k_version, "@VERSION@");
  if (const char* update = std::getenv("GPUPORT_UPDATE_GOLDEN"); update && *update == '1') {
    std::ofstream(path, std::ios::binary) << with_placeholder;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing golden file " << path;
  std::ostringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(with_placeholder, expected.str()) << "golden file: " << path;
}

TEST(ProfileWriters, TextBytes) {
  expect_golden(render_profile_text(sample_profile(), plain()), "profile.txt");
}
TEST(ProfileWriters, JsonBytes) {
  expect_golden(render_profile_json(sample_profile()), "profile.json");
}
TEST(ProfileWriters, MarkdownBytes) {
  expect_golden(render_profile_markdown(sample_profile(), plain()), "profile.md");
}
TEST(ProfileWriters, CsvBytes) {
  expect_golden(render_profile_csv(sample_profile()), "profile.csv");
}

Comparison sample_comparison() {
  return compare_profiles(sample_profile(), sample_amd_profile());
}

TEST(CompareWriters, TextBytes) {
  expect_golden(render_compare_text(sample_comparison(), plain()), "compare.txt");
}
TEST(CompareWriters, JsonBytes) {
  expect_golden(render_compare_json(sample_comparison()), "compare.json");
}
TEST(CompareWriters, MarkdownBytes) {
  expect_golden(render_compare_markdown(sample_comparison(), plain()), "compare.md");
}
TEST(CompareWriters, CsvBytes) {
  expect_golden(render_compare_csv(sample_comparison()), "compare.csv");
}

TEST(ProfileWriters, JsonCarriesTheExactNameAndIntegerNanoseconds) {
  const auto document = nlohmann::json::parse(render_profile_json(sample_profile()));
  EXPECT_EQ(document["schema_version"], "1");
  const auto& tricky = document["kernels"][1];
  EXPECT_EQ(tricky["name"], std::string(k_tricky_name));
  EXPECT_TRUE(tricky["total_ns"].is_number_unsigned());
  EXPECT_EQ(tricky["total_ns"], 800'000);
  EXPECT_EQ(document["totals"]["kernel_ns"], 3'830'750);
}

TEST(ProfileWriters, CsvQuotesFieldsWithCommasAndDoublesQuotes) {
  EXPECT_EQ(csv_field("plain<name>|&"), "plain<name>|&");
  EXPECT_EQ(csv_field(k_tricky_name), R"("k<a, ""b"">|c&d_*x*")");
  EXPECT_EQ(csv_field("two\nlines"), "two?lines");
  const std::string csv = render_profile_csv(sample_profile());
  EXPECT_NE(csv.find(R"(2,"k<a, ""b"">|c&d_*x*","k<a, ""b"">|c&d_*x*",kernel,)"),
            std::string::npos);
}

// A kernel or range name is data: a spreadsheet must not run it as a formula, and its control
// bytes must not reach a terminal that `cat`s the CSV (issue 27, item 6).
TEST(ProfileWriters, CsvDefusesFormulasAndControlBytes) {
  EXPECT_EQ(csv_field(R"(=HYPERLINK("http://x","k"))"), R"x("'=HYPERLINK(""http://x"",""k"")")x");
  EXPECT_EQ(csv_field("+cmd"), R"("'+cmd")");
  EXPECT_EQ(csv_field("-2+3"), R"("'-2+3")");
  EXPECT_EQ(csv_field("@SUM(A1)"), R"x("'@SUM(A1)")x");
  EXPECT_EQ(csv_field("k\x1b[31mred\x07"), "k?[31mred?");
  EXPECT_EQ(csv_field("gemm_kernel-2"), "gemm_kernel-2");  // only a leading sign is a formula
}

TEST(ProfileWriters, MarkdownEscapesPipesEmphasisAndHtml) {
  EXPECT_EQ(markdown_cell(k_tricky_name), R"(k&lt;a, "b"&gt;\|c&amp;d\_\*x\*)");
  EXPECT_EQ(markdown_cell("a\nb"), "a?b");  // a line break would end the table row
}

TEST(ProfileWriters, TextShowsNamesAsTheyAreWithoutControlCharacters) {
  Profile profile = sample_profile();
  profile.kernels.rows[0].name.display = "evil\x1b[31mred";
  const std::string text = render_profile_text(profile, plain());
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_NE(text.find("evil?[31mred"), std::string::npos);
  EXPECT_NE(text.find(k_tricky_name), std::string::npos);
}

TEST(ProfileWriters, ColourOnlyWhenAsked) {
  ReportOptions options = plain();
  EXPECT_EQ(render_profile_text(sample_profile(), options).find('\x1b'), std::string::npos);
  options.color = Color::On;
  EXPECT_NE(render_profile_text(sample_profile(), options).find("\x1b[1m"), std::string::npos);
}

TEST(ProfileWriters, TextFitsTheWidth) {
  for (const std::size_t width : {60u, 100u, 140u}) {
    ReportOptions options = plain();
    options.width = width;
    std::istringstream lines(render_profile_text(sample_profile(), options));
    for (std::string line; std::getline(lines, line);) {
      // µ and … are two and three bytes but one column each.
      std::size_t columns = 0;
      for (const unsigned char c : line) {
        columns += (c & 0xC0) != 0x80 ? 1 : 0;
      }
      EXPECT_LE(columns, width) << line;
    }
  }
}

TEST(ProfileWriters, TopLimitsTheTextTable) {
  ReportOptions options = plain();
  options.max_kernels = 1;
  const std::string text = render_profile_text(sample_profile(), options);
  EXPECT_NE(text.find("Kernels (top 1 of 4 by total time)"), std::string::npos);
  EXPECT_NE(text.find("\u2026 3 more"), std::string::npos);
}

TEST(ProfileUnits, DurationsSharesRatiosCounts) {
  EXPECT_EQ(format_duration(0), "0 ns");
  EXPECT_EQ(format_duration(999), "999 ns");
  EXPECT_EQ(format_duration(1'000), "1.00 \u00b5s");
  EXPECT_EQ(format_duration(53'070), "53.07 \u00b5s");
  EXPECT_EQ(format_duration(12'789'918), "12.79 ms");
  EXPECT_EQ(format_duration(4'158'756'678), "4.159 s");
  EXPECT_EQ(format_share(0.28152), "28.2%");
  EXPECT_EQ(format_ratio(std::nullopt), "-");
  EXPECT_EQ(format_ratio(0.9478), "0.95x");
  EXPECT_EQ(format_ratio(0.0035), "<0.01x");
  EXPECT_EQ(format_ratio(0.0), "0.00x");
  EXPECT_EQ(format_ratio(240.4), "240x");
  EXPECT_EQ(format_count(1'234'567), "1,234,567");
  EXPECT_EQ(format_count(12), "12");
}

TEST(ProfileUnits, PlatformNamesDevicesOnceWithCounts) {
  TraceInfo info;
  info.vendor = Vendor::Nvidia;
  info.devices = {{"NVIDIA B200", 32, 10, 0}, {"NVIDIA B200", 32, 10, 0}, {"", 0, -1, -1}};
  EXPECT_EQ(platform_summary(info), "nvidia, 2x NVIDIA B200");
  EXPECT_EQ(platform_summary(TraceInfo{}), "unknown vendor");
}

}  // namespace
}  // namespace gpuport
