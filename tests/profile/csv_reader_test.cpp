// The RFC 4180 record reader: quoting, line breaks of every kind, BOM, gzip, chunk boundaries,
// line numbers and its refusals.
#include "profile/csv/csv_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gzip_bytes.h"
#include "profile/byte_stream.h"

namespace gpuport {
namespace {

struct Row {
  std::vector<std::string> fields;
  std::uint64_t line;
  bool operator==(const Row&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Row& row) {
  out << "line " << row.line << ":";
  for (const std::string& field : row.fields)
    out << " [" << field << "]";
  return out;
}

tl::expected<std::vector<Row>, TraceError> read_rows(std::string bytes) {
  ByteStream in = ByteStream::from_memory("t.csv", std::move(bytes));
  CsvReader reader(in);
  CsvRecord record;
  std::vector<Row> rows;
  for (;;) {
    auto got = reader.next(record);
    if (!got)
      return tl::unexpected(got.error());
    if (!*got)
      return rows;
    Row row{{}, record.line()};
    for (std::size_t i = 0; i < record.size(); ++i)
      row.fields.emplace_back(record[i]);
    rows.push_back(std::move(row));
  }
}

std::vector<Row> rows_of(std::string bytes) {
  auto rows = read_rows(std::move(bytes));
  EXPECT_TRUE(rows.has_value()) << rows.error().message;
  return rows ? *rows : std::vector<Row>{};
}

TEST(CsvReader, PlainFieldsAndLineNumbers) {
  EXPECT_EQ(rows_of("a,b,c\n1,2,3\n"),
            (std::vector<Row>{{{"a", "b", "c"}, 1}, {{"1", "2", "3"}, 2}}));
}

TEST(CsvReader, LastRecordWithoutLineBreak) {
  EXPECT_EQ(rows_of("a,b\n1,2"), (std::vector<Row>{{{"a", "b"}, 1}, {{"1", "2"}, 2}}));
}

TEST(CsvReader, EmptyFieldsAndEmptyInput) {
  EXPECT_EQ(rows_of(",x,\n"), (std::vector<Row>{{{"", "x", ""}, 1}}));
  EXPECT_EQ(rows_of(""), std::vector<Row>{});
}

TEST(CsvReader, QuotedCommasDoubledQuotesAndLineBreaks) {
  EXPECT_EQ(rows_of("\"void f(int, float)\",\"say \"\"hi\"\"\",\"two\nlines\"\nnext,row\n"),
            (std::vector<Row>{{{"void f(int, float)", "say \"hi\"", "two\nlines"}, 1},
                              {{"next", "row"}, 3}}));
}

TEST(CsvReader, CrlfAndLoneCrEndRecords) {
  EXPECT_EQ(rows_of("a,b\r\n1,\"x\"\r\n2,y\r3,z"),
            (std::vector<Row>{{{"a", "b"}, 1}, {{"1", "x"}, 2}, {{"2", "y"}, 3}, {{"3", "z"}, 4}}));
}

TEST(CsvReader, CrlfInsideQuotesIsKept) {
  EXPECT_EQ(rows_of("\"a\r\nb\",c\r\nd,e\r\n"),
            (std::vector<Row>{{{"a\r\nb", "c"}, 1}, {{"d", "e"}, 3}}));
}

TEST(CsvReader, ByteOrderMarkIsNotPartOfTheFirstField) {
  EXPECT_EQ(rows_of("\xEF\xBB\xBF\"Name\",Calls\nk,1\n"),
            (std::vector<Row>{{{"Name", "Calls"}, 1}, {{"k", "1"}, 2}}));
}

TEST(CsvReader, BlankLinesAreRecordsTheCallerMaySkip) {
  ByteStream in = ByteStream::from_memory("t.csv", "a\n\n  \n\"\"\n");
  CsvReader reader(in);
  CsvRecord record;
  std::vector<bool> blank;
  while (*reader.next(record))
    blank.push_back(record.blank());
  EXPECT_EQ(blank, (std::vector<bool>{false, true, true, false}));  // "" is a quoted empty field
}

TEST(CsvReader, StrayQuotesAreKeptAsText) {
  EXPECT_EQ(rows_of("ab\"c,\"x\"y\n"), (std::vector<Row>{{{"ab\"c", "xy"}, 1}}));
}

TEST(CsvReader, GzipInputIsReadTheSame) {
  const std::string text = "\"k, 1\",2\r\nk2,3\n";
  EXPECT_EQ(rows_of(testing::gzip_bytes(text)), rows_of(text));
}

TEST(CsvReader, RecordsAcrossChunkBoundaries) {
  // Fields and CRLF pairs that straddle the reader's 64 KiB chunks.
  std::string text;
  std::vector<Row> expected;
  std::uint64_t line = 1;
  for (int i = 0; i < 3000; ++i) {
    std::string name(static_cast<std::size_t>(37 + i % 50), static_cast<char>('a' + i % 26));
    text += "\"" + name + ", \"\"q\"\"\"," + std::to_string(i) + "\r\n";
    expected.push_back({{name + ", \"q\"", std::to_string(i)}, line++});
  }
  EXPECT_EQ(rows_of(text), expected);
}

TEST(CsvReader, UnclosedQuoteNamesTheLineItOpened) {
  auto rows = read_rows("a,b\n1,\"never\nclosed\n");
  ASSERT_FALSE(rows.has_value());
  EXPECT_EQ(rows.error().message,
            "t.csv: line 2: a quoted field is not closed (the file ends inside it)");
}

TEST(CsvReader, TruncatedGzipIsAnError) {
  std::string bytes = testing::gzip_bytes(std::string(100000, 'x') + "\n");
  bytes.resize(bytes.size() / 2);
  auto rows = read_rows(bytes);
  ASSERT_FALSE(rows.has_value());
  EXPECT_NE(rows.error().message.find("t.csv: compressed byte"), std::string::npos)
      << rows.error().message;
}

TEST(CsvReader, TooManyFieldsIsRefused) {
  auto rows = read_rows(std::string(CsvReader::kMaxFields + 5, ','));
  ASSERT_FALSE(rows.has_value());
  EXPECT_EQ(rows.error().message, "t.csv: line 1: more than 65536 fields in one row");
}

TEST(CsvReader, OversizedRowIsRefused) {
  auto rows = read_rows("\"" + std::string(CsvReader::kMaxRecordBytes + 10, 'x') + "\"\n");
  ASSERT_FALSE(rows.has_value());
  EXPECT_EQ(rows.error().message, "t.csv: line 1: a row longer than 64 MiB (is this a CSV file?)");
}

TEST(CsvReader, OversizedRowOfLineBreaksIsRefused) {
  auto rows = read_rows("\"" + std::string(CsvReader::kMaxRecordBytes + 10, '\n') + "\"\n");
  ASSERT_FALSE(rows.has_value());
  EXPECT_EQ(rows.error().message, "t.csv: line 1: a row longer than 64 MiB (is this a CSV file?)");
}

}  // namespace
}  // namespace gpuport
