// `gpuport profile` and `gpuport compare` end to end on small Kineto fixtures: help, exit codes,
// one-line errors, JSON shape, formats, colour and atomic -o.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <zlib.h>
#include <nlohmann/json.hpp>

#include "cli/compare_command.h"
#include "cli/profile_command.h"
#include "cli_runner.h"

namespace gpuport {
namespace {

using testing::CliFixture;
using testing::CliRun;
namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::read_text;
using testing::shell_quoted;
using ::testing::StartsWith;

std::string fixture(const std::string& name) {
  return shell_quoted(std::string(GPUPORT_SOURCE_DIR) + "/tests/fixtures/profile/analysis/cli/" +
                      name);
}

class ProfileCli : public CliFixture {};

// A 200 KB gzip that expands to one 200 MB kernel name grew memory until a bare
// std::bad_alloc (issue 27, item 11): now one line naming the file and the byte.
TEST_F(ProfileCli, ADecompressionBombIsOneLineNamingTheFile) {
  const fs::path bomb = m_dir / "bomb.json.gz";
  gzFile out = gzopen(bomb.c_str(), "wb9");
  ASSERT_NE(out, nullptr);
  const std::string head = R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": ")";
  gzwrite(out, head.data(), static_cast<unsigned>(head.size()));
  const std::string block(1 << 20, 'A');
  for (int i = 0; i < 200; ++i) {
    gzwrite(out, block.data(), static_cast<unsigned>(block.size()));
  }
  const std::string tail = R"(", "ts": 1, "dur": 2}]})";
  gzwrite(out, tail.data(), static_cast<unsigned>(tail.size()));
  gzclose(out);
  const CliRun run = gpuport("profile " + shell_quoted(bomb.string()));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, "gpuport: error: " + bomb.string() +
                         ": byte 54: one value is longer than 64 MiB (a trace holds names and "
                         "numbers; this is no trace)\n");
  EXPECT_EQ(run.out, "");
}

TEST_F(ProfileCli, HelpTeachesColumnsStepsExamplesAndExitCodes) {
  const CliRun run = gpuport("profile --help");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* text :
       {"TRACE", "--source", "--scan", "--input-format", "--step", "--top", "--format",
        "-o,--output", "--color", "--quiet", "Kernel table columns:", "share", "own",
        "nearest-rank", "Examples:", "Exit codes:", "NO_COLOR", "nsys-sqlite", "rocpd-sqlite"}) {
    EXPECT_THAT(run.out, HasSubstr(text)) << text;
  }
  EXPECT_EQ(run.out, profile_help());
  EXPECT_EQ(gpuport("help profile").out, run.out);
}

TEST_F(ProfileCli, CompareHelpSaysHowToReadTheRatio) {
  const CliRun run = gpuport("compare --help");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_THAT(run.out, HasSubstr("B/A"));
  EXPECT_THAT(run.out, HasSubstr("Examples:"));
  EXPECT_EQ(run.out, compare_help());
}

TEST_F(ProfileCli, TextReportOnAKinetoTrace) {
  const CliRun run = gpuport("profile " + fixture("nvidia_steps.json"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_THAT(run.out, HasSubstr("kineto trace, nvidia, NVIDIA H100 80GB HBM3"));
  EXPECT_THAT(run.out, HasSubstr("kernels 216.00 \u00b5s (5 dispatches of 3 kernels)"));
  EXPECT_THAT(run.out, HasSubstr("fused_rmsnorm<half, \"fast\">|v2 & more"));
  EXPECT_THAT(run.out, HasSubstr("3 steps from ProfilerStep# ranges on the GPU timeline"));
  EXPECT_EQ(run.out.find('\x1b'), std::string::npos);  // not a terminal: no colour
}

TEST_F(ProfileCli, JsonShapeAndExactNumbers) {
  const CliRun run = gpuport("profile " + fixture("nvidia_steps.json") + " --format json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["schema_version"], "1");
  EXPECT_EQ(doc["command"], "profile");
  EXPECT_EQ(doc["trace"]["format"], "kineto");
  EXPECT_EQ(doc["trace"]["vendor"], "nvidia");
  EXPECT_EQ(doc["totals"]["kernel_ns"], 216'001);  // 20.250 + 20.250 + 20.001 + 5.5 + 150 µs
  EXPECT_EQ(doc["totals"]["memory_ns"], 750);
  ASSERT_EQ(doc["kernels"].size(), 4u);
  const auto& gemm = doc["kernels"][1];
  EXPECT_EQ(gemm["calls"], 3);
  EXPECT_EQ(gemm["total_ns"], 60'501);
  EXPECT_EQ(gemm["min_ns"], 20'001);
  EXPECT_EQ(gemm["launches"][0]["api"], "cudaLaunchKernelExC");
  EXPECT_EQ(doc["kernels"][0]["name"], "fused_rmsnorm<half, \"fast\">|v2 & more");
  EXPECT_EQ(doc["steps"]["count"], 3);
  EXPECT_EQ(doc["steps"]["p50_ns"], 100'000);
  EXPECT_EQ(doc["steps"]["p95_ns"], 300'000);
  EXPECT_EQ(doc["steps"]["percentile_method"], "nearest-rank");
  EXPECT_EQ(doc["steps"]["p95_mix"]["slow_steps"], 1);
  EXPECT_EQ(doc["steps"]["p95_mix"]["kernels"][0]["rank"], 1);
}

TEST_F(ProfileCli, CsvAndMarkdown) {
  const CliRun csv = gpuport("profile " + fixture("nvidia_steps.json") + " --format csv");
  ASSERT_EQ(csv.exit_code, 0);
  EXPECT_THAT(csv.out, StartsWith("rank,name,display,kind,class,"));
  EXPECT_THAT(csv.out, HasSubstr(R"(1,"fused_rmsnorm<half, ""fast"">|v2 & more",)"));
  const CliRun md = gpuport("profile " + fixture("nvidia_steps.json") + " --format md");
  ASSERT_EQ(md.exit_code, 0);
  EXPECT_THAT(md.out, HasSubstr(R"(fused\_rmsnorm&lt;half, "fast"&gt;\|v2 &amp; more)"));
}

TEST_F(ProfileCli, StepRegexAndTop) {
  const CliRun run =
      gpuport("profile " + fixture("nvidia_steps.json") + " --format json --step 'Step#[12]$'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["steps"]["source"], "pattern");
  EXPECT_EQ(doc["steps"]["count"], 2);
  const CliRun top = gpuport("profile " + fixture("nvidia_steps.json") + " --top 1");
  EXPECT_THAT(top.out, HasSubstr("Kernels (top 1 of 4 by total time)"));
}

TEST_F(ProfileCli, ColourWhenForcedAndNeverWithNoColorUnderAuto) {
  const CliRun forced =
      gpuport("profile " + fixture("nvidia_steps.json") + " --color always", "NO_COLOR=1");
  EXPECT_NE(forced.out.find("\x1b[1m"), std::string::npos);
  const CliRun automatic = gpuport("profile " + fixture("nvidia_steps.json"), "NO_COLOR=1");
  EXPECT_EQ(automatic.out.find('\x1b'), std::string::npos);
}

TEST_F(ProfileCli, UnreadableTraceIsOneLineAndExitTwo) {
  const CliRun run = gpuport("profile " + fixture("truncated.json"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, StartsWith("gpuport: error: "));
  EXPECT_THAT(run.err, HasSubstr("truncated.json: byte 900"));
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1);

  const CliRun empty = gpuport("profile " + fixture("no_kernels.json"));
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_THAT(empty.err, HasSubstr("no_kernels.json: "));

  const CliRun missing = gpuport("profile " + shell_quoted((m_dir / "absent.json").string()));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("absent.json"));
}

TEST_F(ProfileCli, UsageErrorsExitTwoWithAMessage) {
  const auto expect_usage = [this](const std::string& args, const std::string& message) {
    const CliRun run = gpuport(args);
    EXPECT_EQ(run.exit_code, 2) << args;
    EXPECT_THAT(run.err, HasSubstr(message)) << args;
    EXPECT_EQ(run.out, "") << args;
  };
  expect_usage("profile", "missing TRACE");
  expect_usage("profile " + fixture("nvidia_steps.json") + " --format xml",
               "invalid --format 'xml' (valid: text, json, markdown, csv)");
  expect_usage("profile " + fixture("nvidia_steps.json") + " --input-format perfetto",
               "invalid --input-format 'perfetto' (valid: kineto, rocprofv3-json, nsys-sqlite");
  expect_usage("profile " + fixture("nvidia_steps.json") + " --step '['", "invalid --step '['");
  expect_usage("profile " + fixture("nvidia_steps.json") + " --source . --scan s.json",
               "--source and --scan cannot be combined");
  expect_usage("profile " + fixture("nvidia_steps.json") + " --color sometimes",
               "invalid --color 'sometimes'");
  expect_usage("profile --bogus", "--bogus");
  expect_usage("compare " + fixture("nvidia_steps.json"), "give two traces: gpuport compare A B");
}

TEST_F(ProfileCli, OutputFileIsWrittenWholeAndNeverOnError) {
  const fs::path out = m_dir / "profile.json";
  const CliRun run = gpuport("profile " + fixture("nvidia_steps.json") + " --format json -o " +
                             shell_quoted(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(nlohmann::json::parse(read_text(out))["totals"]["kernel_ns"], 216'001);

  // A bad trace leaves an existing report untouched and no temporary files behind.
  const std::string before = read_text(out);
  const CliRun bad = gpuport("profile " + fixture("truncated.json") + " --format json -o " +
                             shell_quoted(out.string()));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(read_text(out), before);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(m_dir)) {
    ++entries;
  }
  EXPECT_EQ(entries, 1u);

  const CliRun nowhere = gpuport("profile " + fixture("nvidia_steps.json") + " -o " +
                                 shell_quoted((m_dir / "no/such/dir/p.txt").string()));
  EXPECT_EQ(nowhere.exit_code, 2);
  EXPECT_THAT(nowhere.err, HasSubstr("gpuport: error: cannot write"));
}

TEST_F(ProfileCli, SourceAndScanJoinOwnKernelsToTheirDefinition) {
  const fs::path repo = m_dir / "repo";
  fs::create_directories(repo / "csrc");
  std::ofstream(repo / "csrc" / "rmsnorm.cu")
      << "#include <cuda_runtime.h>\n"
         "template <typename T>\n"
         "__global__ void rmsnorm_kernel(T* out, int n) { out[0] = n; }\n";
  const CliRun run = gpuport("profile " + fixture("own_kernel.json") + " --format json -q " +
                             "--source " + shell_quoted(repo.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["source_join"]["definitions"], 1);
  EXPECT_EQ(doc["source_join"]["joined"], 1);
  EXPECT_EQ(doc["kernels"][0]["own_code"], true);
  EXPECT_EQ(doc["kernels"][0]["source"]["file"], "csrc/rmsnorm.cu");
  EXPECT_EQ(doc["kernels"][0]["source"]["line"], 3);

  const fs::path scan_json = m_dir / "scan.json";
  ASSERT_EQ(gpuport("scan " + shell_quoted(repo.string()) + " -q --format json -o " +
                    shell_quoted(scan_json.string()))
                .exit_code,
            0);
  const CliRun text = gpuport("profile " + fixture("own_kernel.json") + " --scan " +
                              shell_quoted(scan_json.string()));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("Source join: 1 of the trace's kernels matched 1 scanned"));
  EXPECT_THAT(text.out, HasSubstr("csrc/rmsnorm.cu:3"));
  EXPECT_THAT(text.out, HasSubstr("(1 dispatch of 1 kernel)"));

  const CliRun absent = gpuport("profile " + fixture("nvidia_steps.json") + " --source " +
                                shell_quoted((m_dir / "nope").string()));
  EXPECT_EQ(absent.exit_code, 2);
  EXPECT_THAT(absent.err, HasSubstr("nope"));
  const CliRun bad_scan =
      gpuport("profile " + fixture("nvidia_steps.json") + " --scan " + fixture("truncated.json"));
  EXPECT_EQ(bad_scan.exit_code, 2);
  EXPECT_THAT(bad_scan.err, HasSubstr("truncated.json"));
}

TEST_F(ProfileCli, CompareTwoPlatforms) {
  const CliRun run = gpuport("compare " + fixture("nvidia_steps.json") + " " +
                             fixture("amd_steps.json") + " --format json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["command"], "compare");
  EXPECT_EQ(doc["a"]["trace"]["vendor"], "nvidia");
  EXPECT_EQ(doc["b"]["trace"]["vendor"], "amd");
  EXPECT_EQ(doc["b"]["totals"]["kernel_ns"], 56'000);
  EXPECT_DOUBLE_EQ(doc["ratios"]["kernel"].get<double>(), 0.259258);  // 56000 / 216001
  ASSERT_EQ(doc["matched"].size(), 1u);
  EXPECT_EQ(doc["matched"][0]["a_ns"], 5'500);
  EXPECT_EQ(doc["matched"][0]["b_ns"], 11'000);

  const CliRun text =
      gpuport("compare " + fixture("nvidia_steps.json") + " " + fixture("amd_steps.json"));
  EXPECT_THAT(text.out, HasSubstr("Kernel time: A 216.00 \u00b5s, B 56.00 \u00b5s; B/A 0.26x"));

  const CliRun bad =
      gpuport("compare " + fixture("nvidia_steps.json") + " " + fixture("truncated.json"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("truncated.json: byte 900"));
}

}  // namespace
}  // namespace gpuport
