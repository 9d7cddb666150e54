// A small hand-built AuditResult for the audit writer tests: one trace, two components, two
// findings, three kernels (one with a name carrying every character HTML must escape), three
// line items (one per linkable kind), costs with a payback, and a verdict with three reasons.
#pragma once

#include "audit/audit_result.h"

namespace gpuport::testing {

inline constexpr std::string_view k_hostile_kernel = "k<T&, \"x\">";

inline AuditResult sample_audit() {
  AuditResult result;
  AuditInputSummary& inputs = result.inputs;
  inputs.repo = "examples/tiny";
  AuditTraceInfo trace;
  trace.path = "traces/h100.json.gz";
  trace.format = TraceFormat::KinetoJson;
  trace.vendor = Vendor::Nvidia;
  trace.gpu = "NVIDIA H100 80GB HBM3";
  trace.gpu_ns = 10'000'000;
  trace.kernel_calls = 120;
  trace.unique_kernels = 3;
  trace.steps = 4;
  trace.p95_ns = 2'600'000;
  trace.joined_kernels = 2;
  inputs.traces.push_back(trace);
  inputs.config_path = "gpuport.toml";
  inputs.overrides.push_back({"cost.amd.gpu_price_per_hour", "3.5", "2.9", 7});
  inputs.files_scanned = 12;
  inputs.findings = 3;
  inputs.port_work_findings = 2;
  inputs.cuda_only_findings = 1;
  inputs.scanned_kernels = 2;
  inputs.translatable_files = 3;
  inputs.files_changed_by_translation = 2;
  inputs.translation_rocm = "6.2";

  Component ptx;
  ptx.name = "Inline PTX";
  ptx.layer = Tier::Rewrite;
  ptx.amd_status = "none";
  ptx.amd_equivalent = "HIP intrinsics";
  ptx.cost = "days to weeks per site";
  ptx.findings = 1;
  ptx.effort_hours = 16;
  ptx.evidence.push_back({"csrc/a.cu", 12});
  Component torch;
  torch.name = "PyTorch";
  torch.layer = Tier::Framework;
  torch.amd_status = "supported";
  torch.amd_equivalent = "ROCm wheels";
  torch.cost = "validation";
  torch.findings = 1;
  torch.evidence.push_back({"server/app.py", 3});
  result.portability = {ptx, torch};

  result.findings.push_back({"finding-GP-ASM-001-csrc/a.cu-12", "GP-ASM-001", Tier::Rewrite,
                             "Inline PTX", "Inline PTX has no AMD equivalent.", "csrc/a.cu", 12,
                             "asm(\"prmt.b32%0, %1;\" : \"=r\"(x));", "prmt.b32", Scope::Product,
                             AmdBuild{AmdBuildState::Compiled, false, 0}});
  result.findings.push_back({"finding-GP-TORCH-001-server/app.py-3", "GP-TORCH-001",
                             Tier::Framework, "PyTorch", "PyTorch runs on ROCm.", "server/app.py",
                             3, "import torch", "torch", Scope::Product,
                             AmdBuild{AmdBuildState::Unknown, false, 0}});
  // Left out of the AMD build with nothing in its place: a feature gap, not port work.
  result.findings.push_back({"finding-GP-ASM-002-csrc/a.cu-40", "GP-ASM-002", Tier::Rewrite,
                             "Inline PTX", "Tensor-core PTX has no AMD instruction.", "csrc/a.cu",
                             40, "asm(\"ldmatrix\");", "ldmatrix", Scope::Product,
                             AmdBuild{AmdBuildState::Excluded, false, 38}});
  FeatureGap gap;
  gap.component = "Inline PTX";
  gap.amd_equivalent = "HIP intrinsics";
  gap.findings = 1;
  gap.first_anchor = "finding-GP-ASM-002-csrc/a.cu-40";
  gap.file = "csrc/a.cu";
  gap.line = 40;
  result.feature_gaps.push_back(gap);
  // A kernel family the project's AMD build cannot compile, with what porting it would take.
  result.findings.push_back(
      {"finding-GP-LIB-009-hopper/mainloop.hpp-3", "GP-LIB-009", Tier::Rewrite, "CUTLASS / CuTe",
       "The file uses CUTLASS or CuTe, which have no AMD translation.", "hopper/mainloop.hpp", 3,
       "#include <cute/tensor.hpp>", "2 CUTLASS/CuTe includes and uses", Scope::Product,
       AmdBuild{AmdBuildState::Compiled, false, 0}});
  FeatureGap family;
  family.component = "CUTLASS / CuTe";
  family.amd_equivalent = "Composable Kernel (CK, CK-Tile), hipBLASLt, rocWMMA";
  family.findings = 12;
  family.first_anchor = "finding-GP-LIB-009-hopper/mainloop.hpp-3";
  family.file = "hopper/mainloop.hpp";
  family.line = 3;
  family.folder = "hopper/";
  family.port_days = DayRange{15, 30, 60};
  family.port_basis = "1 family × 30 d (10 d × (1 + log2 4 files))";
  result.feature_gaps.push_back(family);

  AuditKernel own;
  own.anchor = "kernel-1";
  own.name = std::string(k_hostile_kernel);
  own.raw_name = "void k<T&, \"x\">(int)";
  own.klass = KernelClass::Unknown;
  own.own_code = true;
  own.share = 0.4;
  own.total_ns = 4'000'000;
  own.calls = 40;
  own.source = SourceRef{"csrc/a.cu", 10};
  own.hotness = Hotness::Hot;
  own.why = "40.0% of GPU time (threshold 2%)";
  own.finding_anchors = {"finding-GP-ASM-001-csrc/a.cu-12"};
  own.tuning_days_low = 2;
  own.tuning_days_likely = 3;
  own.tuning_days_high = 6;
  AuditKernel gemm;
  gemm.anchor = "kernel-2";
  gemm.name = "sm90_xmma_gemm_cublas";
  gemm.raw_name = gemm.name;
  gemm.klass = KernelClass::VendorBlas;
  gemm.owner = "cuBLAS";
  gemm.share = 0.55;
  gemm.total_ns = 5'500'000;
  gemm.calls = 60;
  gemm.hotness = Hotness::Hot;
  gemm.why = "55.0% of GPU time (threshold 2%)";
  AuditKernel cold;
  cold.anchor = "kernel-3";
  cold.name = "rotary_kernel";
  cold.raw_name = "rotary_kernel(float*)";
  cold.own_code = true;
  cold.share = 0.01;
  cold.total_ns = 100'000;
  cold.calls = 20;
  cold.source = SourceRef{"csrc/b.cu", 5};
  cold.hotness = Hotness::Cold;
  cold.why = "1.0% < 2%, not in the p95 steps";
  result.kernels = {own, gemm, cold};

  TraceClassTime classes;
  classes.trace = 0;
  classes.gpu_ns = 10'000'000;
  classes.own_code_ns = 4'100'000;
  classes.classes.push_back({KernelClass::VendorBlas, 5'500'000, 0.55, 0});
  classes.classes.push_back({KernelClass::Unknown, 4'100'000, 0.41, 4'100'000});
  classes.classes.push_back({KernelClass::Memory, 400'000, 0.04, 0});
  result.class_time.push_back(classes);

  EffortItem config;
  config.anchor = "item-1";
  config.tier = EffortTier::Config;
  config.title = "Swap the PyTorch wheels";
  config.evidence.push_back(
      {EvidenceLink::Kind::File, "", "requirements.txt", "", "requirements.txt", 2});
  config.quantity = 1;
  config.quantity_unit = "files";
  config.unit = EffortUnit::Hours;
  config.per_unit = 4;
  config.basis = "1 file × 4 h";
  config.weight_key = "effort.config.file_hours";
  config.days = {0.25, 0.5, 1};
  EffortItem port;
  port.anchor = "item-2";
  port.tier = EffortTier::Mechanical;
  port.title = "Translate 2 files";
  port.evidence.push_back(
      {EvidenceLink::Kind::Api, "", "cudaGraphExecUpdate", "", "csrc/a.cu", 30});
  port.quantity = 2;
  port.quantity_unit = "files";
  port.per_unit = 0.5;
  port.basis = "2 files × 0.5 d";
  port.weight_key = "effort.mechanical.file_days";
  port.days = {0.5, 1, 2};
  EffortItem rewrite;
  rewrite.anchor = "item-3";
  rewrite.tier = EffortTier::Rewrite;
  rewrite.title = "Rewrite inline PTX in k<T&, \"x\">";
  rewrite.evidence.push_back({EvidenceLink::Kind::Finding, "finding-GP-ASM-001-csrc/a.cu-12",
                              "GP-ASM-001 csrc/a.cu:12", "GP-ASM-001", "csrc/a.cu", 12});
  rewrite.evidence.push_back(
      {EvidenceLink::Kind::Kernel, "kernel-1", std::string(k_hostile_kernel), "", "", 0});
  rewrite.quantity = 1;
  rewrite.quantity_unit = "sites";
  rewrite.per_unit = 3;
  rewrite.hotness = 1;
  rewrite.basis = "1 site × 3 d × hot 1.0";
  rewrite.weight_key = "effort.rewrite.ptx_kind_days";
  rewrite.days = {2, 3, 8};
  result.items = {config, port, rewrite};

  result.effort.tiers = {{EffortTier::Config, 1, {0.25, 0.5, 1}},
                         {EffortTier::Mechanical, 1, {0.5, 1, 2}},
                         {EffortTier::Retune, 0, {0, 0, 0}},
                         {EffortTier::Rewrite, 1, {2, 3, 8}}};
  result.effort.total = {2.75, 4.5, 11};
  result.measure_first.first = "run gpuport bench against both deployments";
  result.measure_first.steps.push_back({KernelClass::VendorBlas, "cuBLAS / cuBLASLt GEMMs", 0.5,
                                        "hipBLASLt / rocBLAS", "compare GEMM time", "kernel-2"});
  result.measure_first.largest_risk = "50.0% of GPU time is in cuBLAS / cuBLASLt GEMMs";
  // Flagged, so that the banner's check line is rendered too.
  result.effort.magnitude.state = MagnitudeState::TooHigh;
  result.effort.magnitude.kernels = 2;
  result.effort.magnitude.kernel_lines = 30;
  result.effort.magnitude.port_days = 4;
  result.effort.magnitude.lines_per_day = 7.5;
  result.effort.magnitude.plausible_low = 10;
  result.effort.magnitude.plausible_high = 2000;
  result.effort.magnitude.text =
      "30 kernel lines in 2 kernels in scope; the port work (4 days likely) implies 7.5 lines per "
      "engineer-day, below the plausible 10–2,000: the estimate may be too high";

  CostSummary& cost = result.cost;
  cost.nvidia = {Vendor::Nvidia, "H100", 4.0, 1, 10, false, 111.11, 11111.11, std::nullopt};
  cost.amd = {Vendor::Amd, "MI300X", 2.9, 1, 9, true, 89.51, 8950.62, std::nullopt};
  cost.monthly_requests = 100'000'000;
  cost.monthly_delta = 2160.49;
  cost.day_rate = 1000;
  cost.porting_cost = {2750, 4500, 11000};
  cost.payback_months = 2.0829;
  cost.horizon_months = 12;
  cost.break_even_ratio = 0.725;
  cost.payback_ratio = 0.7546;

  result.verdict.kind = VerdictKind::BoundedProject;
  result.verdict.headline = "Bounded project: 3–11 engineer-days";
  result.verdict.days_low = 2.75;
  result.verdict.days_high = 11;
  // The AMD throughput below is the shipped placeholder: the cost asks, it does not decide.
  result.verdict.cost_decides = false;
  result.verdict.assumed = {
      "The MI300X throughput (9 req/s per replica) is a placeholder, not a measurement: the cost "
      "figures ask how fast AMD must be, they do not say it is worth it or not"};
  result.verdict.reasons = {
      {"Inline PTX in a hot own kernel (40.0% of GPU time) needs a rewrite.", "item-3", 3},
      {"The own kernel k<T&, \"x\"> is on the hot path.", "kernel-1", 3},
      {"AMD saves $2,160 a month at these prices.", "cost", 2160.49}};
  result.coverage = {true, 1, 1, ""};
  result.hot_threshold = 0.02;
  result.warnings = {"csrc/c.cu: not valid UTF-8, read as Latin-1"};
  return result;
}

}  // namespace gpuport::testing
