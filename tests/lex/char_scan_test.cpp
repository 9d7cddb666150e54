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
  // Sizes across several 64-byte steps of the search, the needle at the start, the middle and
  // the end of a step, and near its last possible start.
  // Near-misses (the first and last bytes of the needle with other bytes between), and text
  // with no candidate at all but the needle.
  for (std::string_view alphabet : {"ge-gpuport-ignor", "abcdfhpu-ortin "}) {
    for (std::size_t size = 0; size < 300; ++size) {
      std::string text = text_of(size, static_cast<std::uint32_t>(size), alphabet);
      for (std::size_t at :
           {std::size_t{0}, size / 3, size / 2, size - std::min(size, std::size_t{14}), size}) {
        std::string hay = text;
        if (at + needle.size() <= hay.size()) {
          hay.replace(at, needle.size(), needle);
        }
        const std::string_view view = hay;
        for (std::size_t from = 0; from <= hay.size() + 1; from += 5) {
          EXPECT_EQ(char_scan::find(view, needle, from), view.find(needle, from))
              << alphabet << " " << size << " " << at << " " << from;
        }
      }
    }
  }
  EXPECT_EQ(char_scan::find("abc", "b"), 1u);
  EXPECT_EQ(char_scan::find("abc", ""), 0u);
  EXPECT_EQ(char_scan::find("ab", "abc"), std::string_view::npos);
}

// The plain per-byte rules the vectorised run scanners must agree with, for every byte value.
bool plain_ident_byte(unsigned char c, bool dollar) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c >= 0x80 || (dollar && c == '$');
}
bool plain_blank_byte(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

template <typename Scan, typename Plain>
void expect_run_end_matches(Scan scan, Plain plain) {
  for (int stop = 0; stop < 256; ++stop) {
    // A run of `run` accepted bytes, the byte under test, then more accepted bytes: the answer
    // is `run` exactly when the byte under test ends runs.
    for (std::size_t run : {0u, 1u, 5u, 15u, 16u, 17u, 40u}) {
      std::string text(run, 'a');
      text.push_back(static_cast<char>(stop));
      text.append(20, 'b');
      const char* end = scan(text.data(), text.data() + text.size());
      const std::size_t expected = plain(static_cast<unsigned char>(stop)) ? text.size() : run;
      EXPECT_EQ(static_cast<std::size_t>(end - text.data()), expected) << stop << " " << run;
    }
  }
}

TEST(CharScan, IdentEndStopsAtEveryByteThePlainRuleRejects) {
  expect_run_end_matches(char_scan::ident_end<true>,
                         [](unsigned char c) { return plain_ident_byte(c, true); });
  expect_run_end_matches(char_scan::ident_end<false>,
                         [](unsigned char c) { return plain_ident_byte(c, false); });
  // Names are runs of mixed classes; the end of the text ends a run.
  const std::string name = "__shfl_xor_sync$x9\xc3\xa9_";
  EXPECT_EQ(char_scan::ident_end<true>(name.data(), name.data() + name.size()),
            name.data() + name.size());
  EXPECT_EQ(char_scan::ident_end<false>(name.data(), name.data() + name.size()), name.data() + 15);
}

TEST(CharScan, FindAnyOfStopsAtTheFirstOfThreeBytes) {
  // Every byte value as the one under test, after runs that end inside and across 16-byte blocks.
  expect_run_end_matches(
      [](const char* p, const char* end) {
        return char_scan::find_any_of(p, end, '"', '\\', '\n');
      },
      [](unsigned char c) { return c != '"' && c != '\\' && c != '\n'; });
  for (std::size_t size = 0; size < 70; ++size) {
    const std::string text = text_of(size, static_cast<std::uint32_t>(size) + 3, "abcdefgh'x");
    const char* end = text.data() + text.size();
    for (std::size_t from = 0; from <= text.size(); ++from) {
      const std::size_t expected = text.find_first_of("'\n#", from);
      const char* hit = char_scan::find_any_of(text.data() + from, end, '\'', '\n', '#');
      EXPECT_EQ(static_cast<std::size_t>(hit - text.data()),
                expected == std::string::npos ? text.size() : expected)
          << size << " " << from;
    }
  }
}

TEST(CharScan, BlankEndStopsAtEveryByteThePlainRuleRejects) {
  expect_run_end_matches(
      [](const char* p, const char* end) {
        // The run under test is blanks, not letters: map the fill bytes.
        std::string copy(p, end);
        for (char& c : copy) {
          c = c == 'a' || c == 'b' ? ' ' : c;
        }
        return p + (char_scan::blank_end(copy.data(), copy.data() + copy.size()) - copy.data());
      },
      [](unsigned char c) { return plain_blank_byte(c) || c == 'a' || c == 'b'; });
  const std::string indent = " \t \r\f\v                 x";
  EXPECT_EQ(char_scan::blank_end(indent.data(), indent.data() + indent.size()),
            indent.data() + indent.size() - 1);
  EXPECT_EQ(char_scan::blank_end(indent.data(), indent.data()), indent.data());
}

}  // namespace
}  // namespace gpuport
