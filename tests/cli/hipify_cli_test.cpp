// `gpuport hipify` end to end with the built binary: output modes, backups, diffs, statistics,
// exit codes and one-line errors, build files, and --verify with the real hipcc.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/hipify_command.h"
#include "scan/rules/catalog.h"

namespace gpuport {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

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

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// Every file under `root` with its bytes: a snapshot to prove nothing was written.
std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) {
      files[fs::relative(entry.path(), root).string()] = read_file(entry.path());
    }
  }
  return files;
}

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

constexpr std::string_view k_kernel =
    "#include <cuda_runtime.h>\n"
    "#include \"scale.cuh\"\n"
    "__global__ void scale(float* x) {\n"
    "  int lane = threadIdx.x % 32;\n"
    "  x[lane] = twice(x[lane]);\n"
    "}\n"
    "int run() {\n"
    "  float* d = nullptr;\n"
    "  cudaMalloc(&d, 64 * sizeof(float));\n"
    "  scale<<<1, 64>>>(d);\n"
    "  cudaFree(d);\n"
    "  return 0;\n"
    "}\n";

constexpr std::string_view k_header =
    "#pragma once\n"
    "#include <cuda_runtime.h>\n"
    "__device__ inline float twice(float v) { return 2.0f * v; }\n";

constexpr std::string_view k_plain_header = "inline int add(int a, int b) { return a + b; }\n";

constexpr std::string_view k_cmake =
    "cmake_minimum_required(VERSION 3.21)\n"
    "project(demo LANGUAGES CXX CUDA)\n"
    "add_library(kernels csrc/scale.cu)\n";

class HipifyCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "gpuport-hipify-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    m_dir = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(m_dir, ignored);
  }

  // Runs the binary in the scratch directory with `args` (shell-quoted where needed).
  Outcome gpuport(const std::string& args, const std::string& env = "") {
    const fs::path out = m_dir / "stdout.txt";
    const fs::path err = m_dir / "stderr.txt";
    const std::string command = "cd " + quoted(m_dir.string()) + " && env " + env + " " +
                                quoted(GPUPORT_BINARY) + " " + args + " >" + quoted(out.string()) +
                                " 2>" + quoted(err.string()) + " </dev/null";
    const int status = std::system(command.c_str());
    Outcome run;
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = read_file(out);
    run.err = read_file(err);
    fs::remove(out);
    fs::remove(err);
    return run;
  }

  // repo/: a kernel, its header, a header without CUDA, a CMakeLists.txt, a README and a
  // binary blob. Translation converts 4 references: 2 runtime calls and 2 includes.
  fs::path make_repo() {
    const fs::path root = m_dir / "repo";
    write_file(root / "csrc" / "scale.cu", std::string(k_kernel));
    write_file(root / "csrc" / "scale.cuh", std::string(k_header));
    write_file(root / "csrc" / "util.h", std::string(k_plain_header));
    write_file(root / "CMakeLists.txt", std::string(k_cmake));
    write_file(root / "README.md", "# demo\n");
    write_file(root / "weights.bin", std::string("\x7f\x00\x01\x02", 4));
    return root;
  }

  fs::path m_dir;
};

TEST_F(HipifyCliTest, HelpTeachesModesFlagsExamplesAndExitCodes) {
  const Outcome run = gpuport("hipify --help");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* flag : {"PATH",           "-o,--output",
                           "--in-place",     "--stdout",
                           "--dry-run",      "--diff",
                           "--rename",       "--force",
                           "--build-files",  "--stats",
                           "--format",       "--launch-syntax",
                           "--roc",          "--translate-comments",
                           "--no-warnings",  "--verify",
                           "--offload-arch", "--hipcc",
                           "--hipcc-arg",    "--jobs",
                           "--exclude",      "--no-ignore",
                           "--max-filesize", "--quiet"}) {
    EXPECT_THAT(run.out, HasSubstr(flag)) << flag;
  }
  EXPECT_THAT(run.out, HasSubstr("Examples:"));
  EXPECT_THAT(run.out, HasSubstr("Exit codes:"));
  EXPECT_EQ(run.out, hipify_help());
  EXPECT_EQ(gpuport("help hipify").out, run.out);
}

TEST_F(HipifyCliTest, OutputDirectoryMirrorsTheTree) {
  const fs::path repo = make_repo();
  const auto before = snapshot(repo);
  const Outcome run = gpuport("hipify repo -o out -q");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "");
  const std::string kernel = read_file(m_dir / "out/csrc/scale.cu");
  EXPECT_THAT(kernel, AllOf(HasSubstr("hipMalloc(&d"), HasSubstr("hipFree(d)"),
                            HasSubstr("#include <hip/hip_runtime.h>"), Not(HasSubstr("cuda"))));
  // Headers are translated too; files without CUDA are copied byte for byte.
  EXPECT_THAT(read_file(m_dir / "out/csrc/scale.cuh"),
              AllOf(HasSubstr("#include <hip/hip_runtime.h>\n"), Not(HasSubstr("cuda"))));
  EXPECT_EQ(read_file(m_dir / "out/csrc/util.h"), k_plain_header);
  EXPECT_EQ(read_file(m_dir / "out/README.md"), "# demo\n");
  EXPECT_EQ(read_file(m_dir / "out/weights.bin"), std::string("\x7f\x00\x01\x02", 4));
  // Without --build-files the CMake file is copied as it is and its changes are reported.
  EXPECT_EQ(read_file(m_dir / "out/CMakeLists.txt"), k_cmake);
  EXPECT_THAT(run.err, HasSubstr("repo/CMakeLists.txt:2: note: build file: project(... CUDA) -> "
                                 "project(... HIP) (--build-files rewrites it)"));
  EXPECT_EQ(snapshot(repo), before);
  // No staging directory or temporary file is left beside the output.
  for (const auto& entry : fs::directory_iterator(m_dir)) {
    EXPECT_THAT(entry.path().filename().string(), Not(HasSubstr("gpuport"))) << entry.path();
  }
}

TEST_F(HipifyCliTest, OutputDirectoryMayBeSpelledWithDotsAndSlashes) {
  make_repo();
  const Outcome run = gpuport("hipify ./repo/ -o ./hip/out/ -q");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(read_file(m_dir / "hip/out/csrc/scale.cu"), HasSubstr("hipMalloc"));
  EXPECT_EQ(read_file(m_dir / "hip/out/README.md"), "# demo\n");
  for (const auto& entry : fs::recursive_directory_iterator(m_dir / "hip")) {
    EXPECT_THAT(entry.path().filename().string(), Not(HasSubstr("gpuport"))) << entry.path();
  }
}

TEST_F(HipifyCliTest, RenameAndBuildFilesProduceAHipTree) {
  make_repo();
  const Outcome run = gpuport("hipify repo -o out --rename --build-files -q");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(fs::exists(m_dir / "out/csrc/scale.hip"));
  EXPECT_FALSE(fs::exists(m_dir / "out/csrc/scale.cu"));
  EXPECT_TRUE(fs::exists(m_dir / "out/csrc/scale.cuh"));  // only .cu is renamed
  EXPECT_EQ(read_file(m_dir / "out/CMakeLists.txt"),
            "cmake_minimum_required(VERSION 3.21)\n"
            "project(demo LANGUAGES CXX HIP)\n"
            "add_library(kernels csrc/scale.hip)\n");
  EXPECT_THAT(run.err, HasSubstr("repo/CMakeLists.txt:3: note: rewritten: csrc/scale.cu -> "
                                 "csrc/scale.hip"));
}

TEST_F(HipifyCliTest, InPlaceKeepsABackupAndRefusesToReplaceIt) {
  const fs::path repo = make_repo();
  const fs::path kernel = repo / "csrc/scale.cu";
  const fs::path backup = repo / "csrc/scale.cu.cuda.orig";
  const Outcome first = gpuport("hipify repo --in-place -q");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(read_file(backup), k_kernel);
  EXPECT_THAT(read_file(kernel), HasSubstr("hipMalloc"));
  EXPECT_EQ(read_file(repo / "csrc/scale.cuh.cuda.orig"), k_header);
  EXPECT_FALSE(fs::exists(repo / "csrc/util.h.cuda.orig"));  // unchanged: no backup

  // New CUDA code in the file: the backup from the first run must not be lost.
  write_file(kernel, std::string(k_kernel));
  const auto before = snapshot(repo);
  const Outcome refused = gpuport("hipify repo --in-place -q");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.err,
            "gpuport: error: repo/csrc/scale.cu.cuda.orig: backup already exists "
            "(from an earlier run?); use --force to keep it and back this original up as the "
            "next FILE.cuda.orig.N\n");
  EXPECT_EQ(snapshot(repo), before);

  // The same original again: the first backup already holds it, no second one is made.
  const Outcome forced = gpuport("hipify repo --in-place --force -q");
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_THAT(read_file(kernel), HasSubstr("hipMalloc"));
  EXPECT_EQ(read_file(backup), k_kernel);
  EXPECT_FALSE(fs::exists(repo / "csrc/scale.cu.cuda.orig.2"));
}

// --force used to copy the file over its backup: run twice, the original CUDA code was gone and
// both files held translated code. Every original is kept (issue 27, item 3).
TEST_F(HipifyCliTest, ForceNeverReplacesABackupAndNumbersTheNextOne) {
  const fs::path repo = make_repo();
  const fs::path kernel = repo / "csrc/scale.cu";
  ASSERT_EQ(gpuport("hipify repo --in-place -q").exit_code, 0);
  const std::string edited = std::string(k_kernel) + "void more() { cudaDeviceSynchronize(); }\n";
  write_file(kernel, edited);
  const Outcome second = gpuport("hipify repo/csrc/scale.cu --in-place --force -q");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(read_file(repo / "csrc/scale.cu.cuda.orig"), k_kernel);
  EXPECT_EQ(read_file(repo / "csrc/scale.cu.cuda.orig.2"), edited);
  EXPECT_THAT(read_file(kernel), HasSubstr("hipDeviceSynchronize"));
  // Already translated: a third run changes nothing and backs nothing up.
  ASSERT_EQ(gpuport("hipify repo/csrc/scale.cu --in-place --force -q").exit_code, 0);
  EXPECT_FALSE(fs::exists(repo / "csrc/scale.cu.cuda.orig.3"));
}

// --follow-symlinks reached one file twice: it was translated twice and its backup copied from
// the translated text; a link out of the tree rewrote a file outside it (issue 27, item 2).
TEST_F(HipifyCliTest, InPlaceThroughLinksWritesEachFileOnceAndNothingOutsideTheInputs) {
  const fs::path repo = make_repo();
  fs::create_symlink("scale.cu", repo / "csrc/alias.cu");
  fs::create_directories(repo / "more");
  fs::create_directory_symlink("../csrc", repo / "more/csrc");
  const Outcome run = gpuport("hipify repo --in-place --follow-symlinks -q");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(read_file(repo / "csrc/scale.cu.cuda.orig"), k_kernel);
  EXPECT_THAT(read_file(repo / "csrc/scale.cu"), HasSubstr("hipMalloc"));
  EXPECT_TRUE(fs::is_symlink(repo / "csrc/alias.cu"));
  EXPECT_FALSE(fs::exists(repo / "csrc/alias.cu.cuda.orig"));
  EXPECT_FALSE(fs::exists(repo / "csrc/scale.cu.cuda.orig.2"));

  const fs::path outside = m_dir / "vendor/kernel.cu";
  write_file(outside, std::string(k_kernel));
  const fs::path other = m_dir / "other";
  write_file(other / "main.cu", std::string(k_kernel));
  fs::create_symlink(outside, other / "linked.cu");
  const auto before = snapshot(m_dir / "vendor");
  const Outcome refused = gpuport("hipify other --in-place --follow-symlinks -q");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.err, "gpuport: error: other/linked.cu: is a link to '" + outside.string() +
                             "', outside every input; --in-place writes only inside the inputs "
                             "it is given\n");
  EXPECT_EQ(snapshot(m_dir / "vendor"), before);
  EXPECT_EQ(read_file(other / "main.cu"), k_kernel);  // refused before any write
}

TEST_F(HipifyCliTest, InPlaceRenameMovesTheOriginalToItsBackup) {
  const fs::path repo = make_repo();
  const Outcome run = gpuport("hipify repo/csrc/scale.cu --in-place --rename --diff -q");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // The diff is taken from the original, before it is moved to its backup.
  EXPECT_THAT(run.out, StartsWith("--- a/repo/csrc/scale.cu\n+++ b/repo/csrc/scale.hip\n@@ "));
  EXPECT_THAT(run.out, HasSubstr("\n-  cudaFree(d);\n+  hipFree(d);\n"));
  EXPECT_FALSE(fs::exists(repo / "csrc/scale.cu"));
  EXPECT_EQ(read_file(repo / "csrc/scale.cu.cuda.orig"), k_kernel);
  EXPECT_THAT(read_file(repo / "csrc/scale.hip"), HasSubstr("hipFree(d)"));
}

// Under `ulimit -f` the first write past the limit killed hipify with SIGXFSZ: no message, its
// staging folder left beside -o DIR. A copy failing there said "cannot copy: Success" (issue 27,
// item 12). Now: the real error, the file it was for, exit 2, nothing left.
TEST_F(HipifyCliTest, AFileSizeLimitIsAnErrorThatNamesTheFileAndLeavesNothing) {
  const fs::path repo = make_repo();
  write_file(repo / "data/table.bin", std::string(256 * 1024, '\x01'));
  for (const std::string& big : {std::string("data/table.bin"), std::string("csrc/huge.cu")}) {
    if (big == "csrc/huge.cu") {
      fs::remove(repo / "data/table.bin");
      std::string kernel;
      while (kernel.size() < 256 * 1024) {
        kernel += k_kernel;
      }
      write_file(repo / big, kernel);
    }
    const fs::path err = m_dir / "stderr.txt";
    // 64 blocks: 32 KiB under dash, 64 KiB under bash; either way below the 256 KiB file.
    const std::string command = "cd " + quoted(m_dir.string()) + " && ulimit -f 64 && " +
                                quoted(GPUPORT_BINARY) + " hipify repo -o out -q --no-warnings 2>" +
                                quoted(err.string()) + " >/dev/null";
    const int status = std::system(command.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << big << ": killed by a signal";
    EXPECT_EQ(WEXITSTATUS(status), 2) << big;
    EXPECT_THAT(read_file(err), ::testing::EndsWith("\ngpuport: error: cannot write 'out/" + big +
                                                    "': " + std::strerror(EFBIG) + "\n"));
    for (const auto& entry : fs::directory_iterator(m_dir)) {
      EXPECT_THAT(entry.path().filename().string(), Not(StartsWith(".out")));
      EXPECT_NE(entry.path().filename(), "out");
    }
    fs::remove(err);
  }
}

// A file name with an escape sequence: the diff names it quoted as git does, so nothing reaches
// the terminal raw and `git apply` applies it (issue 27, item 6).
TEST_F(HipifyCliTest, DiffQuotesUnusualFileNamesAndGitAppliesIt) {
  const std::string name = "k\x1b[31m.cu";
  write_file(m_dir / "tree" / name, std::string(k_kernel));
  const Outcome run = gpuport("hipify tree --dry-run --diff --no-warnings -q");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, StartsWith("--- \"a/tree/k\\033[31m.cu\"\n+++ \"b/tree/k\\033[31m.cu\"\n"));
  EXPECT_EQ(run.out.find('\x1b'), std::string::npos);
  write_file(m_dir / "fix.diff", run.out);
  const std::string apply =
      "cd " + quoted(m_dir.string()) + " && git apply --unsafe-paths fix.diff >/dev/null 2>&1";
  ASSERT_EQ(std::system(apply.c_str()), 0);
  EXPECT_THAT(read_file(m_dir / "tree" / name), HasSubstr("hipMalloc"));
}

// llama.cpp's ggml-cuda has vendors/hip.h, its own CUDA-to-HIP shim: a diff of the tree must
// not rewrite it into `#define HIPBLAS_OP_N HIPBLAS_OP_N` (issue 28, item 4).
TEST_F(HipifyCliTest, TheProjectsHipShimIsKeptAsItIs) {
  const fs::path repo = make_repo();
  const std::string shim =
      "#pragma once\n#include <hip/hip_runtime.h>\n#include <hipblas/hipblas.h>\n"
      "#define CUBLAS_OP_N HIPBLAS_OP_N\n#define CUBLAS_OP_T HIPBLAS_OP_T\n"
      "#define cudaStream_t hipStream_t\n#define cudaMalloc hipMalloc\n";
  write_file(repo / "csrc/vendors/hip.h", shim);
  const Outcome diff = gpuport("hipify repo --dry-run --diff --no-warnings -q");
  ASSERT_EQ(diff.exit_code, 0) << diff.err;
  EXPECT_THAT(diff.out, Not(HasSubstr("vendors/hip.h")));
  EXPECT_THAT(diff.out, HasSubstr("+++ b/repo/csrc/scale.cu"));
  const Outcome json = gpuport("hipify repo --dry-run --stats --format json -q");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  bool seen = false;
  for (const auto& file : doc["files"]) {
    if (file["path"] == "repo/csrc/vendors/hip.h") {
      seen = true;
      EXPECT_EQ(file["kept_as_is"], "hip_shim");
      EXPECT_EQ(file["changed"], false);
    } else {
      EXPECT_TRUE(file["kept_as_is"].is_null()) << file["path"];
    }
  }
  EXPECT_TRUE(seen);
  const Outcome text = gpuport("hipify repo --dry-run --stats --no-warnings");
  EXPECT_THAT(text.out + text.err,
              HasSubstr("  kept as they are      1 HIP shim header, 0 other-backend sources\n"));
}

TEST_F(HipifyCliTest, StdoutPrintsTheTranslationOfOneFile) {
  const fs::path repo = make_repo();
  const Outcome run = gpuport("hipify repo/csrc/scale.cu --stdout --no-warnings -q");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, StartsWith("#include <hip/hip_runtime.h>\n"));
  EXPECT_EQ(line_count(run.out), line_count(std::string(k_kernel)));
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(read_file(repo / "csrc/scale.cu"), k_kernel);
}

TEST_F(HipifyCliTest, DryRunDiffPrintsAUnifiedDiffAndWritesNothing) {
  const fs::path repo = make_repo();
  const auto before = snapshot(m_dir);
  const Outcome run = gpuport("hipify repo --dry-run --diff -q");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, StartsWith("--- a/repo/csrc/scale.cu\n+++ b/repo/csrc/scale.cu\n@@ -1,"));
  EXPECT_THAT(run.out, HasSubstr("\n-#include <cuda_runtime.h>\n+#include <hip/hip_runtime.h>\n"));
  EXPECT_THAT(run.out, HasSubstr("\n-  cudaMalloc(&d, 64 * sizeof(float));\n"
                                 "+  hipMalloc(&d, 64 * sizeof(float));\n"));
  EXPECT_EQ(snapshot(m_dir), before);
  // With --rename the new side carries the new name.
  EXPECT_THAT(gpuport("hipify repo --dry-run --diff --rename -q").out,
              StartsWith("--- a/repo/csrc/scale.cu\n+++ b/repo/csrc/scale.hip\n"));
}

TEST_F(HipifyCliTest, StatsJsonParsesAndCountsConversions) {
  make_repo();
  const Outcome run = gpuport("hipify repo --dry-run --stats --format json -q");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["schema_version"], "1");
  EXPECT_EQ(doc["mode"], "dry-run");
  EXPECT_EQ(doc["summary"]["files"], 6);
  EXPECT_EQ(doc["summary"]["translated"], 3);
  EXPECT_EQ(doc["summary"]["changed"], 2);
  EXPECT_EQ(doc["summary"]["build_files"], 1);
  EXPECT_EQ(doc["summary"]["copied"], 2);
  EXPECT_EQ(doc["summary"]["references_converted"], 4);
  EXPECT_EQ(doc["converted_by_family"]["runtime"], 2);
  EXPECT_EQ(doc["converted_by_family"]["header"], 2);
  bool malloc_counted = false;
  for (const auto& row : doc["converted_by_name"]) {
    malloc_counted |= row["cuda"] == "cudaMalloc" && row["hip"] == "hipMalloc" && row["count"] == 1;
  }
  EXPECT_TRUE(malloc_counted) << doc["converted_by_name"].dump();
  ASSERT_FALSE(doc["warnings_by_rule"].empty());
  for (const auto& row : doc["warnings_by_rule"]) {
    EXPECT_NE(find_rule(row["rule"].get<std::string>()), nullptr) << row.dump();
    EXPECT_GT(row["count"], 0);
  }
  EXPECT_EQ(doc["warnings_by_rule"][0]["rule"], "GP-WARP-001");  // highest tier first
  EXPECT_EQ(doc["summary"]["references_kept"], 0);  // no table name HIP spells the same here
  // The runtime calls are fixed by the translation: resolved, not warned.
  ASSERT_EQ(doc["resolved_by_rule"].size(), 1U) << doc["resolved_by_rule"].dump();
  EXPECT_EQ(doc["resolved_by_rule"][0]["rule"], "GP-EXEC-011");
  EXPECT_EQ(doc["summary"]["warnings_resolved"], doc["resolved_by_rule"][0]["count"]);
  for (const auto& row : doc["warnings_by_rule"]) {
    EXPECT_NE(row["rule"], "GP-EXEC-011");
  }
  EXPECT_EQ(doc["build_files"][0]["file"], "repo/CMakeLists.txt");
  EXPECT_TRUE(doc["verify"].is_null());
}

TEST_F(HipifyCliTest, WarningsAreCompilerStyleLinesOnStderr) {
  make_repo();
  const Outcome run = gpuport("hipify repo --dry-run -q");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.err, ContainsRegex("repo/csrc/scale\\.cu:4:[0-9]+: warning: \\[GP-WARP-001\\] "));
  const Outcome quiet = gpuport("hipify repo --dry-run -q --no-warnings");
  EXPECT_THAT(quiet.err, Not(HasSubstr("[GP-")));
  // The summary line is printed without -q.
  EXPECT_THAT(gpuport("hipify repo --dry-run --no-warnings").err,
              HasSubstr("gpuport hipify: 6 files, 2 changed, 4 references converted"));
}

TEST_F(HipifyCliTest, OutputIsTheSameWhateverTheNumberOfThreads) {
  make_repo();
  for (int i = 0; i < 6; ++i) {
    write_file(m_dir / "repo" / ("k" + std::to_string(i) + ".cu"), std::string(k_kernel));
  }
  const Outcome one = gpuport("hipify repo --dry-run --diff --stats --jobs 1");
  const Outcome many = gpuport("hipify repo --dry-run --diff --stats --jobs 8");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out, many.out);
  EXPECT_EQ(one.err, many.err);
}

TEST_F(HipifyCliTest, BadUsageExitsTwoWithOneLineNamingTheProblemAndWritesNothing) {
  make_repo();
  const auto before = snapshot(m_dir);
  const std::map<std::string, std::string> cases = {
      {"hipify missing -o out",
       "gpuport: error: cannot read 'missing': No such file or directory\n"},
      {"hipify repo -o out --in-place", "gpuport: error: -o and --in-place cannot be combined\n"},
      {"hipify repo/csrc/scale.cu repo/README.md --stdout",
       "gpuport: error: --stdout takes one file; 2 paths were given\n"},
      {"hipify repo --stdout", "gpuport: error: --stdout takes one file; 'repo' is a directory\n"},
      {"hipify repo -o repo/hip",
       "gpuport: error: repo/hip: the output directory is inside the input 'repo'\n"},
      {"hipify repo",
       "gpuport: error: choose where the translation goes: -o DIR, --in-place, "
       "--stdout or --dry-run\n"},
      {"hipify repo repo/csrc --dry-run",
       "gpuport: error: 'repo' and 'repo/csrc' overlap; give each file once\n"},
      {"hipify repo -o out --offload-arch sm_80",
       "gpuport: error: --offload-arch 'sm_80' is not an AMD GPU target (e.g. gfx90a, gfx942)\n"},
      {"hipify repo --dry-run --verify",
       "gpuport: error: --verify compiles the written files: use it with -o DIR or --in-place\n"},
      {"hipify repo --dry-run --format xml",
       "gpuport: error: invalid --format 'xml' (valid: text, json)\n"},
      {"hipify repo --dry-run --in-palce",
       "gpuport: error: unknown option '--in-palce'. Did you mean '--in-place'?\n"},
      {"hipify repo --dry-run --rocm 7.0",
       "gpuport: error: invalid --rocm '7.0': gpuport's tables cover ROCm 5.2 to 6.2 "
       "(MAJOR.MINOR)\n"},
      {"hipify repo --dry-run --rocm 6",
       "gpuport: error: invalid --rocm '6': gpuport's tables cover ROCm 5.2 to 6.2 "
       "(MAJOR.MINOR)\n"},
      {"hipify repo --dry-run --rocm 5.0",
       "gpuport: error: invalid --rocm '5.0': gpuport's tables cover ROCm 5.2 to 6.2 "
       "(MAJOR.MINOR)\n"},
  };
  for (const auto& [args, message] : cases) {
    const Outcome run = gpuport(args);
    EXPECT_EQ(run.exit_code, 2) << args;
    EXPECT_EQ(run.err, message) << args;
    EXPECT_EQ(run.out, "") << args;
  }
  EXPECT_EQ(snapshot(m_dir), before);
}

// --rocm X.Y: a name the target lacks is left as written and reported with the release that
// has it; the newest target translates it; hipBLAS's spelling follows the target.
TEST_F(HipifyCliTest, RocmTargetReportsNamesItLacksAndSpellsHipblasForTheRelease) {
  write_file(
      m_dir / "graph.cu",
      "#include <cublas_v2.h>\n"
      "void f(cudaStream_t s, cudaGraph_t g, cublasHandle_t h, const cuComplex* a, cuComplex* c) "
      "{\n"
      "  cudaStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal);\n"
      "  cublasCgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, a, a, 2, a, 2, a, c, 2);\n"
      "}\n");
  const Outcome old = gpuport("hipify graph.cu --stdout --rocm 5.2");
  EXPECT_EQ(old.exit_code, 0) << old.err;
  EXPECT_THAT(old.out, HasSubstr("  cudaStreamBeginCaptureToGraph(s, g,"));
  EXPECT_THAT(old.out, HasSubstr("  hipblasCgemm(h, HIPBLAS_OP_N,"));
  EXPECT_THAT(old.err, HasSubstr("graph.cu:3:3: warning: needs ROCm >= 6.2: "
                                 "cudaStreamBeginCaptureToGraph (runtime)\n"));
  const Outcome v6 = gpuport("hipify graph.cu --stdout --rocm 6.0");
  EXPECT_THAT(v6.out, HasSubstr("  hipblasCgemm_v2(h, HIPBLAS_OP_N,"));
  const Outcome newest = gpuport("hipify graph.cu --stdout");
  EXPECT_THAT(newest.out, HasSubstr("  hipStreamBeginCaptureToGraph(s, g,"));
  EXPECT_THAT(newest.out, HasSubstr("  hipblasCgemm_v2(h, HIPBLAS_OP_N,"));
  EXPECT_THAT(newest.err, Not(HasSubstr("needs ROCm")));
  const Outcome json = gpuport("hipify graph.cu --dry-run --format json --rocm 6.1");
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"rocm\": \"6.1\""));
  EXPECT_THAT(json.out, HasSubstr("\"needs_rocm\": \"6.2\""));
  // The config's [hipify] rocm when the command line names none; --rocm wins over it.
  write_file(m_dir / "gpuport.toml", "[hipify]\nrocm = \"5.2\"\n");
  EXPECT_THAT(gpuport("hipify graph.cu --stdout --config gpuport.toml").out,
              HasSubstr("  hipblasCgemm(h, HIPBLAS_OP_N,"));
  EXPECT_THAT(gpuport("hipify graph.cu --stdout --config gpuport.toml --rocm 6.0").out,
              HasSubstr("  hipblasCgemm_v2(h, HIPBLAS_OP_N,"));
  const Outcome stats = gpuport("hipify graph.cu --dry-run --stats --rocm 6.1");
  EXPECT_THAT(stats.out, HasSubstr("  target                ROCm 6.1\n"));
  EXPECT_THAT(stats.out,
              HasSubstr("Unsupported on HIP    1 (1 need a newer ROCm than the target)\n"));
  EXPECT_THAT(stats.out, HasSubstr("cudaStreamBeginCaptureToGraph (runtime, needs ROCm >= 6.2)"));
}

// --verify without --rocm translates for the compiler that checks it, and says so.
TEST_F(HipifyCliTest, VerifyTranslatesForTheReleaseOfHipccAndSaysSo) {
  write_file(m_dir / "capture.cu",
             "#include <cuda_runtime.h>\n"
             "void f(cudaStream_t s, cudaGraph_t g) {\n"
             "  cudaStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0, "
             "cudaStreamCaptureModeGlobal);\n"
             "}\n");
  const Outcome run = gpuport("hipify capture.cu -o out --verify");
  EXPECT_THAT(run.err, HasSubstr("gpuport: translating for ROCm 5.2, the HIP of 'hipcc' "
                                 "(--verify); --rocm X.Y chooses another\n"));
  EXPECT_THAT(run.err, HasSubstr("warning: needs ROCm >= 6.2: cudaStreamBeginCaptureToGraph"));
  EXPECT_THAT(read_file(m_dir / "out" / "capture.cu"),
              HasSubstr("  cudaStreamBeginCaptureToGraph(s, g,"));
  const Outcome chosen = gpuport("hipify capture.cu -o out2 --verify --rocm 6.2");
  EXPECT_THAT(chosen.err, Not(HasSubstr("translating for")));
  EXPECT_THAT(read_file(m_dir / "out2" / "capture.cu"),
              HasSubstr("  hipStreamBeginCaptureToGraph(s, g,"));
  EXPECT_EQ(chosen.exit_code, 1) << "HIP 5.2's headers lack the 6.2 name: " << chosen.out;
}

// HIP's module occupancy call takes no shared-memory callback: a null one is dropped, a real
// one is left in place and reported, since HIP cannot call it.
TEST_F(HipifyCliTest, OccupancyCallbackArgumentIsDroppedWhenNullAndReviewedOtherwise) {
  write_file(m_dir / "occ.cpp",
             "#include <cuda.h>\n"
             "size_t smem(int block) { return block * 4; }\n"
             "void f(CUfunction k, int* g, int* b) {\n"
             "  cuOccupancyMaxPotentialBlockSize(g, b, k, NULL, 0, 0);\n"
             "  cuOccupancyMaxPotentialBlockSize(g, b, k, smem, 0, 0);\n"
             "}\n");
  const Outcome run = gpuport("hipify occ.cpp --stdout");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("  hipModuleOccupancyMaxPotentialBlockSize(g, b, k, 0, 0);\n"));
  EXPECT_THAT(run.out,
              HasSubstr("  hipModuleOccupancyMaxPotentialBlockSize(g, b, k, smem, 0, 0);\n"));
  EXPECT_THAT(run.err, HasSubstr("occ.cpp:5:3: warning: needs review: "
                                 "cuOccupancyMaxPotentialBlockSize: HIP's form takes no "
                                 "block-size-to-shared-memory callback"));
  const Outcome stats = gpuport("hipify occ.cpp --dry-run --stats");
  // hipModuleOccupancy* is current; hipCtxCreate would be counted as deprecated in HIP.
  EXPECT_THAT(stats.out, Not(HasSubstr("deprecated HIP names")));
  EXPECT_THAT(stats.out,
              HasSubstr("  null arguments dropped 1 (HIP's form of the call lacks them)\n"));
}

// cublas.h alone selects cuBLAS's legacy, handle-less API, which hipBLAS does not have: its
// calls are left as written and reported, not renamed into calls that cannot compile.
TEST_F(HipifyCliTest, LegacyCublasCallsAreReportedNotRenamed) {
  const std::string body =
      "void f(int n, const float* a, const float* b, float* c) {\n"
      "  cublasSgemm('N', 'N', n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);\n"
      "}\n";
  write_file(m_dir / "legacy.cpp", "#include <cublas.h>\n" + body);
  const Outcome legacy = gpuport("hipify legacy.cpp --stdout");
  EXPECT_EQ(legacy.exit_code, 0) << legacy.err;
  EXPECT_THAT(legacy.out, HasSubstr("  cublasSgemm('N', 'N', n,"));
  EXPECT_THAT(legacy.err, HasSubstr("legacy.cpp:3:3: warning: needs review: cublasSgemm: a legacy "
                                    "cuBLAS call (cublas.h, no handle)"));
  // The argument count tells, not the includes: the project's own header brings cublas.h.
  write_file(m_dir / "indirect.cpp", "#include \"blas_helpers.h\"\n" + body);
  const Outcome indirect = gpuport("hipify indirect.cpp --stdout");
  EXPECT_THAT(indirect.out, HasSubstr("  cublasSgemm('N', 'N', n,"));
  EXPECT_THAT(indirect.err, HasSubstr("indirect.cpp:3:3: warning: needs review: cublasSgemm: a "
                                      "legacy cuBLAS call (cublas.h, no handle)"));
  // The handle form of the same name (cublas_v2.h's macro for cublasSgemm_v2) is renamed.
  write_file(m_dir / "handle.cpp",
             "#include <cublas_v2.h>\n"
             "void f(cublasHandle_t h, int n, const float* a, const float* b, float* c,\n"
             "       const float* one) {\n"
             "  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, one, a, n, b, n, one, c, n);\n"
             "}\n");
  const Outcome handle = gpuport("hipify handle.cpp --stdout");
  EXPECT_THAT(handle.out, HasSubstr("  hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n,"));
  EXPECT_THAT(handle.err, Not(HasSubstr("legacy cuBLAS")));
}

// A name HIP deprecates is still written where it is the only counterpart, and counted.
TEST_F(HipifyCliTest, NamesHipDeprecatesAreCountedInTheStatistics) {
  write_file(m_dir / "ctx.cpp",
             "#include <cuda.h>\n"
             "void f(CUcontext* c, CUdevice d) { cuCtxCreate(c, 0, d); cuCtxSynchronize(); }\n");
  const Outcome run = gpuport("hipify ctx.cpp --dry-run --stats");
  EXPECT_THAT(run.out, HasSubstr("  deprecated HIP names  2 written (the target's headers mark "
                                 "them deprecated; HIP has nothing newer for them)\n"));
  EXPECT_THAT(gpuport("hipify ctx.cpp --dry-run --format json").out,
              HasSubstr("\"hip_deprecated_uses\": 2"));
}

// Before ROCm 6.0 hipBLAS's *Ex functions take hipblasDatatype_t for the data and compute types;
// from 6.0 the translation calls the _v2 forms, which take hipDataType and hipblasComputeType_t.
TEST_F(HipifyCliTest, GemmExTypesFollowTheHipblasApiOfTheTarget) {
  write_file(m_dir / "gemm.cpp",
             "#include <cublas_v2.h>\n"
             "void f(cublasHandle_t h, const void* a, const void* b, void* c, float* s) {\n"
             "  cudaDataType_t kept = CUDA_R_16F;\n"
             "  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, s, a, CUDA_R_16F, 8, b,\n"
             "               CUDA_R_16BF, 8, s, c, CUDA_R_32F, 8, CUBLAS_COMPUTE_32F,\n"
             "               CUBLAS_GEMM_DEFAULT);\n"
             "}\n");
  const Outcome old = gpuport("hipify gemm.cpp --stdout --rocm 5.2");
  EXPECT_EQ(old.exit_code, 0) << old.err;
  EXPECT_THAT(old.out, HasSubstr("  hipblasGemmEx(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 8, 8, 8, s, a, "
                                 "HIPBLAS_R_16F, 8, b,\n"
                                 "               HIPBLAS_R_16B, 8, s, c, HIPBLAS_R_32F, 8, "
                                 "HIPBLAS_R_32F,\n"));
  // Outside a call the table decides: HIP 5.2 has hipDataType's HIP_R_16F.
  EXPECT_THAT(old.out, HasSubstr("  hipDataType kept = HIP_R_16F;\n"));
  const Outcome v6 = gpuport("hipify gemm.cpp --stdout --rocm 6.0");
  EXPECT_THAT(v6.out, HasSubstr("  hipblasGemmEx_v2(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 8, 8, 8, s, a, "
                                "HIP_R_16F, 8, b,\n"
                                "               HIP_R_16BF, 8, s, c, HIP_R_32F, 8, "
                                "HIPBLAS_COMPUTE_32F,\n"));
}

// hipBLAS before 6.0 takes its own hipblasComplex; the translated hipComplex arguments need
// ROCM_MATHLIBS_API_USE_HIP_COMPLEX there (checked against hipBLAS 5.2.3's header by hand).
TEST_F(HipifyCliTest, ComplexHipblasCallsBefore60SayWhichMacroTheyNeed) {
  write_file(
      m_dir / "cgemm.cpp",
      "#include <cublas_v2.h>\n"
      "void f(cublasHandle_t h, const cuComplex* a, cuComplex* c, const float* x, float* y) {\n"
      "  cublasCgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, a, a, 8, a, 8, a, c, 8);\n"
      "  cublasSaxpy(h, 8, x, x, 1, y, 1);\n"
      "}\n");
  const Outcome old = gpuport("hipify cgemm.cpp --stdout --rocm 5.2");
  EXPECT_THAT(old.out, HasSubstr("  hipblasCgemm(h,"));
  EXPECT_THAT(old.err,
              HasSubstr("cgemm.cpp:3:3: warning: needs review: cublasCgemm: hipBLAS before "
                        "ROCm 6.0 takes hipblasComplex here: define "
                        "ROCM_MATHLIBS_API_USE_HIP_COMPLEX"));
  EXPECT_THAT(old.err, Not(HasSubstr("cublasSaxpy: hipBLAS before")));
  const Outcome v6 = gpuport("hipify cgemm.cpp --stdout --rocm 6.0");
  EXPECT_THAT(v6.out, HasSubstr("  hipblasCgemm_v2(h,"));
  EXPECT_THAT(v6.err, Not(HasSubstr("ROCM_MATHLIBS_API_USE_HIP_COMPLEX")));
  // rocBLAS (--roc) takes its own complex class: the arguments are cast to it instead.
  const Outcome roc = gpuport("hipify cgemm.cpp --stdout --roc");
  EXPECT_THAT(roc.out, HasSubstr("  rocblas_cgemm(h,"));
  EXPECT_THAT(roc.err, Not(HasSubstr("ROCM_MATHLIBS_API_USE_HIP_COMPLEX")));
}

TEST_F(HipifyCliTest, ToolkitHeadersWithoutAHipCounterpartAreReportedNotPassedThrough) {
  write_file(m_dir / "io.cu",
             "#include <cuda_runtime.h>\n"
             "#include <nppi.h>\n"
             "#include <cusolverSp_LOWLEVEL_PREVIEW.h>\n"
             "#include <texture_fetch_functions.h>\n"
             "#include <cuda_surface_types.h>\n"
             "#include \"local_helpers.h\"\n");
  const Outcome run = gpuport("hipify io.cu --stdout");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.err, HasSubstr("io.cu:2:11: warning: unsupported on HIP: nppi.h (header)\n"));
  EXPECT_THAT(run.err, HasSubstr("io.cu:3:11: warning: unsupported on HIP: "
                                 "cusolverSp_LOWLEVEL_PREVIEW.h (header)\n"));
  // Headers CUDA 12 removed with texture references: HIP keeps their API.
  EXPECT_EQ(run.out,
            "#include <hip/hip_runtime.h>\n"
            "#include <nppi.h>\n"
            "#include <cusolverSp_LOWLEVEL_PREVIEW.h>\n"
            "#include <hip/surface_types.h>\n"
            "#include \"local_helpers.h\"\n");
  EXPECT_THAT(run.err, Not(HasSubstr("local_helpers.h")));
  // A derived entry (not named by a rule) matches <...> only: "device_types.h" and "nvblas.h"
  // in quotes are taken for the project's own headers.
  write_file(m_dir / "own.cu",
             "#include <device_types.h>\n"
             "#include \"device_types.h\"\n"
             "#include \"nvblas.h\"\n"
             "#include <nvblas.h>\n");
  const Outcome own = gpuport("hipify own.cu --stdout");
  EXPECT_EQ(own.out,
            "#include <hip/hip_runtime.h>\n"
            "#include \"device_types.h\"\n"
            "#include \"nvblas.h\"\n"
            "#include <nvblas.h>\n");
  EXPECT_THAT(own.err, HasSubstr("own.cu:4:11: warning: unsupported on HIP: nvblas.h (header)\n"));
  EXPECT_THAT(own.err, Not(HasSubstr("own.cu:3:")));
}

// HIP keeps CUDA 11's signatures under some names whose CUDA 12/13 signatures changed: the call's
// argument count picks HIP's other function, drops the null edge data, or is reported.
TEST_F(HipifyCliTest, CallsOfChangedSignaturesFollowTheirArgumentCount) {
  write_file(m_dir / "graph.cu",
             "#include <cuda_runtime.h>\n"
             "void f(cudaGraph_t g, cudaGraphExec_t* e, cudaGraphNode_t* a, cudaGraphNode_t* b,\n"
             "       cudaGraphEdgeData* edge) {\n"
             "  cudaGraphInstantiate(e, g, 0);\n"
             "  cudaGraphInstantiate(e, g, NULL, NULL, 0);\n"
             "  cudaGraphInstantiate(e, g);\n"
             "  cudaGraphAddDependencies(g, a, b, NULL, 1);\n"
             "  cudaGraphAddDependencies(g, a, b, edge, 1);\n"
             "}\n");
  const Outcome run = gpuport("hipify graph.cu --stdout");
  EXPECT_THAT(run.out, HasSubstr("  hipGraphInstantiateWithFlags(e, g, 0);\n"
                                 "  hipGraphInstantiate(e, g, NULL, NULL, 0);\n"
                                 "  cudaGraphInstantiate(e, g);\n"
                                 "  hipGraphAddDependencies(g, a, b, 1);\n"
                                 "  hipGraphAddDependencies(g, a, b, edge, 1);\n"));
  EXPECT_THAT(run.err, HasSubstr("graph.cu:6:3: warning: needs review: cudaGraphInstantiate: HIP's "
                                 "counterpart takes the arguments of an older CUDA signature and "
                                 "this call passes another number: left as written; port the "
                                 "call to HIP's signature\n"));
  EXPECT_THAT(run.err, HasSubstr("graph.cu:8:3: warning: needs review: cudaGraphAddDependencies: "
                                 "HIP's form takes no edge data (CUDA 12.3's cudaGraphEdgeData)"));
  EXPECT_THAT(run.err, Not(HasSubstr("graph.cu:4:3: warning: needs review")));
  EXPECT_THAT(run.err, Not(HasSubstr("graph.cu:7:3: warning: needs review")));
}

TEST_F(HipifyCliTest, HalfHipblasCallsSayHowTheirArgumentsMatch) {
  write_file(m_dir / "hgemm.cpp",
             "#include <cublas_v2.h>\n"
             "#include <cuda_fp16.h>\n"
             "void f(cublasHandle_t h, const __half* a, __half* c, const __half* one) {\n"
             "  cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, one, a, 8, a, 8, one, c, 8);\n"
             "}\n");
  // hipBLAS's hipblasHalf is uint16_t unless HIPBLAS_USE_HIP_HALF (ROCm 6.0 on) makes it __half.
  const Outcome now = gpuport("hipify hgemm.cpp --stdout");
  EXPECT_THAT(now.out, HasSubstr("  hipblasHgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 8, 8, 8, one,"));
  EXPECT_THAT(now.err, HasSubstr("hgemm.cpp:4:3: warning: needs review: cublasHgemm: hipBLAS takes "
                                 "hipblasHalf (uint16_t) here: define HIPBLAS_USE_HIP_HALF (-D, "
                                 "or before hipblas.h) so __half arguments match\n"));
  const Outcome old = gpuport("hipify hgemm.cpp --stdout --rocm 5.2");
  EXPECT_THAT(old.err, HasSubstr("hgemm.cpp:4:3: warning: needs review: cublasHgemm: hipBLAS "
                                 "before ROCm 6.0 takes hipblasHalf (uint16_t) here: cast the "
                                 "__half pointers to hipblasHalf* (same layout)\n"));
  // rocBLAS (--roc): the arguments are cast to rocblas_half, nothing to review.
  const Outcome roc = gpuport("hipify hgemm.cpp --stdout --roc");
  EXPECT_THAT(roc.out, HasSubstr("(const rocblas_half*)one, (const rocblas_half*)a, 8,"));
  EXPECT_THAT(roc.err, Not(HasSubstr("needs review")));
}

TEST_F(HipifyCliTest, RocCallsGetTheRocValueTypesTheirParametersTake) {
  write_file(m_dir / "roc.cpp",
             "#include <cublas_v2.h>\n"
             "#include <cuda_fp16.h>\n"
             "void f(cublasHandle_t h, const cuComplex* a, cuComplex* c, const __half* x,\n"
             "       __half* y, const cuDoubleComplex* z, cudaDataType_t t, float s) {\n"
             "  cublasCgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, a, a, 8, a, 8, nullptr, c, 8);\n"
             "  cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, x, x, 8, x + 64, 8, x, y, 8);\n"
             "  cublasZaxpy(h, 8, z, (const cuDoubleComplex*)a, 1, (cuDoubleComplex*)c, 1);\n"
             "  cublasAxpyEx(h, 8, &s, CUDA_R_32F, x, CUDA_R_16F, 1, y, t, 1, CUDA_R_32F);\n"
             "}\n"
             "#define CAXPY(h, a, x, y) cublasCaxpy(h, 8, a, x, 1, y, 1)\n");
  const Outcome roc = gpuport("hipify roc.cpp --stdout --roc --stats");
  EXPECT_EQ(roc.exit_code, 0) << roc.err;
  EXPECT_THAT(roc.out, HasSubstr("  rocblas_cgemm(h, rocblas_operation_none, "
                                 "rocblas_operation_none, 8, 8, 8, "
                                 "(const rocblas_float_complex*)a, "
                                 "(const rocblas_float_complex*)a, 8, "
                                 "(const rocblas_float_complex*)a, 8, nullptr, "
                                 "(rocblas_float_complex*)c, 8);\n"));
  EXPECT_THAT(roc.out, HasSubstr("(const rocblas_half*)x, 8, (const rocblas_half*)(x + 64), 8, "
                                 "(const rocblas_half*)x, (rocblas_half*)y, 8);\n"));
  EXPECT_THAT(roc.out, HasSubstr("  rocblas_zaxpy(h, 8, (const rocblas_double_complex*)z, "
                                 "(const rocblas_double_complex*)((const hipDoubleComplex*)a), 1, "
                                 "(rocblas_double_complex*)((hipDoubleComplex*)c), 1);\n"));
  EXPECT_THAT(roc.out, HasSubstr("  rocblas_axpy_ex(h, 8, &s, rocblas_datatype_f32_r, x, "
                                 "rocblas_datatype_f16_r, 1, y, t, 1, rocblas_datatype_f32_r);\n"));
  // The data type in a variable holds hipDataType's numbers, not rocblas_datatype's.
  EXPECT_THAT(roc.err, HasSubstr("roc.cpp:8:3: warning: needs review: cublasAxpyEx: the roc call "
                                 "takes a rocblas_datatype here: pass rocblas_datatype_f32_r, ... "
                                 "(a hipDataType holds other numbers)\n"));
  // In a macro's body a parameter may expand to `p + 1`: every cast argument is parenthesized.
  EXPECT_THAT(roc.out, HasSubstr("#define CAXPY(h, a, x, y) rocblas_caxpy(h, 8, "
                                 "(const rocblas_float_complex*)(a), "
                                 "(const rocblas_float_complex*)(x), 1, "
                                 "(rocblas_float_complex*)(y), 1)\n"));
  EXPECT_THAT(roc.err, HasSubstr("roc value types cast 15"));
  // Without --roc the calls are hipBLAS's, which take hipComplex and hipDataType.
  const Outcome hip = gpuport("hipify roc.cpp --stdout");
  EXPECT_THAT(hip.out, Not(HasSubstr("rocblas_")));
  EXPECT_THAT(hip.out, HasSubstr("HIP_R_32F, x, HIP_R_16F"));
  const Outcome json = gpuport("hipify roc.cpp --dry-run --roc --format json");
  EXPECT_THAT(json.out, HasSubstr("\"roc_arguments_cast\": 15"));
}

TEST_F(HipifyCliTest, NonEmptyOutputDirectoryNeedsForce) {
  make_repo();
  write_file(m_dir / "out" / "keep.txt", "mine\n");
  const Outcome refused = gpuport("hipify repo -o out -q");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.err,
            "gpuport: error: out: the output directory is not empty (use --force to "
            "write into it)\n");
  EXPECT_FALSE(fs::exists(m_dir / "out/csrc"));
  const Outcome forced = gpuport("hipify repo -o out --force -q");
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_THAT(read_file(m_dir / "out/csrc/scale.cu"), HasSubstr("hipMalloc"));
  EXPECT_EQ(read_file(m_dir / "out/keep.txt"), "mine\n");
}

TEST_F(HipifyCliTest, ExcludedAndBinarySourcesAreNotTranslated) {
  make_repo();
  write_file(m_dir / "repo/third_party/lib.cu", "cudaMalloc(0, 0);\n");
  write_file(m_dir / "repo/blob.cu", std::string("cudaFree\0\0", 10));
  const Outcome run = gpuport("hipify repo -o out --exclude third_party/ -q");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_FALSE(fs::exists(m_dir / "out/third_party"));
  EXPECT_EQ(read_file(m_dir / "out/blob.cu"), std::string("cudaFree\0\0", 10));
  EXPECT_THAT(run.err, HasSubstr("repo/blob.cu: warning: not translated: binary file\n"));
}

TEST_F(HipifyCliTest, VerifyCompilesTheTranslatedTree) {
  const fs::path repo = make_repo();
  write_file(repo / "csrc/broken.cu",
             "#include <cuda_runtime.h>\n__global__ void k(float* x) { x[0] = missing_name; }\n");
  write_file(repo / "csrc/blas.cu",
             "#include <cuda_runtime.h>\n#include <cublas_v2.h>\nint blas() { return 0; }\n");
  const Outcome run = gpuport("hipify repo -o out --verify --no-warnings -q --jobs 2");
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_THAT(run.out, HasSubstr("\n  pass            out/csrc/scale.cu\n"));
  EXPECT_THAT(run.out, HasSubstr("\n  fail            out/csrc/broken.cu: out/csrc/broken.cu:2:"));
  EXPECT_THAT(run.out, HasSubstr("error: use of undeclared identifier 'missing_name'"));
  EXPECT_THAT(run.out,
              ContainsRegex("\n  missing-header  out/csrc/blas\\.cu: (hipblas/)?hipblas\\.h\n"));
  EXPECT_THAT(run.out, HasSubstr("\n  skipped         out/csrc/scale.cuh: header: compiled "
                                 "through out/csrc/scale.cu\n"));

  // Without the broken file the run passes: a missing library header is not a failure.
  fs::remove(repo / "csrc/broken.cu");
  fs::remove_all(m_dir / "out");
  EXPECT_EQ(gpuport("hipify repo -o out --verify --no-warnings -q").exit_code, 0);

  // A compiler that is not there is reported as such, not as a failed translation.
  fs::remove_all(m_dir / "out");
  const Outcome missing =
      gpuport("hipify repo -o out --verify --no-warnings -q", "HIPCC=/nonexistent/hipcc");
  EXPECT_EQ(missing.exit_code, 0) << missing.err;
  EXPECT_THAT(missing.out,
              HasSubstr("missing-hipcc   out/csrc/scale.cu: hipcc not found: /nonexistent/hipcc"));
}

}  // namespace
}  // namespace gpuport
