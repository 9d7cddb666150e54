#include "profile/trace_reader.h"

#include <string_view>

#include "profile/byte_stream.h"
#include "profile/readers/readers.h"

namespace gpuport {
namespace {

enum class Family { Json, Csv, Sqlite };

Family family_of(TraceFormat format) {
  switch (format) {
    case TraceFormat::KinetoJson:
    case TraceFormat::Rocprofv3Json:
      return Family::Json;
    case TraceFormat::NsysSqlite:
    case TraceFormat::RocpdSqlite:
      return Family::Sqlite;
    case TraceFormat::NsysStatsCsv:
    case TraceFormat::RocprofCsv:
    case TraceFormat::RocprofStatsCsv:
    case TraceFormat::Rocprofv3Csv:
      break;
  }
  return Family::Csv;
}

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

std::size_t first_non_space(std::string_view text) {
  std::size_t at = 0;
  // A UTF-8 byte order mark is allowed before JSON or a CSV header.
  if (text.substr(0, 3) == "\xEF\xBB\xBF")
    at = 3;
  while (at < text.size() &&
         (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n')) {
    ++at;
  }
  return at;
}

}  // namespace

tl::expected<Trace, TraceError> read_trace(const std::string& path, const ReadOptions& options) {
  auto stream = ByteStream::open(path);
  if (!stream)
    return tl::unexpected(stream.error());
  auto head = stream->peek(4096);
  if (!head)
    return tl::unexpected(head.error());

  std::optional<Family> family;
  if (options.format)
    family = family_of(*options.format);
  if (head->substr(0, kSqliteMagic.size()) == kSqliteMagic) {
    if (stream->gzipped()) {
      return tl::unexpected(TraceError{path + ": a gzip-compressed SQLite file; gunzip it first"});
    }
    if (family && *family != Family::Sqlite) {
      return tl::unexpected(TraceError{path + ": byte 0: an SQLite file, not " +
                                       std::string(format_name(*options.format))});
    }
    family = Family::Sqlite;
  }
  if (!family) {
    const std::size_t at = first_non_space(*head);
    if (at == head->size()) {
      return tl::unexpected(TraceError{path + ": empty file (no trace in it)"});
    }
    family = ((*head)[at] == '{' || (*head)[at] == '[') ? Family::Json : Family::Csv;
  }
  switch (*family) {
    case Family::Json:
      return read_json_trace(*stream, options.format);
    case Family::Sqlite:
      return read_sqlite_trace(path, options.format);
    case Family::Csv:
      break;
  }
  return read_csv_trace(*stream, options.format);
}

}  // namespace gpuport
