#include "profile/trace_reader.h"

#include <string>
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

// A name in a one-line message: at most 80 bytes, control bytes as '?'.
std::string printable_name(std::string_view name) {
  std::string out;
  for (const char c : name.substr(0, 80)) {
    const auto byte = static_cast<unsigned char>(c);
    out += byte < 0x20 || byte == 0x7f ? '?' : c;
  }
  return name.size() > 80 ? out + "..." : out;
}

}  // namespace

tl::expected<void, TraceError> check_activity_times(const Trace& trace) {
  std::int64_t total = 0;
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    const GpuActivity& activity = trace.activities[i];
    std::int64_t end = 0;
    const bool bad = activity.duration_ns < 0 ||
                     __builtin_add_overflow(activity.start_ns, activity.duration_ns, &end) ||
                     __builtin_add_overflow(total, activity.duration_ns, &total);
    if (bad) {
      return tl::unexpected(
          TraceError{trace.path + ": GPU activity " + std::to_string(i + 1) + " ('" +
                     printable_name(trace.names[activity.name]) +
                     "'): " + std::to_string(activity.duration_ns) + " ns from " +
                     std::to_string(activity.start_ns) + " ns: " +
                     (activity.duration_ns < 0 ? "a negative duration"
                                               : "the times overflow (GPU time past 2^63 ns)")});
    }
  }
  return {};
}

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
  tl::expected<Trace, TraceError> trace;
  switch (*family) {
    case Family::Json:
      trace = read_json_trace(*stream, options.format);
      break;
    case Family::Sqlite:
      trace = read_sqlite_trace(path, options.format);
      break;
    case Family::Csv:
      trace = read_csv_trace(*stream, options.format);
      break;
  }
  if (trace) {
    if (auto checked = check_activity_times(*trace); !checked) {
      return tl::unexpected(checked.error());
    }
  }
  return trace;
}

}  // namespace gpuport
