// The text summary of a bench result: the vLLM-style headline numbers, one latency table with
// every series (service time and CO-corrected time from the intended send), errors by kind,
// the sweep table and the throughput at the SLO.
#pragma once

#include <string>

#include "bench/bench_result.h"

namespace gpuport {

std::string render_bench_text(const BenchResult& result);

// "concurrency 32 (closed loop)", "rate 10 req/s, poisson arrivals, at most 64 in flight".
std::string describe_load(const BenchConfig& config, double load);

}  // namespace gpuport
