#include "report/profile/compare_markdown.h"

#include <fmt/format.h>

#include "report/profile/compare_text.h"
#include "report/profile/profile_units.h"

namespace gpuport {

std::string render_compare_markdown(const Comparison& cmp, const ReportOptions& options) {
  std::string out = "# gpuport compare\n\n| | trace | platform | kernel time | GPU time |\n";
  out += "|---|---|---|--:|--:|\n";
  out += fmt::format(
      "| A | {} | {} | {} | {} |\n", markdown_cell(cmp.a.path),
      markdown_cell(fmt::format("{}, {}", format_name(cmp.a.format), platform_summary(cmp.a))),
      format_duration(cmp.totals_a.kernel_ns), format_duration(cmp.totals_a.gpu_ns));
  out += fmt::format(
      "| B | {} | {} | {} | {} |\n", markdown_cell(cmp.b.path),
      markdown_cell(fmt::format("{}, {}", format_name(cmp.b.format), platform_summary(cmp.b))),
      format_duration(cmp.totals_b.kernel_ns), format_duration(cmp.totals_b.gpu_ns));
  out += fmt::format("| B/A | | | {} | {} |\n", format_ratio(cmp.kernel_ratio),
                     format_ratio(cmp.gpu_ratio));

  out += "\n## By class\n\n| class | A | B | B/A | A share | B share |\n";
  out += "|---|--:|--:|--:|--:|--:|\n";
  for (const ClassComparison& row : cmp.classes) {
    out +=
        fmt::format("| {} | {} | {} | {} | {} | {} |\n", class_name(row.klass),
                    format_duration(row.a_ns), format_duration(row.b_ns), format_ratio(row.ratio),
                    format_share(row.a_share), format_share(row.b_share));
  }

  out += fmt::format("\n## Kernels both ran ({})\n\n", cmp.matched.size());
  if (cmp.matched.empty()) {
    out += "None: the two traces share no kernel name.\n";
  } else {
    out += "| # | kernel | class | A | B | B/A | A calls | B calls |\n";
    out += "|--:|---|---|--:|--:|--:|--:|--:|\n";
    for (std::size_t i = 0; i < cmp.matched.size() && i < options.max_kernels; ++i) {
      const MatchedKernel& row = cmp.matched[i];
      out += fmt::format(
          "| {} | {} | {} | {} | {} | {} | {} | {} |\n", i + 1, markdown_cell(row.display_a),
          class_name(row.class_a), format_duration(row.a_ns), format_duration(row.b_ns),
          format_ratio(row.ratio), format_count(row.a_calls), format_count(row.b_calls));
    }
  }

  out += "\n## Kernels only one side ran\n\n";
  if (cmp.unmatched.empty()) {
    out += "None.\n";
    return out;
  }
  const std::size_t listed = unmatched_listed(options);
  out += "| class | side | kernel | total | calls |\n|---|---|---|--:|--:|\n";
  for (const UnmatchedClass& group : cmp.unmatched) {
    const auto add = [&](const std::vector<UnmatchedKernel>& kernels, std::string_view side) {
      for (std::size_t i = 0; i < kernels.size() && i < listed; ++i) {
        out += fmt::format("| {} | {} | {} | {} | {} |\n", class_name(group.klass), side,
                           markdown_cell(kernels[i].display), format_duration(kernels[i].total_ns),
                           format_count(kernels[i].calls));
      }
      if (kernels.size() > listed) {
        out += fmt::format("| {} | {} | {} more | | |\n", class_name(group.klass), side,
                           kernels.size() - listed);
      }
    };
    add(group.only_a, "A");
    add(group.only_b, "B");
  }
  return out;
}

}  // namespace gpuport
