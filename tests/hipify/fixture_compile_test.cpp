// The translated fixtures compile for an AMD GPU: every tests/fixtures/hipify/<case>/expected.hip
// goes through `--verify`'s own path (hipcc --offload-arch=gfx90a -fsyntax-only). Fixtures for
// libraries whose HIP headers Debian does not package must come back as missing-header for that
// header, never as a failure.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "../source/temp_dir.h"
#include "fixture_pairs.h"
#include "hipify/mapping.h"
#include "hipify/translator.h"
#include "hipify/verify.h"
#include "source/file_system.h"

namespace gpuport {
namespace {

namespace fs = std::filesystem;

// What each fixture's translation gives under Debian 12's HIP 5.2 packages: "pass", or the
// header that is not installed there.
const std::map<std::string, std::string> k_expected = {
    {"bf16_fp8.hip", "missing-header: hip/hip_bf16.h"},
    {"blas.hip", "missing-header: hipblas/hipblas.h"},
    {"blaslt.hip", "missing-header: hipblaslt/hipblaslt.h"},
    {"comments_strings.hip", "pass"},
    {"comments_translated.hip", "pass"},
    {"complex.hip", "pass"},
    {"cooperative_groups.hip", "pass"},
    {"crlf_bom.hip", "pass"},
    {"cub.hip", "missing-header: hipcub/hipcub.hpp"},
    {"device_functions.hip", "pass"},
    {"dnn.hip", "missing-header: miopen/miopen.h"},
    {"driver.hip", "pass"},
    {"fft.hip", "missing-header: hipfft/hipfft.h"},
    {"half_types.hip", "pass"},
    {"graph_calls.hip", "pass"},
    {"helper_header_guards.hip", "pass"},
    {"if_branches.hip", "pass"},
    {"includes_duplicates.hip", "pass"},
    {"includes_guard.hip", "pass"},
    {"includes_pragma_once.hip", "pass"},
    {"kernel_pointers.hip", "pass"},
    {"launch_hip.hip", "pass"},
    {"launch_keep.hip", "pass"},
    {"math_constants.hip", "missing-header: hip/hip_math_constants.h"},
    {"nccl.hip", "missing-header: rccl/rccl.h"},
    {"nvtx.hip", "missing-header: roctracer/roctx.h"},
    {"occupancy.hip", "pass"},
    {"rand.hip", "pass"},
    {"resource_views.hip", "pass"},
    {"roc_blas.hip", "missing-header: rocblas/rocblas.h"},
    {"roc_sparse.hip", "pass"},
    {"rtc.hip", "pass"},
    {"runtime.hip", "pass"},
    {"runtime_headers.hip", "pass"},
    {"solver.hip", "missing-header: hipsolver/hipsolver.h"},
    {"sparse.hip", "pass"},
    {"struct_tags.hip", "pass"},
    {"stream_callback.hip", "pass"},
    {"symbols.hip", "pass"},
    {"textures_surfaces.hip", "pass"},
    {"thrust.hip", "missing-header: thrust/device_vector.h"},
};

// file -> "pass", or the status and hipcc's detail (the missing header, the first error line).
std::map<std::string, std::string> compile_outcomes(const std::vector<VerifyInput>& inputs) {
  VerifyOptions options;
  options.jobs = 2;
  DiskFileSystem fs;
  std::map<std::string, std::string> seen;
  for (const VerifyResult& result : verify_sources(fs, inputs, options)) {
    std::string outcome(verify_status_name(result.status));
    if (result.status != VerifyStatus::Pass) {
      outcome += ": " + result.detail;
    }
    seen[result.file] = outcome;
  }
  return seen;
}

TEST(FixtureCompile, TranslatedFixturesCompileForGfx90aOrNameTheMissingHeader) {
  gpuport::testing::TempDir dir;
  std::vector<VerifyInput> inputs;
  for (const fs::directory_entry& entry : fs::directory_iterator(fixture_files::k_fixtures)) {
    if (!fs::exists(entry.path() / "expected.hip")) {
      continue;
    }
    const std::string name = entry.path().filename().string();
    const fs::path copy = dir.path() / (name + ".hip");
    fs::copy_file(entry.path() / "expected.hip", copy);
    inputs.push_back({name + ".hip", copy.string(), true});
  }
  ASSERT_EQ(inputs.size(), k_expected.size()) << "a fixture was added or removed: update the table";

  EXPECT_EQ(compile_outcomes(inputs), k_expected);
}

// `--rocm 5.2`, the release of Debian 12's hipcc: each fixture's input translated for it (names
// newer than 5.2 are left as written and reported) compiles, or names the header that is missing
// there. The outcomes are the committed translations' (k_expected, for the newest release) but
// where HIP 5.2 has no counterpart at all (bf16, hipBLASLt, math constants): there the CUDA
// header is left as written, and is the one missing.
std::map<std::string, std::string> expected_at_5_2() {
  std::map<std::string, std::string> expected = k_expected;
  expected["bf16_fp8.hip"] = "missing-header: cuda_bf16.h";
  expected["blaslt.hip"] = "missing-header: cublasLt.h";
  expected["math_constants.hip"] = "missing-header: math_constants.h";
  return expected;
}

TEST(FixtureCompile, TranslatedForRocm52TheyCompileWithDebiansHipcc) {
  const RocmRelease rocm_5_2 = *parse_rocm_release("5.2");
  const MappingTable& table = mapping_table_for(rocm_5_2);
  gpuport::testing::TempDir dir;
  std::vector<VerifyInput> inputs;
  for (const fixture_files::FixturePair& pair : fixture_files::fixture_pairs()) {
    TranslateOptions options = pair.options;
    options.rocm = rocm_5_2;
    const std::string name = pair.directory.filename().string() + ".hip";
    const TranslationResult result = translate_cuda(
        pair.input.filename().string(), fixture_files::read_bytes(pair.input), table, options);
    std::ofstream(dir.path() / name, std::ios::binary) << result.output;
    inputs.push_back({name, (dir.path() / name).string(), true});
  }
  EXPECT_EQ(compile_outcomes(inputs), expected_at_5_2());
}

}  // namespace
}  // namespace gpuport
