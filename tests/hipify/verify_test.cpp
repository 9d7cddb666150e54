// --verify with the real hipcc: passing and failing files, missing headers and compilers,
// headers checked through sources, time limits; and the reading of hipcc's output.
#include "hipify/verify.h"

#include <sys/stat.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../source/temp_dir.h"
#include "hipify/subprocess.h"

namespace gpuport {
namespace {

using gpuport::testing::TempDir;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr std::string_view k_valid_hip =
    "#include <hip/hip_runtime.h>\n"
    "__global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }\n"
    "void run(float* x) { scale<<<1, 64>>>(x, 2.0f); hipDeviceSynchronize(); }\n";

class VerifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(find_executable("hipcc").has_value())
        << "hipcc not found: install hipcc libamdhip64-dev rocm-device-libs (scripts/setup.sh)";
  }

  VerifyInput input(const std::string& name, const std::string& text, bool changed = true) {
    m_dir.write(name, text);
    return VerifyInput{name, (m_dir.path() / name).string(), changed};
  }

  std::vector<VerifyResult> verify(const std::vector<VerifyInput>& inputs,
                                   VerifyOptions options = {}) {
    options.jobs = 2;
    return verify_sources(m_disk, inputs, options);
  }

  TempDir m_dir;
  DiskFileSystem m_disk;
};

TEST_F(VerifyTest, ValidHipSourcePasses) {
  const auto results = verify({input("scale.hip", std::string(k_valid_hip))});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status, VerifyStatus::Pass) << results[0].detail;
  EXPECT_EQ(results[0].file, "scale.hip");
}

TEST_F(VerifyTest, CuAndCppSourcesWithKernelsAreCompiledAsHip) {
  const auto results = verify({input("kernels.cu", std::string(k_valid_hip)),
                               input("launch.cpp", std::string(k_valid_hip))});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].status, VerifyStatus::Pass) << results[0].detail;
  EXPECT_EQ(results[1].status, VerifyStatus::Pass) << results[1].detail;
}

TEST_F(VerifyTest, BrokenSourceFailsWithItsFirstErrorLine) {
  const VerifyInput broken = input("broken.hip",
                                   "#include <hip/hip_runtime.h>\n"
                                   "__global__ void k(float* x) { x[0] = cudaLeftOver; }\n"
                                   "int bad( { }\n");
  const auto results = verify({broken});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status, VerifyStatus::Fail);
  EXPECT_EQ(results[0].detail,
            broken.disk_path + ":2:38: error: use of undeclared identifier 'cudaLeftOver'");
}

TEST_F(VerifyTest, UnpackagedHipLibraryHeaderIsMissingHeaderNotFailure) {
  const auto results = verify({input("blas.hip",
                                     "#include <hip/hip_runtime.h>\n"
                                     "#include <hipblas.h>\n"
                                     "int main() { return 0; }\n")});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status, VerifyStatus::MissingHeader);
  EXPECT_EQ(results[0].detail, "hipblas.h");
}

TEST_F(VerifyTest, NonexistentHipccIsMissingHipcc) {
  VerifyOptions options;
  options.hipcc = (m_dir.path() / "no" / "hipcc").string();
  const auto results = verify({input("scale.hip", std::string(k_valid_hip))}, options);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status, VerifyStatus::MissingHipcc);
  EXPECT_THAT(results[0].detail, HasSubstr("hipcc not found"));
}

TEST_F(VerifyTest, UnsupportedTargetIsAToolchainErrorNotAFailure) {
  VerifyOptions options;
  options.offload_arch = "sm_80";  // an NVIDIA architecture
  const auto results = verify({input("scale.hip", std::string(k_valid_hip))}, options);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status, VerifyStatus::ToolchainError);
  EXPECT_THAT(results[0].detail, HasSubstr("invalid target ID 'sm_80'"));
}

TEST_F(VerifyTest, HeadersAreCheckedThroughTheSourcesThatIncludeThem) {
  const auto results = verify({
      input("common.cuh",
            "#pragma once\n__device__ inline float twice(float x) { return 2 * x; }\n"),
      input("orphan.h", "#pragma once\n"),
      input("user.hip", "#include <hip/hip_runtime.h>\n#include \"common.cuh\"\n"),
      input("host.cpp", "int host() { return 1; }\n", false),
  });
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].status, VerifyStatus::Skipped);
  EXPECT_EQ(results[0].detail, "header: compiled through user.hip");
  EXPECT_EQ(results[1].status, VerifyStatus::Skipped);
  EXPECT_THAT(results[1].detail, StartsWith("header: not included"));
  EXPECT_EQ(results[2].status, VerifyStatus::Pass) << results[2].detail;
  EXPECT_EQ(results[3].status, VerifyStatus::Skipped);
  EXPECT_EQ(results[3].detail, "unchanged by hipify: no CUDA to check");
}

TEST_F(VerifyTest, CompilerOverTheTimeLimitIsStopped) {
  // The compiler records its process id and would run for 30 s: once verify() returns, that
  // process must be gone. (Timing the call, or waiting for a mark the compiler leaves at its
  // end, made the test read the clock.)
  const std::string pid_file = (m_dir.path() / "compiler.pid").string();
  m_dir.write("slow-hipcc", "#!/bin/sh\necho $$ > '" + pid_file + "'\nexec sleep 30\n");
  const std::string slow = (m_dir.path() / "slow-hipcc").string();
  ASSERT_EQ(::chmod(slow.c_str(), 0755), 0);
  VerifyOptions options;
  options.hipcc = slow;
  options.timeout = std::chrono::milliseconds(300);
  const auto results = verify({input("scale.hip", std::string(k_valid_hip))}, options);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status, VerifyStatus::Timeout);
  std::ifstream in(pid_file);
  pid_t pid = 0;
  ASSERT_TRUE(in >> pid) << "the compiler did not start";
  EXPECT_EQ(::kill(pid, 0), -1) << "the compiler is still running";
  EXPECT_EQ(errno, ESRCH);
}

// --verify without --rocm translates for hipcc's own release (issue 28, item 1).
TEST(HipccRelease, ReadFromTheVersionLine) {
  EXPECT_EQ(hip_release_of_version_output("HIP version: 5.2.21153-0\nDebian clang version 15\n"),
            RocmRelease{502});
  EXPECT_EQ(hip_release_of_version_output("HIP version: 6.2.41134-65d174c3e\nAMD clang\n"),
            RocmRelease{602});
  EXPECT_EQ(hip_release_of_version_output("HIP version: 6.10\n"), RocmRelease{610});
  EXPECT_EQ(hip_release_of_version_output("clang version 15.0.6\n"), std::nullopt);
  EXPECT_EQ(hip_release_of_version_output("HIP version: unknown\n"), std::nullopt);
  EXPECT_EQ(hip_release_of_version_output(""), std::nullopt);
}

TEST_F(VerifyTest, TheTargetIsTheInstalledHipccsReleaseWithinTheTables) {
  const RocmTarget installed = rocm_target_of_hipcc("hipcc");
  EXPECT_EQ(installed.reported, RocmRelease{502});  // Debian 12's HIP 5.2
  EXPECT_EQ(installed.release, 502);
  auto fake = [&](const std::string& name, const std::string& version_line) {
    m_dir.write(name, "#!/bin/sh\necho '" + version_line + "'\n");
    const std::string path = (m_dir.path() / name).string();
    EXPECT_EQ(::chmod(path.c_str(), 0755), 0);
    return path;
  };
  const RocmTarget newer = rocm_target_of_hipcc(fake("hipcc-7", "HIP version: 7.1.25424-1"));
  EXPECT_EQ(newer.reported, RocmRelease{701});
  EXPECT_EQ(newer.release, newest_rocm_release());
  const RocmTarget silent = rocm_target_of_hipcc(fake("hipcc-x", "clang version 19"));
  EXPECT_EQ(silent.reported, std::nullopt);
  EXPECT_EQ(silent.release, newest_rocm_release());
  EXPECT_EQ(rocm_target_of_hipcc((m_dir.path() / "absent").string()).reported, std::nullopt);
}

TEST(VerifyCommand, CompilesCAsCAndEverythingElseAsHip) {
  VerifyOptions options;
  options.hipcc = "hipcc";
  options.offload_arch = "gfx942";
  options.extra_args = {"-Iinclude"};
  EXPECT_EQ(verify_command(options, "a/k.cu"),
            (std::vector<std::string>{"hipcc", "--offload-arch=gfx942", "-fsyntax-only",
                                      "-Iinclude", "-x", "hip", "a/k.cu"}));
  EXPECT_EQ(verify_command(options, "a/util.c").at(5), "c");
}

TEST(ClassifyCompileOutput, ReadsTheFirstLocatedError) {
  EXPECT_EQ(classify_compile_output(0, "clang: warning: -lgcc: 'linker' input unused\n").status,
            VerifyStatus::Pass);
  const CompileOutcome fail =
      classify_compile_output(1,
                              "clang: warning: argument unused during compilation: '-L/usr/lib'\n"
                              "In file included from out/a.hip:2:\n"
                              "out/b.cuh:7:3: error: no matching function for call to 'hipFoo'\n"
                              "out/a.hip:9:1: error: second\n");
  EXPECT_EQ(fail.status, VerifyStatus::Fail);
  EXPECT_EQ(fail.detail, "out/b.cuh:7:3: error: no matching function for call to 'hipFoo'");
  const CompileOutcome header =
      classify_compile_output(1, "x.hip:3:10: fatal error: 'miopen/miopen.h' file not found\n");
  EXPECT_EQ(header.status, VerifyStatus::MissingHeader);
  EXPECT_EQ(header.detail, "miopen/miopen.h");
  const CompileOutcome driver =
      classify_compile_output(1, "clang: error: cannot find ROCm device library for gfx1100\n");
  EXPECT_EQ(driver.status, VerifyStatus::ToolchainError);
  EXPECT_EQ(driver.detail, "clang: error: cannot find ROCm device library for gfx1100");
}

}  // namespace
}  // namespace gpuport
