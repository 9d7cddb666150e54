// --exclude GLOB and the [scan] exclude globs of --config FILE on every command that scans a tree
// (scan, hipify, profile --source, audit), end to end with the built binary on a small repository
// whose third_party/ folder holds a CUDA kernel with inline PTX.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

#include "../source/temp_dir.h"
#include "cli/audit_command.h"
#include "cli/hipify_command.h"
#include "cli/profile_command.h"
#include "cli/scan_command.h"
#include "cli_runner.h"

namespace gpuport {
namespace {

using testing::CliFixture;
using testing::CliRun;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::shell_quoted;
using ::testing::StartsWith;
using testing::TempDir;
namespace fs = std::filesystem;

constexpr const char* k_vendored = "third_party/fastlib/lane.cu";

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class ExcludeCli : public CliFixture {
 protected:
  void SetUp() override {
    CliFixture::SetUp();
    m_tree.write("repo/csrc/own.cu",
                 "#include <cuda_runtime.h>\n"
                 "__global__ void own_scale_kernel(float* out) { out[threadIdx.x] *= 2.0f; }\n"
                 "void launch(float* out) {\n"
                 "  own_scale_kernel<<<1, 32>>>(out);\n"
                 "  cudaDeviceSynchronize();\n"
                 "}\n");
    m_tree.write(std::string("repo/") + k_vendored,
                 "#include <cuda_runtime.h>\n"
                 "__global__ void vendored_ptx_kernel(unsigned* out) {\n"
                 "  unsigned lane;\n"
                 "  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));\n"
                 "  out[threadIdx.x] = lane;\n"
                 "}\n"
                 "void vendored_sync() { cudaDeviceSynchronize(); }\n");
    m_tree.write("exclude.toml",
                 "# vendored code is not ours to port\n[scan]\nexclude = [\"third_party/\"]\n");
    // A Kineto trace running both kernels, for profile --source.
    m_tree.write(
        "trace.json",
        "{\"traceEvents\": [\n"
        "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
        "\"pid\": 1, \"tid\": 1, \"ts\": 10.0, \"dur\": 1.0, \"args\": {\"correlation\": "
        "7}},\n"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"own_scale_kernel(float*)\", "
        "\"pid\": 0, \"tid\": 7, \"ts\": 12.0, \"dur\": 4.0, \"args\": {\"device\": 0, "
        "\"stream\": 7, \"correlation\": 7}},\n"
        "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
        "\"pid\": 1, \"tid\": 1, \"ts\": 20.0, \"dur\": 1.0, \"args\": {\"correlation\": "
        "8}},\n"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"vendored_ptx_kernel(unsigned "
        "int*)\", \"pid\": 0, \"tid\": 7, \"ts\": 22.0, \"dur\": 6.0, \"args\": {\"device\": "
        "0, \"stream\": 7, \"correlation\": 8}}\n"
        "]}\n");
  }

  std::string repo() const { return shell_quoted((m_tree.path() / "repo").string()); }
  std::string file(const std::string& name) const {
    return shell_quoted((m_tree.path() / name).string());
  }

  // Runs gpuport, expects exit 0, and parses its JSON stdout.
  nlohmann::json json_of(const std::string& args) {
    const CliRun run = gpuport(args);
    EXPECT_EQ(run.exit_code, 0) << args << "\n" << run.err;
    return run.exit_code == 0 ? nlohmann::json::parse(run.out) : nlohmann::json::object();
  }

  TempDir m_tree;
};

// The files of a scan's or an audit's findings, and the rules that fired in third_party/.
std::set<std::string> finding_files(const nlohmann::json& doc) {
  std::set<std::string> files;
  for (const auto& finding : doc["findings"]) {
    files.insert(finding["file"].get<std::string>());
  }
  return files;
}

bool has_vendored_ptx(const nlohmann::json& doc) {
  for (const auto& finding : doc["findings"]) {
    if (finding["file"] == k_vendored && finding["rule"] == "GP-ASM-001") {
      return true;
    }
  }
  return false;
}

std::vector<std::string> scanned_kernels(const nlohmann::json& doc) {
  std::vector<std::string> names;
  for (const auto& kernel : doc["kernels"]) {
    names.push_back(kernel["name"].get<std::string>());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST_F(ExcludeCli, ScanLeavesOutExcludeGlobsAndTheConfigsScanExclude) {
  const std::string scan = "scan -q --format json " + repo();
  const nlohmann::json all = json_of(scan);
  ASSERT_TRUE(has_vendored_ptx(all)) << all["findings"].dump();  // the tree has it to drop
  EXPECT_THAT(scanned_kernels(all), ElementsAre("own_scale_kernel", "vendored_ptx_kernel"));

  for (const std::string& args :
       {scan + " --exclude third_party/", scan + " --config " + file("exclude.toml"),
        scan + " --exclude 'fastlib/' --config " + file("exclude.toml")}) {
    const nlohmann::json doc = json_of(args);
    EXPECT_FALSE(has_vendored_ptx(doc)) << args;
    EXPECT_EQ(finding_files(doc).count(k_vendored), 0u) << args;
    EXPECT_THAT(scanned_kernels(doc), ElementsAre("own_scale_kernel")) << args;
    EXPECT_GT(doc["summary"]["ignored_entries"].get<int>(), 0) << args;
  }

  // The command line's globs come after the config's: "!third_party/" takes the folder back.
  const nlohmann::json back =
      json_of(scan + " --config " + file("exclude.toml") + " --exclude '!third_party/'");
  EXPECT_TRUE(has_vendored_ptx(back));
  EXPECT_THAT(scanned_kernels(back), ElementsAre("own_scale_kernel", "vendored_ptx_kernel"));
}

TEST_F(ExcludeCli, ABadOrUnreadableConfigIsTheAuditsOneLineAndExit2) {
  m_tree.write("bad.toml", "[scan]\nexclude = [\"a/\"]\n\n[effort]\nno_such_weight = 1.0\n");
  m_tree.write("numbers.toml", "[scan]\nexclude = [1, 2]\n");
  const std::string bad = (m_tree.path() / "bad.toml").string();
  const std::string numbers = (m_tree.path() / "numbers.toml").string();
  const std::string missing = (m_tree.path() / "missing.toml").string();
  const fs::path out = m_tree.path() / "out";
  for (const std::string& command : {"scan -q " + repo(), "hipify -q --dry-run " + repo(),
                                     "hipify -q -o " + shell_quoted(out.string()) + " " + repo(),
                                     "profile " + file("trace.json") + " --source " + repo(),
                                     "audit -q -o - --format json " + repo()}) {
    const CliRun unknown = gpuport(command + " --config " + shell_quoted(bad));
    EXPECT_EQ(unknown.exit_code, 2) << command;
    EXPECT_EQ(unknown.out, "") << command;
    EXPECT_EQ(lines(unknown.err), 1u) << command << unknown.err;
    EXPECT_EQ(unknown.err, "gpuport: error: " + bad +
                               ":5: unknown key 'effort.no_such_weight' (gpuport audit "
                               "--print-default-config lists every key)\n")
        << command;

    const CliRun wrong = gpuport(command + " --config " + shell_quoted(numbers));
    EXPECT_EQ(wrong.exit_code, 2) << command;
    EXPECT_EQ(wrong.err, "gpuport: error: " + numbers +
                             ":2: 'scan.exclude': an array may hold only strings (element 1 is "
                             "an integer)\n")
        << command;

    const CliRun absent = gpuport(command + " --config " + shell_quoted(missing));
    EXPECT_EQ(absent.exit_code, 2) << command;
    EXPECT_EQ(absent.err,
              "gpuport: error: " + missing + ": cannot read: No such file or directory\n")
        << command;
  }
  EXPECT_FALSE(fs::exists(out));  // hipify -o wrote nothing
}

TEST_F(ExcludeCli, AConfigWithOtherKeysServesEveryCommand) {
  // The bundled example's price config has no [scan] table: every command takes it.
  const std::string prices =
      shell_quoted(std::string(GPUPORT_SOURCE_DIR) + "/examples/gpuport.toml");
  const nlohmann::json doc = json_of("scan -q --format json " + repo() + " --config " + prices);
  EXPECT_TRUE(has_vendored_ptx(doc));
  const CliRun profile =
      gpuport("profile " + file("trace.json") + " --format json --config " + prices);
  EXPECT_EQ(profile.exit_code, 0) << profile.err;
}

TEST_F(ExcludeCli, HipifyLeavesOutExcludeGlobsAndTheConfigsScanExclude) {
  const std::string hipify = "hipify -q --no-warnings " + repo() + " -o ";
  const fs::path all = m_tree.path() / "all";
  const CliRun everything = gpuport(hipify + shell_quoted(all.string()));
  ASSERT_EQ(everything.exit_code, 0) << everything.err;
  EXPECT_TRUE(fs::exists(all / k_vendored));
  EXPECT_TRUE(fs::exists(all / "csrc/own.cu"));

  for (const std::string& option :
       {std::string("--exclude third_party/"), "--config " + file("exclude.toml")}) {
    const fs::path some = m_tree.path() / "some";
    const CliRun run = gpuport(hipify + shell_quoted(some.string()) + " " + option);
    ASSERT_EQ(run.exit_code, 0) << option << "\n" << run.err;
    EXPECT_FALSE(fs::exists(some / "third_party")) << option;
    EXPECT_TRUE(fs::exists(some / "csrc/own.cu")) << option;
    fs::remove_all(some);
  }
}

TEST_F(ExcludeCli, AuditLeavesOutExcludeGlobsAndTheConfigsScanExclude) {
  const std::string audit = "audit -q --format json -o - " + repo();
  const nlohmann::json all = json_of(audit);
  ASSERT_TRUE(has_vendored_ptx(all)) << all["findings"].dump();
  EXPECT_THAT(scanned_kernels(all), ElementsAre("own_scale_kernel", "vendored_ptx_kernel"));
  // Both files call cudaDeviceSynchronize: the translation dry run changes both.
  EXPECT_EQ(all["inputs"]["files_changed_by_translation"], 2);

  for (const std::string& args :
       {audit + " --exclude third_party/", audit + " --config " + file("exclude.toml")}) {
    const nlohmann::json doc = json_of(args);
    EXPECT_FALSE(has_vendored_ptx(doc)) << args;
    EXPECT_EQ(finding_files(doc).count(k_vendored), 0u) << args;
    EXPECT_THAT(scanned_kernels(doc), ElementsAre("own_scale_kernel")) << args;
    // The dry run of the translation leaves the same files out.
    EXPECT_EQ(doc["inputs"]["files_changed_by_translation"], 1) << args;
    EXPECT_EQ(doc["inputs"]["scanned_kernels"], 1) << args;
  }
  // The config's exclude list is one of the keys its file changed.
  const nlohmann::json configured = json_of(audit + " --config " + file("exclude.toml"));
  ASSERT_EQ(configured["inputs"]["overrides"].size(), 1u);
  EXPECT_EQ(configured["inputs"]["overrides"][0]["key"], "scan.exclude");
  EXPECT_EQ(configured["inputs"]["overrides"][0]["value"], "[\"third_party/\"]");
  EXPECT_EQ(configured["inputs"]["overrides"][0]["line"], 3);
}

// The definition a profile kernel joined to: "file:line", or "" when it joined none.
std::string joined_source(const nlohmann::json& doc, const std::string& kernel) {
  for (const auto& row : doc["kernels"]) {
    if (row["name"].get<std::string>().find(kernel) != std::string::npos) {
      return row["source"].is_null() ? std::string()
                                     : row["source"]["file"].get<std::string>() + ":" +
                                           std::to_string(row["source"]["line"].get<int>());
    }
  }
  return "(no such kernel)";
}

TEST_F(ExcludeCli, ProfileSourceScanLeavesOutExcludeGlobsAndTheConfigsScanExclude) {
  const std::string profile =
      "profile " + file("trace.json") + " -q --format json --source " + repo();
  const nlohmann::json all = json_of(profile);
  EXPECT_EQ(all["source_join"]["definitions"], 2);
  EXPECT_EQ(all["source_join"]["joined"], 2);
  EXPECT_EQ(joined_source(all, "vendored_ptx_kernel"), std::string(k_vendored) + ":2");
  EXPECT_EQ(joined_source(all, "own_scale_kernel"), "csrc/own.cu:2");

  for (const std::string& args :
       {profile + " --exclude third_party/", profile + " --config " + file("exclude.toml")}) {
    const nlohmann::json doc = json_of(args);
    EXPECT_EQ(doc["source_join"]["definitions"], 1) << args;
    EXPECT_EQ(doc["source_join"]["joined"], 1) << args;
    EXPECT_EQ(joined_source(doc, "vendored_ptx_kernel"), "") << args;
    EXPECT_EQ(joined_source(doc, "own_scale_kernel"), "csrc/own.cu:2") << args;
  }

  // --exclude has nothing to apply to without --source.
  const CliRun alone = gpuport("profile " + file("trace.json") + " --exclude third_party/");
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_EQ(alone.err,
            "gpuport: error: --exclude applies to the --source scan: give --source REPO with it\n");
}

TEST_F(ExcludeCli, EveryHelpTeachesExcludeAndTheConfigsScanExclude) {
  for (const std::string command : {"scan", "hipify", "profile", "audit"}) {
    const CliRun run = gpuport(command + " --help");
    EXPECT_EQ(run.exit_code, 0) << command;
    EXPECT_THAT(run.out, HasSubstr("--exclude GLOB")) << command;
    EXPECT_THAT(run.out, HasSubstr("Skip paths matching GLOB (gitignore syntax); repeatable"))
        << command;
    EXPECT_THAT(run.out, HasSubstr("--config FILE")) << command;
    EXPECT_THAT(run.out, HasSubstr("[scan] exclude")) << command;
  }
}

TEST(ExcludeArgs, FlagsReachEachCommandsConfig) {
  auto scan =
      parse_scan_args({"src", "--exclude", "a/", "--config", "p.toml", "--exclude", "b"}, nullptr);
  ASSERT_TRUE(scan) << scan.error().message;
  EXPECT_THAT(scan->scan.walk.excludes, ElementsAre("a/", "b"));
  EXPECT_EQ(scan->config_file, "p.toml");
  EXPECT_FALSE(parse_scan_args({"src"}, nullptr)->config_file);

  auto hipify = parse_hipify_args({"src", "--dry-run", "--config", "p.toml"}, nullptr);
  ASSERT_TRUE(hipify) << hipify.error().message;
  EXPECT_EQ(hipify->config_file, "p.toml");

  auto profile = parse_profile_args(
      {"t.json", "--source", "repo", "--exclude", "x/", "--exclude", "y/", "--config", "p.toml"},
      nullptr);
  ASSERT_TRUE(profile) << profile.error().message;
  EXPECT_THAT(profile->excludes, ElementsAre("x/", "y/"));
  EXPECT_EQ(profile->config_file, "p.toml");
  auto no_source = parse_profile_args({"t.json", "--exclude", "x/"}, nullptr);
  ASSERT_FALSE(no_source);
  EXPECT_THAT(no_source.error().message, StartsWith("--exclude applies to the --source scan"));

  auto audit = parse_audit_args({"repo", "--exclude", "x/", "--exclude", "y/"}, nullptr);
  ASSERT_TRUE(audit) << audit.error().message;
  EXPECT_THAT(audit->excludes, ElementsAre("x/", "y/"));
  EXPECT_EQ(audit->repo, "repo");  // a repeated --exclude does not swallow REPO
}

}  // namespace
}  // namespace gpuport
