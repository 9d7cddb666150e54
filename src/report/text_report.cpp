// Text report: header, portability table, CUDA inventory, AMD path, findings by rule, verdict.
#include "report/text_report.h"
#include "scan/coverage.h"

#include <fmt/format.h>

#include "report/report_groups.h"
#include "report/text_table.h"
#include "report/text_util.h"

namespace gpuport {

namespace {

std::string position(std::string_view file, std::uint32_t line) {
  return line > 0 ? fmt::format("{}:{}", printable(file), line) : printable(file);
}

class TextWriter {
 public:
  // The findings by rule serve two sections: one pass over the findings, not two.
  TextWriter(const ScanResult& result, const ReportOptions& options)
      : m_result(result),
        m_options(options),
        m_by_rule(findings_by_rule(result)),
        m_coverage(scan_coverage(result)),
        m_gap(coverage_gap(m_coverage)) {}

  std::string render() {
    header();
    portability();
    inventory();
    amd_path();
    findings();
    skipped();
    coverage();
    verdict();
    return std::move(m_out);
  }

 private:
  void title(std::string_view text) {
    m_out += '\n';
    m_out += styled(text, k_ansi_bold, m_options.color);
    m_out += '\n';
  }
  // A line of prose, cut to the width.
  void line(std::string_view text) {
    m_out += truncate_to_width(text, m_options.width);
    m_out += '\n';
  }
  void table(const std::vector<TableColumn>& columns,
             const std::vector<std::vector<std::string>>& rows,
             const std::vector<std::string>& notes = {}) {
    m_out += render_table(columns, rows, 2, m_options.width, m_options.color, notes);
  }

  void header() {
    const std::string text = fmt::format(
        "gpuport scan {}: {} files, {} in {:.2f} s", printable(m_result.root),
        m_result.files_scanned, format_megabytes(m_result.bytes_scanned), m_result.seconds);
    m_out += styled(truncate_to_width(text, m_options.width), k_ansi_bold, m_options.color);
    m_out += '\n';
  }

  void portability() {
    title("Portability");
    if (m_result.components.empty()) {
      line("  No CUDA-specific components found.");
      return;
    }
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> notes;
    for (const Component& component : m_result.components) {
      std::string evidence;
      if (!component.evidence.empty()) {
        evidence = position(component.evidence.front().file, component.evidence.front().line);
      }
      rows.push_back({std::string(tier_name(component.layer)), printable(component.name),
                      printable(component.amd_status), std::to_string(component.findings),
                      evidence});
      // What the AMD build does with the row's code comes first: the catalog's text after it
      // is the same for every repository.
      std::string note;
      const std::string build = amd_build_phrase(component.amd);
      if (!build.empty()) {
        note = "AMD build: " + build + ". ";
      }
      note += fmt::format("AMD: {}; cost: {}", printable(component.amd_equivalent),
                          printable(component.cost));
      notes.push_back(std::move(note));
    }
    table({{"Layer", Align::Left, Shrink::Fixed, 10, KeepEnd::Start, tier_color},
           {"Component", Align::Left, Shrink::Allowed, 16, KeepEnd::Start, nullptr, 26},
           {"AMD status", Align::Left, Shrink::Allowed, 8},
           {"N", Align::Right, Shrink::Fixed, 1},
           {"First evidence", Align::Left, Shrink::Allowed, 16, KeepEnd::End}},
          rows, notes);
    scope_line();
  }

  // Findings of tests, examples, vendored and generated code: listed, not counted above.
  void scope_line() {
    const auto scopes = findings_by_scope(m_result);
    std::string parts;
    for (std::size_t i = 1; i < k_scope_count; ++i) {
      if (scopes[i] == 0) {
        continue;
      }
      parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", scopes[i],
                           scope_name(static_cast<Scope>(i)));
    }
    if (!parts.empty()) {
      line(
          fmt::format("  Product code only. Outside it, not counted as port work: {} "
                      "(--format json lists them)",
                      parts));
    }
  }

  void inventory() {
    title("Custom CUDA inventory");
    const KernelTotals totals = kernel_totals(m_result);
    std::vector<std::vector<std::string>> rows = {
        {"Kernels", std::to_string(totals.kernels),
         fmt::format("{} templated, {} defined via macro", totals.templated, totals.via_macro)},
        {"Kernel lines of code", std::to_string(totals.lines_of_code), ""},
        {"With inline PTX", std::to_string(totals.with_ptx), ""},
        {"With WMMA/MMA", std::to_string(totals.with_wmma), ""},
        {"With warp intrinsics", std::to_string(totals.with_warp_intrinsics), ""},
        {"Launch sites", std::to_string(m_result.launches.size()), ""},
        {"Instantiation-only files", std::to_string(m_result.instantiation_files.size()),
         m_result.instantiation_files.empty()
             ? std::string()
             : "first: " + printable(m_result.instantiation_files.front().file)},
        {"Precompiled artifacts", std::to_string(m_result.artifacts.size()), ""},
    };
    table({{"What", Align::Left, Shrink::Fixed, 24},
           {"Count", Align::Right, Shrink::Fixed, 5},
           {"", Align::Left, Shrink::Allowed, 10}},
          rows);

    const auto ptx = ptx_sites_by_instruction(m_result);
    if (!ptx.empty()) {
      m_out += '\n';
      std::vector<std::vector<std::string>> ptx_rows;
      for (const NameCount& entry : ptx) {
        ptx_rows.push_back({printable(entry.name), std::to_string(entry.count),
                            position(entry.first_file, entry.first_line)});
      }
      table({{"PTX instruction", Align::Left, Shrink::Allowed, 16},
             {"Sites", Align::Right, Shrink::Fixed, 5},
             {"First", Align::Left, Shrink::Allowed, 12, KeepEnd::End}},
            ptx_rows);
    }

    const auto artifacts = artifacts_by_kind(m_result);
    if (!artifacts.empty()) {
      m_out += '\n';
      std::vector<std::vector<std::string>> artifact_rows;
      for (const NameCount& entry : artifacts) {
        artifact_rows.push_back({entry.name, std::to_string(entry.count),
                                 position(entry.first_file, entry.first_line)});
      }
      table({{"TensorRT / binary artifact", Align::Left, Shrink::Fixed, 16},
             {"Files", Align::Right, Shrink::Fixed, 5},
             {"First", Align::Left, Shrink::Allowed, 12, KeepEnd::End}},
            artifact_rows);
    }

    if (!m_result.kernels.empty()) {
      m_out += '\n';
      const auto kernels = kernels_by_size(m_result, m_options.max_kernels);
      std::vector<std::vector<std::string>> kernel_rows;
      for (std::size_t i = 0; i < kernels.size(); ++i) {
        const Kernel& kernel = *kernels[i];
        std::string name = printable(kernel.name);
        if (kernel.is_template) {
          name += "<>";
        }
        kernel_rows.push_back({name, position(kernel.file, kernel.line),
                               std::to_string(kernel.lines_of_code),
                               kernel_feature_tags(kernel.features)});
      }
      table({{"Kernel", Align::Left, Shrink::Allowed, 12},
             {"Location", Align::Left, Shrink::Allowed, 14, KeepEnd::End},
             {"LOC", Align::Right, Shrink::Fixed, 3},
             {"Features", Align::Left, Shrink::Allowed, 10}},
            kernel_rows);
      if (m_result.kernels.size() > m_options.max_kernels) {
        line(fmt::format("  \u2026 {} more kernels (see --format json)",
                         m_result.kernels.size() - m_options.max_kernels));
      }
    }
  }

  void amd_build() {
    const AmdBuildPath& path = m_result.amd_build;
    if (!path.exists) {
      line(
          "  AMD build: none found (no HIP build file, ROCm branch of a build script or "
          "cuda->hip shim header).");
    } else {
      line("  AMD build: exists.");
      for (std::size_t i = 0; i < path.setup.size() && i < 2; ++i) {
        line(fmt::format("    set up in    {}  {}",
                         position(path.setup[i].file, path.setup[i].line),
                         printable(path.setup[i].text)));
      }
      for (std::size_t i = 0; i < path.switches.size() && i < 2; ++i) {
        line(fmt::format("    switch       {}  {}",
                         position(path.switches[i].file, path.switches[i].line),
                         printable(path.switches[i].text)));
      }
      for (std::size_t i = 0; i < path.shims.size() && i < 2; ++i) {
        line(fmt::format("    shim header  {}", position(path.shims[i].file, path.shims[i].line)));
      }
      if (!path.shim_includes.empty()) {
        line(fmt::format("    shim used    {} ({} #include{})",
                         position(path.shim_includes[0].file, path.shim_includes[0].line),
                         path.shim_include_sites, path.shim_include_sites == 1 ? "" : "s"));
      }
      if (!path.hip_includes.empty()) {
        line(fmt::format("    HIP headers  {} ({} file{})",
                         position(path.hip_includes[0].file, path.hip_includes[0].line),
                         path.hip_include_files, path.hip_include_files == 1 ? "" : "s"));
      }
      for (std::size_t i = 0; i < path.ci.size() && i < 2; ++i) {
        line(fmt::format("    CI/container {}", position(path.ci[i].file, path.ci[i].line)));
      }
    }
    if (path.kernel_files > 0) {
      const std::uint32_t open =
          path.kernel_files - path.kernel_files_compiled - path.kernel_files_excluded;
      line(fmt::format(
          "  Kernel files of the product the AMD build compiles: {} of {} ({:.0f} %){}{}",
          path.kernel_files_compiled, path.kernel_files,
          100.0 * path.kernel_files_compiled / path.kernel_files,
          path.kernel_files_excluded > 0
              ? fmt::format(", leaves out {}", path.kernel_files_excluded)
              : std::string(),
          open > 0 ? fmt::format(", {} undecided", open) : std::string()));
    }
    const AmdView view = amd_view(m_result);
    if (view.excluded == 0) {
      return;
    }
    line(
        fmt::format("  Product findings in code the AMD build leaves out: {} ({} with an AMD "
                    "alternative). Largest groups:",
                    view.excluded, view.excluded_with_alternative));
    std::vector<std::vector<std::string>> rows;
    for (const ExcludedGroup& group : excluded_groups(m_result, 5)) {
      std::string where = position(group.file, group.line);
      if (group.places > 1) {
        where += fmt::format(" (+{} more)", group.places - 1);
      }
      rows.push_back({printable(group.text), std::to_string(group.findings),
                      std::to_string(group.with_alternative), where});
    }
    table({{"Left out by", Align::Left, Shrink::Allowed, 16},
           {"N", Align::Right, Shrink::Fixed, 1},
           {"Alt", Align::Right, Shrink::Fixed, 3},
           {"First place", Align::Left, Shrink::Allowed, 12, KeepEnd::End}},
          rows);
  }

  void amd_path() {
    title("Existing AMD path");
    amd_build();
    const auto signs = amd_path_by_kind(m_result);
    if (signs.empty()) {
      line("  No HIP guards, ROCm images, HIP build targets or cuda->hip shims.");
      return;
    }
    std::vector<std::vector<std::string>> rows;
    for (const NameCount& entry : signs) {
      rows.push_back(
          {entry.name, std::to_string(entry.count), position(entry.first_file, entry.first_line)});
    }
    table({{"Sign", Align::Left, Shrink::Fixed, 18},
           {"Count", Align::Right, Shrink::Fixed, 5},
           {"First", Align::Left, Shrink::Allowed, 12, KeepEnd::End}},
          rows);
  }

  void findings() {
    title("Findings by rule");
    const std::vector<RuleCount>& by_rule = m_by_rule;
    if (by_rule.empty()) {
      line("  No findings.");
      return;
    }
    std::vector<std::vector<std::string>> rows;
    for (const RuleCount& entry : by_rule) {
      rows.push_back({std::string(entry.rule->id), std::string(tier_name(entry.rule->tier)),
                      std::to_string(entry.count), std::string(entry.rule->summary)});
    }
    table({{"Rule", Align::Left, Shrink::Fixed, 12},
           {"Tier", Align::Left, Shrink::Fixed, 10, KeepEnd::Start, tier_color},
           {"N", Align::Right, Shrink::Fixed, 1},
           {"Summary", Align::Left, Shrink::Allowed, 20}},
          rows);
  }

  void skipped() {
    const auto reasons = skipped_by_reason(m_result);
    if (reasons.empty() && m_result.ignored_entries == 0) {
      return;
    }
    title("Skipped");
    std::vector<std::vector<std::string>> rows;
    for (const NameCount& entry : reasons) {
      rows.push_back({entry.name, std::to_string(entry.count), printable(entry.first_file)});
    }
    if (m_result.ignored_entries > 0) {
      rows.push_back(
          {"ignored", std::to_string(m_result.ignored_entries), ".gitignore / --exclude"});
    }
    table({{"Reason", Align::Left, Shrink::Fixed, 12},
           {"Count", Align::Right, Shrink::Fixed, 5},
           {"First", Align::Left, Shrink::Allowed, 12, KeepEnd::End}},
          rows);
  }

  // Product files the scan could not read: listed, since their findings are missing.
  void coverage() {
    const ScanCoverage& covered = m_coverage;
    if (covered.complete()) {
      return;
    }
    title("Coverage");
    line(fmt::format("  Incomplete: {}; their findings are missing.", m_gap));
    constexpr std::size_t k_listed = 10;
    for (std::size_t i = 0; i < covered.unread.size() && i < k_listed; ++i) {
      const SkippedEntry& entry = covered.unread[i];
      line(fmt::format("  {} ({}{}{})", printable(entry.path), skip_reason_name(entry.reason),
                       entry.detail.empty() ? "" : ": ", printable(entry.detail)));
    }
    if (covered.unread.size() > k_listed) {
      line(fmt::format("  ... and {} more (--format json lists all)",
                       covered.unread.size() - k_listed));
    }
  }

  void verdict() {
    m_out += '\n';
    const AmdView view = amd_view(m_result);
    if (view.excluded > 0) {
      line(
          fmt::format("  In code the AMD build leaves out: {} {}, {} with an AMD alternative "
                      "(--format json lists all)",
                      view.excluded, view.excluded == 1 ? "finding" : "findings",
                      view.excluded_with_alternative));
    }
    std::string text;
    if (m_by_rule.empty()) {
      text = "Verdict: no CUDA-specific findings.";
    } else if (!view.highest) {
      text = fmt::format(
          "Verdict: no finding in product code the AMD build compiles ({} outside "
          "the product).",
          view.outside_product);
    } else {
      const std::string tier(tier_name(*view.highest));
      text = fmt::format(
          "Verdict: highest tier {} in product code the AMD build compiles ({} "
          "findings).",
          styled(tier, tier_color(tier), m_options.color), view.open);
    }
    m_out += text;
    if (!m_gap.empty()) {
      m_out += fmt::format(" Incomplete: {}.", m_gap);
    }
    m_out += '\n';
  }

  const ScanResult& m_result;
  const ReportOptions& m_options;
  const std::vector<RuleCount> m_by_rule;
  const ScanCoverage m_coverage;  // the product files not read, for Coverage and the verdict
  const std::string m_gap;
  std::string m_out;
};

}  // namespace

std::string render_text(const ScanResult& result, const ReportOptions& options) {
  return TextWriter(result, options).render();
}

}  // namespace gpuport
