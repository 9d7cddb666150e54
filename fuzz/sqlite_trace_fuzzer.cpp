// libFuzzer target: read_sqlite_trace() on a file. An input that starts with the SQLite magic is
// written as it is (corrupt and truncated databases); any other input is run as SQL into a new
// database first, so the fuzzer also explores schemas (missing columns, NULLs, text where
// numbers belong, views) that byte mutations of a database would almost never reach.
#include <sqlite3.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include "profile/readers/sqlite_formats.h"
#include "table_trace_invariants.h"

namespace {

constexpr std::uint64_t kMaxSteps = 20'000'000;  // per statement: a view cannot run forever

const std::string& work_path() {
  static const std::string path =
      "/tmp/gpuport-sqlite-fuzz-" + std::to_string(::getpid()) + ".sqlite";
  return path;
}

void remove_files(const std::string& path) {
  for (const char* suffix : {"", "-journal", "-wal", "-shm"})
    std::remove((path + suffix).c_str());
}

// Only statements that build tables and rows: no files besides the database, no pragmas.
int authorize(void*, int action, const char*, const char*, const char*, const char*) {
  switch (action) {
    case SQLITE_ATTACH:
    case SQLITE_DETACH:
    case SQLITE_PRAGMA:
      return SQLITE_DENY;
    default:
      return SQLITE_OK;
  }
}

int stop_after_budget(void* budget) {
  auto* left = static_cast<std::uint64_t*>(budget);
  return (*left)-- == 0 ? 1 : 0;
}

void build_from_sql(const std::string& path, const std::string& sql) {
  if (sql.find('\0') != std::string::npos)
    return;
  std::string lower = sql;
  for (char& c : lower)
    c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  if (lower.find("vacuum") != std::string::npos)  // VACUUM INTO writes another file
    return;
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) == SQLITE_OK) {
    sqlite3_exec(
        db, "PRAGMA max_page_count = 2048; PRAGMA synchronous = OFF; PRAGMA journal_mode = OFF",
        nullptr, nullptr, nullptr);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
    sqlite3_set_authorizer(db, &authorize, nullptr);
    std::uint64_t budget = 2000;  // thousands of VM steps
    sqlite3_progress_handler(db, 1000, &stop_after_budget, &budget);
    sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  }
  sqlite3_close(db);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = work_path();
  remove_files(path);
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  if (bytes.starts_with(std::string("SQLite format 3\0", 16))) {
    std::ofstream(path, std::ios::binary) << bytes;
  } else {
    build_from_sql(path, bytes);
  }
  const std::optional<gpuport::TraceFormat> forced =
      size % 3 == 0   ? std::nullopt
      : size % 3 == 1 ? std::optional(gpuport::TraceFormat::NsysSqlite)
                      : std::optional(gpuport::TraceFormat::RocpdSqlite);
  gpuport::fuzzing::check_trace_result(gpuport::read_sqlite_trace_limited(path, forced, kMaxSteps),
                                       path);
  remove_files(path);
  return 0;
}
