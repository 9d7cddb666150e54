// SseParser: events as OpenAI-style servers stream them, in every byte split, with every line
// ending the standard allows; comments, multi-line data, the standard's edge cases.
#include "bench/sse_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpuport {
namespace {

std::vector<SseEvent> parse_split(std::string_view bytes, std::size_t split,
                                  bool* partial = nullptr) {
  SseParser parser;
  std::vector<SseEvent> events;
  const auto sink = [&](const SseEvent& event) { events.push_back(event); };
  parser.feed(bytes.substr(0, split), sink);
  parser.feed(bytes.substr(split), sink);
  const bool pending = parser.finish();
  if (partial != nullptr) {
    *partial = pending;
  }
  return events;
}

std::vector<std::string> data_of(const std::vector<SseEvent>& events) {
  std::vector<std::string> data;
  for (const auto& event : events) {
    data.push_back(event.data);
  }
  return data;
}

TEST(SseParser, OpenAiStreamInEverySplitAndLineEnding) {
  for (const std::string eol : {"\n", "\r\n", "\r"}) {
    const std::string stream = ": keep-alive" + eol + "data: {\"choices\":[]}" + eol + eol +
                               "data:{\"x\":1}" + eol + eol + "data: [DONE]" + eol + eol;
    for (std::size_t split = 0; split <= stream.size(); ++split) {
      bool partial = true;
      const auto events = parse_split(stream, split, &partial);
      EXPECT_EQ(data_of(events),
                (std::vector<std::string>{"{\"choices\":[]}", "{\"x\":1}", "[DONE]"}))
          << "split " << split << " eol " << eol.size();
      EXPECT_FALSE(partial);
    }
  }
}

TEST(SseParser, ByteAtATimeWithCrLfSplitBetweenCalls) {
  const std::string stream = "data: a\r\n\r\ndata: b\r\r";
  SseParser parser;
  std::vector<SseEvent> events;
  for (char c : stream) {
    parser.feed(std::string_view(&c, 1), [&](const SseEvent& e) { events.push_back(e); });
  }
  EXPECT_EQ(data_of(events), (std::vector<std::string>{"a", "b"}));
}

TEST(SseParser, EmptyReadBetweenCrAndLfKeepsThemOneLineEnd) {
  SseParser parser;
  std::vector<SseEvent> events;
  const auto sink = [&](const SseEvent& e) { events.push_back(e); };
  parser.feed("data: a\r", sink);
  parser.feed("", sink);
  parser.feed("\ndata: b\r\n\r\n", sink);
  EXPECT_EQ(data_of(events), std::vector<std::string>{"a\nb"});
}

TEST(SseParser, DataLinesJoinWithLineFeedAndFieldsAreKept) {
  const auto events = parse_split("event: delta\nid: 7\ndata: one\ndata:two\ndata\n\n", 0);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "one\ntwo\n");
  EXPECT_EQ(events[0].event, "delta");
  EXPECT_EQ(events[0].id, "7");
}

TEST(SseParser, EventsWithoutDataAreNotDispatchedAndIdPersists) {
  const auto events = parse_split("id: 1\nevent: ping\n\ndata: x\n\nretry: 10\nfoo: bar\n\n", 0);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "x");
  EXPECT_EQ(events[0].event, "");  // the ping's type was reset by its blank line
  EXPECT_EQ(events[0].id, "1");
}

TEST(SseParser, EmptyDataValueIsStillAnEvent) {
  const auto events = parse_split("data:\n\n", 0);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "");
}

TEST(SseParser, CommentsAreCounted) {
  SseParser parser;
  parser.feed(": ping\n:\n: another\n\n", nullptr);
  EXPECT_EQ(parser.comments(), 3u);
}

TEST(SseParser, OnlyOneLeadingSpaceIsDropped) {
  const auto events = parse_split("data:   padded \n\n", 0);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "  padded ");
}

TEST(SseParser, LeadingByteOrderMarkIsSkippedEvenWhenSplit) {
  const std::string stream =
      "\xEF\xBB\xBF"
      "data: a\n\n";
  for (std::size_t split = 0; split <= stream.size(); ++split) {
    EXPECT_EQ(data_of(parse_split(stream, split)), std::vector<std::string>{"a"}) << split;
  }
}

TEST(SseParser, TruncatedStreamIsReportedByFinish) {
  bool partial = false;
  EXPECT_TRUE(parse_split("data: a\n\ndata: b\n", 3, &partial).size() == 1);
  EXPECT_TRUE(partial);
  EXPECT_EQ(parse_split("data: a\n\ndata: {\"trunc", 3, &partial).size(), 1u);
  EXPECT_TRUE(partial);
  parse_split("data: a\n\n", 3, &partial);
  EXPECT_FALSE(partial);
}

TEST(SseParser, OverlongLineFailsAndIgnoresTheRest) {
  SseParser parser;
  int events = 0;
  const std::string big(SseParser::k_max_line_bytes / 2 + 1, 'x');
  parser.feed("data: " + big, [&](const SseEvent&) { ++events; });
  EXPECT_FALSE(parser.failed());
  parser.feed(big, [&](const SseEvent&) { ++events; });
  EXPECT_TRUE(parser.failed());
  EXPECT_EQ(parser.error(), "SSE line longer than 16 MiB");
  parser.feed("\n\ndata: y\n\n", [&](const SseEvent&) { ++events; });
  EXPECT_EQ(events, 0);
  parser.reset();
  EXPECT_FALSE(parser.failed());
  parser.feed("data: y\n\n", [&](const SseEvent&) { ++events; });
  EXPECT_EQ(events, 1);
}

TEST(SseParser, EventMadeOfManyDataLinesIsBounded) {
  SseParser parser;
  const std::string line = "data: " + std::string(1024 * 1024, 'd') + "\n";
  for (int i = 0; i < 17 && !parser.failed(); ++i) {
    parser.feed(line, nullptr);
  }
  EXPECT_TRUE(parser.failed());
  EXPECT_EQ(parser.error(), "SSE event longer than 16 MiB");
}

}  // namespace
}  // namespace gpuport
