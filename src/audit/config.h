// The audit's settings: the shipped defaults (config/gpuport-defaults.toml, embedded in the
// binary) with a project's .gpuport.toml laid over them. Every weight, price and threshold the
// effort, cost and verdict models use is a field here; none has a value in code. The same file's
// [scan] table serves every command that scans a tree (scan, hipify, profile --source, audit).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

#include "audit/audit_result.h"

namespace gpuport {

struct TierWeights {
  double config = 0;
  double mechanical = 0;
  double retune = 0;
  double rewrite = 0;
};

struct SpreadFactors {  // low and high as fractions of likely
  double low = 0;
  double high = 0;
};

struct MechanicalWeights {
  double unsupported_api_days = 0;
  double needs_review_hours = 0;
  double file_hours = 0;
  std::int64_t small_kernel_lines = 0;
  std::int64_t large_kernel_lines = 0;
  double small_kernel_days = 0;
  double medium_kernel_days = 0;
  double large_kernel_days = 0;
};

// Validating the stack on AMD when the project has no AMD build of its own.
struct ValidationWeights {
  double base_days = 0;
  double framework_days = 0;
};

// Validating an AMD build the project already has, in place of the mechanical port.
struct ExistingBuildWeights {
  double base_days = 0;
  double kernel_file_hours = 0;
};

struct RetuneWeights {
  double hot_kernel_days = 0;
  double finding_days = 0;
};

struct RewriteWeights {
  double ptx_kind_days = 0;
  double mma_kind_days = 0;
  double cutlass_family_days = 0;  // a family of one file; see project_days()
  double tensorrt_engine_days = 0;
  double tensorrt_project_days = 0;  // TensorRT in one file; see project_days()
  double cudnn_graph_days = 0;       // the cuDNN frontend graph API in one file
  double cubin_days = 0;
  double hot_weight = 0;
  double cold_weight = 0;
  double untraced_weight = 0;
};

struct EffortConfig {
  double hours_per_day = 0;
  TierWeights tier_weight;
  SpreadFactors config_range;
  SpreadFactors mechanical_range;
  SpreadFactors retune_range;
  SpreadFactors rewrite_range;
  SpreadFactors project_range;  // component replacements: TensorRT, a CUTLASS/CuTe family
  MechanicalWeights mechanical;
  ValidationWeights validation;
  ExistingBuildWeights existing_build;
  RetuneWeights retune;
  RewriteWeights rewrite;
};

struct HotConfig {
  double threshold = 0;
  bool include_p95_steps = false;
};

struct NoTraceConfig {
  double low_factor = 0;
  double high_factor = 0;
  double kernel_weight = 0;
};

struct PlatformConfig {
  std::string gpu;
  double gpu_price_per_hour = 0;  // from [prices], by gpu
  std::int64_t gpus_per_replica = 0;
  double throughput_rps = 0;
  bool throughput_assumed = false;  // the project's config did not set throughput_rps
  std::optional<ThroughputSource> throughput_source;  // a bench result replaced throughput_rps
};

struct CostConfig {
  double day_rate = 0;
  double monthly_requests = 0;
  double payback_horizon_months = 0;
  PlatformConfig nvidia;
  PlatformConfig amd;
  std::map<std::string, double> prices;  // dollars per GPU-hour, by GPU name
};

struct VerdictConfig {
  double validation_max_days = 0;
  double bounded_max_days = 0;
  double existing_build_extra_share = 0;
};

// The magnitude check's plausible kernel lines per engineer-day of port work, and the port work
// below which it is not judged.
struct MagnitudeConfig {
  double min_lines_per_day = 0;
  double max_lines_per_day = 0;
  double min_port_days = 0;
};

struct AuditConfig {
  std::optional<std::string> path;  // the project's file; none: the defaults alone
  EffortConfig effort;
  HotConfig hot;
  NoTraceConfig no_trace;
  CostConfig cost;
  VerdictConfig verdict;
  MagnitudeConfig magnitude;
  // [scan] exclude: gitignore-syntax globs of paths every scan of the tree leaves out, applied
  // before the command line's --exclude globs (so a later "!glob" there re-includes).
  std::vector<std::string> scan_exclude;
  // [hipify] rocm: the ROCm release translations are for (RocmRelease); 0: the newest.
  std::uint16_t hipify_rocm = 0;
  std::vector<ConfigOverride> overrides;  // keys the project's file changed, sorted by key
};

// One line, printed as is (exit status 2): "gpuport.toml:7: unknown key 'effort.foo'".
struct ConfigError {
  std::string message;
};

// The shipped defaults file, byte for byte (`gpuport audit --print-default-config`).
std::string_view default_config_text();

// The defaults alone.
AuditConfig default_audit_config();

// `text` is the project's TOML; `path` names it in errors and in AuditConfig::path.
tl::expected<AuditConfig, ConfigError> parse_audit_config(std::string_view text,
                                                          const std::string& path);

// Reads and parses a project's config file.
tl::expected<AuditConfig, ConfigError> load_audit_config(const std::string& path);

// Keys of the defaults file that building an AuditConfig never read: empty unless a key was
// added to the file without a field (checked by a test).
std::vector<std::string> unread_default_keys();

}  // namespace gpuport
