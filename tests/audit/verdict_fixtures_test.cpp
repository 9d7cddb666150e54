// The verdict of each mini repository in tests/fixtures/verdicts/ (and the dual-path shim of
// tests/fixtures/amd_build/), audited with the shipped defaults and no trace, as a new user would.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "audit/audit.h"

namespace gpuport {
namespace {

AuditResult audit_fixture(const std::string& relative) {
  AuditInputs inputs;
  inputs.repo = std::string(GPUPORT_SOURCE_DIR "/tests/fixtures/") + relative;
  inputs.jobs = 2;
  auto result = run_audit(inputs);
  EXPECT_TRUE(result) << relative << ": " << result.error().message;
  return result ? std::move(*result) : AuditResult{};
}

bool has_item(const AuditResult& result, const std::string& title_start) {
  return std::any_of(result.items.begin(), result.items.end(),
                     [&](const EffortItem& item) { return item.title.starts_with(title_start); });
}

const EffortItem* item_starting(const AuditResult& result, const std::string& title_start) {
  for (const EffortItem& item : result.items) {
    if (item.title.starts_with(title_start)) {
      return &item;
    }
  }
  return nullptr;
}

TEST(VerdictFixtures, ADualPathShimValidatesTheExistingAmdBuild) {
  const AuditResult result = audit_fixture("amd_build/derived_macros_through_header");
  EXPECT_TRUE(result.inputs.amd_build_exists);
  EXPECT_EQ(result.verdict.kind, VerdictKind::ExistingBuild);
  EXPECT_EQ(result.verdict.headline, "Validate the existing AMD build: 4.2–9.4 engineer-days");
  ASSERT_FALSE(result.verdict.reasons.empty());
  EXPECT_EQ(result.verdict.reasons[0].text,
            "Validate and benchmark the existing AMD build: 5.3 days likely (3.9–7.9 days)");
  // The mma.sync and cp.async PTX has the portable #else beside it: nothing to rewrite.
  EXPECT_FALSE(has_item(result, "Rewrite inline PTX"));
  EXPECT_FALSE(has_item(result, "Redesign tensor-core code"));
}

TEST(VerdictFixtures, ATorchExtensionHipifiedAtBuildTimeValidatesTheExistingAmdBuild) {
  const AuditResult result = audit_fixture("verdicts/torch_ext_hipified_at_build");
  EXPECT_TRUE(result.inputs.amd_build_exists);
  EXPECT_EQ(result.verdict.kind, VerdictKind::ExistingBuild);
  // No mechanical port priced again: setup.py's ROCm branch builds the same sources.
  EXPECT_FALSE(has_item(result, "Port and test"));
  EXPECT_FALSE(has_item(result, "Review, build and fix the translated sources"));
  const EffortItem* validate =
      item_starting(result, "Validate and benchmark the existing AMD build");
  ASSERT_NE(validate, nullptr);
  EXPECT_DOUBLE_EQ(validate->days.likely, 5.25);  // 5 d + 1 kernel file × 2 h
}

TEST(VerdictFixtures, ATensorRtIntegrationIsOneReplacementProjectThatHoldsItsPlugins) {
  const AuditResult result = audit_fixture("verdicts/tensorrt_integration");
  EXPECT_EQ(result.verdict.kind, VerdictKind::BoundedProject);
  ASSERT_FALSE(result.verdict.reasons.empty());
  EXPECT_TRUE(result.verdict.reasons[0].text.starts_with(
      "Replace TensorRT with MIGraphX or ONNX Runtime's MIGraphX execution provider: 52 days"))
      << result.verdict.reasons[0].text;
  const EffortItem* project = item_starting(result, "Replace TensorRT");
  ASSERT_NE(project, nullptr);
  // engine.cpp, gelu_plugin.cpp and CMakeLists.txt use it; the plugin folder's kernel (and the
  // runtime-API finding of its file) go with it.
  EXPECT_EQ(project->basis,
            "1 project × 51.6993 d (20 d × (1 + log2 3 files using or packaging it); includes "
            "its code's 1 other finding and 1 kernel)");
  EXPECT_DOUBLE_EQ(project->days.high, project->days.likely * 2);  // not widened: no hotness
  // The service's own preprocessing kernel is outside the plugin: ported on its own.
  const EffortItem* small = item_starting(result, "Port and test small kernels");
  ASSERT_NE(small, nullptr);
  ASSERT_EQ(small->evidence.size(), 1u);
  EXPECT_EQ(small->evidence[0].file, "src/preprocess.cu");
  EXPECT_FALSE(has_item(result, "Tune gelu_kernel"));
}

TEST(VerdictFixtures, AFrameworkOnlyServiceIsAValidationPass) {
  const AuditResult result = audit_fixture("verdicts/framework_only_service");
  EXPECT_EQ(result.verdict.kind, VerdictKind::ValidationPass);
  EXPECT_EQ(result.verdict.headline, "Validation pass: 3.2–6.8 engineer-days");
  const EffortItem* validate = item_starting(result, "Validate on AMD");
  ASSERT_NE(validate, nullptr);
  EXPECT_DOUBLE_EQ(validate->days.likely, 4);  // 2 d + PyTorch + vLLM
}

TEST(VerdictFixtures, AFolderOfCutlassInstantiationsIsOneKernelFamily) {
  const AuditResult result = audit_fixture("verdicts/cutlass_instantiations");
  EXPECT_EQ(result.verdict.kind, VerdictKind::BoundedProject);
  std::size_t families = 0;
  for (const EffortItem& item : result.items) {
    families += item.title.starts_with("Port the CUTLASS/CuTe kernel family") ? 1 : 0;
  }
  EXPECT_EQ(families, 1u);
  const EffortItem* family =
      item_starting(result, "Port the CUTLASS/CuTe kernel family in csrc/fmha/");
  ASSERT_NE(family, nullptr);
  // The instantiation-only files are generated code: the family is its one template header.
  EXPECT_DOUBLE_EQ(family->days.likely, 7.5);       // 10 d × (1 + log2 1) × 0.75 without a trace
  EXPECT_FALSE(has_item(result, "Port and test"));  // its kernel is the family's
}

TEST(VerdictFixtures, APtxOnlyLibraryRewritesItsPtxHelpers) {
  const AuditResult result = audit_fixture("verdicts/ptx_only_lib");
  EXPECT_EQ(result.verdict.kind, VerdictKind::BoundedProject);
  ASSERT_FALSE(result.verdict.reasons.empty());
  EXPECT_TRUE(
      result.verdict.reasons[0].text.starts_with("Rewrite inline PTX in csrc/ptx_utils.cuh"))
      << result.verdict.reasons[0].text;
  const EffortItem* ptx = item_starting(result, "Rewrite inline PTX");
  ASSERT_NE(ptx, nullptr);
  EXPECT_EQ(ptx->quantity, 3);
}

}  // namespace
}  // namespace gpuport
