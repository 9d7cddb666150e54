// The gpuport binary end to end: help, version, dispatch errors, scan flags, exit codes, outputs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/command_table.h"
#include "cli/scan_command.h"
#include "scan/rules/catalog.h"
#include "version.h"

namespace gpuport {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "gpuport-cli-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    m_dir = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(m_dir, ignored);
  }

  // Runs the binary with `args` (already shell-quoted where needed) and `env` assignments.
  Outcome gpuport(const std::string& args, const std::string& env = "") {
    const fs::path out = m_dir / "stdout.txt";
    const fs::path err = m_dir / "stderr.txt";
    const std::string command = "env " + env + " " + quoted(GPUPORT_BINARY) + " " + args + " >" +
                                quoted(out.string()) + " 2>" + quoted(err.string()) + " </dev/null";
    const int status = std::system(command.c_str());
    Outcome run;
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = read_file(out);
    run.err = read_file(err);
    fs::remove(out);
    fs::remove(err);
    return run;
  }

  // A tiny repository with one inline-PTX kernel (a rewrite-tier hazard) and a README.
  fs::path cuda_tree() {
    const fs::path root = m_dir / "repo";
    write_file(root / "csrc" / "gemm.cu",
               "#include <cuda_runtime.h>\n"
               "__global__ void gemm_kernel(float* out) {\n"
               "  unsigned r;\n"
               "  asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0}, {%1};\" "
               ": \"=r\"(r) : \"r\"(r));\n"
               "  out[threadIdx.x] = r;\n"
               "}\n");
    write_file(root / "README.md", "# demo\n");
    return root;
  }

  fs::path plain_tree() {
    const fs::path root = m_dir / "plain";
    write_file(root / "README.md", "# nothing CUDA here\n");
    write_file(root / "notes.txt", "hello\n");
    return root;
  }

  fs::path m_dir;
};

TEST_F(CliTest, VersionPrintsNameAndVersion) {
  const Outcome run = gpuport("--version");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, std::string("gpuport ") + k_version + "\n");
}

TEST_F(CliTest, HelpAndNoArgumentsListSubcommands) {
  for (const std::string args : {"--help", ""}) {
    const Outcome run = gpuport(args);
    EXPECT_EQ(run.exit_code, 0) << args;
    for (const Command& command : command_table()) {
      EXPECT_THAT(run.out, HasSubstr("  " + std::string(command.name) + " ")) << args;
      EXPECT_THAT(run.out, HasSubstr(std::string(command.summary)));
    }
    EXPECT_THAT(run.out, HasSubstr("--version"));
  }
}

TEST_F(CliTest, ScanHelpTeachesEveryFlagExamplesAndExitCodes) {
  const Outcome run = gpuport("scan --help");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* flag :
       {"PATH", "--format", "-o,--output", "-j,--jobs", "--exclude", "--no-ignore",
        "--follow-symlinks", "--max-filesize", "--fail-on", "--color", "--quiet", "--help"}) {
    EXPECT_THAT(run.out, HasSubstr(flag)) << flag;
  }
  EXPECT_THAT(run.out, HasSubstr("Examples:"));
  EXPECT_THAT(run.out, HasSubstr("Exit codes:"));
  EXPECT_THAT(run.out, HasSubstr("NO_COLOR"));
  EXPECT_EQ(run.out, scan_help());
  // `gpuport help scan` is the same text.
  EXPECT_EQ(gpuport("help scan").out, run.out);
}

TEST_F(CliTest, UnknownCommandSuggestsTheClosestOne) {
  const Outcome run = gpuport("scna");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("gpuport: unknown command 'scna'. Did you mean 'scan'?\n"));
  EXPECT_EQ(run.out, "");
  const Outcome far = gpuport("frobnicate");
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_THAT(far.err, HasSubstr("gpuport: unknown command 'frobnicate'."));
  EXPECT_THAT(far.err, Not(HasSubstr("Did you mean")));
}

TEST_F(CliTest, NonexistentPathIsAnInputErrorAndWritesNothing) {
  const fs::path missing = m_dir / "missing";
  const fs::path report = m_dir / "report.json";
  const Outcome run =
      gpuport("scan " + quoted(missing.string()) + " --format json -o " + quoted(report.string()));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err,
            "gpuport: error: cannot read '" + missing.string() + "': No such file or directory\n");
  EXPECT_EQ(run.out, "");
  EXPECT_FALSE(fs::exists(report));
}

TEST_F(CliTest, FailOnExitsOneAtOrAboveTheTier) {
  const fs::path repo = cuda_tree();
  const Outcome json_run = gpuport("scan --quiet --format json " + quoted(repo.string()));
  ASSERT_EQ(json_run.exit_code, 0) << json_run.err;
  const auto doc = nlohmann::json::parse(json_run.out);
  ASSERT_EQ(doc["summary"]["highest_tier"], "rewrite");

  const Outcome rewrite = gpuport("scan --quiet --fail-on rewrite " + quoted(repo.string()));
  EXPECT_EQ(rewrite.exit_code, 1);
  EXPECT_THAT(rewrite.err, HasSubstr("--fail-on rewrite"));
  EXPECT_EQ(gpuport("scan --quiet --fail-on mechanical " + quoted(repo.string())).exit_code, 1);
  const Outcome clean =
      gpuport("scan --quiet --fail-on framework " + quoted(plain_tree().string()));
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
}

// The gate counts port work: PTX the AMD build leaves out, and PTX in tests, do not trip it.
TEST_F(CliTest, FailOnIgnoresCodeTheAmdBuildLeavesOutAndCodeOutsideTheProduct) {
  const fs::path repo = m_dir / "ported";
  write_file(repo / "csrc" / "mma.cuh",
             "#if !defined(__HIP_PLATFORM_AMD__)\n"
             "__device__ void f(unsigned* r) { asm volatile(\"mma.sync.aligned.m16n8k16.row.col"
             ".f32.f16.f16.f32 {%0}, {%1}, {%2}, {%0};\" : \"+r\"(r[0])); }\n"
             "#else\n"
             "__device__ void f(unsigned* r) { r[0] = 0; }\n"
             "#endif\n");
  write_file(repo / "tests" / "check_mma.cu",
             "__device__ void g(unsigned* r) { asm volatile(\"mma.sync.aligned.m16n8k16.row.col"
             ".f32.f16.f16.f32 {%0}, {%1}, {%2}, {%0};\" : \"+r\"(r[0])); }\n");
  const Outcome json_run = gpuport("scan --quiet --format json " + quoted(repo.string()));
  ASSERT_EQ(json_run.exit_code, 0) << json_run.err;
  const auto doc = nlohmann::json::parse(json_run.out);
  std::size_t ptx = 0;
  for (const auto& finding : doc["findings"]) {
    ptx += finding["tier"] == "rewrite" ? 1 : 0;
  }
  ASSERT_EQ(ptx, 2u);  // both are reported...
  const Outcome gate = gpuport("scan --quiet --fail-on rewrite " + quoted(repo.string()));
  EXPECT_EQ(gate.exit_code, 0) << gate.err;  // ...and neither is port work

  write_file(repo / "csrc" / "extra.cu",
             "__device__ void h(unsigned* r) { asm volatile(\"mma.sync.aligned.m16n8k16.row.col"
             ".f32.f16.f16.f32 {%0}, {%1}, {%2}, {%0};\" : \"+r\"(r[0])); }\n");
  const Outcome tripped = gpuport("scan --quiet --fail-on rewrite " + quoted(repo.string()));
  EXPECT_EQ(tripped.exit_code, 1);
  EXPECT_EQ(tripped.err, "gpuport: --fail-on rewrite: 1 finding at or above this tier\n");
}

TEST_F(CliTest, InvalidFailOnTierListsTheValidNames) {
  const Outcome run = gpuport("scan --fail-on critical " + quoted(plain_tree().string()));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err,
            "gpuport: error: invalid --fail-on tier 'critical' (valid: framework, config, "
            "mechanical, retune, rewrite)\n");
  EXPECT_EQ(run.out, "");
}

TEST_F(CliTest, BadUsageExitsTwo) {
  const std::string repo = quoted(plain_tree().string());
  EXPECT_EQ(gpuport("scan --format xml " + repo).exit_code, 2);
  EXPECT_EQ(gpuport("scan --color sometimes " + repo).exit_code, 2);
  EXPECT_EQ(gpuport("scan --jobs 0 " + repo).exit_code, 2);
  EXPECT_EQ(gpuport("scan --no-such-flag " + repo).exit_code, 2);
  const Outcome size = gpuport("scan --max-filesize 12X " + repo);
  EXPECT_EQ(size.exit_code, 2);
  EXPECT_THAT(size.err, HasSubstr("gpuport: error: invalid --max-filesize '12X'"));
}

TEST_F(CliTest, OutputFileIsWrittenWholeWithNoTemporariesLeft) {
  const fs::path repo = cuda_tree();
  const fs::path out_dir = m_dir / "out";
  fs::create_directories(out_dir);
  const fs::path report = out_dir / "scan.json";
  const Outcome run = gpuport("scan --quiet --format json -o " + quoted(report.string()) + " " +
                              quoted(repo.string()));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "");
  const auto doc = nlohmann::json::parse(read_file(report));
  EXPECT_EQ(doc["schema_version"], "1");
  EXPECT_EQ(doc["tool"]["name"], "gpuport");
  std::size_t entries = 0;
  for (const auto& entry : fs::directory_iterator(out_dir)) {
    EXPECT_EQ(entry.path().filename(), "scan.json");
    ++entries;
  }
  EXPECT_EQ(entries, 1u);
}

TEST_F(CliTest, JsonOutputParsesAndCountsTheTree) {
  const fs::path repo = cuda_tree();
  const Outcome run = gpuport("scan --quiet --format json " + quoted(repo.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["schema_version"], "1");
  EXPECT_EQ(doc["summary"]["files"], 1);  // README.md is not a kind of file gpuport reads
  EXPECT_EQ(doc["languages"]["cuda"]["files"], 1);
  ASSERT_EQ(doc["kernels"].size(), 1u);
  EXPECT_EQ(doc["kernels"][0]["name"], "gemm_kernel");
  EXPECT_EQ(doc["kernels"][0]["file"], "csrc/gemm.cu");
}

TEST_F(CliTest, SarifAndMarkdownFormats) {
  const fs::path repo = cuda_tree();
  const Outcome sarif = gpuport("scan --quiet --format sarif " + quoted(repo.string()));
  ASSERT_EQ(sarif.exit_code, 0) << sarif.err;
  const auto doc = nlohmann::json::parse(sarif.out);
  EXPECT_EQ(doc["version"], "2.1.0");
  EXPECT_FALSE(doc["runs"][0]["results"].empty());
  const std::string base = doc["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"];
  EXPECT_TRUE(base.starts_with("file:///")) << base;
  EXPECT_TRUE(base.ends_with("/repo/")) << base;
  const Outcome md = gpuport("scan --quiet --format md " + quoted(repo.string()));
  EXPECT_EQ(md.exit_code, 0);
  EXPECT_THAT(md.out, HasSubstr("## gpuport scan"));
  EXPECT_THAT(md.out, HasSubstr("| `gemm_kernel` |"));
}

TEST_F(CliTest, ColourFollowsFlagThenNoColorThenTerminal) {
  const std::string repo = quoted(cuda_tree().string());
  // --color always is an explicit request and beats NO_COLOR.
  EXPECT_THAT(gpuport("scan --quiet --color always " + repo, "NO_COLOR=1").out, HasSubstr("\x1b["));
  // auto: stdout here is a file, so no colour; never: none.
  EXPECT_THAT(gpuport("scan --quiet " + repo).out, Not(HasSubstr("\x1b")));
  EXPECT_THAT(gpuport("scan --quiet --color never " + repo).out, Not(HasSubstr("\x1b")));
  EXPECT_THAT(gpuport("scan --quiet --color auto " + repo, "NO_COLOR=1").out,
              Not(HasSubstr("\x1b")));
}

TEST_F(CliTest, MaxFilesizeSkipsLargerFiles) {
  const fs::path repo = plain_tree();
  write_file(repo / "big.py", std::string(3000, '#') + "\n");
  const Outcome run =
      gpuport("scan --quiet --format json --max-filesize 2K " + quoted(repo.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["skipped_by_reason"]["too_large"], 1);
  EXPECT_EQ(doc["skipped"][0]["path"], "big.py");
}

TEST_F(CliTest, RepeatedExcludeDoesNotSwallowThePath) {
  const fs::path repo = cuda_tree();
  const Outcome run = gpuport("scan --quiet --format json --exclude '*.cu' --exclude '*.md' " +
                              quoted(repo.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["root"], repo.string());
  EXPECT_EQ(doc["summary"]["files"], 0);
  EXPECT_TRUE(doc["kernels"].empty());
}

TEST_F(CliTest, LexerWarningsGoToStderrInTextMode) {
  const fs::path repo = plain_tree();
  write_file(repo / "broken.cu", "__global__ void k() {}\n/* never closed\n");
  const Outcome run = gpuport("scan --quiet " + quoted(repo.string()));
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_THAT(run.err, HasSubstr("gpuport: warning: broken.cu:2:"));
  EXPECT_THAT(run.out, Not(HasSubstr("gpuport: warning")));
  const Outcome json = gpuport("scan --quiet --format json " + quoted(repo.string()));
  EXPECT_EQ(json.err, "");
  EXPECT_FALSE(nlohmann::json::parse(json.out)["warnings"].empty());
}

TEST_F(CliTest, ClosedPipeExitsQuietly) {
  const fs::path repo = cuda_tree();
  const fs::path rc = m_dir / "rc.txt";
  const fs::path err = m_dir / "err.txt";
  const std::string command = "(" + quoted(GPUPORT_BINARY) + " scan --format json " +
                              quoted(repo.string()) + " 2>" + quoted(err.string()) + "; echo $? >" +
                              quoted(rc.string()) + ") | true";
  ASSERT_EQ(std::system(command.c_str()), 0);
  EXPECT_EQ(read_file(rc), "0\n");
  EXPECT_EQ(read_file(err), "");
}

TEST_F(CliTest, RulesListsTheCatalogAndExplainsOneRule) {
  const auto catalog = rule_catalog();
  ASSERT_FALSE(catalog.empty());
  const Outcome list = gpuport("rules");
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_THAT(list.out, HasSubstr(std::string(catalog.front().id)));
  EXPECT_THAT(list.out, HasSubstr(std::string(catalog.back().id)));

  const RuleInfo& rule = catalog.front();
  const Outcome one = gpuport("rules " + std::string(rule.id));
  EXPECT_EQ(one.exit_code, 0);
  EXPECT_THAT(one.out, HasSubstr(std::string(rule.id) + ": " + std::string(rule.summary)));
  EXPECT_THAT(one.out, HasSubstr("docs/rules/" + std::string(rule.id) + ".md"));
  EXPECT_THAT(one.out, HasSubstr(std::string(tier_name(rule.tier))));

  const Outcome json = gpuport("rules --format json");
  EXPECT_EQ(json.exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(json.out).size(), catalog.size());

  const Outcome unknown = gpuport("rules GP-NOPE-999");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("gpuport: error: unknown rule 'GP-NOPE-999'."));
}

TEST(CommandTable, DidYouMeanUsesEditDistance) {
  EXPECT_EQ(edit_distance("scna", "scan"), 1u);  // a transposition is one edit
  EXPECT_EQ(edit_distance("", "scan"), 4u);
  EXPECT_EQ(edit_distance("rules", "rules"), 0u);
  const std::vector<std::string_view> names = {"scan", "rules"};
  EXPECT_EQ(did_you_mean("scna", names), "scan");
  EXPECT_EQ(did_you_mean("rule", names), "rules");
  EXPECT_EQ(did_you_mean("sacn", names), "scan");
  EXPECT_FALSE(did_you_mean("x", names).has_value());
  EXPECT_FALSE(did_you_mean("profile", names).has_value());
}

TEST(ScanArgs, MaxFilesizeUnits) {
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("512K"), 512u * 1024);
  EXPECT_EQ(parse_size("16M"), 16u * 1024 * 1024);
  EXPECT_EQ(parse_size("16m"), 16u * 1024 * 1024);
  EXPECT_EQ(parse_size("1G"), 1024ull * 1024 * 1024);
  EXPECT_EQ(parse_size("2MiB"), 2u * 1024 * 1024);
  EXPECT_FALSE(parse_size("").has_value());
  EXPECT_FALSE(parse_size("M").has_value());
  EXPECT_FALSE(parse_size("-1").has_value());
  EXPECT_FALSE(parse_size("12X").has_value());
  EXPECT_FALSE(parse_size("99999999999999999999").has_value());
  EXPECT_FALSE(parse_size("99999999999G").has_value());
}

TEST(ScanArgs, FlagsBecomeAValidatedConfig) {
  auto config = parse_scan_args({"src",
                                 "--format",
                                 "sarif",
                                 "-o",
                                 "x.sarif",
                                 "--jobs",
                                 "3",
                                 "--exclude",
                                 "a/",
                                 "--exclude",
                                 "*.py",
                                 "--no-ignore",
                                 "--follow-symlinks",
                                 "--max-filesize",
                                 "1M",
                                 "--fail-on",
                                 "retune",
                                 "--color",
                                 "never",
                                 "--quiet"},
                                nullptr);
  ASSERT_TRUE(config.has_value()) << config.error().message;
  EXPECT_EQ(config->root, "src");
  EXPECT_EQ(config->format, ReportFormat::Sarif);
  EXPECT_EQ(config->output, "x.sarif");
  EXPECT_EQ(config->scan.walk.jobs, 3u);
  EXPECT_EQ(config->scan.walk.excludes, (std::vector<std::string>{"a/", "*.py"}));
  EXPECT_EQ(config->scan.walk.ignore_files, IgnoreFiles::Disregard);
  EXPECT_EQ(config->scan.walk.symlinks, Symlinks::Follow);
  EXPECT_EQ(config->scan.walk.max_file_size, 1024u * 1024);
  EXPECT_EQ(config->fail_on, Tier::Retune);
  EXPECT_EQ(config->color, ColorMode::Never);
  EXPECT_EQ(config->progress, Progress::Quiet);

  auto defaults = parse_scan_args({}, nullptr);
  ASSERT_TRUE(defaults.has_value());
  EXPECT_EQ(defaults->root, ".");
  EXPECT_EQ(defaults->format, ReportFormat::Text);
  EXPECT_EQ(defaults->scan.walk.max_file_size, 16u * 1024 * 1024);
  EXPECT_GE(defaults->scan.walk.jobs, 1u);
  EXPECT_FALSE(defaults->fail_on.has_value());
  EXPECT_EQ(defaults->color, ColorMode::Auto);
}

TEST(ScanArgs, DashJIsShortForJobs) {
  for (const CommandArgs& args : {CommandArgs{"-j", "3"}, CommandArgs{"-j3"}}) {
    auto config = parse_scan_args(args, nullptr);
    ASSERT_TRUE(config.has_value()) << config.error().message;
    EXPECT_EQ(config->scan.walk.jobs, 3u);
  }
  EXPECT_FALSE(parse_scan_args({"-j", "0"}, nullptr).has_value());
}

}  // namespace
}  // namespace gpuport
