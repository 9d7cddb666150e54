// Markdown report for a pull-request comment: the text report's content as tables, with the
// full findings list folded into <details>.
#include "report/markdown_report.h"
#include "scan/coverage.h"

#include <fmt/format.h>

#include "report/report_groups.h"
#include "report/text_util.h"

namespace gpuport {

namespace {

constexpr std::size_t k_max_listed_findings = 500;

// A table cell: printable, no line breaks; pipes, Markdown emphasis and HTML characters escaped.
std::string cell(std::string_view raw) {
  std::string out;
  for (const char c : printable(raw)) {
    switch (c) {
      case '|':
        out += "\\|";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '\\':
      case '*':
      case '_':
      case '~':
      case '`':
      case '[':
      case ']':
        out.push_back('\\');
        out.push_back(c);
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

// Inline code in a cell; backticks inside become a double-backtick span.
std::string code(std::string_view raw) {
  if (raw.empty()) {
    return {};
  }
  std::string text = printable(raw);
  std::string escaped;
  for (const char c : text) {
    if (c == '|') {
      escaped += "\\|";
    } else {
      escaped.push_back(c);
    }
  }
  if (escaped.find('`') != std::string::npos) {
    return "`` " + escaped + " ``";
  }
  return "`" + escaped + "`";
}

std::string position(std::string_view file, std::uint32_t line) {
  return line > 0 ? code(fmt::format("{}:{}", file, line)) : code(file);
}

class MarkdownWriter {
 public:
  MarkdownWriter(const ScanResult& result, const ReportOptions& options)
      : m_result(result),
        m_options(options),
        m_coverage(scan_coverage(result)),
        m_gap(coverage_gap(m_coverage)) {}

  std::string render() {
    const AmdView view = amd_view(m_result);
    m_out += "## gpuport scan\n\n";
    m_out += fmt::format("**{}** files, {} scanned in {:.2f} s. ", m_result.files_scanned,
                         format_megabytes(m_result.bytes_scanned), m_result.seconds);
    if (m_result.findings.empty()) {
      m_out += "No CUDA-specific findings.\n";
    } else if (!view.highest) {
      m_out += "No finding in product code the AMD build compiles.";
    } else {
      m_out += fmt::format(
          "Highest tier in product code the AMD build compiles: **{}** ({} "
          "findings).",
          tier_name(*view.highest), view.open);
    }
    if (!m_result.findings.empty()) {
      if (view.excluded > 0) {
        m_out += fmt::format(" {} more in code it leaves out ({} with an AMD alternative).",
                             view.excluded, view.excluded_with_alternative);
      }
      if (view.outside_product > 0) {
        m_out += fmt::format(" {} outside the product (tests, examples, vendored, generated).",
                             view.outside_product);
      }
      m_out += "\n";
    }
    if (!m_gap.empty()) {
      m_out += fmt::format("\n**Incomplete:** {} (see Coverage).\n", m_gap);
    }
    portability();
    inventory();
    amd_path();
    findings_by_rule_table();
    findings_list();
    skipped();
    coverage();
    return std::move(m_out);
  }

 private:
  void row(const std::vector<std::string>& cells) {
    m_out += "|";
    for (const std::string& c : cells) {
      m_out += " " + c + " |";
    }
    m_out += "\n";
  }
  void header(const std::vector<std::string>& cells, const std::string& alignment) {
    row(cells);
    m_out += alignment + "\n";
  }

  void portability() {
    m_out += "\n### Portability\n\n";
    if (m_result.components.empty()) {
      m_out += "No CUDA-specific components found.\n";
      return;
    }
    header({"Layer", "Component", "AMD status", "AMD equivalent", "Cost", "Findings", "AMD build",
            "Evidence"},
           "|---|---|---|---|---|--:|---|---|");
    for (const Component& component : m_result.components) {
      std::string evidence;
      if (!component.evidence.empty()) {
        evidence = position(component.evidence.front().file, component.evidence.front().line);
      }
      row({std::string(tier_name(component.layer)), cell(component.name),
           cell(component.amd_status), cell(component.amd_equivalent), cell(component.cost),
           std::to_string(component.findings), cell(amd_build_phrase(component.amd)), evidence});
    }
  }

  void inventory() {
    m_out += "\n### Custom CUDA inventory\n\n";
    const KernelTotals totals = kernel_totals(m_result);
    header({"What", "Count"}, "|---|--:|");
    row({"Kernels", std::to_string(totals.kernels)});
    row({"Templated kernels", std::to_string(totals.templated)});
    row({"Kernels defined via macro", std::to_string(totals.via_macro)});
    row({"Kernel lines of code", std::to_string(totals.lines_of_code)});
    row({"Kernels with inline PTX", std::to_string(totals.with_ptx)});
    row({"Kernels with WMMA/MMA", std::to_string(totals.with_wmma)});
    row({"Kernels with warp intrinsics", std::to_string(totals.with_warp_intrinsics)});
    row({"Launch sites", std::to_string(m_result.launches.size())});
    row({"Instantiation-only files", std::to_string(m_result.instantiation_files.size())});
    row({"Precompiled artifacts", std::to_string(m_result.artifacts.size())});

    const auto ptx = ptx_sites_by_instruction(m_result);
    if (!ptx.empty()) {
      m_out += "\n";
      header({"PTX instruction", "Sites", "First"}, "|---|--:|---|");
      for (const NameCount& entry : ptx) {
        row({code(entry.name), std::to_string(entry.count),
             position(entry.first_file, entry.first_line)});
      }
    }
    const auto artifacts = artifacts_by_kind(m_result);
    if (!artifacts.empty()) {
      m_out += "\n";
      header({"TensorRT / binary artifact", "Files", "First"}, "|---|--:|---|");
      for (const NameCount& entry : artifacts) {
        row({entry.name, std::to_string(entry.count),
             position(entry.first_file, entry.first_line)});
      }
    }
    if (!m_result.kernels.empty()) {
      m_out += "\n";
      header({"Kernel", "Location", "LOC", "Features"}, "|---|---|--:|---|");
      const auto kernels = kernels_by_size(m_result, m_options.max_kernels);
      for (std::size_t i = 0; i < kernels.size(); ++i) {
        const Kernel& kernel = *kernels[i];
        row({code(kernel.name) + (kernel.is_template ? " (template)" : ""),
             position(kernel.file, kernel.line), std::to_string(kernel.lines_of_code),
             cell(kernel_feature_tags(kernel.features))});
      }
      if (m_result.kernels.size() > m_options.max_kernels) {
        m_out += fmt::format("\n\u2026 {} more kernels (see `--format json`).\n",
                             m_result.kernels.size() - m_options.max_kernels);
      }
    }
  }

  void amd_build() {
    const AmdBuildPath& path = m_result.amd_build;
    if (!path.exists) {
      m_out +=
          "**AMD build:** none found (no HIP build file, ROCm branch of a build script or "
          "cuda->hip shim header).\n\n";
    } else {
      m_out += "**AMD build:** exists.\n\n";
      auto lines = [&](std::string_view label, const std::vector<BuildLine>& items) {
        for (std::size_t i = 0; i < items.size() && i < 3; ++i) {
          m_out += fmt::format("- {} {} {}\n", label, position(items[i].file, items[i].line),
                               code(items[i].text));
        }
      };
      lines("set up in", path.setup);
      lines("switch", path.switches);
      for (std::size_t i = 0; i < path.shims.size() && i < 3; ++i) {
        m_out +=
            fmt::format("- shim header {}\n", position(path.shims[i].file, path.shims[i].line));
      }
      if (!path.shim_includes.empty()) {
        m_out += fmt::format("- shim included by {} ({} #include{})\n",
                             position(path.shim_includes[0].file, path.shim_includes[0].line),
                             path.shim_include_sites, path.shim_include_sites == 1 ? "" : "s");
      }
      if (!path.hip_includes.empty()) {
        m_out += fmt::format("- HIP headers included by {} ({} file{})\n",
                             position(path.hip_includes[0].file, path.hip_includes[0].line),
                             path.hip_include_files, path.hip_include_files == 1 ? "" : "s");
      }
      for (std::size_t i = 0; i < path.ci.size() && i < 3; ++i) {
        m_out += fmt::format("- CI/container {}\n", position(path.ci[i].file, path.ci[i].line));
      }
      m_out += "\n";
    }
    if (path.kernel_files > 0) {
      m_out += fmt::format(
          "Kernel files of the product the AMD build compiles: **{} of {}** "
          "({} left out, {} undecided).\n\n",
          path.kernel_files_compiled, path.kernel_files, path.kernel_files_excluded,
          path.kernel_files - path.kernel_files_compiled - path.kernel_files_excluded);
    }
    const auto groups = excluded_groups(m_result, 5);
    if (!groups.empty()) {
      header({"Left out of the AMD build by", "Findings", "With AMD alternative", "First place"},
             "|---|--:|--:|---|");
      for (const ExcludedGroup& group : groups) {
        std::string where = position(group.file, group.line);
        if (group.places > 1) {
          where += fmt::format(" (+{} more)", group.places - 1);
        }
        row({code(group.text), std::to_string(group.findings),
             std::to_string(group.with_alternative), where});
      }
      m_out += "\n";
    }
  }

  void amd_path() {
    m_out += "\n### Existing AMD path\n\n";
    amd_build();
    const auto signs = amd_path_by_kind(m_result);
    if (signs.empty()) {
      m_out += "No HIP guards, ROCm images, HIP build targets or cuda->hip shims.\n";
      return;
    }
    header({"Sign", "Count", "First"}, "|---|--:|---|");
    for (const NameCount& entry : signs) {
      row({entry.name, std::to_string(entry.count), position(entry.first_file, entry.first_line)});
    }
  }

  void findings_by_rule_table() {
    m_out += "\n### Findings by rule\n\n";
    const auto by_rule = findings_by_rule(m_result);
    if (by_rule.empty()) {
      m_out += "No findings.\n";
      return;
    }
    header({"Rule", "Tier", "Count", "Summary"}, "|---|---|--:|---|");
    for (const RuleCount& entry : by_rule) {
      const std::string link =
          fmt::format("[{}]({}{}.md)", entry.rule->id, m_options.rule_doc_base, entry.rule->id);
      row({link, std::string(tier_name(entry.rule->tier)), std::to_string(entry.count),
           cell(entry.rule->summary)});
    }
  }

  void findings_list() {
    if (m_result.findings.empty()) {
      return;
    }
    m_out += fmt::format("\n<details>\n<summary>All {} findings</summary>\n\n",
                         m_result.findings.size());
    header({"Location", "Rule", "Tier", "Scope", "AMD build", "Excerpt"},
           "|---|---|---|---|---|---|");
    std::size_t listed = 0;
    for (const Finding& finding : m_result.findings) {
      if (listed == k_max_listed_findings) {
        break;
      }
      const RuleInfo* rule = rule_of(finding);
      if (rule == nullptr) {
        continue;
      }
      std::string amd(amd_state_name(finding.amd_state));
      if (finding.amd_state == AmdBuildState::Excluded && finding.amd_alternative) {
        amd += ", alternative";
      }
      row({position(finding.file, finding.line), std::string(rule->id),
           std::string(tier_name(rule->tier)), std::string(scope_name(finding.scope)), amd,
           code(finding.excerpt)});
      ++listed;
    }
    if (m_result.findings.size() > listed) {
      m_out += fmt::format("\n\u2026 {} more (see `--format json`).\n",
                           m_result.findings.size() - listed);
    }
    m_out += "\n</details>\n";
  }

  void coverage() {
    const ScanCoverage& covered = m_coverage;
    if (covered.complete()) {
      return;
    }
    m_out +=
        fmt::format("\n### Coverage\n\n**Incomplete:** {}; their findings are missing.\n\n", m_gap);
    header({"File", "Reason", "Detail"}, "|---|---|---|");
    for (const SkippedEntry& entry : covered.unread) {
      row({code(entry.path), std::string(skip_reason_name(entry.reason)), cell(entry.detail)});
    }
  }

  void skipped() {
    const auto reasons = skipped_by_reason(m_result);
    if (reasons.empty()) {
      return;
    }
    m_out += "\n### Skipped\n\n";
    header({"Reason", "Count"}, "|---|--:|");
    for (const NameCount& entry : reasons) {
      row({entry.name, std::to_string(entry.count)});
    }
  }

  const ScanResult& m_result;
  const ReportOptions& m_options;
  const ScanCoverage m_coverage;  // the product files not read, for Coverage and the summary
  const std::string m_gap;
  std::string m_out;
};

}  // namespace

std::string render_markdown(const ScanResult& result, const ReportOptions& options) {
  return MarkdownWriter(result, options).render();
}

}  // namespace gpuport
