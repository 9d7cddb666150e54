// UTF-8 repair, printable(), width arithmetic and truncation used by every writer.
#include "report/text_util.h"

#include <gtest/gtest.h>

#include "report/terminal.h"
#include "report/text_table.h"

namespace gpuport {
namespace {

TEST(TextUtil, ValidUtf8KeepsGoodText) {
  EXPECT_EQ(valid_utf8("plain"), "plain");
  EXPECT_EQ(valid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"),
            "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
}

TEST(TextUtil, ValidUtf8ReplacesBadSequences) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(valid_utf8("a\xFF"
                       "b"),
            "a" + r + "b");
  EXPECT_EQ(valid_utf8("\xC0\xAF"), r + r);          // overlong: two bad bytes
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), r + r + r);  // surrogate
  EXPECT_EQ(valid_utf8("\xE2\x82"), r);              // truncated at end: one maximal subpart
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), r + r + r + r);  // above U+10FFFF
  EXPECT_EQ(valid_utf8("\xE2\x82"
                       "A"),
            r + "A");
}

TEST(TextUtil, PrintableReplacesControls) {
  EXPECT_EQ(printable("a\tb"), "a b");
  EXPECT_EQ(printable("\x1b[31m"), "?[31m");
  EXPECT_EQ(printable("x\xC2\x9By"), "x?y");  // C1 CSI
  EXPECT_EQ(printable("\xC3\xA9"), "\xC3\xA9");
}

TEST(TextUtil, WidthAndTruncation) {
  EXPECT_EQ(display_width("caf\xC3\xA9"), 4u);
  EXPECT_EQ(truncate_to_width("abcdef", 6), "abcdef");
  EXPECT_EQ(truncate_to_width("abcdefg", 6), "abcde\xE2\x80\xA6");
  EXPECT_EQ(display_width(truncate_to_width("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 3)), 3u);
  EXPECT_EQ(truncate_start_to_width("src/a/b/kernel.cu:42", 12),
            "\xE2\x80\xA6"
            "ernel.cu:42");
  EXPECT_EQ(truncate_start_to_width("short", 12), "short");
  EXPECT_EQ(pad_left("7", 3), "  7");
  EXPECT_EQ(pad_right("ab", 4), "ab  ");
  EXPECT_EQ(format_megabytes(2'500'000), "2.5 MB");
  EXPECT_EQ(format_megabytes(48'213), "48.2 KB");
}

TEST(TextTable, ShrinksToWidthAndAlignsNumbers) {
  const std::string table = render_table(
      {{"Name", Align::Left, Shrink::Allowed, 4}, {"N", Align::Right, Shrink::Fixed, 1}},
      {{"a-very-long-name-indeed", "7"}, {"short", "12"}}, 2, 16, Color::Off);
  EXPECT_EQ(table,
            "  Name         N\n"
            "  a-very-lo\xE2\x80\xA6   7\n"
            "  short       12\n");
}

TEST(Terminal, ColourDecision) {
  // --color always wins over NO_COLOR; never is never; auto needs a terminal and no NO_COLOR.
  EXPECT_EQ(decide_color(ColorMode::Always, IsTerminal::No, "1"), Color::On);
  EXPECT_EQ(decide_color(ColorMode::Never, IsTerminal::Yes, nullptr), Color::Off);
  EXPECT_EQ(decide_color(ColorMode::Auto, IsTerminal::Yes, nullptr), Color::On);
  EXPECT_EQ(decide_color(ColorMode::Auto, IsTerminal::Yes, "1"), Color::Off);
  EXPECT_EQ(decide_color(ColorMode::Auto, IsTerminal::Yes, ""), Color::On);  // empty = unset
  EXPECT_EQ(decide_color(ColorMode::Auto, IsTerminal::No, nullptr), Color::Off);
  EXPECT_EQ(parse_color_mode("always"), ColorMode::Always);
  EXPECT_FALSE(parse_color_mode("yes").has_value());
}

}  // namespace
}  // namespace gpuport
