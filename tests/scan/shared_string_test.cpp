// SharedString reads like a const std::string; a scan gives every item of a file one shared copy
// of its path (one allocation per file, not per finding).
#include "scan/shared_string.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <string_view>

#include "scan/scanner.h"

namespace gpuport {
namespace {

TEST(SharedString, ReadsLikeAString) {
  const SharedString empty;
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.size(), 0u);
  EXPECT_EQ(empty.str(), "");
  EXPECT_STREQ(empty.c_str(), "");

  const SharedString path(std::string("kernels/reduce.cu"));
  EXPECT_EQ(path.size(), 17u);
  EXPECT_STREQ(path.c_str(), "kernels/reduce.cu");
  const std::string& as_string = path;
  EXPECT_EQ(as_string, "kernels/reduce.cu");
  const std::string_view as_view = path;
  EXPECT_EQ(as_view.substr(8), "reduce.cu");
  EXPECT_EQ("src/" + path, "src/kernels/reduce.cu");
  EXPECT_EQ(path + ":12", "kernels/reduce.cu:12");
  EXPECT_EQ(path + ':', "kernels/reduce.cu:");
  std::ostringstream printed;
  printed << path;
  EXPECT_EQ(printed.str(), "kernels/reduce.cu");
}

TEST(SharedString, ComparesByTextWithEveryStringType) {
  const SharedString a("a/x.cu");
  const SharedString b(std::string_view("b/y.cu"));
  const SharedString a_again(std::string("a/x.cu"));
  EXPECT_EQ(a, a_again);
  EXPECT_FALSE(a.shares_with(a_again));  // equal text, made separately
  EXPECT_NE(a, b);
  EXPECT_LT(a, b);
  EXPECT_GT(b, a);
  EXPECT_EQ(a, "a/x.cu");
  EXPECT_EQ(a, std::string("a/x.cu"));
  EXPECT_EQ(a, std::string_view("a/x.cu"));
  EXPECT_LT(a, std::string("a/y.cu"));
  EXPECT_GT(a, "a/w.cu");
  EXPECT_EQ(a.compare("a/x.cu"), 0);
  EXPECT_LT(a.compare("b"), 0);
  EXPECT_EQ(SharedString(), "");
  EXPECT_LT(SharedString(), a);

  std::map<std::string, int> by_file;
  ++by_file[a];
  ++by_file[a_again];
  EXPECT_EQ(by_file.at("a/x.cu"), 2);
}

TEST(SharedString, CopiesShareOneText) {
  SharedString original(std::string(100, 'p'));
  SharedString copy = original;
  EXPECT_TRUE(copy.shares_with(original));
  EXPECT_EQ(copy.data(), original.data());
  SharedString moved = std::move(copy);
  EXPECT_TRUE(moved.shares_with(original));
  original = "other.cu";
  EXPECT_EQ(moved, std::string(100, 'p'));
  EXPECT_EQ(original, "other.cu");
}

// Every finding, kernel and launch of a file carries the same text, not a copy each.
TEST(SharedString, ScanItemsOfAFileShareTheirPath) {
  MemoryFileSystem fs;
  fs.add_file("repo/kernels/reduce.cu",
              "#include <cublas_v2.h>\n"
              "__global__ void reduce(float* x) {\n"
              "  unsigned m = __ballot_sync(0xffffffff, x[0] > 0);\n"
              "  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(m));\n"
              "}\n"
              "__global__ void scale(float* x) { x[0] *= 2; }\n"
              "void run() { reduce<<<1, 32>>>(nullptr); scale<<<1, 64>>>(nullptr); }\n");
  fs.add_file("repo/serve.py", "import torch\nimport tensorrt as trt\n");
  auto result = scan(fs, "repo", ScanOptions{});
  ASSERT_TRUE(result.has_value());
  ASSERT_EQ(result->kernels.size(), 2u);
  ASSERT_EQ(result->launches.size(), 2u);
  const SharedString& path = result->kernels[0].file;
  EXPECT_EQ(path, "kernels/reduce.cu");
  EXPECT_TRUE(result->kernels[1].file.shares_with(path));
  EXPECT_TRUE(result->launches[0].file.shares_with(path));
  EXPECT_TRUE(result->launches[1].file.shares_with(path));
  std::size_t cu_findings = 0;
  std::size_t py_findings = 0;
  const SharedString* py_path = nullptr;
  for (const Finding& finding : result->findings) {
    if (finding.file == "kernels/reduce.cu") {
      ++cu_findings;
      EXPECT_TRUE(finding.file.shares_with(path)) << finding.line;
    } else {
      ASSERT_EQ(finding.file, "serve.py");
      ++py_findings;
      if (py_path == nullptr) {
        py_path = &finding.file;
      }
      EXPECT_TRUE(finding.file.shares_with(*py_path)) << finding.line;
    }
  }
  EXPECT_GE(cu_findings, 3u);
  EXPECT_EQ(py_findings, 2u);
}

}  // namespace
}  // namespace gpuport
