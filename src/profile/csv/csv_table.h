// A profiler's CSV table: its header row, the rows after it, and typed field access whose errors
// name the file, the line and the column
// ("results.csv: line 7, column \"EndNs\": not a number: \"abc\"").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

#include "profile/csv/csv_reader.h"
#include "profile/trace.h"

namespace gpuport {

// What a blank line inside the table means.
enum class BlankLines : std::uint8_t {
  Skip,      // nothing (rocprofv2 writes one after its header)
  EndTable,  // the table ends there (nsys stats prints reports one after another)
};

class CsvTable {
 public:
  CsvTable(CsvReader& reader, const CsvRecord& header);
  // Blank lines are skipped unless this is set (before the first next()).
  void set_blank_lines(BlankLines blank_lines) { m_blank_lines = blank_lines; }

  const std::vector<std::string>& columns() const { return m_columns; }
  std::uint64_t header_line() const { return m_header_line; }
  // The column spelled exactly `name` (spaces around header names are ignored).
  std::optional<std::size_t> find(std::string_view name) const;
  // The same, ignoring ASCII case ("Correlation_ID" and "Correlation_Id").
  std::optional<std::size_t> find_any_case(std::string_view name) const;

  // Moves to the next row; false at the end of the table. A row whose field count differs from
  // the header's is an error.
  tl::expected<bool, TraceError> next();
  std::uint64_t line() const { return m_row.line(); }

  std::string_view text(std::size_t column) const { return m_row[column]; }
  // A required integer field.
  tl::expected<std::int64_t, TraceError> integer(std::size_t column) const;
  // A required non-negative integer field (a count).
  tl::expected<std::int64_t, TraceError> count(std::size_t column) const;
  // A duration or time in units of `unit_ns`, converted exactly to nanoseconds.
  tl::expected<std::int64_t, TraceError> nanoseconds(std::size_t column,
                                                     std::int64_t unit_ns) const;
  // An optional id ("4", "Agent 4"); -1 when the column is absent or the field is empty.
  tl::expected<std::int64_t, TraceError> id(std::optional<std::size_t> column) const;

  // "PATH: line H: missing column "NAME" in the header (NEEDS)", H the header's line.
  TraceError missing_column(std::string_view name, std::string_view needs) const;
  // "PATH: line H: what", H the header's line.
  TraceError header_error(const std::string& what) const;
  // "PATH: line N: what", at the current row.
  TraceError error(const std::string& what) const;
  // "PATH: line N, column "NAME": what: "FIELD"", at the current row.
  TraceError field_error(std::size_t column, std::string_view what) const;

 private:
  CsvReader& m_reader;
  std::vector<std::string> m_columns;
  std::uint64_t m_header_line = 0;
  BlankLines m_blank_lines = BlankLines::Skip;
  CsvRecord m_row;
  bool m_ended = false;
};

// Text from a file as an error message shows it: on one line (control characters escaped),
// at most `limit` bytes.
std::string printable_text(std::string_view text, std::size_t limit);

// Header names as they were written, quoted and comma-separated, shortened to about `limit`
// bytes (for "not a recognised profiler CSV (header: ...)").
std::string describe_header(const std::vector<std::string>& columns, std::size_t limit = 160);

}  // namespace gpuport
