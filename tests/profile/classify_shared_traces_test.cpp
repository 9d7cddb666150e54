// Classification on the real shared traces: the top-10 kernels of every trace, whose classes were
// checked by hand (tests/fixtures/profile/classes/<trace>.tsv, with the reasons where they are not
// obvious), and the share of GPU kernel time left unknown.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "profile/classify.h"
#include "profile/kernel_name.h"
#include "profile/trace_reader.h"
#include "shared_traces.h"

namespace gpuport {
namespace {

namespace fs = std::filesystem;

struct ExpectedRow {
  int rank = 0;
  std::string klass;
  std::string owner;  // "" for none
  bool own_code = false;
  std::string launch;  // the launch API most of its dispatches used, "" when the trace has none
  std::string name;
};

const fs::path kFixtures = fs::path(GPUPORT_SOURCE_DIR) / "tests/fixtures/profile/classes";

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (true) {
    const std::size_t tab = line.find('\t', at);
    out.push_back(line.substr(at, tab - at));
    if (tab == std::string::npos)
      return out;
    at = tab + 1;
  }
}

std::vector<ExpectedRow> read_fixture(const fs::path& path) {
  std::ifstream in(path);
  std::vector<ExpectedRow> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    const std::vector<std::string> cells = split_tabs(line);
    if (cells.size() != 6) {
      ADD_FAILURE() << path << ": expected 6 columns in: " << line.substr(0, 80);
      continue;
    }
    ExpectedRow row;
    row.rank = std::stoi(cells[0]);
    row.klass = cells[1];
    row.owner = cells[2] == "-" ? "" : cells[2];
    row.own_code = cells[3] == "yes";
    row.launch = cells[4] == "-" ? "" : cells[4];
    row.name = cells[5];
    rows.push_back(std::move(row));
  }
  return rows;
}

// The fixture of a trace file: its name without the format's extension.
fs::path fixture_of(const std::string& trace_file) {
  std::string stem = trace_file;
  for (const std::string ext : {".json.gz", ".sqlite", ".csv"}) {
    if (stem.size() > ext.size() && stem.compare(stem.size() - ext.size(), ext.size(), ext) == 0) {
      stem.resize(stem.size() - ext.size());
      break;
    }
  }
  return kFixtures / (stem + ".tsv");
}

std::vector<fs::path> fixture_files() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(kFixtures))
    out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Runs without the traces: the hand-written expectations against the classifier.
TEST(ClassifySharedTraces, HandCheckedTopTenClassesMatch) {
  const std::vector<fs::path> files = fixture_files();
  ASSERT_EQ(files.size(), 9u);
  for (const fs::path& file : files) {
    const std::vector<ExpectedRow> rows = read_fixture(file);
    ASSERT_EQ(rows.size(), 10u) << file;
    for (const ExpectedRow& row : rows) {
      const Classification c =
          classify_kernel(parse_kernel_name(row.name), launch_api_of(row.launch));
      const std::string where = file.filename().string() + " #" + std::to_string(row.rank);
      EXPECT_EQ(class_name(c.klass), row.klass) << where;
      EXPECT_EQ(c.owner, row.owner) << where;
      EXPECT_EQ(c.own_code, row.own_code) << where;
    }
  }
}

struct NameTotals {
  std::int64_t total_ns = 0;
  std::map<LaunchApi, std::int64_t> launches;  // dispatches per launch API (known ones)
};

// Kernel totals per exact name, and the launch APIs of each name's dispatches.
std::unordered_map<std::string, NameTotals> kernel_totals(const Trace& trace) {
  std::unordered_map<std::int64_t, NameId> api_of_correlation;
  for (const LaunchCall& call : trace.launches)
    api_of_correlation[call.correlation] = call.api;
  std::unordered_map<std::string, NameTotals> totals;
  for (const GpuActivity& activity : trace.activities) {
    if (activity.kind != ActivityKind::Kernel)
      continue;
    NameTotals& t = totals[std::string(trace.names[activity.name])];
    t.total_ns += activity.duration_ns;
    if (const auto it = api_of_correlation.find(activity.correlation);
        activity.correlation >= 0 && it != api_of_correlation.end()) {
      const LaunchApi api = launch_api_of(trace.names[it->second]);
      if (api != LaunchApi::Unknown)
        ++t.launches[api];
    }
  }
  for (const KernelSummary& summary : trace.summaries)
    totals[std::string(trace.names[summary.name])].total_ns += summary.total_ns;
  return totals;
}

LaunchApi main_launch_api(const NameTotals& totals) {
  LaunchApi best = LaunchApi::Unknown;
  std::int64_t most = 0;
  for (const auto& [api, count] : totals.launches) {
    if (count > most) {
      best = api;
      most = count;
    }
  }
  return best;
}

TEST(ClassifySharedTraces, TopTenAndUnknownShareOnEveryTrace) {
  GPUPORT_REQUIRE_SHARED_TRACES(traces);
  const nlohmann::json answers = testing::expected_answers(traces);
  ASSERT_EQ(answers["files"].size(), 9u);
  for (const auto& [file, expected] : answers["files"].items()) {
    SCOPED_TRACE(file);
    auto trace = read_trace((traces / file).string(), {});
    ASSERT_TRUE(trace.has_value()) << trace.error().message;
    const auto totals = kernel_totals(*trace);

    std::vector<std::pair<std::string, const NameTotals*>> ranked;
    std::int64_t all_ns = 0;
    for (const auto& [name, t] : totals) {
      ranked.emplace_back(name, &t);
      all_ns += t.total_ns;
    }
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
      return a.second->total_ns != b.second->total_ns ? a.second->total_ns > b.second->total_ns
                                                      : a.first < b.first;
    });

    // The same ten names, in the same order, as the hand-checked fixture (top five as in
    // expected_answers.json).
    const std::vector<ExpectedRow> rows = read_fixture(fixture_of(file));
    ASSERT_EQ(rows.size(), 10u);
    ASSERT_GE(ranked.size(), 10u);
    for (std::size_t i = 0; i < 10; ++i) {
      EXPECT_EQ(ranked[i].first, rows[i].name) << "rank " << i + 1;
      if (i < 5) {
        EXPECT_EQ(ranked[i].first, expected["top5"][i]["name"].get<std::string>());
      }
      const Classification c =
          classify_kernel(parse_kernel_name(ranked[i].first), main_launch_api(*ranked[i].second));
      EXPECT_EQ(class_name(c.klass), rows[i].klass) << "rank " << i + 1;
      EXPECT_EQ(launch_api_of(rows[i].launch), main_launch_api(*ranked[i].second))
          << "rank " << i + 1;
    }

    // Less than 5 % of kernel time unknown (with launch information where the format has it).
    std::int64_t unknown_ns = 0;
    for (const auto& [name, t] : ranked) {
      if (classify_kernel(parse_kernel_name(name), main_launch_api(*t)).klass ==
          KernelClass::Unknown)
        unknown_ns += t->total_ns;
    }
    ASSERT_GT(all_ns, 0);
    const double share = 100.0 * static_cast<double>(unknown_ns) / static_cast<double>(all_ns);
    std::cout << "[ unknown  ] " << file << ": " << share << " % of " << all_ns
              << " ns kernel time, " << totals.size() << " names\n";
    EXPECT_LT(share, 5.0);
  }
}

// Every kernel of the nsys export: its demangled name (nsys's demangler) and its mangled name run
// through the GNU demangler (what Kineto/CUPTI show) must normalize to the same key.
TEST(ClassifySharedTraces, NsysAndGnuDemanglerAgreeOnEveryKernelOfTheNsysExport) {
  GPUPORT_REQUIRE_SHARED_TRACES(traces);
  sqlite3* db = nullptr;
  const std::string path = (traces / "nvfuser_h200_nsys_report1.sqlite").string();
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* query = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "SELECT DISTINCT d.value, m.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                               "JOIN StringIds d ON d.id = k.demangledName "
                               "JOIN StringIds m ON m.id = k.mangledName",
                               -1, &query, nullptr),
            SQLITE_OK);
  int pairs = 0;
  while (sqlite3_step(query) == SQLITE_ROW) {
    const std::string nsys = reinterpret_cast<const char*>(sqlite3_column_text(query, 0));
    const std::string mangled = reinterpret_cast<const char*>(sqlite3_column_text(query, 1));
    const KernelName a = parse_kernel_name(nsys);
    const KernelName b = parse_kernel_name(mangled);
    EXPECT_EQ(a.normalized, b.normalized) << nsys;
    EXPECT_EQ(a.qualified, b.qualified) << nsys;
    ++pairs;
  }
  sqlite3_finalize(query);
  sqlite3_close(db);
  EXPECT_EQ(pairs, 15);
}

}  // namespace
}  // namespace gpuport
