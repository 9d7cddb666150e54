#include "profile/json/json_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "json_test_util.h"

namespace gpuport::json {
namespace {

using gpuport::testing::gzip_text;

// Walks any document and writes it back compactly, strings decoded, so that readings with
// different chunk sizes can be compared.
void echo(JsonReader& json, std::string& out) {
  switch (json.peek()) {
    case ValueKind::Object: {
      json.enter_object();
      out += '{';
      std::string_view key;
      bool first = true;
      while (json.next_key(key)) {
        out += first ? "" : ",";
        first = false;
        out += '<';
        out += key;
        out += ">:";
        echo(json, out);
      }
      out += '}';
      return;
    }
    case ValueKind::Array: {
      json.enter_array();
      out += '[';
      bool first = true;
      while (json.next_element()) {
        out += first ? "" : ",";
        first = false;
        echo(json, out);
      }
      out += ']';
      return;
    }
    case ValueKind::String:
      out += '<';
      out += json.read_string();
      out += '>';
      return;
    case ValueKind::Number:
      out += json.read_number();
      return;
    case ValueKind::True:
    case ValueKind::False:
    case ValueKind::Null:
      json.skip_value();
      out += '~';
      return;
    case ValueKind::None:
      return;
  }
}

std::string echo_text(const std::string& text, std::size_t chunk, std::string* error = nullptr) {
  ByteStream in = ByteStream::from_memory("doc.json", text);
  JsonReader json(in, chunk);
  std::string out;
  echo(json, out);
  json.finish();
  if (error != nullptr)
    *error = json.failed() ? json.error().message : "";
  return out;
}

std::string error_of(const std::string& text, std::size_t chunk = JsonReader::k_default_chunk) {
  std::string error;
  echo_text(text, chunk, &error);
  return error;
}

const char* const k_document = R"( {"a" : [1, -2.5e+3, "x\"y", true, null, {}],
  "key with spaces\u0041": {"nested": [[], [{"deep": "\ud83d\ude00 \u00e9\n"}]]},
  "long": "0123456789012345678901234567890123456789", "f": false } )";

TEST(JsonReaderTest, TokensSpanningChunkBoundariesReadTheSameAtEveryChunkSize) {
  const std::string expected = echo_text(k_document, JsonReader::k_default_chunk);
  EXPECT_EQ(expected,
            "{<a>:[1,-2.5e+3,<x\"y>,~,~,{}],<key with spacesA>:{<nested>:[[],[{<deep>:<\xF0\x9F\x98"
            "\x80 \xC3\xA9\n>}]]},<long>:<0123456789012345678901234567890123456789>,<f>:~}");
  for (std::size_t chunk = 1; chunk <= 24; ++chunk)
    EXPECT_EQ(echo_text(k_document, chunk), expected) << "chunk " << chunk;
}

TEST(JsonReaderTest, ReadsThroughGzip) {
  ByteStream in = ByteStream::from_memory("doc.json.gz", gzip_text(k_document));
  JsonReader json(in, 5);
  std::string out;
  echo(json, out);
  EXPECT_TRUE(json.finish());
  EXPECT_EQ(out, echo_text(k_document, 1024));
}

TEST(JsonReaderTest, SkipValueAndSkipRestLandOnTheNextMember) {
  const std::string text =
      R"({"skip": {"s": "a \"}]\\\" b", "n": [1, [2, {"x": "]"}]], "t": true}, "keep": 7,)"
      R"( "obj": {"first": 1, "rest": {"deep": ["}"]}, "more": "\\"}, "after": "yes"})";
  for (std::size_t chunk : {1u, 3u, 7u, 64u, 4096u}) {
    ByteStream in = ByteStream::from_memory("doc.json", text);
    JsonReader json(in, chunk);
    ASSERT_TRUE(json.enter_object());
    std::string_view key;
    ASSERT_TRUE(json.next_key(key));
    EXPECT_EQ(key, "skip");
    json.skip_value();
    ASSERT_TRUE(json.next_key(key));
    EXPECT_EQ(key, "keep");
    EXPECT_EQ(json.read_number(), "7");
    ASSERT_TRUE(json.next_key(key));
    EXPECT_EQ(key, "obj");
    ASSERT_TRUE(json.enter_object());
    ASSERT_TRUE(json.next_key(key));
    EXPECT_EQ(key, "first");
    json.skip_value();
    EXPECT_EQ(json.depth(), 2u);
    json.skip_rest();
    EXPECT_EQ(json.depth(), 1u);
    ASSERT_TRUE(json.next_key(key))
        << "chunk " << chunk << " " << (json.failed() ? json.error().message : "");
    EXPECT_EQ(key, "after");
    EXPECT_EQ(json.read_string(), "yes");
    EXPECT_FALSE(json.next_key(key));
    EXPECT_TRUE(json.finish());
    EXPECT_FALSE(json.failed());
  }
}

// A 37 MB gzip of one 8 GB string grew memory until a bare std::bad_alloc (issue 27, item 11):
// one value past the cap is an error at its first byte, whether read or skipped whole.
TEST(JsonReaderTest, AValueLongerThanTheCapIsAnErrorAtItsStart) {
  const std::string text = "{\"name\": \"" + std::string(300, 'a') + "\", \"n\": 1}";
  ByteStream in = ByteStream::from_memory("bomb.json", text);
  JsonReader reader(in, 16, 256);
  std::string_view key;
  ASSERT_TRUE(reader.enter_object());
  ASSERT_TRUE(reader.next_key(key));
  EXPECT_EQ(reader.read_string(), "");
  ASSERT_TRUE(reader.failed());
  EXPECT_EQ(reader.error().message,
            "bomb.json: byte 9: one value is longer than 256 bytes (a trace holds names and "
            "numbers; this is no trace)");
  ByteStream fits = ByteStream::from_memory("ok.json", text);
  JsonReader roomy(fits, 16, 512);
  ASSERT_TRUE(roomy.enter_object());
  ASSERT_TRUE(roomy.next_key(key));
  EXPECT_EQ(roomy.read_string().size(), 300u);
  EXPECT_FALSE(roomy.failed());
}

TEST(JsonReaderTest, AByteOrderMarkIsAllowedAtTheStart) {
  EXPECT_EQ(echo_text("\xEF\xBB\xBF[1]", 2), "[1]");
  EXPECT_EQ(error_of("\xEF\xBB\xBF[1]"), "");
}

TEST(JsonReaderTest, AKeyIsKeptWhenWhitespaceBeforeItsColonRunsIntoARefill) {
  const std::string text = "{\"abcdef\"                          : 1}";
  for (std::size_t chunk = 1; chunk <= 40; ++chunk)
    EXPECT_EQ(echo_text(text, chunk), "{<abcdef>:1}") << chunk;
}

TEST(JsonReaderTest, TruncationNamesWhatTheFileEndsInside) {
  EXPECT_EQ(error_of(R"({"traceEvents": [{"ph": "X"}, )"),
            "doc.json: byte 30: the file ends inside an array (truncated JSON?)");
  EXPECT_EQ(error_of(R"({"a": 1)"),
            "doc.json: byte 7: the file ends inside an object (truncated JSON?)");
  EXPECT_EQ(error_of(R"({"a": "unfinished)"),
            "doc.json: byte 17: the file ends inside a string (truncated JSON?)");
  EXPECT_EQ(error_of(R"([tru)"),
            "doc.json: byte 4: the file ends inside a literal (truncated JSON?)");
  EXPECT_EQ(error_of(""), "doc.json: byte 0: the file ends before a JSON value (truncated JSON?)");
  EXPECT_EQ(error_of(R"({"a": )"),
            "doc.json: byte 6: the file ends inside an object (truncated JSON?)");
}

TEST(JsonReaderTest, TruncationInsideASkippedValueIsFound) {
  const std::string text = R"({"skip": {"a": [1, {"b": "x"}, )";
  ByteStream in = ByteStream::from_memory("doc.json", text);
  JsonReader json(in, 4);
  std::string_view key;
  json.enter_object();
  json.next_key(key);
  json.skip_value();
  ASSERT_TRUE(json.failed());
  EXPECT_EQ(json.error().message,
            "doc.json: byte 31: the file ends inside an array (truncated JSON?)");
}

TEST(JsonReaderTest, SyntaxErrorsNameTheByte) {
  EXPECT_EQ(error_of(R"({"a" 1})"), "doc.json: byte 5: expected ':' after an object key");
  EXPECT_EQ(error_of(R"({"a": 1 "b": 2})"),
            "doc.json: byte 8: expected ',' or '}' after an object member, found '\"'");
  EXPECT_EQ(error_of(R"({"a": 1,})"),
            "doc.json: byte 8: expected a string key after ',' in an object, found '}'");
  EXPECT_EQ(error_of(R"([1 2])"),
            "doc.json: byte 3: expected ',' or ']' after an array element, found '2'");
  EXPECT_EQ(error_of(R"([1,])"), "doc.json: byte 3: expected a value, found ']'");
  EXPECT_EQ(error_of(R"([01])"), "doc.json: byte 1: invalid number '01'");
  EXPECT_EQ(error_of(R"([1.])"), "doc.json: byte 1: invalid number '1.'");
  EXPECT_EQ(error_of(R"([nul])"), "doc.json: byte 1: invalid literal (expected 'null')");
  EXPECT_EQ(error_of("[1] x"), "doc.json: byte 4: unexpected data after the JSON value, found 'x'");
  EXPECT_EQ(error_of("{'a': 1}"),
            "doc.json: byte 1: expected a string key or '}' in an object, found '''");
  EXPECT_EQ(error_of("[\"a\x01\"]"),
            "doc.json: byte 3: a control character inside a string (it must be escaped)");
  EXPECT_EQ(error_of(R"(["\x"])"),
            "doc.json: byte 2: invalid escape: a backslash before 'x' in a string");
  EXPECT_EQ(error_of("[\"\\\n\"]"),
            "doc.json: byte 2: invalid escape: a backslash before byte 0x0a in a string");
  EXPECT_EQ(error_of(R"(["\u12G4"])"),
            "doc.json: byte 2: invalid \\u escape (four hex digits expected)");
}

TEST(JsonReaderTest, MismatchedBracketsInSkippedValuesAreErrors) {
  const std::pair<std::string, std::string> cases[] = {
      {R"({"skip": [1, 2}, "b": 1})", "doc.json: byte 14: '}' closes an array (expected ']')"},
      {R"({"skip": {"a": 1]})", "doc.json: byte 16: ']' closes an object (expected '}')"},
  };
  for (const auto& [text, message] : cases) {
    ByteStream in = ByteStream::from_memory("doc.json", text);
    JsonReader json(in);
    std::string_view key;
    json.enter_object();
    json.next_key(key);
    json.skip_value();
    ASSERT_TRUE(json.failed()) << text;
    EXPECT_EQ(json.error().message, message);
  }
}

TEST(JsonReaderTest, LoneSurrogatesBecomeReplacementCharacters) {
  EXPECT_EQ(echo_text(R"(["a\ud800b", "\udc00"])", 3),
            "[<a\xEF\xBF\xBD"
            "b>,<\xEF\xBF\xBD>]");
}

TEST(JsonReaderTest, DeepNestingIsRefusedNotOverflowed) {
  const std::string deep(5000, '[');
  EXPECT_EQ(error_of(deep), "doc.json: byte 1024: nesting deeper than 1024 levels");
  ByteStream in = ByteStream::from_memory("doc.json", "{\"a\": " + deep);
  JsonReader json(in);
  std::string_view key;
  json.enter_object();
  json.next_key(key);
  json.skip_value();
  ASSERT_TRUE(json.failed());
  EXPECT_EQ(json.error().message, "doc.json: byte 1029: nesting deeper than 1024 levels");
}

TEST(JsonReaderTest, ErrorsAreStickyAndStopEveryLoop) {
  ByteStream in = ByteStream::from_memory("doc.json", R"([1, 2 3, 4, 5])");
  JsonReader json(in);
  json.enter_array();
  int elements = 0;
  while (json.next_element()) {
    json.skip_value();
    ++elements;
  }
  EXPECT_EQ(elements, 2);
  EXPECT_TRUE(json.failed());
  EXPECT_EQ(json.peek(), ValueKind::None);
  EXPECT_EQ(json.read_string(), "");
  json.fail(0, "a later error");
  EXPECT_EQ(json.error().message,
            "doc.json: byte 6: expected ',' or ']' after an array element, found '3'");
}

TEST(JsonReaderTest, TypeMismatchesAreErrorsAtTheValue) {
  ByteStream in = ByteStream::from_memory("doc.json", R"({"a": 5})");
  JsonReader json(in);
  std::string_view key;
  json.enter_object();
  json.next_key(key);
  EXPECT_EQ(json.read_string(), "");
  EXPECT_EQ(json.error().message, "doc.json: byte 6: expected a string");
}

TEST(JsonReaderTest, CorruptGzipSurfacesTheStreamError) {
  std::string packed = gzip_text(std::string(100000, ' ') + "[1]");
  packed.resize(packed.size() / 2);
  ByteStream in = ByteStream::from_memory("doc.json.gz", packed);
  JsonReader json(in);
  json.skip_value();
  ASSERT_TRUE(json.failed());
  EXPECT_EQ(json.error().message.rfind("doc.json.gz: compressed byte ", 0), 0u)
      << json.error().message;
}

}  // namespace
}  // namespace gpuport::json
