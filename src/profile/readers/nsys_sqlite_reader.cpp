// nsys export --type sqlite. Tables appear only when the capture had something for them, and
// columns come and go between schema versions, so each table's columns are looked up first and
// only `start`, `end` and one kernel name column are required. Names are ids into StringIds.
#include <array>
#include <unordered_map>
#include <unordered_set>

#include "profile/readers/reader_support.h"
#include "profile/readers/sqlite_formats.h"

namespace gpuport {
namespace {

constexpr std::string_view kKernels = "CUPTI_ACTIVITY_KIND_KERNEL";

// Resolves StringIds ids to interned names, each id looked up once.
class StringIds {
 public:
  StringIds(SqliteDb& db, Trace& trace) : m_db(db), m_trace(trace) {}

  // The name for a column value: an id into StringIds, or the text itself when an exporter
  // stored text. Nothing when the value is NULL or the id is not in StringIds.
  tl::expected<std::optional<NameId>, TraceError> name(const SqliteStatement& row, int column) {
    if (row.is_null(column))
      return std::nullopt;
    if (!row.is_integer_typed(column))
      return m_trace.names.intern(row.text(column));
    std::int64_t id = 0;
    row.integer(column, id);
    if (auto found = m_cache.find(id); found != m_cache.end())
      return found->second;
    if (!m_lookup) {
      auto exists = m_db.has_table("StringIds");
      if (!exists)
        return tl::unexpected(exists.error());
      if (!*exists)
        return tl::unexpected(m_db.error("StringIds", "missing (names are ids into it)"));
      auto lookup = m_db.prepare("SELECT value FROM StringIds WHERE id = ?1", "StringIds");
      if (!lookup)
        return tl::unexpected(lookup.error());
      m_lookup.emplace(std::move(*lookup));
    }
    m_lookup->reset();
    m_lookup->bind(1, id);
    auto found = m_lookup->step();
    if (!found)
      return tl::unexpected(m_db.error("StringIds", found.error()));
    std::optional<NameId> name;
    if (*found && !m_lookup->is_null(0))
      name = m_trace.names.intern(m_lookup->text(0));
    m_cache.emplace(id, name);
    return name;
  }

 private:
  SqliteDb& m_db;
  Trace& m_trace;
  std::optional<SqliteStatement> m_lookup;
  std::unordered_map<std::int64_t, std::optional<NameId>> m_cache;
};

std::string row_error(std::string_view table, std::uint64_t row, std::string_view what) {
  return std::string(table) + ", row " + std::to_string(row) + ": " + std::string(what);
}

// Reads `start`, `end` (columns 0 and 1) into an activity, refusing NULLs, text and end < start.
tl::expected<void, TraceError> read_interval(SqliteDb& db, const SqliteStatement& row,
                                             std::string_view table, std::uint64_t row_number,
                                             GpuActivity& activity) {
  std::int64_t start = 0;
  std::int64_t end = 0;
  if (row.integer(0, start) != SqlValue::Integer) {
    return tl::unexpected(TraceError{db.path() + ": table " +
                                     row_error(table, row_number, "start is not an integer")});
  }
  if (row.integer(1, end) != SqlValue::Integer) {
    return tl::unexpected(
        TraceError{db.path() + ": table " + row_error(table, row_number, "end is not an integer")});
  }
  if (__builtin_sub_overflow(end, start, &activity.duration_ns) || activity.duration_ns < 0) {
    return tl::unexpected(TraceError{
        db.path() + ": table " +
        row_error(table, row_number,
                  "end " + std::to_string(end) + " is before start " + std::to_string(start))});
  }
  activity.start_ns = start;
  return {};
}

// An optional integer column; -1 when NULL or not an integer.
std::int64_t optional_id(const SqliteStatement& row, int column) {
  std::int64_t value = -1;
  return row.integer(column, value) == SqlValue::Integer ? value : -1;
}

// The columns every activity table shares, after `start`, `end`: device, stream, correlation.
std::string common_columns(const TableColumns& columns) {
  return columns.select("deviceId") + ", " + columns.select("streamId") + ", " +
         columns.select("correlationId");
}

void fill_ids(const SqliteStatement& row, int first, GpuActivity& activity) {
  activity.device = to_id32(optional_id(row, first));
  activity.stream = to_id32(optional_id(row, first + 1));
  activity.correlation = optional_id(row, first + 2);
}

tl::expected<void, TraceError> read_kernels(SqliteDb& db, StringIds& strings, Trace& trace) {
  auto columns = table_columns(db, kKernels);
  if (!columns)
    return tl::unexpected(columns.error());
  for (std::string_view required : {"start", "end"}) {
    if (!columns->has(required)) {
      return tl::unexpected(db.error(kKernels, "missing column \"" + std::string(required) + "\""));
    }
  }
  // Kernel function name with templates first; the others only when it is absent or NULL.
  std::vector<std::string> name_columns;
  for (std::string_view name : {"demangledName", "shortName", "mangledName"}) {
    if (columns->has(name))
      name_columns.emplace_back(name);
  }
  if (name_columns.empty()) {
    return tl::unexpected(
        db.error(kKernels, "no kernel name column (demangledName, shortName or mangledName)"));
  }
  std::string sql = "SELECT \"start\", \"end\", " + common_columns(*columns);
  for (const std::string& name : name_columns)
    sql += ", " + sql_identifier(name);
  sql += " FROM " + sql_identifier(kKernels);
  auto statement = db.prepare(sql, kKernels);
  if (!statement)
    return tl::unexpected(statement.error());

  for (std::uint64_t row_number = 1;; ++row_number) {
    auto more = statement->step();
    if (!more)
      return tl::unexpected(db.error(kKernels, more.error()));
    if (!*more)
      return {};
    GpuActivity activity;
    if (auto interval = read_interval(db, *statement, kKernels, row_number, activity); !interval)
      return tl::unexpected(interval.error());
    fill_ids(*statement, 2, activity);
    std::optional<NameId> name;
    for (std::size_t i = 0; i < name_columns.size() && !name; ++i) {
      auto found = strings.name(*statement, static_cast<int>(5 + i));
      if (!found)
        return tl::unexpected(found.error());
      name = *found;
    }
    if (!name) {
      return tl::unexpected(TraceError{
          db.path() + ": table " +
          row_error(kKernels, row_number, "the kernel name is NULL or not in StringIds")});
    }
    activity.name = *name;
    activity.kind = ActivityKind::Kernel;
    trace.activities.push_back(activity);
  }
}

// nsys's own spelling of copies (as `nsys stats` prints them), by ENUM_CUDA_MEMCPY_OPER id.
std::string_view memcpy_name(std::int64_t copy_kind) {
  static constexpr std::array<std::string_view, 14> kNames{
      "[CUDA memcpy Unknown]",
      "[CUDA memcpy Host-to-Device]",
      "[CUDA memcpy Device-to-Host]",
      "[CUDA memcpy Host-to-Array]",
      "[CUDA memcpy Array-to-Host]",
      "[CUDA memcpy Array-to-Array]",
      "[CUDA memcpy Array-to-Device]",
      "[CUDA memcpy Device-to-Array]",
      "[CUDA memcpy Device-to-Device]",
      "[CUDA memcpy Host-to-Host]",
      "[CUDA memcpy Peer-to-Peer]",
      "[CUDA memcpy Unified Host-to-Device]",
      "[CUDA memcpy Unified Device-to-Host]",
      "[CUDA memcpy Unified Device-to-Device]",
  };
  if (copy_kind >= 0 && copy_kind < static_cast<std::int64_t>(kNames.size()))
    return kNames[static_cast<std::size_t>(copy_kind)];
  return kNames[0];
}

tl::expected<void, TraceError> read_memory_table(SqliteDb& db, std::string_view table,
                                                 ActivityKind kind, Trace& trace) {
  auto found = optional_table_columns(db, table);
  if (!found)
    return tl::unexpected(found.error());
  if (!*found)
    return {};
  auto& columns = *found;
  if (!columns->has("start") || !columns->has("end"))
    return {};  // nothing to place on the timeline
  const std::string sql = "SELECT \"start\", \"end\", " + common_columns(*columns) + ", " +
                          columns->select("copyKind") + " FROM " + sql_identifier(table);
  auto statement = db.prepare(sql, table);
  if (!statement)
    return tl::unexpected(statement.error());
  const NameId memset_name = trace.names.intern("[CUDA memset]");
  for (std::uint64_t row_number = 1;; ++row_number) {
    auto more = statement->step();
    if (!more)
      return tl::unexpected(db.error(table, more.error()));
    if (!*more)
      return {};
    GpuActivity activity;
    if (auto interval = read_interval(db, *statement, table, row_number, activity); !interval)
      return tl::unexpected(interval.error());
    fill_ids(*statement, 2, activity);
    activity.kind = kind;
    activity.name = kind == ActivityKind::Memset
                        ? memset_name
                        : trace.names.intern(memcpy_name(optional_id(*statement, 5)));
    trace.activities.push_back(activity);
  }
}

// Host API calls (cudaLaunchKernel_v7000, cuLaunchKernelEx, ...) whose correlation id belongs to
// an activity read above; the rest (cudaMalloc, ...) launched nothing on the GPU.
tl::expected<void, TraceError> read_launches(SqliteDb& db, std::string_view table,
                                             const std::unordered_set<std::int64_t>& wanted,
                                             StringIds& strings, Trace& trace) {
  auto found = optional_table_columns(db, table);
  if (!found)
    return tl::unexpected(found.error());
  if (!*found)
    return {};
  auto& columns = *found;
  if (!columns->has("correlationId") || !columns->has("nameId"))
    return {};
  auto statement =
      db.prepare("SELECT \"correlationId\", \"nameId\" FROM " + sql_identifier(table), table);
  if (!statement)
    return tl::unexpected(statement.error());
  for (;;) {
    auto more = statement->step();
    if (!more)
      return tl::unexpected(db.error(table, more.error()));
    if (!*more)
      return {};
    std::int64_t correlation = -1;
    if (statement->integer(0, correlation) != SqlValue::Integer || !wanted.contains(correlation))
      continue;
    auto api = strings.name(*statement, 1);
    if (!api)
      return tl::unexpected(api.error());
    if (*api)
      trace.launches.push_back(LaunchCall{correlation, **api});
  }
}

// NVTX push/pop and start/end ranges (marks have no end); the text is inline or in StringIds.
tl::expected<void, TraceError> read_nvtx(SqliteDb& db, StringIds& strings, Trace& trace) {
  constexpr std::string_view kTable = "NVTX_EVENTS";
  auto found = optional_table_columns(db, kTable);
  if (!found)
    return tl::unexpected(found.error());
  if (!*found)
    return {};
  auto& columns = *found;
  if (!columns->has("start") || !columns->has("end"))
    return {};
  auto statement = db.prepare("SELECT \"start\", \"end\", " + columns->select("text") + ", " +
                                  columns->select("textId") + " FROM " + sql_identifier(kTable) +
                                  " WHERE \"end\" > \"start\"",
                              kTable);
  if (!statement)
    return tl::unexpected(statement.error());
  for (;;) {
    auto more = statement->step();
    if (!more)
      return tl::unexpected(db.error(kTable, more.error()));
    if (!*more)
      return {};
    TraceRange range;
    if (statement->integer(0, range.start_ns) != SqlValue::Integer ||
        statement->integer(1, range.end_ns) != SqlValue::Integer || range.end_ns <= range.start_ns)
      continue;
    std::optional<NameId> name;
    if (!statement->is_null(2)) {
      name = trace.names.intern(statement->text(2));
    } else {
      auto found = strings.name(*statement, 3);
      if (!found)
        return tl::unexpected(found.error());
      name = *found;
    }
    if (!name)
      continue;  // an unnamed range delimits nothing a user could ask for
    range.name = *name;
    trace.ranges.push_back(range);
  }
}

tl::expected<void, TraceError> read_gpus(SqliteDb& db, Trace& trace) {
  constexpr std::string_view kTable = "TARGET_INFO_GPU";
  auto found = optional_table_columns(db, kTable);
  if (!found)
    return tl::unexpected(found.error());
  if (!*found)
    return {};
  auto& columns = *found;
  std::string sql = "SELECT " + columns->select("name") + ", " + columns->select("threadsPerWarp") +
                    ", " + columns->select("computeMajor") + ", " +
                    columns->select("computeMinor") + " FROM " + sql_identifier(kTable);
  if (columns->has("id"))
    sql += " ORDER BY \"id\"";
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
    device.name = std::string(statement->text(0));
    std::int64_t value = 0;
    if (statement->integer(1, value) == SqlValue::Integer && value > 0 && value <= 1024)
      device.warp_size = static_cast<int>(value);
    if (statement->integer(2, value) == SqlValue::Integer && value >= 0 && value < 1000)
      device.compute_major = static_cast<int>(value);
    if (statement->integer(3, value) == SqlValue::Integer && value >= 0 && value < 1000)
      device.compute_minor = static_cast<int>(value);
    trace.devices.push_back(std::move(device));
  }
}

}  // namespace

tl::expected<void, TraceError> read_nsys_sqlite(SqliteDb& db, Trace& trace) {
  StringIds strings(db, trace);
  if (auto read = read_kernels(db, strings, trace); !read)
    return read;
  if (auto read = read_memory_table(db, "CUPTI_ACTIVITY_KIND_MEMCPY", ActivityKind::Memcpy, trace);
      !read) {
    return read;
  }
  if (auto read = read_memory_table(db, "CUPTI_ACTIVITY_KIND_MEMSET", ActivityKind::Memset, trace);
      !read) {
    return read;
  }
  sort_by_start(trace.activities);

  std::unordered_set<std::int64_t> correlations;
  for (const GpuActivity& activity : trace.activities) {
    if (activity.correlation >= 0)
      correlations.insert(activity.correlation);
  }
  for (std::string_view table : {"CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DRIVER"}) {
    if (auto read = read_launches(db, table, correlations, strings, trace); !read)
      return read;
  }
  if (auto read = read_nvtx(db, strings, trace); !read)
    return read;
  return read_gpus(db, trace);
}

}  // namespace gpuport
