#include "report/audit/audit_units.h"

#include <fmt/format.h>

#include <cmath>

#include "report/profile/profile_units.h"
#include "scan/project/scope.h"

namespace gpuport {

std::string_view effort_tier_key(EffortTier tier) {
  switch (tier) {
    case EffortTier::Config:
      return "config";
    case EffortTier::Retune:
      return "retune";
    case EffortTier::Rewrite:
      return "rewrite";
    case EffortTier::Mechanical:
      break;
  }
  return "mechanical";
}

std::string_view effort_tier_title(EffortTier tier) {
  switch (tier) {
    case EffortTier::Config:
      return "Config";
    case EffortTier::Retune:
      return "Retune";
    case EffortTier::Rewrite:
      return "Rewrite";
    case EffortTier::Mechanical:
      break;
  }
  return "Mechanical";
}

std::string_view effort_unit_key(EffortUnit unit) {
  return unit == EffortUnit::Hours ? "hours" : "days";
}

std::string_view hotness_key(Hotness hotness) {
  switch (hotness) {
    case Hotness::Hot:
      return "hot";
    case Hotness::Untraced:
      return "untraced";
    case Hotness::Cold:
      break;
  }
  return "cold";
}

std::string format_effort(double days, double hours_per_day) {
  if (!(days > 0 && days < 0.1) || !(hours_per_day > 0)) {
    return format_days(days);
  }
  std::string text = fmt::format("{:.1f}", std::round(days * hours_per_day * 10) / 10);
  if (text.ends_with(".0")) {
    text.resize(text.size() - 2);
  }
  return text == "0" ? "<0.1 h" : text + " h";
}

std::string format_tuning(const AuditKernel& kernel) {
  if (kernel.tuning_days_low == 0 && kernel.tuning_days_likely == 0 &&
      kernel.tuning_days_high == 0) {
    return "-";
  }
  return fmt::format("{} / {} / {}", format_days(kernel.tuning_days_low),
                     format_days(kernel.tuning_days_likely), format_days(kernel.tuning_days_high));
}

std::string_view kernel_class_label(KernelClass klass, bool own_code) {
  if (klass != KernelClass::Unknown) {
    return class_name(klass);
  }
  return own_code ? "own code" : "unclassified";
}

std::string_view class_time_label(const ClassTime& entry) {
  if (entry.klass != KernelClass::Unknown) {
    return class_name(entry.klass);
  }
  if (entry.own_code_ns <= 0) {
    return "unclassified";
  }
  return entry.own_code_ns >= entry.time_ns ? "own code" : "own code and unclassified";
}

std::string_view magnitude_state_key(MagnitudeState state) {
  switch (state) {
    case MagnitudeState::Plausible:
      return "plausible";
    case MagnitudeState::TooHigh:
      return "too-high";
    case MagnitudeState::TooLow:
      return "too-low";
    case MagnitudeState::NotChecked:
      break;
  }
  return "not-checked";
}

bool flags_the_estimate(const MagnitudeCheck& check) {
  return check.state == MagnitudeState::TooHigh || check.state == MagnitudeState::TooLow;
}

std::string_view verdict_title(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::ConfigChange:
      return "Config change";
    case VerdictKind::ExistingBuild:
      return "Validate the existing AMD build";
    case VerdictKind::ValidationPass:
      return "Validation pass";
    case VerdictKind::BoundedProject:
      return "Bounded project";
    case VerdictKind::NotWorthIt:
      return "Not worth it at these prices";
    case VerdictKind::MajorProject:
      break;
  }
  return "Major project";
}

std::string_view evidence_kind_key(EvidenceLink::Kind kind) {
  switch (kind) {
    case EvidenceLink::Kind::Kernel:
      return "kernel";
    case EvidenceLink::Kind::File:
      return "file";
    case EvidenceLink::Kind::Api:
      return "api";
    case EvidenceLink::Kind::Finding:
      break;
  }
  return "finding";
}

std::string format_day_range(const DayRange& range) {
  return fmt::format("{} / {} / {} days", format_days(range.low), format_days(range.likely),
                     format_days(range.high));
}

std::string format_dollars(double dollars) {
  return format_money(dollars);
}

std::string format_months(std::optional<double> months) {
  if (!months || !std::isfinite(*months)) {
    return "never";
  }
  return fmt::format("{:.1f} months", *months);
}

std::string format_throughput_ratio(double ratio) {
  return fmt::format("{:.2f}x", std::isfinite(ratio) ? ratio : 0.0);
}

std::string format_rps(double rps) {
  return fmt::format("{} req/s", format_quantity(rps));
}

std::string format_requests(double requests) {
  const double magnitude = std::fabs(requests);
  if (magnitude >= 1e9) {
    return format_quantity(std::round(requests / 1e8) / 10) + "B";
  }
  if (magnitude >= 1e6) {
    return format_quantity(std::round(requests / 1e5) / 10) + "M";
  }
  if (magnitude >= 1e3) {
    return format_quantity(std::round(requests / 1e2) / 10) + "k";
  }
  return format_quantity(requests);
}

std::string format_quantity(double quantity) {
  if (!std::isfinite(quantity)) {
    return "-";
  }
  const double hundredths = std::round(quantity * 100) / 100;
  std::string text = fmt::format("{:.2f}", hundredths == 0 ? 0.0 : hundredths);
  while (text.back() == '0') {
    text.pop_back();
  }
  if (text.back() == '.') {
    text.pop_back();
  }
  return text;
}

std::string format_amount(double quantity, std::string_view unit) {
  const std::string number = format_quantity(quantity);
  if (unit.empty()) {
    return number;
  }
  if (number == "1" && unit.size() > 1 && unit.back() == 's') {
    unit.remove_suffix(1);
  }
  return fmt::format("{} {}", number, unit);
}

std::string platform_label(const PlatformCost& platform) {
  const std::string_view vendor = platform.vendor == Vendor::Amd      ? "AMD"
                                  : platform.vendor == Vendor::Nvidia ? "NVIDIA"
                                                                      : "";
  if (vendor.empty()) {
    return platform.gpu;
  }
  return platform.gpu.empty() ? std::string(vendor) : fmt::format("{} {}", vendor, platform.gpu);
}

double round2(double value) {
  if (!std::isfinite(value)) {
    return 0;
  }
  const double rounded = std::round(value * 100) / 100;
  return rounded == 0 ? 0 : rounded;
}

std::string port_role(const AuditFinding& finding) {
  if (finding.scope != Scope::Product) {
    return std::string(scope_name(finding.scope));
  }
  if (finding.is_port_work()) {
    return "port work";
  }
  if (finding.amd.alternative) {
    return finding.amd.guard_line != 0
               ? fmt::format("handled for AMD (guard line {})", finding.amd.guard_line)
               : "handled for AMD (build file)";
  }
  return "CUDA-only";
}

}  // namespace gpuport
