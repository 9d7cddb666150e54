// Synthetic prompts (word count = requested tokens, distinct per request) and JSONL datasets
// (accepted keys, one-line errors with file and line).
#include "bench/prompts.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace gpuport {
namespace {

namespace fs = std::filesystem;

std::size_t word_count(const std::string& text) {
  return text.empty() ? 0 : static_cast<std::size_t>(std::count(text.begin(), text.end(), ' ')) + 1;
}

TEST(Prompts, SyntheticPromptHasOneWordPerToken) {
  EXPECT_EQ(word_count(synthetic_prompt(512, 0)), 512u);
  EXPECT_EQ(word_count(synthetic_prompt(1, 3)), 1u);
  EXPECT_EQ(synthetic_prompt(0, 3), "");
  EXPECT_EQ(synthetic_prompt(-5, 3), "");
  // Common words only: about 3.5 bytes per word plus its space.
  const std::string prompt = synthetic_prompt(1000, 1);
  EXPECT_GT(prompt.size(), 3000u);
  EXPECT_LT(prompt.size(), 6000u);
  EXPECT_EQ(prompt.find_first_not_of("abcdefghijklmnopqrstuvwxyz "), std::string::npos);
}

TEST(Prompts, SyntheticPromptsAreReproducibleAndDifferFromTheFirstWord) {
  EXPECT_EQ(synthetic_prompt(64, 5), synthetic_prompt(64, 5));
  int same_first_word = 0;
  for (std::uint64_t i = 0; i < 100; ++i) {
    const std::string a = synthetic_prompt(64, i);
    const std::string b = synthetic_prompt(64, i + 1);
    EXPECT_NE(a, b);
    same_first_word += a.substr(0, a.find(' ')) == b.substr(0, b.find(' ')) ? 1 : 0;
  }
  EXPECT_LT(same_first_word, 10);  // 64 words: ~1.6 % chance per pair
  // Shared prefixes are short: no two of 100 prompts agree on their first 5 words.
  std::vector<std::string> prefixes;
  for (std::uint64_t i = 0; i < 100; ++i) {
    const std::string p = synthetic_prompt(64, i);
    std::size_t at = 0;
    for (int w = 0; w < 5; ++w) {
      at = p.find(' ', at + 1);
    }
    prefixes.push_back(p.substr(0, at));
  }
  std::sort(prefixes.begin(), prefixes.end());
  EXPECT_EQ(std::adjacent_find(prefixes.begin(), prefixes.end()), prefixes.end());
}

class DatasetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (fs::temp_directory_path() /
             ("gpuport-prompts-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".jsonl"))
                .string();
  }
  void TearDown() override { fs::remove(path_); }
  const std::string& write(const std::string& text) {
    std::ofstream(path_, std::ios::binary) << text;
    return path_;
  }
  std::string error_of(const std::string& text) {
    auto result = load_prompt_dataset(write(text));
    EXPECT_FALSE(result.has_value());
    return result ? "" : result.error().substr(path_.size());
  }
  std::string path_;
};

TEST_F(DatasetTest, ReadsPromptsTextAndOutputLengths) {
  const auto prompts = load_prompt_dataset(
      write("{\"prompt\": \"Hello\", \"output_tokens\": 32}\n\n  \r\n{\"text\":\"line two\"}\r\n"
            "{\"prompt\":\"x\",\"max_tokens\":7,\"extra\":[1]}"));
  ASSERT_TRUE(prompts.has_value()) << prompts.error();
  ASSERT_EQ(prompts->size(), 3u);
  EXPECT_EQ((*prompts)[0].prompt, "Hello");
  EXPECT_EQ((*prompts)[0].output_tokens, 32);
  EXPECT_EQ((*prompts)[1].prompt, "line two");
  EXPECT_EQ((*prompts)[1].output_tokens, 0);
  EXPECT_EQ((*prompts)[2].output_tokens, 7);
}

TEST_F(DatasetTest, ErrorsNameTheFileAndLine) {
  EXPECT_EQ(error_of("{\"prompt\":\"a\"}\n{\"question\":\"b\"}\n"), ":2: no 'prompt' key");
  EXPECT_EQ(error_of("{\"prompt\":\"a\"}\n\n{\"prompt\": \"b\n"),
            ":3: malformed JSON at column 14");
  EXPECT_EQ(error_of("[\"a\"]\n"), ":1: not a JSON object");
  EXPECT_EQ(error_of("{\"prompt\":5}\n"), ":1: 'prompt' must be a string");
  EXPECT_EQ(error_of("{\"prompt\":\"a\",\"output_tokens\":0}\n"),
            ":1: 'output_tokens' must be a positive integer");
  EXPECT_EQ(error_of("\n\n"), ": no prompts");
}

// Blank lines, CRLF line ends, "text" for "prompt", "max_tokens" for "output_tokens", escapes.
TEST(Prompts, ReadsTheDatasetFixture) {
  const auto prompts =
      load_prompt_dataset(std::string(GPUPORT_SOURCE_DIR) + "/tests/fixtures/bench/prompts.jsonl");
  ASSERT_TRUE(prompts.has_value()) << prompts.error();
  ASSERT_EQ(prompts->size(), 3u);
  EXPECT_EQ((*prompts)[0].output_tokens, 64);
  EXPECT_EQ((*prompts)[1].prompt, "Translate \"bonjour\" to English.");
  EXPECT_EQ((*prompts)[1].output_tokens, 8);
  EXPECT_EQ((*prompts)[2].prompt, "caf\xC3\xA9 \xE2\x98\x95");
  EXPECT_EQ((*prompts)[2].output_tokens, 0);
}

TEST(Prompts, ParsesTextWithTheGivenNameInErrors) {
  EXPECT_EQ(parse_prompt_dataset("{\"prompt\": 1}\n", "p.jsonl").error(),
            "p.jsonl:1: 'prompt' must be a string");
  EXPECT_EQ(parse_prompt_dataset("\n \n", "p.jsonl").error(), "p.jsonl: no prompts");
  // Found by bench_inputs_fuzzer: the library throws out_of_range here, not parse_error.
  EXPECT_EQ(parse_prompt_dataset("{\"prompt\": \"a\"}\n1e505958\n", "p.jsonl").error(),
            "p.jsonl:2: number overflow parsing '1e505958'");
}

TEST(Prompts, MissingDatasetIsOneLine) {
  EXPECT_EQ(load_prompt_dataset("/nonexistent/p.jsonl").error(),
            "/nonexistent/p.jsonl: cannot read: No such file or directory");
}

}  // namespace
}  // namespace gpuport
