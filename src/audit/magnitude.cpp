#include "audit/magnitude.h"

#include <cmath>

#include <fmt/format.h>

#include "audit/effort.h"
#include "audit/verdict.h"

namespace gpuport {

MagnitudeCheck check_magnitude(const ScanResult& scan, const std::vector<EffortItem>& items,
                               const EffortSummary& effort, const MagnitudeConfig& config) {
  MagnitudeCheck check;
  check.plausible_low = config.min_lines_per_day;
  check.plausible_high = config.max_lines_per_day;
  for (const Kernel& kernel : scan.kernels) {
    if (kernel.is_port_work()) {
      ++check.kernels;
      check.kernel_lines += kernel.lines_of_code;
    }
  }
  check.port_days = effort.total.likely;
  for (const EffortItem& item : items) {
    if (item.tier == EffortTier::Config || validates_the_stack(item) ||
        validates_existing_build(item)) {
      check.port_days -= item.days.likely;
    }
  }
  check.port_days = std::max(0.0, check.port_days);
  const std::string size =
      fmt::format("{} kernel line{} in {} kernel{} in scope", format_whole(check.kernel_lines),
                  check.kernel_lines == 1 ? "" : "s", format_whole(check.kernels),
                  check.kernels == 1 ? "" : "s");
  const std::string range =
      fmt::format("{}–{}", format_whole(check.plausible_low), format_whole(check.plausible_high));
  if (check.kernel_lines == 0) {
    check.text =
        "No kernel code of the project's own in scope: the estimate is validation, "
        "configuration and library work, not a check against code size";
    return check;
  }
  // Also no port work at all (min_port_days may be set to 0): no rate to divide out.
  if (check.port_days < config.min_port_days || check.port_days <= 0) {
    check.text =
        fmt::format("{}; {} days of port work is under {}, too little to judge by the code's size",
                    size, format_days(check.port_days), format_days(config.min_port_days));
    return check;
  }
  const double rate = static_cast<double>(check.kernel_lines) / check.port_days;
  check.lines_per_day = rate;
  const std::string implied =
      fmt::format("{}; the port work ({} days likely) implies {} lines per engineer-day", size,
                  format_days(check.port_days), format_whole(rate));
  if (rate < config.min_lines_per_day) {
    check.state = MagnitudeState::TooHigh;
    check.text = fmt::format(
        "{}, below the plausible {}: the estimate may be too high for the code in scope; check "
        "its largest items before using it",
        implied, range);
  } else if (rate > config.max_lines_per_day && !scan.amd_build.exists) {
    check.state = MagnitudeState::TooLow;
    check.text =
        fmt::format("{}, above the plausible {}: the estimate may be too low for the code in scope",
                    implied, range);
  } else {
    check.state = MagnitudeState::Plausible;
    check.text = fmt::format("{} (plausible: {})", implied, range);
  }
  return check;
}

}  // namespace gpuport
