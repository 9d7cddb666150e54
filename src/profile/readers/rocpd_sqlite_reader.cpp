// rocpd SQLite (rocprofv3 --output-format rocpd, rocprof-sys). The base tables carry a GUID
// suffix per run; the convenience views `kernels`, `memory_copies`, `regions` and
// `rocpd_info_agent` have stable names and are what is read here.
#include <unordered_set>

#include "profile/readers/reader_support.h"
#include "profile/readers/sqlite_formats.h"

namespace gpuport {
namespace {

struct Timing {
  std::string start;
  std::optional<std::string> end;       // preferred: end - start
  std::optional<std::string> duration;  // otherwise
};

std::string timing_select(const TableColumns& columns, const Timing& timing) {
  return sql_identifier(timing.start) + ", " + columns.select_optional(timing.end) + ", " +
         columns.select_optional(timing.duration);
}

tl::expected<Timing, TraceError> find_timing(SqliteDb& db, const TableColumns& columns) {
  if (!columns.has("start"))
    return tl::unexpected(db.error(columns.table(), "missing column \"start\""));
  Timing timing{"start", columns.first_of({"end"}), columns.first_of({"duration"})};
  if (!timing.end && !timing.duration)
    return tl::unexpected(db.error(columns.table(), "missing column \"end\" (or \"duration\")"));
  return timing;
}

// Columns 0..2 of a row selected with timing_select(): start, end, duration.
tl::expected<void, TraceError> read_timing(SqliteDb& db, const SqliteStatement& row,
                                           std::string_view table, std::uint64_t row_number,
                                           GpuActivity& activity) {
  auto fail = [&](const std::string& what) {
    return tl::unexpected(TraceError{db.path() + ": table " + std::string(table) + ", row " +
                                     std::to_string(row_number) + ": " + what});
  };
  if (row.integer(0, activity.start_ns) != SqlValue::Integer)
    return fail("start is not an integer");
  std::int64_t end = 0;
  if (row.integer(1, end) == SqlValue::Integer) {
    if (__builtin_sub_overflow(end, activity.start_ns, &activity.duration_ns) ||
        activity.duration_ns < 0) {
      return fail("end " + std::to_string(end) + " is before start " +
                  std::to_string(activity.start_ns));
    }
    return {};
  }
  if (row.integer(2, activity.duration_ns) == SqlValue::Integer && activity.duration_ns >= 0)
    return {};
  return fail("neither end nor duration is a time");
}

std::int64_t optional_id(const SqliteStatement& row, int column) {
  std::int64_t value = -1;
  return row.integer(column, value) == SqlValue::Integer ? value : -1;
}

tl::expected<void, TraceError> read_kernels(SqliteDb& db, Trace& trace) {
  constexpr std::string_view kTable = "kernels";
  auto columns = table_columns(db, kTable);
  if (!columns)
    return tl::unexpected(columns.error());
  if (!columns->has("name"))
    return tl::unexpected(db.error(kTable, "missing column \"name\""));
  auto timing = find_timing(db, *columns);
  if (!timing)
    return tl::unexpected(timing.error());
  // agent_abs_index numbers agents as rocprofv3's CSV and JSON do ("Agent 4").
  const auto device =
      columns->first_of({"agent_abs_index", "agent_log_index", "agent_type_index", "agent_id"});
  const auto stream = columns->first_of({"stream_id", "queue_id"});
  const auto correlation = columns->first_of({"corr_id", "correlation_id"});
  auto statement = db.prepare(
      "SELECT " + timing_select(*columns, *timing) + ", \"name\", " +
          columns->select_optional(device) + ", " + columns->select_optional(stream) + ", " +
          columns->select_optional(correlation) + " FROM " + sql_identifier(kTable),
      kTable);
  if (!statement)
    return tl::unexpected(statement.error());
  for (std::uint64_t row_number = 1;; ++row_number) {
    auto more = statement->step();
    if (!more)
      return tl::unexpected(db.error(kTable, more.error()));
    if (!*more)
      return {};
    GpuActivity activity;
    if (auto read = read_timing(db, *statement, kTable, row_number, activity); !read)
      return read;
    if (statement->is_null(3)) {
      return tl::unexpected(TraceError{db.path() + ": table kernels, row " +
                                       std::to_string(row_number) + ": the kernel name is NULL"});
    }
    activity.name = trace.names.intern(statement->text(3));
    activity.device = to_id32(optional_id(*statement, 4));
    activity.stream = to_id32(optional_id(*statement, 5));
    activity.correlation = optional_id(*statement, 6);
    activity.kind = ActivityKind::Kernel;
    trace.activities.push_back(activity);
  }
}

// Copies name their GPU by whichever end of the copy is one.
tl::expected<void, TraceError> read_copies(SqliteDb& db, Trace& trace) {
  constexpr std::string_view kTable = "memory_copies";
  auto found = optional_table_columns(db, kTable);
  if (!found)
    return tl::unexpected(found.error());
  if (!*found)
    return {};
  auto& columns = *found;
  auto timing = find_timing(db, *columns);
  if (!timing)
    return tl::unexpected(timing.error());
  const auto stream = columns->first_of({"stream_id", "queue_id"});
  const auto correlation = columns->first_of({"corr_id", "correlation_id"});
  auto statement = db.prepare(
      "SELECT " + timing_select(*columns, *timing) + ", " + columns->select("name") + ", " +
          columns->select("dst_agent_type") + ", " + columns->select("dst_agent_abs_index") + ", " +
          columns->select("src_agent_type") + ", " + columns->select("src_agent_abs_index") + ", " +
          columns->select_optional(stream) + ", " + columns->select_optional(correlation) +
          " FROM " + sql_identifier(kTable),
      kTable);
  if (!statement)
    return tl::unexpected(statement.error());
  const NameId unnamed = trace.names.intern("MEMORY_COPY");
  for (std::uint64_t row_number = 1;; ++row_number) {
    auto more = statement->step();
    if (!more)
      return tl::unexpected(db.error(kTable, more.error()));
    if (!*more)
      return {};
    GpuActivity activity;
    if (auto read = read_timing(db, *statement, kTable, row_number, activity); !read)
      return read;
    activity.name = statement->is_null(3) ? unnamed : trace.names.intern(statement->text(3));
    const bool source_is_gpu = statement->text(4) != "GPU" && statement->text(6) == "GPU";
    activity.device = to_id32(optional_id(*statement, source_is_gpu ? 7 : 5));
    activity.stream = to_id32(optional_id(*statement, 8));
    activity.correlation = optional_id(*statement, 9);
    activity.kind = ActivityKind::Memcpy;
    trace.activities.push_back(activity);
  }
}

// The HIP API calls (hipLaunchKernel, hipExtModuleLaunchKernel, ...) whose correlation id an
// activity carries.
tl::expected<void, TraceError> read_launches(SqliteDb& db, Trace& trace) {
  constexpr std::string_view kTable = "regions";
  auto found = optional_table_columns(db, kTable);
  if (!found)
    return tl::unexpected(found.error());
  if (!*found)
    return {};
  auto& columns = *found;
  const auto correlation = columns->first_of({"corr_id", "correlation_id"});
  if (!columns->has("name") || !correlation)
    return {};
  std::unordered_set<std::int64_t> wanted;
  for (const GpuActivity& activity : trace.activities) {
    if (activity.correlation >= 0)
      wanted.insert(activity.correlation);
  }
  auto statement = db.prepare(
      "SELECT " + sql_identifier(*correlation) + ", \"name\" FROM " + sql_identifier(kTable),
      kTable);
  if (!statement)
    return tl::unexpected(statement.error());
  for (;;) {
    auto more = statement->step();
    if (!more)
      return tl::unexpected(db.error(kTable, more.error()));
    if (!*more)
      return {};
    std::int64_t id = -1;
    if (statement->integer(0, id) != SqlValue::Integer || !wanted.contains(id) ||
        statement->is_null(1)) {
      continue;
    }
    trace.launches.push_back(LaunchCall{id, trace.names.intern(statement->text(1))});
  }
}

tl::expected<void, TraceError> read_agents(SqliteDb& db, Trace& trace) {
  constexpr std::string_view kTable = "rocpd_info_agent";
  auto found = optional_table_columns(db, kTable);
  if (!found)
    return tl::unexpected(found.error());
  if (!*found)
    return {};
  auto& columns = *found;
  if (!columns->has("type"))
    return {};
  std::string sql = "SELECT " + columns->select("product_name") + ", " + columns->select("name") +
                    " FROM " + sql_identifier(kTable) + " WHERE \"type\" = 'GPU'";
  if (columns->has("absolute_index"))
    sql += " ORDER BY \"absolute_index\"";
  auto statement = db.prepare(sql, kTable);
  if (!statement)
    return tl::unexpected(statement.error());
  for (;;) {
    auto more = statement->step();
    if (!more)
      return tl::unexpected(db.error(kTable, more.error()));
    if (!*more)
      return {};
    DeviceInfo device;
    // "AMD Instinct MI300X" where the file has it, else the architecture ("gfx942").
    device.name = std::string(statement->text(statement->text(0).empty() ? 1 : 0));
    device.warp_size = 0;  // in the agent's JSON extdata; not needed for kernel tables
    trace.devices.push_back(std::move(device));
  }
}

}  // namespace

tl::expected<void, TraceError> read_rocpd_sqlite(SqliteDb& db, Trace& trace) {
  if (auto read = read_kernels(db, trace); !read)
    return read;
  if (auto read = read_copies(db, trace); !read)
    return read;
  sort_by_start(trace.activities);
  if (auto read = read_launches(db, trace); !read)
    return read;
  return read_agents(db, trace);
}

}  // namespace gpuport
