// The effort model on a small hand-built repository: hot and cold kernels, rewrite kinds and
// weights, the dry-run items, and the widening without a trace. Every expected number is worked
// out by hand from config/gpuport-defaults.toml and the rule catalog's hours.
#include <gtest/gtest.h>

#include "audit/effort.h"
#include "audit/findings.h"
#include "scan/rules/catalog.h"

namespace gpuport {
namespace {

Finding finding(std::string_view rule, const std::string& file, std::uint32_t line,
                std::string detail = {}) {
  Finding out;
  out.rule = rule_index(rule);
  out.file = file;
  out.line = line;
  out.detail = std::move(detail);
  return out;
}

Kernel kernel(const std::string& name, const std::string& file, std::uint32_t line,
              std::uint32_t lines_of_code) {
  Kernel out;
  out.name = name;
  out.file = file;
  out.line = line;
  out.lines_of_code = lines_of_code;
  return out;
}

AuditKernel row(const std::string& anchor, const std::string& name, Hotness hotness, bool own,
                std::optional<SourceRef> source) {
  AuditKernel out;
  out.anchor = anchor;
  out.name = name;
  out.raw_name = name;
  out.hotness = hotness;
  out.own_code = own;
  out.source = std::move(source);
  return out;
}

// hot_kernel (k.cu:10, 30 lines: lines 9-39), cold_kernel (k.cu:50, 120 lines: 49-169) and
// big_kernel (big.cu:5, 250 lines), with findings in, between and outside them.
struct Repo {
  ScanResult scan;
  std::vector<AuditFinding> findings;
  DryRunDigest dry_run;
  std::vector<AuditKernel> kernels;

  explicit Repo(bool traced) {
    scan.findings = {
        finding("GP-FW-001", "app.py", 3),          // framework: nothing to price
        finding("GP-DEPLOY-001", "Dockerfile", 2),  // config, 2 h
        finding("GP-ART-001", "model.engine", 0),   // TensorRT engine
        finding("GP-PKG-004", "requirements.txt", 2),
        finding("GP-FW-005", "trt.py", 4),  // TensorRT API: two files with the one above
        finding("GP-FW-005", "trt.py", 9),
        finding("GP-EXEC-011", "k.cu", 5),              // mechanical, resolved by the translation
        finding("GP-LIB-001", "k.cu", 6),               // mechanical, 0.5 h
        finding("GP-WARP-001", "k.cu", 12),             // retune 4 h, inside hot_kernel
        finding("GP-WARP-006", "k.cu", 14),             // retune 4 h, inside hot_kernel
        finding("GP-ASM-001", "k.cu", 20, "prmt.b32"),  // PTX inside hot_kernel
        // PTX inside cold_kernel: two statements of one kind (a load with a cache hint)
        finding("GP-ASM-001", "k.cu", 60, "ld.global.nc.f32"),
        finding("GP-ASM-001", "k.cu", 61, "ld.global.nc.v4.f32"),
        // ldmatrix outside any kernel, in a hot kernel's file
        finding("GP-ASM-002", "k.cu", 200, "ldmatrix.sync.aligned.m8n8.x4.b16"),
    };
    scan.kernels = {kernel("big_kernel", "big.cu", 5, 250), kernel("hot_kernel", "k.cu", 10, 30),
                    kernel("cold_kernel", "k.cu", 50, 120)};
    findings = audit_findings(scan);
    dry_run.unsupported = {
        {"cudaA", "k.cu", 7, 2}, {"cudaB", "k.cu", 8, 1}, {"cudaC", "k.cu", 9, 1}};
    dry_run.needs_review = {{"__nv_fp8_e4m3", "k.cu", 30, 1},
                            {"__nv_fp8_e4m3", "k.cu", 31, 1},
                            {"__nv_fp8_e4m3", "k.cu", 32, 1},
                            {"__nv_fp8_e4m3", "k.cu", 33, 1}};
    dry_run.changed_files = {"big.cu", "k.cu"};
    dry_run.resolved = {{rule_index("GP-EXEC-011"), "k.cu", 5}};
    if (traced) {
      kernels = {row("kernel-1", "hot_kernel", Hotness::Hot, true, SourceRef{"k.cu", 10}),
                 row("kernel-2", "sm90_xmma_gemm_cublas", Hotness::Hot, false, std::nullopt),
                 row("kernel-3", "cold_kernel", Hotness::Cold, true, SourceRef{"k.cu", 50}),
                 row("kernel-4", "big_kernel", Hotness::Cold, true, SourceRef{"big.cu", 5})};
    } else {
      kernels = {row("kernel-1", "big_kernel", Hotness::Untraced, true, SourceRef{"big.cu", 5}),
                 row("kernel-2", "hot_kernel", Hotness::Untraced, true, SourceRef{"k.cu", 10}),
                 row("kernel-3", "cold_kernel", Hotness::Untraced, true, SourceRef{"k.cu", 50})};
    }
  }
};

const EffortItem& item(const EffortEstimate& estimate, const std::string& title) {
  for (const EffortItem& candidate : estimate.items) {
    if (candidate.title == title) {
      return candidate;
    }
  }
  std::string titles;
  for (const EffortItem& candidate : estimate.items) {
    titles += "\n  " + candidate.title;
  }
  ADD_FAILURE() << "no item titled " << title << "; the items:" << titles;
  static const EffortItem none;
  return none;
}

void expect_days(const DayRange& days, double low, double likely, double high) {
  EXPECT_DOUBLE_EQ(days.low, low);
  EXPECT_DOUBLE_EQ(days.likely, likely);
  EXPECT_DOUBLE_EQ(days.high, high);
}

// The estimate of a scan alone: traced, no dry-run items, no trace kernels.
EffortEstimate estimate_of(const ScanResult& scan) {
  const std::vector<AuditFinding> findings = audit_findings(scan);
  const DryRunDigest dry_run;
  std::vector<AuditKernel> kernels;
  return estimate_effort({scan, findings, dry_run, true}, kernels, default_audit_config());
}

TEST(AuditEffort, ItemsInTierOrderThenLargestFirst) {
  Repo repo(true);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                  repo.kernels, default_audit_config());
  std::vector<std::string> titles;
  for (const EffortItem& each : estimate.items) {
    titles.push_back(each.anchor + " " + each.title);
  }
  const std::vector<std::string> expected = {
      "item-1 GP-DEPLOY-001 Docker base image",
      "item-2 Validate on AMD: the test suite, numerics and a benchmark run",
      "item-3 Port and test large kernels (over 200 lines)",
      "item-4 Replace CUDA APIs that HIP does not provide",
      "item-5 Port and test medium kernels (51–200 lines)",
      "item-6 Port and test small kernels (up to 50 lines)",
      "item-7 Review translated uses that need a person (FP8 encodings, library forms)",
      "item-8 Review, build and fix the translated sources",
      "item-9 GP-LIB-001 cuBLAS / cuBLASLt",
      "item-10 Tune hot_kernel on AMD",
      "item-11 GP-WARP-001 Warp size (wave64)",
      "item-12 GP-WARP-006 Warp size (wave64)",
      "item-13 Replace TensorRT with MIGraphX or ONNX Runtime's MIGraphX execution provider",
      "item-14 Rebuild TensorRT engines for AMD (MIGraphX)",
      "item-15 Redesign tensor-core code (WMMA/MMA/ldmatrix) in k.cu",
      "item-16 Rewrite inline PTX in hot_kernel",
      "item-17 Rewrite inline PTX in cold_kernel",
  };
  EXPECT_EQ(titles, expected);
}

TEST(AuditEffort, HotKernelsGetTuningDaysWeightedByTheirFindings) {
  Repo repo(true);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                  repo.kernels, default_audit_config());
  // 2 d + 3 retune/rewrite findings inside (WARP-001, WARP-006, ASM-001) × 0.5 d; retune spread.
  const EffortItem& tune = item(estimate, "Tune hot_kernel on AMD");
  EXPECT_EQ(tune.tier, EffortTier::Retune);
  expect_days(tune.days, 1.75, 3.5, 10.5);
  EXPECT_EQ(tune.basis, "1 kernel × 3.5 d (2 d + 3 retune/rewrite findings × 0.5 d)");
  EXPECT_EQ(tune.weight_key, "effort.retune.hot_kernel_days");
  ASSERT_EQ(tune.evidence.size(), 4u);
  EXPECT_EQ(tune.evidence[0].anchor, "kernel-1");
  EXPECT_EQ(tune.evidence[1].anchor, "finding-GP-WARP-001-k.cu-12");
  EXPECT_EQ(tune.evidence[1].label, "GP-WARP-001 k.cu:12");
  EXPECT_EQ(tune.evidence[3].anchor, "finding-GP-ASM-001-k.cu-20");

  const AuditKernel& hot = repo.kernels[0];
  EXPECT_DOUBLE_EQ(hot.tuning_days_likely, 3.5);
  EXPECT_DOUBLE_EQ(hot.tuning_days_high, 10.5);
  EXPECT_EQ(hot.finding_anchors.size(), 3u);
  // The cuBLAS kernel is hot but not the team's code; the cold kernels get no tuning days.
  for (std::size_t k = 1; k < repo.kernels.size(); ++k) {
    EXPECT_EQ(repo.kernels[k].tuning_days_likely, 0) << repo.kernels[k].name;
  }
  EXPECT_EQ(repo.kernels[2].finding_anchors,
            (std::vector<std::string>{"finding-GP-ASM-001-k.cu-60", "finding-GP-ASM-001-k.cu-61"}));
  for (const EffortItem& each : estimate.items) {
    EXPECT_NE(each.title, "Tune cold_kernel on AMD");
    EXPECT_NE(each.title, "Tune big_kernel on AMD");
  }
}

TEST(AuditEffort, RewriteItemsPricedPerKindAndWeightedByHotness) {
  Repo repo(true);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                  repo.kernels, default_audit_config());
  const EffortItem& hot_ptx = item(estimate, "Rewrite inline PTX in hot_kernel");
  expect_days(hot_ptx.days, 0.5, 1, 3);
  EXPECT_EQ(hot_ptx.basis, "1 instruction kind × 1 d (prmt: 1 statement) × 1 (hot kernel)");
  EXPECT_EQ(hot_ptx.evidence[0].anchor, "kernel-1");
  const EffortItem& cold_ptx = item(estimate, "Rewrite inline PTX in cold_kernel");
  // Two loads of one kind are one unit: 1 kind × 1 d × 0.25.
  expect_days(cold_ptx.days, 0.125, 0.25, 0.75);
  EXPECT_EQ(cold_ptx.basis,
            "1 instruction kind × 1 d (ld.global: 2 statements) × 0.25 (cold kernel)");
  EXPECT_EQ(cold_ptx.hotness, 0.25);
  const EffortItem& mma = item(estimate, "Redesign tensor-core code (WMMA/MMA/ldmatrix) in k.cu");
  expect_days(mma.days, 2.5, 5, 15);
  EXPECT_EQ(mma.basis,
            "1 instruction kind × 5 d (ldmatrix: 1 statement) × 1 (a hot kernel's file)");
  ASSERT_EQ(mma.evidence.size(), 1u);
  EXPECT_EQ(mma.evidence[0].anchor, "finding-GP-ASM-002-k.cu-200");
  const EffortItem& engines = item(estimate, "Rebuild TensorRT engines for AMD (MIGraphX)");
  expect_days(engines.days, 2.5, 5, 15);
  // One replacement project, sized by the 2 files that use or package TensorRT (requirements.txt
  // and trt.py): 20 d × (1 + log2 2).
  const EffortItem& api = item(
      estimate, "Replace TensorRT with MIGraphX or ONNX Runtime's MIGraphX execution provider");
  EXPECT_EQ(api.quantity, 1);
  EXPECT_EQ(api.quantity_unit, "project");
  EXPECT_EQ(api.basis, "1 project × 40 d (20 d × (1 + log2 2 files using or packaging it))");
  EXPECT_EQ(api.evidence.size(), 3u);
  expect_days(api.days, 20, 40, 80);  // a component project's spread: 0.5 / 2
}

TEST(AuditEffort, MechanicalAndConfigItemsFromTheDryRunAndTheCatalog) {
  Repo repo(true);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                  repo.kernels, default_audit_config());
  const EffortItem& docker = item(estimate, "GP-DEPLOY-001 Docker base image");
  EXPECT_EQ(docker.tier, EffortTier::Config);
  EXPECT_EQ(docker.unit, EffortUnit::Hours);
  expect_days(docker.days, 0.125, 0.25, 0.5);  // 2 h of 8
  EXPECT_EQ(docker.basis, "1 finding × 2 h (catalog 2 h × effort.tier_weight.config 1)");
  expect_days(item(estimate, "Replace CUDA APIs that HIP does not provide").days, 1.125, 1.5, 2.25);
  const EffortItem& review =
      item(estimate, "Review translated uses that need a person (FP8 encodings, library forms)");
  expect_days(review.days, 0.1875, 0.25, 0.375);  // 4 uses × 0.5 h
  expect_days(item(estimate, "Review, build and fix the translated sources").days, 0.09375, 0.125,
              0.1875);
  const EffortItem& large = item(estimate, "Port and test large kernels (over 200 lines)");
  expect_days(large.days, 1.125, 1.5, 2.25);
  ASSERT_EQ(large.evidence.size(), 1u);
  EXPECT_EQ(large.evidence[0].label, "big_kernel (250 lines)");
  EXPECT_EQ(large.evidence[0].anchor, "kernel-4");
  // GP-EXEC-011 is resolved by the translation and GP-FW-001 is framework tier: no items.
  for (const EffortItem& each : estimate.items) {
    EXPECT_EQ(each.title.find("GP-EXEC-011"), std::string::npos);
    EXPECT_EQ(each.title.find("GP-FW-001"), std::string::npos);
  }
}

TEST(AuditEffort, TotalsPerTierAreTheSumsOfTheirItems) {
  Repo repo(true);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                  repo.kernels, default_audit_config());
  const EffortSummary& summary = estimate.summary;
  ASSERT_EQ(summary.tiers.size(), 4u);
  EXPECT_EQ(summary.tiers[0].items, 1u);
  EXPECT_DOUBLE_EQ(summary.tiers[0].days.likely, 0.25);
  EXPECT_EQ(summary.tiers[1].items, 8u);
  // 0.0625 + 1.5 + 0.25 + 0.125 + 0.25 + 0.5 + 1.5, and 2 to validate (no framework here)
  EXPECT_DOUBLE_EQ(summary.tiers[1].days.likely, 6.1875);
  EXPECT_DOUBLE_EQ(summary.tiers[2].days.likely, 4.5);    // 3.5 + 0.5 + 0.5
  EXPECT_DOUBLE_EQ(summary.tiers[3].days.likely, 51.25);  // 40 + 5 + 5 + 1 + 0.25
  EXPECT_DOUBLE_EQ(summary.total.likely, 62.1875);
  EXPECT_DOUBLE_EQ(summary.total.low, 0.125 + (3.140625 + 1.5) + 2.25 + 25.625);
  EXPECT_DOUBLE_EQ(summary.total.high, 0.5 + (6.28125 + 3) + 13.5 + 113.75);
}

TEST(AuditEffort, WithoutATraceEveryKernelMayBeHotAndRangesWiden) {
  Repo repo(false);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, false},
                                                  repo.kernels, default_audit_config());
  // (2 + 3 × 0.5) × 0.5, low × 0.5 × 0.75, high × 3 × 2.
  const EffortItem& hot = item(estimate, "Tune hot_kernel on AMD (if hot)");
  expect_days(hot.days, 0.65625, 1.75, 10.5);
  EXPECT_EQ(hot.basis,
            "1 kernel × 3.5 d (2 d + 3 retune/rewrite findings × 0.5 d) × 0.5 "
            "(no_trace.kernel_weight); range widened ×0.75 low / ×2 high (no trace)");
  expect_days(item(estimate, "Tune cold_kernel on AMD (if hot)").days, 0.5625, 1.5, 9);
  expect_days(item(estimate, "Tune big_kernel on AMD (if hot)").days, 0.375, 1, 6);
  EXPECT_DOUBLE_EQ(repo.kernels[0].tuning_days_likely, 1);  // big_kernel
  // Rewrite sites at the untraced weight, whatever kernel they sit in.
  const EffortItem& ptx = item(estimate, "Rewrite inline PTX in cold_kernel");
  expect_days(ptx.days, 0.28125, 0.75, 4.5);  // 1 kind × 1 × 0.75
  EXPECT_EQ(ptx.basis,
            "1 instruction kind × 1 d (ld.global: 2 statements) × 0.75 "
            "(effort.rewrite.untraced_weight); range widened ×0.75 low / ×2 high (no trace)");
  // Config work and component projects do not depend on hotness: a missing trace leaves them
  // as they are.
  expect_days(item(estimate, "GP-DEPLOY-001 Docker base image").days, 0.125, 0.25, 0.5);
  expect_days(item(estimate,
                   "Replace TensorRT with MIGraphX or ONNX Runtime's MIGraphX execution "
                   "provider")
                  .days,
              20, 40, 80);
}

TEST(AuditEffort, AnOwnHotKernelSeenTwiceIsTunedOnce) {
  Repo repo(true);
  AuditKernel again = repo.kernels[0];
  again.anchor = "kernel-5";
  again.trace = 1;
  repo.kernels.push_back(again);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                  repo.kernels, default_audit_config());
  int tunes = 0;
  for (const EffortItem& each : estimate.items) {
    tunes += each.title == "Tune hot_kernel on AMD" ? 1 : 0;
  }
  EXPECT_EQ(tunes, 1);
  EXPECT_EQ(repo.kernels[4].tuning_days_likely, 0);
  EXPECT_TRUE(repo.kernels[4].why.ends_with("; tuned once, with kernel-1"));
}

TEST(AuditEffort, ConfigWeightsScaleTheirItems) {
  Repo repo(true);
  auto config = parse_audit_config(
      "[effort.tier_weight]\nconfig = 2.0\n[effort.rewrite]\ncold_weight = 0.5\n", "p.toml");
  ASSERT_TRUE(config) << config.error().message;
  const EffortEstimate estimate =
      estimate_effort({repo.scan, repo.findings, repo.dry_run, true}, repo.kernels, *config);
  EXPECT_DOUBLE_EQ(item(estimate, "GP-DEPLOY-001 Docker base image").days.likely, 0.5);
  EXPECT_DOUBLE_EQ(item(estimate, "Rewrite inline PTX in cold_kernel").days.likely, 0.5);
}

// Only product code the AMD build may compile is priced: a test's PTX, a vendored kernel, an
// #if branch the AMD build leaves out and a file its build does not list cost nothing.
TEST(AuditEffort, OnlyProductCodeTheAmdBuildCompilesIsPortWork) {
  Repo repo(true);
  const EffortEstimate before = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                repo.kernels, default_audit_config());
  Repo changed(true);
  Finding in_test = finding("GP-ASM-001", "tests/check.cu", 3);
  in_test.scope = Scope::Test;
  Finding left_out = finding("GP-ASM-002", "k.cu", 210);
  left_out.set_amd({AmdBuildState::Excluded, true, 208});
  Finding retune_left_out = finding("GP-WARP-001", "k.cu", 13);  // inside hot_kernel
  retune_left_out.set_amd({AmdBuildState::Excluded, false, 11});
  for (Finding extra : {in_test, left_out, retune_left_out}) {
    changed.scan.findings.push_back(extra);
  }
  Kernel vendored = kernel("vendored_kernel", "third_party/v.cu", 1, 300);
  vendored.scope = Scope::Vendored;
  changed.scan.kernels.push_back(vendored);
  changed.findings = audit_findings(changed.scan);
  changed.dry_run.changed_files.push_back("tests/check.cu");
  changed.dry_run.unsupported.push_back({"cudaD", "third_party/v.cu", 4, 1});
  const EffortEstimate after =
      estimate_effort({changed.scan, changed.findings, changed.dry_run, true}, changed.kernels,
                      default_audit_config());
  ASSERT_EQ(after.items.size(), before.items.size());
  for (std::size_t i = 0; i < after.items.size(); ++i) {
    EXPECT_EQ(after.items[i].title, before.items[i].title);
    EXPECT_DOUBLE_EQ(after.items[i].days.likely, before.items[i].days.likely)
        << after.items[i].title;
  }
  EXPECT_DOUBLE_EQ(after.summary.total.likely, before.summary.total.likely);
}

// A project that builds for AMD already: one validation item in place of the mechanical port;
// retune and rewrite work in the code it compiles stays.
TEST(AuditEffort, AnExistingAmdBuildIsValidatedNotPortedAgain) {
  Repo repo(true);
  repo.scan.amd_build.exists = true;
  repo.scan.amd_build.kernel_files = 3;
  repo.scan.amd_build.kernel_files_compiled = 2;
  repo.scan.amd_build.setup = {{"CMakeLists.txt", 12, "enable_language(HIP)"}};
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                  repo.kernels, default_audit_config());
  const EffortItem& validate = item(estimate, "Validate and benchmark the existing AMD build");
  EXPECT_EQ(validate.tier, EffortTier::Mechanical);
  expect_days(validate.days, 4.125, 5.5, 8.25);  // 5 d + 2 files × 2 h, mechanical spread
  ASSERT_EQ(validate.evidence.size(), 1u);
  EXPECT_EQ(validate.evidence[0].file, "CMakeLists.txt");
  EXPECT_EQ(validate.evidence[0].line, 12u);
  std::size_t mechanical = 0;
  bool retune = false;
  bool rewrite = false;
  for (const EffortItem& each : estimate.items) {
    mechanical += each.tier == EffortTier::Mechanical ? 1 : 0;
    retune = retune || each.title == "GP-WARP-001 Warp size (wave64)";
    rewrite = rewrite || each.tier == EffortTier::Rewrite;
  }
  EXPECT_EQ(mechanical, 1u);  // no dry-run, catalog or port-and-test items
  EXPECT_TRUE(retune);
  EXPECT_TRUE(rewrite);
  item(estimate, "Tune hot_kernel on AMD");  // a trace says it is hot: it is tuned

  // Without a trace, the validation's benchmark run is what finds the hot kernels: no kernel
  // is priced as possibly hot.
  Repo untraced(false);
  untraced.scan.amd_build = repo.scan.amd_build;
  const EffortEstimate guessed =
      estimate_effort({untraced.scan, untraced.findings, untraced.dry_run, false}, untraced.kernels,
                      default_audit_config());
  for (const EffortItem& each : guessed.items) {
    EXPECT_NE(each.title.rfind("Tune ", 0), 0u) << each.title;
  }
  EXPECT_NE(untraced.kernels[0].why.find("the project builds for AMD already"), std::string::npos);
}

TEST(AuditFindings, CountsForThePortAndFeatureGapsPerComponent) {
  ScanResult scan;
  Finding ptx = finding("GP-ASM-001", "k.cu", 3);
  Finding handled = finding("GP-ASM-001", "k.cu", 9);
  handled.set_amd({AmdBuildState::Excluded, true, 7});
  Finding gap_a = finding("GP-ASM-002", "k.cu", 20);
  gap_a.set_amd({AmdBuildState::Excluded, false, 18});
  Finding gap_b = finding("GP-ASM-002", "m.cu", 5);
  gap_b.set_amd({AmdBuildState::Excluded, false, 4});
  Finding graph = finding("GP-EXEC-011", "m.cu", 30);
  graph.set_amd({AmdBuildState::Excluded, false, 28});
  Finding test_ptx = finding("GP-ASM-001", "tests/t.cu", 2);
  test_ptx.scope = Scope::Test;
  scan.findings = {ptx, handled, gap_a, gap_b, graph, test_ptx};
  const std::vector<AuditFinding> findings = audit_findings(scan);
  AuditInputSummary summary;
  count_port_work(findings, summary);
  EXPECT_EQ(summary.port_work_findings, 1u);
  EXPECT_EQ(summary.handled_for_amd_findings, 1u);
  EXPECT_EQ(summary.cuda_only_findings, 3u);
  EXPECT_EQ(summary.outside_product_findings, 1u);

  Component row;
  row.name = findings[2].component;
  row.amd_equivalent = "HIP intrinsics, rocWMMA";
  const std::vector<FeatureGap> gaps = feature_gaps(findings, {row});
  ASSERT_EQ(gaps.size(), 2u);
  EXPECT_EQ(gaps[0].component, findings[2].component);  // two findings: first
  EXPECT_EQ(gaps[0].findings, 2u);
  EXPECT_EQ(gaps[0].amd_equivalent, "HIP intrinsics, rocWMMA");
  EXPECT_EQ(gaps[0].first_anchor, findings[2].anchor);
  EXPECT_EQ(gaps[0].file, "k.cu");
  EXPECT_EQ(gaps[0].line, 20u);
  EXPECT_EQ(gaps[1].component, findings[4].component);
  EXPECT_EQ(gaps[1].findings, 1u);
}

// Whatever the port changes, the stack is validated on AMD: never zero days, sized by the
// frameworks the product relies on. A project with an AMD build validates that build instead.
TEST(AuditEffort, AFrameworkOnlyStackStillCostsAValidationPass) {
  ScanResult scan;
  scan.findings = {finding("GP-FW-001", "app.py", 3), finding("GP-FW-002", "ops.py", 9)};
  for (const char* name : {"PyTorch", "Triton"}) {
    Component row;
    row.name = name;
    row.layer = Tier::Framework;
    row.findings = 1;
    row.evidence.push_back({std::string(name) == "PyTorch" ? "app.py" : "ops.py", 3});
    scan.components.push_back(row);
  }
  const EffortEstimate estimate = estimate_of(scan);
  ASSERT_EQ(estimate.items.size(), 1u);
  const EffortItem& validate = estimate.items[0];
  EXPECT_EQ(validate.title, "Validate on AMD: the test suite, numerics and a benchmark run");
  EXPECT_EQ(validate.tier, EffortTier::Mechanical);
  expect_days(validate.days, 3, 4, 6);  // 2 d + 2 frameworks × 1 d, mechanical spread
  ASSERT_EQ(validate.evidence.size(), 2u);
  EXPECT_EQ(validate.evidence[0].label, "PyTorch");
  EXPECT_EQ(validate.evidence[1].file, "ops.py");

  scan.amd_build.exists = true;
  const EffortEstimate existing = estimate_of(scan);
  ASSERT_EQ(existing.items.size(), 1u);
  EXPECT_EQ(existing.items[0].title, "Validate and benchmark the existing AMD build");
}

// A CUTLASS/CuTe kernel family (the uses under one folder) is one project sized by its files,
// as hot as its hottest use; two folders are two families.
TEST(AuditEffort, CutlassUsesAreOneProjectPerKernelFamily) {
  Repo repo(true);
  // A family is the folder three levels down: these four share csrc/attn/fmha.
  for (const char* file : {"csrc/attn/fmha/gemm/a.h", "csrc/attn/fmha/gemm/b.h",
                           "csrc/attn/fmha/iter/c.h", "csrc/attn/fmha/d.h"}) {
    repo.scan.findings.push_back(finding("GP-LIB-009", file, 3));
  }
  repo.scan.findings.push_back(finding("GP-LIB-009", "k.cu", 12));  // inside hot_kernel
  repo.findings = audit_findings(repo.scan);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                  repo.kernels, default_audit_config());
  const EffortItem& attn =
      item(estimate,
           "Port the CUTLASS/CuTe kernel family in csrc/attn/fmha/ to Composable "
           "Kernel, hipBLASLt, aiter or Triton");
  // 10 d × (1 + log2 4), priced in full: files with no kernel say nothing of coldness.
  expect_days(attn.days, 15, 30, 60);
  EXPECT_EQ(attn.basis,
            "1 family × 30 d (10 d × (1 + log2 4 files)) × 1 (no kernel in the file: priced in "
            "full)");
  EXPECT_EQ(attn.evidence.size(), 4u);
  const EffortItem& root = item(estimate,
                                "Port the CUTLASS/CuTe kernel family at the root to Composable "
                                "Kernel, hipBLASLt, aiter or Triton");
  expect_days(root.days, 5, 10, 20);  // one file, in a hot kernel
  // k.cu uses CUTLASS, so its code is the family's: its PTX, tensor-core sites and kernels are
  // priced inside the family, not again as items of their own.
  EXPECT_EQ(root.basis,
            "1 family × 10 d (10 d × (1 + log2 1 files); includes its code's 8 other findings and "
            "2 kernels) × 1 (hot kernel)");
  for (const EffortItem& other : estimate.items) {
    EXPECT_EQ(other.title.find("in hot_kernel"), std::string::npos) << other.title;
    EXPECT_EQ(other.title.find("Tune hot_kernel"), std::string::npos) << other.title;
  }
}

// In a project that builds for AMD, a CUTLASS family cannot be compiled by hipcc: the AMD build
// does without it. It is a feature gap with what porting it would take, and its whole folder
// (kernels, PTX, other findings) goes with it, out of the items and the total.
TEST(AuditEffort, ACutlassFamilyBesideAnAmdBuildIsAFeatureGapNotPortWork) {
  Repo repo(true);
  repo.scan.amd_build.exists = true;
  for (const char* file : {"csrc/fa3/fmha/gemm.h", "csrc/fa3/fmha/epilogue.h"}) {
    repo.scan.findings.push_back(finding("GP-LIB-009", file, 3));
  }
  repo.scan.findings.push_back(finding("GP-ASM-001", "csrc/fa3/fmha/barrier.h", 9));
  repo.scan.findings.push_back(finding("GP-WARP-001", "csrc/fa3/fmha/softmax.cu", 4));
  repo.scan.kernels.push_back(kernel("fa3_fwd_kernel", "csrc/fa3/fmha/launch.cu", 10, 40));
  repo.findings = audit_findings(repo.scan);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                  repo.kernels, default_audit_config());
  for (const EffortItem& each : estimate.items) {
    EXPECT_EQ(each.title.find("csrc/fa3"), std::string::npos) << each.title;
    for (const EvidenceLink& link : each.evidence) {
      EXPECT_FALSE(link.file.starts_with("csrc/fa3/")) << each.title << ": " << link.label;
    }
  }
  ASSERT_EQ(estimate.feature_gaps.size(), 1u);
  const FeatureGap& gap = estimate.feature_gaps[0];
  EXPECT_EQ(gap.folder, "csrc/fa3/fmha/");
  EXPECT_EQ(gap.findings, 4u);  // 2 CUTLASS files, the PTX and the warp-size finding
  EXPECT_EQ(gap.file, "csrc/fa3/fmha/gemm.h");
  ASSERT_TRUE(gap.port_days);
  // 10 d × (1 + log2 2), in full (no kernel in the files), the project spread 0.5 / 2.
  EXPECT_DOUBLE_EQ(gap.port_days->likely, 20);
  EXPECT_DOUBLE_EQ(gap.port_days->high, 40);
  EXPECT_NE(gap.port_basis.find("includes its code's 2 other findings and 1 kernel"),
            std::string::npos)
      << gap.port_basis;
}

// A TensorRT plugin's folder goes with the TensorRT replacement: its kernels and findings are
// not priced again; code outside the plugin folders is.
TEST(AuditEffort, TensorRtPluginFoldersArePricedInsideTheReplacement) {
  Repo repo(true);
  repo.scan.findings.push_back(finding("GP-LIB-012", "plugins/norm/norm_plugin.cpp", 8));
  repo.scan.findings.push_back(finding("GP-WARP-001", "plugins/norm/norm_kernel.cu", 20));
  repo.scan.findings.push_back(finding("GP-ASM-001", "plugins/norm/norm_kernel.cu", 30));
  repo.scan.kernels.push_back(kernel("norm_kernel", "plugins/norm/norm_kernel.cu", 12, 60));
  repo.findings = audit_findings(repo.scan);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                  repo.kernels, default_audit_config());
  const EffortItem& project = item(
      estimate, "Replace TensorRT with MIGraphX or ONNX Runtime's MIGraphX execution provider");
  // requirements.txt and trt.py (the Repo's) and the plugin: 20 d × (1 + log2 3).
  EXPECT_EQ(project.basis,
            "1 project × 51.6993 d (20 d × (1 + log2 3 files using or packaging it); includes "
            "its code's 2 other findings and 1 kernel)");
  for (const EffortItem& each : estimate.items) {
    if (&each == &project) {
      continue;
    }
    for (const EvidenceLink& link : each.evidence) {
      EXPECT_FALSE(link.file.starts_with("plugins/norm/")) << each.title << ": " << link.label;
    }
  }
  // The Repo's own kernels, outside any plugin folder, are still ported.
  item(estimate, "Rewrite inline PTX in hot_kernel");
}

// A PTX wrapper header is one unit per distinct instruction kind (the opcode, with the state
// space of a memory operation), not one per statement.
TEST(AuditEffort, PtxIsPricedPerInstructionKindNotPerStatement) {
  Repo repo(true);
  repo.scan.findings.push_back(
      finding("GP-ASM-001", "utils/ptx.cuh", 10, "setp.ne.b32, mov.b32, ld.global.v4.u32"));
  repo.scan.findings.push_back(finding("GP-ASM-001", "utils/ptx.cuh", 20, "ld.global.cg.v4.u32"));
  repo.scan.findings.push_back(finding("GP-ASM-001", "utils/ptx.cuh", 30, "mov.u32, %laneid"));
  repo.scan.findings.push_back(finding("GP-ASM-001", "utils/ptx.cuh", 40, "cvt.rn.f16.f32"));
  repo.scan.findings.push_back(finding("GP-ASM-001", "utils/ptx.cuh", 50, "st.shared.u32"));
  repo.findings = audit_findings(repo.scan);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                  repo.kernels, default_audit_config());
  const EffortItem& ptx = item(estimate, "Rewrite inline PTX in utils/ptx.cuh");
  EXPECT_EQ(ptx.quantity, 5);
  EXPECT_EQ(ptx.basis,
            "5 instruction kinds × 1 d (cvt, ld.global, mov, setp, st.shared: 5 statements) × 1 "
            "(no kernel in the file: priced in full)");
  EXPECT_EQ(ptx.evidence.size(), 5u);
}

// A Numba or CuTe DSL kernel is priced by its rule (a rewrite), never as a kernel to port; a
// kernel in a Python string is priced by GP-FW-021.
TEST(AuditEffort, PythonKernelsArePricedByTheirRulesNotAsKernels) {
  Repo repo(false);
  Kernel numba = kernel("scale", "ops/numba_ops.py", 11, 4);
  numba.language = KernelLanguage::Numba;
  Kernel cute = kernel("Softmax.kernel", "ops/cute_ops.py", 20, 30);
  cute.language = KernelLanguage::CuteDsl;
  Kernel in_string = kernel("saxpy", "ops/rtc.py", 6, 4);
  in_string.language = KernelLanguage::PythonString;
  repo.scan.kernels.push_back(numba);
  repo.scan.kernels.push_back(cute);
  repo.scan.kernels.push_back(in_string);
  repo.scan.findings.push_back(finding("GP-FW-018", "ops/numba_ops.py", 10, "@cuda.jit"));
  repo.findings = audit_findings(repo.scan);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, false},
                                                  repo.kernels, default_audit_config());
  const EffortItem& small = item(estimate, "Port and test small kernels (up to 50 lines)");
  for (const EvidenceLink& link : small.evidence) {
    EXPECT_FALSE(link.label.starts_with("scale") || link.label.starts_with("Softmax") ||
                 link.label.starts_with("saxpy"))
        << link.label;
  }
  EXPECT_EQ(small.quantity, 1);  // hot_kernel only
  const EffortItem& numba_rewrite = item(estimate, "GP-FW-018 Numba CUDA in scale");
  EXPECT_EQ(numba_rewrite.tier, EffortTier::Rewrite);
}

// The WMMA API of one wrapper file is one instruction kind however many fragments and calls it
// has; a file with only `#include <mma.h>` and `using namespace nvcuda` gets no item.
TEST(AuditEffort, WmmaIsOneKindAndItsDirectivesAreNotWork) {
  Repo repo(true);
  repo.scan.findings.push_back(finding("GP-MMA-001", "ops/tc.cuh", 3, "#include <mma.h>"));
  repo.scan.findings.push_back(finding("GP-MMA-001", "ops/tc.cuh", 4, "using namespace nvcuda"));
  repo.scan.findings.push_back(finding("GP-MMA-001", "ops/tc.cuh", 10, "wmma::fragment"));
  repo.scan.findings.push_back(finding("GP-MMA-001", "ops/tc.cuh", 11, "wmma::fill_fragment"));
  repo.scan.findings.push_back(finding("GP-MMA-001", "ops/tc.cuh", 12, "wmma::load_matrix_sync"));
  repo.scan.findings.push_back(finding("GP-MMA-001", "ops/tc.cuh", 13, "wmma::mma_sync"));
  repo.scan.findings.push_back(finding("GP-MMA-001", "ops/tc.cuh", 14, "wmma::store_matrix_sync"));
  repo.scan.findings.push_back(finding("GP-MMA-001", "ops/blas.h", 2, "#include <mma.h>"));
  repo.findings = audit_findings(repo.scan);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                  repo.kernels, default_audit_config());
  const EffortItem& wmma =
      item(estimate, "Redesign tensor-core code (WMMA/MMA/ldmatrix) in ops/tc.cuh");
  EXPECT_EQ(wmma.quantity, 1);
  EXPECT_EQ(wmma.basis,
            "1 instruction kind × 5 d (wmma: 7 statements) × 1 (no kernel in the file: priced in "
            "full)");
  for (const EffortItem& each : estimate.items) {
    EXPECT_EQ(each.title.find("ops/blas.h"), std::string::npos) << each.title;
  }
}

// The cuDNN frontend's graphs are one project sized by the files that use them; a legacy cuDNN
// call elsewhere is still a retune item of its own.
TEST(AuditEffort, CudnnFrontendGraphsAreOneProject) {
  Repo repo(true);
  repo.scan.findings.push_back(finding("GP-LIB-003", "ops/attn.cpp", 10, "cudnn_frontend::"));
  repo.scan.findings.push_back(finding("GP-LIB-003", "ops/attn.cpp", 30, "cudnn_frontend::"));
  repo.scan.findings.push_back(finding("GP-LIB-003", "ops/conv.cpp", 12, "cudnn_frontend::"));
  repo.scan.findings.push_back(finding("GP-LIB-003", "ops/conv.cpp", 40, "cudnnSetStream"));
  repo.scan.findings.push_back(finding("GP-LIB-003", "legacy/pool.cpp", 8, "cudnnPoolingForward"));
  repo.findings = audit_findings(repo.scan);
  const EffortEstimate estimate = estimate_effort({repo.scan, repo.findings, repo.dry_run, true},
                                                  repo.kernels, default_audit_config());
  const EffortItem& graphs = item(estimate,
                                  "Port the cuDNN frontend graphs to MIOpen (or move their ops "
                                  "into PyTorch or MIGraphX)");
  EXPECT_EQ(graphs.tier, EffortTier::Rewrite);
  // 10 d × (1 + log2 2 files), the project spread; conv.cpp's cudnnSetStream goes with it.
  expect_days(graphs.days, 10, 20, 40);
  EXPECT_EQ(graphs.basis,
            "1 project × 20 d (10 d × (1 + log2 2 files using cudnn_frontend); includes its "
            "code's 1 other finding)");
  EXPECT_EQ(graphs.evidence.size(), 4u);
  const EffortItem& legacy = item(estimate, "GP-LIB-003 cuDNN");
  ASSERT_EQ(legacy.evidence.size(), 1u);
  EXPECT_EQ(legacy.evidence[0].file, "legacy/pool.cpp");
}

// The same rule matching the same text n times is one fix repeated: 1 + log2(n) units.
TEST(AuditEffort, IdenticalFindingsGrowTheEstimateSubLinearly) {
  ScanResult scan;
  for (std::uint32_t line = 1; line <= 8; ++line) {
    Finding lane = finding("GP-WARP-001", "k.cu", line);
    lane.detail = "& 31";
    scan.findings.push_back(lane);
  }
  Finding other = finding("GP-WARP-001", "k.cu", 20);
  other.detail = "/ 32";
  scan.findings.push_back(other);
  const EffortEstimate estimate = estimate_of(scan);
  const EffortItem& lanes = item(estimate, "GP-WARP-001 Warp size (wave64)");
  EXPECT_EQ(lanes.quantity, 5);  // (1 + log2 8) + (1 + log2 1)
  EXPECT_EQ(lanes.quantity_unit, "units");
  expect_days(lanes.days, 1.25, 2.5, 7.5);  // 5 × 4 h, retune spread
  EXPECT_EQ(lanes.basis,
            "5 units × 4 h (9 findings, 2 distinct, each repeated n times counts 1 + log2 n; "
            "catalog 4 h × effort.tier_weight.retune 1)");
  EXPECT_EQ(lanes.evidence.size(), 9u);
}

}  // namespace
}  // namespace gpuport
