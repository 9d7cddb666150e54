// unified_diff(): exact diff text for the cases `--dry-run --diff` meets, and minimal edit scripts.
#include "hipify/unified_diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace gpuport {
namespace {

std::string numbered_lines(int count) {
  std::string text;
  for (int i = 1; i <= count; ++i) {
    text += std::to_string(i) + "\n";
  }
  return text;
}

TEST(UnifiedDiff, IdenticalTextsGiveNoDiff) {
  EXPECT_EQ(unified_diff("a\nb\n", "a\nb\n", "x.cu", "x.cu"), "");
  EXPECT_EQ(unified_diff("", "", "x.cu", "x.cu"), "");
}

TEST(UnifiedDiff, ChangeInTheMiddleHasThreeLinesOfContext) {
  std::string changed = numbered_lines(10);
  changed.replace(changed.find("5\n"), 2, "five\n");
  EXPECT_EQ(unified_diff(numbered_lines(10), changed, "src/k.cu", "src/k.cu"),
            "--- a/src/k.cu\n"
            "+++ b/src/k.cu\n"
            "@@ -2,7 +2,7 @@\n"
            " 2\n"
            " 3\n"
            " 4\n"
            "-5\n"
            "+five\n"
            " 6\n"
            " 7\n"
            " 8\n");
}

TEST(UnifiedDiff, InsertionAtStartAndEnd) {
  EXPECT_EQ(unified_diff("a\nb\nc\nd\ne\n", "#include <hip/hip_runtime.h>\na\nb\nc\nd\ne\n", "k.cu",
                         "k.hip"),
            "--- a/k.cu\n"
            "+++ b/k.hip\n"
            "@@ -1,3 +1,4 @@\n"
            "+#include <hip/hip_runtime.h>\n"
            " a\n"
            " b\n"
            " c\n");
  EXPECT_EQ(unified_diff("a\nb\nc\nd\ne\n", "a\nb\nc\nd\ne\nf\n", "k.cu", "k.cu"),
            "--- a/k.cu\n"
            "+++ b/k.cu\n"
            "@@ -3,3 +3,4 @@\n"
            " c\n"
            " d\n"
            " e\n"
            "+f\n");
}

TEST(UnifiedDiff, DeletionsListOldLinesOnly) {
  EXPECT_EQ(unified_diff("a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nf\ng\n", "k.cu", "k.cu"),
            "--- a/k.cu\n"
            "+++ b/k.cu\n"
            "@@ -1,7 +1,5 @@\n"
            " a\n"
            " b\n"
            " c\n"
            "-d\n"
            "-e\n"
            " f\n"
            " g\n");
}

TEST(UnifiedDiff, EmptySidesUseLineZero) {
  EXPECT_EQ(unified_diff("", "a\nb\n", "new.cu", "new.cu"),
            "--- a/new.cu\n+++ b/new.cu\n@@ -0,0 +1,2 @@\n+a\n+b\n");
  EXPECT_EQ(unified_diff("a\nb\n", "", "old.cu", "old.cu"),
            "--- a/old.cu\n+++ b/old.cu\n@@ -1,2 +0,0 @@\n-a\n-b\n");
}

// hipify --diff wrote file names raw: an escape sequence in a name reached the terminal and
// patch / git apply could not read the header (issue 27, item 6). Quoted as git quotes them.
TEST(UnifiedDiff, UnusualFileNamesAreQuotedAsGitQuotesThem) {
  auto headers = [](std::string_view old_path, std::string_view new_path) {
    const std::string diff = unified_diff("a\n", "b\n", old_path, new_path);
    return diff.substr(0, diff.find("@@"));
  };
  EXPECT_EQ(headers("src/k\x1b[31m.cu", "src/k\x1b[31m.cu"), R"(--- "a/src/k\033[31m.cu")"
                                                             "\n"
                                                             R"(+++ "b/src/k\033[31m.cu")"
                                                             "\n");
  EXPECT_EQ(headers("say \"hi\"\\.cu", "tab\there.cu"), R"(--- "a/say \"hi\"\\.cu")"
                                                        "\n"
                                                        R"(+++ "b/tab\there.cu")"
                                                        "\n");
  EXPECT_EQ(headers("dir with space/k.cu", "dir with space/k.cu"),
            "--- a/dir with space/k.cu\n+++ b/dir with space/k.cu\n");
}

TEST(UnifiedDiff, SingleLineRangesOmitTheCount) {
  EXPECT_EQ(unified_diff("a\n", "b\n", "k.cu", "k.cu"),
            "--- a/k.cu\n+++ b/k.cu\n@@ -1 +1 @@\n-a\n+b\n");
}

TEST(UnifiedDiff, MissingFinalNewlineIsMarked) {
  EXPECT_EQ(unified_diff("a\nb", "a\nc", "k.cu", "k.cu"),
            "--- a/k.cu\n"
            "+++ b/k.cu\n"
            "@@ -1,2 +1,2 @@\n"
            " a\n"
            "-b\n"
            "\\ No newline at end of file\n"
            "+c\n"
            "\\ No newline at end of file\n");
  // Adding only the final newline is a change of the last line.
  EXPECT_EQ(unified_diff("a\nb", "a\nb\n", "k.cu", "k.cu"),
            "--- a/k.cu\n"
            "+++ b/k.cu\n"
            "@@ -1,2 +1,2 @@\n"
            " a\n"
            "-b\n"
            "\\ No newline at end of file\n"
            "+b\n");
}

TEST(UnifiedDiff, CrlfLineEndingsStayInsideTheLines) {
  EXPECT_EQ(unified_diff("a\r\ncudaFree(p);\r\nc\r\n", "a\r\nhipFree(p);\r\nc\r\n", "k.cu", "k.cu"),
            "--- a/k.cu\n"
            "+++ b/k.cu\n"
            "@@ -1,3 +1,3 @@\n"
            " a\r\n"
            "-cudaFree(p);\r\n"
            "+hipFree(p);\r\n"
            " c\r\n");
  // A line ending switch from CRLF to LF is a change.
  EXPECT_NE(unified_diff("a\r\n", "a\n", "k.cu", "k.cu"), "");
}

TEST(UnifiedDiff, NearbyChangesShareAHunkAndDistantOnesDoNot) {
  std::string changed = numbered_lines(20);
  auto replace = [&changed](const std::string& from, const std::string& to) {
    changed.replace(changed.find("\n" + from + "\n") + 1, from.size(), to);
  };
  replace("5", "five");
  replace("9", "nine");  // 3 unchanged lines after 5: same hunk
  replace("17", "x");    // 7 unchanged lines after 9: a hunk of its own
  EXPECT_EQ(unified_diff(numbered_lines(20), changed, "k.cu", "k.cu"),
            "--- a/k.cu\n"
            "+++ b/k.cu\n"
            "@@ -2,11 +2,11 @@\n"
            " 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n-9\n+nine\n 10\n 11\n 12\n"
            "@@ -14,7 +14,7 @@\n"
            " 14\n 15\n 16\n-17\n+x\n 18\n 19\n 20\n");
}

TEST(UnifiedDiff, ContextZeroShowsOnlyChanges) {
  EXPECT_EQ(unified_diff("a\nb\nc\n", "a\nB\nc\n", "k.cu", "k.cu", 0),
            "--- a/k.cu\n+++ b/k.cu\n@@ -2 +2 @@\n-b\n+B\n");
}

TEST(SplitLines, KeepsTerminatorsAndTheUnterminatedTail) {
  const std::vector<std::string_view> lines = split_lines("a\r\nb\n\nc");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "a\r\n");
  EXPECT_EQ(lines[1], "b\n");
  EXPECT_EQ(lines[2], "\n");
  EXPECT_EQ(lines[3], "c");
  EXPECT_TRUE(split_lines("").empty());
}

// Longest common subsequence length by dynamic programming, the reference for minimality.
std::size_t lcs_length(const std::vector<std::string_view>& a,
                       const std::vector<std::string_view>& b) {
  std::vector<std::vector<std::size_t>> table(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      table[i][j] = a[i - 1] == b[j - 1] ? table[i - 1][j - 1] + 1
                                         : std::max(table[i - 1][j], table[i][j - 1]);
    }
  }
  return table[a.size()][b.size()];
}

TEST(DiffLines, EditScriptsAreValidAndMinimalOnRandomInputs) {
  std::mt19937 random(20240601);
  const std::string_view alphabet[] = {"a\n", "b\n", "c\n", "d\n", "e\n"};
  for (int round = 0; round < 3000; ++round) {
    const std::size_t symbols = 1 + random() % 5;
    std::vector<std::string_view> a(random() % 40);
    std::vector<std::string_view> b(random() % 40);
    for (auto& line : a) {
      line = alphabet[random() % symbols];
    }
    for (auto& line : b) {
      line = alphabet[random() % symbols];
    }
    const std::vector<LineEdit> edits = diff_lines(a, b);
    std::size_t i = 0;
    std::size_t j = 0;
    std::size_t changes = 0;
    for (const LineEdit& edit : edits) {
      ASSERT_EQ(edit.old_index, i);
      ASSERT_EQ(edit.new_index, j);
      if (edit.kind == LineEditKind::Keep) {
        ASSERT_EQ(a[i], b[j]);
        ++i;
        ++j;
      } else if (edit.kind == LineEditKind::Delete) {
        ++i;
        ++changes;
      } else {
        ++j;
        ++changes;
      }
    }
    ASSERT_EQ(i, a.size());
    ASSERT_EQ(j, b.size());
    ASSERT_EQ(changes, a.size() + b.size() - 2 * lcs_length(a, b)) << "round " << round;
  }
}

}  // namespace
}  // namespace gpuport
