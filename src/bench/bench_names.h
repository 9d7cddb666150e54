// The names results use for the API kind, the arrival process and the latency series, shared by
// the JSON writer and reader, the text summary and compare.
#pragma once

#include <string_view>

#include "bench/bench_result.h"

namespace gpuport {

std::string_view api_name(ApiKind api);
std::string_view arrival_name(Arrival arrival);

// The latency series as named in JSON, with their place in BenchHistograms.
struct SeriesName {
  const char* name;
  LatencyHistogram BenchHistograms::*histogram;
};
inline constexpr SeriesName k_series[] = {
    {"ttft", &BenchHistograms::ttft},
    {"tpot", &BenchHistograms::tpot},
    {"itl", &BenchHistograms::itl},
    {"e2el", &BenchHistograms::e2el},
    {"ttft_intended", &BenchHistograms::ttft_intended},
    {"e2el_intended", &BenchHistograms::e2el_intended},
    {"schedule_lag", &BenchHistograms::schedule_lag},
};

}  // namespace gpuport
