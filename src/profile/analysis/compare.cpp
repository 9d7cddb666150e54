#include "profile/analysis/compare.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace gpuport {

namespace {

// A side's kernels keyed by normalized name, with the display name and class of the longest.
struct NormalizedKernel {
  std::string display;
  KernelClass klass = KernelClass::Unknown;
  std::int64_t longest_ns = -1;
  std::int64_t total_ns = 0;
  std::int64_t calls = 0;
};

std::map<std::string, NormalizedKernel> by_normalized(const Profile& profile) {
  std::map<std::string, NormalizedKernel> kernels;
  for (const KernelRow& row : profile.kernels.rows) {
    NormalizedKernel& entry = kernels[row.name.normalized];
    if (row.total_ns > entry.longest_ns) {
      entry.longest_ns = row.total_ns;
      entry.display = row.name.display;
      entry.klass = row.classification.klass;
    }
    entry.total_ns += row.total_ns;
    entry.calls += row.calls;
  }
  return kernels;
}

void sort_unmatched(std::vector<UnmatchedKernel>& kernels) {
  std::stable_sort(
      kernels.begin(), kernels.end(),
      [](const UnmatchedKernel& x, const UnmatchedKernel& y) { return x.total_ns > y.total_ns; });
}

}  // namespace

std::optional<double> ratio_of(std::int64_t b, std::int64_t a) {
  if (a <= 0) {
    return std::nullopt;
  }
  return static_cast<double>(b) / static_cast<double>(a);
}

Comparison compare_profiles(const Profile& a, const Profile& b) {
  Comparison result;
  result.a = a.trace;
  result.b = b.trace;
  result.totals_a = a.totals;
  result.totals_b = b.totals;
  result.gpu_ratio = ratio_of(b.totals.gpu_ns, a.totals.gpu_ns);
  result.kernel_ratio = ratio_of(b.totals.kernel_ns, a.totals.kernel_ns);

  constexpr std::size_t k_classes = static_cast<std::size_t>(KernelClass::Unknown) + 1;
  for (std::size_t i = 0; i < k_classes; ++i) {
    const auto klass = static_cast<KernelClass>(i);
    const ClassRow* row_a = a.classes.find(klass);
    const ClassRow* row_b = b.classes.find(klass);
    if (row_a == nullptr && row_b == nullptr) {
      continue;
    }
    ClassComparison entry;
    entry.klass = klass;
    entry.a_ns = row_a != nullptr ? row_a->time_ns : 0;
    entry.b_ns = row_b != nullptr ? row_b->time_ns : 0;
    entry.a_share = row_a != nullptr ? row_a->share : 0.0;
    entry.b_share = row_b != nullptr ? row_b->share : 0.0;
    entry.ratio = ratio_of(entry.b_ns, entry.a_ns);
    result.classes.push_back(entry);
  }
  std::stable_sort(result.classes.begin(), result.classes.end(),
                   [](const ClassComparison& x, const ClassComparison& y) {
                     return std::max(x.a_ns, x.b_ns) > std::max(y.a_ns, y.b_ns);
                   });

  const auto kernels_a = by_normalized(a);
  const auto kernels_b = by_normalized(b);
  std::unordered_map<KernelClass, UnmatchedClass> unmatched;
  for (const auto& [normalized, entry] : kernels_a) {
    const auto other = kernels_b.find(normalized);
    if (other == kernels_b.end()) {
      UnmatchedClass& group = unmatched[entry.klass];
      group.a_ns += entry.total_ns;
      group.only_a.push_back({entry.display, entry.total_ns, entry.calls});
      continue;
    }
    MatchedKernel match;
    match.normalized = normalized;
    match.display_a = entry.display;
    match.display_b = other->second.display;
    match.class_a = entry.klass;
    match.class_b = other->second.klass;
    match.a_ns = entry.total_ns;
    match.b_ns = other->second.total_ns;
    match.a_calls = entry.calls;
    match.b_calls = other->second.calls;
    match.ratio = ratio_of(match.b_ns, match.a_ns);
    result.matched.push_back(std::move(match));
  }
  for (const auto& [normalized, entry] : kernels_b) {
    if (kernels_a.find(normalized) == kernels_a.end()) {
      UnmatchedClass& group = unmatched[entry.klass];
      group.b_ns += entry.total_ns;
      group.only_b.push_back({entry.display, entry.total_ns, entry.calls});
    }
  }
  std::stable_sort(result.matched.begin(), result.matched.end(),
                   [](const MatchedKernel& x, const MatchedKernel& y) {
                     return x.a_ns + x.b_ns > y.a_ns + y.b_ns;
                   });
  for (const ClassComparison& klass : result.classes) {
    const auto found = unmatched.find(klass.klass);
    if (found == unmatched.end()) {
      continue;
    }
    UnmatchedClass group = std::move(found->second);
    group.klass = klass.klass;
    sort_unmatched(group.only_a);
    sort_unmatched(group.only_b);
    result.unmatched.push_back(std::move(group));
  }
  return result;
}

}  // namespace gpuport
