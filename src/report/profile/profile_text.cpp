#include "report/profile/profile_text.h"

#include <fmt/format.h>

#include "report/profile/profile_units.h"
#include "report/text_table.h"
#include "report/text_util.h"

namespace gpuport {

namespace {

constexpr std::size_t k_mix_kernels = 5;
constexpr std::size_t k_narrow_width = 90;

std::string_view class_color(std::string_view name) {
  if (name == "unknown") {
    return k_ansi_yellow;
  }
  if (name == "communication") {
    return k_ansi_blue;
  }
  return {};
}

std::string own_cell(const KernelRow& row) {
  return row.classification.own_code ? "yes" : "";
}

class ProfileTextWriter {
 public:
  ProfileTextWriter(const Profile& profile, const ReportOptions& options)
      : m_profile(profile), m_options(options) {}

  std::string render() {
    header();
    kernels();
    classes();
    steps();
    return std::move(m_out);
  }

 private:
  void title(std::string_view text) {
    m_out += '\n';
    m_out += styled(truncate_to_width(text, m_options.width), k_ansi_bold, m_options.color);
    m_out += '\n';
  }
  void line(std::string_view text) {
    m_out += truncate_to_width(text, m_options.width);
    m_out += '\n';
  }

  void header() {
    const TraceInfo& trace = m_profile.trace;
    const ProfileTotals& totals = m_profile.totals;
    m_out += styled(truncate_to_width("gpuport profile " + printable(trace.path), m_options.width),
                    k_ansi_bold, m_options.color);
    m_out += '\n';
    line(fmt::format("  {} trace, {}{}", format_name(trace.format), platform_summary(trace),
                     trace.summary_only ? " (summary only: calls and totals)" : ""));
    line(
        fmt::format("  GPU time {}: kernels {} ({} dispatch{} of {} kernel{}), copies/fills {} "
                    "({})",
                    format_duration(totals.gpu_ns), format_duration(totals.kernel_ns),
                    format_count(totals.kernel_calls), totals.kernel_calls == 1 ? "" : "es",
                    format_count(totals.unique_kernels), totals.unique_kernels == 1 ? "" : "s",
                    format_duration(totals.memory_ns), format_count(totals.memory_calls)));
    std::string classes =
        fmt::format("  Unknown class: {} of GPU time ({})", format_share(totals.unknown_share),
                    format_duration(totals.unknown_ns));
    classes +=
        fmt::format("; own code: {} kernel{}, {}", totals.own_code_kernels,
                    totals.own_code_kernels == 1 ? "" : "s", format_duration(totals.own_code_ns));
    line(classes);
    if (m_profile.source) {
      line(fmt::format("  Source join: {} of the trace's kernels matched {} scanned definitions",
                       m_profile.source->joined, m_profile.source->definitions));
    }
  }

  void kernels() {
    const auto& rows = m_profile.kernels.rows;
    const std::size_t shown = std::min(rows.size(), m_options.max_kernels);
    title(fmt::format("Kernels (top {} of {} by total time)", shown, rows.size()));
    if (rows.empty()) {
      line("  No kernels.");
      return;
    }
    const bool with_source = m_profile.source.has_value();
    // A narrow terminal drops the mean and the launch/source column rather than cut everything.
    const bool narrow = m_options.width < k_narrow_width;
    std::vector<std::vector<std::string>> cells;
    std::vector<std::string> notes;
    for (std::size_t i = 0; i < shown; ++i) {
      const KernelRow& row = rows[i];
      std::vector<std::string> cell = {
          std::to_string(i + 1),
          format_share(row.share),
          format_duration(row.total_ns),
          format_count(row.calls),
          format_duration(row.mean_ns()),
          std::string(class_name(row.classification.klass)),
          printable(row.classification.owner),
          own_cell(row),
      };
      if (narrow) {
        cell.erase(cell.begin() + 4);
      } else if (with_source) {
        cell.push_back(row.source
                           ? fmt::format("{}:{}", printable(row.source->file), row.source->line)
                           : std::string());
      } else {
        cell.push_back(row.launch_api == LaunchApi::Unknown
                           ? std::string()
                           : std::string(launch_api_name(row.launch_api)));
      }
      cells.push_back(std::move(cell));
      notes.push_back(printable(row.name.display));
    }
    std::vector<TableColumn> columns = {
        {"#", Align::Right, Shrink::Fixed, 1},
        {"share", Align::Right, Shrink::Fixed, 5},
        {"total", Align::Right, Shrink::Fixed, 8},
        {"calls", Align::Right, Shrink::Fixed, 5},
        {"mean", Align::Right, Shrink::Fixed, 8},
        {"class", Align::Left, Shrink::Allowed, 6, KeepEnd::Start, class_color},
        {"owner", Align::Left, Shrink::Allowed, 6, KeepEnd::Start, nullptr, 16},
        {"own", Align::Left, Shrink::Fixed, 3},
    };
    if (narrow) {
      columns.erase(columns.begin() + 4);
    } else if (with_source) {
      columns.push_back({"defined at", Align::Left, Shrink::Allowed, 10, KeepEnd::End});
    } else {
      columns.push_back({"launch", Align::Left, Shrink::Allowed, 6});
    }
    m_out += render_table(columns, cells, 2, m_options.width, m_options.color, notes);
    if (rows.size() > shown) {
      line(fmt::format("  \u2026 {} more (--top N, or --format json/csv for every kernel)",
                       rows.size() - shown));
    }
  }

  void classes() {
    const ClassTable& table = m_profile.classes;
    title("Classes (share of GPU time; \"of compute\" leaves communication out)");
    if (table.rows.empty()) {
      line("  No kernels.");
      return;
    }
    std::vector<std::vector<std::string>> cells;
    for (const ClassRow& row : table.rows) {
      cells.push_back({std::string(class_name(row.klass)), format_duration(row.time_ns),
                       format_share(row.share),
                       row.compute_share ? format_share(*row.compute_share) : std::string("-"),
                       format_count(row.kernels), format_count(row.calls)});
    }
    m_out += render_table({{"class", Align::Left, Shrink::Allowed, 6, KeepEnd::Start, class_color},
                           {"time", Align::Right, Shrink::Fixed, 8},
                           {"share", Align::Right, Shrink::Fixed, 5},
                           {"of compute", Align::Right, Shrink::Fixed, 10},
                           {"kernels", Align::Right, Shrink::Fixed, 7},
                           {"calls", Align::Right, Shrink::Fixed, 5}},
                          cells, 2, m_options.width, m_options.color);
    if (table.communication_ns > 0) {
      line(fmt::format("  Communication: {} ({} of GPU time), reported apart; compute time {}",
                       format_duration(table.communication_ns),
                       format_share(static_cast<double>(table.communication_ns) /
                                    static_cast<double>(table.gpu_ns)),
                       format_duration(table.compute_ns)));
    } else {
      line("  Communication: none in this trace.");
    }
  }

  void steps() {
    const StepReport& report = m_profile.steps;
    title("Steps");
    if (report.steps.empty()) {
      line("  " + printable(report.note));
      return;
    }
    std::string source;
    switch (report.source) {
      case StepSource::ProfilerStep:
        source = report.on_gpu ? "ProfilerStep# ranges on the GPU timeline"
                               : "ProfilerStep# ranges on the CPU timeline";
        break;
      case StepSource::Nvtx:
        source = "outermost NVTX ranges";
        break;
      case StepSource::Pattern:
        source = fmt::format("ranges matching --step '{}'{}", printable(report.pattern),
                             report.on_gpu ? " (GPU timeline)" : "");
        break;
      case StepSource::None:
        break;
    }
    line(fmt::format("  {} step{} from {}", report.steps.size(),
                     report.steps.size() == 1 ? "" : "s", source));
    line(fmt::format("  duration p50 {}  p95 {}  p99 {}  (nearest rank)",
                     format_duration(*report.p50_ns), format_duration(*report.p95_ns),
                     format_duration(*report.p99_ns)));
    if (!m_profile.step_mix) {
      line("  One step: no slow/typical split.");
      return;
    }
    const StepMix& mix = *m_profile.step_mix;
    line(fmt::format("  GPU time per step: slow steps (>= p95: {}, mean {}) beside typical",
                     mix.slow_steps, format_duration(mix.slow_step_ns)));
    line(fmt::format("  steps (p25..p75: {}, mean {}); classes, then the kernels that grew most:",
                     mix.typical_steps, format_duration(mix.typical_step_ns)));
    std::vector<std::vector<std::string>> cells;
    for (const ClassMix& entry : mix.classes) {
      cells.push_back({std::string(class_name(entry.klass)), format_duration(entry.typical_ns),
                       format_duration(entry.slow_ns),
                       format_signed(entry.slow_ns - entry.typical_ns)});
    }
    const std::size_t kernel_rows = std::min(mix.kernels.size(), k_mix_kernels);
    std::vector<std::string> notes(cells.size());
    for (std::size_t i = 0; i < kernel_rows; ++i) {
      const KernelMix& entry = mix.kernels[i];
      const KernelRow& row = m_profile.kernels.rows[static_cast<std::size_t>(entry.row)];
      cells.push_back({fmt::format("#{}", entry.row + 1), format_duration(entry.typical_ns),
                       format_duration(entry.slow_ns),
                       format_signed(entry.slow_ns - entry.typical_ns)});
      notes.push_back(printable(row.name.display));
    }
    m_out += render_table({{"class / kernel", Align::Left, Shrink::Fixed, 5},
                           {"typical", Align::Right, Shrink::Fixed, 8},
                           {"slow", Align::Right, Shrink::Fixed, 8},
                           {"change", Align::Right, Shrink::Fixed, 8}},
                          cells, 2, m_options.width, m_options.color, notes);
  }

  static std::string format_signed(std::int64_t ns) {
    if (ns < 0) {
      return "-" + format_duration(-ns);
    }
    return "+" + format_duration(ns);
  }

  const Profile& m_profile;
  const ReportOptions& m_options;
  std::string m_out;
};

}  // namespace

std::string render_profile_text(const Profile& profile, const ReportOptions& options) {
  return ProfileTextWriter(profile, options).render();
}

}  // namespace gpuport
