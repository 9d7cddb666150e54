// Reads one trace with read_trace() and aggregates its kernels per name, as `gpuport profile`
// will: the stand-in that bench/profile_vs_python.sh times until that subcommand exists.
// Prints the kernel count, the exact total, the unique names, the top five and the throughput;
// with --expect FILE.expected.json (written by make_kineto_trace.py) exits 1 on a mismatch.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "profile/trace_reader.h"

namespace {

struct Row {
  gpuport::NameId name = 0;
  std::int64_t calls = 0;
  std::int64_t total_ns = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 && !(argc == 4 && std::string(argv[2]) == "--expect")) {
    std::fprintf(stderr, "usage: trace_read_bench TRACE [--expect TRACE.expected.json]\n");
    return 2;
  }
  const std::string path = argv[1];
  const auto start = std::chrono::steady_clock::now();
  auto trace = gpuport::read_trace(path, {});
  if (!trace) {
    std::fprintf(stderr, "%s\n", trace.error().message.c_str());
    return 2;
  }
  std::unordered_map<gpuport::NameId, Row> by_name;
  std::int64_t kernels = 0;
  std::int64_t total_ns = 0;
  for (const gpuport::GpuActivity& activity : trace->activities) {
    if (activity.kind != gpuport::ActivityKind::Kernel)
      continue;
    Row& row = by_name[activity.name];
    row.name = activity.name;
    ++row.calls;
    row.total_ns += activity.duration_ns;
    ++kernels;
    total_ns += activity.duration_ns;
  }
  std::vector<Row> rows;
  rows.reserve(by_name.size());
  for (const auto& entry : by_name)
    rows.push_back(entry.second);
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::printf("kernels %lld, total %lld ns, unique names %zu, launches %zu, ranges %zu\n",
              static_cast<long long>(kernels), static_cast<long long>(total_ns), rows.size(),
              trace->launches.size(), trace->ranges.size());
  for (std::size_t i = 0; i < rows.size() && i < 5; ++i) {
    const std::string_view name = trace->names[rows[i].name];
    std::printf("  %12lld ns %8lld  %.*s\n", static_cast<long long>(rows[i].total_ns),
                static_cast<long long>(rows[i].calls),
                static_cast<int>(std::min<std::size_t>(name.size(), 90)), name.data());
  }
  std::fprintf(stderr, "read and aggregated in %.3f s\n", seconds);

  if (argc == 4) {
    std::ifstream in(argv[3]);
    const nlohmann::json expected = nlohmann::json::parse(in, nullptr, false);
    if (expected.is_discarded() || expected["n_kernels"] != kernels ||
        expected["kernel_total_ns"] != total_ns) {
      std::fprintf(stderr, "MISMATCH with %s\n", argv[3]);
      return 1;
    }
    std::printf("matches %s\n", argv[3]);
  }
  return 0;
}
