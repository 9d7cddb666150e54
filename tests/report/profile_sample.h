// A small hand-built profile for the writer tests: three kernels (one name with every character
// a format must escape), a copy, two GPU steps, and a second platform for compare.
#pragma once

#include "profile/analysis/compare.h"
#include "profile/analysis/profile.h"
#include "profile/trace.h"

namespace gpuport::testing {

inline constexpr std::string_view k_tricky_name = "k<a, \"b\">|c&d_*x*";

inline Trace sample_trace() {
  Trace trace;
  trace.path = "run/h100.json";
  trace.vendor = Vendor::Nvidia;
  trace.devices.push_back({"NVIDIA H100 80GB HBM3", 32, 9, 0});
  const auto name = [&trace](std::string_view text) { return trace.names.intern(text); };
  const auto kernel = [&](std::string_view text, std::int64_t start, std::int64_t duration,
                          std::int64_t correlation, ActivityKind kind = ActivityKind::Kernel) {
    GpuActivity activity;
    activity.name = name(text);
    activity.start_ns = start;
    activity.duration_ns = duration;
    activity.correlation = correlation;
    activity.kind = kind;
    trace.activities.push_back(activity);
  };
  trace.launches.push_back({1, name("cudaLaunchKernelExC")});
  trace.launches.push_back({2, name("cudaLaunchKernelExC")});
  trace.launches.push_back({3, name("cudaLaunchKernel")});
  trace.launches.push_back({4, name("cudaLaunchKernel")});
  trace.ranges.push_back({1'000, 2'001'000, name("ProfilerStep#1"), true});
  trace.ranges.push_back({2'001'000, 5'001'000, name("ProfilerStep#2"), true});
  const std::string_view gemm =
      "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_"
      "segment_k_off_kernel__5x_cublas";
  kernel(gemm, 1'000, 1'200'000, 1);
  kernel(gemm, 2'001'000, 1'800'500, 2);
  kernel("void at::native::vectorized_elementwise_kernel<4, float>(int, float)", 1'300'000, 30'250,
         3);
  kernel(k_tricky_name, 3'900'000, 800'000, 4);
  kernel("Memcpy HtoD (Host -> Device)", 4'800'000, 1'250, -1, ActivityKind::Memcpy);
  return trace;
}

inline Profile sample_profile() {
  return analyze_trace(sample_trace(), {});
}

inline Profile sample_amd_profile() {
  Trace trace;
  trace.path = "run/mi300x.json";
  trace.vendor = Vendor::Amd;
  trace.devices.push_back({"AMD Instinct MI300X", 64, 9, 4});
  GpuActivity tensile;
  tensile.name = trace.names.intern(
      "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT256x128x64_MI16x16x1_ISA942_WG32_8_1");
  tensile.duration_ns = 2'500'000;
  trace.activities.push_back(tensile);
  GpuActivity aten = tensile;
  aten.name =
      trace.names.intern("void at::native::vectorized_elementwise_kernel<4, float>(int, float)");
  aten.duration_ns = 60'500;
  trace.activities.push_back(aten);
  return analyze_trace(trace, {});
}

}  // namespace gpuport::testing
