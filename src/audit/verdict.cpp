// The verdict rules, in order: not worth it, config change, validation pass, bounded, major.
#include "audit/verdict.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "audit/effort.h"

namespace gpuport {

namespace {

std::string range_text(const DayRange& days) {
  return format_days(days.low) + "–" + format_days(days.high);
}

// Placeholder throughputs cannot answer the cost question; the reason asks it instead.
VerdictReason cost_question(const CostSummary& cost) {
  VerdictReason reason;
  reason.anchor = "cost";
  reason.weight = 0;
  reason.text = fmt::format(
      "At these prices AMD breaks even at {:.2f}x of NVIDIA's throughput{}: measure both with "
      "`gpuport bench` (the throughputs here are placeholders)",
      cost.break_even_ratio,
      cost.payback_ratio ? fmt::format(" and pays the {} port back within {:g} months at {:.2f}x",
                                       format_money(cost.porting_cost.likely), cost.horizon_months,
                                       *cost.payback_ratio)
                         : std::string());
  return reason;
}

VerdictReason cost_reason(const CostSummary& cost) {
  VerdictReason reason;
  reason.anchor = "cost";
  reason.weight = std::abs(cost.monthly_delta);
  if (cost.nvidia.throughput_assumed || cost.amd.throughput_assumed) {
    return cost_question(cost);
  }
  const std::string prices = format_money(cost.amd.cost_per_million) + " per 1M requests on " +
                             cost.amd.gpu + " against " +
                             format_money(cost.nvidia.cost_per_million) + " on " + cost.nvidia.gpu;
  if (!cost.payback_months) {
    reason.text = "AMD costs " + prices + ", so there is no saving to pay back the port";
  } else if (*cost.payback_months > cost.horizon_months) {
    reason.text = fmt::format(
        "The saving of {} a month ({}) pays the {} port back in {:.1f} months, beyond the "
        "{:g}-month horizon",
        format_money(cost.monthly_delta), prices, format_money(cost.porting_cost.likely),
        *cost.payback_months, cost.horizon_months);
  } else {
    reason.text = fmt::format("AMD saves {} a month ({}): the {} port pays back in {:.1f} months",
                              format_money(cost.monthly_delta), prices,
                              format_money(cost.porting_cost.likely), *cost.payback_months);
  }
  return reason;
}

VerdictReason item_reason(const EffortItem& item) {
  VerdictReason reason;
  reason.anchor = item.anchor;
  reason.weight = item.days.likely;
  reason.text = fmt::format("{}: {} days likely ({} days)", item.title,
                            format_days(item.days.likely), range_text(item.days));
  return reason;
}

// Items by likely days, largest first (ties keep the list's order).
std::vector<const EffortItem*> weightiest(const std::vector<EffortItem>& items) {
  std::vector<const EffortItem*> out;
  for (const EffortItem& item : items) {
    if (item.days.likely > 0) {
      out.push_back(&item);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const EffortItem* a, const EffortItem* b) {
    return a->days.likely > b->days.likely;
  });
  return out;
}

const AuditKernel* hottest_own(const std::vector<AuditKernel>& kernels, Hotness hotness) {
  for (const AuditKernel& kernel : kernels) {  // hottest first
    if (kernel.own_code && kernel.hotness == hotness) {
      return &kernel;
    }
  }
  return nullptr;
}

VerdictReason no_hot_kernel_reason(const std::vector<AuditKernel>& kernels, bool traced) {
  VerdictReason reason;
  reason.weight = 0;
  if (const AuditKernel* own = hottest_own(kernels, Hotness::Cold)) {
    reason.anchor = own->anchor;
    reason.text = fmt::format(
        "No kernel of the team's own is on the hot path: the hottest, {}, takes {:.1f}% of GPU "
        "time",
        own->name, own->share * 100);
  } else {
    reason.anchor = "kernels";
    reason.text = traced ? "The traces run no kernel of the team's own: the hot path is library "
                           "and framework code, which runs on AMD as it is"
                         : "The repository defines no CUDA kernel of its own: its GPU work is "
                           "library and framework code, which runs on AMD as it is";
  }
  return reason;
}

// Kernel families the AMD build does without: not in the total, so the reasons name them.
std::optional<VerdictReason> feature_gap_reason(const std::vector<FeatureGap>* gaps) {
  if (gaps == nullptr) {
    return std::nullopt;
  }
  std::vector<const FeatureGap*> folders;
  for (const FeatureGap& gap : *gaps) {
    if (gap.port_days && !gap.folder.empty()) {
      folders.push_back(&gap);
    }
  }
  if (folders.empty()) {
    return std::nullopt;
  }
  std::stable_sort(folders.begin(), folders.end(), [](const FeatureGap* a, const FeatureGap* b) {
    return a->port_days->likely > b->port_days->likely;
  });
  std::string names;
  std::string days;
  constexpr std::size_t k_named = 3;
  for (std::size_t i = 0; i < folders.size() && i < k_named; ++i) {
    const std::string_view separator =
        i == 0 ? "" : (i + 1 == std::min(folders.size(), k_named) ? " and " : ", ");
    names += std::string(separator) + folders[i]->folder;
    days += std::string(separator) + format_days(folders[i]->port_days->likely);
  }
  if (folders.size() > k_named) {
    names += fmt::format(" (and {} more)", folders.size() - k_named);
  }
  VerdictReason reason;
  reason.anchor = "feature-gaps";
  reason.weight = folders.front()->port_days->likely;
  reason.text = fmt::format(
      "CUDA-only, and the AMD build cannot compile {}: {} {} (CUTLASS/CuTe), a feature gap "
      "rather than port work; porting {} anyway would take {} days likely, not in the total",
      folders.size() == 1 ? "it" : "them",
      folders.size() == 1 ? "the kernel family in" : "the kernel families in", names,
      folders.size() == 1 ? "it" : "them", days);
  return reason;
}

}  // namespace

std::string_view verdict_name(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::ConfigChange:
      return "config change";
    case VerdictKind::ExistingBuild:
      return "validate the existing AMD build";
    case VerdictKind::ValidationPass:
      return "validation pass";
    case VerdictKind::BoundedProject:
      return "bounded project";
    case VerdictKind::MajorProject:
      return "major project";
    case VerdictKind::NotWorthIt:
      break;
  }
  return "not worth it";
}

std::string_view verdict_id(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::ConfigChange:
      return "config-change";
    case VerdictKind::ExistingBuild:
      return "existing-amd-build";
    case VerdictKind::ValidationPass:
      return "validation-pass";
    case VerdictKind::BoundedProject:
      return "bounded-project";
    case VerdictKind::MajorProject:
      return "major-project";
    case VerdictKind::NotWorthIt:
      break;
  }
  return "not-worth-it";
}

std::string format_money(double dollars) {
  if (!std::isfinite(dollars)) {
    return "-";
  }
  const std::string sign = dollars < 0 ? "-" : "";
  const double magnitude = std::fabs(dollars);
  if (std::round(magnitude * 100) / 100 < 1000) {
    const std::string text = fmt::format("{:.2f}", magnitude);
    return (text == "0.00" ? "" : sign) + "$" + text;
  }
  if (magnitude >= 1e15) {  // beyond any budget; also keeps llround in range
    return sign + fmt::format("${:.3g}", magnitude);
  }
  return sign + "$" + format_whole(magnitude);
}

std::string format_whole(double value) {
  if (!std::isfinite(value)) {
    return "-";
  }
  const std::string digits = fmt::format("{:.0f}", std::round(std::fabs(value)));
  std::string grouped = value <= -0.5 ? "-" : "";
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) {
      grouped += ',';
    }
    grouped += digits[i];
  }
  return grouped;
}

std::string format_days(double days) {
  // Halves round away from zero (10.5 -> 11), not to even as printf does.
  if (days >= 9.95) {
    return fmt::format("{:.0f}", std::round(days));
  }
  std::string text = fmt::format("{:.1f}", std::round(days * 10) / 10);
  if (text.ends_with(".0")) {
    text.resize(text.size() - 2);
  }
  return text;
}

VerdictSummary decide_verdict(const VerdictInputs& inputs, const VerdictConfig& config) {
  const EffortSummary& effort = inputs.effort;
  double beyond_config = 0;  // likely days of mechanical, retune and rewrite work
  for (const EffortTierTotal& tier : effort.tiers) {
    if (tier.tier != EffortTier::Config) {
      beyond_config += tier.days.likely;
    }
  }
  // With an AMD build in the project, its validation item and the work beside it.
  const EffortItem* existing_build = nullptr;
  for (const EffortItem& item : inputs.items) {
    if (validates_existing_build(item)) {
      existing_build = &item;
    }
  }
  const double beside_build =
      existing_build ? beyond_config - existing_build->days.likely : beyond_config;
  const bool hot_own = hottest_own(inputs.kernels, Hotness::Hot) != nullptr ||
                       hottest_own(inputs.kernels, Hotness::Untraced) != nullptr;
  const CostSummary& cost = inputs.cost;

  VerdictSummary verdict;
  verdict.cost_decides = !cost.nvidia.throughput_assumed && !cost.amd.throughput_assumed;
  for (const PlatformCost* platform : {&cost.nvidia, &cost.amd}) {
    if (platform->throughput_assumed) {
      verdict.assumed.push_back(fmt::format(
          "The {} throughput ({:g} req/s per replica) is a placeholder, not a measurement: the "
          "cost figures ask how fast AMD must be, they do not say it is worth it or not",
          platform->gpu, platform->throughput_rps));
    }
  }
  if (verdict.cost_decides &&
      (!cost.payback_months || *cost.payback_months > cost.horizon_months)) {
    verdict.kind = VerdictKind::NotWorthIt;
  } else if (beyond_config <= 0) {
    verdict.kind = VerdictKind::ConfigChange;
  } else if (existing_build && beside_build <= std::max(config.validation_max_days,
                                                        config.existing_build_extra_share *
                                                            existing_build->days.likely)) {
    verdict.kind = VerdictKind::ExistingBuild;
  } else if (!hot_own && beyond_config <= config.validation_max_days) {
    verdict.kind = VerdictKind::ValidationPass;
  } else if (effort.total.likely <= config.bounded_max_days) {
    verdict.kind = VerdictKind::BoundedProject;
  } else {
    verdict.kind = VerdictKind::MajorProject;
  }
  verdict.days_low = effort.total.low;
  verdict.days_high = effort.total.high;

  std::string name(verdict_name(verdict.kind));
  name[0] = static_cast<char>(name[0] - 'a' + 'A');
  verdict.headline = name + (verdict.kind == VerdictKind::NotWorthIt ? " at these prices" : "") +
                     ": " + range_text(effort.total) + " engineer-days";

  std::vector<VerdictReason> reasons;
  const auto items = weightiest(inputs.items);
  switch (verdict.kind) {
    case VerdictKind::NotWorthIt:
      reasons.push_back(cost_reason(cost));
      break;
    case VerdictKind::ConfigChange: {
      VerdictReason only;
      only.anchor = items.empty() ? "cost" : items.front()->anchor;
      only.weight = effort.total.likely;
      only.text = fmt::format("Only config changes: {} items, {} days likely in all",
                              inputs.items.size(), format_days(effort.total.likely));
      reasons.push_back(std::move(only));
      break;
    }
    case VerdictKind::ValidationPass:
      reasons.push_back(no_hot_kernel_reason(inputs.kernels, inputs.traced));
      break;
    case VerdictKind::ExistingBuild:
      break;  // its largest item is the validation of that build
    case VerdictKind::BoundedProject:
    case VerdictKind::MajorProject:
      break;
  }
  // A feature gap, when there is one, takes the second place: it is not in the total.
  std::optional<VerdictReason> gaps;
  if (verdict.kind != VerdictKind::NotWorthIt) {
    gaps = feature_gap_reason(inputs.feature_gaps);
  }
  const std::size_t item_places = gaps ? 1 : 2;
  for (const EffortItem* item : items) {
    if (reasons.size() >= item_places) {
      break;
    }
    reasons.push_back(item_reason(*item));
  }
  if (gaps) {
    reasons.push_back(*gaps);
  }
  if (verdict.kind != VerdictKind::NotWorthIt) {
    reasons.push_back(cost_reason(cost));
  } else if (items.size() > 1) {
    reasons.push_back(item_reason(*items[1]));
  }
  if (reasons.size() > 3) {
    reasons.resize(3);
  }
  verdict.reasons = std::move(reasons);
  return verdict;
}

}  // namespace gpuport
