// read_csv_trace(): finds the header row (after any preamble nsys prints), tells the profiler
// CSV layouts apart by their column names (or takes --input-format) and hands the table to the
// reader for that layout.
#include <optional>
#include <string>
#include <utility>

#include "profile/csv/csv_reader.h"
#include "profile/csv/csv_table.h"
#include "profile/readers/csv_formats.h"
#include "profile/readers/reader_support.h"
#include "profile/readers/readers.h"

namespace gpuport {
namespace {

enum class Layout : std::uint8_t { Rocprof, Rocprofv3, RocprofStats, NsysStats, PerCounter };

struct Detected {
  Layout layout;
  TraceFormat format;
};

bool has_any(const CsvTable& table, std::initializer_list<std::string_view> names) {
  for (std::string_view name : names) {
    if (table.find(name))
      return true;
  }
  return false;
}

bool has_any_case(const CsvTable& table, std::initializer_list<std::string_view> names) {
  for (std::string_view name : names) {
    if (table.find_any_case(name))
      return true;
  }
  return false;
}

// Column names that only one profiler writes decide; none of the layouts shares them.
std::optional<Detected> detect(const CsvTable& table) {
  if (looks_like_nsys_stats(table))
    return Detected{Layout::NsysStats, TraceFormat::NsysStatsCsv};
  if (has_any(table, {"TotalDurationNs", "AverageNs"}))
    return Detected{Layout::RocprofStats, TraceFormat::RocprofStatsCsv};
  if (has_any_case(table, {"Counter_Name", "Counter_Value"}))
    return Detected{Layout::PerCounter, TraceFormat::Rocprofv3Csv};
  if (has_any_case(table, {"Agent_Id", "Kind"}) &&
      has_any_case(table, {"Kernel_Name", "Start_Timestamp", "End_Timestamp", "Kernel_Id"})) {
    return Detected{Layout::Rocprofv3, TraceFormat::Rocprofv3Csv};
  }
  if (has_any_case(table, {"Kernel_Name", "Start_Timestamp", "End_Timestamp", "Dispatch_Id"})) {
    return Detected{Layout::Rocprofv3, TraceFormat::RocprofCsv};  // rocprofv2's file plugin
  }
  if (has_any(table, {"KernelName", "BeginNs", "EndNs", "DispatchNs", "CompleteNs", "DurationNs",
                      "gpu-id", "queue-id"})) {
    return Detected{Layout::Rocprof, TraceFormat::RocprofCsv};
  }
  return std::nullopt;
}

std::optional<Detected> forced_layout(const CsvTable& table, TraceFormat format) {
  switch (format) {
    case TraceFormat::NsysStatsCsv:
      return Detected{Layout::NsysStats, format};
    case TraceFormat::RocprofStatsCsv:
      return Detected{Layout::RocprofStats, format};
    case TraceFormat::Rocprofv3Csv:
      return Detected{Layout::Rocprofv3, format};
    case TraceFormat::RocprofCsv:
      // rocprofv2 writes either the v1 columns or the underscore ones.
      if (table.find_any_case("Kernel_Name") && !table.find("KernelName"))
        return Detected{Layout::Rocprofv3, format};
      return Detected{Layout::Rocprof, format};
    case TraceFormat::KinetoJson:
    case TraceFormat::Rocprofv3Json:
    case TraceFormat::NsysSqlite:
    case TraceFormat::RocpdSqlite:
      break;
  }
  return std::nullopt;
}

// Lines nsys stats prints before (and between) its tables: "Generating SQLite file ...",
// "Processing [...] with [...]...", "NOTICE: ...", " ** CUDA GPU Kernel Summary (...):".
bool is_preamble(const CsvRecord& record) {
  if (record.size() == 1)
    return true;
  std::string_view first = record[0];
  while (!first.empty() && first.front() == ' ')
    first.remove_prefix(1);
  for (std::string_view prefix : {"Generating ", "Processing [", "Using ", "SKIPPED", "NOTICE",
                                  "WARNING", "**", "Exporting "}) {
    if (first.starts_with(prefix))
      return true;
  }
  return false;
}

bool is_csv_format(TraceFormat format) {
  return format == TraceFormat::NsysStatsCsv || format == TraceFormat::RocprofCsv ||
         format == TraceFormat::RocprofStatsCsv || format == TraceFormat::Rocprofv3Csv;
}

// Reads past the rows of a table that is not wanted, to the blank line or text line after it.
tl::expected<void, TraceError> skip_table(CsvReader& reader, CsvRecord& record) {
  for (;;) {
    auto got = reader.next(record);
    if (!got)
      return tl::unexpected(got.error());
    if (!*got || record.blank() || is_preamble(record))
      return {};
  }
}

Vendor vendor_of(TraceFormat format) {
  return format == TraceFormat::NsysStatsCsv ? Vendor::Nvidia : Vendor::Amd;
}

tl::expected<void, TraceError> read_layout(Layout layout, CsvTable& table, Trace& trace) {
  switch (layout) {
    case Layout::Rocprof:
      return read_rocprof_csv(table, trace);
    case Layout::Rocprofv3:
      return read_rocprofv3_csv(table, trace);
    case Layout::RocprofStats:
      return read_rocprof_stats_csv(table, trace);
    case Layout::NsysStats:
      return read_nsys_stats_csv(table, trace);
    case Layout::PerCounter:
      break;
  }
  return tl::unexpected(table.header_error(
      "a counter-collection CSV (one row per dispatch and counter); profile with "
      "--kernel-trace and read its kernel_trace.csv"));
}

}  // namespace

tl::expected<Trace, TraceError> read_csv_trace(ByteStream& in, std::optional<TraceFormat> forced) {
  const std::string path = in.path();
  if (forced && !is_csv_format(*forced)) {
    return tl::unexpected(
        TraceError{path + ": " + std::string(format_name(*forced)) + " is not a CSV format"});
  }
  CsvReader reader(in);
  CsvRecord record;
  std::optional<TraceError> other_nsys_report;  // the first nsys report that is not kernels
  std::string skipped;                          // nsys: "SKIPPED: x.sqlite does not contain ..."
  for (;;) {
    auto got = reader.next(record);
    if (!got)
      return tl::unexpected(got.error());
    if (!*got)
      break;
    if (record.blank())
      continue;
    if (is_preamble(record)) {
      if (skipped.empty() && record[0].starts_with("SKIPPED"))
        skipped = printable_text(record[0], 160);
      continue;
    }
    CsvTable table(reader, record);
    const auto detected = forced ? forced_layout(table, *forced) : detect(table);
    if (!detected) {
      return tl::unexpected(table.header_error(
          "not a recognised profiler CSV (header: " + describe_header(table.columns()) + ")"));
    }
    if (detected->layout == Layout::NsysStats) {
      table.set_blank_lines(BlankLines::EndTable);
      if (auto missing = check_nsys_kernel_summary(table)) {
        // Another report printed before the kernel summary (cuda_api_sum, ...): skip its rows.
        if (!other_nsys_report)
          other_nsys_report = std::move(missing);
        if (auto skipped_rows = skip_table(reader, record); !skipped_rows)
          return tl::unexpected(skipped_rows.error());
        continue;
      }
    }
    Trace trace;
    trace.path = path;
    trace.format = detected->format;
    trace.vendor = vendor_of(detected->format);
    if (auto read = read_layout(detected->layout, table, trace); !read)
      return tl::unexpected(read.error());
    if (!has_kernels(trace))
      return tl::unexpected(no_kernels_error(path));
    return trace;
  }
  if (!skipped.empty()) {
    return tl::unexpected(
        TraceError{no_kernels_error(path).message + " (nsys stats: \"" + skipped + "\")"});
  }
  if (other_nsys_report)
    return tl::unexpected(*other_nsys_report);
  return tl::unexpected(
      TraceError{path + ": line 1: not a recognised profiler CSV (no header row)"});
}

}  // namespace gpuport
