// The audit pipeline: scan -> translation dry-run -> profiles -> kernels -> effort -> cost ->
// verdict.
#include "audit/audit.h"

#include <fmt/format.h>

#include <tuple>

#include "audit/bench_throughput.h"
#include "audit/cost.h"
#include "audit/dry_run.h"
#include "audit/effort.h"
#include "audit/findings.h"
#include "audit/hot_kernels.h"
#include "audit/magnitude.h"
#include "audit/measure_first.h"
#include "audit/verdict.h"
#include "hipify/hipify_tree.h"
#include "profile/analysis/profile.h"
#include "profile/trace_reader.h"
#include "scan/components.h"
#include "scan/scanner.h"

namespace gpuport {

namespace {

void report(const AuditInputs& inputs, AuditStage stage, std::string_view detail = {}) {
  if (inputs.progress) {
    inputs.progress(stage, detail);
  }
}

AuditTraceInfo trace_summary(const Profile& profile) {
  AuditTraceInfo info;
  info.path = profile.trace.path;
  info.format = profile.trace.format;
  info.vendor = profile.trace.vendor;
  if (!profile.trace.devices.empty()) {
    info.gpu = profile.trace.devices.front().name;
  }
  info.gpu_ns = profile.totals.gpu_ns;
  info.kernel_calls = profile.totals.kernel_calls;
  info.unique_kernels = profile.totals.unique_kernels;
  info.steps = static_cast<std::int64_t>(profile.steps.steps.size());
  info.p95_ns = profile.steps.p95_ns;
  info.joined_kernels = profile.source ? profile.source->joined : 0;
  info.note = profile.steps.note;
  return info;
}

TraceCoverage coverage(bool traced, const NoTraceConfig& no_trace) {
  TraceCoverage out;
  out.traced = traced;
  if (!traced) {
    out.low_factor = no_trace.low_factor;
    out.high_factor = no_trace.high_factor;
    out.note = fmt::format(
        "no trace: estimated from the scan alone, every kernel priced as possibly hot at ×{:g}, "
        "and the ranges of what depends on hotness widened by ×{:g} low / ×{:g} high",
        no_trace.kernel_weight, no_trace.low_factor, no_trace.high_factor);
  }
  return out;
}

// Why a trace's times may not be measurements: it says a script made it, or it is a Kineto
// trace with kernels and no host launch call at all (a profiler always records the launches).
std::string synthetic_trace_note(const Trace& trace) {
  if (!trace.synthetic.empty()) {
    return fmt::format(
        "The trace {} was made by {}, not recorded by a profiler: its GPU times are not "
        "measurements",
        trace.path, trace.synthetic);
  }
  if (trace.format == TraceFormat::KinetoJson && !trace.activities.empty() &&
      trace.launches.empty()) {
    return fmt::format(
        "The trace {} has GPU kernels but no host launch call: it was not recorded with the "
        "profiler's host side (a script made it, or it was stripped), so its GPU times may not "
        "be measurements",
        trace.path);
  }
  return {};
}

}  // namespace

std::string_view audit_stage_name(AuditStage stage) {
  switch (stage) {
    case AuditStage::Config:
      return "reading the config";
    case AuditStage::Scan:
      return "scanning";
    case AuditStage::Translate:
      return "translating (dry run)";
    case AuditStage::Trace:
      return "reading the trace";
    case AuditStage::Estimate:
      break;
  }
  return "estimating";
}

tl::expected<AuditResult, AuditError> run_audit(const AuditInputs& inputs) {
  report(inputs, AuditStage::Config);
  tl::expected<AuditConfig, ConfigError> config =
      inputs.config_path ? load_audit_config(*inputs.config_path) : default_audit_config();
  if (!config) {
    return tl::unexpected(AuditError{config.error().message});
  }
  DiskFileSystem disk;
  return run_audit(inputs, *config, disk);
}

tl::expected<AuditResult, AuditError> run_audit(const AuditInputs& inputs,
                                                const AuditConfig& given_config,
                                                const FileSystem& fs) {
  // Bench results are read first: a refused one should not cost a scan.
  AuditConfig config = given_config;
  std::vector<std::string> bench_warnings;
  std::optional<BenchThroughput> bench_nvidia;
  std::optional<BenchThroughput> bench_amd;
  for (auto [path, platform, read] :
       {std::tuple{&inputs.bench_nvidia, &config.cost.nvidia, &bench_nvidia},
        std::tuple{&inputs.bench_amd, &config.cost.amd, &bench_amd}}) {
    if (!*path) {
      continue;
    }
    auto bench = read_bench_throughput(**path);
    if (!bench) {
      return tl::unexpected(AuditError{bench.error()});
    }
    use_bench_throughput(*platform, *bench);
    *read = std::move(*bench);
  }
  if (bench_nvidia && bench_amd) {
    const ThroughputSource& n = bench_nvidia->source;
    const ThroughputSource& a = bench_amd->source;
    if (n.slo != a.slo) {
      bench_warnings.push_back(fmt::format(
          "the bench results were judged against different SLOs ({}: '{}', {}: '{}'): their "
          "throughputs are not at the same latency target",
          n.file, n.slo.empty() ? "none" : n.slo, a.file, a.slo.empty() ? "none" : a.slo));
    }
    if (n.model != a.model) {
      bench_warnings.push_back(
          fmt::format("the bench results ran different models ({}: '{}', "
                      "{}: '{}')",
                      n.file, n.model, a.file, a.model));
    }
  }

  report(inputs, AuditStage::Scan);
  ScanOptions scan_options;
  scan_options.walk.jobs = std::max(1u, inputs.jobs);
  scan_options.walk.excludes = config.scan_exclude;
  scan_options.walk.excludes.insert(scan_options.walk.excludes.end(), inputs.excludes.begin(),
                                    inputs.excludes.end());
  if (inputs.max_file_size) {
    scan_options.walk.max_file_size = *inputs.max_file_size;
  }
  // One walk and one run of the rules: the dry run below replays this scan's listing, and the
  // findings the translation resolves are read from this scan, not found again.
  TreeListing listing;
  scan_options.keep_listing = &listing;
  auto scanned = scan(fs, inputs.repo, scan_options);
  if (!scanned) {
    return tl::unexpected(AuditError{inputs.repo + ": cannot read: " + scanned.error().message});
  }
  const ScanResult& scan_result = *scanned;

  report(inputs, AuditStage::Translate);
  HipifyOptions hipify_options;
  hipify_options.walk = scan_options.walk;  // the same files: ignore files and excludes apply
  hipify_options.listing = &listing;
  hipify_options.translate.warnings = false;
  hipify_options.translate.rocm = config.hipify_rocm;
  const std::vector<std::string> roots{inputs.repo};
  auto translated = hipify_tree(fs, roots, hipify_options, mapping_table_for(config.hipify_rocm));
  if (!translated) {
    return tl::unexpected(
        AuditError{translated.error().path + ": cannot read: " + translated.error().message});
  }
  const DryRunDigest dry_run = digest_dry_run(*translated, scan_result);

  std::vector<SourceKernel> definitions;
  for (const Kernel& kernel : scan_result.kernels) {
    definitions.push_back({kernel.name, kernel.file, kernel.line});
  }
  const SourceIndex index(std::move(definitions));
  std::vector<Profile> profiles;
  std::vector<std::string> synthetic_notes;  // traces a script made: flagged with the verdict
  for (const std::string& path : inputs.traces) {
    report(inputs, AuditStage::Trace, path);
    auto trace = read_trace(path, ReadOptions{});
    if (!trace) {
      return tl::unexpected(AuditError{trace.error().message});
    }
    ProfileOptions options;
    options.source = &index;
    profiles.push_back(analyze_trace(*trace, options));
    if (std::string note = synthetic_trace_note(*trace); !note.empty()) {
      synthetic_notes.push_back(std::move(note));
    }
  }

  report(inputs, AuditStage::Estimate);
  AuditResult result;
  AuditInputSummary& summary = result.inputs;
  summary.repo = inputs.repo;
  summary.config_path = config.path;
  summary.overrides = config.overrides;
  summary.files_scanned = scan_result.files_scanned;
  summary.findings = scan_result.findings.size();
  summary.scanned_kernels = scan_result.kernels.size();
  summary.translatable_files = dry_run.translatable_files;
  summary.files_changed_by_translation = dry_run.changed_files.size();
  summary.translation_rocm =
      rocm_release_name(config.hipify_rocm != 0 ? config.hipify_rocm : newest_rocm_release());
  for (std::size_t t = 0; t < profiles.size(); ++t) {
    summary.traces.push_back(trace_summary(profiles[t]));
    result.class_time.push_back(class_time(profiles[t], t));
  }
  result.portability = scan_result.components;
  result.findings = audit_findings(scan_result);
  summary.amd_build_exists = scan_result.amd_build.exists;
  count_port_work(result.findings, summary);
  result.feature_gaps = feature_gaps(result.findings, scan_result.components);
  result.hot_threshold = config.hot.threshold;
  result.kernels = select_kernels(profiles, scan_result, config.hot);

  const bool traced = !profiles.empty();
  const EffortInputs effort_inputs{scan_result, result.findings, dry_run, traced};
  EffortEstimate effort = estimate_effort(effort_inputs, result.kernels, config);
  result.items = std::move(effort.items);
  for (FeatureGap& gap : effort.feature_gaps) {
    gap.amd_equivalent = amd_equivalent_of(scan_result.components, gap.component);
    result.feature_gaps.push_back(std::move(gap));
  }
  result.effort = effort.summary;
  result.effort.magnitude =
      check_magnitude(scan_result, result.items, result.effort, config.magnitude);
  result.cost = estimate_cost(config.cost, result.effort.total);
  result.coverage = coverage(traced, config.no_trace);
  result.measure_first = plan_measurements(result.class_time, result.kernels, config.hot.threshold);
  result.verdict = decide_verdict(
      {result.items, result.effort, result.kernels, result.cost, traced, &result.feature_gaps},
      config.verdict);
  result.source_coverage = scan_coverage(scan_result);
  result.verdict.incomplete = coverage_gap(result.source_coverage);
  if (!result.verdict.incomplete.empty()) {
    result.verdict.headline += " (incomplete: " + result.verdict.incomplete + ")";
  }

  // A trace is an input like a throughput: one a script made, or one with no host side at all,
  // is flagged next to the verdict, not only in the inputs table.
  for (std::string& note : synthetic_notes) {
    result.verdict.assumed.push_back(std::move(note));
  }

  result.warnings = std::move(bench_warnings);
  for (const FileWarning& warning : scan_result.warnings) {
    result.warnings.push_back(
        warning.line > 0 ? fmt::format("{}:{}: {}", warning.file, warning.line, warning.message)
                         : warning.file + ": " + warning.message);
  }
  for (std::size_t t = 0; t < profiles.size(); ++t) {
    const Profile& profile = profiles[t];
    if (profile.source && profile.source->joined == 0 && !scan_result.kernels.empty()) {
      result.warnings.push_back(profile.trace.path +
                                ": no kernel of the trace matches a kernel the scan found; is "
                                "it a trace of this repository?");
    }
  }
  return result;
}

}  // namespace gpuport
