// Tests for the gitignore matcher: glob syntax, pattern lines, and nested levels.
#include "source/ignore_rules.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace gpuport {
namespace {

bool glob_matches(std::string_view pattern, std::string_view text) {
  Glob glob;
  EXPECT_TRUE(Glob::compile(pattern, glob)) << pattern;
  return glob.matches(text);
}

IgnoreMatch match(std::string_view rules, std::string_view path, PathKind kind = PathKind::File) {
  return IgnoreRules::parse(rules).match(path, kind);
}

TEST(Glob, StarStaysInsideOneComponent) {
  EXPECT_TRUE(glob_matches("*.cu", "a.cu"));
  EXPECT_TRUE(glob_matches("*.cu", ".cu"));
  EXPECT_FALSE(glob_matches("*.cu", "a.cuh"));
  EXPECT_FALSE(glob_matches("*.cu", "dir/a.cu"));
  EXPECT_TRUE(glob_matches("a*b*c", "aXbYbZc"));
  EXPECT_FALSE(glob_matches("a*b*c", "aXbYbZ"));
  EXPECT_TRUE(glob_matches("src/*.h", "src/x.h"));
  EXPECT_FALSE(glob_matches("src/*.h", "src/sub/x.h"));
}

TEST(Glob, QuestionMarkIsOneCharacterButNotSlash) {
  EXPECT_TRUE(glob_matches("a?c", "abc"));
  EXPECT_FALSE(glob_matches("a?c", "ac"));
  EXPECT_FALSE(glob_matches("a?c", "a/c"));
}

TEST(Glob, CharacterClasses) {
  EXPECT_TRUE(glob_matches("file[0-9].txt", "file7.txt"));
  EXPECT_FALSE(glob_matches("file[0-9].txt", "fileA.txt"));
  EXPECT_TRUE(glob_matches("file[!0-9].txt", "fileA.txt"));
  EXPECT_FALSE(glob_matches("file[!0-9].txt", "file7.txt"));
  EXPECT_TRUE(glob_matches("file[^0-9].txt", "fileA.txt"));
  EXPECT_TRUE(glob_matches("[abc]x", "bx"));
  EXPECT_FALSE(glob_matches("[abc]x", "dx"));
  EXPECT_TRUE(glob_matches("[]]x", "]x"));
  EXPECT_TRUE(glob_matches("[a-]x", "-x"));
  EXPECT_TRUE(glob_matches("[[:digit:]]x", "5x"));
  EXPECT_FALSE(glob_matches("[[:digit:]]x", "ax"));
  EXPECT_FALSE(glob_matches("a[!b]c", "a/c"));  // a negated class never matches '/'
  // An unterminated '[' is an ordinary character.
  EXPECT_TRUE(glob_matches("a[b", "a[b"));
}

TEST(Glob, EscapesMakeCharactersLiteral) {
  EXPECT_TRUE(glob_matches("\\*.cu", "*.cu"));
  EXPECT_FALSE(glob_matches("\\*.cu", "a.cu"));
  EXPECT_TRUE(glob_matches("a\\?", "a?"));
  EXPECT_FALSE(glob_matches("a\\?", "ab"));
  Glob glob;
  EXPECT_FALSE(Glob::compile("trailing\\", glob));
}

TEST(Glob, DoubleStarForms) {
  EXPECT_TRUE(glob_matches("**/build", "build"));
  EXPECT_TRUE(glob_matches("**/build", "a/b/build"));
  EXPECT_FALSE(glob_matches("**/build", "a/xbuild"));
  EXPECT_TRUE(glob_matches("out/**", "out/x"));
  EXPECT_TRUE(glob_matches("out/**", "out/x/y/z"));
  EXPECT_FALSE(glob_matches("out/**", "out"));
  EXPECT_FALSE(glob_matches("out/**", "outer/x"));
  EXPECT_TRUE(glob_matches("a/**/b", "a/b"));
  EXPECT_TRUE(glob_matches("a/**/b", "a/x/b"));
  EXPECT_TRUE(glob_matches("a/**/b", "a/x/y/b"));
  EXPECT_FALSE(glob_matches("a/**/b", "a/x/y/c"));
  EXPECT_FALSE(glob_matches("a/**/b", "ab"));
  EXPECT_TRUE(glob_matches("**/a/**/b/*.cu", "x/a/y/b/k.cu"));
  EXPECT_TRUE(glob_matches("**/a/**/b/*.cu", "a/b/a/z/b/k.cu"));
  EXPECT_FALSE(glob_matches("**/a/**/b/*.cu", "x/a/y/b/c/k.cu"));
  EXPECT_TRUE(glob_matches("**", "anything/at/all"));
  // Longer runs of stars that fill a component behave as "**".
  EXPECT_TRUE(glob_matches("**/****/a", "a"));
  EXPECT_TRUE(glob_matches("**/****/a", "x/y/a"));
  EXPECT_TRUE(glob_matches("out/***", "out/x/y"));
  // "**" that is not a whole component is an ordinary '*'.
  EXPECT_TRUE(glob_matches("a**b", "aXXb"));
  EXPECT_FALSE(glob_matches("a**b", "a/b"));
}

// An exponential matcher would not finish these in the lifetime of the machine: the test's
// watchdog (ctest TIMEOUT) fails it, no wall-clock assertion needed.
TEST(Glob, ManyStarsAreNotExponential) {
  const std::string pattern = "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b";
  const std::string text(5000, 'a');
  EXPECT_FALSE(glob_matches(pattern, text));
  EXPECT_FALSE(glob_matches("**/**/**/**/**/**/**/x", std::string(2000, '/') + "y"));
}

TEST(IgnoreRules, BlankLinesAndCommentsAreSkipped) {
  const IgnoreRules rules = IgnoreRules::parse("\n# build output\n   \n*.o\n");
  EXPECT_EQ(rules.size(), 1u);  // "   " is trimmed to nothing and dropped
  EXPECT_EQ(rules.match("main.o", PathKind::File), IgnoreMatch::Ignore);
  EXPECT_EQ(rules.match("# build output", PathKind::File), IgnoreMatch::None);
}

TEST(IgnoreRules, EscapedHashAndBangAreLiteral) {
  EXPECT_EQ(match("\\#notes\n", "#notes"), IgnoreMatch::Ignore);
  EXPECT_EQ(match("\\!important\n", "!important"), IgnoreMatch::Ignore);
  EXPECT_EQ(match("\\!important\n", "important"), IgnoreMatch::None);
}

TEST(IgnoreRules, TrailingSpacesTrimmedUnlessEscaped) {
  EXPECT_EQ(match("a.txt   \n", "a.txt"), IgnoreMatch::Ignore);
  EXPECT_EQ(match("a\\ \n", "a "), IgnoreMatch::Ignore);
  EXPECT_EQ(match("a\\ \n", "a"), IgnoreMatch::None);
  EXPECT_EQ(match("crlf.txt\r\n", "crlf.txt"), IgnoreMatch::Ignore);
}

TEST(IgnoreRules, NegationReincludesAndLastMatchWins) {
  const std::string rules = "*.log\n!keep.log\n";
  EXPECT_EQ(match(rules, "debug.log"), IgnoreMatch::Ignore);
  EXPECT_EQ(match(rules, "keep.log"), IgnoreMatch::Include);
  EXPECT_EQ(match("!keep.log\n*.log\n", "keep.log"), IgnoreMatch::Ignore);
}

TEST(IgnoreRules, DirectoryOnlyPatterns) {
  EXPECT_EQ(match("build/\n", "build", PathKind::Directory), IgnoreMatch::Ignore);
  EXPECT_EQ(match("build/\n", "build", PathKind::File), IgnoreMatch::None);
  EXPECT_EQ(match("build/\n", "src/build", PathKind::Directory), IgnoreMatch::Ignore);
}

TEST(IgnoreRules, AnchoredAndUnanchored) {
  // No slash: any depth.
  EXPECT_EQ(match("gen.h\n", "gen.h"), IgnoreMatch::Ignore);
  EXPECT_EQ(match("gen.h\n", "a/b/gen.h"), IgnoreMatch::Ignore);
  // Leading slash: only next to the ignore file.
  EXPECT_EQ(match("/gen.h\n", "gen.h"), IgnoreMatch::Ignore);
  EXPECT_EQ(match("/gen.h\n", "a/gen.h"), IgnoreMatch::None);
  // Middle slash: relative to the ignore file too.
  EXPECT_EQ(match("doc/frotz\n", "doc/frotz", PathKind::Directory), IgnoreMatch::Ignore);
  EXPECT_EQ(match("doc/frotz\n", "a/doc/frotz", PathKind::Directory), IgnoreMatch::None);
  // Only a trailing slash: still any depth.
  EXPECT_EQ(match("frotz/\n", "a/frotz", PathKind::Directory), IgnoreMatch::Ignore);
}

TEST(IgnoreRules, ByteOrderMarkIsSkipped) {
  EXPECT_EQ(match("\xEF\xBB\xBF*.o\n", "x.o"), IgnoreMatch::Ignore);
}

TEST(IgnoreRules, SurvivesArbitraryBytes) {
  std::string junk;
  for (int i = 0; i < 2048; ++i) {
    junk += static_cast<char>((i * 131 + 7) % 256);
  }
  junk += "\n[\n\\\n!\n/\n**\n[[:bogus:]]\n[z-a]\n";
  const IgnoreRules rules = IgnoreRules::parse(junk);
  (void)rules.match(junk, PathKind::Directory);
  // The "**" line matches everything, and the odd classes after it match nothing here.
  EXPECT_EQ(rules.match("some/path", PathKind::File), IgnoreMatch::Ignore);
}

TEST(IgnoreLevels, DeeperFilesTakePrecedence) {
  auto root = std::make_shared<IgnoreLevel>();
  root->rules = IgnoreRules::parse("*.gen.cu\n");
  auto nested = std::make_shared<IgnoreLevel>();
  nested->rules = IgnoreRules::parse("!keep.gen.cu\n/local.txt\n");
  nested->base = "src/";
  nested->parent = root;

  EXPECT_EQ(match_ignore_levels(nested.get(), "src/keep.gen.cu", PathKind::File),
            IgnoreMatch::Include);
  EXPECT_EQ(match_ignore_levels(nested.get(), "src/other.gen.cu", PathKind::File),
            IgnoreMatch::Ignore);
  // The nested file's anchored pattern is relative to src/.
  EXPECT_EQ(match_ignore_levels(nested.get(), "src/local.txt", PathKind::File),
            IgnoreMatch::Ignore);
  EXPECT_EQ(match_ignore_levels(nested.get(), "src/sub/local.txt", PathKind::File),
            IgnoreMatch::None);
  EXPECT_EQ(match_ignore_levels(nested.get(), "main.cpp", PathKind::File), IgnoreMatch::None);
}

}  // namespace
}  // namespace gpuport
