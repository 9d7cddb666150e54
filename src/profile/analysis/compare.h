// Two profiles of the same workload on two platforms, side by side: GPU time per class with
// the ratio B/A, kernels matched by their normalized name, and the kernels only one side ran.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "profile/analysis/profile.h"

namespace gpuport {

struct ClassComparison {
  KernelClass klass = KernelClass::Unknown;
  std::int64_t a_ns = 0;
  std::int64_t b_ns = 0;
  double a_share = 0;  // of A's GPU time
  double b_share = 0;
  std::optional<double> ratio;  // b_ns / a_ns; absent when A has no time in the class
};

// One kernel that both traces ran (equal KernelName::normalized); raw names that normalize
// alike are summed.
struct MatchedKernel {
  std::string normalized;
  std::string display_a;
  std::string display_b;
  KernelClass class_a = KernelClass::Unknown;
  KernelClass class_b = KernelClass::Unknown;
  std::int64_t a_ns = 0;
  std::int64_t b_ns = 0;
  std::int64_t a_calls = 0;
  std::int64_t b_calls = 0;
  std::optional<double> ratio;
};

struct UnmatchedKernel {
  std::string display;
  std::int64_t total_ns = 0;
  std::int64_t calls = 0;
};

// The kernels of one class that only one side ran, longest first.
struct UnmatchedClass {
  KernelClass klass = KernelClass::Unknown;
  std::int64_t a_ns = 0;  // time of the A-only kernels
  std::int64_t b_ns = 0;
  std::vector<UnmatchedKernel> only_a;
  std::vector<UnmatchedKernel> only_b;
};

struct Comparison {
  TraceInfo a;
  TraceInfo b;
  ProfileTotals totals_a;
  ProfileTotals totals_b;
  std::optional<double> gpu_ratio;        // B/A of GPU time
  std::optional<double> kernel_ratio;     // B/A of kernel time
  std::vector<ClassComparison> classes;   // longest (A or B) first
  std::vector<MatchedKernel> matched;     // longest (A + B) first
  std::vector<UnmatchedClass> unmatched;  // in the order of `classes`
};

Comparison compare_profiles(const Profile& a, const Profile& b);

std::optional<double> ratio_of(std::int64_t b, std::int64_t a);

}  // namespace gpuport
