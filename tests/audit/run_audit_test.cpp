// run_audit end to end on the bundled example (examples/serving-repo) with a small Kineto trace
// written for these tests (tests/fixtures/audit/serving_h100_kineto.json: the example's four
// kernels beside cuBLAS, ATen and Triton ones).
#include <atomic>
#include <set>
#include <tuple>

#include <gtest/gtest.h>

#include "audit/audit.h"
#include "audit/dry_run.h"
#include "hipify/hipify_tree.h"
#include "scan/scanner.h"

namespace gpuport {
namespace {

constexpr const char* k_repo = GPUPORT_SOURCE_DIR "/examples/serving-repo";
constexpr const char* k_trace = GPUPORT_SOURCE_DIR "/tests/fixtures/audit/serving_h100_kineto.json";
constexpr const char* k_team = GPUPORT_SOURCE_DIR "/tests/fixtures/audit/team.gpuport.toml";

AuditResult audit(std::vector<std::string> traces, std::optional<std::string> config = {}) {
  AuditInputs inputs;
  inputs.repo = k_repo;
  inputs.traces = std::move(traces);
  inputs.config_path = std::move(config);
  inputs.jobs = 2;
  auto result = run_audit(inputs);
  EXPECT_TRUE(result) << result.error().message;
  return result ? std::move(*result) : AuditResult{};
}

const EffortItem* find_item(const AuditResult& result, const std::string& title) {
  for (const EffortItem& item : result.items) {
    if (item.title == title) {
      return &item;
    }
  }
  return nullptr;
}

TEST(RunAudit, InputsSummaryOfTheExampleAndItsTrace) {
  const AuditResult result = audit({k_trace});
  const AuditInputSummary& inputs = result.inputs;
  EXPECT_EQ(inputs.repo, k_repo);
  EXPECT_FALSE(inputs.config_path);
  EXPECT_TRUE(inputs.overrides.empty());
  EXPECT_EQ(inputs.scanned_kernels, 4u);
  EXPECT_EQ(inputs.files_changed_by_translation, 4u);
  ASSERT_EQ(inputs.traces.size(), 1u);
  const AuditTraceInfo& trace = inputs.traces[0];
  EXPECT_EQ(trace.path, k_trace);
  EXPECT_EQ(trace.format, TraceFormat::KinetoJson);
  EXPECT_EQ(trace.vendor, Vendor::Nvidia);
  EXPECT_EQ(trace.gpu, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(trace.gpu_ns, 307500);
  EXPECT_EQ(trace.kernel_calls, 28);
  EXPECT_EQ(trace.unique_kernels, 7);
  EXPECT_EQ(trace.steps, 4);
  EXPECT_EQ(trace.p95_ns, 200000);
  EXPECT_EQ(trace.joined_kernels, 4);
  ASSERT_EQ(result.class_time.size(), 1u);
  EXPECT_EQ(result.class_time[0].own_code_ns, 109500);
  EXPECT_FALSE(result.portability.empty());
  EXPECT_EQ(result.findings.size(), inputs.findings);
  EXPECT_TRUE(result.coverage.traced);
  EXPECT_EQ(result.coverage.note, "");
  EXPECT_TRUE(result.warnings.empty());
}

TEST(RunAudit, HotOwnKernelsAreTunedAndTheColdOneIsNot) {
  const AuditResult result = audit({k_trace});
  ASSERT_EQ(result.kernels.size(), 7u);
  const EffortItem* dequant = find_item(result, "Tune dequant_int4_kernel on AMD");
  const EffortItem* norm = find_item(result, "Tune rms_norm_kernel on AMD");
  const EffortItem* softmax = find_item(result, "Tune masked_softmax_kernel on AMD");
  ASSERT_TRUE(dequant && norm && softmax);
  EXPECT_DOUBLE_EQ(dequant->days.likely, 2.0);  // no retune/rewrite finding inside
  EXPECT_DOUBLE_EQ(norm->days.likely, 2.5);     // GP-EXEC-002 on its __launch_bounds__ line
  EXPECT_DOUBLE_EQ(softmax->days.likely, 3.5);  // GP-EXEC-002, GP-WARP-003 and GP-WARP-014
  EXPECT_EQ(find_item(result, "Tune rotary_kernel on AMD"), nullptr);
  const AuditKernel& rotary = result.kernels[6];
  EXPECT_EQ(rotary.source->line, 81u);
  EXPECT_EQ(rotary.hotness, Hotness::Cold);
  EXPECT_EQ(rotary.tuning_days_likely, 0);
  const EffortItem* ptx = find_item(result, "Rewrite inline PTX in csrc/dequant_rotary.cu");
  ASSERT_NE(ptx, nullptr);
  // Three statements of two kinds (prmt, lop3): two units.
  EXPECT_EQ(ptx->quantity, 2);
  EXPECT_EQ(ptx->basis,
            "2 instruction kinds × 1 d (lop3, prmt: 3 statements) × 1 (a hot kernel's file)");
  const EffortItem* apis = find_item(result, "Replace CUDA APIs that HIP does not provide");
  ASSERT_NE(apis, nullptr);
  std::vector<std::string> labels;
  for (const EvidenceLink& link : apis->evidence) {
    labels.push_back(link.label + " " + link.file + ":" + std::to_string(link.line));
  }
  EXPECT_EQ(labels, (std::vector<std::string>{
                        "__cvta_generic_to_shared csrc/dequant_rotary.cu:68",
                        "__float2bfloat16_rn (3 uses) csrc/common.cuh:54",
                    }));
}

TEST(RunAudit, EveryItemIsTraceableToAFindingAKernelOrAFile) {
  const AuditResult result = audit({k_trace});
  std::set<std::string> anchors;
  for (const AuditFinding& finding : result.findings) {
    EXPECT_TRUE(anchors.insert(finding.anchor).second) << finding.anchor;
  }
  for (const AuditKernel& kernel : result.kernels) {
    EXPECT_TRUE(anchors.insert(kernel.anchor).second) << kernel.anchor;
  }
  double likely = 0;
  for (std::size_t i = 0; i < result.items.size(); ++i) {
    const EffortItem& item = result.items[i];
    EXPECT_EQ(item.anchor, "item-" + std::to_string(i + 1));
    EXPECT_FALSE(item.evidence.empty()) << item.title;
    for (const EvidenceLink& link : item.evidence) {
      if (link.kind == EvidenceLink::Kind::Finding || link.kind == EvidenceLink::Kind::Kernel) {
        EXPECT_EQ(anchors.count(link.anchor), 1u) << item.title << ": " << link.anchor;
      } else {
        EXPECT_FALSE(link.file.empty()) << item.title;
      }
    }
    EXPECT_LE(item.days.low, item.days.likely);
    EXPECT_LE(item.days.likely, item.days.high);
    likely += item.days.likely;
  }
  EXPECT_NEAR(result.effort.total.likely, likely, 1e-9);
  for (const VerdictReason& reason : result.verdict.reasons) {
    EXPECT_TRUE(reason.anchor == "cost" || anchors.count(reason.anchor) == 1 ||
                reason.anchor.starts_with("item-"))
        << reason.anchor;
  }
}

TEST(RunAudit, CostAndVerdictWithTheShippedPrices) {
  const AuditResult result = audit({k_trace});
  const CostSummary& cost = result.cost;
  EXPECT_EQ(cost.nvidia.gpu, "H100");
  EXPECT_EQ(cost.amd.gpu, "MI300X");
  EXPECT_TRUE(cost.nvidia.throughput_assumed);
  EXPECT_DOUBLE_EQ(cost.nvidia.cost_per_million, 3.49 / 36000 * 1e6);  // $96.94
  EXPECT_DOUBLE_EQ(cost.amd.cost_per_million, 1.99 / 36000 * 1e6);     // $55.28
  EXPECT_NEAR(cost.monthly_delta, 1.5 / 36000 * 1e6 * 100, 1e-9);      // $4,166.67
  EXPECT_DOUBLE_EQ(cost.porting_cost.likely, result.effort.total.likely * 1000);
  EXPECT_NEAR(*cost.payback_months, cost.porting_cost.likely / cost.monthly_delta, 1e-12);
  EXPECT_DOUBLE_EQ(cost.break_even_ratio, 1.99 / 3.49);
  EXPECT_EQ(result.verdict.kind, VerdictKind::BoundedProject);
  // docs/estimate-model.md quotes these figures for the bundled example.
  // The ldmatrix helper sits under `#if __CUDA_ARCH__ >= 800` with a portable #else: the AMD
  // build compiles the #else, so it costs nothing.
  EXPECT_EQ(result.items.size(), 32u);
  EXPECT_EQ(result.inputs.findings, 75u);  // imports per statement since the inventory issue
  EXPECT_EQ(result.inputs.port_work_findings, 74u);
  EXPECT_EQ(result.inputs.handled_for_amd_findings, 1u);  // the ldmatrix under the arch guard
  EXPECT_EQ(result.inputs.cuda_only_findings, 0u);
  EXPECT_EQ(result.inputs.outside_product_findings, 0u);
  EXPECT_FALSE(result.inputs.amd_build_exists);
  EXPECT_TRUE(result.feature_gaps.empty());
  EXPECT_NEAR(result.effort.total.low, 13.5421875, 1e-9);
  EXPECT_NEAR(result.effort.total.likely, 23.678125, 1e-9);
  EXPECT_NEAR(result.effort.total.high, 58.5125, 1e-9);
  EXPECT_NEAR(*cost.payback_ratio, 0.715916, 1e-6);
  EXPECT_EQ(result.verdict.headline, "Bounded project: 14–59 engineer-days");
  ASSERT_EQ(result.verdict.reasons.size(), 3u);
  // Validating the stack on AMD: 2 d, and a day for each of PyTorch and Triton.
  EXPECT_EQ(result.verdict.reasons[0].text,
            "Validate on AMD: the test suite, numerics and a benchmark run: 4 days likely (3–6 "
            "days)");
  EXPECT_EQ(result.verdict.reasons[1].text,
            "Tune masked_softmax_kernel on AMD: 3.5 days likely (1.8–11 days)");
  EXPECT_EQ(result.verdict.reasons[2].anchor, "cost");
}

TEST(RunAudit, WithoutATraceTheScanAloneWithWiderRanges) {
  const AuditResult traced = audit({k_trace});
  const AuditResult result = audit({});
  EXPECT_FALSE(result.coverage.traced);
  EXPECT_EQ(result.coverage.low_factor, 0.75);
  EXPECT_EQ(result.coverage.high_factor, 2.0);
  EXPECT_EQ(result.coverage.note,
            "no trace: estimated from the scan alone, every kernel priced as possibly hot at ×0.5, "
            "and the ranges of what depends on hotness widened by ×0.75 low / ×2 high");
  ASSERT_EQ(result.kernels.size(), 4u);
  for (const AuditKernel& kernel : result.kernels) {
    EXPECT_EQ(kernel.hotness, Hotness::Untraced);
  }
  ASSERT_NE(find_item(result, "Tune rotary_kernel on AMD (if hot)"), nullptr);
  EXPECT_DOUBLE_EQ(find_item(result, "Tune rotary_kernel on AMD (if hot)")->days.likely, 1.0);
  // A config item does not depend on hotness: the same range as with a trace.
  const EffortItem* docker = find_item(result, "GP-DEPLOY-001 Docker base image");
  const EffortItem* docker_traced = find_item(traced, "GP-DEPLOY-001 Docker base image");
  ASSERT_TRUE(docker && docker_traced);
  EXPECT_DOUBLE_EQ(docker->days.likely, docker_traced->days.likely);
  EXPECT_DOUBLE_EQ(docker->days.low, docker_traced->days.low);
  EXPECT_DOUBLE_EQ(docker->days.high, docker_traced->days.high);
  EXPECT_GT(result.effort.total.high / result.effort.total.likely,
            traced.effort.total.high / traced.effort.total.likely);
}

TEST(RunAudit, ATeamConfigIsAppliedAndItsOverridesRecorded) {
  const AuditResult result = audit({k_trace}, std::string(k_team));
  EXPECT_EQ(result.inputs.config_path, k_team);
  ASSERT_EQ(result.inputs.overrides.size(), 3u);
  EXPECT_EQ(result.inputs.overrides[0].key, "cost.amd.throughput_rps");
  EXPECT_EQ(result.inputs.overrides[0].line, 9u);
  EXPECT_FALSE(result.cost.amd.throughput_assumed);
  EXPECT_DOUBLE_EQ(result.cost.nvidia.cost_per_million, 3.49 / (20 * 3600.0) * 1e6);  // $48.47
  EXPECT_DOUBLE_EQ(result.cost.amd.cost_per_million, 1.99 / (16 * 3600.0) * 1e6);     // $34.55
  EXPECT_DOUBLE_EQ(result.cost.monthly_requests, 3e8);
  EXPECT_NEAR(result.cost.monthly_delta, (3.49 / (20 * 3600.0) - 1.99 / (16 * 3600.0)) * 3e8,
              1e-6);  // $4,177.08
}

TEST(RunAudit, ProgressNamesEachStage) {
  AuditInputs inputs;
  inputs.repo = k_repo;
  inputs.traces = {k_trace};
  std::vector<std::string> stages;
  inputs.progress = [&](AuditStage stage, std::string_view detail) {
    stages.push_back(std::string(audit_stage_name(stage)) +
                     (detail.empty() ? "" : " " + std::string(detail)));
  };
  ASSERT_TRUE(run_audit(inputs));
  EXPECT_EQ(stages,
            (std::vector<std::string>{"reading the config", "scanning", "translating (dry run)",
                                      std::string("reading the trace ") + k_trace, "estimating"}));
}

TEST(RunAudit, BadInputsAreOneLineErrors) {
  AuditInputs inputs;
  inputs.repo = "no/such/repo";
  auto missing_repo = run_audit(inputs);
  ASSERT_FALSE(missing_repo);
  EXPECT_EQ(missing_repo.error().message, "no/such/repo: cannot read: No such file or directory");

  inputs.repo = k_repo;
  inputs.traces = {"no/such/trace.json"};
  auto missing_trace = run_audit(inputs);
  ASSERT_FALSE(missing_trace);
  EXPECT_EQ(missing_trace.error().message.rfind("no/such/trace.json: ", 0), 0u)
      << missing_trace.error().message;

  inputs.traces = {};
  inputs.config_path = GPUPORT_SOURCE_DIR "/tests/fixtures/audit/unknown-key.gpuport.toml";
  auto bad_config = run_audit(inputs);
  ASSERT_FALSE(bad_config);
  EXPECT_EQ(bad_config.error().message, GPUPORT_SOURCE_DIR
            "/tests/fixtures/audit/unknown-key.gpuport.toml:4: unknown key "
            "'cost.nvidia.price' (gpuport audit --print-default-config lists "
            "every key)");
}

// The dry run replays the scan's listing and reads the resolved findings from the scan; what it
// finds is what a separate hipify walk with the translator's own warnings finds.
TEST(RunAudit, TheDryRunWritesNothingAndFindsWhatHipifyLeaves) {
  DiskFileSystem disk;
  const std::vector<std::string> roots{k_repo};
  auto walked = hipify_tree(disk, roots, HipifyOptions{}, builtin_mapping_table());
  ASSERT_TRUE(walked);
  ScanOptions scan_options;
  TreeListing listing;
  scan_options.keep_listing = &listing;
  auto scanned = scan(disk, k_repo, scan_options);
  ASSERT_TRUE(scanned);
  ASSERT_FALSE(listing.files.empty());
  HipifyOptions replay;
  replay.listing = &listing;
  replay.translate.warnings = false;
  auto replayed = hipify_tree(disk, roots, replay, builtin_mapping_table());
  ASSERT_TRUE(replayed);
  const DryRunDigest digest = digest_dry_run(*replayed, *scanned);
  EXPECT_EQ(digest.changed_files,
            (std::vector<std::string>{"csrc/common.cuh", "csrc/dequant_rotary.cu",
                                      "csrc/fused_norm.cu", "csrc/gemm_cublas.cpp"}));
  // cublasSetMathMode and CUBLAS_DEFAULT_MATH map since ROCm 6.1 (hipblasSetMathMode).
  ASSERT_EQ(digest.unsupported.size(), 2u);
  EXPECT_EQ(digest.unsupported[1].name, "__float2bfloat16_rn");
  EXPECT_EQ(digest.unsupported[1].uses, 3u);
  // The same files, changes and resolved findings as the walk with the translator's warnings.
  const DryRunDigest separate = digest_dry_run(*walked, *scanned);
  EXPECT_EQ(digest.changed_files, separate.changed_files);
  EXPECT_EQ(digest.translatable_files, separate.translatable_files);
  std::set<std::tuple<std::uint16_t, std::string, std::uint32_t>> by_translator;
  for (const FileOutcome& file : walked->files) {
    for (const Finding& finding : file.resolved) {
      by_translator.emplace(finding.rule, file.relative, finding.line);
    }
  }
  EXPECT_FALSE(by_translator.empty());
  EXPECT_EQ(digest.resolved, by_translator);
}

// A replayed listing may not have stat-ed its files: the size limit still holds when the dry
// run reads them.
TEST(RunAudit, TheReplayedDryRunStillLeavesOverSizeFilesUntranslated) {
  MemoryFileSystem memory;
  memory.add_file("repo/small.cu", "cudaMalloc(&p, 4);\n");
  memory.add_file("repo/big.cu", "cudaMalloc(&p, 4);\n" + std::string(200, ' ') + "\n");
  ScanOptions scan_options;
  scan_options.walk.max_file_size = 100;
  TreeListing listing;
  scan_options.keep_listing = &listing;
  ASSERT_TRUE(scan(memory, "repo", scan_options));
  HipifyOptions replay;
  replay.walk = scan_options.walk;
  replay.listing = &listing;
  const std::vector<std::string> roots{"repo"};
  auto run = hipify_tree(memory, roots, replay, builtin_mapping_table());
  ASSERT_TRUE(run);
  ASSERT_EQ(run->files.size(), 2u);
  EXPECT_EQ(run->files[0].relative, "big.cu");
  EXPECT_EQ(run->files[0].action, FileAction::Copy);
  EXPECT_EQ(run->files[0].reason, SkipReason::TooLarge);
  EXPECT_EQ(run->files[0].size, 220u);
  EXPECT_FALSE(run->files[0].changed);
  EXPECT_EQ(run->files[1].relative, "small.cu");
  EXPECT_EQ(run->files[1].action, FileAction::Translate);
  EXPECT_TRUE(run->files[1].changed);
}

// A file system that counts directory listings: the audit walks the tree once.
class CountingFileSystem final : public FileSystem {
 public:
  tl::expected<std::vector<DirEntry>, IoError> list_directory(
      const std::string& path) const override {
    ++m_listings;
    return m_disk.list_directory(path);
  }
  tl::expected<FileStatus, IoError> status(const std::string& path, bool follow) const override {
    return m_disk.status(path, follow);
  }
  using FileSystem::read;
  tl::expected<FileContents, IoError> read(const std::string& path,
                                           std::uint64_t max_size) const override {
    return m_disk.read(path, max_size);
  }
  std::uint64_t listings() const { return m_listings; }

 private:
  DiskFileSystem m_disk;
  mutable std::atomic<std::uint64_t> m_listings{0};
};

// A trace that says a script made it is flagged next to the verdict, like a placeholder.
TEST(RunAudit, ATraceMadeByAScriptIsFlaggedWithTheVerdict) {
  const std::string example = GPUPORT_SOURCE_DIR "/examples/traces/serving-h100.json.gz";
  const AuditResult generated = audit({example});
  ASSERT_FALSE(generated.verdict.assumed.empty());
  EXPECT_EQ(generated.verdict.assumed.back(),
            "The trace " + example +
                " was made by examples/make_example_trace.py, not recorded by a profiler: its GPU "
                "times are not measurements");
  // The test fixture has its host launches and no label: nothing to flag about it.
  const AuditResult recorded = audit({k_trace});
  for (const std::string& line : recorded.verdict.assumed) {
    EXPECT_EQ(line.find("The trace"), std::string::npos) << line;
  }
}

TEST(RunAudit, WalksTheRepositoryOnce) {
  CountingFileSystem counting;
  ScanOptions alone;
  ASSERT_TRUE(scan(counting, k_repo, alone));
  const std::uint64_t one_walk = counting.listings();
  ASSERT_GT(one_walk, 1u);
  CountingFileSystem audited;
  AuditInputs inputs;
  inputs.repo = k_repo;
  auto result = run_audit(inputs, default_audit_config(), audited);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(audited.listings(), one_walk);
  EXPECT_EQ(result->inputs.files_changed_by_translation, 4u);
}

TEST(RunAudit, ExcludesAndTheConfigsScanExcludeLeaveFilesOutOfTheScanAndTheDryRun) {
  AuditInputs inputs;
  inputs.repo = k_repo;
  inputs.jobs = 2;
  DiskFileSystem disk;
  const AuditConfig defaults = default_audit_config();
  auto all = run_audit(inputs, defaults, disk);
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->inputs.scanned_kernels, 4u);
  ASSERT_EQ(all->inputs.files_changed_by_translation, 4u);

  // --exclude alone, then the config's [scan] exclude alone: csrc/*.cu holds every kernel.
  inputs.excludes = {"*.cu"};
  auto excluded = run_audit(inputs, defaults, disk);
  ASSERT_TRUE(excluded) << excluded.error().message;
  AuditConfig config = defaults;
  config.scan_exclude = {"*.cu"};
  inputs.excludes = {};
  auto configured = run_audit(inputs, config, disk);
  ASSERT_TRUE(configured) << configured.error().message;
  for (const AuditResult* result : {&*excluded, &*configured}) {
    EXPECT_EQ(result->inputs.scanned_kernels, 0u);
    EXPECT_EQ(result->inputs.files_changed_by_translation, 2u);  // common.cuh, gemm_cublas.cpp
    EXPECT_LT(result->inputs.files_scanned, all->inputs.files_scanned);
    for (const AuditFinding& finding : result->findings) {
      EXPECT_FALSE(finding.file.ends_with(".cu")) << finding.file;
    }
  }

  // The command line's globs come last: a "!" there takes back what the config left out.
  inputs.excludes = {"!fused_norm.cu"};
  auto back = run_audit(inputs, config, disk);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->inputs.scanned_kernels, 2u);  // rms_norm_kernel, masked_softmax_kernel
  EXPECT_EQ(back->inputs.files_changed_by_translation, 3u);
}

}  // namespace
}  // namespace gpuport
