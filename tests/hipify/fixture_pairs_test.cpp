// Fixture pairs: each tests/fixtures/hipify/<case>/input.* must translate, with the builtin
// table, to exactly its expected.hip; and every translation (fixtures and the example serving
// repository) must be idempotent and change nothing but what the table explains.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fixture_pairs.h"
#include "hipify/mapping.h"
#include "hipify/translator.h"
#include "source/language.h"
#include "translation_properties.h"

namespace gpuport {
namespace {

namespace fs = std::filesystem;

using namespace fixture_files;

const fs::path k_serving_repo = fs::path(GPUPORT_SOURCE_DIR) / "examples" / "serving-repo";

std::string pair_name(const ::testing::TestParamInfo<FixturePair>& info) {
  std::string name = info.param.directory.filename().string();
  std::replace_if(
      name.begin(), name.end(),
      [](char c) { return std::isalnum(static_cast<unsigned char>(c)) == 0; }, '_');
  return name;
}

class FixturePairTest : public ::testing::TestWithParam<FixturePair> {};

TEST_P(FixturePairTest, TranslatesToExpectedHip) {
  const FixturePair& pair = GetParam();
  ASSERT_FALSE(pair.input.empty()) << pair.directory << " has no input.* file";
  ASSERT_TRUE(fs::exists(pair.directory / "expected.hip")) << pair.directory;
  std::string input = read_bytes(pair.input);
  TranslationResult result =
      translate_cuda(pair.input.filename().string(), input, builtin_mapping_table(), pair.options);
  EXPECT_EQ(result.output, read_bytes(pair.directory / "expected.hip"));
  EXPECT_THAT(result.diagnostics, ::testing::IsEmpty());
}

TEST_P(FixturePairTest, IsIdempotentAndChangesOnlyWhatTheTableExplains) {
  const FixturePair& pair = GetParam();
  std::string input = read_bytes(pair.input);
  const MappingTable& table = builtin_mapping_table();
  TranslationResult result = translate_cuda("input", input, table, pair.options);
  EXPECT_EQ(testing::idempotence_failure("input", result.output, table, pair.options), "");
  TranslateOptions keep = pair.options;
  keep.launch_syntax = LaunchSyntax::Keep;
  TranslationResult kept = translate_cuda("input", input, table, keep);
  EXPECT_EQ(testing::unexplained_difference(input, kept.output, table, keep), "");
}

INSTANTIATE_TEST_SUITE_P(Hipify, FixturePairTest, ::testing::ValuesIn(fixture_pairs()), pair_name);

// Every family the tables cover is exercised by some fixture.
TEST(FixturePairs, CoverEveryApiFamily) {
  std::set<ApiFamily> converted;
  std::set<ApiFamily> unsupported;
  for (const FixturePair& pair : fixture_pairs()) {
    std::string input = read_bytes(pair.input);
    TranslationResult result =
        translate_cuda("input", input, builtin_mapping_table(), pair.options);
    for (std::size_t family = 0; family < k_api_family_count; ++family) {
      if (result.stats.converted_by_family[family] + result.stats.kept_by_family[family] > 0) {
        converted.insert(static_cast<ApiFamily>(family));
      }
    }
    for (const UnsupportedUse& use : result.stats.unsupported) {
      unsupported.insert(use.family);
    }
  }
  for (ApiFamily family : {ApiFamily::Runtime,
                           ApiFamily::Driver,
                           ApiFamily::DeviceFunction,
                           ApiFamily::Complex,
                           ApiFamily::Fp16,
                           ApiFamily::Bf16,
                           ApiFamily::CooperativeGroups,
                           ApiFamily::Blas,
                           ApiFamily::BlasLt,
                           ApiFamily::Rand,
                           ApiFamily::Fft,
                           ApiFamily::Sparse,
                           ApiFamily::Solver,
                           ApiFamily::Dnn,
                           ApiFamily::Nccl,
                           ApiFamily::Cub,
                           ApiFamily::Thrust,
                           ApiFamily::Nvtx,
                           ApiFamily::Rtc,
                           ApiFamily::Header}) {
    EXPECT_TRUE(converted.contains(family)) << api_family_name(family);
  }
  EXPECT_TRUE(unsupported.contains(ApiFamily::Fp8) || converted.contains(ApiFamily::Fp8));
}

// Idempotence rests on the table: a target is never a CUDA name that maps elsewhere.
TEST(FixturePairs, TableTargetsAreFixedPoints) {
  const MappingTable& table = builtin_mapping_table();
  for (const Mapping& entry : table.entries()) {
    for (std::string_view target : {entry.hip, entry.roc}) {
      if (target.empty() || entry.support == Support::Unsupported) {
        continue;
      }
      const Mapping* again =
          entry.kind == MappingKind::Header ? table.find_header(target) : table.find(target);
      if (again != nullptr && again->cuda != target) {
        ADD_FAILURE() << entry.cuda << " -> " << target << " is itself mapped";
      }
      if (again != nullptr && again->support != Support::Unsupported && again->hip != target &&
          (again->roc.empty() || again->roc != target)) {
        ADD_FAILURE() << entry.cuda << " -> " << target << " -> " << again->hip;
      }
    }
  }
}

class ServingRepoFile : public ::testing::TestWithParam<fs::path> {};

std::vector<fs::path> serving_repo_sources() {
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(k_serving_repo)) {
    Language language = detect_language(entry.path().filename().string());
    if (entry.is_regular_file() && (language == Language::Cuda || language == Language::Cpp)) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST_P(ServingRepoFile, IsIdempotentAndChangesOnlyWhatTheTableExplains) {
  std::string input = read_bytes(GetParam());
  const MappingTable& table = builtin_mapping_table();
  for (int variant = 0; variant < 4; ++variant) {
    TranslateOptions options;
    options.warnings = false;
    options.translate_comments = (variant & 1) != 0;
    options.roc = (variant & 2) != 0;
    TranslationResult result = translate_cuda("file", input, table, options);
    EXPECT_EQ(testing::idempotence_failure("file", result.output, table, options), "")
        << "variant " << variant;
    EXPECT_EQ(testing::unexplained_difference(input, result.output, table, options), "")
        << "variant " << variant;
    options.launch_syntax = LaunchSyntax::Hip;
    TranslationResult launches = translate_cuda("file", input, table, options);
    EXPECT_EQ(testing::idempotence_failure("file", launches.output, table, options), "")
        << "variant " << variant << " with HIP launch syntax";
  }
}

TEST(ServingRepo, HasSourcesToCheck) {
  EXPECT_GE(serving_repo_sources().size(), 5U);
}

INSTANTIATE_TEST_SUITE_P(Examples, ServingRepoFile, ::testing::ValuesIn(serving_repo_sources()),
                         [](const ::testing::TestParamInfo<fs::path>& info) {
                           std::string name = info.param.filename().string();
                           std::replace_if(
                               name.begin(), name.end(),
                               [](char c) {
                                 return std::isalnum(static_cast<unsigned char>(c)) == 0;
                               },
                               '_');
                           return name;
                         });

}  // namespace
}  // namespace gpuport
