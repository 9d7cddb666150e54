// The streamed JSON and SARIF writers produce exactly the bytes of the document-tree writers they
// replaced, on real scans and on results full of awkward strings and numbers.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "dom_reference.h"
#include "report/json_report.h"
#include "report/json_writer.h"
#include "report/sarif_report.h"
#include "sample_result.h"
#include "scan/scanner.h"

namespace gpuport {
namespace {

using testing::dom_json;
using testing::dom_sarif;
using testing::sample_result;

ReportOptions options_with_root() {
  ReportOptions options;
  options.root_uri = "file:///srv/repo%20x/";
  return options;
}

ReportOptions options_with_jobs(unsigned jobs) {
  ReportOptions options;
  options.jobs = jobs;
  return options;
}

void expect_same_bytes(const ScanResult& result) {
  for (const ReportOptions& options :
       {ReportOptions{}, options_with_root(), options_with_jobs(3)}) {
    EXPECT_EQ(render_json(result, options), dom_json(result, options));
    EXPECT_EQ(render_sarif(result, options), dom_sarif(result, options));
  }
}

ScanResult scan_tree(const std::string& relative) {
  DiskFileSystem disk;
  ScanOptions options;
  options.walk.jobs = 2;
  auto result = scan(disk, std::string(GPUPORT_SOURCE_DIR) + "/" + relative, options);
  EXPECT_TRUE(result.has_value());
  return result ? std::move(*result) : ScanResult{};
}

TEST(StreamedReport, MatchesTheDocumentWritersOnTheFixtureTrees) {
  for (const char* tree : {"tests/fixtures", "examples"}) {
    const ScanResult result = scan_tree(tree);
    EXPECT_GT(result.findings.size(), 10u) << tree;
    expect_same_bytes(result);
  }
}

TEST(StreamedReport, MatchesTheDocumentWritersOnTheSampleResult) {
  expect_same_bytes(sample_result());
}

TEST(StreamedReport, MatchesTheDocumentWritersOnAnEmptyResult) {
  expect_same_bytes(ScanResult{});
}

TEST(StreamedReport, MatchesTheDocumentWritersOnAwkwardValues) {
  ScanResult result = sample_result();
  result.root = "r\xC3\xA9po \"quoted\" back\\slash";
  result.seconds = 1e-7;
  // Control bytes, DEL, a C1 control, valid multi-byte text, and broken sequences of every kind.
  const std::string awkward =
      std::string(
          "tab\there\nnl\rcr\bbs\ffeed\x01\x1f\x7f \xC2\x85 \xE2\x82\xAC \xF0\x9F\x98\x80") +
      " bad:\xC3 \xE0\x80\xAF \xED\xA0\x80 \xF4\x90\x80\x80 \xFF\xFE " + std::string(1, '\0') +
      "end";
  for (Finding& finding : result.findings) {
    finding.excerpt = awkward;
    finding.detail = awkward.substr(3, 20) + "\xE2\x82";  // ends inside a sequence
    finding.file = "dir with space/\xC3\xA9t\xC3\xA9 %41.cu";
  }
  result.findings.push_back(testing::finding(60000, "unknown_rule.cu", 0, 0, "", ""));
  result.kernels[0].name = awkward;
  result.kernels[1].features.static_shared_bytes.reset();
  result.components[0].effort_hours = 0.1 + 0.2;
  result.components[1].effort_hours = 12345678.0;
  result.components.push_back(result.components[0]);
  result.components.back().effort_hours = 1e20;
  result.components.back().evidence.clear();
  result.warnings.push_back({"w.cu", 0, 0, awkward});
  result.skipped.push_back({awkward, SkipReason::Unreadable, 0, awkward});
  expect_same_bytes(result);
}

TEST(StreamedReport, ListsRenderedOnSeveralThreadsKeepTheirOrder) {
  // Enough findings and kernels for several chunks, each element different.
  const ScanResult sample = sample_result();
  ScanResult result = sample;
  for (std::uint32_t i = 0; i < 9000; ++i) {
    Finding finding = sample.findings[i % sample.findings.size()];
    finding.line = i + 1;
    finding.detail = "detail " + std::to_string(i);
    result.findings.push_back(finding);
    Kernel kernel = sample.kernels[i % sample.kernels.size()];
    kernel.line = i + 1;
    result.kernels.push_back(kernel);
  }
  result.findings.push_back(testing::finding(60000, "unknown_rule.cu", 0, 0, "", ""));
  expect_same_bytes(result);
  for (unsigned jobs : {2u, 8u}) {
    EXPECT_EQ(render_json(result, options_with_jobs(jobs)), render_json(result, ReportOptions{}));
    EXPECT_EQ(render_sarif(result, options_with_jobs(jobs)), render_sarif(result, ReportOptions{}));
  }
}

TEST(JsonWriter, NestsAndStreamsThroughASmallSink) {
  // A sink that records each chunk: the writer buffers, so output arrives in few large pieces.
  class CountingSink final : public OutputSink {
   public:
    void write(std::string_view bytes) override {
      text.append(bytes);
      ++chunks;
    }
    std::string text;
    int chunks = 0;
  };
  CountingSink sink;
  JsonWriter w(sink);
  w.begin_object();
  w.key("a");
  w.begin_array();
  w.value(std::uint64_t{1});
  w.begin_object();
  w.end_object();
  w.begin_array();
  w.end_array();
  w.null();
  w.value(true);
  w.end_array();
  w.field("s", "x\"y");
  w.end_object();
  w.finish();
  EXPECT_EQ(sink.text,
            "{\n  \"a\": [\n    1,\n    {},\n    [],\n    null,\n    true\n  ],\n"
            "  \"s\": \"x\\\"y\"\n}\n");
  EXPECT_EQ(sink.chunks, 1);
}

// Every string length from 0 to 40 with one special byte (control, quote, backslash, a byte of
// a UTF-8 sequence, a stray 0x80) at every position, and without one: the same bytes as the JSON
// library's escaping. The writer checks short strings a word at a time and long ones 16 bytes at
// a time, with an overlapping last block, so each length and position takes a different path.
TEST(JsonWriter, EscapesLikeTheLibraryAtEveryLengthAndPosition) {
  const std::string specials[] = {
      std::string(1, '\x01'), "\n", "\"", "\\", "\x1f", "\xc3\xa9", "\x7f", " "};
  for (std::size_t length = 0; length <= 40; ++length) {
    for (const std::string& special : specials) {
      for (std::size_t at = 0; at <= length; ++at) {
        std::string text(length, 'a');
        text.insert(at, special);
        StringSink sink;
        JsonWriter w(sink);
        w.value(text);
        w.finish();
        EXPECT_EQ(sink.text(), nlohmann::json(text).dump() + "\n")
            << length << " " << at << " " << static_cast<int>(special[0]);
      }
    }
  }
  // A stray continuation byte is not UTF-8: the writer repairs it like the text writers do.
  StringSink sink;
  JsonWriter w(sink);
  w.value(std::string("abcdefgh\x80ijklmnopqrstu"));
  w.finish();
  EXPECT_EQ(sink.text(), "\"abcdefgh\xef\xbf\xbdijklmnopqrstu\"\n");
}

}  // namespace
}  // namespace gpuport
