// Streams RFC 4180 records (quoted fields, doubled quotes, separators and line breaks inside
// quotes, CRLF or LF, a leading UTF-8 BOM) out of a ByteStream, one record at a time, so a
// profiler CSV of any size is read in bounded memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

#include "profile/byte_stream.h"
#include "profile/trace.h"

namespace gpuport {

// One record: its fields, unescaped, and the line it starts on. Storage is reused between
// records, so views stay valid only until the next CsvReader::next().
class CsvRecord {
 public:
  std::size_t size() const { return m_ends.size(); }
  std::string_view operator[](std::size_t index) const;
  // The line (1-based) the record starts on; a quoted line break makes a record span lines.
  std::uint64_t line() const { return m_line; }
  // An empty line, or one of spaces only (one unquoted field with no other text).
  bool blank() const;

 private:
  friend class CsvReader;
  void clear();

  std::string m_text;               // every field's bytes, back to back
  std::vector<std::size_t> m_ends;  // end offset of each field in m_text
  std::uint64_t m_line = 0;
  bool m_first_quoted = false;
};

class CsvReader {
 public:
  // Records longer than this are refused (a CSV row of a profiler is a few KiB at most; the
  // limit keeps a binary or endless input from growing without bound).
  static constexpr std::size_t kMaxRecordBytes = std::size_t{64} << 20;
  static constexpr std::size_t kMaxFields = 65536;

  explicit CsvReader(ByteStream& in);

  // Reads the next record into `record`; false at the end of the input. Errors name the file
  // and the line: an unclosed quote, an oversized record, a read or gzip failure.
  tl::expected<bool, TraceError> next(CsvRecord& record);

  const std::string& path() const { return m_in.path(); }

 private:
  // Makes at least one byte available; false at the end of the input.
  tl::expected<bool, TraceError> fill();
  TraceError error_at(std::uint64_t line, const std::string& what) const;
  TraceError too_long(const CsvRecord& record) const;

  ByteStream& m_in;
  std::vector<char> m_buffer;
  std::size_t m_pos = 0;
  std::size_t m_end = 0;
  bool m_eof = false;
  bool m_started = false;    // the BOM check has been done
  bool m_skip_lf = false;    // the last record ended with CR: a following LF belongs to it
  std::uint64_t m_line = 1;  // the line the next byte is on
};

}  // namespace gpuport
