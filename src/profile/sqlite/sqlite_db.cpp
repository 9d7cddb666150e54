// The read-only SQLite connection and statement wrappers (see sqlite_db.h).
#include "profile/sqlite/sqlite_db.h"

#include <sqlite3.h>

#include <cmath>
#include <string>
#include <utility>

#include "profile/csv/csv_numbers.h"

namespace gpuport {
namespace {

// SQLite's message as one line of a reasonable length: a malformed schema is quoted in it,
// newlines and all (found by sqlite_trace_fuzzer: a CREATE TABLE across lines).
std::string one_line_message(const char* message) {
  constexpr std::size_t k_longest = 240;
  std::string out;
  for (const char* p = message != nullptr ? message : ""; *p != '\0'; ++p) {
    const auto byte = static_cast<unsigned char>(*p);
    const bool space = byte < 0x20 || byte == 0x7f;
    if (space && (out.empty() || out.back() == ' ')) {
      continue;  // runs of line breaks and indentation become one space
    }
    if (out.size() >= k_longest) {
      out += "...";
      break;
    }
    out += space ? ' ' : *p;
  }
  return out;
}

constexpr int kProgressPeriod = 1000;  // VM steps between progress callbacks

}  // namespace

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : m_db(other.m_db), m_statement(std::exchange(other.m_statement, nullptr)) {}

SqliteStatement::~SqliteStatement() {
  if (m_statement != nullptr)
    sqlite3_finalize(m_statement);
}

tl::expected<bool, std::string> SqliteStatement::step() {
  const int status = sqlite3_step(m_statement);
  if (status == SQLITE_ROW)
    return true;
  if (status == SQLITE_DONE)
    return false;
  return tl::unexpected(one_line_message(sqlite3_errmsg(m_db)));
}

void SqliteStatement::reset() {
  sqlite3_reset(m_statement);
}

void SqliteStatement::bind(int index, std::int64_t value) {
  sqlite3_bind_int64(m_statement, index, value);
}

bool SqliteStatement::is_null(int column) const {
  return sqlite3_column_type(m_statement, column) == SQLITE_NULL;
}

bool SqliteStatement::is_integer_typed(int column) const {
  return sqlite3_column_type(m_statement, column) == SQLITE_INTEGER;
}

SqlValue SqliteStatement::integer(int column, std::int64_t& out) const {
  switch (sqlite3_column_type(m_statement, column)) {
    case SQLITE_NULL:
      return SqlValue::Null;
    case SQLITE_INTEGER:
      out = sqlite3_column_int64(m_statement, column);
      return SqlValue::Integer;
    case SQLITE_FLOAT: {
      const double value = sqlite3_column_double(m_statement, column);
      // 2^63 is exactly representable; every double below it in magnitude fits int64.
      if (std::isfinite(value) && value == std::trunc(value) && value >= -9223372036854775808.0 &&
          value < 9223372036854775808.0) {
        out = static_cast<std::int64_t>(value);
        return SqlValue::Integer;
      }
      return SqlValue::NotInteger;
    }
    case SQLITE_TEXT: {
      auto value = parse_integer(text(column));
      if (!value)
        return SqlValue::NotInteger;
      out = *value;
      return SqlValue::Integer;
    }
    default:
      return SqlValue::NotInteger;
  }
}

std::string_view SqliteStatement::text(int column) const {
  const auto* bytes = sqlite3_column_text(m_statement, column);
  if (bytes == nullptr)
    return {};
  return std::string_view(reinterpret_cast<const char*>(bytes),
                          static_cast<std::size_t>(sqlite3_column_bytes(m_statement, column)));
}

std::string sql_identifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    out += c;
    if (c == '"')
      out += '"';
  }
  out += '"';
  return out;
}

std::string sqlite_read_only_uri(const std::string& path) {
  std::string uri = path.starts_with('/') ? "file://" : "file:";
  for (char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '%' || c == '?' || c == '#' || byte < 0x20 || byte == 0x7f) {
      constexpr char kHex[] = "0123456789ABCDEF";
      uri += '%';
      uri += kHex[byte >> 4];
      uri += kHex[byte & 0xf];
    } else {
      uri += c;
    }
  }
  return uri + "?mode=ro&immutable=1";
}

tl::expected<SqliteDb, TraceError> SqliteDb::open(const std::string& path) {
  sqlite3* db = nullptr;
  const int status = sqlite3_open_v2(sqlite_read_only_uri(path).c_str(), &db,
                                     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  if (status != SQLITE_OK) {
    std::string message =
        one_line_message(db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(status));
    sqlite3_close(db);
    return tl::unexpected(TraceError{path + ": cannot open as SQLite: " + message});
  }
  sqlite3_extended_result_codes(db, 1);
  // No value a profiler writes comes near this; a crafted view cannot make one that does.
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 64 << 20);
  // Views in the file run when they are read: keep them from calling functions that are not
  // marked harmless, and keep the schema from being edited.
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  return SqliteDb(path, db);
}

SqliteDb::SqliteDb(SqliteDb&& other) noexcept
    : m_path(std::move(other.m_path)),
      m_db(std::exchange(other.m_db, nullptr)),
      m_step_budget(other.m_step_budget) {
  if (m_db != nullptr && m_step_budget > 0)
    sqlite3_progress_handler(m_db, kProgressPeriod, &SqliteDb::on_progress, this);
}

SqliteDb::~SqliteDb() {
  if (m_db != nullptr)
    sqlite3_close_v2(m_db);
}

int SqliteDb::on_progress(void* self) {
  auto* db = static_cast<SqliteDb*>(self);
  if (db->m_step_budget == 0)
    return 1;
  --db->m_step_budget;
  return 0;
}

void SqliteDb::limit_steps(std::uint64_t steps) {
  m_step_budget = steps / kProgressPeriod + 1;
  sqlite3_progress_handler(m_db, steps == 0 ? 0 : kProgressPeriod,
                           steps == 0 ? nullptr : &SqliteDb::on_progress, this);
}

TraceError SqliteDb::error(std::string_view table, std::string_view what) const {
  return TraceError{m_path + ": table " + std::string(table) + ": " + std::string(what)};
}

tl::expected<SqliteStatement, TraceError> SqliteDb::prepare(const std::string& sql,
                                                            std::string_view table) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(m_db, sql.c_str(), static_cast<int>(sql.size() + 1), &statement,
                         nullptr) != SQLITE_OK) {
    sqlite3_finalize(statement);
    return tl::unexpected(error(table, one_line_message(sqlite3_errmsg(m_db))));
  }
  return SqliteStatement(m_db, statement);
}

tl::expected<bool, TraceError> SqliteDb::has_table(std::string_view name) {
  sqlite3_stmt* statement = nullptr;
  const char* sql =
      "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?1 COLLATE NOCASE";
  if (sqlite3_prepare_v2(m_db, sql, -1, &statement, nullptr) != SQLITE_OK) {
    std::string message = one_line_message(sqlite3_errmsg(m_db));
    sqlite3_finalize(statement);
    return tl::unexpected(TraceError{m_path + ": cannot read as SQLite: " + message});
  }
  sqlite3_bind_text(statement, 1, name.data(), static_cast<int>(name.size()), SQLITE_TRANSIENT);
  const int status = sqlite3_step(statement);
  std::string message =
      status == SQLITE_ROW || status == SQLITE_DONE ? "" : one_line_message(sqlite3_errmsg(m_db));
  sqlite3_finalize(statement);
  if (!message.empty())
    return tl::unexpected(TraceError{m_path + ": cannot read as SQLite: " + message});
  return status == SQLITE_ROW;
}

tl::expected<std::vector<std::string>, TraceError> SqliteDb::columns(std::string_view table) {
  auto statement = prepare("SELECT name FROM pragma_table_info(?1)", table);
  if (!statement)
    return tl::unexpected(statement.error());
  sqlite3_bind_text(statement->m_statement, 1, table.data(), static_cast<int>(table.size()),
                    SQLITE_TRANSIENT);
  std::vector<std::string> names;
  for (;;) {
    auto row = statement->step();
    if (!row)
      return tl::unexpected(error(table, row.error()));
    if (!*row)
      break;
    names.emplace_back(statement->text(0));
  }
  return names;
}

}  // namespace gpuport
