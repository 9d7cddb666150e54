#include "bench/summary_text.h"

#include <fmt/format.h>

#include "bench/bench_names.h"
#include "bench/metrics.h"

namespace gpuport {

namespace {

constexpr double k_lag_note_ms = 5.0;

void line(std::string& out, std::string_view label, const std::string& value) {
  out += fmt::format("{:<34}{}\n", label, value);
}

std::string number(double value, int decimals = 2) {
  return fmt::format("{:.{}f}", value, decimals);
}

void series_row(std::string& out, std::string_view name, const LatencyHistogram& histogram) {
  if (histogram.count() == 0) {
    out += fmt::format("{:<24}{:>9}\n", name, 0);
    return;
  }
  const SeriesSummary s = summarize(histogram);
  out += fmt::format("{:<24}{:>9}{:>10.2f}{:>10.2f}{:>10.2f}{:>10.2f}{:>10.2f}{:>10.2f}{:>10.2f}\n",
                     name, s.count, s.mean_ms, s.p50_ms, s.p90_ms, s.p95_ms, s.p99_ms, s.p999_ms,
                     s.max_ms);
}

void measurement_text(std::string& out, const BenchMeasurement& m) {
  line(out, "Successful requests:", fmt::format("{}", m.completed));
  line(out, "Failed requests:", fmt::format("{}", m.failed));
  line(out, "Benchmark duration (s):", number(m.duration_s));
  const std::string_view estimated = m.tokens_estimated ? " (some estimated)" : "";
  line(out, "Total input tokens:", fmt::format("{}{}", m.total_input_tokens, estimated));
  line(out, "Total generated tokens:", fmt::format("{}{}", m.total_output_tokens, estimated));
  line(out, "Request throughput (req/s):", number(m.request_throughput));
  if (m.request_goodput) {
    line(out, "Request goodput (req/s):", number(*m.request_goodput));
  }
  line(out, "Output token throughput (tok/s):", number(m.output_throughput));
  line(out, "Total token throughput (tok/s):", number(m.total_token_throughput));
  line(out, "Peak concurrent requests:", fmt::format("{}", m.max_concurrent_requests));
  out += "\n";
  out += fmt::format("{:<24}{:>9}{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}\n", "Latency (ms)",
                     "count", "mean", "p50", "p90", "p95", "p99", "p99.9", "max");
  const BenchHistograms& h = m.histograms;
  series_row(out, "TTFT", h.ttft);
  series_row(out, "TPOT", h.tpot);
  series_row(out, "ITL", h.itl);
  series_row(out, "E2EL", h.e2el);
  series_row(out, "TTFT from intended send", h.ttft_intended);
  series_row(out, "E2EL from intended send", h.e2el_intended);
  series_row(out, "Schedule lag (client)", h.schedule_lag);
  if (!m.errors.empty()) {
    out += "\nErrors:";
    for (const auto& [kind, count] : m.errors) {
      out += fmt::format(" {} {}", kind, count);
    }
    if (!m.http_status_counts.empty()) {
      out += " (";
      bool first = true;
      for (const auto& [status, count] : m.http_status_counts) {
        out += fmt::format("{}HTTP {} x{}", first ? "" : ", ", status, count);
        first = false;
      }
      out += ")";
    }
    out += "\n";
    for (const std::string& sample : m.error_samples) {
      out += "  " + sample + "\n";
    }
  }
  if (h.schedule_lag.count() > 0) {
    const double lag_p99_ms = static_cast<double>(h.schedule_lag.percentile_us(99)) / 1000.0;
    if (lag_p99_ms > k_lag_note_ms) {
      out += fmt::format(
          "\nNote: schedule lag p99 is {:.2f} ms: requests went out after their intended time "
          "(the\n"
          "--concurrency cap held them back, or the client could not keep up). The rows \"from\n"
          "intended send\" include that wait; TTFT and E2EL do not.\n",
          lag_p99_ms);
    }
  }
}

void sweep_text(std::string& out, const BenchResult& result) {
  out += "\nSweep:\n";
  out += fmt::format("{:>10}{:>10}{:>12}{:>11}{:>11}{:>11}{:>8}{:>6}\n", "load", "req/s",
                     "out tok/s", "p50 TTFT", "p95 TTFT", "p99 E2EL", "failed", "SLO");
  for (const SweepPoint& point : result.sweep) {
    const BenchMeasurement& m = point.measurement;
    const auto ms = [](const LatencyHistogram& h, double p) {
      return static_cast<double>(h.percentile_us(p)) / 1000.0;
    };
    const std::string slo = point.slo_met ? (*point.slo_met ? "met" : "missed") : "-";
    out += fmt::format("{:>10}{:>10.2f}{:>12.1f}{:>11.2f}{:>11.2f}{:>11.2f}{:>8}{:>6}{}\n",
                       fmt::format("{:g}", point.load), m.request_throughput, m.output_throughput,
                       ms(m.histograms.ttft_intended, 50), ms(m.histograms.ttft_intended, 95),
                       ms(m.histograms.e2el_intended, 99), m.failed, slo,
                       point.saturated ? "  saturated: sweep stopped" : "");
  }
}

}  // namespace

std::string describe_load(const BenchConfig& config, double load) {
  if (config.mode == LoadMode::concurrency) {
    return fmt::format("concurrency {:g} (closed loop)", load);
  }
  std::string text =
      fmt::format("rate {:g} req/s, {} arrivals", load, arrival_name(config.arrival));
  if (config.arrival == Arrival::gamma) {
    text += fmt::format(" (burstiness {:g})", config.burstiness);
  }
  if (config.concurrency > 0) {
    text += fmt::format(", at most {} in flight", config.concurrency);
  }
  return text;
}

std::string render_bench_text(const BenchResult& result) {
  const BenchConfig& config = result.config;
  std::string out = fmt::format("gpuport bench: {} ({}, {})\n", config.url, api_name(config.api),
                                config.stream ? "streaming" : "not streaming");
  if (!config.model.empty()) {
    line(out, "Model:", config.model);
  }
  const double load =
      config.mode == LoadMode::concurrency ? static_cast<double>(config.concurrency) : config.rate;
  if (result.sweep.empty()) {
    line(out, "Load:", describe_load(config, load));
  } else {
    const double shown = result.load_at_slo ? *result.load_at_slo : result.sweep.back().load;
    line(out, "Load (levels swept):", fmt::format("{}", result.sweep.size()));
    line(out, "Measurement shown:",
         describe_load(config, shown) +
             (result.load_at_slo ? " (highest level meeting the SLO)" : " (last level)"));
  }
  if (!config.slo.empty()) {
    line(out, "SLO:", config.slo);
  }
  if (result.interrupted) {
    out += "\nINTERRUPTED (Ctrl-C): partial results; requests in flight were cancelled.\n";
  }
  out += "\n";
  measurement_text(out, result.measurement);
  if (!result.sweep.empty()) {
    sweep_text(out, result);
  }
  if (!config.slo.empty()) {
    if (result.throughput_at_slo) {
      out += fmt::format("\nThroughput at SLO: {:.2f} req/s at {}\n", *result.throughput_at_slo,
                         describe_load(config, result.load_at_slo.value_or(load)));
    } else {
      out += "\nThroughput at SLO: none (no level met the SLO)\n";
    }
  }
  return out;
}

}  // namespace gpuport
