// The readers behind read_csv_trace(), one per CSV layout. Each checks the header first (a
// missing required column is "PATH: line N: missing column "X" in the header (...)"), then
// fills `trace` row by row. csv_trace.cpp decides which one a file is.
#pragma once

#include <optional>

#include <tl/expected.hpp>

#include "profile/csv/csv_table.h"
#include "profile/trace.h"

namespace gpuport {

// rocprof v1/v2 results.csv: "Index","KernelName","gpu-id","queue-id",...,"BeginNs","EndNs",...
tl::expected<void, TraceError> read_rocprof_csv(CsvTable& table, Trace& trace);

// rocprofv3 *_kernel_trace.csv (both vintages) and rocprofv2's file-plugin CSV:
// "Kind","Agent_Id","Queue_Id",...,"Kernel_Name","Correlation_Id","Start_Timestamp",...
tl::expected<void, TraceError> read_rocprofv3_csv(CsvTable& table, Trace& trace);

// rocprof results.stats.csv and rocprofv3 *_kernel_stats.csv: "Name","Calls","TotalDurationNs",...
tl::expected<void, TraceError> read_rocprof_stats_csv(CsvTable& table, Trace& trace);

// nsys stats cuda_gpu_kern_sum / cuda_gpu_kern_gb_sum: "Time (%)","Total Time (ns)","Instances",...
tl::expected<void, TraceError> read_nsys_stats_csv(CsvTable& table, Trace& trace);

// True when the header is an nsys stats report's ("Time (%)", "Total Time (..)", "Instances").
bool looks_like_nsys_stats(const CsvTable& table);
// The missing-column error when that header is not a kernel summary (another nsys report, such
// as cuda_api_sum with "Num Calls"); nothing when it is one.
std::optional<TraceError> check_nsys_kernel_summary(const CsvTable& table);

}  // namespace gpuport
