// Helpers for the JSON reader tests: fixtures, gzip, reading text as a trace, and a per-name
// kernel aggregation (the real analysis layer lives elsewhere; tests need only sums).
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "profile/byte_stream.h"
#include "profile/readers/readers.h"
#include "profile/trace.h"

namespace gpuport::testing {

inline std::string gzip_text(const std::string& text) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, text.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

inline std::string json_fixture_path(const std::string& name) {
  return std::string(GPUPORT_SOURCE_DIR) + "/tests/fixtures/profile/json/" + name;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline tl::expected<Trace, TraceError> read_json_text(
    const std::string& name, const std::string& bytes,
    std::optional<TraceFormat> forced = std::nullopt) {
  ByteStream in = ByteStream::from_memory(name, bytes);
  return read_json_trace(in, forced);
}

// Not NameTotal / kernel_totals: kernel_totals.h defines those in this namespace with another
// layout, and two inline definitions of one name in one test binary are an ODR violation.
struct CountAndTotal {
  std::int64_t count = 0;
  std::int64_t total_ns = 0;
};

// Kernel dispatches grouped by exact name.
inline std::map<std::string, CountAndTotal> kernel_totals_by_name(const Trace& trace) {
  std::map<std::string, CountAndTotal> totals;
  for (const GpuActivity& activity : trace.activities) {
    if (activity.kind != ActivityKind::Kernel)
      continue;
    CountAndTotal& row = totals[std::string(trace.names[activity.name])];
    ++row.count;
    row.total_ns += activity.duration_ns;
  }
  return totals;
}

inline std::int64_t total_kernel_ns(const Trace& trace) {
  std::int64_t total = 0;
  for (const GpuActivity& activity : trace.activities) {
    if (activity.kind == ActivityKind::Kernel)
      total += activity.duration_ns;
  }
  return total;
}

inline std::int64_t count_kind(const Trace& trace, ActivityKind kind) {
  std::int64_t count = 0;
  for (const GpuActivity& activity : trace.activities)
    count += activity.kind == kind ? 1 : 0;
  return count;
}

}  // namespace gpuport::testing
