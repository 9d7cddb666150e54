// merge_bench_results: runs of several client machines against one server at the same time
// become one result. Counts add, histograms merge bucket by bucket, the window is the longest
// run's, and throughputs are recomputed over it; the SLO outcome is judged again on the merge.
#include <algorithm>

#include <fmt/format.h>

#include "bench/metrics.h"
#include "bench/result_json.h"

namespace gpuport {

namespace {

std::string load_text(const BenchConfig& c) {
  return c.mode == LoadMode::rate ? fmt::format("rate {} req/s", c.rate)
                                  : fmt::format("concurrency {}", c.concurrency);
}

// The first configuration difference that makes two results not one experiment, or "".
std::string difference(const BenchConfig& a, const BenchConfig& b, const std::string& name_a,
                       const std::string& name_b) {
  const auto differ = [&](std::string_view what, const std::string& x, const std::string& y) {
    return fmt::format("cannot merge: {} ran {} {}, {} {} {}", name_a, what, x, name_b, what, y);
  };
  if (a.api != b.api) {
    return differ("the API",
                  a.api == ApiKind::chat      ? "chat"
                  : a.api == ApiKind::generic ? "generic"
                                              : "completions",
                  b.api == ApiKind::chat      ? "chat"
                  : b.api == ApiKind::generic ? "generic"
                                              : "completions");
  }
  if (a.model != b.model) {
    return differ("model", "'" + a.model + "'", "'" + b.model + "'");
  }
  if (a.stream != b.stream) {
    return differ("with", a.stream ? "streaming" : "no streaming",
                  b.stream ? "streaming" : "no streaming");
  }
  if (a.mode != b.mode ||
      (a.mode == LoadMode::rate ? a.rate != b.rate : a.concurrency != b.concurrency)) {
    return fmt::format("cannot merge: {} ran at {}, {} at {}", name_a, load_text(a), name_b,
                       load_text(b));
  }
  if (a.slo != b.slo) {
    return fmt::format("cannot merge: {} was judged against SLO '{}', {} against '{}'", name_a,
                       a.slo, name_b, b.slo);
  }
  return "";
}

void add_into(BenchMeasurement& into, const BenchMeasurement& m) {
  into.duration_s = std::max(into.duration_s, m.duration_s);
  into.completed += m.completed;
  into.failed += m.failed;
  for (const auto& [name, count] : m.errors) {
    into.errors[name] += count;
  }
  for (const auto& [status, count] : m.http_status_counts) {
    into.http_status_counts[status] += count;
  }
  for (const auto& sample : m.error_samples) {
    if (into.error_samples.size() < 10 &&
        std::find(into.error_samples.begin(), into.error_samples.end(), sample) ==
            into.error_samples.end()) {
      into.error_samples.push_back(sample);
    }
  }
  into.total_input_tokens += m.total_input_tokens;
  into.total_output_tokens += m.total_output_tokens;
  into.tokens_estimated = into.tokens_estimated || m.tokens_estimated;
  // Peaks of separate machines may coincide: their sum is the bound.
  into.max_concurrent_requests += m.max_concurrent_requests;
  into.good_requests += m.good_requests;
  if (m.request_goodput) {
    into.request_goodput = 0;  // recomputed below
  }
  BenchHistograms& h = into.histograms;
  const BenchHistograms& o = m.histograms;
  h.ttft.merge(o.ttft);
  h.tpot.merge(o.tpot);
  h.itl.merge(o.itl);
  h.e2el.merge(o.e2el);
  h.ttft_intended.merge(o.ttft_intended);
  h.e2el_intended.merge(o.e2el_intended);
  h.schedule_lag.merge(o.schedule_lag);
}

void recompute_throughputs(BenchMeasurement& m) {
  const auto per_second = [&](double amount) {
    return m.duration_s > 0 ? amount / m.duration_s : 0.0;
  };
  m.request_throughput = per_second(static_cast<double>(m.completed));
  m.output_throughput = per_second(static_cast<double>(m.total_output_tokens));
  m.total_token_throughput =
      per_second(static_cast<double>(m.total_input_tokens + m.total_output_tokens));
  if (m.request_goodput) {
    m.request_goodput = per_second(static_cast<double>(m.good_requests));
  }
}

}  // namespace

tl::expected<BenchResult, std::string> merge_bench_results(const std::vector<BenchResult>& results,
                                                           const std::vector<std::string>& names) {
  if (results.empty()) {
    return tl::unexpected(std::string("cannot merge: no results"));
  }
  const auto name_of = [&](std::size_t i) {
    return i < names.size() ? names[i] : "result " + std::to_string(i + 1);
  };
  const BenchResult& first = results.front();
  for (std::size_t i = 1; i < results.size(); ++i) {
    const BenchResult& other = results[i];
    if (const std::string why = difference(first.config, other.config, name_of(0), name_of(i));
        !why.empty()) {
      return tl::unexpected(why);
    }
    if (other.sweep.size() != first.sweep.size()) {
      return tl::unexpected(fmt::format("cannot merge: {} has {} sweep levels, {} has {}",
                                        name_of(0), first.sweep.size(), name_of(i),
                                        other.sweep.size()));
    }
    for (std::size_t level = 0; level < first.sweep.size(); ++level) {
      if (first.sweep[level].load != other.sweep[level].load) {
        return tl::unexpected(
            fmt::format("cannot merge: sweep level {} ran at load {} in {}, {} in {}", level + 1,
                        first.sweep[level].load, name_of(0), other.sweep[level].load, name_of(i)));
      }
    }
  }
  BenchResult merged;
  merged.tool_version = first.tool_version;
  merged.date = first.date;
  merged.config = first.config;
  merged.config.clients = 0;
  merged.sweep.resize(first.sweep.size());
  for (std::size_t level = 0; level < first.sweep.size(); ++level) {
    merged.sweep[level].load = first.sweep[level].load;
  }
  for (const BenchResult& result : results) {
    merged.date = std::min(merged.date, result.date);  // ISO 8601 sorts as text
    merged.config.clients += std::max<std::int64_t>(result.config.clients, 1);
    add_into(merged.measurement, result.measurement);
    for (std::size_t level = 0; level < result.sweep.size(); ++level) {
      add_into(merged.sweep[level].measurement, result.sweep[level].measurement);
      merged.sweep[level].saturated =
          merged.sweep[level].saturated || result.sweep[level].saturated;
    }
  }
  recompute_throughputs(merged.measurement);
  for (SweepPoint& point : merged.sweep) {
    recompute_throughputs(point.measurement);
  }
  Slo slo;
  if (!merged.config.slo.empty()) {
    auto parsed = parse_slo(merged.config.slo);
    if (!parsed) {
      return tl::unexpected(name_of(0) + ": " + parsed.error());
    }
    slo = std::move(*parsed);
  }
  apply_slo(merged, slo);
  return merged;
}

}  // namespace gpuport
