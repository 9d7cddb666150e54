#include "bench/json_reader.h"

#include <gtest/gtest.h>

#include <string>

namespace gpuport {
namespace {

// Every event as text: {, }, [, ], k<key>;, s<string>;, n<count>, o (other scalar), z (null).
struct Events {
  std::string seen;
  bool start_object() { return seen += '{', true; }
  bool end_object() { return seen += '}', true; }
  bool start_array() { return seen += '[', true; }
  bool end_array() { return seen += ']', true; }
  bool key(const JsonString& s) { return seen += 'k' + s.decode() + ';', true; }
  bool string(const JsonString& s) {
    sizes += std::to_string(s.decoded_bytes) + ",";
    return seen += 's' + s.decode() + ';', true;
  }
  bool count(std::int64_t n) { return seen += 'n' + std::to_string(n), true; }
  bool other_scalar(bool is_null) { return seen += is_null ? 'z' : 'o', true; }
  std::string sizes;
};

std::string events(std::string_view text) {
  Events handler;
  return read_json(text, handler) ? handler.seen : "invalid";
}

TEST(JsonReader, ReportsValuesInDocumentOrder) {
  EXPECT_EQ(events(R"({"a":[1,"x",{"b":null}],"c":true})"), "{ka;[n1sx;{kb;z}]kc;o}");
  EXPECT_EQ(events(" [ ] "), "[]");
  EXPECT_EQ(events("{}"), "{}");
  EXPECT_EQ(events("\"top\""), "stop;");
  EXPECT_EQ(events("\xEF\xBB\xBF{}"), "{}");  // a byte order mark is skipped
}

TEST(JsonReader, CountsAreNonNegativeIntegersThatFitInt64) {
  EXPECT_EQ(events("[0,12,9223372036854775807]"), "[n0n12n9223372036854775807]");
  EXPECT_EQ(events("[-0]"), "[n0]");
  EXPECT_EQ(events("[-1,1.0,1e3,9223372036854775808,1E+2,0.5e-1]"), "[oooooo]");
}

TEST(JsonReader, DecodesEscapesAndKnowsTheDecodedSize) {
  Events handler;
  ASSERT_TRUE(read_json(R"(["a\"b\\c\/\n", "\u00e9\u4e2d", "\ud83d\ude00", "é"])", handler));
  EXPECT_EQ(handler.seen, "[sa\"b\\c/\n;s\xC3\xA9\xE4\xB8\xAD;s\xF0\x9F\x98\x80;s\xC3\xA9;]");
  EXPECT_EQ(handler.sizes, "7,5,4,2,");
}

TEST(JsonReader, RejectsWhatRfc8259Rejects) {
  for (const char* bad : {
           "",                    // nothing
           "{",                   // unterminated
           "[1,]",                // trailing comma
           "{\"a\":1,}",          // trailing comma in an object
           "{\"a\" 1}",           // missing colon
           "{1:2}",               // key not a string
           "[01]",                // leading zero
           "[1.]",                // fraction without digits
           "[.5]",                // no integer part
           "[1e]",                // exponent without digits
           "[+1]",                // plus sign
           "[tru]",               // bad literal
           "[\"\\x\"]",           // bad escape
           "[\"\\u12\"]",         // short \u escape
           "[\"\\ud83d\"]",       // lone high surrogate
           "[\"\\ude00\"]",       // lone low surrogate
           "[\"a\nb\"]",          // control character
           "[\"\xff\"]",          // not UTF-8
           "[\"\xC0\xAF\"]",      // overlong
           "[\"\xED\xA0\x80\"]",  // an encoded surrogate
           "{} {}",               // two values
           "[1] x",               // trailing text
           "[\"abc",              // unterminated string
       }) {
    EXPECT_EQ(events(bad), "invalid") << bad;
  }
  EXPECT_EQ(events(std::string_view("{}\0", 3)), "invalid");  // NUL after the value
}

TEST(JsonReader, AHandlerCanStopTheRead) {
  struct StopAtKey : Events {
    bool key(const JsonString&) { return false; }
  } handler;
  EXPECT_FALSE(read_json(R"({"a":1})", handler));
}

TEST(JsonReader, DeepNestingIsRead) {
  const std::string deep = std::string(1000, '[') + std::string(1000, ']');
  Events handler;
  EXPECT_TRUE(read_json(deep, handler));
  EXPECT_EQ(handler.seen.size(), 2000u);
}

}  // namespace
}  // namespace gpuport
