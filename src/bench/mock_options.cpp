#include "bench/mock_options.h"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace gpuport {

namespace {

struct FaultName {
  FaultKind kind;
  std::string_view short_name;
  std::string_view long_name;
};

constexpr std::array<FaultName, 5> k_fault_names = {{
    {FaultKind::close_mid_stream, "close", "close-mid-stream"},
    {FaultKind::malformed_sse, "malformed", "malformed-sse"},
    {FaultKind::http_500, "500", "http-500"},
    {FaultKind::http_429, "429", "http-429"},
    {FaultKind::never_answer, "hang", "never-answer"},
}};

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') {
    text.remove_prefix(1);
  }
  while (!text.empty() && text.back() == ' ') {
    text.remove_suffix(1);
  }
  return text;
}

tl::expected<double, std::string> parse_number(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return tl::unexpected(fmt::format("'{}' is not a number", text));
  }
  return value;
}

}  // namespace

tl::expected<std::int64_t, std::string> parse_mock_duration_ns(std::string_view text) {
  text = trim(text);
  double scale = 1e6;  // a bare number is milliseconds
  std::string_view number = text;
  if (text.ends_with("us")) {
    scale = 1e3;
    number.remove_suffix(2);
  } else if (text.ends_with("ms")) {
    number.remove_suffix(2);
  } else if (text.ends_with("s")) {
    scale = 1e9;
    number.remove_suffix(1);
  }
  if (number.empty()) {
    return tl::unexpected(fmt::format("duration '{}' has no number (e.g. 50ms, 2s, 250us)", text));
  }
  auto value = parse_number(number);
  if (!value) {
    return tl::unexpected(
        fmt::format("duration '{}': {} (e.g. 50ms, 2s, 250us)", text, value.error()));
  }
  const double ns = *value * scale;
  if (ns < 0) {
    return tl::unexpected(fmt::format("duration '{}' is negative", text));
  }
  if (ns > 1e9 * 86400 * 365) {
    return tl::unexpected(fmt::format("duration '{}' is longer than a year", text));
  }
  return static_cast<std::int64_t>(std::llround(ns));
}

std::string format_mock_duration(std::int64_t ns) {
  if (ns != 0 && ns % 1'000'000'000 == 0) {
    return fmt::format("{}s", ns / 1'000'000'000);
  }
  if (ns >= 1'000'000'000) {
    return fmt::format("{:g}s", static_cast<double>(ns) / 1e9);
  }
  if (ns % 1'000'000 == 0) {
    return fmt::format("{}ms", ns / 1'000'000);
  }
  if (ns >= 1'000'000) {
    return fmt::format("{:g}ms", static_cast<double>(ns) / 1e6);
  }
  return fmt::format("{:g}us", static_cast<double>(ns) / 1e3);
}

std::string LatencyDistribution::to_string() const {
  switch (kind) {
    case Kind::constant:
      return "constant:" + format_mock_duration(mean_ns);
    case Kind::normal:
      return "normal:" + format_mock_duration(mean_ns) + "," + format_mock_duration(stddev_ns);
    case Kind::lognormal:
      return "lognormal:" + format_mock_duration(mean_ns) + "," + format_mock_duration(stddev_ns);
  }
  return "";
}

tl::expected<LatencyDistribution, std::string> parse_latency_distribution(std::string_view text) {
  text = trim(text);
  LatencyDistribution result;
  std::string_view parameters = text;
  const std::size_t colon = text.find(':');
  if (colon != std::string_view::npos) {
    const std::string_view kind = text.substr(0, colon);
    parameters = text.substr(colon + 1);
    if (kind == "constant") {
      result.kind = LatencyDistribution::Kind::constant;
    } else if (kind == "normal") {
      result.kind = LatencyDistribution::Kind::normal;
    } else if (kind == "lognormal") {
      result.kind = LatencyDistribution::Kind::lognormal;
    } else {
      return tl::unexpected(fmt::format(
          "distribution '{}': unknown kind '{}' (use constant, normal or lognormal)", text, kind));
    }
  }
  const std::size_t comma = parameters.find(',');
  const bool constant = result.kind == LatencyDistribution::Kind::constant;
  if (constant && comma != std::string_view::npos) {
    return tl::unexpected(fmt::format("distribution '{}': constant takes one value", text));
  }
  if (!constant && comma == std::string_view::npos) {
    return tl::unexpected(
        fmt::format("distribution '{}': give the mean and the standard deviation, e.g. "
                    "normal:50ms,10ms",
                    text));
  }
  auto mean = parse_mock_duration_ns(parameters.substr(0, comma));
  if (!mean) {
    return tl::unexpected(fmt::format("distribution '{}': {}", text, mean.error()));
  }
  result.mean_ns = *mean;
  if (!constant) {
    auto stddev = parse_mock_duration_ns(parameters.substr(comma + 1));
    if (!stddev) {
      return tl::unexpected(fmt::format("distribution '{}': {}", text, stddev.error()));
    }
    result.stddev_ns = *stddev;
    if (result.kind == LatencyDistribution::Kind::lognormal && result.mean_ns == 0) {
      return tl::unexpected(fmt::format("distribution '{}': a lognormal mean must be > 0", text));
    }
  }
  return result;
}

std::string_view fault_kind_name(FaultKind kind) {
  for (const FaultName& name : k_fault_names) {
    if (name.kind == kind) {
      return name.short_name;
    }
  }
  return "unknown";
}

std::string FaultRule::to_string() const {
  if (every > 0) {
    return fmt::format("{}:every={}", fault_kind_name(kind), every);
  }
  return fmt::format("{}:p={:g}", fault_kind_name(kind), probability);
}

tl::expected<FaultRule, std::string> parse_fault_rule(std::string_view text) {
  text = trim(text);
  const std::size_t colon = text.find(':');
  const std::string_view kind_text = text.substr(0, colon);
  FaultRule rule;
  bool known = false;
  for (const FaultName& name : k_fault_names) {
    if (kind_text == name.short_name || kind_text == name.long_name) {
      rule.kind = name.kind;
      known = true;
    }
  }
  if (!known) {
    return tl::unexpected(fmt::format(
        "fault '{}': unknown kind '{}' (use close, malformed, 500, 429 or hang)", text, kind_text));
  }
  if (colon == std::string_view::npos) {
    return tl::unexpected(fmt::format("fault '{}': say when, e.g. {}:every=10 or {}:p=0.05", text,
                                      kind_text, kind_text));
  }
  const std::string_view when = text.substr(colon + 1);
  if (when.starts_with("every=")) {
    const std::string_view number = when.substr(6);
    std::uint64_t every = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), every);
    if (ec != std::errc() || end != number.data() + number.size() || every == 0) {
      return tl::unexpected(
          fmt::format("fault '{}': every= needs a whole number of requests >= 1", text));
    }
    rule.every = every;
    return rule;
  }
  if (when.starts_with("p=")) {
    auto probability = parse_number(when.substr(2));
    if (!probability || *probability < 0 || *probability > 1) {
      return tl::unexpected(fmt::format("fault '{}': p= needs a probability from 0 to 1", text));
    }
    rule.probability = *probability;
    return rule;
  }
  return tl::unexpected(
      fmt::format("fault '{}': expected every=N or p=P after ':', got '{}'", text, when));
}

}  // namespace gpuport
