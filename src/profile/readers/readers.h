// The reader families behind read_trace(). Each one detects which of its formats a file is
// (unless `forced` names one), reads it into a Trace, and refuses bad input with one line that
// names the file and the position. None of them holds a DOM of the file.
#pragma once

#include <optional>
#include <string>

#include <tl/expected.hpp>

#include "profile/byte_stream.h"
#include "profile/trace.h"

namespace gpuport {

// Kineto Chrome-trace JSON and rocprofv3 results JSON (plain or gzip: `in` gunzips).
tl::expected<Trace, TraceError> read_json_trace(ByteStream& in, std::optional<TraceFormat> forced);

// rocprof results.csv / results.stats.csv, rocprofv3 kernel_trace.csv / kernel_stats.csv, and
// `nsys stats` cuda_gpu_kern_sum CSV, told apart by their header rows.
tl::expected<Trace, TraceError> read_csv_trace(ByteStream& in, std::optional<TraceFormat> forced);

// nsys SQLite export and rocpd SQLite, told apart by their tables. SQLite needs random access, so
// this takes the path of an uncompressed file.
tl::expected<Trace, TraceError> read_sqlite_trace(const std::string& path,
                                                  std::optional<TraceFormat> forced);

}  // namespace gpuport
