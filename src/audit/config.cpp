// Laying a project's .gpuport.toml over the embedded defaults: every key must exist in the
// defaults with the same type (prices may add GPUs), values are range-checked, and the keys that
// changed are recorded for the report.
#include "audit/config.h"
#include "source/bounded_read.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "audit/default_config_text.h"
#include "audit/toml_flat.h"
#include "hipify/mapping.h"

namespace gpuport {

namespace {

// The largest number a config may hold, in size: far above any price, rate, count or weight, and
// small enough that the estimate's products of several inputs stay finite.
constexpr double k_largest_input = 1e12;

constexpr std::string_view k_defaults_name = "gpuport-defaults.toml";
constexpr std::string_view k_prices_prefix = "prices.";

const FlatToml& default_values() {
  static const FlatToml values = [] {
    auto parsed = parse_flat_toml(default_config_text(), std::string(k_defaults_name));
    return parsed ? std::move(*parsed) : FlatToml{};
  }();
  return values;
}

bool is_price_key(std::string_view key) {
  return key.starts_with(k_prices_prefix);
}

bool is_table_in_defaults(std::string_view key) {
  const std::string prefix = std::string(key) + ".";
  auto it = default_values().lower_bound(prefix);
  return it != default_values().end() && std::string_view(it->first).starts_with(prefix);
}

std::string located(const std::string& path, std::uint32_t line, const std::string& what) {
  return line > 0 ? path + ":" + std::to_string(line) + ": " + what : path + ": " + what;
}

bool types_agree(FlatKind expected, FlatKind given) {
  if (expected == FlatKind::Float) {
    return given == FlatKind::Float || given == FlatKind::Integer;
  }
  return expected == given;
}

bool same_value(const FlatValue& a, const FlatValue& b) {
  const bool numeric_a = a.kind == FlatKind::Integer || a.kind == FlatKind::Float;
  const bool numeric_b = b.kind == FlatKind::Integer || b.kind == FlatKind::Float;
  if (numeric_a && numeric_b) {
    return a.number() == b.number();
  }
  return a.toml() == b.toml();
}

// Reads typed values out of the merged map, remembering which keys were read and the first
// value that is out of range.
class Reader {
 public:
  Reader(const FlatToml& merged, const FlatToml& user, std::string path)
      : m_merged(merged), m_user(user), m_path(std::move(path)) {}

  double number(std::string_view key) { return find(key).number(); }
  std::int64_t integer(std::string_view key) {
    const FlatValue& value = find(key);
    const auto* integer = std::get_if<std::int64_t>(&value.value);
    return integer != nullptr ? *integer : 0;
  }
  bool boolean(std::string_view key) {
    const FlatValue& value = find(key);
    const auto* flag = std::get_if<bool>(&value.value);
    return flag != nullptr && *flag;
  }
  std::string string(std::string_view key) {
    const FlatValue& value = find(key);
    const auto* text = std::get_if<std::string>(&value.value);
    return text != nullptr ? *text : std::string();
  }
  std::vector<std::string> strings(std::string_view key) {
    const FlatValue& value = find(key);
    const auto* texts = std::get_if<std::vector<std::string>>(&value.value);
    return texts != nullptr ? *texts : std::vector<std::string>();
  }
  bool from_user(std::string_view key) const { return m_user.find(key) != m_user.end(); }

  // Every number: finite and at most k_largest_input in size, so that the estimate's products
  // stay finite (1e308 became inf, then null or 0 with the wrong verdict).
  double sized(std::string_view key) {
    const double value = number(key);
    if (!(std::fabs(value) <= k_largest_input)) {
      fail(key, fmt::format("must be at most {:g} in size", k_largest_input));
      return 0;
    }
    return value;
  }
  double at_least(std::string_view key, double minimum) {
    const double value = sized(key);
    if (!(value >= minimum)) {
      fail(key, fmt::format("must be at least {:g}", minimum));
    }
    return value;
  }
  double above(std::string_view key, double minimum) {
    const double value = sized(key);
    if (!(value > minimum)) {
      fail(key, fmt::format("must be greater than {:g}", minimum));
    }
    return value;
  }
  double between(std::string_view key, double low, double high) {
    const double value = sized(key);
    if (!(value >= low && value <= high)) {
      fail(key, fmt::format("must be between {:g} and {:g}", low, high));
    }
    return value;
  }
  void fail(std::string_view key, const std::string& what) {
    if (m_error.empty()) {
      const FlatValue& value = find(key);
      m_error = located(m_path, line_of(key),
                        "'" + std::string(key) + "' = " + value.toml() + ": " + what);
    }
  }
  std::uint32_t line_of(std::string_view key) const {
    auto it = m_user.find(key);
    return it != m_user.end() ? it->second.line : 0;
  }

  const std::string& error() const { return m_error; }
  const std::set<std::string, std::less<>>& read() const { return m_read; }

 private:
  const FlatValue& find(std::string_view key) {
    static const FlatValue missing;
    m_read.emplace(key);
    auto it = m_merged.find(key);
    return it != m_merged.end() ? it->second : missing;
  }

  const FlatToml& m_merged;
  const FlatToml& m_user;
  std::string m_path;
  std::string m_error;
  std::set<std::string, std::less<>> m_read;
};

SpreadFactors spread(Reader& in, std::string_view tier) {
  const std::string base = "effort.range." + std::string(tier);
  return {in.between(base + "_low", 0, 1), in.at_least(base + "_high", 1)};
}

PlatformConfig platform(Reader& in, std::string_view vendor, const CostConfig& cost) {
  const std::string base = "cost." + std::string(vendor) + ".";
  PlatformConfig out;
  out.gpu = in.string(base + "gpu");
  if (auto price = cost.prices.find(out.gpu); price != cost.prices.end()) {
    out.gpu_price_per_hour = price->second;
  } else {
    std::string known;
    for (const auto& [name, value] : cost.prices) {
      known += (known.empty() ? "" : ", ") + name;
    }
    in.fail(base + "gpu", "no price for this GPU in [prices] (known: " + known + ")");
  }
  out.gpus_per_replica = static_cast<std::int64_t>(in.at_least(base + "gpus_per_replica", 1));
  out.throughput_rps = in.above(base + "throughput_rps", 0);
  out.throughput_assumed = !in.from_user(base + "throughput_rps");
  return out;
}

AuditConfig build_config(Reader& in, const FlatToml& merged) {
  AuditConfig config;
  EffortConfig& effort = config.effort;
  effort.hours_per_day = in.above("effort.hours_per_day", 0);
  effort.tier_weight = {
      in.at_least("effort.tier_weight.config", 0), in.at_least("effort.tier_weight.mechanical", 0),
      in.at_least("effort.tier_weight.retune", 0), in.at_least("effort.tier_weight.rewrite", 0)};
  effort.config_range = spread(in, "config");
  effort.mechanical_range = spread(in, "mechanical");
  effort.retune_range = spread(in, "retune");
  effort.rewrite_range = spread(in, "rewrite");
  effort.project_range = spread(in, "project");

  MechanicalWeights& mechanical = effort.mechanical;
  mechanical.unsupported_api_days = in.at_least("effort.mechanical.unsupported_api_days", 0);
  mechanical.needs_review_hours = in.at_least("effort.mechanical.needs_review_hours", 0);
  mechanical.file_hours = in.at_least("effort.mechanical.file_hours", 0);
  in.at_least("effort.mechanical.small_kernel_lines", 0);
  mechanical.small_kernel_lines = in.integer("effort.mechanical.small_kernel_lines");
  in.at_least("effort.mechanical.large_kernel_lines",
              static_cast<double>(mechanical.small_kernel_lines));
  mechanical.large_kernel_lines = in.integer("effort.mechanical.large_kernel_lines");
  mechanical.small_kernel_days = in.at_least("effort.mechanical.small_kernel_days", 0);
  mechanical.medium_kernel_days = in.at_least("effort.mechanical.medium_kernel_days", 0);
  mechanical.large_kernel_days = in.at_least("effort.mechanical.large_kernel_days", 0);

  effort.validation.base_days = in.at_least("effort.validation.base_days", 0);
  effort.validation.framework_days = in.at_least("effort.validation.framework_days", 0);
  effort.existing_build.base_days = in.at_least("effort.existing_build.base_days", 0);
  effort.existing_build.kernel_file_hours =
      in.at_least("effort.existing_build.kernel_file_hours", 0);

  effort.retune.hot_kernel_days = in.at_least("effort.retune.hot_kernel_days", 0);
  effort.retune.finding_days = in.at_least("effort.retune.finding_days", 0);

  RewriteWeights& rewrite = effort.rewrite;
  rewrite.ptx_kind_days = in.at_least("effort.rewrite.ptx_kind_days", 0);
  rewrite.mma_kind_days = in.at_least("effort.rewrite.mma_kind_days", 0);
  rewrite.cutlass_family_days = in.at_least("effort.rewrite.cutlass_family_days", 0);
  rewrite.tensorrt_engine_days = in.at_least("effort.rewrite.tensorrt_engine_days", 0);
  rewrite.tensorrt_project_days = in.at_least("effort.rewrite.tensorrt_project_days", 0);
  rewrite.cudnn_graph_days = in.at_least("effort.rewrite.cudnn_graph_days", 0);
  rewrite.cubin_days = in.at_least("effort.rewrite.cubin_days", 0);
  rewrite.hot_weight = in.at_least("effort.rewrite.hot_weight", 0);
  rewrite.cold_weight = in.at_least("effort.rewrite.cold_weight", 0);
  rewrite.untraced_weight = in.at_least("effort.rewrite.untraced_weight", 0);

  config.hot.threshold = in.between("hot.threshold", 0, 1);
  config.hot.include_p95_steps = in.boolean("hot.include_p95_steps");

  config.no_trace.low_factor = in.between("no_trace.low_factor", 0, 1);
  config.no_trace.high_factor = in.at_least("no_trace.high_factor", 1);
  config.no_trace.kernel_weight = in.between("no_trace.kernel_weight", 0, 1);

  CostConfig& cost = config.cost;
  for (const auto& [key, value] : merged) {
    if (is_price_key(key)) {
      cost.prices[key.substr(k_prices_prefix.size())] = in.above(key, 0);
    }
  }
  cost.day_rate = in.at_least("cost.day_rate", 0);
  cost.monthly_requests = in.at_least("cost.monthly_requests", 0);
  cost.payback_horizon_months = in.above("cost.payback_horizon_months", 0);
  cost.nvidia = platform(in, "nvidia", cost);
  cost.amd = platform(in, "amd", cost);

  config.verdict.validation_max_days = in.at_least("verdict.validation_max_days", 0);
  config.verdict.existing_build_extra_share = in.at_least("verdict.existing_build_extra_share", 0);
  config.verdict.bounded_max_days =
      in.at_least("verdict.bounded_max_days", config.verdict.validation_max_days);

  config.magnitude.min_lines_per_day = in.above("magnitude.min_lines_per_day", 0);
  config.magnitude.max_lines_per_day =
      in.at_least("magnitude.max_lines_per_day", config.magnitude.min_lines_per_day);
  config.magnitude.min_port_days = in.at_least("magnitude.min_port_days", 0);

  config.scan_exclude = in.strings("scan.exclude");
  if (const std::string rocm = in.string("hipify.rocm"); !rocm.empty()) {
    const std::optional<RocmRelease> release = parse_supported_rocm_release(rocm);
    if (!release) {
      in.fail("hipify.rocm",
              "gpuport's tables cover " + rocm_releases_covered() + " (\"MAJOR.MINOR\")");
    } else {
      config.hipify_rocm = *release;
    }
  }
  return config;
}

// Checks the user's keys against the defaults and lays them over; records what changed.
tl::expected<FlatToml, ConfigError> merge(const FlatToml& user, const std::string& path,
                                          std::vector<ConfigOverride>& overrides) {
  FlatToml merged = default_values();
  for (const auto& [key, value] : user) {
    auto known = merged.find(key);
    const bool price = is_price_key(key) && key.size() > k_prices_prefix.size();
    if (value.kind == FlatKind::Table && (is_table_in_defaults(key) || key == "prices")) {
      continue;  // an empty table the defaults have too: `[effort]` with nothing under it
    }
    if (known == merged.end() || (is_price_key(key) && !price)) {
      if (price) {
        if (value.kind != FlatKind::Integer && value.kind != FlatKind::Float) {
          return tl::unexpected(ConfigError{located(
              path, value.line,
              "'" + key + "' must be a number, not " + std::string(flat_kind_name(value.kind)))});
        }
        overrides.push_back({key, "", value.toml(), value.line});
        merged[key] = value;
        continue;
      }
      if (is_table_in_defaults(key)) {
        return tl::unexpected(ConfigError{located(path, value.line,
                                                  "'" + key + "' is a table of settings, not " +
                                                      std::string(flat_kind_name(value.kind)))});
      }
      return tl::unexpected(ConfigError{located(
          path, value.line,
          "unknown key '" + key + "' (gpuport audit --print-default-config lists every key)")});
    }
    if (!types_agree(known->second.kind, value.kind)) {
      return tl::unexpected(ConfigError{
          located(path, value.line,
                  "'" + key + "' must be " + std::string(flat_kind_name(known->second.kind)) +
                      ", not " + std::string(flat_kind_name(value.kind)))});
    }
    if (!same_value(known->second, value)) {
      overrides.push_back({key, known->second.toml(), value.toml(), value.line});
    }
    known->second = value;
  }
  return merged;
}

}  // namespace

std::string_view default_config_text() {
  return generated::k_default_config_text;
}

AuditConfig default_audit_config() {
  const FlatToml none;
  Reader in(default_values(), none, std::string(k_defaults_name));
  return build_config(in, default_values());
}

tl::expected<AuditConfig, ConfigError> parse_audit_config(std::string_view text,
                                                          const std::string& path) {
  auto user = parse_flat_toml(text, path);
  if (!user) {
    return tl::unexpected(ConfigError{user.error()});
  }
  std::vector<ConfigOverride> overrides;
  auto merged = merge(*user, path, overrides);
  if (!merged) {
    return tl::unexpected(merged.error());
  }
  Reader in(*merged, *user, path);
  AuditConfig config = build_config(in, *merged);
  if (!in.error().empty()) {
    return tl::unexpected(ConfigError{in.error()});
  }
  config.path = path;
  config.overrides = std::move(overrides);  // user keys come out of a map: sorted by key
  return config;
}

tl::expected<AuditConfig, ConfigError> load_audit_config(const std::string& path) {
  auto text = read_bounded_file(path, k_config_file_limit, "gpuport config");
  if (!text) {
    const std::string& why = text.error().message;
    return tl::unexpected(ConfigError{
        path + ": cannot read: " + (why == "is a directory" ? "it is a directory" : why)});
  }
  return parse_audit_config(*text, path);
}

std::vector<std::string> unread_default_keys() {
  const FlatToml none;
  Reader in(default_values(), none, std::string(k_defaults_name));
  build_config(in, default_values());
  std::vector<std::string> unread;
  for (const auto& [key, value] : default_values()) {
    if (!is_price_key(key) && in.read().find(key) == in.read().end()) {
      unread.push_back(key);
    }
  }
  return unread;
}

}  // namespace gpuport
