// The values a scan produces: findings, the kernel inventory, components. Writers only read these.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lex/token.h"
#include "scan/project/build_facts.h"
#include "scan/project/scope.h"
#include "scan/segmented_list.h"
#include "scan/shared_string.h"
#include "scan/tier.h"
#include "source/language.h"
#include "source/walker.h"

namespace gpuport {

// The strings first and the small fields packed after them, the four smallest in one byte:
// 96 bytes, not 104 (a scan keeps every finding).
struct Finding {
  SharedString file;    // relative to the scan root, '/'-separated; shared by the file's items
  std::string excerpt;  // the source line, trimmed, at most 160 bytes
  std::string detail;   // what exactly matched: "ldmatrix.sync.aligned.m8n8.x4", "0xffffffff"
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint32_t guard_line = 0;  // AmdBuild::guard_line
  std::uint16_t rule = 0;        // index into rule_catalog()
  BranchContext context : 2 = BranchContext::Neutral;
  AmdBuildState amd_state : 2 = AmdBuildState::Unknown;
  bool amd_alternative : 1 = false;
  Scope scope : 3 = Scope::Product;

  AmdBuild amd() const { return {amd_state, amd_alternative, guard_line}; }
  // Port work: product code the AMD build may compile (what `--fail-on` gates and the audit
  // prices); tests, vendored code and what the AMD build leaves out stay in the report only.
  bool is_port_work() const {
    return scope == Scope::Product && amd_state != AmdBuildState::Excluded;
  }
  void set_amd(const AmdBuild& amd) {
    amd_state = amd.state;
    amd_alternative = amd.alternative;
    guard_line = amd.guard_line;
  }
};
static_assert(sizeof(Finding) <= sizeof(SharedString) + 2 * sizeof(std::string) + 16);

struct KernelFeatures {
  std::vector<std::string> ptx_instructions;  // distinct mnemonics, first-seen order
  std::vector<std::string> warp_intrinsics;   // distinct: __shfl_xor_sync, __ballot_sync, ...
  bool wmma = false;                          // nvcuda::wmma
  bool mma_ptx = false;                       // mma/wgmma/ldmatrix PTX
  std::optional<std::uint64_t> static_shared_bytes;  // sum of computable __shared__ arrays
  bool atomics = false;
  bool textures = false;
  bool surfaces = false;
  bool cooperative_groups = false;
  bool dynamic_parallelism = false;  // launches from device code
};

// How a kernel is written: CUDA C++ (a .cu/.cpp file), or one of the NVIDIA-only Python ways
// to write one (their rules price them; the audit's per-kernel port items do not).
enum class KernelLanguage : std::uint8_t {
  Cuda,          // __global__ in C/C++/CUDA source
  CuteDsl,       // @cute.kernel (CUTLASS's CuTe DSL)
  Numba,         // @cuda.jit of numba.cuda
  PythonString,  // __global__ in a Python string compiled at run time (NVRTC, cuda.core, CuPy)
};

struct Kernel {
  std::string name;
  SharedString file;
  std::uint32_t line = 0;
  std::uint32_t lines_of_code = 0;  // body lines, braces included
  bool is_template = false;
  bool via_macro = false;  // __global__ inside a #define body
  KernelLanguage language = KernelLanguage::Cuda;
  BranchContext context = BranchContext::Neutral;
  Scope scope = Scope::Product;
  AmdBuild amd;
  KernelFeatures features;

  bool is_port_work() const {  // see Finding::is_port_work
    return scope == Scope::Product && amd.state != AmdBuildState::Excluded;
  }
};

enum class LaunchKind : std::uint8_t { TripleChevron, RuntimeApi, DriverApi, Cooperative, Cluster };

struct LaunchSite {
  std::string kernel;  // callee name as written (may be qualified or templated)
  SharedString file;
  std::uint32_t line = 0;
  LaunchKind kind = LaunchKind::TripleChevron;
  Scope scope = Scope::Product;
  AmdBuild amd;
};

// A file that only instantiates templated kernels (flash-attention style): no __global__,
// but explicit instantiations or launches of templates defined elsewhere.
struct InstantiationFile {
  std::string file;
  std::uint32_t instantiations = 0;
};

enum class ArtifactKind : std::uint8_t { TensorRtEngine, Cubin, Ptx, Fatbin, EmbeddedCubin };

struct Artifact {
  std::string file;
  ArtifactKind kind = ArtifactKind::Cubin;
  std::uint64_t bytes = 0;
  std::uint32_t line = 0;  // for embedded arrays
};

struct Evidence {
  std::string file;
  std::uint32_t line = 0;
};

// Items per AMD-build state; excluded_with_alternative is a part of excluded.
struct AmdBuildTally {
  std::uint32_t compiled = 0;
  std::uint32_t excluded = 0;
  std::uint32_t excluded_with_alternative = 0;
  std::uint32_t unknown = 0;

  void add(const AmdBuild& amd) {
    switch (amd.state) {
      case AmdBuildState::Compiled:
        ++compiled;
        break;
      case AmdBuildState::Excluded:
        ++excluded;
        excluded_with_alternative += amd.alternative ? 1 : 0;
        break;
      case AmdBuildState::Unknown:
        ++unknown;
        break;
    }
  }
  std::uint32_t total() const { return compiled + excluded + unknown; }
};

// Counts over every finding of a scan. The scan takes them file by file as it collects the
// files (the findings are still in the cache then), so that a report does not pass over a
// large result's findings once per count.
struct FindingTotals {
  std::array<std::size_t, k_scope_count> by_scope{};
  AmdBuildTally amd;  // every finding
  // Product code only: findings the AMD build may compile (compiled or unknown), the highest
  // tier among them, and those it leaves out.
  std::size_t product_open = 0;
  std::optional<Tier> product_open_highest;
  std::size_t product_excluded = 0;
  std::size_t product_excluded_with_alternative = 0;

  void add(const Finding& finding);
  void add(const FindingTotals& other);
};

// One row of the portability table, aggregated from the product code's findings of rules naming
// this component (tests, examples, vendored and generated code are counted apart).
struct Component {
  std::string name;
  Tier layer = Tier::Framework;  // the highest tier among its findings
  std::string amd_status;
  std::string amd_equivalent;
  std::string cost;
  std::uint32_t findings = 0;  // in product code
  std::uint32_t findings_outside_product = 0;
  double effort_hours = 0;
  AmdBuildTally amd;               // the product findings by AMD-build state
  std::vector<Evidence> evidence;  // first few, sorted
};

// Signs that the repository already has an AMD path.
enum class AmdPathKind : std::uint8_t {
  HipGuard,          // #if __HIP_PLATFORM_AMD__ / USE_ROCM ...
  VendorShimHeader,  // a header that #defines cuda* names to hip* names
  HipCMake,          // enable_language(HIP), hip::host, roc::* targets
  RocmImage,         // FROM rocm/...
  RocmPackage,       // torch+rocm wheels, onnxruntime-migraphx, amdsmi
  AmdAsm,            // AMDGCN inline asm / __builtin_amdgcn_*
  HipInclude,        // #include <hip/...>, hip_runtime.h, a ROCm library header (first per file)
  ShimInclude,       // an #include of the project's own vendor shim header
};

// The kind as reports and fixtures name it: "hip_guard", "vendor_shim_header", ...
std::string_view amd_path_kind_name(AmdPathKind kind);

struct AmdPathSign {
  AmdPathKind kind = AmdPathKind::HipGuard;
  std::string file;
  std::uint32_t line = 0;
  std::string detail;
};

struct FileWarning {
  std::string file;
  std::uint32_t line = 0;  // 0 when not about a position
  std::uint32_t column = 0;
  std::string message;
};

// The #if line that leaves excluded items out of the AMD build, as the reports quote it.
struct GuardLine {
  std::string file;
  std::uint32_t line = 0;
  std::string text;  // the directive, trimmed ("#ifdef NEW_MMA_AVAILABLE")
};

// A source file the AMD build leaves out, with the build line that decides it.
struct ExcludedSource {
  std::string file;
  BuildLine where;
  bool alternative = false;  // the AMD build compiles other sources in its place
  // A header no build file lists, left out because every file that includes it (where the AMD
  // build would compile the #include) is left out: the first such includer. `where` is the
  // build line that leaves that includer out.
  std::string via;
};

// The existing AMD path as one fact: how the project builds for AMD today, if it does.
struct AmdBuildPath {
  bool exists = false;
  std::vector<BuildLine> setup;         // enable_language(HIP), a ROCm branch of setup.py
  std::vector<BuildLine> switches;      // the option or macro that selects it (GGML_USE_HIP)
  std::vector<Evidence> shims;          // vendor shim headers (#define cudaMalloc hipMalloc)
  std::vector<Evidence> hip_includes;   // files that include HIP or ROCm headers (first 8)
  std::vector<Evidence> shim_includes;  // #includes of those shim headers (first 8)
  std::uint32_t hip_include_files = 0;  // all of them
  std::uint32_t shim_include_sites = 0;
  std::vector<Evidence> ci;  // ROCm images and packages in CI and containers
  // Files of the product that define CUDA kernels, and those of them with a kernel the AMD
  // build compiles: how complete the AMD build looks.
  std::uint32_t kernel_files = 0;
  std::uint32_t kernel_files_compiled = 0;
  std::uint32_t kernel_files_excluded = 0;
};

struct LanguageStats {
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;
};

struct ScanResult {
  std::string root;
  std::map<Language, LanguageStats> languages;
  std::uint64_t files_scanned = 0;
  std::uint64_t bytes_scanned = 0;
  std::uint64_t ignored_entries = 0;
  // One segment per file (see SegmentedList).
  SegmentedList<Finding> findings;     // sorted by file, line, column, rule
  SegmentedList<Kernel> kernels;       // sorted by file, line
  SegmentedList<LaunchSite> launches;  // sorted by file, line
  std::vector<InstantiationFile> instantiation_files;
  std::vector<Artifact> artifacts;
  std::vector<Component> components;  // sorted by layer (highest first), then name
  std::vector<AmdPathSign> amd_path;
  AmdBuildPath amd_build;
  std::vector<GuardLine> guards;                 // sorted by file, line
  std::vector<ExcludedSource> excluded_sources;  // sorted by file
  std::vector<SkippedEntry> skipped;             // sorted by path
  std::vector<FileWarning> warnings;
  // Set by scan(); a result put together otherwise has none (finding_totals counts then).
  std::optional<FindingTotals> totals;
  double seconds = 0;
};

// result.totals, or the counts taken now when the result has none.
FindingTotals finding_totals(const ScanResult& result);

}  // namespace gpuport
