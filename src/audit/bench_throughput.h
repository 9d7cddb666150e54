// A platform's sustained throughput read from a `gpuport bench` result: its throughput at the
// SLO, or, for a run without an SLO, its request throughput with a note saying so. A result
// whose SLO no load met has no usable throughput and is refused.
#pragma once

#include <string>

#include <tl/expected.hpp>

#include "audit/config.h"

namespace gpuport {

struct BenchThroughput {
  double throughput_rps = 0;
  ThroughputSource source;
};

// Errors are one line naming the file: "mi300x.json: no load met the SLO p95_ttft=500ms, ...".
tl::expected<BenchThroughput, std::string> read_bench_throughput(const std::string& path);

// Puts a bench throughput in place of the platform's throughput_rps.
void use_bench_throughput(PlatformConfig& platform, const BenchThroughput& bench);

}  // namespace gpuport
