// read_sqlite_trace(): opens the export read-only, tells nsys from rocpd by their tables (or
// takes --input-format) and hands the database to the reader for that schema.
#include <algorithm>

#include "profile/readers/reader_support.h"
#include "profile/readers/readers.h"
#include "profile/readers/sqlite_formats.h"

namespace gpuport {
namespace {

constexpr std::string_view kNsysKernels = "CUPTI_ACTIVITY_KIND_KERNEL";
constexpr std::string_view kRocpdKernels = "kernels";

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool same_name(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](char x, char y) { return lower(x) == lower(y); });
}

}  // namespace

bool TableColumns::has(std::string_view name) const {
  return std::any_of(m_names.begin(), m_names.end(),
                     [&](const std::string& column) { return same_name(column, name); });
}

std::optional<std::string> TableColumns::first_of(
    std::initializer_list<std::string_view> names) const {
  for (std::string_view name : names) {
    if (has(name))
      return std::string(name);
  }
  return std::nullopt;
}

std::string TableColumns::select(std::string_view name) const {
  return has(name) ? sql_identifier(name) : "NULL";
}

std::string TableColumns::select_optional(const std::optional<std::string>& name) const {
  return name ? select(*name) : "NULL";
}

tl::expected<TableColumns, TraceError> table_columns(SqliteDb& db, std::string_view table) {
  auto names = db.columns(table);
  if (!names)
    return tl::unexpected(names.error());
  return TableColumns(std::string(table), std::move(*names));
}

void sort_by_start(std::vector<GpuActivity>& activities) {
  std::stable_sort(
      activities.begin(), activities.end(),
      [](const GpuActivity& a, const GpuActivity& b) { return a.start_ns < b.start_ns; });
}

tl::expected<Trace, TraceError> read_sqlite_trace_limited(const std::string& path,
                                                          std::optional<TraceFormat> forced,
                                                          std::uint64_t max_steps) {
  if (forced && *forced != TraceFormat::NsysSqlite && *forced != TraceFormat::RocpdSqlite) {
    return tl::unexpected(
        TraceError{path + ": byte 0: an SQLite file, not " + std::string(format_name(*forced))});
  }
  auto db = SqliteDb::open(path);
  if (!db)
    return tl::unexpected(db.error());
  db->limit_steps(max_steps);

  std::optional<TraceFormat> format;
  if (!forced || *forced == TraceFormat::NsysSqlite) {
    auto found = db->has_table(kNsysKernels);
    if (!found)
      return tl::unexpected(found.error());
    if (*found)
      format = TraceFormat::NsysSqlite;
  }
  if (!format && (!forced || *forced == TraceFormat::RocpdSqlite)) {
    auto found = db->has_table(kRocpdKernels);
    if (!found)
      return tl::unexpected(found.error());
    if (*found)
      format = TraceFormat::RocpdSqlite;
  }
  if (!format) {
    return tl::unexpected(TraceError{
        path +
        ": no kernel table (CUPTI_ACTIVITY_KIND_KERNEL or rocpd kernels); was the profile "
        "captured with CUDA/HIP tracing on?"});
  }

  Trace trace;
  trace.path = path;
  trace.format = *format;
  trace.vendor = *format == TraceFormat::NsysSqlite ? Vendor::Nvidia : Vendor::Amd;
  auto read = *format == TraceFormat::NsysSqlite ? read_nsys_sqlite(*db, trace)
                                                 : read_rocpd_sqlite(*db, trace);
  if (!read)
    return tl::unexpected(read.error());
  if (!has_kernels(trace))
    return tl::unexpected(no_kernels_error(path));
  return trace;
}

tl::expected<Trace, TraceError> read_sqlite_trace(const std::string& path,
                                                  std::optional<TraceFormat> forced) {
  return read_sqlite_trace_limited(path, forced, 0);
}

}  // namespace gpuport

namespace gpuport {

tl::expected<std::optional<TableColumns>, TraceError> optional_table_columns(
    SqliteDb& db, std::string_view table) {
  auto exists = db.has_table(table);
  if (!exists)
    return tl::unexpected(exists.error());
  if (!*exists)
    return std::nullopt;
  auto columns = table_columns(db, table);
  if (!columns)
    return tl::unexpected(columns.error());
  return std::optional<TableColumns>(std::move(*columns));
}

}  // namespace gpuport
