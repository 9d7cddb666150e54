#include "report/profile/profile_json.h"

#include <algorithm>

#include "report/profile/profile_units.h"
#include "version.h"

namespace gpuport {

namespace {

void count(JsonWriter& json, std::string_view name, std::int64_t value) {
  json.field(name, static_cast<std::uint64_t>(std::max<std::int64_t>(0, value)));
}

void optional_count(JsonWriter& json, std::string_view name, std::optional<std::int64_t> value) {
  if (value) {
    count(json, name, *value);
  } else {
    json.null_field(name);
  }
}

void write_kernel(JsonWriter& json, const KernelRow& row, std::size_t rank) {
  json.begin_object();
  json.field("rank", rank);
  json.field("name", row.name.raw);
  json.field("display", row.name.display);
  json.field("normalized", row.name.normalized);
  json.field("kind", activity_kind_name(row.kind));
  count(json, "calls", row.calls);
  count(json, "total_ns", row.total_ns);
  count(json, "mean_ns", row.mean_ns());
  optional_count(json, "min_ns", row.min_ns);
  optional_count(json, "max_ns", row.max_ns);
  json.field("share", round6(row.share));
  json.field("class", class_name(row.classification.klass));
  json.field("owner", row.classification.owner);
  json.field("rule", row.classification.rule);
  json.field("own_code", row.classification.own_code);
  json.field("launch_api", launch_api_name(row.launch_api));
  json.key("launches");
  json.begin_array();
  for (const LaunchCount& launch : row.launches) {
    json.begin_object();
    json.field("api", launch.api);
    json.field("kind", launch_api_name(launch.kind));
    count(json, "calls", launch.calls);
    json.end_object();
  }
  json.end_array();
  if (row.source) {
    json.key("source");
    json.begin_object();
    json.field("name", row.source->name);
    json.field("file", row.source->file);
    json.field("line", row.source->line);
    json.field("candidates", row.source->candidates);
    json.end_object();
  } else {
    json.null_field("source");
  }
  json.end_object();
}

void write_classes(JsonWriter& json, const ClassTable& table) {
  json.key("classes");
  json.begin_array();
  for (const ClassRow& row : table.rows) {
    json.begin_object();
    json.field("class", class_name(row.klass));
    count(json, "time_ns", row.time_ns);
    json.field("share", round6(row.share));
    if (row.compute_share) {
      json.field("compute_share", round6(*row.compute_share));
    } else {
      json.null_field("compute_share");
    }
    count(json, "kernels", row.kernels);
    count(json, "calls", row.calls);
    json.end_object();
  }
  json.end_array();
}

void write_mix(JsonWriter& json, const Profile& profile) {
  if (!profile.step_mix) {
    json.null_field("p95_mix");
    return;
  }
  const StepMix& mix = *profile.step_mix;
  json.key("p95_mix");
  json.begin_object();
  count(json, "slow_from_ns", mix.slow_from_ns);
  count(json, "typical_from_ns", mix.typical_from_ns);
  count(json, "typical_to_ns", mix.typical_to_ns);
  count(json, "slow_steps", mix.slow_steps);
  count(json, "typical_steps", mix.typical_steps);
  count(json, "slow_step_ns", mix.slow_step_ns);
  count(json, "typical_step_ns", mix.typical_step_ns);
  json.key("classes");
  json.begin_array();
  for (const ClassMix& entry : mix.classes) {
    json.begin_object();
    json.field("class", class_name(entry.klass));
    count(json, "typical_ns", entry.typical_ns);
    count(json, "slow_ns", entry.slow_ns);
    json.end_object();
  }
  json.end_array();
  json.key("kernels");
  json.begin_array();
  for (const KernelMix& entry : mix.kernels) {
    json.begin_object();
    json.field("rank", static_cast<std::uint64_t>(entry.row) + 1);
    json.field("name", profile.kernels.rows[static_cast<std::size_t>(entry.row)].name.raw);
    count(json, "typical_ns", entry.typical_ns);
    count(json, "slow_ns", entry.slow_ns);
    json.end_object();
  }
  json.end_array();
  json.end_object();
}

void write_steps(JsonWriter& json, const Profile& profile) {
  const StepReport& report = profile.steps;
  json.key("steps");
  json.begin_object();
  json.field("source", step_source_name(report.source));
  json.field("on_gpu", report.on_gpu);
  if (report.pattern.empty()) {
    json.null_field("pattern");
  } else {
    json.field("pattern", report.pattern);
  }
  json.field("note", report.note);
  json.field("percentile_method", "nearest-rank");
  count(json, "count", static_cast<std::int64_t>(report.steps.size()));
  optional_count(json, "p50_ns", report.p50_ns);
  optional_count(json, "p95_ns", report.p95_ns);
  optional_count(json, "p99_ns", report.p99_ns);
  json.key("list");
  json.begin_array();
  for (const Step& step : report.steps) {
    json.begin_object();
    json.field("name", step.name);
    count(json, "start_ns", step.start_ns);
    count(json, "duration_ns", step.duration_ns);
    count(json, "gpu_ns", step.gpu_ns);
    count(json, "kernel_ns", step.kernel_ns);
    count(json, "kernels", step.kernels);
    json.end_object();
  }
  json.end_array();
  write_mix(json, profile);
  json.end_object();
}

}  // namespace

void write_tool(JsonWriter& json) {
  json.key("tool");
  json.begin_object();
  json.field("name", "gpuport");
  json.field("version", k_version);
  json.end_object();
}

void write_trace_info(JsonWriter& json, const TraceInfo& trace) {
  json.begin_object();
  json.field("path", trace.path);
  json.field("format", format_name(trace.format));
  json.field("vendor", vendor_name(trace.vendor));
  json.key("devices");
  json.begin_array();
  for (const DeviceInfo& device : trace.devices) {
    json.begin_object();
    json.field("name", device.name);
    json.field("warp_size", static_cast<std::uint64_t>(std::max(0, device.warp_size)));
    json.end_object();
  }
  json.end_array();
  json.field("summary_only", trace.summary_only);
  json.end_object();
}

void write_totals(JsonWriter& json, const ProfileTotals& totals) {
  json.begin_object();
  count(json, "gpu_ns", totals.gpu_ns);
  count(json, "kernel_ns", totals.kernel_ns);
  count(json, "memory_ns", totals.memory_ns);
  count(json, "communication_ns", totals.communication_ns);
  count(json, "compute_ns", totals.compute_ns);
  count(json, "unknown_ns", totals.unknown_ns);
  json.field("unknown_share", round6(totals.unknown_share));
  count(json, "kernel_calls", totals.kernel_calls);
  count(json, "memory_calls", totals.memory_calls);
  count(json, "unique_kernels", totals.unique_kernels);
  count(json, "own_code_kernels", totals.own_code_kernels);
  count(json, "own_code_ns", totals.own_code_ns);
  json.end_object();
}

std::string render_profile_json(const Profile& profile) {
  StringSink sink;
  JsonWriter json(sink);
  json.begin_object();
  json.field("schema_version", k_profile_schema_version);
  write_tool(json);
  json.field("command", "profile");
  json.key("trace");
  write_trace_info(json, profile.trace);
  json.key("totals");
  write_totals(json, profile.totals);
  if (profile.source) {
    json.key("source_join");
    json.begin_object();
    count(json, "definitions", profile.source->definitions);
    count(json, "joined", profile.source->joined);
    json.end_object();
  } else {
    json.null_field("source_join");
  }
  json.key("kernels");
  json.begin_array();
  for (std::size_t i = 0; i < profile.kernels.rows.size(); ++i) {
    write_kernel(json, profile.kernels.rows[i], i + 1);
  }
  json.end_array();
  write_classes(json, profile.classes);
  write_steps(json, profile);
  json.end_object();
  json.finish();
  return std::move(sink.text());
}

}  // namespace gpuport
