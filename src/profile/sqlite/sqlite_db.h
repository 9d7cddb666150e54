// A read-only SQLite connection for profiler exports (nsys, rocpd). The file is opened through
// a `file:` URI with immutable=1, so SQLite never writes to it or beside it (no journal, no WAL,
// no locks), and views are not trusted to call functions with side effects.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

#include "profile/trace.h"

struct sqlite3;
struct sqlite3_stmt;

namespace gpuport {

enum class SqlValue : std::uint8_t { Null, Integer, NotInteger };

class SqliteStatement {
 public:
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&&) = delete;
  SqliteStatement(const SqliteStatement&) = delete;
  ~SqliteStatement();

  // Advances to the next row: true on a row, false when done; the error is SQLite's message.
  tl::expected<bool, std::string> step();
  void reset();
  void bind(int index, std::int64_t value);  // 1-based, as SQLite counts

  bool is_null(int column) const;
  // INTEGER, an integral REAL or integer text give the value in `out`.
  SqlValue integer(int column, std::int64_t& out) const;
  // The column as text (numbers converted by SQLite); empty for NULL.
  std::string_view text(int column) const;
  bool is_integer_typed(int column) const;  // stored as INTEGER (an id into a string table)

 private:
  friend class SqliteDb;
  SqliteStatement(sqlite3* db, sqlite3_stmt* statement) : m_db(db), m_statement(statement) {}
  sqlite3* m_db;
  sqlite3_stmt* m_statement;
};

class SqliteDb {
 public:
  // Errors: "PATH: cannot open as SQLite: <message>".
  static tl::expected<SqliteDb, TraceError> open(const std::string& path);
  SqliteDb(SqliteDb&& other) noexcept;
  SqliteDb& operator=(SqliteDb&&) = delete;
  SqliteDb(const SqliteDb&) = delete;
  ~SqliteDb();

  // Stops any statement after about this many virtual-machine steps ("interrupted"); 0 = never.
  // For fuzzing, where a crafted view could otherwise produce rows forever.
  void limit_steps(std::uint64_t steps);

  // Whether a table or view of that name exists (SQLite names ignore ASCII case). The first
  // look at the schema is where a file that is not a database is found out.
  tl::expected<bool, TraceError> has_table(std::string_view name);
  // The column names of a table or view, as `pragma table_info` lists them.
  tl::expected<std::vector<std::string>, TraceError> columns(std::string_view table);
  tl::expected<SqliteStatement, TraceError> prepare(const std::string& sql, std::string_view table);

  const std::string& path() const { return m_path; }
  // "PATH: table T: what".
  TraceError error(std::string_view table, std::string_view what) const;

 private:
  SqliteDb(std::string path, sqlite3* db) : m_path(std::move(path)), m_db(db) {}
  static int on_progress(void* self);

  std::string m_path;
  sqlite3* m_db;
  std::uint64_t m_step_budget = 0;  // progress callbacks left; only used when limited
};

// `name` as an SQL identifier: "name", with inner quotes doubled.
std::string sql_identifier(std::string_view name);

// The `file:` URI that opens `path` read-only and immutable (%, ? and # escaped).
std::string sqlite_read_only_uri(const std::string& path);

}  // namespace gpuport
