// The audit writers on a small hand-built AuditResult: Markdown and JSON byte for byte against
// golden files, the HTML's structure (every link lands on an id, the charts and tables are
// there, hostile names are escaped, nothing external), and the edge cases of a run without a
// trace or a saving.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "audit_sample.h"
#include "report/audit/audit_charts.h"
#include "report/audit/audit_html.h"
#include "report/audit/audit_json.h"
#include "report/audit/audit_markdown.h"
#include "report/audit/audit_units.h"
#include "version.h"

namespace gpuport {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string read_source_file(const std::string& relative) {
  std::ifstream in(std::string(GPUPORT_SOURCE_DIR) + "/" + relative, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A golden file with "@VERSION@" standing for the version, so a release does not touch it.
std::string golden(const std::string& name) {
  std::string text = read_source_file("tests/fixtures/report/audit/" + name);
  EXPECT_FALSE(text.empty()) << name;
  const std::string placeholder = "@VERSION@";
  if (const auto at = text.find(placeholder); at != std::string::npos) {
    text.replace(at, placeholder.size(), k_version);
  }
  return text;
}

std::set<std::string> matches(const std::string& text, const std::string& pattern) {
  std::set<std::string> out;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it) {
    out.insert((*it)[1].str());
  }
  return out;
}

TEST(AuditMarkdown, MatchesTheGoldenFile) {
  EXPECT_EQ(render_audit_markdown(testing::sample_audit()), golden("sample.md"));
}

TEST(AuditMarkdown, ShowsTheValuesAReviewerReadsFirst) {
  const std::string md = render_audit_markdown(testing::sample_audit());
  EXPECT_THAT(md, HasSubstr("**Verdict: Bounded project: 3–11 engineer-days** (bounded-project)"));
  EXPECT_THAT(md, HasSubstr("1. Inline PTX in a hot own kernel (40.0% of GPU time) needs a "
                            "rewrite. (evidence: `item-3`)"));
  EXPECT_THAT(md, HasSubstr("| Rewrite | 1 | 2 | 3 | 8 |"));
  EXPECT_THAT(md, HasSubstr("| AMD MI300X | $2.90 | 1 | 9 req/s (assumed) | $89.51 | $8,951 |"));
  // A placeholder throughput: no saving or payback is stated as fact, and the banner says why.
  EXPECT_THAT(md, HasSubstr("| Payback | not known (horizon 12.0 months) |"));
  EXPECT_THAT(md,
              HasSubstr("| Monthly saving on AMD | not known: a throughput is a placeholder |"));
  EXPECT_THAT(md, HasSubstr("(bounded-project)\n\n> Assumed: The MI300X throughput (9 req/s per "
                            "replica) is a placeholder"));
  // Kernel names cannot open HTML tags or break a table row.
  // The team's own unclassified kernel reads as its own code, not "unknown".
  EXPECT_THAT(md, HasSubstr("| kernel-1 | k&lt;T&amp;, \"x\"&gt; | own code | yes | 40.0% |"));
  EXPECT_THAT(md, Not(HasSubstr("k<T")));
}

TEST(AuditJson, MatchesTheGoldenFile) {
  EXPECT_EQ(render_audit_json(testing::sample_audit()), golden("sample.json"));
}

TEST(AuditJson, EveryTopLevelKeyIsDocumented) {
  const auto json = nlohmann::json::parse(render_audit_json(testing::sample_audit()));
  EXPECT_EQ(json["schema_version"], "1");
  const std::string doc = read_source_file("docs/audit-json.md");
  ASSERT_FALSE(doc.empty());
  for (const auto& [key, value] : json.items()) {
    EXPECT_THAT(doc, HasSubstr("`" + key + "`")) << key;
  }
  for (const char* section : {"inputs", "coverage", "verdict", "effort", "cost"}) {
    for (const auto& [key, value] : json[section].items()) {
      EXPECT_THAT(doc, HasSubstr("`" + key + "`")) << section << "." << key;
    }
  }
  for (const char* list : {"portability", "gpu_time", "kernels", "items", "findings"}) {
    ASSERT_FALSE(json[list].empty()) << list;
    for (const auto& [key, value] : json[list][0].items()) {
      EXPECT_THAT(doc, HasSubstr("`" + key + "`")) << list << "[0]." << key;
    }
  }
}

TEST(AuditJson, KeepsHostileNamesIntactAndEscapedForJson) {
  const auto json = nlohmann::json::parse(render_audit_json(testing::sample_audit()));
  EXPECT_EQ(json["kernels"][0]["name"], testing::k_hostile_kernel);
  EXPECT_EQ(json["items"][2]["evidence"][1]["anchor"], "kernel-1");
  EXPECT_EQ(json["cost"]["payback_months"], 2.08);
}

TEST(AuditHtml, EveryInternalLinkLandsOnAnId) {
  const std::string html = render_audit_html(testing::sample_audit());
  const std::set<std::string> ids = matches(html, R"re(\bid="([^"]*)")re");
  const std::set<std::string> targets = matches(html, R"re(href="#([^"]*)")re");
  // 9 sections, 2 reasons' rows, 1 finding, the two feature gaps' first findings, the
  // measure-first row's kernel (kernel-2) and the summary's link to the warnings
  ASSERT_EQ(targets.size(), 16u);
  for (const std::string& target : targets) {
    EXPECT_TRUE(ids.count(target)) << "no id for #" << target;
  }
  for (const char* id : {"summary",
                         "portability",
                         "gpu-time",
                         "effort",
                         "cost",
                         "items",
                         "kernels",
                         "findings",
                         "item-1",
                         "item-2",
                         "item-3",
                         "kernel-1",
                         "kernel-2",
                         "kernel-3",
                         "finding-GP-ASM-001-csrc/a.cu-12",
                         "feature-gaps",
                         "finding-GP-ASM-002-csrc/a.cu-40",
                         "finding-GP-LIB-009-hopper/mainloop.hpp-3",
                         "measure-first",
                         "warnings"}) {
    EXPECT_TRUE(ids.count(id)) << id;
  }
}

TEST(AuditHtml, TheThreeReasonsLinkToTheirEvidence) {
  const std::string html = render_audit_html(testing::sample_audit());
  EXPECT_THAT(html, HasSubstr("<ol class=\"reasons\">\n"
                              "<li><a href=\"#item-3\">Inline PTX in a hot own kernel (40.0% of "
                              "GPU time) needs a rewrite.</a></li>\n"
                              "<li><a href=\"#kernel-1\">The own kernel k&lt;T&amp;, "
                              "&quot;x&quot;&gt; is on the hot path.</a></li>\n"
                              "<li><a href=\"#cost\">AMD saves $2,160 a month at these "
                              "prices.</a></li>\n</ol>"));
  EXPECT_THAT(html, HasSubstr("<div class=\"verdict verdict-bounded-project\""));
}

TEST(AuditHtml, HostileKernelNamesAreEscapedEverywhere) {
  const std::string html = render_audit_html(testing::sample_audit());
  EXPECT_THAT(html, Not(HasSubstr("k<T")));
  EXPECT_THAT(html, Not(HasSubstr("\"x\">")));
  EXPECT_THAT(html,
              HasSubstr("<code title=\"void k&lt;T&amp;, &quot;x&quot;&gt;(int)\">k&lt;T&amp;, "
                        "&quot;x&quot;&gt;</code>"));
  // The line item's kernel evidence links to the kernel's row.
  EXPECT_THAT(html, HasSubstr("<a href=\"#kernel-1\">k&lt;T&amp;, &quot;x&quot;&gt;</a>"));
}

// A kernel's findings are labelled by rule and line, found by anchor in one index (a search of
// every finding per kernel finding made the report quadratic: 187 s on 100,000 files); an
// anchor no finding has keeps its own text.
TEST(AuditHtml, KernelFindingsAreLabelledByRuleAndLine) {
  AuditResult audit = testing::sample_audit();
  audit.kernels.front().finding_anchors.push_back("finding-none");
  const std::string html = render_audit_html(audit);
  EXPECT_THAT(html, HasSubstr("<a href=\"#finding-GP-ASM-001-csrc/a.cu-12\">GP-ASM-001 line "
                              "12</a><br><a href=\"#finding-none\">finding-none</a>"));
}

TEST(AuditHtml, HasTheFourChartsAndTheTables) {
  const std::string html = render_audit_html(testing::sample_audit());
  for (const std::string_view title :
       {k_gpu_time_chart_title, k_effort_chart_title, k_cost_chart_title, k_payback_chart_title}) {
    EXPECT_THAT(html, HasSubstr("-title\">" + std::string(title) + "</title>")) << title;
  }
  for (const char* table :
       {"<table class=\"portability\">", "<table class=\"classes\">", "<table class=\"items\">",
        "<table class=\"kernels\">", "<table class=\"findings\">"}) {
    EXPECT_THAT(html, HasSubstr(table));
  }
  // Own code is the accent part of the unknown class's bar: 4.1 of 5.5 ms over 300 px.
  EXPECT_THAT(html, HasSubstr("<rect class=\"accent\" x=\"200\" y=\"34\" width=\"223.6\""));
  EXPECT_THAT(html, HasSubstr("payback: 2.1 months"));
  EXPECT_THAT(html, HasSubstr("<tr id=\"item-3\"><td>3</td><td class=\"tier-rewrite\">rewrite"));
  EXPECT_THAT(html, HasSubstr("<td><code>cost.amd.gpu_price_per_hour</code></td>"));
}

TEST(AuditHtml, IsSelfContained) {
  const std::string html = render_audit_html(testing::sample_audit());
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("src=")));
  EXPECT_THAT(html, Not(HasSubstr("url(")));
  EXPECT_THAT(html, Not(HasSubstr("@import")));
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  // The only URL is the SVG namespace, which is a name, never fetched.
  std::size_t urls = 0;
  for (std::size_t at = html.find("http"); at != std::string::npos;
       at = html.find("http", at + 1)) {
    EXPECT_EQ(html.compare(at, 26, "http://www.w3.org/2000/svg"), 0) << html.substr(at, 40);
    ++urls;
  }
  EXPECT_EQ(urls, 4u);  // one per chart
  EXPECT_EQ(html.rfind("</html>\n"), html.size() - 8);
}

TEST(AuditHtml, WithoutATraceOrASavingItSaysSo) {
  AuditResult result = testing::sample_audit();
  result.inputs.traces.clear();
  result.class_time.clear();
  result.coverage = {false, 0.75, 2,
                     "no trace: estimated from the scan alone, ranges widened by ×0.75 low / ×2 "
                     "high"};
  for (AuditKernel& kernel : result.kernels) {
    kernel.hotness = Hotness::Untraced;
  }
  result.cost.monthly_delta = -500;
  result.verdict.cost_decides = true;  // the team's throughputs: the saving is stated
  result.verdict.assumed.clear();
  result.cost.payback_months.reset();
  result.cost.payback_ratio.reset();
  const std::string html = render_audit_html(result);
  EXPECT_THAT(html, HasSubstr("No trace: every kernel is priced from the scan alone."));
  EXPECT_THAT(html, HasSubstr("No trace was given, so there is no GPU time to show."));
  EXPECT_THAT(html, HasSubstr("ranges widened by ×0.75 low / ×2 high"));
  EXPECT_THAT(html, HasSubstr("<tr><th>Payback</th><td>never (horizon 12.0 months)</td></tr>"));
  EXPECT_THAT(html, Not(HasSubstr("class=\"marker\"")));
  EXPECT_THAT(html, HasSubstr("No kernel is hot."));
  EXPECT_THAT(html, HasSubstr("<h3>Cold and untraced kernels</h3>"));
  const std::string md = render_audit_markdown(result);
  EXPECT_THAT(md, HasSubstr("| Monthly saving on AMD | -$500.00 at 100M requests a month |"));
  EXPECT_THAT(md, HasSubstr("- No trace\n"));
  const auto json = nlohmann::json::parse(render_audit_json(result));
  EXPECT_TRUE(json["cost"]["payback_months"].is_null());
  EXPECT_TRUE(json["kernels"][0]["trace"].is_null());
  EXPECT_EQ(json["coverage"]["high_factor"], 2.0);
}

TEST(AuditUnits, SpellDaysDollarsAndAmounts) {
  EXPECT_EQ(format_dollars(0.4249), "$0.42");
  EXPECT_EQ(format_dollars(999.996), "$1,000");
  EXPECT_EQ(format_dollars(-1200), "-$1,200");
  EXPECT_EQ(format_dollars(-0.001), "$0.00");
  EXPECT_EQ(format_amount(1, "sites"), "1 site");
  EXPECT_EQ(format_amount(3, "unsupported APIs"), "3 unsupported APIs");
  EXPECT_EQ(format_amount(1, "unsupported APIs"), "1 unsupported API");
  EXPECT_EQ(format_requests(2.5e9), "2.5B");
  EXPECT_EQ(format_months(std::nullopt), "never");
  // A tiny item in hours, never "0"; a tenth of a day and more in days.
  EXPECT_EQ(format_effort(0.0625, 8), "0.5 h");
  EXPECT_EQ(format_effort(0.003, 8), "<0.1 h");
  EXPECT_EQ(format_effort(0, 8), "0");
  EXPECT_EQ(format_effort(0.125, 8), "0.1");
  EXPECT_EQ(format_effort(12.4, 8), "12");
  AuditKernel library;
  EXPECT_EQ(format_tuning(library), "-");  // no tuning days: not "0 / 0 / 0"
  library.tuning_days_low = 1;
  library.tuning_days_likely = 2;
  library.tuning_days_high = 6;
  EXPECT_EQ(format_tuning(library), "1 / 2 / 6");
  EXPECT_EQ(kernel_class_label(KernelClass::Unknown, true), "own code");
  EXPECT_EQ(kernel_class_label(KernelClass::Unknown, false), "unclassified");
  EXPECT_EQ(kernel_class_label(KernelClass::VendorBlas, false), "vendor-blas");
}

// A GitHub comment holds 65,536 characters: a large audit is rendered compact, with the verdict,
// the largest items and port-work findings, and a note saying where the rest is.
TEST(AuditMarkdown, ALargeAuditFitsAGitHubComment) {
  AuditResult result = testing::sample_audit();
  const EffortItem model = result.items.front();
  for (int i = 0; i < 400; ++i) {
    EffortItem item = model;
    item.anchor = "item-" + std::to_string(100 + i);
    item.title = "Filler item " + std::to_string(i);
    item.days = {0.01 * i, 0.02 * i, 0.03 * i};
    for (int e = 0; e < 12; ++e) {
      item.evidence.push_back(item.evidence.front());
    }
    result.items.push_back(item);
  }
  const AuditFinding finding = result.findings.front();
  for (int i = 0; i < 3000; ++i) {
    AuditFinding copy = finding;
    copy.scope = i % 2 == 0 ? Scope::Product : Scope::Test;  // half of them port work
    copy.line = static_cast<std::uint32_t>(1000 + i);
    result.findings.push_back(copy);
  }
  for (int i = 0; i < 40; ++i) {
    result.warnings.push_back("csrc/w" + std::to_string(i) + ".cu: unreadable");
  }
  const std::string md = render_audit_markdown(result);
  EXPECT_LE(md.size(), 65'536u);
  EXPECT_GT(md.size(), 10'000u);
  EXPECT_THAT(md, HasSubstr("**Verdict: Bounded project: 3–11 engineer-days**"));
  EXPECT_THAT(md, HasSubstr("| Filler item 399 |"));     // the largest filler is kept
  EXPECT_THAT(md, Not(HasSubstr("| Filler item 1 |")));  // a small one is not
  EXPECT_THAT(md, HasSubstr("smaller items ("));
  EXPECT_THAT(md, HasSubstr("more findings are not shown here: the JSON (`--format json`) and "
                            "HTML (`--format html`) reports list every one."));
  // The summary counts the warnings; the section at the end lists 20 of the 41.
  EXPECT_THAT(md, HasSubstr("\n41 warnings: see *Warnings* at the end.\n"));
  EXPECT_THAT(md, HasSubstr("## Warnings\n"));
  EXPECT_THAT(md, HasSubstr("- and 21 more: the JSON"));
  EXPECT_THAT(md, HasSubstr("; and 8 more |"));  // 13 evidence labels, 5 shown
}

}  // namespace
}  // namespace gpuport
