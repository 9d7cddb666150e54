// A hand-built ScanResult shared by the writer tests (no scanning involved).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "scan/rules/catalog.h"
#include "scan/scan_result.h"

namespace gpuport::testing {

// The first catalog rule with `tier` (the catalog always has rules of every tier).
inline std::uint16_t first_rule_of_tier(Tier tier) {
  const auto catalog = rule_catalog();
  for (std::size_t i = 0; i < catalog.size(); ++i) {
    if (catalog[i].tier == tier) {
      return static_cast<std::uint16_t>(i);
    }
  }
  ADD_FAILURE() << "no rule of tier " << tier_name(tier);
  return 0;
}

// An inline-PTX rule (ASM family, rewrite tier): its findings feed the PTX-by-instruction table.
inline std::uint16_t rewrite_rule() {
  const auto catalog = rule_catalog();
  for (std::size_t i = 0; i < catalog.size(); ++i) {
    if (catalog[i].family == "ASM" && catalog[i].tier == Tier::Rewrite) {
      return static_cast<std::uint16_t>(i);
    }
  }
  ADD_FAILURE() << "no rewrite-tier ASM rule";
  return first_rule_of_tier(Tier::Rewrite);
}
inline std::uint16_t config_rule() {
  return first_rule_of_tier(Tier::Config);
}

inline Finding finding(std::uint16_t rule, std::string file, std::uint32_t line,
                       std::uint32_t column, std::string excerpt, std::string detail = {}) {
  Finding f;
  f.rule = rule;
  f.file = std::move(file);
  f.line = line;
  f.column = column;
  f.excerpt = std::move(excerpt);
  f.detail = std::move(detail);
  return f;
}

inline ScanResult sample_result() {
  ScanResult result;
  result.root = "serving";
  result.files_scanned = 12;
  result.bytes_scanned = 2'500'000;
  result.seconds = 0.25;
  result.ignored_entries = 3;
  result.languages[Language::Cuda] = {2, 40'000, 900};
  result.languages[Language::Python] = {9, 60'000, 1500};

  result.findings.push_back(
      finding(config_rule(), "Dockerfile", 1, 1, "FROM nvidia/cuda:12.1.0-devel-ubuntu22.04"));
  result.findings.push_back(finding(rewrite_rule(), "csrc/attention.cu", 42, 5,
                                    "asm volatile(\"mma.sync.aligned.m16n8k16\" ...);",
                                    "mma.sync.aligned.m16n8k16"));
  result.findings.push_back(finding(rewrite_rule(), "csrc/attention.cu", 57, 5,
                                    "asm volatile(\"ldmatrix.sync.aligned.m8n8.x4\" ...);",
                                    "ldmatrix.sync.aligned.m8n8.x4"));
  result.findings.back().context = BranchContext::CudaDevice;
  result.findings.back().set_amd({AmdBuildState::Excluded, true, 55});
  result.findings[1].set_amd({AmdBuildState::Compiled, false, 0});
  result.guards.push_back({"csrc/attention.cu", 55, "#ifdef NEW_MMA_AVAILABLE"});

  Kernel kernel;
  kernel.name = "flash_fwd_kernel";
  kernel.file = "csrc/attention.cu";
  kernel.line = 30;
  kernel.lines_of_code = 120;
  kernel.is_template = true;
  kernel.features.ptx_instructions = {"mma.sync.aligned.m16n8k16", "ldmatrix.sync.aligned.m8n8.x4"};
  kernel.features.warp_intrinsics = {"__shfl_xor_sync"};
  kernel.features.mma_ptx = true;
  kernel.features.static_shared_bytes = 49152;
  result.kernels.push_back(kernel);
  Kernel small;
  small.name = "add_bias";
  small.file = "csrc/bias.cu";
  small.line = 8;
  small.lines_of_code = 9;
  small.via_macro = true;
  result.kernels.push_back(small);

  LaunchSite launch;
  launch.kernel = "flash_fwd_kernel<128>";
  launch.file = "csrc/attention.cu";
  launch.line = 200;
  launch.amd.state = AmdBuildState::Compiled;
  result.launches.push_back(launch);
  result.amd_build.exists = true;
  result.amd_build.setup.push_back({"CMakeLists.txt", 12, "enable_language(HIP)"});
  result.amd_build.switches.push_back(
      {"CMakeLists.txt", 3, "option(USE_HIP \"build for AMD\" OFF)"});
  result.amd_build.shims.push_back({"csrc/hip_compat.h", 4});
  result.amd_build.kernel_files = 2;
  result.amd_build.kernel_files_compiled = 1;
  result.excluded_sources.push_back(
      {"csrc/sm90_gemm.cu",
       {"CMakeLists.txt", 20, "list(APPEND SOURCES csrc/sm90_gemm.cu)"},
       true,
       {}});
  result.instantiation_files.push_back({"csrc/flash_fwd_hdim128.cu", 4});
  result.artifacts.push_back({"models/encoder.engine", ArtifactKind::TensorRtEngine, 1'048'576, 0});

  Component component;
  component.name = "Inline PTX";
  component.layer = Tier::Rewrite;
  component.amd_status = "none";
  component.amd_equivalent = "rewrite with rocWMMA or HIP intrinsics";
  component.cost = "weeks per kernel";
  component.findings = 2;
  component.effort_hours = 32;
  component.amd = {1, 1, 1, 0};  // the mma compiled, the ldmatrix left out with an alternative
  component.evidence = {{"csrc/attention.cu", 42}, {"csrc/attention.cu", 57}};
  result.components.push_back(component);
  Component image;
  image.name = "CUDA base image";
  image.layer = Tier::Config;
  image.amd_status = "supported";
  image.amd_equivalent = "rocm/pytorch image";
  image.cost = "image swap";
  image.findings = 1;
  image.evidence = {{"Dockerfile", 1}};
  result.components.push_back(image);

  result.amd_path.push_back({AmdPathKind::HipGuard, "csrc/bias.cu", 3, "USE_ROCM"});
  result.amd_path.push_back({AmdPathKind::HipGuard, "csrc/bias.cu", 20, "USE_ROCM"});
  result.skipped.push_back({"data/blob.bin", SkipReason::Binary, 4096, ""});
  result.skipped.push_back({"data/huge.txt", SkipReason::TooLarge, 20'000'000, ""});
  result.warnings.push_back({"csrc/broken.cu", 7, 3, "unterminated block comment"});
  return result;
}

}  // namespace gpuport::testing
