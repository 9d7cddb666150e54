// "p95_ttft=500ms,p99_tpot=50ms": one term per comma, percentile and metric before '=', a limit
// with an optional unit after it.
#include "bench/slo.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>

#include <fmt/format.h>

namespace gpuport {

namespace {

constexpr std::array<std::string_view, 4> k_metrics = {"ttft", "tpot", "itl", "e2el"};

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// A double from the whole of `text` (digits and at most one '.'); no sign, no exponent.
std::optional<double> plain_number(std::string_view text) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string_view::npos ||
      std::count(text.begin(), text.end(), '.') > 1 || text == ".") {
    return std::nullopt;
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::string percentile_text(double p) {
  return fmt::format("{}", p);
}

tl::expected<SloTerm, std::string> parse_term(std::string_view term) {
  const auto bad = [&](const std::string& why) {
    return tl::unexpected("SLO term '" + std::string(term) + "': " + why);
  };
  const std::size_t equals = term.find('=');
  if (equals == std::string_view::npos) {
    return bad("expected pNN_metric=limit, e.g. p95_ttft=500ms");
  }
  const std::string_view name = trim(term.substr(0, equals));
  const std::string_view limit = trim(term.substr(equals + 1));
  const std::size_t underscore = name.find('_');
  if (!name.starts_with('p') || underscore == std::string_view::npos) {
    return bad("expected a percentile and a metric such as p95_ttft before '='");
  }
  SloTerm parsed;
  const auto percentile = plain_number(name.substr(1, underscore - 1));
  if (!percentile || *percentile <= 0 || *percentile > 100) {
    return bad("percentile '" + std::string(name.substr(0, underscore)) +
               "' must be p followed by a number above 0 and at most 100");
  }
  parsed.percentile = *percentile;
  parsed.metric = std::string(name.substr(underscore + 1));
  if (std::find(k_metrics.begin(), k_metrics.end(), parsed.metric) == k_metrics.end()) {
    return bad("unknown metric '" + parsed.metric + "' (use ttft, tpot, itl or e2el)");
  }
  const std::size_t unit_start = limit.find_first_not_of("0123456789.");
  const std::string_view number = limit.substr(0, unit_start);
  const std::string_view unit =
      unit_start == std::string_view::npos ? "" : trim(limit.substr(unit_start));
  const auto value = plain_number(number);
  if (!value) {
    return bad("expected a number after '='");
  }
  double scale = 1000;  // a bare number is milliseconds, as in vLLM's --goodput
  if (unit == "us") {
    scale = 1;
  } else if (unit == "s") {
    scale = 1'000'000;
  } else if (!unit.empty() && unit != "ms") {
    return bad("unknown unit '" + std::string(unit) + "' (use us, ms or s)");
  }
  const double limit_us = std::round(*value * scale);
  if (limit_us < 1) {
    return bad("the limit must be at least 1us");
  }
  if (limit_us > 3.6e9) {
    return bad("the limit must be at most 1 h");
  }
  parsed.limit_us = static_cast<std::int64_t>(limit_us);
  return parsed;
}

}  // namespace

std::string Slo::to_string() const {
  std::string text;
  for (const SloTerm& term : terms) {
    if (!text.empty()) {
      text += ',';
    }
    text += "p" + percentile_text(term.percentile) + "_" + term.metric + "=";
    text += term.limit_us % 1000 == 0 ? std::to_string(term.limit_us / 1000) + "ms"
                                      : std::to_string(term.limit_us) + "us";
  }
  return text;
}

tl::expected<Slo, std::string> parse_slo(std::string_view text) {
  if (trim(text).empty()) {
    return tl::unexpected(std::string("empty SLO: expected terms such as p95_ttft=500ms"));
  }
  Slo slo;
  while (true) {
    const std::size_t comma = text.find(',');
    const std::string_view term = trim(text.substr(0, comma));
    auto parsed = parse_term(term);
    if (!parsed) {
      return tl::unexpected(parsed.error());
    }
    for (const SloTerm& other : slo.terms) {
      if (other.metric == parsed->metric && other.percentile == parsed->percentile) {
        return tl::unexpected("SLO term '" + std::string(term) + "': p" +
                              percentile_text(other.percentile) + "_" + other.metric +
                              " is given twice");
      }
    }
    slo.terms.push_back(std::move(*parsed));
    if (comma == std::string_view::npos) {
      break;
    }
    text.remove_prefix(comma + 1);
  }
  return slo;
}

}  // namespace gpuport
