#include "audit/magnitude.h"

#include <cmath>

#include <fmt/format.h>

#include "audit/verdict.h"

namespace gpuport {

namespace {

std::string grouped(double value) {
  const std::string digits = fmt::format("{:.0f}", std::round(value));
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) {
      out += ',';
    }
    out += digits[i];
  }
  return out;
}

bool is_validation(const EffortItem& item) {
  return item.weight_key == "effort.validation.base_days" ||
         item.weight_key == "effort.existing_build.base_days";
}

}  // namespace

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
    if (item.tier == EffortTier::Config || is_validation(item)) {
      check.port_days -= item.days.likely;
    }
  }
  check.port_days = std::max(0.0, check.port_days);
  const std::string size = fmt::format(
      "{} kernel line{} in {} kernel{} in scope", grouped(check.kernel_lines),
      check.kernel_lines == 1 ? "" : "s", grouped(check.kernels), check.kernels == 1 ? "" : "s");
  const std::string range =
      fmt::format("{}–{}", grouped(check.plausible_low), grouped(check.plausible_high));
  if (check.kernel_lines == 0) {
    check.text =
        "No kernel code of the project's own in scope: the estimate is validation, "
        "configuration and library work, not a check against code size";
    return check;
  }
  if (check.port_days < config.min_port_days) {
    check.text =
        fmt::format("{}; {} days of port work is under {}, too little to judge by the code's size",
                    size, format_days(check.port_days), format_days(config.min_port_days));
    return check;
  }
  const double rate = static_cast<double>(check.kernel_lines) / check.port_days;
  check.lines_per_day = rate;
  const std::string implied =
      fmt::format("{}; the port work ({} days likely) implies {} lines per engineer-day", size,
                  format_days(check.port_days), grouped(rate));
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
