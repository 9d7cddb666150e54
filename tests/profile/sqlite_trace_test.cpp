// read_sqlite_trace() on nsys and rocpd exports built at test time from the .sql fixtures:
// every table read, version differences, refusals, and that the file is never touched.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernel_totals.h"
#include "profile/readers/readers.h"
#include "profile/trace_reader.h"

namespace gpuport {
namespace {

namespace fs = std::filesystem;
using testing::kernel_totals;
using testing::NameTotal;

std::string fixture_sql(const std::string& name) {
  std::ifstream in(std::string(GPUPORT_SOURCE_DIR) + "/tests/fixtures/profile/tables/" + name,
                   std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class SqliteTraceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() /
            ("gpuport-sqlite-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  // A database file made by running `sql`.
  std::string database(const std::string& name, const std::string& sql) {
    const std::string path = (m_dir / name).string();
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* message = nullptr;
    sqlite3_exec(db, "PRAGMA synchronous = OFF", nullptr, nullptr, nullptr);  // test speed only
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK)
        << (message != nullptr ? message : "");
    sqlite3_free(message);
    sqlite3_close(db);
    return path;
  }

  // Each call makes a new file: fixture.sqlite, fixture-2.sqlite, ...
  std::string database_from_fixture(const std::string& fixture, const std::string& extra = "") {
    const std::string suffix = ++m_made == 1 ? "" : "-" + std::to_string(m_made);
    return database(fixture + suffix + ".sqlite", fixture_sql(fixture) + extra);
  }

  Trace read(const std::string& path, std::optional<TraceFormat> forced = std::nullopt) {
    auto trace = read_trace(path, ReadOptions{forced});
    EXPECT_TRUE(trace.has_value()) << trace.error().message;
    return trace ? std::move(*trace) : Trace{};
  }

  std::string error_of(const std::string& path, std::optional<TraceFormat> forced = std::nullopt) {
    auto trace = read_sqlite_trace(path, forced);
    return trace ? "(read without error)" : trace.error().message;
  }

  fs::path m_dir;
  int m_made = 0;
};

const std::string kAbs =
    "void at::native::vectorized_elementwise_kernel<(int)4, at::native::AbsFunctor<c10::Half>, "
    "std::array<char *, (unsigned long)2>>(int, T2, T3)";
const std::string kNvjet = "nvjet_hsh_256x128_64x4_1x2_h_bz_coopA_NTT";

TEST_F(SqliteTraceTest, NsysExport) {
  const Trace trace = read(database_from_fixture("nsys_export.sql"));
  EXPECT_EQ(trace.format, TraceFormat::NsysSqlite);
  EXPECT_EQ(trace.vendor, Vendor::Nvidia);

  // Kernels, copies and fills in time order.
  ASSERT_EQ(trace.activities.size(), 5u);
  std::vector<std::string> names;
  for (const GpuActivity& activity : trace.activities)
    names.emplace_back(trace.names[activity.name]);
  EXPECT_EQ(names, (std::vector<std::string>{"[CUDA memcpy Host-to-Device]", kNvjet, kAbs,
                                             "[CUDA memset]", kAbs}));
  EXPECT_EQ(trace.activities[0].kind, ActivityKind::Memcpy);
  EXPECT_EQ(trace.activities[0].duration_ns, 500);
  EXPECT_EQ(trace.activities[3].kind, ActivityKind::Memset);
  EXPECT_EQ(trace.activities[3].duration_ns, 40);
  const GpuActivity& last = trace.activities[4];
  EXPECT_EQ(last.kind, ActivityKind::Kernel);
  EXPECT_EQ(last.start_ns, 9000);
  EXPECT_EQ(last.duration_ns, 650);
  EXPECT_EQ(last.device, 0);
  EXPECT_EQ(last.stream, 13);
  EXPECT_EQ(last.correlation, 103);

  const auto totals = kernel_totals(trace);
  EXPECT_EQ(totals.n_kernels, 3);
  EXPECT_EQ(totals.total_ns, 88771);
  EXPECT_EQ(totals.by_total, (std::vector<NameTotal>{{kNvjet, 87521, 1}, {kAbs, 1250, 2}}));

  // Only the host calls that launched something read above (not cudaMalloc).
  ASSERT_EQ(trace.launches.size(), 3u);
  EXPECT_EQ(trace.launches[0].correlation, 100);
  EXPECT_EQ(trace.names[trace.launches[0].api], "cuLaunchKernelEx");
  EXPECT_EQ(trace.names[trace.launches[2].api], "cudaLaunchKernel_v7000");

  // NVTX ranges through textId and inline text; marks and empty ranges are not ranges.
  ASSERT_EQ(trace.ranges.size(), 2u);
  EXPECT_EQ(trace.names[trace.ranges[0].name], "ProfilerStep#1");
  EXPECT_EQ(trace.ranges[0].end_ns, 10000);
  EXPECT_EQ(trace.names[trace.ranges[1].name], "attention");
  EXPECT_FALSE(trace.ranges[1].on_gpu);

  ASSERT_EQ(trace.devices.size(), 1u);
  EXPECT_EQ(trace.devices[0].name, "NVIDIA H200");
  EXPECT_EQ(trace.devices[0].warp_size, 32);
  EXPECT_EQ(trace.devices[0].compute_major, 9);
  EXPECT_EQ(trace.devices[0].compute_minor, 0);
}

TEST_F(SqliteTraceTest, OlderNsysSchema) {
  const Trace trace = read(database_from_fixture("nsys_export_2023.sql"));
  EXPECT_EQ(trace.format, TraceFormat::NsysSqlite);
  // The third kernel's demangled id is not in StringIds: its short name stands in.
  EXPECT_EQ(kernel_totals(trace).by_total,
            (std::vector<NameTotal>{{"void add_kernel<float>(float *, const float *, int)", 450, 2},
                                    {"add_kernel", 5, 1}}));
  ASSERT_EQ(trace.launches.size(), 1u);
  ASSERT_EQ(trace.ranges.size(), 1u);
  EXPECT_EQ(trace.names[trace.ranges[0].name], "step");
  EXPECT_TRUE(trace.devices.empty());
}

TEST_F(SqliteTraceTest, DemangledNamePreferredOverShortName) {
  // Drop demangledName: the short name is used.
  const std::string path = database(
      "short.sqlite",
      "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
      "INSERT INTO StringIds VALUES (1, 'short'), (2, '_Z5shortv');"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, mangledName INTEGER,"
      " shortName INTEGER);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 11, 2, 1);");
  const Trace trace = read(path);
  EXPECT_EQ(kernel_totals(trace).by_total, (std::vector<NameTotal>{{"short", 10, 1}}));
  EXPECT_EQ(trace.activities[0].device, -1);
  EXPECT_EQ(trace.activities[0].correlation, -1);
}

const std::string kFill =
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
    "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)";
const std::string kCijk = "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x256x32_MI16x16x1";

TEST_F(SqliteTraceTest, Rocpd) {
  const Trace trace = read(database_from_fixture("rocpd.sql"));
  EXPECT_EQ(trace.format, TraceFormat::RocpdSqlite);
  EXPECT_EQ(trace.vendor, Vendor::Amd);
  ASSERT_EQ(trace.activities.size(), 4u);
  const GpuActivity& copy = trace.activities[0];
  EXPECT_EQ(copy.kind, ActivityKind::Memcpy);
  EXPECT_EQ(trace.names[copy.name], "MEMORY_COPY_HOST_TO_DEVICE");
  EXPECT_EQ(copy.device, 4);  // the GPU end of a host-to-device copy
  EXPECT_EQ(copy.duration_ns, 400);
  const GpuActivity& last = trace.activities[3];
  EXPECT_EQ(trace.names[last.name], kFill);
  EXPECT_EQ(last.start_ns, 52000);
  EXPECT_EQ(last.duration_ns, 2600);
  EXPECT_EQ(last.device, 4);
  EXPECT_EQ(last.stream, 3);
  EXPECT_EQ(last.correlation, 12);
  EXPECT_EQ(kernel_totals(trace).by_total,
            (std::vector<NameTotal>{{kCijk, 50000, 1}, {kFill, 5000, 2}}));
  ASSERT_EQ(trace.launches.size(), 3u);
  EXPECT_EQ(trace.launches[0].correlation, 10);
  EXPECT_EQ(trace.names[trace.launches[0].api], "hipExtModuleLaunchKernel");
  ASSERT_EQ(trace.devices.size(), 1u);
  EXPECT_EQ(trace.devices[0].name, "AMD Instinct MI300X");
}

TEST_F(SqliteTraceTest, RocpdWithDurationOnly) {
  const std::string path = database(
      "duration.sqlite",
      "CREATE TABLE kernels (name TEXT, start INTEGER, duration INTEGER, queue_id INTEGER);"
      "INSERT INTO kernels VALUES ('k', 100, 25, 2), ('k', 200, 30, 2);");
  const Trace trace = read(path);
  EXPECT_EQ(kernel_totals(trace).by_total, (std::vector<NameTotal>{{"k", 55, 2}}));
  EXPECT_EQ(trace.activities[0].stream, 2);
}

TEST_F(SqliteTraceTest, NoKernelTable) {
  const std::string path = database_from_fixture("nsys_no_kernel_table.sql");
  EXPECT_EQ(error_of(path), path +
                                ": no kernel table (CUPTI_ACTIVITY_KIND_KERNEL or rocpd "
                                "kernels); was the profile captured with CUDA/HIP tracing on?");
  // A rocpd database is not an nsys export, even when it has kernels.
  const std::string rocpd = database_from_fixture("rocpd.sql");
  EXPECT_EQ(error_of(rocpd, TraceFormat::NsysSqlite),
            rocpd +
                ": no kernel table (CUPTI_ACTIVITY_KIND_KERNEL or rocpd kernels); was the "
                "profile captured with CUDA/HIP tracing on?");
  EXPECT_EQ(read(rocpd, TraceFormat::RocpdSqlite).format, TraceFormat::RocpdSqlite);
}

TEST_F(SqliteTraceTest, EmptyKernelTable) {
  const std::string path =
      database_from_fixture("nsys_export.sql", "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL;");
  EXPECT_EQ(error_of(path), path + ": no GPU kernels in it");
}

TEST_F(SqliteTraceTest, MissingColumnsAndBadRows) {
  const std::string no_end =
      database("no_end.sqlite",
               "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, shortName INTEGER);");
  EXPECT_EQ(error_of(no_end),
            no_end + ": table CUPTI_ACTIVITY_KIND_KERNEL: missing column \"end\"");

  const std::string no_name = database(
      "no_name.sqlite", "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER);");
  EXPECT_EQ(error_of(no_name), no_name +
                                   ": table CUPTI_ACTIVITY_KIND_KERNEL: no kernel name "
                                   "column (demangledName, shortName or mangledName)");

  const std::string backwards = database_from_fixture(
      "nsys_export.sql", "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = 4000 WHERE start = 5000;");
  EXPECT_EQ(error_of(backwards), backwards +
                                     ": table CUPTI_ACTIVITY_KIND_KERNEL, row 1: end 4000 "
                                     "is before start 5000");

  const std::string text_start = database_from_fixture(
      "nsys_export.sql",
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'soon' WHERE start = 1000;");
  EXPECT_EQ(error_of(text_start),
            text_start + ": table CUPTI_ACTIVITY_KIND_KERNEL, row 2: start is not an integer");

  const std::string lost_name =
      database_from_fixture("nsys_export.sql", "DELETE FROM StringIds WHERE id IN (10, 11, 12);");
  EXPECT_EQ(error_of(lost_name), lost_name +
                                     ": table CUPTI_ACTIVITY_KIND_KERNEL, row 1: the "
                                     "kernel name is NULL or not in StringIds");

  const std::string no_strings = database_from_fixture("nsys_export.sql", "DROP TABLE StringIds;");
  EXPECT_EQ(error_of(no_strings),
            no_strings + ": table StringIds: missing (names are ids into it)");

  const std::string null_name =
      database("null_name.sqlite",
               "CREATE TABLE kernels (name TEXT, start INTEGER, end INTEGER);"
               "INSERT INTO kernels VALUES ('k', 1, 2), (NULL, 3, 4);");
  EXPECT_EQ(error_of(null_name), null_name + ": table kernels, row 2: the kernel name is NULL");

  const std::string broken_view = database(
      "broken_view.sqlite",
      "CREATE TABLE t (x INTEGER); CREATE VIEW kernels AS SELECT x AS name, x AS start, x AS end "
      "FROM t; DROP TABLE t;");
  EXPECT_EQ(error_of(broken_view), broken_view + ": table kernels: no such table: main.t");
}

TEST_F(SqliteTraceTest, NotADatabase) {
  const std::string path = (m_dir / "fake.sqlite").string();
  std::ofstream(path, std::ios::binary)
      << std::string("SQLite format 3\0", 16) << std::string(2000, 'x');
  EXPECT_EQ(error_of(path), path + ": cannot read as SQLite: file is not a database");
}

TEST_F(SqliteTraceTest, TruncatedDatabase) {
  const std::string path = database_from_fixture("nsys_export.sql");
  fs::resize_file(path, fs::file_size(path) / 2);
  const std::string message = error_of(path);
  EXPECT_TRUE(message.starts_with(path + ": ")) << message;
  EXPECT_NE(message.find("malformed"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

// A schema SQLite cannot parse is quoted in its message, line breaks and all; the error must
// stay one line (found by sqlite_trace_fuzzer).
TEST_F(SqliteTraceTest, AMalformedSchemaIsAOneLineError) {
  const std::string path = database(
      "schema.sqlite",
      "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL,\n    end INTEGER);"
      "PRAGMA writable_schema = ON;"
      "UPDATE sqlite_master SET sql = 'CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER "
      "''NOT NULL,\n    end INTEGER)' WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL';");
  const std::string message = error_of(path);
  EXPECT_TRUE(message.starts_with(path + ": cannot read as SQLite: malformed database schema"))
      << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST_F(SqliteTraceTest, FileIsNeverModified) {
  // A WAL-mode database in a read-only file: an ordinary read-only open would want to create
  // PATH-shm beside it.
  const std::string path = database_from_fixture("nsys_export.sql", "PRAGMA journal_mode = WAL;");
  std::ifstream before_in(path, std::ios::binary);
  const std::string before((std::istreambuf_iterator<char>(before_in)), {});
  const auto mtime = fs::last_write_time(path);
  fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  read(path);
  std::ifstream after_in(path, std::ios::binary);
  const std::string after((std::istreambuf_iterator<char>(after_in)), {});
  EXPECT_EQ(before, after);
  EXPECT_EQ(fs::last_write_time(path), mtime);
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(m_dir))
    files.push_back(entry.path().filename().string());
  EXPECT_EQ(files, std::vector<std::string>{"nsys_export.sql.sqlite"});  // no journal, no WAL
}

TEST_F(SqliteTraceTest, PathsWithUriCharacters) {
  const std::string plain = database_from_fixture("rocpd.sql");
  const std::string odd = (m_dir / "run 50%?#1.sqlite").string();
  fs::copy_file(plain, odd);
  EXPECT_EQ(kernel_totals(read(odd)).total_ns, 55000);
}

TEST_F(SqliteTraceTest, ForcedNonSqliteFormat) {
  const std::string path = database_from_fixture("rocpd.sql");
  EXPECT_EQ(error_of(path, TraceFormat::KinetoJson), path + ": byte 0: an SQLite file, not kineto");
}

}  // namespace
}  // namespace gpuport
