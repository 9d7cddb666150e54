// The offset-keeping JSON reader and the string quoting used by bench results.
#include "bench/json_value.h"

#include <gtest/gtest.h>

namespace gpuport {
namespace {

TEST(JsonValue, ReadsValuesWithTheirOffsets) {
  const auto doc =
      parse_json(" {\"a\": [1, -2.5e3, true, null], \"s\": \"x\\u00e9\\ud83d\\ude00\\n\"}");
  ASSERT_TRUE(doc.has_value()) << doc.error().message;
  ASSERT_EQ(doc->kind, JsonValue::Kind::object);
  EXPECT_EQ(doc->offset, 1u);
  const JsonValue* a = doc->find("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->items.size(), 4u);
  EXPECT_EQ(a->items[1].text, "-2.5e3");
  EXPECT_EQ(a->items[1].offset, 11u);
  EXPECT_TRUE(a->items[2].boolean);
  EXPECT_EQ(a->items[3].kind, JsonValue::Kind::null);
  EXPECT_EQ(doc->find("s")->text, "x\xC3\xA9\xF0\x9F\x98\x80\n");
  EXPECT_EQ(doc->find("missing"), nullptr);
}

TEST(JsonValue, ErrorsCarryTheirOffset) {
  const auto at = [](std::string_view text) {
    const auto doc = parse_json(text);
    EXPECT_FALSE(doc.has_value()) << text;
    return doc ? std::string() : line_column(text, doc.error().offset) + " " + doc.error().message;
  };
  EXPECT_EQ(at("{\"a\": 01}"), "1:8 expected ',' or '}'");
  EXPECT_EQ(at("{\"a\"\n 1}"), "2:2 expected ':'");
  EXPECT_EQ(at("[1,]"), "1:4 expected a value");
  EXPECT_EQ(at("\"abc"), "1:5 unterminated string");
  EXPECT_EQ(at("\"a\tb\""), "1:3 control character in a string");
  EXPECT_EQ(at("\"\\x\""), "1:3 bad escape in a string");
  EXPECT_EQ(at("tru"), "1:1 invalid literal");
  EXPECT_EQ(at("{} x"), "1:4 unexpected text after the JSON value");
  EXPECT_EQ(at(std::string(100, '[')), "1:65 nesting deeper than 64");
}

TEST(JsonValue, QuotingEscapesAndRepairsUtf8) {
  EXPECT_EQ(json_quoted("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
  EXPECT_EQ(json_quoted("caf\xC3\xA9"), "\"caf\xC3\xA9\"");
  EXPECT_EQ(json_quoted("bad \xC3 \xED\xA0\x80 \xF5"),
            "\"bad \xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD \xEF\xBF\xBD\"");
  const std::string quoted = json_quoted("any \x7f text \xff");
  EXPECT_EQ(parse_json(quoted)->text, "any \x7f text \xEF\xBF\xBD");
}

}  // namespace
}  // namespace gpuport
