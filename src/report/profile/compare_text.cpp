#include "report/profile/compare_text.h"

#include <fmt/format.h>

#include "report/profile/profile_units.h"
#include "report/text_table.h"
#include "report/text_util.h"

namespace gpuport {

namespace {

class CompareTextWriter {
 public:
  CompareTextWriter(const Comparison& comparison, const ReportOptions& options)
      : m_cmp(comparison), m_options(options) {}

  std::string render() {
    header();
    classes();
    matched();
    unmatched();
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
    m_out += styled("gpuport compare", k_ansi_bold, m_options.color);
    m_out += '\n';
    m_out += render_table(
        {{"", Align::Left, Shrink::Fixed, 1},
         {"trace", Align::Left, Shrink::Allowed, 12, KeepEnd::End, nullptr, 48},
         {"platform", Align::Left, Shrink::Allowed, 12}},
        {{"A", printable(m_cmp.a.path),
          fmt::format("{}, {}", format_name(m_cmp.a.format), platform_summary(m_cmp.a))},
         {"B", printable(m_cmp.b.path),
          fmt::format("{}, {}", format_name(m_cmp.b.format), platform_summary(m_cmp.b))}},
        2, m_options.width, m_options.color);
    line(fmt::format("  Kernel time: A {}, B {}; B/A {}", format_duration(m_cmp.totals_a.kernel_ns),
                     format_duration(m_cmp.totals_b.kernel_ns), format_ratio(m_cmp.kernel_ratio)));
    line(fmt::format("  GPU time with copies/fills: A {}, B {}; B/A {}",
                     format_duration(m_cmp.totals_a.gpu_ns), format_duration(m_cmp.totals_b.gpu_ns),
                     format_ratio(m_cmp.gpu_ratio)));
  }

  void classes() {
    title("By class (B/A above 1: B spends longer)");
    if (m_cmp.classes.empty()) {
      line("  No kernels on either side.");
      return;
    }
    std::vector<std::vector<std::string>> cells;
    for (const ClassComparison& row : m_cmp.classes) {
      cells.push_back({std::string(class_name(row.klass)), format_duration(row.a_ns),
                       format_duration(row.b_ns), format_ratio(row.ratio),
                       format_share(row.a_share), format_share(row.b_share)});
    }
    m_out += render_table({{"class", Align::Left, Shrink::Fixed, 5},
                           {"A", Align::Right, Shrink::Fixed, 8},
                           {"B", Align::Right, Shrink::Fixed, 8},
                           {"B/A", Align::Right, Shrink::Fixed, 5},
                           {"A share", Align::Right, Shrink::Fixed, 7},
                           {"B share", Align::Right, Shrink::Fixed, 7}},
                          cells, 2, m_options.width, m_options.color);
  }

  void matched() {
    const std::size_t shown = std::min(m_cmp.matched.size(), m_options.max_kernels);
    title(fmt::format("Kernels both ran (same normalized name): {}", m_cmp.matched.size()));
    if (m_cmp.matched.empty()) {
      line("  None: the two traces share no kernel name (see the classes above).");
      return;
    }
    std::vector<std::vector<std::string>> cells;
    std::vector<std::string> notes;
    for (std::size_t i = 0; i < shown; ++i) {
      const MatchedKernel& row = m_cmp.matched[i];
      cells.push_back({std::to_string(i + 1), format_duration(row.a_ns), format_duration(row.b_ns),
                       format_ratio(row.ratio), format_count(row.a_calls),
                       format_count(row.b_calls), std::string(class_name(row.class_a))});
      notes.push_back(printable(row.display_a));
    }
    m_out += render_table({{"#", Align::Right, Shrink::Fixed, 1},
                           {"A", Align::Right, Shrink::Fixed, 8},
                           {"B", Align::Right, Shrink::Fixed, 8},
                           {"B/A", Align::Right, Shrink::Fixed, 5},
                           {"A calls", Align::Right, Shrink::Fixed, 7},
                           {"B calls", Align::Right, Shrink::Fixed, 7},
                           {"class", Align::Left, Shrink::Allowed, 5}},
                          cells, 2, m_options.width, m_options.color, notes);
    if (m_cmp.matched.size() > shown) {
      line(fmt::format("  \u2026 {} more (--top N, or --format json/csv)",
                       m_cmp.matched.size() - shown));
    }
  }

  void unmatched() {
    title("Kernels only one side ran, by class");
    if (m_cmp.unmatched.empty()) {
      line("  None: every kernel ran on both sides.");
      return;
    }
    const std::size_t listed = unmatched_listed(m_options);
    for (const UnmatchedClass& group : m_cmp.unmatched) {
      line(fmt::format(
          "  {}: only A {} kernel{} ({}), only B {} kernel{} ({})", class_name(group.klass),
          group.only_a.size(), group.only_a.size() == 1 ? "" : "s", format_duration(group.a_ns),
          group.only_b.size(), group.only_b.size() == 1 ? "" : "s", format_duration(group.b_ns)));
      std::vector<std::vector<std::string>> cells;
      std::vector<std::string> notes;
      const auto add = [&](const std::vector<UnmatchedKernel>& kernels, std::string_view side) {
        for (std::size_t i = 0; i < kernels.size() && i < listed; ++i) {
          cells.push_back({std::string(side), format_duration(kernels[i].total_ns),
                           format_count(kernels[i].calls)});
          notes.push_back(printable(kernels[i].display));
        }
        if (kernels.size() > listed) {
          cells.push_back({std::string(side), "", ""});
          notes.push_back(fmt::format("\u2026 {} more", kernels.size() - listed));
        }
      };
      add(group.only_a, "A");
      add(group.only_b, "B");
      m_out += render_table({{"side", Align::Left, Shrink::Fixed, 4},
                             {"total", Align::Right, Shrink::Fixed, 8},
                             {"calls", Align::Right, Shrink::Fixed, 5}},
                            cells, 4, m_options.width, m_options.color, notes);
    }
  }

  const Comparison& m_cmp;
  const ReportOptions& m_options;
  std::string m_out;
};

}  // namespace

std::size_t unmatched_listed(const ReportOptions& options) {
  return std::max<std::size_t>(3, options.max_kernels / 4);
}

std::string render_compare_text(const Comparison& comparison, const ReportOptions& options) {
  return CompareTextWriter(comparison, options).render();
}

}  // namespace gpuport
