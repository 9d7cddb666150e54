// Service-level objectives as the user writes them: "p95_ttft=500ms,p95_e2el=4s,p99_tpot=50ms".
// Metrics: ttft, tpot, itl, e2el; percentiles p50..p99.9 (any pNN or pNN.N); units us, ms, s
// (a bare number is milliseconds, as in vLLM's --goodput).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

namespace gpuport {

struct SloTerm {
  std::string metric;      // "ttft", "tpot", "itl", "e2el"
  double percentile = 95;  // 0..100
  std::int64_t limit_us = 0;
};

struct Slo {
  std::vector<SloTerm> terms;
  bool empty() const { return terms.empty(); }
  std::string to_string() const;  // canonical: "p95_ttft=500ms,p95_e2el=4000ms"
};

// Errors say which term is wrong: "SLO term 'p95_ttft=5xs': unknown unit 'xs' (use us, ms or s)".
tl::expected<Slo, std::string> parse_slo(std::string_view text);

}  // namespace gpuport
