#include "report/profile/profile_markdown.h"

#include <fmt/format.h>

#include "report/profile/profile_units.h"

namespace gpuport {

namespace {

void kernels(std::string& out, const Profile& profile, std::size_t top) {
  const auto& rows = profile.kernels.rows;
  const std::size_t shown = std::min(rows.size(), top);
  out += fmt::format("\n## Kernels (top {} of {} by total time)\n\n", shown, rows.size());
  if (rows.empty()) {
    out += "No kernels.\n";
    return;
  }
  const bool with_source = profile.source.has_value();
  out += "| # | kernel | share | total | calls | mean | class | owner | own code | ";
  out += with_source ? "defined at |\n" : "launch |\n";
  out += "|--:|---|--:|--:|--:|--:|---|---|---|---|\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const KernelRow& row = rows[i];
    std::string last;
    if (with_source) {
      last = row.source ? markdown_cell(fmt::format("{}:{}", row.source->file, row.source->line))
                        : std::string();
    } else if (row.launch_api != LaunchApi::Unknown) {
      last = std::string(launch_api_name(row.launch_api));
    }
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", i + 1,
                       markdown_cell(row.name.display), format_share(row.share),
                       format_duration(row.total_ns), format_count(row.calls),
                       format_duration(row.mean_ns()), class_name(row.classification.klass),
                       markdown_cell(row.classification.owner),
                       row.classification.own_code ? "yes" : "", last);
  }
  if (rows.size() > shown) {
    out += fmt::format("\n{} more kernels: `--top N`, or `--format json` / `csv` for all.\n",
                       rows.size() - shown);
  }
}

void classes(std::string& out, const Profile& profile) {
  const ClassTable& table = profile.classes;
  out += "\n## Classes\n\n";
  if (table.rows.empty()) {
    out += "No kernels.\n";
    return;
  }
  out += "| class | time | share | of compute | kernels | calls |\n";
  out += "|---|--:|--:|--:|--:|--:|\n";
  for (const ClassRow& row : table.rows) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", class_name(row.klass),
                       format_duration(row.time_ns), format_share(row.share),
                       row.compute_share ? format_share(*row.compute_share) : "-",
                       format_count(row.kernels), format_count(row.calls));
  }
  if (table.communication_ns > 0) {
    out += fmt::format("\nCommunication: {} ({} of GPU time), reported apart; compute time {}.\n",
                       format_duration(table.communication_ns),
                       format_share(static_cast<double>(table.communication_ns) /
                                    static_cast<double>(table.gpu_ns)),
                       format_duration(table.compute_ns));
  } else {
    out += "\nCommunication: none in this trace.\n";
  }
}

void steps(std::string& out, const Profile& profile) {
  const StepReport& report = profile.steps;
  out += "\n## Steps\n\n";
  if (report.steps.empty()) {
    out += markdown_cell(report.note) + "\n";
    return;
  }
  out += fmt::format("{} step{} ({}{}); duration p50 {}, p95 {}, p99 {} (nearest rank).\n",
                     report.steps.size(), report.steps.size() == 1 ? "" : "s",
                     step_source_name(report.source), report.on_gpu ? ", GPU timeline" : "",
                     format_duration(*report.p50_ns), format_duration(*report.p95_ns),
                     format_duration(*report.p99_ns));
  if (!profile.step_mix) {
    return;
  }
  const StepMix& mix = *profile.step_mix;
  out += fmt::format(
      "\nGPU time per step, slow steps (>= p95: {}) beside typical steps (p25..p75: {}):\n\n",
      mix.slow_steps, mix.typical_steps);
  out += "| class or kernel | typical | slow |\n|---|--:|--:|\n";
  for (const ClassMix& entry : mix.classes) {
    out += fmt::format("| {} | {} | {} |\n", class_name(entry.klass),
                       format_duration(entry.typical_ns), format_duration(entry.slow_ns));
  }
  for (std::size_t i = 0; i < mix.kernels.size() && i < 5; ++i) {
    const KernelMix& entry = mix.kernels[i];
    const KernelRow& row = profile.kernels.rows[static_cast<std::size_t>(entry.row)];
    out += fmt::format("| #{} {} | {} | {} |\n", entry.row + 1, markdown_cell(row.name.display),
                       format_duration(entry.typical_ns), format_duration(entry.slow_ns));
  }
}

}  // namespace

std::string render_profile_markdown(const Profile& profile, const ReportOptions& options) {
  const TraceInfo& trace = profile.trace;
  const ProfileTotals& totals = profile.totals;
  std::string out = fmt::format("# gpuport profile: {}\n\n", markdown_cell(trace.path));
  out += fmt::format("- Trace: {} ({})\n", format_name(trace.format),
                     markdown_cell(platform_summary(trace)));
  out += fmt::format(
      "- GPU time: {} (kernels {} in {} dispatches of {} kernels; copies and fills "
      "{})\n",
      format_duration(totals.gpu_ns), format_duration(totals.kernel_ns),
      format_count(totals.kernel_calls), format_count(totals.unique_kernels),
      format_duration(totals.memory_ns));
  out += fmt::format("- Unknown class: {} of GPU time; own code: {} kernel{}, {}\n",
                     format_share(totals.unknown_share), totals.own_code_kernels,
                     totals.own_code_kernels == 1 ? "" : "s", format_duration(totals.own_code_ns));
  if (profile.source) {
    out += fmt::format("- Source join: {} kernels matched {} scanned definitions\n",
                       profile.source->joined, profile.source->definitions);
  }
  kernels(out, profile, options.max_kernels);
  classes(out, profile);
  steps(out, profile);
  return out;
}

}  // namespace gpuport
