// Request records to histograms and totals (vLLM's metric definitions; times from the actual send
// time, with the intended-send-time variants beside them), and SLO judgement of the results.
#include "bench/metrics.h"

#include <algorithm>
#include <cmath>

namespace gpuport {

namespace {

constexpr std::size_t k_max_error_samples = 10;

std::int64_t ns_to_us(std::int64_t ns) {
  return (ns + 500) / 1000;
}

double us_to_ms(double us) {
  return us / 1000.0;
}

// The request's own value for a per-request goodput check of `term`.
std::int64_t request_value_us(const RequestRecord& r, const SloTerm& term, std::int64_t e2el_end) {
  if (term.metric == "ttft") {
    return ns_to_us(r.first_token_ns - r.intended_ns);
  }
  if (term.metric == "e2el") {
    return ns_to_us(e2el_end - r.intended_ns);
  }
  if (term.metric == "tpot") {
    if (r.output_tokens <= 1 || r.first_token_ns < 0) {
      return 0;  // vLLM: a request with at most one token has TPOT 0 for goodput
    }
    return ns_to_us((e2el_end - r.first_token_ns) / (r.output_tokens - 1));
  }
  // itl: the request's own gaps at the term's percentile (nearest rank).
  if (r.itl_ns.empty()) {
    return 0;
  }
  std::vector<std::int64_t> gaps = r.itl_ns;
  std::sort(gaps.begin(), gaps.end());
  const auto rank = static_cast<std::size_t>(
      std::ceil(term.percentile / 100.0 * static_cast<double>(gaps.size()) - 1e-9));
  return ns_to_us(gaps[std::clamp<std::size_t>(rank, 1, gaps.size()) - 1]);
}

const LatencyHistogram& series_for(const BenchHistograms& h, const std::string& metric) {
  if (metric == "ttft") {
    return h.ttft_intended;
  }
  if (metric == "e2el") {
    return h.e2el_intended;
  }
  if (metric == "tpot") {
    return h.tpot;
  }
  return h.itl;
}

void add_error_sample(std::vector<std::string>& samples, const std::string& detail) {
  if (!detail.empty() && samples.size() < k_max_error_samples &&
      std::find(samples.begin(), samples.end(), detail) == samples.end()) {
    samples.push_back(detail);
  }
}

double load_of(const BenchConfig& config) {
  return config.mode == LoadMode::rate ? config.rate : static_cast<double>(config.concurrency);
}

}  // namespace

MetricsRecorder::MetricsRecorder(Slo slo) : slo_(std::move(slo)) {}

void MetricsRecorder::record(const RequestRecord& r) {
  if (r.warmup) {
    return;
  }
  BenchHistograms& h = m_.histograms;
  if (r.error == RequestError::cancelled) {
    // Cut off by Ctrl-C: neither a success nor the server's failure.
    ++m_.errors[std::string(request_error_name(r.error))];
    return;
  }
  h.schedule_lag.record(ns_to_us(std::max<std::int64_t>(0, r.sent_ns - r.intended_ns)));
  if (r.error != RequestError::none) {
    ++m_.failed;
    ++m_.errors[std::string(request_error_name(r.error))];
    if (r.http_status != 0 && (r.http_status < 200 || r.http_status > 299)) {
      ++m_.http_status_counts[r.http_status];
    }
    add_error_sample(m_.error_samples, r.error_detail);
    return;
  }
  ++m_.completed;
  // E2EL ends at the last content chunk (not the usage chunk or [DONE]), as vLLM's does.
  const std::int64_t end = r.last_token_ns >= 0 ? r.last_token_ns : r.done_ns;
  if (r.first_token_ns >= 0) {
    h.ttft.record(ns_to_us(r.first_token_ns - r.sent_ns));
    h.ttft_intended.record(ns_to_us(r.first_token_ns - r.intended_ns));
    if (r.output_tokens > 1) {
      h.tpot.record(ns_to_us((end - r.first_token_ns) / (r.output_tokens - 1)));
    }
  }
  if (end >= 0) {
    h.e2el.record(ns_to_us(end - r.sent_ns));
    h.e2el_intended.record(ns_to_us(end - r.intended_ns));
  }
  for (const std::int64_t gap : r.itl_ns) {
    h.itl.record(ns_to_us(gap));
  }
  m_.total_input_tokens += r.prompt_tokens;
  m_.total_output_tokens += r.output_tokens;
  if (!r.prompt_tokens_from_usage || !r.output_tokens_from_usage) {
    m_.tokens_estimated = true;
  }
  if (!slo_.empty() && r.first_token_ns >= 0 &&
      std::all_of(slo_.terms.begin(), slo_.terms.end(), [&](const SloTerm& term) {
        return request_value_us(r, term, end) <= term.limit_us;
      })) {
    ++m_.good_requests;
  }
}

void MetricsRecorder::merge(const MetricsRecorder& other) {
  const BenchMeasurement& o = other.m_;
  m_.completed += o.completed;
  m_.failed += o.failed;
  for (const auto& [name, count] : o.errors) {
    m_.errors[name] += count;
  }
  for (const auto& [status, count] : o.http_status_counts) {
    m_.http_status_counts[status] += count;
  }
  for (const auto& sample : o.error_samples) {
    add_error_sample(m_.error_samples, sample);
  }
  m_.total_input_tokens += o.total_input_tokens;
  m_.total_output_tokens += o.total_output_tokens;
  m_.tokens_estimated = m_.tokens_estimated || o.tokens_estimated;
  m_.good_requests += o.good_requests;
  BenchHistograms& h = m_.histograms;
  const BenchHistograms& oh = o.histograms;
  h.ttft.merge(oh.ttft);
  h.tpot.merge(oh.tpot);
  h.itl.merge(oh.itl);
  h.e2el.merge(oh.e2el);
  h.ttft_intended.merge(oh.ttft_intended);
  h.e2el_intended.merge(oh.e2el_intended);
  h.schedule_lag.merge(oh.schedule_lag);
}

BenchMeasurement MetricsRecorder::finish(double duration_s,
                                         std::uint64_t max_concurrent_requests) const {
  BenchMeasurement m = m_;
  m.duration_s = duration_s;
  m.max_concurrent_requests = max_concurrent_requests;
  const double seconds = duration_s > 0 ? duration_s : 0;
  const auto per_second = [&](double amount) { return seconds > 0 ? amount / seconds : 0.0; };
  m.request_throughput = per_second(static_cast<double>(m.completed));
  m.output_throughput = per_second(static_cast<double>(m.total_output_tokens));
  m.total_token_throughput =
      per_second(static_cast<double>(m.total_input_tokens + m.total_output_tokens));
  if (!slo_.empty()) {
    m.request_goodput = per_second(static_cast<double>(m.good_requests));
  } else {
    m.request_goodput.reset();
    m.good_requests = 0;
  }
  return m;
}

SeriesSummary summarize(const LatencyHistogram& histogram) {
  SeriesSummary s;
  s.count = histogram.count();
  if (s.count == 0) {
    return s;
  }
  const auto at = [&](double p) {
    return us_to_ms(static_cast<double>(histogram.percentile_us(p)));
  };
  s.mean_ms = us_to_ms(histogram.mean_us());
  s.std_ms = us_to_ms(histogram.stddev_us());
  s.p50_ms = at(50);
  s.median_ms = s.p50_ms;
  s.p90_ms = at(90);
  s.p95_ms = at(95);
  s.p99_ms = at(99);
  s.p999_ms = at(99.9);
  s.min_ms = us_to_ms(static_cast<double>(histogram.min_us()));
  s.max_ms = us_to_ms(static_cast<double>(histogram.max_us()));
  return s;
}

std::vector<SloCheck> check_slo(const BenchMeasurement& measurement, const Slo& slo) {
  std::vector<SloCheck> checks;
  const std::uint64_t requests = measurement.completed + measurement.failed;
  for (const SloTerm& term : slo.terms) {
    SloCheck check;
    check.term = term;
    const LatencyHistogram& series = series_for(measurement.histograms, term.metric);
    check.measured_us = series.percentile_us(term.percentile);
    // Failed requests sit above every limit: the pNN-th request must be a completed one.
    const double allowed_failures =
        (100.0 - term.percentile) / 100.0 * static_cast<double>(requests);
    check.failures_exceed = static_cast<double>(measurement.failed) > allowed_failures + 1e-9;
    check.met = requests > 0 && series.count() > 0 && !check.failures_exceed &&
                check.measured_us <= term.limit_us;
    checks.push_back(std::move(check));
  }
  return checks;
}

bool meets_slo(const BenchMeasurement& measurement, const Slo& slo) {
  const auto checks = check_slo(measurement, slo);
  return !checks.empty() &&
         std::all_of(checks.begin(), checks.end(), [](const SloCheck& c) { return c.met; });
}

void apply_slo(BenchResult& result, const Slo& slo) {
  result.throughput_at_slo.reset();
  result.load_at_slo.reset();
  if (result.sweep.empty()) {
    if (!slo.empty() && meets_slo(result.measurement, slo)) {
      result.throughput_at_slo = result.measurement.request_throughput;
      result.load_at_slo = load_of(result.config);
    }
    return;
  }
  const SweepPoint* best = nullptr;
  for (SweepPoint& point : result.sweep) {
    if (slo.empty()) {
      point.slo_met.reset();
      continue;
    }
    point.slo_met = meets_slo(point.measurement, slo);
    if (*point.slo_met && (best == nullptr || point.measurement.request_throughput >
                                                  best->measurement.request_throughput)) {
      best = &point;
    }
  }
  if (best != nullptr) {
    result.throughput_at_slo = best->measurement.request_throughput;
    result.load_at_slo = best->load;
  }
  result.measurement = (best != nullptr ? *best : result.sweep.back()).measurement;
}

}  // namespace gpuport
