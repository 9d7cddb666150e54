// Never a confident answer from missing input (issue 27, item 7): a named file that cannot be
// read is an input error; product files a tree scan could not read are listed and make the scan
// and the audit say they are incomplete.
#include <sys/stat.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "../unprivileged.h"
#include "cli_runner.h"

namespace gpuport::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::string_view k_kernel =
    "#include <cuda_runtime.h>\n"
    "__global__ void scale(float* x) { x[threadIdx.x % 32] *= 2.0f; }\n"
    "void run(float* d) { scale<<<1, 64>>>(d); cudaDeviceSynchronize(); }\n";

void write(const fs::path& path, std::string_view text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

class CoverageCli : public CliFixture {
 protected:
  // A repository whose one product kernel is 2 KiB, read or not by --max-filesize; a test file
  // of the same size, which never makes a report incomplete.
  fs::path repo() {
    const fs::path root = m_dir / "repo";
    std::string big(k_kernel);
    big += std::string(2048 - big.size(), '\n');
    write(root / "csrc/big.cu", big);
    write(root / "csrc/small.cu", k_kernel);
    write(root / "tests/test_big.cu", big);
    return root;
  }
};

TEST_F(CoverageCli, ANamedFileThatCannotBeReadIsAnInputError) {
  const fs::path root = repo();
  const std::string big = shell_quoted((root / "csrc/big.cu").string());
  const std::string expected =
      "gpuport: error: cannot read '" + (root / "csrc/big.cu").string() + "': ";
  const CliRun scan = gpuport("scan " + big + " --max-filesize 1K --fail-on rewrite -q");
  EXPECT_EQ(scan.exit_code, 2);
  EXPECT_EQ(scan.err, expected + "2048 bytes, over --max-filesize\n");
  EXPECT_EQ(scan.out, "");
  const CliRun hipify = gpuport("hipify " + big + " --max-filesize 1K --stdout -q");
  EXPECT_EQ(hipify.exit_code, 2);
  EXPECT_EQ(hipify.err, expected + "2048 bytes, over --max-filesize\n");
  EXPECT_EQ(hipify.out, "");

  // Unreadable (mode 000): root reads it anyway, so the check runs as an unprivileged user.
  fs::permissions(root / "csrc/big.cu", fs::perms::none);
  open_to_everyone(m_dir);
  fs::permissions(root / "csrc/big.cu", fs::perms::none);
  const std::string seen = run_unprivileged([&] {
    const CliRun denied = gpuport("scan " + big + " --fail-on rewrite -q");
    return std::to_string(denied.exit_code) + " " + denied.err;
  });
  EXPECT_EQ(seen, "2 " + expected + "Permission denied\n");
}

TEST_F(CoverageCli, ATreeScanListsTheProductFilesItCouldNotRead) {
  const fs::path root = repo();
  const CliRun json =
      gpuport("scan " + shell_quoted(root.string()) + " --max-filesize 1K --format json -q");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto coverage = nlohmann::json::parse(json.out)["coverage"];
  EXPECT_EQ(coverage["complete"], false);
  EXPECT_EQ(coverage["files_read"], 1);
  EXPECT_EQ(coverage["files_skipped"], 2);
  ASSERT_EQ(coverage["unread_product_files"].size(), 1u);  // tests/ is outside the product
  EXPECT_EQ(coverage["unread_product_files"][0]["path"], "csrc/big.cu");
  EXPECT_EQ(coverage["unread_product_files"][0]["reason"], "too_large");

  const CliRun text = gpuport("scan " + shell_quoted(root.string()) +
                              " --max-filesize 1K --color never --fail-on mechanical -q");
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_THAT(text.out, HasSubstr("\nCoverage\n  Incomplete: 1 product file was not read (1 over "
                                  "--max-filesize); their findings are missing.\n  csrc/big.cu "
                                  "(too_large)\n"));
  EXPECT_THAT(text.out, HasSubstr(" Incomplete: 1 product file was not read (1 over "
                                  "--max-filesize).\n"));
  EXPECT_THAT(text.err, HasSubstr("gpuport: warning: --fail-on judged an incomplete scan: 1 "
                                  "product file was not read (1 over --max-filesize)\n"));

  const CliRun whole = gpuport("scan " + shell_quoted(root.string()) + " --format json -q");
  EXPECT_EQ(nlohmann::json::parse(whole.out)["coverage"]["complete"], true);
}

// The audit said "Config change: 0–0 engineer-days" of a repository whose CUDA file it could
// not read, with no warning.
TEST_F(CoverageCli, TheAuditVerdictSaysItIsIncompleteAndListsTheFiles) {
  const fs::path root = repo();
  fs::remove(root / "csrc/small.cu");
  const CliRun json =
      gpuport("audit " + shell_quoted(root.string()) + " --max-filesize 1K --format json -q -o -");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_THAT(doc["verdict"]["headline"].get<std::string>(),
              HasSubstr(" (incomplete: 1 product file was not read (1 over --max-filesize))"));
  EXPECT_EQ(doc["verdict"]["incomplete"], "1 product file was not read (1 over --max-filesize)");
  EXPECT_EQ(doc["source_coverage"]["complete"], false);
  EXPECT_EQ(doc["source_coverage"]["unread_product_files"][0]["path"], "csrc/big.cu");

  const CliRun markdown =
      gpuport("audit " + shell_quoted(root.string()) + " --max-filesize 1K --format md -q -o -");
  ASSERT_EQ(markdown.exit_code, 0) << markdown.err;
  EXPECT_THAT(markdown.out, HasSubstr("> Incomplete: 1 product file was not read (1 over "
                                      "--max-filesize); the estimate leaves them out"));
  EXPECT_THAT(markdown.out, HasSubstr("\n## Coverage\n"));
  EXPECT_THAT(markdown.out, HasSubstr("| csrc/big.cu | too_large |"));

  const CliRun read_all =
      gpuport("audit " + shell_quoted(root.string()) + " --format json -q -o -");
  const auto full = nlohmann::json::parse(read_all.out);
  EXPECT_EQ(full["verdict"]["incomplete"], "");
  EXPECT_THAT(full["verdict"]["headline"].get<std::string>(), Not(HasSubstr("incomplete")));
}

}  // namespace
}  // namespace gpuport::testing
