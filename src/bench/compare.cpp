// Side-by-side rows of two bench results. Values are computed from the histograms (never from
// the files' summary keys), so what is compared is what was measured.
#include "bench/compare.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/bench_names.h"
#include "bench/metrics.h"

namespace gpuport {

namespace {

std::optional<double> present(double value, bool has) {
  return has ? std::optional<double>(value) : std::nullopt;
}

CompareRow row(std::string metric, std::string unit, Better better, std::optional<double> a,
               std::optional<double> b) {
  CompareRow r{std::move(metric), std::move(unit), better, a, b, std::nullopt, ""};
  if (a && b) {
    if (*a != 0) {
      r.ratio = *b / *a;
    }
    const double scale = std::max(std::abs(*a), std::abs(*b));
    if (std::abs(*a - *b) <= 0.005 * scale) {
      r.winner = "same";
    } else {
      r.winner = (better == Better::higher) == (*a > *b) ? "a" : "b";
    }
  }
  return r;
}

double error_rate(const BenchMeasurement& m) {
  const auto total = static_cast<double>(m.completed + m.failed);
  return total > 0 ? 100.0 * static_cast<double>(m.failed) / total : 0.0;
}

std::string api_text(ApiKind api) {
  return api == ApiKind::chat ? "chat" : api == ApiKind::generic ? "generic" : "completions";
}

std::string load_text(const BenchConfig& c) {
  return c.mode == LoadMode::rate ? fmt::format("rate {} req/s", c.rate)
                                  : fmt::format("concurrency {}", c.concurrency);
}

void config_notes(const BenchConfig& a, const BenchConfig& b, std::vector<std::string>& notes) {
  const auto differs = [&](std::string_view what, const std::string& x, const std::string& y) {
    if (x != y) {
      notes.push_back(fmt::format("not like for like: {} is {} in A, {} in B", what, x, y));
    }
  };
  differs("the API", api_text(a.api), api_text(b.api));
  differs("streaming", a.stream ? "on" : "off", b.stream ? "on" : "off");
  differs("the load", load_text(a), load_text(b));
  differs("input_tokens", std::to_string(a.input_tokens), std::to_string(b.input_tokens));
  differs("output_tokens", std::to_string(a.output_tokens), std::to_string(b.output_tokens));
  differs("the dataset", a.dataset.empty() ? "synthetic" : "'" + a.dataset + "'",
          b.dataset.empty() ? "synthetic" : "'" + b.dataset + "'");
  differs("the SLO", a.slo.empty() ? "none" : a.slo, b.slo.empty() ? "none" : b.slo);
}

void measurement_notes(const BenchMeasurement& m, const char* side,
                       std::vector<std::string>& notes) {
  if (m.failed > 0) {
    std::string kinds;
    for (const auto& [kind, count] : m.errors) {
      if (kind != "cancelled") {
        kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", count, kind);
      }
    }
    notes.push_back(fmt::format("{}: {} of {} requests failed ({})", side, m.failed,
                                m.failed + m.completed, kinds));
  }
  if (m.tokens_estimated) {
    notes.push_back(fmt::format(
        "{}: token counts are estimated (the server reported no usage for some requests)", side));
  }
}

std::string value_text(const std::optional<double>& value, const std::string& unit) {
  if (!value) {
    return "-";
  }
  if (unit == "requests") {
    return fmt::format("{:.0f}", *value);
  }
  const int decimals = unit == "tok/s" ? 1 : 2;
  return fmt::format("{:.{}f} {}", *value, decimals, unit);
}

}  // namespace

BenchComparison compare_bench_results(const BenchResult& a, const BenchResult& b,
                                      const std::string& name_a, const std::string& name_b) {
  BenchComparison c;
  c.name_a = name_a;
  c.name_b = name_b;
  c.model_a = a.config.model;
  c.model_b = b.config.model;
  const BenchMeasurement& ma = a.measurement;
  const BenchMeasurement& mb = b.measurement;
  c.rows.push_back(row("request_throughput", "req/s", Better::higher, ma.request_throughput,
                       mb.request_throughput));
  if (a.throughput_at_slo || b.throughput_at_slo || !a.config.slo.empty() ||
      !b.config.slo.empty()) {
    c.rows.push_back(row("throughput_at_slo", "req/s", Better::higher, a.throughput_at_slo,
                         b.throughput_at_slo));
  }
  if (ma.request_goodput || mb.request_goodput) {
    c.rows.push_back(
        row("request_goodput", "req/s", Better::higher, ma.request_goodput, mb.request_goodput));
  }
  c.rows.push_back(row("output_throughput", "tok/s", Better::higher, ma.output_throughput,
                       mb.output_throughput));
  c.rows.push_back(row("total_token_throughput", "tok/s", Better::higher, ma.total_token_throughput,
                       mb.total_token_throughput));
  c.rows.push_back(row("completed", "requests", Better::higher, static_cast<double>(ma.completed),
                       static_cast<double>(mb.completed)));
  c.rows.push_back(row("error_rate", "%", Better::lower, error_rate(ma), error_rate(mb)));
  for (const SeriesName& series : k_series) {
    const LatencyHistogram& ha = ma.histograms.*series.histogram;
    const LatencyHistogram& hb = mb.histograms.*series.histogram;
    if (ha.count() == 0 && hb.count() == 0) {
      continue;
    }
    const SeriesSummary sa = summarize(ha);
    const SeriesSummary sb = summarize(hb);
    const bool has_a = ha.count() > 0;
    const bool has_b = hb.count() > 0;
    const std::string n = series.name;
    const auto add = [&](const std::string& prefix, double SeriesSummary::*field) {
      c.rows.push_back(row(prefix + "_" + n + "_ms", "ms", Better::lower, present(sa.*field, has_a),
                           present(sb.*field, has_b)));
    };
    add("mean", &SeriesSummary::mean_ms);
    add("p50", &SeriesSummary::p50_ms);
    add("p90", &SeriesSummary::p90_ms);
    add("p95", &SeriesSummary::p95_ms);
    add("p99", &SeriesSummary::p99_ms);
    add("p99.9", &SeriesSummary::p999_ms);
  }
  config_notes(a.config, b.config, c.notes);
  if (a.config.model != b.config.model) {
    c.notes.push_back(
        fmt::format("models differ: '{}' in A, '{}' in B", a.config.model, b.config.model));
  }
  measurement_notes(ma, "A", c.notes);
  measurement_notes(mb, "B", c.notes);
  return c;
}

std::string render_comparison_text(const BenchComparison& c) {
  std::vector<std::array<std::string, 5>> lines;
  lines.push_back({"metric", "A", "B", "B/A", "better"});
  for (const CompareRow& r : c.rows) {
    lines.push_back({r.metric, value_text(r.a, r.unit), value_text(r.b, r.unit),
                     r.ratio ? fmt::format("{:.2f}x", *r.ratio) : "-",
                     r.winner.empty()     ? "-"
                     : r.winner == "same" ? "same"
                     : r.winner == "a"    ? "A"
                                          : "B"});
  }
  std::array<std::size_t, 5> width{};
  for (const auto& line : lines) {
    for (std::size_t i = 0; i < line.size(); ++i) {
      width[i] = std::max(width[i], line[i].size());
    }
  }
  std::string out =
      fmt::format("A: {} ({})\nB: {} ({})\n\n", c.name_a, c.model_a, c.name_b, c.model_b);
  for (const auto& line : lines) {
    out += fmt::format("{:<{}}  {:>{}}  {:>{}}  {:>{}}  {}\n", line[0], width[0], line[1], width[1],
                       line[2], width[2], line[3], width[3], line[4]);
  }
  if (!c.notes.empty()) {
    out += "\n";
    for (const auto& note : c.notes) {
      out += "note: " + note + "\n";
    }
  }
  return out;
}

std::string render_comparison_json(const BenchComparison& c) {
  using nlohmann::ordered_json;
  const auto number = [](const std::optional<double>& v) {
    return v && std::isfinite(*v) ? ordered_json(*v) : ordered_json(nullptr);
  };
  ordered_json json;
  json["schema_version"] = 1;
  json["a"] = {{"name", c.name_a}, {"model", c.model_a}};
  json["b"] = {{"name", c.name_b}, {"model", c.model_b}};
  json["rows"] = ordered_json::array();
  for (const CompareRow& r : c.rows) {
    json["rows"].push_back(
        {{"metric", r.metric},
         {"unit", r.unit},
         {"better", r.better == Better::higher ? "higher" : "lower"},
         {"a", number(r.a)},
         {"b", number(r.b)},
         {"ratio", number(r.ratio)},
         {"winner", r.winner.empty() ? ordered_json(nullptr) : ordered_json(r.winner)}});
  }
  json["notes"] = c.notes;
  return json.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace gpuport
