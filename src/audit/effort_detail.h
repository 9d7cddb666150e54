// Internal to the effort model: locating findings in kernels, and building line items.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "audit/effort.h"

namespace gpuport::effort_detail {

// The lines of each scanned kernel: from the line before its name (where `__global__
// __launch_bounds__(...)` often sits) through name line + lines of code - 1 (the scan counts
// from the `__global__` line to the closing brace, so this end is never early).
class KernelLocator {
 public:
  explicit KernelLocator(const ScanResult& scan);
  // Index into scan.kernels of the kernel whose lines hold `line`, if any.
  std::optional<std::size_t> kernel_at(const std::string& file, std::uint32_t line) const;
  // Indexes of the kernels defined in `file`.
  std::vector<std::size_t> kernels_in(const std::string& file) const;

 private:
  struct Span {
    std::size_t kernel = 0;
    std::uint32_t first = 0;
    std::uint32_t last = 0;
  };
  std::map<std::string, std::vector<Span>, std::less<>> m_by_file;
};

// The audit kernel rows of each scanned definition.
class DefinitionRows {
 public:
  DefinitionRows(const ScanResult& scan, const std::vector<AuditKernel>& kernels);
  // The first (hottest) row of scan.kernels[index], or -1 when none lists it.
  std::int64_t row_of(std::size_t index) const { return m_rows[index]; }
  Hotness hotness(std::size_t index) const;

 private:
  const std::vector<AuditKernel>& m_kernels;
  std::vector<std::int64_t> m_rows;
};

// The component rules the audit prices as one project each, not per site.
bool is_cutlass_rule(std::string_view rule);  // GP-LIB-009, GP-FW-024

// A kernel written in an NVIDIA-only Python DSL (CuTe DSL, Numba): its rule prices its rewrite,
// so it gets no port or tuning days of its own.
inline bool rewritten_by_its_rule(const Kernel& kernel) {
  return kernel.language == KernelLanguage::CuteDsl || kernel.language == KernelLanguage::Numba;
}
inline std::string_view kernel_language_label(KernelLanguage language) {
  return language == KernelLanguage::CuteDsl        ? "CuTe DSL"
         : language == KernelLanguage::Numba        ? "Numba CUDA"
         : language == KernelLanguage::PythonString ? "Python-string CUDA"
                                                    : "CUDA";
}
// The TensorRT API, its plugins, its packages and its engines' build.
bool is_tensorrt_rule(std::string_view rule);
// A use of the cuDNN frontend's graph API (GP-LIB-003 on `cudnn_frontend::`).
bool is_cudnn_graph_use(const Finding& finding);

// Code that belongs to a component project — a CUTLASS/CuTe kernel family, TensorRT with its
// plugins, or the cuDNN frontend's graphs — is priced inside that project: its other findings, its
// kernels and its translated files are not priced again on their own.
class ComponentProjects {
 public:
  enum class Kind : std::uint8_t { CutlassFamily, TensorRt, CudnnGraph };
  struct Project {
    Kind kind = Kind::CutlassFamily;
    std::string folder;                          // a family's folder ("" at the root); TensorRT: ""
    std::set<std::string, std::less<>> files;    // the files that use the component: its size
    std::set<std::string, std::less<>> derived;  // files only naming its types (GP-LIB-008)
    std::vector<std::string> trees;  // folders all of whose code belongs to it ("plugin/norm")
    // A family in a project that builds for AMD: hipcc cannot compile CUTLASS/CuTe, so the AMD
    // build does without it. Listed as a feature gap with its port estimate, not priced.
    bool feature_gap = false;
  };

  explicit ComponentProjects(const ScanResult& scan);
  // Index into projects() of the project that owns `file`, if any.
  std::optional<std::size_t> owner(std::string_view file) const;
  const std::vector<Project>& projects() const { return m_projects; }
  // "the CUTLASS/CuTe kernel family in hopper/", "the TensorRT replacement"
  std::string name(std::size_t project) const;

 private:
  std::vector<Project> m_projects;
};

struct ItemSpec {
  EffortTier tier = EffortTier::Mechanical;
  std::string title;
  double quantity = 0;
  std::string quantity_unit;
  EffortUnit unit = EffortUnit::Days;
  double per_unit = 0;
  double hotness = 1;
  std::string hotness_note;  // "hot", "cold", "untraced"; empty when hotness does not apply
  std::string weight_key;
  std::string per_unit_note;  // how per_unit is made: "catalog 2 h × effort.tier_weight.retune 1"
  bool component_project = false;  // spread by effort.range.project_*, not by its tier's
};

EffortItem make_item(const ItemSpec& spec, const EffortConfig& config);

EvidenceLink finding_link(const AuditFinding& finding);
EvidenceLink kernel_link(const AuditKernel& kernel);

// Config, mechanical and retune findings priced per rule from the catalog's hours.
void add_catalog_items(const EffortInputs& inputs, const ComponentProjects& projects,
                       const AuditConfig& config, std::vector<EffortItem>& items);
// Without an AMD build in the project: one item to validate the ported stack on AMD (its tests,
// numerics and a benchmark run), sized by the frameworks it relies on. Never zero: even a stack
// that only changes config must be validated.
void add_validation_item(const EffortInputs& inputs, const AuditConfig& config,
                         std::vector<EffortItem>& items);
// With an AMD build in the project: one item to validate and benchmark it, in place of the
// mechanical port.
void add_existing_build_item(const EffortInputs& inputs, const AuditConfig& config,
                             std::vector<EffortItem>& items);
// Unsupported APIs, uses to review, files changed, kernels by size; with an AMD build in the
// project, add_existing_build_item instead.
void add_dry_run_items(const EffortInputs& inputs, const ComponentProjects& projects,
                       const std::vector<AuditKernel>& kernels, const DefinitionRows& rows,
                       const AuditConfig& config, std::vector<EffortItem>& items);
// Rewrite items by kind, weighted by the hotness of the kernel (or file) they sit in; one item per
// component project, holding the code it owns. A family that is a feature gap goes to `gaps`.
void add_rewrite_items(const EffortInputs& inputs, const ComponentProjects& projects,
                       const std::vector<AuditKernel>& kernels, const KernelLocator& locator,
                       const DefinitionRows& rows, const AuditConfig& config,
                       std::vector<EffortItem>& items, std::vector<FeatureGap>& gaps);

}  // namespace gpuport::effort_detail
