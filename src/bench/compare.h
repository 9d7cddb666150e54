// `gpuport bench compare A B`: two saved results side by side (typically the same workload on an
// NVIDIA and an AMD deployment), each metric with the ratio B/A and which side is better, plus
// notes where the two runs were not the same experiment.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/bench_result.h"

namespace gpuport {

enum class Better { higher, lower };

struct CompareRow {
  std::string metric;  // the JSON key: "request_throughput", "p99_ttft_ms", ...
  std::string unit;    // "req/s", "tok/s", "ms", "requests", "%"
  Better better = Better::lower;
  std::optional<double> a, b;   // unset where a result has no value (no SLO, no such series)
  std::optional<double> ratio;  // b / a; unset when either is missing or a is 0
  // "a", "b" or "same" (within 0.5 %); empty when a value is missing.
  std::string winner;
};

struct BenchComparison {
  std::string name_a, name_b;
  std::string model_a, model_b;
  std::vector<CompareRow> rows;
  std::vector<std::string> notes;  // configuration differences, estimated tokens, failures
};

BenchComparison compare_bench_results(const BenchResult& a, const BenchResult& b,
                                      const std::string& name_a, const std::string& name_b);

std::string render_comparison_text(const BenchComparison& comparison);
// {"schema_version": 1, "a": {...}, "b": {...}, "rows": [...], "notes": [...]}; see
// docs/bench-json.md.
std::string render_comparison_json(const BenchComparison& comparison);

}  // namespace gpuport
