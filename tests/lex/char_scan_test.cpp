// Tests for the vectorised byte scanners: the same answers as the plain loops they replace, at
// every alignment and across the 16-byte block boundaries.
#include "lex/char_scan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace gpuport {
namespace {

// Text of `size` bytes from a small alphabet, so that matches are frequent.
std::string text_of(std::size_t size, std::uint32_t seed, std::string_view alphabet) {
  std::string text(size, ' ');
  for (char& c : text) {
    seed = seed * 1103515245u + 12345u;
    c = alphabet[(seed >> 16) % alphabet.size()];
  }
  return text;
}

TEST(CharScan, LineStartsMatchAPlainLoop) {
  for (std::size_t size = 0; size < 70; ++size) {
    const std::string text = text_of(size, static_cast<std::uint32_t>(size), "ab\n\n\r ");
    std::vector<std::uint32_t> expected;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') {
        expected.push_back(static_cast<std::uint32_t>(i + 1 + 100));
      }
    }
    std::vector<std::uint32_t> starts;
    char_scan::append_line_starts(text, 100, starts);
    EXPECT_EQ(starts, expected) << size;
  }
}

TEST(CharScan, CountByteMatchesStdCount) {
  for (std::size_t size : {0u, 1u, 15u, 16u, 17u, 31u, 33u, 4095u, 4096u, 4097u, 70000u}) {
    const std::string text = text_of(size, 7, "x\ny\n\xff");
    for (char byte : {'\n', 'x', '\xff', 'q'}) {
      EXPECT_EQ(char_scan::count_byte(text, byte),
                static_cast<std::size_t>(std::count(text.begin(), text.end(), byte)))
          << size << " " << byte;
    }
  }
}

TEST(CharScan, FindMatchesStringViewFind) {
  const std::string needle = "gpuport-ignore";
  for (std::size_t size = 0; size < 120; ++size) {
    // Near-misses: the first and last bytes of the needle with other bytes between.
    std::string text = text_of(size, static_cast<std::uint32_t>(size), "ge-gpuport-ignor");
    for (std::size_t at : {size / 3, size / 2, size}) {
      std::string hay = text;
      if (at + needle.size() <= hay.size()) {
        hay.replace(at, needle.size(), needle);
      }
      const std::string_view view = hay;
      for (std::size_t from = 0; from <= hay.size() + 1; from += 5) {
        EXPECT_EQ(char_scan::find(view, needle, from), view.find(needle, from))
            << size << " " << at << " " << from;
      }
    }
  }
  EXPECT_EQ(char_scan::find("abc", "b"), 1u);
  EXPECT_EQ(char_scan::find("abc", ""), 0u);
  EXPECT_EQ(char_scan::find("ab", "abc"), std::string_view::npos);
}

}  // namespace
}  // namespace gpuport
