// The end of a scan orders every file's lists by path: the findings, kernels and launch sites of
// each file become one segment of the result's lists. The result must not depend on the job count,
// and files read one after another into a worker's reused buffer must not see each other's bytes,
// nor its reused analysis each other's items.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "../source/temp_dir.h"
#include "scan/file_analysis.h"
#include "scan/rules/catalog.h"
#include "scan/scanner.h"

namespace gpuport {
namespace {

using gpuport::testing::TempDir;

std::string kernel_file(int index) {
  const std::string n = std::to_string(index);
  return "#include <cublas_v2.h>\n"
         "__global__ void k" +
         n +
         "(float* x) {\n"
         "  unsigned m = __ballot_sync(0xffffffff, x[0] > 0);\n"
         "  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(m));\n"
         "}\n"
         "void run" +
         n + "() { k" + n + "<<<1, 32>>>(nullptr); }\n";
}

void add_tree(MemoryFileSystem& fs) {
  for (int i = 0; i < 40; ++i) {
    fs.add_file("repo/d" + std::to_string(i % 7) + "/f" + std::to_string(i) + ".cu",
                kernel_file(i));
    fs.add_file("repo/py/m" + std::to_string(i) + ".py",
                "import torch\nimport tensorrt as trt\nx = torch.cuda.is_available()\n");
  }
  fs.add_file("repo/bad.ipynb", "{\"cells\": [\n");
  fs.add_file("repo/unterminated.cu", "__global__ void u() {}\n/* open comment\n");
}

ScanResult scan_with_jobs(const FileSystem& fs, const std::string& root, unsigned jobs) {
  ScanOptions options;
  options.walk.jobs = jobs;
  auto result = scan(fs, root, options);
  EXPECT_TRUE(result.has_value());
  return result ? std::move(*result) : ScanResult{};
}

using FindingKey = std::tuple<std::string, std::uint32_t, std::uint32_t, std::string, std::string>;

std::vector<FindingKey> finding_keys(const ScanResult& result) {
  std::vector<FindingKey> keys;
  for (const Finding& f : result.findings) {
    keys.emplace_back(f.file, f.line, f.column, std::string(rule_catalog()[f.rule].id), f.detail);
  }
  return keys;
}

std::vector<std::tuple<std::string, std::uint32_t, std::string>> kernel_keys(
    const ScanResult& result) {
  std::vector<std::tuple<std::string, std::uint32_t, std::string>> keys;
  for (const Kernel& k : result.kernels) {
    keys.emplace_back(k.file, k.line, k.name);
  }
  return keys;
}

TEST(ScanMerge, ListsAreTheSameAndInPathOrderForEveryJobCount) {
  MemoryFileSystem fs;
  add_tree(fs);
  const ScanResult one = scan_with_jobs(fs, "repo", 1);
  ASSERT_EQ(one.kernels.size(), 41u);
  ASSERT_EQ(one.launches.size(), 40u);
  ASSERT_EQ(one.warnings.size(), 2u);
  EXPECT_EQ(one.warnings[0].file, "bad.ipynb");
  EXPECT_EQ(one.warnings[1].file, "unterminated.cu");
  EXPECT_EQ(one.kernels.front().file, "d0/f0.cu");
  EXPECT_EQ(one.kernels.back().file, "unterminated.cu");
  const auto keys = finding_keys(one);
  // Each .cu file: a 32-bit ballot variable, its 32-lane mask, a *_sync intrinsic count and a
  // PTX site; each .py file: the torch and tensorrt imports.
  EXPECT_EQ(keys.size(), 40u * 4 + 40u * 2);
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    return std::tie(std::get<0>(a), std::get<1>(a), std::get<2>(a)) <
           std::tie(std::get<0>(b), std::get<1>(b), std::get<2>(b));
  }));
  // One segment per file with items: no item was moved into one long list.
  EXPECT_EQ(one.findings.segment_count(), 80u);
  EXPECT_EQ(one.kernels.segment_count(), 41u);
  EXPECT_EQ(one.launches.segment_count(), 40u);
  for (unsigned jobs : {2u, 3u, 8u}) {
    const ScanResult many = scan_with_jobs(fs, "repo", jobs);
    EXPECT_EQ(finding_keys(many), keys) << jobs << " jobs";
    EXPECT_EQ(kernel_keys(many), kernel_keys(one)) << jobs << " jobs";
    ASSERT_EQ(many.launches.size(), one.launches.size());
    for (std::size_t i = 0; i < one.launches.size(); ++i) {
      EXPECT_EQ(many.launches[i].file, one.launches[i].file);
      EXPECT_EQ(many.launches[i].kernel, one.launches[i].kernel);
    }
    ASSERT_EQ(many.warnings.size(), 2u);
    EXPECT_EQ(many.warnings[1].message, one.warnings[1].message);
  }
}

// ScanOptions::excerpts off (the CLI's text report): the same findings, none with an excerpt;
// on (the default), every finding has its trimmed source line, config files' findings included.
TEST(ScanMerge, ExcerptsOffKeepsEveryFindingAndDropsOnlyTheExcerpts) {
  MemoryFileSystem fs;
  add_tree(fs);
  fs.add_file("repo/Dockerfile", "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n");
  ScanOptions options;
  const auto with = scan(fs, "repo", options);
  options.excerpts = false;
  const auto without = scan(fs, "repo", options);
  ASSERT_TRUE(with.has_value() && without.has_value());
  EXPECT_EQ(finding_keys(*without), finding_keys(*with));
  ASSERT_EQ(with->findings.size(), 40u * 4 + 40u * 2 + 1);
  const auto docker = std::find_if(with->findings.begin(), with->findings.end(),
                                   [](const Finding& f) { return f.file == "Dockerfile"; });
  ASSERT_NE(docker, with->findings.end());
  EXPECT_EQ(docker->excerpt, "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04");
  EXPECT_EQ(docker, with->findings.begin());  // "Dockerfile" sorts before "d0/..."
  EXPECT_EQ(with->findings[1].file, "d0/f0.cu");
  EXPECT_EQ(with->findings[1].excerpt, "unsigned m = __ballot_sync(0xffffffff, x[0] > 0);");
  for (const Finding& f : without->findings) {
    EXPECT_EQ(f.excerpt, "") << f.file << ":" << f.line;
  }
}

// A worker keeps one FileAnalysis for all its files: take_exact() hands a file's items on in lists
// of their exact size and leaves the analysis empty, with its capacity, for the next file.
TEST(FileAnalysis, TakeExactMovesEveryItemAndLeavesAnEmptyAnalysis) {
  FileAnalysis reused;
  for (int i = 0; i < 5; ++i) {
    Finding finding;
    finding.file = "a/long/enough/path/to/leave/the/small/string/buffer.cu";
    finding.line = static_cast<std::uint32_t>(i + 1);
    finding.detail = "detail " + std::to_string(i);
    reused.findings.push_back(finding);
  }
  Kernel kernel;
  kernel.name = "k";
  kernel.file = "f.cu";
  reused.kernels.push_back(kernel);
  LaunchSite launch;
  launch.kernel = "k";
  launch.line = 9;
  reused.launches.push_back(launch);
  reused.artifacts.push_back(Artifact{});
  reused.amd_path.push_back(AmdPathSign{});
  FileWarning warning;
  warning.message = "unterminated string literal";
  reused.warnings.push_back(warning);
  reused.template_instantiations = 2;
  reused.lines = 40;
  const std::size_t findings_capacity = reused.findings.capacity();

  const FileAnalysis kept = reused.take_exact();
  ASSERT_EQ(kept.findings.size(), 5u);
  EXPECT_EQ(kept.findings.capacity(), 5u);
  EXPECT_EQ(kept.findings[4].line, 5u);
  EXPECT_EQ(kept.findings[4].detail, "detail 4");
  EXPECT_EQ(kept.findings[4].file, "a/long/enough/path/to/leave/the/small/string/buffer.cu");
  ASSERT_EQ(kept.kernels.size(), 1u);
  EXPECT_EQ(kept.kernels[0].name, "k");
  ASSERT_EQ(kept.launches.size(), 1u);
  EXPECT_EQ(kept.launches[0].line, 9u);
  ASSERT_EQ(kept.artifacts.size(), 1u);
  ASSERT_EQ(kept.amd_path.size(), 1u);
  ASSERT_EQ(kept.warnings.size(), 1u);
  EXPECT_EQ(kept.warnings[0].message, "unterminated string literal");
  EXPECT_EQ(kept.template_instantiations, 2u);
  EXPECT_EQ(kept.lines, 40u);

  EXPECT_TRUE(reused.findings.empty());
  EXPECT_EQ(reused.findings.capacity(), findings_capacity);
  EXPECT_TRUE(reused.kernels.empty());
  EXPECT_TRUE(reused.launches.empty());
  EXPECT_TRUE(reused.artifacts.empty());
  EXPECT_TRUE(reused.amd_path.empty());
  EXPECT_TRUE(reused.warnings.empty());
  EXPECT_EQ(reused.template_instantiations, 0u);
  EXPECT_EQ(reused.lines, 0u);
}

TEST(FileAnalysis, TakeExactMovesTheFindingsInTheGivenOrder) {
  FileAnalysis reused;
  for (const std::uint32_t line : {7u, 3u, 9u, 1u}) {
    Finding finding;
    finding.file = "f.cu";
    finding.line = line;
    finding.detail = "a detail long enough to live on the heap, line " + std::to_string(line);
    reused.findings.push_back(finding);
  }
  const std::vector<std::uint32_t> order = {3, 1, 0, 2};
  const FileAnalysis kept = reused.take_exact(order);
  ASSERT_EQ(kept.findings.size(), 4u);
  EXPECT_EQ(kept.findings.capacity(), 4u);
  std::vector<std::uint32_t> lines;
  for (const Finding& finding : kept.findings) {
    lines.push_back(finding.line);
    EXPECT_EQ(finding.detail,
              "a detail long enough to live on the heap, line " + std::to_string(finding.line));
  }
  EXPECT_EQ(lines, (std::vector<std::uint32_t>{1, 3, 7, 9}));
  EXPECT_TRUE(reused.findings.empty());
}

// The rule families add their findings one family after another, so a file's list often comes
// out of the rules unsorted; the scan hands it on sorted by line, column, rule and detail.
TEST(ScanMerge, FindingsTheRulesEmitOutOfOrderAreSortedWithinTheFile) {
  const std::string source =
      "#include <cublas_v2.h>\n"
      "#define WARP_SIZE 32\n"
      "__global__ void k(float* x, int n) {\n"
      "  unsigned m = __ballot_sync(0xffffffff, x[0] > 0);\n"
      "  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(m));\n"
      "  x[threadIdx.x % WARP_SIZE] = __shfl_xor_sync(0xffffffff, x[0], 16);\n"
      "}\n";
  FileAnalysis raw;
  analyze_file("k.cu", source, raw);
  const auto key = [](const Finding& f) { return std::tie(f.line, f.column, f.rule, f.detail); };
  const auto less = [&](const Finding& a, const Finding& b) { return key(a) < key(b); };
  ASSERT_GE(raw.findings.size(), 4u);
  // The case under test: the rules' own order is not the file's order.
  ASSERT_FALSE(std::is_sorted(raw.findings.begin(), raw.findings.end(), less));

  MemoryFileSystem fs;
  fs.add_file("repo/k.cu", source);
  const ScanResult result = scan_with_jobs(fs, "repo", 1);
  ASSERT_EQ(result.findings.size(), raw.findings.size());
  EXPECT_TRUE(std::is_sorted(result.findings.begin(), result.findings.end(), less));
  std::vector<Finding> expected = raw.findings;
  std::stable_sort(expected.begin(), expected.end(), less);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(result.findings[i].line, expected[i].line) << i;
    EXPECT_EQ(result.findings[i].column, expected[i].column) << i;
    EXPECT_EQ(result.findings[i].rule, expected[i].rule) << i;
    EXPECT_EQ(result.findings[i].detail, expected[i].detail) << i;
    EXPECT_EQ(result.findings[i].excerpt, expected[i].excerpt) << i;
    EXPECT_EQ(result.findings[i].file, "k.cu") << i;
  }
}

// A large file read first leaves its bytes in the worker's buffer; the short file read after it
// must be lexed from its own bytes only (no kernel of the large file reappears in it).
TEST(ScanMerge, ShortFileReadAfterALargeOneSeesOnlyItsOwnBytes) {
  TempDir dir;
  std::string large = "// padding\n";
  while (large.size() < 256 * 1024) {
    large += "int filler_" + std::to_string(large.size()) + " = 0;\n";
  }
  large += "__global__ void tail_kernel() {}\n";
  dir.write("a_large.cu", large);
  dir.write("b_short.cu", "__global__ void s() {}\n");
  DiskFileSystem fs;
  const ScanResult result = scan_with_jobs(fs, dir.str(), 1);
  ASSERT_EQ(result.kernels.size(), 2u);
  EXPECT_EQ(result.kernels[0].file, "a_large.cu");
  EXPECT_EQ(result.kernels[0].name, "tail_kernel");
  EXPECT_EQ(result.kernels[1].file, "b_short.cu");
  EXPECT_EQ(result.kernels[1].name, "s");
  EXPECT_EQ(result.kernels[1].lines_of_code, 1u);
  EXPECT_EQ(result.bytes_scanned, large.size() + 23);
}

// Lexed files take their line count from the lexer's line starts; the count is that of
// `wc -l`, plus one for a last line without a line break, and a newline inside a comment, a
// string or a directive continuation counts like any other.
TEST(ScanTotals, LinesPerLanguageCountEveryLineOnce) {
  MemoryFileSystem fs;
  fs.add_file("repo/a.cu", "int a;\n/* two\nlines */\n#define X \\\n  1\n");  // 5 lines
  fs.add_file("repo/b.cu", "const char* s = R\"(x\ny)\";");                   // 2, no final break
  fs.add_file("repo/empty.cu", "");
  fs.add_file("repo/c.py", "x = '''a\nb'''\n# note\n");  // 3
  fs.add_file("repo/d.py", "\n\n");                      // 2
  fs.add_file("repo/e.py", "y = 1");                     // 1
  const ScanResult result = scan_with_jobs(fs, "repo", 2);
  EXPECT_EQ(result.languages.at(Language::Cuda).lines, 7u);
  EXPECT_EQ(result.languages.at(Language::Cuda).files, 3u);
  EXPECT_EQ(result.languages.at(Language::Python).lines, 6u);
}

}  // namespace
}  // namespace gpuport
