// The readers behind read_sqlite_trace(), one per schema, and what they share: which columns a
// table has (exports differ by version, so every column but the essential ones is optional).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

#include "profile/sqlite/sqlite_db.h"
#include "profile/trace.h"

namespace gpuport {

// nsys export --type sqlite: CUPTI_ACTIVITY_KIND_KERNEL/MEMCPY/MEMSET, _RUNTIME and _DRIVER
// launch calls, NVTX_EVENTS ranges and TARGET_INFO_GPU, names through StringIds.
tl::expected<void, TraceError> read_nsys_sqlite(SqliteDb& db, Trace& trace);

// rocpd (rocprofv3 --output-format rocpd, rocprof-sys): the `kernels` view, `memory_copies`,
// launch calls from `regions`, GPU agents from `rocpd_info_agent`.
tl::expected<void, TraceError> read_rocpd_sqlite(SqliteDb& db, Trace& trace);

// read_sqlite_trace() with a bound on SQLite's work per statement (0: none), for fuzzing.
tl::expected<Trace, TraceError> read_sqlite_trace_limited(const std::string& path,
                                                          std::optional<TraceFormat> forced,
                                                          std::uint64_t max_steps);

// The columns of one table, looked up the way SQLite does (ignoring ASCII case).
class TableColumns {
 public:
  TableColumns(std::string table, std::vector<std::string> names)
      : m_table(std::move(table)), m_names(std::move(names)) {}

  const std::string& table() const { return m_table; }
  bool has(std::string_view name) const;
  // The first of `names` the table has, if any.
  std::optional<std::string> first_of(std::initializer_list<std::string_view> names) const;
  // `name` as a SELECT expression: the quoted column, or NULL when the table lacks it.
  std::string select(std::string_view name) const;
  std::string select_optional(const std::optional<std::string>& name) const;

 private:
  std::string m_table;
  std::vector<std::string> m_names;
};

tl::expected<TableColumns, TraceError> table_columns(SqliteDb& db, std::string_view table);
// The columns of an optional table: nullopt when the file has no such table.
tl::expected<std::optional<TableColumns>, TraceError> optional_table_columns(
    SqliteDb& db, std::string_view table);

// Activities in time order (tables are read one after another; ties keep table order).
void sort_by_start(std::vector<GpuActivity>& activities);

}  // namespace gpuport
