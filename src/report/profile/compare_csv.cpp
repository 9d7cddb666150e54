#include "report/profile/compare_csv.h"

#include <fmt/format.h>

#include "report/profile/profile_units.h"

namespace gpuport {

namespace {

std::string ratio_field(std::optional<double> ratio) {
  return ratio ? fixed6(*ratio) : std::string();
}

}  // namespace

std::string render_compare_csv(const Comparison& cmp) {
  std::string out = "section,class,name,a_ns,b_ns,ratio,a_calls,b_calls\r\n";
  const auto row = [&out](std::string_view section, std::string_view klass, std::string_view name,
                          std::int64_t a_ns, std::int64_t b_ns, std::optional<double> ratio,
                          std::int64_t a_calls, std::int64_t b_calls) {
    out += fmt::format("{},{},{},{},{},{},{},{}\r\n", section, klass, csv_field(name), a_ns, b_ns,
                       ratio_field(ratio), a_calls, b_calls);
  };
  row("total", "", "kernel", cmp.totals_a.kernel_ns, cmp.totals_b.kernel_ns, cmp.kernel_ratio,
      cmp.totals_a.kernel_calls, cmp.totals_b.kernel_calls);
  row("total", "", "gpu", cmp.totals_a.gpu_ns, cmp.totals_b.gpu_ns, cmp.gpu_ratio,
      cmp.totals_a.kernel_calls + cmp.totals_a.memory_calls,
      cmp.totals_b.kernel_calls + cmp.totals_b.memory_calls);
  for (const ClassComparison& entry : cmp.classes) {
    row("class", class_name(entry.klass), "", entry.a_ns, entry.b_ns, entry.ratio, 0, 0);
  }
  for (const MatchedKernel& entry : cmp.matched) {
    row("matched", class_name(entry.class_a), entry.display_a, entry.a_ns, entry.b_ns, entry.ratio,
        entry.a_calls, entry.b_calls);
  }
  for (const UnmatchedClass& group : cmp.unmatched) {
    for (const UnmatchedKernel& kernel : group.only_a) {
      row("only_a", class_name(group.klass), kernel.display, kernel.total_ns, 0, std::nullopt,
          kernel.calls, 0);
    }
    for (const UnmatchedKernel& kernel : group.only_b) {
      row("only_b", class_name(group.klass), kernel.display, 0, kernel.total_ns, std::nullopt, 0,
          kernel.calls);
    }
  }
  return out;
}

}  // namespace gpuport
