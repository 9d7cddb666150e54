// BenchResult <-> JSON (docs/bench-json.md), and the operations on saved results: merge (runs of
// several client machines against one server at the same time) and compare (NVIDIA vs AMD).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

#include "bench/bench_result.h"

namespace gpuport {

// Flat vLLM-compatible keys (`request_throughput`, `mean_ttft_ms`, `p99_ttft_ms`, `p99.9_itl_ms`,
// ...) at the top level, plus `schema_version`, `config`, `errors`, `histograms` and `sweep`.
std::string bench_result_to_json(const BenchResult& result);

// `name` stands for the file in errors: "h100.json:1:57: expected a number for 'completed'".
tl::expected<BenchResult, std::string> bench_result_from_json(std::string_view text,
                                                              std::string_view name);

// Counts add, histograms merge exactly, duration is the longest; refuses results whose
// configuration differs in api, model, stream, mode or load ("cannot merge: a.json ran at
// concurrency 32, b.json at 64"). Sweeps are merged level by level when their loads agree.
tl::expected<BenchResult, std::string> merge_bench_results(const std::vector<BenchResult>& results,
                                                           const std::vector<std::string>& names);

}  // namespace gpuport
