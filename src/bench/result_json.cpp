// BenchResult as JSON (docs/bench-json.md) and back. The flat vLLM-style summary keys are
// written for people and other tools; reading takes the histograms as the truth and ignores the
// summaries, so a merged or re-read result never disagrees with its own histograms.
#include "bench/result_json.h"

#include <charconv>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "bench/bench_names.h"
#include "bench/json_value.h"
#include "bench/metrics.h"
#include "bench/slo.h"

namespace gpuport {

namespace {

// The largest number a result may hold: far above any count, rate or time a run produces.
constexpr double k_largest_result_number = 1e15;

std::string number_text(double value) {
  return std::isfinite(value) ? fmt::format("{}", value) : "0";
}

// Indented JSON with one member per line; short arrays stay on one line.
class JsonOut {
 public:
  std::string take() { return std::move(text_); }
  void begin(char bracket) {
    text_ += bracket;
    first_.push_back(true);
  }
  void end(char bracket) {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) {
      newline();
    }
    text_ += bracket;
  }
  void key(std::string_view name) {
    item();
    text_ += json_quoted(name);
    text_ += ": ";
  }
  void item() {
    if (!first_.back()) {
      text_ += ',';
    }
    first_.back() = false;
    newline();
  }
  void raw(std::string_view text) { text_ += text; }
  void field(std::string_view name, std::string_view raw_value) {
    key(name);
    text_ += raw_value;
  }
  void string(std::string_view name, std::string_view value) { field(name, json_quoted(value)); }
  void number(std::string_view name, double value) { field(name, number_text(value)); }
  void integer(std::string_view name, std::int64_t value) { field(name, std::to_string(value)); }
  void count(std::string_view name, std::uint64_t value) { field(name, std::to_string(value)); }
  void boolean(std::string_view name, bool value) { field(name, value ? "true" : "false"); }
  void optional(std::string_view name, const std::optional<double>& value) {
    field(name, value ? number_text(*value) : "null");
  }

 private:
  void newline() {
    text_ += '\n';
    text_.append(2 * first_.size(), ' ');
  }
  std::string text_;
  std::vector<bool> first_;
};

void write_config(JsonOut& out, const BenchConfig& c) {
  out.key("config");
  out.begin('{');
  out.string("url", c.url);
  out.string("api", api_name(c.api));
  out.string("model", c.model);
  out.boolean("stream", c.stream);
  out.string("mode", c.mode == LoadMode::rate ? "rate" : "concurrency");
  out.integer("concurrency", c.concurrency);
  out.number("rate", c.rate);
  out.string("arrival", arrival_name(c.arrival));
  out.number("burstiness", c.burstiness);
  out.count("seed", c.seed);
  out.integer("input_tokens", c.input_tokens);
  out.integer("output_tokens", c.output_tokens);
  out.string("dataset", c.dataset);
  out.number("duration_s", c.duration_s);
  out.integer("requests", c.requests);
  out.number("warmup_s", c.warmup_s);
  out.string("slo", c.slo);
  out.integer("clients", c.clients);
  out.end('}');
}

void write_histogram(JsonOut& out, const char* name, const LatencyHistogram& h) {
  out.key(name);
  out.begin('{');
  out.count("count", h.count());
  out.integer("sum_us", h.sum_us());
  out.integer("min_us", h.min_us());
  out.integer("max_us", h.max_us());
  out.count("clamped", h.clamped());
  std::string buckets = "[";
  for (const auto& [index, count] : h.nonzero_buckets()) {
    buckets += fmt::format("{}[{}, {}]", buckets.size() > 1 ? ", " : "", index, count);
  }
  buckets += "]";
  out.field("buckets", buckets);
  out.end('}');
}

// The measurement's members, written into the object that is open (the top level or a level of
// a sweep).
void write_measurement(JsonOut& out, const BenchMeasurement& m) {
  out.number("duration", m.duration_s);
  out.count("completed", m.completed);
  out.count("failed", m.failed);
  out.integer("total_input_tokens", m.total_input_tokens);
  out.integer("total_output_tokens", m.total_output_tokens);
  out.boolean("tokens_estimated", m.tokens_estimated);
  out.number("request_throughput", m.request_throughput);
  out.optional("request_goodput", m.request_goodput);
  out.number("output_throughput", m.output_throughput);
  out.number("total_token_throughput", m.total_token_throughput);
  out.count("max_concurrent_requests", m.max_concurrent_requests);
  out.count("good_requests", m.good_requests);
  out.key("errors");
  out.begin('{');
  for (const auto& [name, count] : m.errors) {
    out.count(name, count);
  }
  out.end('}');
  out.key("http_status_counts");
  out.begin('{');
  for (const auto& [status, count] : m.http_status_counts) {
    out.count(std::to_string(status), count);
  }
  out.end('}');
  std::string samples = "[";
  for (const auto& sample : m.error_samples) {
    samples += (samples.size() > 1 ? ", " : "") + json_quoted(sample);
  }
  out.field("error_samples", samples + "]");
  for (const SeriesName& series : k_series) {
    const SeriesSummary s = summarize(m.histograms.*series.histogram);
    const std::string n = series.name;
    out.number("mean_" + n + "_ms", s.mean_ms);
    out.number("median_" + n + "_ms", s.median_ms);
    out.number("std_" + n + "_ms", s.std_ms);
    out.number("p50_" + n + "_ms", s.p50_ms);
    out.number("p90_" + n + "_ms", s.p90_ms);
    out.number("p95_" + n + "_ms", s.p95_ms);
    out.number("p99_" + n + "_ms", s.p99_ms);
    out.number("p99.9_" + n + "_ms", s.p999_ms);
    out.number("min_" + n + "_ms", s.min_ms);
    out.number("max_" + n + "_ms", s.max_ms);
  }
  out.key("histograms");
  out.begin('{');
  for (const SeriesName& series : k_series) {
    write_histogram(out, series.name, m.histograms.*series.histogram);
  }
  out.end('}');
}

// Reads with a sticky first error: getters return a default once anything failed, and the
// caller checks `error` at the end, so the walk over the document reads like the schema.
class ResultReader {
 public:
  ResultReader(std::string_view text, std::string_view name) : text_(text), name_(name) {}

  std::optional<std::string> error;

  void fail(const JsonValue& at, const std::string& message) {
    if (!error) {
      error = std::string(name_) + ":" + line_column(text_, at.offset) + ": " + message;
    }
  }
  const JsonValue* member(const JsonValue& object, std::string_view key, bool required = true) {
    const JsonValue* value = object.find(key);
    if (value == nullptr && required) {
      fail(object, "missing '" + std::string(key) + "'");
    }
    return error ? nullptr : value;
  }
  const JsonValue* of_kind(const JsonValue& object, std::string_view key, JsonValue::Kind kind,
                           const char* what, bool required = true) {
    const JsonValue* value = member(object, key, required);
    if (value != nullptr && value->kind != kind) {
      fail(*value, std::string("expected ") + what + " for '" + std::string(key) + "'");
      return nullptr;
    }
    return value;
  }
  double number(const JsonValue& object, std::string_view key, double fallback = 0,
                bool required = true) {
    const JsonValue* value = of_kind(object, key, JsonValue::Kind::number, "a number", required);
    return value == nullptr ? fallback : to_double(*value, key);
  }
  std::optional<double> number_or_null(const JsonValue& object, std::string_view key) {
    const JsonValue* value = member(object, key, false);
    if (value == nullptr || value->kind == JsonValue::Kind::null) {
      return std::nullopt;
    }
    if (value->kind != JsonValue::Kind::number) {
      fail(*value, "expected a number or null for '" + std::string(key) + "'");
      return std::nullopt;
    }
    return to_double(*value, key);
  }
  template <typename Int>
  Int integer(const JsonValue& object, std::string_view key, Int fallback = 0,
              bool required = true) {
    const JsonValue* value = of_kind(object, key, JsonValue::Kind::number, "a number", required);
    return value == nullptr ? fallback : to_integer<Int>(*value, key);
  }
  template <typename Int>
  Int to_integer(const JsonValue& value, std::string_view key) {
    Int out = 0;
    const auto [end, ec] =
        std::from_chars(value.text.data(), value.text.data() + value.text.size(), out);
    if (ec != std::errc() || end != value.text.data() + value.text.size()) {
      fail(value, std::string(std::is_signed_v<Int> ? "expected an integer"
                                                    : "expected a non-negative integer") +
                      " for '" + std::string(key) + "'");
      return 0;
    }
    // Counts are summed when results merge: kept far from the type's end.
    if (static_cast<double>(out) > k_largest_result_number ||
        static_cast<double>(out) < -k_largest_result_number) {
      fail(value, fmt::format("'{}' must be at most {:g} in size", key, k_largest_result_number));
      return 0;
    }
    return out;
  }
  bool boolean(const JsonValue& object, std::string_view key, bool fallback = false,
               bool required = true) {
    const JsonValue* value =
        of_kind(object, key, JsonValue::Kind::boolean, "true or false", required);
    return value == nullptr ? fallback : value->boolean;
  }
  std::string string(const JsonValue& object, std::string_view key, bool required = true) {
    const JsonValue* value = of_kind(object, key, JsonValue::Kind::string, "a string", required);
    return value == nullptr ? std::string() : value->text;
  }

 private:
  double to_double(const JsonValue& value, std::string_view key) {
    double out = 0;
    const auto [end, ec] =
        std::from_chars(value.text.data(), value.text.data() + value.text.size(), out);
    if (ec != std::errc() || !std::isfinite(out)) {
      fail(value, "number out of range for '" + std::string(key) + "'");
      return 0;
    }
    // Every number of a result (rates, times, throughputs) is a size: none is negative, and
    // none is so large that a sum or product over results leaves the finite doubles.
    if (out < 0 || out > k_largest_result_number) {
      fail(value, fmt::format("'{}' must be between 0 and {:g}", key, k_largest_result_number));
      return 0;
    }
    return out;
  }
  std::string_view text_;
  std::string_view name_;
};

BenchConfig read_config(ResultReader& in, const JsonValue& c) {
  BenchConfig config;
  config.url = in.string(c, "url", false);
  const JsonValue* api = in.of_kind(c, "api", JsonValue::Kind::string, "a string");
  if (api != nullptr) {
    if (api->text == "completions") {
      config.api = ApiKind::completions;
    } else if (api->text == "chat") {
      config.api = ApiKind::chat;
    } else if (api->text == "generic") {
      config.api = ApiKind::generic;
    } else {
      in.fail(*api, "unknown api '" + api->text + "' (use completions, chat or generic)");
    }
  }
  config.model = in.string(c, "model");
  config.stream = in.boolean(c, "stream");
  const JsonValue* mode = in.of_kind(c, "mode", JsonValue::Kind::string, "a string");
  if (mode != nullptr) {
    if (mode->text == "rate") {
      config.mode = LoadMode::rate;
    } else if (mode->text != "concurrency") {
      in.fail(*mode, "unknown mode '" + mode->text + "' (use concurrency or rate)");
    }
  }
  config.concurrency = in.integer<std::int64_t>(c, "concurrency");
  config.rate = in.number(c, "rate");
  if (const JsonValue* arrival =
          in.of_kind(c, "arrival", JsonValue::Kind::string, "a string", false)) {
    if (arrival->text == "gamma") {
      config.arrival = Arrival::gamma;
    } else if (arrival->text == "constant") {
      config.arrival = Arrival::constant;
    } else if (arrival->text != "poisson") {
      in.fail(*arrival, "unknown arrival '" + arrival->text + "' (use poisson, gamma or constant)");
    }
  }
  config.burstiness = in.number(c, "burstiness", 1.0, false);
  config.seed = in.integer<std::uint64_t>(c, "seed", 0, false);
  config.input_tokens = in.integer<std::int64_t>(c, "input_tokens", 0, false);
  config.output_tokens = in.integer<std::int64_t>(c, "output_tokens", 0, false);
  config.dataset = in.string(c, "dataset", false);
  config.duration_s = in.number(c, "duration_s", 0, false);
  config.requests = in.integer<std::int64_t>(c, "requests", 0, false);
  config.warmup_s = in.number(c, "warmup_s", 0, false);
  // Checked here, so that a result whose SLO cannot be applied again (by merge) is refused with
  // the position of the text.
  if (const JsonValue* slo = in.of_kind(c, "slo", JsonValue::Kind::string, "a string", false)) {
    config.slo = slo->text;
    if (const auto parsed = parse_slo(config.slo); !config.slo.empty() && !parsed) {
      in.fail(*slo, "bad 'slo': " + parsed.error());
    }
  }
  config.clients = in.integer<std::int64_t>(c, "clients", 1, false);
  return config;
}

LatencyHistogram read_histogram(ResultReader& in, const JsonValue& histograms, const char* name) {
  const JsonValue* h = in.of_kind(histograms, name, JsonValue::Kind::object, "an object");
  if (h == nullptr) {
    return {};
  }
  const auto count = in.integer<std::uint64_t>(*h, "count");
  const auto sum = in.integer<std::int64_t>(*h, "sum_us");
  const auto min = in.integer<std::int64_t>(*h, "min_us");
  const auto max = in.integer<std::int64_t>(*h, "max_us");
  const auto clamped = in.integer<std::uint64_t>(*h, "clamped");
  const JsonValue* buckets = in.of_kind(*h, "buckets", JsonValue::Kind::array, "an array");
  if (buckets == nullptr) {
    return {};
  }
  std::vector<std::pair<std::size_t, std::uint64_t>> parts;
  for (const JsonValue& bucket : buckets->items) {
    if (bucket.kind != JsonValue::Kind::array || bucket.items.size() != 2 ||
        bucket.items[0].kind != JsonValue::Kind::number ||
        bucket.items[1].kind != JsonValue::Kind::number) {
      in.fail(bucket, std::string("expected [index, count] in the buckets of '") + name + "'");
      return {};
    }
    parts.emplace_back(in.to_integer<std::size_t>(bucket.items[0], "buckets"),
                       in.to_integer<std::uint64_t>(bucket.items[1], "buckets"));
  }
  if (in.error) {
    return {};
  }
  auto histogram = LatencyHistogram::from_parts(parts, sum, min, max, clamped);
  if (!histogram) {
    in.fail(*h, std::string("histogram '") + name + "': " + histogram.error());
    return {};
  }
  if (histogram->count() != count) {
    in.fail(*h, fmt::format("histogram '{}': count {} but the buckets add up to {}", name, count,
                            histogram->count()));
    return {};
  }
  return *histogram;
}

BenchMeasurement read_measurement(ResultReader& in, const JsonValue& object) {
  BenchMeasurement m;
  m.duration_s = in.number(object, "duration");
  m.completed = in.integer<std::uint64_t>(object, "completed");
  m.failed = in.integer<std::uint64_t>(object, "failed");
  m.total_input_tokens = in.integer<std::int64_t>(object, "total_input_tokens");
  m.total_output_tokens = in.integer<std::int64_t>(object, "total_output_tokens");
  m.tokens_estimated = in.boolean(object, "tokens_estimated", false, false);
  m.request_throughput = in.number(object, "request_throughput");
  m.request_goodput = in.number_or_null(object, "request_goodput");
  m.output_throughput = in.number(object, "output_throughput");
  m.total_token_throughput = in.number(object, "total_token_throughput");
  m.max_concurrent_requests =
      in.integer<std::uint64_t>(object, "max_concurrent_requests", 0, false);
  m.good_requests = in.integer<std::uint64_t>(object, "good_requests", 0, false);
  if (const JsonValue* errors =
          in.of_kind(object, "errors", JsonValue::Kind::object, "an object", false)) {
    for (const auto& [name, value] : errors->members) {
      m.errors[name] = in.to_integer<std::uint64_t>(value, name);
    }
  }
  if (const JsonValue* statuses =
          in.of_kind(object, "http_status_counts", JsonValue::Kind::object, "an object", false)) {
    for (const auto& [status, value] : statuses->members) {
      int code = 0;
      const auto [end, ec] = std::from_chars(status.data(), status.data() + status.size(), code);
      if (ec != std::errc() || end != status.data() + status.size() || code < 100 || code > 999) {
        in.fail(value, "'" + status + "' is not an HTTP status in 'http_status_counts'");
        break;
      }
      m.http_status_counts[code] = in.to_integer<std::uint64_t>(value, status);
    }
  }
  if (const JsonValue* samples =
          in.of_kind(object, "error_samples", JsonValue::Kind::array, "an array", false)) {
    for (const JsonValue& sample : samples->items) {
      if (sample.kind != JsonValue::Kind::string) {
        in.fail(sample, "expected a string in 'error_samples'");
        break;
      }
      m.error_samples.push_back(sample.text);
    }
  }
  if (const JsonValue* histograms =
          in.of_kind(object, "histograms", JsonValue::Kind::object, "an object")) {
    for (const SeriesName& series : k_series) {
      m.histograms.*series.histogram = read_histogram(in, *histograms, series.name);
    }
  }
  return m;
}

}  // namespace

std::string bench_result_to_json(const BenchResult& result) {
  JsonOut out;
  out.begin('{');
  out.integer("schema_version", result.schema_version);
  out.string("tool", "gpuport");
  out.string("tool_version", result.tool_version);
  out.string("date", result.date);
  out.boolean("interrupted", result.interrupted);
  write_config(out, result.config);
  // vLLM's names for the run's shape, for tools that read `vllm bench serve` results.
  out.string("backend", result.config.api == ApiKind::chat ? "openai-chat" : "openai");
  out.string("model_id", result.config.model);
  out.field("request_rate", result.config.mode == LoadMode::rate ? number_text(result.config.rate)
                                                                 : std::string("\"inf\""));
  out.number("burstiness", result.config.burstiness);
  out.field("max_concurrency", result.config.concurrency > 0
                                   ? std::to_string(result.config.concurrency)
                                   : std::string("null"));
  write_measurement(out, result.measurement);
  out.optional("throughput_at_slo", result.throughput_at_slo);
  out.optional("load_at_slo", result.load_at_slo);
  out.key("sweep");
  out.begin('[');
  for (const SweepPoint& point : result.sweep) {
    out.item();
    out.begin('{');
    out.number("load", point.load);
    out.field("slo_met", point.slo_met ? (*point.slo_met ? "true" : "false") : "null");
    out.boolean("saturated", point.saturated);
    write_measurement(out, point.measurement);
    out.end('}');
  }
  out.end(']');
  out.end('}');
  out.raw("\n");
  return out.take();
}

tl::expected<BenchResult, std::string> bench_result_from_json(std::string_view text,
                                                              std::string_view name) {
  const auto document = parse_json(text);
  if (!document) {
    return tl::unexpected(std::string(name) + ":" + line_column(text, document.error().offset) +
                          ": " + document.error().message);
  }
  ResultReader in(text, name);
  if (document->kind != JsonValue::Kind::object) {
    in.fail(*document, "expected a JSON object (a gpuport bench result)");
    return tl::unexpected(*in.error);
  }
  BenchResult result;
  const JsonValue* version =
      in.of_kind(*document, "schema_version", JsonValue::Kind::number, "a number");
  if (version != nullptr) {
    result.schema_version = in.to_integer<int>(*version, "schema_version");
    if (!in.error && result.schema_version > k_bench_schema_version) {
      in.fail(*version, fmt::format("schema_version {} is newer than this gpuport reads ({})",
                                    result.schema_version, k_bench_schema_version));
    } else if (!in.error && result.schema_version < 1) {
      in.fail(*version, fmt::format("unsupported schema_version {}", result.schema_version));
    }
  }
  if (in.error) {
    return tl::unexpected(*in.error);
  }
  result.tool_version = in.string(*document, "tool_version", false);
  result.date = in.string(*document, "date", false);
  result.interrupted = in.boolean(*document, "interrupted", false, false);
  if (const JsonValue* config =
          in.of_kind(*document, "config", JsonValue::Kind::object, "an object")) {
    result.config = read_config(in, *config);
  }
  result.measurement = read_measurement(in, *document);
  result.throughput_at_slo = in.number_or_null(*document, "throughput_at_slo");
  result.load_at_slo = in.number_or_null(*document, "load_at_slo");
  if (const JsonValue* sweep =
          in.of_kind(*document, "sweep", JsonValue::Kind::array, "an array", false)) {
    for (const JsonValue& level : sweep->items) {
      if (level.kind != JsonValue::Kind::object) {
        in.fail(level, "expected an object in 'sweep'");
        break;
      }
      SweepPoint point;
      point.load = in.number(level, "load");
      if (const JsonValue* met = in.member(level, "slo_met", false);
          met != nullptr && met->kind != JsonValue::Kind::null) {
        point.slo_met = in.boolean(level, "slo_met");
      }
      point.saturated = in.boolean(level, "saturated", false, false);
      point.measurement = read_measurement(in, level);
      result.sweep.push_back(std::move(point));
    }
  }
  if (in.error) {
    return tl::unexpected(*in.error);
  }
  return result;
}

}  // namespace gpuport
