// `gpuport audit` end to end on the bundled example: help, where the report goes (default file,
// -o, -o -), formats, one-line errors with exit 2, atomic -o, --print-default-config.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sstream>

#include "cli/audit_command.h"
#include "cli_runner.h"

namespace gpuport {
namespace {

using testing::CliFixture;
using testing::CliRun;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using testing::read_text;
using testing::shell_quoted;
using ::testing::StartsWith;
namespace fs = std::filesystem;

std::string source(const std::string& relative) {
  return shell_quoted(std::string(GPUPORT_SOURCE_DIR) + "/" + relative);
}

// The example with its trace and price config: the README's first command.
std::string example_args() {
  return source("examples/serving-repo") + " --trace " +
         source("examples/traces/serving-h100.json.gz") + " --config " +
         source("examples/gpuport.toml") + " -q";
}

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class AuditCli : public CliFixture {
 protected:
  // Runs gpuport with the temporary directory as the working directory.
  CliRun gpuport_here(const std::string& args) {
    return gpuport(args, "-C " + shell_quoted(m_dir.string()));
  }
};

TEST_F(AuditCli, HelpTeachesInputsOutputsExamplesAndExitCodes) {
  const CliRun run = gpuport("audit --help");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* text :
       {"REPO", "--trace", "--config", "-o,--output", "--format", "--print-default-config",
        "--quiet", "verdict", "engineer-days", "break", "p95", "gpuport-report.html",
        "self-contained", "docs/audit-json.md", "Examples:", "Exit codes:"}) {
    EXPECT_THAT(run.out, HasSubstr(text)) << text;
  }
  EXPECT_EQ(run.out, audit_help());
  EXPECT_EQ(gpuport("help audit").out, run.out);
  EXPECT_THAT(gpuport("--help").out, HasSubstr("  audit    Decide a move to AMD"));
}

TEST_F(AuditCli, WritesTheHtmlReportToTheCurrentDirectoryByDefaultAndSaysWhere) {
  const CliRun run = gpuport_here("audit " + example_args());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  const fs::path report = m_dir / "gpuport-report.html";
  ASSERT_TRUE(fs::is_regular_file(report));
  EXPECT_THAT(run.out, StartsWith("Verdict: "));
  EXPECT_THAT(run.out, EndsWith("Report:  " + fs::canonical(report).string() + "\n"));
  EXPECT_EQ(lines(run.out), 2u);
  const std::string html = read_text(report);
  EXPECT_THAT(html, StartsWith("<!DOCTYPE html>"));
  EXPECT_THAT(html, HasSubstr("<title>gpuport audit: "));
  // The example's own kernels, joined to their source, are in the kernel table.
  EXPECT_THAT(html, HasSubstr("csrc/dequant_rotary.cu:39</code>"));
  EXPECT_THAT(html, HasSubstr("csrc/fused_norm.cu:68</code>"));
}

TEST_F(AuditCli, JsonHasTheDocumentedShapeAndTheExamplesFacts) {
  const fs::path out = m_dir / "audit.json";
  const CliRun run =
      gpuport("audit " + example_args() + " --format json -o " + shell_quoted(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto json = nlohmann::json::parse(read_text(out));
  EXPECT_EQ(json["schema_version"], "1");
  EXPECT_EQ(json["command"], "audit");
  for (const char* key :
       {"tool", "inputs", "coverage", "verdict", "effort", "cost", "hot_threshold", "portability",
        "gpu_time", "kernels", "items", "findings", "warnings"}) {
    EXPECT_TRUE(json.contains(key)) << key;
  }
  EXPECT_EQ(json["inputs"]["traces"][0]["gpu"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(json["inputs"]["traces"][0]["steps"], 12);
  EXPECT_EQ(json["inputs"]["traces"][0]["joined_kernels"], 4);
  EXPECT_EQ(json["effort"]["tiers"].size(), 4u);
  EXPECT_LE(json["verdict"]["reasons"].size(), 3u);
  EXPECT_GE(json["verdict"]["reasons"].size(), 1u);
  // The config's overrides are reported with their lines.
  bool day_rate = false;
  for (const auto& entry : json["inputs"]["overrides"]) {
    if (entry["key"] == "cost.day_rate") {
      day_rate = true;
      EXPECT_EQ(entry["value"], "1100.0");
    }
  }
  EXPECT_TRUE(day_rate);
  EXPECT_EQ(json["cost"]["day_rate"], 1100.0);
  EXPECT_EQ(json["cost"]["nvidia"]["gpu_price_per_hour"], 2.99);
  // Markdown goes to stdout without -o.
  const CliRun md = gpuport("audit " + example_args() + " --format md");
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_THAT(md.out, StartsWith("# gpuport audit: "));
  EXPECT_THAT(md.out, HasSubstr(json["verdict"]["headline"].get<std::string>()));
}

TEST_F(AuditCli, DashWritesHtmlToStdoutAndNothingElse) {
  const CliRun run = gpuport_here("audit " + example_args() + " -o -");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, StartsWith("<!DOCTYPE html>"));
  EXPECT_THAT(run.out, EndsWith("</html>\n"));
  EXPECT_FALSE(fs::exists(m_dir / "gpuport-report.html"));
}

TEST_F(AuditCli, BadConfigIsOneLineAndExit2AndLeavesTheOldReport) {
  const fs::path config = m_dir / "bad.toml";
  std::ofstream(config) << "[cost]\nday_rate = 900.0\n\n[effort]\nno_such_weight = 1.0\n";
  const fs::path out = m_dir / "report.html";
  std::ofstream(out) << "previous report";
  const CliRun run = gpuport("audit " + source("examples/serving-repo") + " --config " +
                             shell_quoted(config.string()) + " -o " + shell_quoted(out.string()));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(lines(run.err), 1u) << run.err;
  EXPECT_THAT(run.err, StartsWith("gpuport: error: " + config.string() + ":5: "));
  EXPECT_THAT(run.err, HasSubstr("no_such_weight"));
  EXPECT_EQ(read_text(out), "previous report");  // never a partial or replaced report
  // Nothing else was left beside it (no temporary file).
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(m_dir)) {
    ++entries;
  }
  EXPECT_EQ(entries, 2u);
}

TEST_F(AuditCli, UnreadableInputsAndBadUsageAreOneLineAndExit2) {
  const std::string missing = (m_dir / "nope.json.gz").string();
  const CliRun trace = gpuport("audit " + source("examples/serving-repo") + " --trace " +
                               shell_quoted(missing) + " --format json");
  EXPECT_EQ(trace.exit_code, 2);
  EXPECT_EQ(lines(trace.err), 1u) << trace.err;
  EXPECT_THAT(trace.err, StartsWith("gpuport: error: " + missing));

  const CliRun repo = gpuport("audit " + shell_quoted((m_dir / "no-repo").string()) + " -o -");
  EXPECT_EQ(repo.exit_code, 2);
  EXPECT_EQ(lines(repo.err), 1u) << repo.err;

  const CliRun format = gpuport("audit . --format pdf");
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_EQ(format.err, "gpuport: error: invalid --format 'pdf' (valid: html, markdown, json)\n");

  const CliRun none = gpuport("audit");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err, "gpuport: error: missing REPO: give the repository to audit\n");
}

TEST_F(AuditCli, UnwritableOutputIsOneLineAndExit2) {
  const std::string out = (m_dir / "missing-dir" / "report.html").string();
  const CliRun run = gpuport("audit " + example_args() + " -o " + shell_quoted(out));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(lines(run.err), 1u) << run.err;
  EXPECT_THAT(run.err, StartsWith("gpuport: error: cannot write '" + out + "'"));
}

// docs/audit.md quotes the example's report; every quoted line must still be what it prints.
TEST_F(AuditCli, TheDocsExcerptIsTheExamplesCurrentReport) {
  const CliRun run = gpuport("audit " + example_args() + " --format markdown");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string doc = read_text(std::string(GPUPORT_SOURCE_DIR) + "/docs/audit.md");
  std::size_t quoted = 0;
  for (std::size_t at = doc.find("```markdown\n"); at != std::string::npos;
       at = doc.find("```markdown\n", at + 1)) {
    const std::size_t begin = at + 12;
    const std::size_t end = doc.find("```", begin);
    std::istringstream block(doc.substr(begin, end - begin));
    for (std::string line; std::getline(block, line);) {
      if (!line.empty()) {
        EXPECT_THAT(run.out, HasSubstr(line + "\n"))
            << "docs/audit.md quotes a line the report no longer has";
        ++quoted;
      }
    }
  }
  EXPECT_GE(quoted, 20u);
  EXPECT_THAT(
      doc, HasSubstr(
               "Verdict: " +
               nlohmann::json::parse(
                   gpuport("audit " + example_args() + " --format json").out)["verdict"]["headline"]
                   .get<std::string>()));
}

TEST_F(AuditCli, PrintDefaultConfigPrintsTheShippedDefaults) {
  const CliRun run = gpuport_here("audit --print-default-config");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, read_text(std::string(GPUPORT_SOURCE_DIR) + "/config/gpuport-defaults.toml"));
  EXPECT_FALSE(fs::exists(m_dir / "gpuport-report.html"));
}

}  // namespace
}  // namespace gpuport
