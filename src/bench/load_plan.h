// The open-loop arrival schedule, drawn up front from a seed so a run is reproducible: Poisson
// (exponential gaps), gamma gaps with shape `burstiness` (vLLM's definition: mean gap 1/rate),
// or constant gaps. Offsets are absolute (ns from the start), so a late send never shifts the
// ones after it. The generator is our own (splitmix64 + xoshiro256**, Marsaglia-Tsang gamma), not
// <random>'s distributions, so the same seed gives the same schedule on every standard library.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/bench_result.h"

namespace gpuport {

// Offsets in ns of the first `count` arrivals, or of every arrival before `horizon_ns` when
// count is 0. rate > 0.
std::vector<std::int64_t> arrival_offsets_ns(Arrival arrival, double rate, double burstiness,
                                             std::uint64_t seed, std::uint64_t count,
                                             std::int64_t horizon_ns);

}  // namespace gpuport
