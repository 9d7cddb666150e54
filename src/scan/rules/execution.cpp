// Execution-model rules (GP-EXEC-*): launches, arch guards, graphs, driver API, NVRTC, runtime.
#include <cctype>
#include <string>

#include "lex/pp_worlds.h"
#include "scan/inventory.h"
#include "scan/rules/shim_define.h"
#include "scan/rules/source_family.h"

namespace gpuport::source_rules {

namespace {

using namespace catalog_rows;

// Provenance: hazards, AMD behaviour and equivalents from the project's reference notes
// porting-hazards.md (section 4.4: rows E1-E13, and 4.2: M3, citing the HIP porting guide, HIP C++
// language extensions, the HIPIFY tables and ROCm/clr headers) and real-world-lessons.md (section
// 3: the traps these rules must not fire on); tiers from ARCHITECTURE.md. Effort weights are
// engineer-hours per occurrence (per file for the once-per-file rules); each docs/rules/<id>.md
// page states the basis of its number.
// clang-format off
constexpr RuleInfo k_rules[] = {
  {"GP-EXEC-001","EXEC", "Execution model",        k_rw,   k_high, 24.00,
   "A kernel is launched, or cudaDeviceSynchronize called, from device code; HIP has no dynamic parallelism.",
   "Flatten to host-side launches, or use a persistent kernel with a work queue."},
  {"GP-EXEC-002","EXEC", "Execution model",        k_ret,  k_med,   1.00,
   "__launch_bounds__ has a second argument, which HIP reads as minimum warps per execution unit rather than minimum blocks per SM.",
   "Recompute it: MIN_WARPS = MIN_BLOCKS * MAX_THREADS / (warpSize * 2) in CU mode (warpSize * 4 in WGP mode)."},
  {"GP-EXEC-003","EXEC", "Arch guards",            k_ret,  k_high,  2.00,
   "Code is selected by a __CUDA_ARCH__ version or an arch-specific CUDA macro, which HIP-Clang never defines, so AMD builds take the fallback path.",
   "Add explicit AMD branches (__gfx942__, __HIP_ARCH_HAS_*__, __HIP_DEVICE_COMPILE__) and check which path each target compiles."},
  {"GP-EXEC-004","EXEC", "Arch guards",            k_mech, k_med,   0.50,
   "A preprocessor guard tests only __CUDACC__, __NVCC__ or __CUDA_ARCH__, which HIP-Clang does not define.",
   "Add || defined(__HIPCC__) (or __HIP_DEVICE_COMPILE__ for the device pass), or test USE_ROCM."},
  {"GP-EXEC-005","EXEC", "Hopper features",        k_rw,   k_high, 16.00,
   "An extended or thread-block-cluster launch (cudaLaunchKernelEx, __cluster_dims__, launch_kernel_on_cluster) has no HIP mapping.",
   "Launch with hipLaunchKernelGGL or hipModuleLaunchKernel and redesign the cooperation between clustered blocks."},
  {"GP-EXEC-006","EXEC", "Execution model",        k_mech, k_low,   1.00,
   "A cooperative launch or grid-wide sync is used; HIP supports it, but the whole grid must be co-resident on the AMD GPU.",
   "Map it to hipLaunchCooperativeKernel and size the grid with hipOccupancyMaxActiveBlocksPerMultiprocessor."},
  {"GP-EXEC-007","EXEC", "Execution model",        k_ret,  k_med,   4.00,
   "A CUDA graph API without a HIP mapping is used (conditional nodes, _v2 edge APIs, capture into a graph).",
   "Rebuild that control flow on the host or with the hipGraph* calls HIP has; check each API in the HIPIFY tables."},
  {"GP-EXEC-008","EXEC", "CUDA driver API",        k_rw,   k_high, 16.00,
   "PTX or a cubin is loaded or linked at run time (cuModuleLoad*, cuLink*), which AMD GPUs cannot execute.",
   "Ship per-architecture code objects (.hsaco) or compile at run time with hipRTC, and load them with hipModuleLoadData."},
  {"GP-EXEC-009","EXEC", "CUDA driver API",        k_mech, k_low,   0.25,
   "A CUDA driver API call maps to HIP's hipDrv*/hipModule* API, where contexts are deprecated.",
   "Run hipify (cuX -> hipX) and replace context management with device selection."},
  {"GP-EXEC-010","EXEC", "NVRTC",                  k_mech, k_med,   2.00,
   "NVRTC run-time compilation is used; hipRTC is the counterpart, but options, architecture names and some APIs differ.",
   "Port to hipRTC: --offload-arch=gfxXXX instead of compute_XX, and load the code object with hipModuleLoadData."},
  {"GP-EXEC-011","EXEC", "CUDA runtime API",       k_mech, k_low,   0.05,
   "A CUDA runtime API call that hipify translates one-for-one to HIP.",
   "Run hipify (cudaX -> hipX) and keep the error checks."},
  {"GP-EXEC-012","EXEC", "Execution model",        k_mech, k_low,   1.00,
   "Device code uses C++ that HIP rejects there: exceptions, RTTI, or reference, long double or va_list kernel parameters.",
   "Pass kernel arguments by value or pointer and remove exceptions and RTTI from device code."},
};

constexpr ComponentInfo k_components[] = {
  {"Arch guards",            "needs rework", "__HIP_DEVICE_COMPILE__, __gfx*__ and __HIP_ARCH_HAS_*__ macros",     "hours per guard"},
  {"CUDA driver API",        "partial",      "hipDrv*/hipModule* API; code objects instead of PTX",                "days"},
  {"CUDA runtime API",       "supported",    "HIP runtime (hipify)",                                               "minutes per call"},
  {"Custom CUDA kernels",    "supported",    "hipify + hipcc for gfx targets",                                     "days"},
  {"Execution model",        "partial",      "HIP launches; no dynamic parallelism",                               "days to weeks"},
  {"Hopper features",        "none",         "CK-Tile pipelines; LDS tiling",                                      "weeks per kernel"},
  {"NVRTC",                  "supported",    "hipRTC",                                                             "days"},
};
// clang-format on

// Per-file state, one per scan thread; reset by begin_execution.
struct State {
  std::uint32_t shim_defines = 0;  // `#define cudaXxx hipXxx` remaps
  std::size_t first_shim_define = SIZE_MAX;
  bool hip_guard_directive = false;  // an #if names a HIP macro (an AMD-path sign already)
  bool hip_include = false;          // an AMD-path sign for a HIP/ROCm header recorded

  void clear() {
    shim_defines = 0;
    first_shim_define = SIZE_MAX;
    hip_guard_directive = false;
    hip_include = false;
  }
};

thread_local State t_state;

bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}

bool is_comparison(const SourceContext& ctx, std::size_t j) {
  if (ctx.kind(j) != TokenKind::Punct) {
    return false;
  }
  std::string_view p = ctx.text(j);
  return p == "<" || p == "<=" || p == ">" || p == ">=" || p == "==" || p == "!=";
}

void record_launch(SourceContext& ctx, std::size_t i, LaunchKind kind, std::size_t arg_index) {
  auto args = call_arguments(ctx, next_code(ctx, i));
  std::string callee;
  if (arg_index < args.size()) {
    callee = argument_callee(ctx.ts, args[arg_index].first, args[arg_index].second);
  }
  LaunchSite& site = ctx.out.launches.emplace_back();
  site.kernel = std::move(callee);
  site.file = ctx.path;
  site.line = ctx.tok[i].line;
  site.kind = kind;
}

// A launch API: records the launch site and fires the entry's rule.
void on_launch_api(SourceContext& ctx, std::size_t i, std::string_view rule) {
  if (!is_call(ctx, i)) {
    return;
  }
  std::string_view name = ctx.text(i);
  LaunchKind kind = LaunchKind::RuntimeApi;
  std::size_t arg = 0;
  if (name == "cuLaunchKernel") {
    kind = LaunchKind::DriverApi;
  } else if (name.find("Cooperative") != std::string_view::npos) {
    kind = LaunchKind::Cooperative;
  } else if (name == "launch_kernel_on_cluster") {
    kind = LaunchKind::Cluster;
    arg = 1;
  } else if (name.starts_with("cuLaunchKernelEx")) {
    kind = LaunchKind::DriverApi;
    arg = 1;
  } else if (name.starts_with("cudaLaunchKernelEx")) {
    arg = 1;
  }
  record_launch(ctx, i, kind, arg);
  ctx.add(rule, i, std::string(name));
}

void on_launch_bounds(SourceContext& ctx, std::size_t i, std::string_view) {
  std::size_t open = next_code(ctx, i);
  if (!ctx.is_punct(open, "(")) {
    return;
  }
  auto args = call_arguments(ctx, open);
  if (args.size() >= 2) {
    ctx.add("GP-EXEC-002", i, std::to_string(args.size()) + " arguments");
  }
}

void on_cuda_arch(SourceContext& ctx, std::size_t i, std::string_view) {
  std::string_view name = ctx.text(i);
  if (name != "__CUDA_ARCH__" || is_comparison(ctx, next_code(ctx, i)) ||
      is_comparison(ctx, prev_code(ctx, i))) {
    ctx.add_once_per_line(k_slot_cuda_arch, "GP-EXEC-003", i, std::string(name));
  }
}

void on_device_sync(SourceContext& ctx, std::size_t i, std::string_view) {
  if (!is_call(ctx, i)) {
    return;
  }
  if (ctx.in_device(i)) {
    ctx.add("GP-EXEC-001", i, "cudaDeviceSynchronize in device code");
  } else {
    ctx.add("GP-EXEC-011", i, "cudaDeviceSynchronize");
  }
}

void on_device_cxx(SourceContext& ctx, std::size_t i, std::string_view) {
  if (ctx.in_device(i)) {
    ctx.add("GP-EXEC-012", i, std::string(ctx.text(i)) + " in device code");
  }
}

void on_this_grid(SourceContext& ctx, std::size_t i, std::string_view) {
  if (KernelFeatures* features = ctx.current_features()) {
    features->cooperative_groups = true;
  }
  if (is_call(ctx, i)) {
    ctx.add("GP-EXEC-006", i, "this_grid");
  }
}

void on_cooperative_namespace(SourceContext& ctx, std::size_t i, std::string_view) {
  if (ctx.text(i) == "cg" && !ctx.is_punct(next_code(ctx, i), "::")) {
    return;
  }
  if (KernelFeatures* features = ctx.current_features()) {
    features->cooperative_groups = true;
  }
}

std::string_view directive_name(std::string_view start) {
  while (!start.empty() &&
         (start.front() == '#' || start.front() == ' ' || start.front() == '\t')) {
    start.remove_prefix(1);
  }
  return start;
}

// `#define cudaMalloc hipMalloc`: a vendor shim (counted per file, an AMD-path sign).
void check_shim_define(SourceContext& ctx, std::size_t i) {
  if (!is_shim_define(ctx.ts, i)) {
    return;
  }
  State& state = t_state;
  if (state.shim_defines++ == 0) {
    state.first_shim_define = next_code(ctx, i);
  }
}

// #if/#ifdef/#elif: HIP guards (AMD-path signs) and CUDA-only guards (GP-EXEC-004).
void check_condition(SourceContext& ctx, std::size_t i) {
  bool hip = false;
  bool arch_compare = false;
  std::size_t cuda_only = SIZE_MAX;
  for (std::size_t j = i + 1; j < ctx.size() && ctx.kind(j) != TokenKind::DirectiveEnd; ++j) {
    if (ctx.kind(j) != TokenKind::Identifier) {
      continue;
    }
    std::string_view name = ctx.text(j);
    const PlatformMacro kind = classify_platform_macro(name);
    if (is_hip_macro(kind)) {
      hip = true;
      continue;
    }
    switch (kind) {
      case PlatformMacro::CudaArch:
        if (is_comparison(ctx, next_code(ctx, j)) || is_comparison(ctx, prev_code(ctx, j))) {
          arch_compare = true;
        } else if (cuda_only == SIZE_MAX) {
          cuda_only = j;
        }
        break;
      case PlatformMacro::CudaCompiler:
        if (cuda_only == SIZE_MAX) {
          cuda_only = j;
        }
        break;
      default:
        break;
    }
  }
  if (hip) {
    t_state.hip_guard_directive = true;
    std::string condition(make_excerpt(ctx.ts.line_text(ctx.tok[i].line)));
    ctx.add_sign(AmdPathKind::HipGuard, i, condition);
    return;
  }
  if (!arch_compare && cuda_only != SIZE_MAX) {
    ctx.add("GP-EXEC-004", cuda_only, std::string(ctx.text(cuda_only)));
  }
}

void begin_execution(SourceContext&) {
  t_state.clear();
}

void finish_execution(SourceContext& ctx) {
  const State& state = t_state;
  if (state.shim_defines >= k_shim_header_defines) {
    ctx.add_sign(AmdPathKind::VendorShimHeader, state.first_shim_define,
                 std::to_string(state.shim_defines) + " #defines of CUDA names to HIP names");
  }
  // A HIP-only branch the lexer found although no #if of the file was a HIP guard: one sign.
  if (!state.hip_guard_directive && ctx.ts.first_hip_token != TokenStream::k_no_token) {
    ctx.add_sign(AmdPathKind::HipGuard, ctx.ts.first_hip_token, "code in a HIP-only branch");
  }
}

void register_execution(HandlerTable& table) {
  table.add("__launch_bounds__", on_launch_bounds);
  for (std::string_view name :
       {"__CUDA_ARCH__", "__CUDA_ARCH_LIST__", "__CUDA_ARCH_FEAT_SM90_ALL",
        "__CUDA_ARCH_FEAT_SM100_ALL", "__CUDA_ARCH_SPECIFIC__", "__CUDA_ARCH_FAMILY_SPECIFIC__"}) {
    table.add(name, on_cuda_arch);
  }
  table.add("cudaDeviceSynchronize", on_device_sync);
  for (std::string_view name : {"dynamic_cast", "typeid", "try", "throw"}) {
    table.add(name, on_device_cxx);
  }
  table.add("cudaLaunchKernel", on_launch_api, "GP-EXEC-011");
  table.add("cuLaunchKernel", on_launch_api, "GP-EXEC-009");
  for (std::string_view name : {"cudaLaunchKernelEx", "cudaLaunchKernelExC", "cuLaunchKernelEx",
                                "launch_kernel_on_cluster"}) {
    table.add(name, on_launch_api, "GP-EXEC-005");
  }
  table.add("__cluster_dims__", on_name, "GP-EXEC-005");
  table.add("cudaLaunchAttributeClusterDimension", on_name, "GP-EXEC-005");
  for (std::string_view name :
       {"cudaLaunchCooperativeKernel", "cudaLaunchCooperativeKernelMultiDevice",
        "cuLaunchCooperativeKernel", "cuLaunchCooperativeKernelMultiDevice"}) {
    table.add(name, on_launch_api, "GP-EXEC-006");
  }
  table.add("this_grid", on_this_grid);
  table.add("cooperative_groups", on_cooperative_namespace);
  table.add("cg", on_cooperative_namespace);
  for (std::string_view name :
       {"cuModuleLoad", "cuModuleLoadData", "cuModuleLoadDataEx", "cuModuleLoadFatBinary",
        "cuLinkCreate", "cuLinkAddData", "cuLinkAddFile", "cuLinkComplete", "cuLibraryLoadData",
        "cuLibraryLoadFromFile", "cudaLibraryLoadData", "cudaLibraryLoadFromFile"}) {
    table.add(name, on_call, "GP-EXEC-008");
  }
}

constexpr SourceFamily k_family = {
    .name = "EXEC",
    .rules = k_rules,
    .components = k_components,
    .register_handlers = register_execution,
    .begin = begin_execution,
    .finish = finish_execution,
};

}  // namespace

void on_launch_open(SourceContext& ctx, std::size_t i) {
  LaunchSite& site = ctx.out.launches.emplace_back();
  site.kernel = chevron_callee(ctx.ts, i);
  site.file = ctx.path;
  site.line = ctx.tok[i].line;
  site.kind = LaunchKind::TripleChevron;
  if (ctx.in_device(i)) {
    if (KernelFeatures* features = ctx.current_features()) {
      features->dynamic_parallelism = true;
    }
    ctx.add("GP-EXEC-001", i, "kernel launch from device code");
  }
}

// HIP's own headers and the ROCm libraries': a file written (in part) for AMD.
bool is_hip_header(std::string_view header) {
  for (std::string_view prefix : {"hip/", "hipblas", "hipblaslt/", "hipcub/", "hiprand/", "hipfft/",
                                  "hipsparse/", "hipsolver/", "rocblas/", "rocprim/", "rocwmma/",
                                  "rocrand/", "miopen/", "rccl/", "ck/", "ck_tile/"}) {
    if (header.starts_with(prefix)) {
      return true;
    }
  }
  return header == "hip_runtime.h" || header == "hip_runtime_api.h" || header == "rocblas.h" ||
         header == "rccl.h" || header == "hipblas.h";
}

void on_directive(SourceContext& ctx, std::size_t i) {
  std::string_view name = directive_name(ctx.text(i));
  if (name == "include" || name == "include_next" || name == "import") {
    std::size_t header = next_code(ctx, i);
    if (ctx.kind(header) == TokenKind::HeaderName || ctx.kind(header) == TokenKind::String) {
      std::string_view text = ctx.text(header);
      if (text.size() >= 2) {
        const std::string_view name = text.substr(1, text.size() - 2);
        on_include(ctx, header, name);
        if (!t_state.hip_include && is_hip_header(name)) {
          t_state.hip_include = true;
          ctx.add_sign(AmdPathKind::HipInclude, header, "#include <" + std::string(name) + ">");
        }
      }
    }
  } else if (name == "define") {
    check_shim_define(ctx, i);
  } else if (name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" ||
             name == "elifdef" || name == "elifndef") {
    check_condition(ctx, i);
  }
}

bool execution_prefix(SourceContext& ctx, std::size_t i, std::string_view name) {
  if (name.starts_with("cuda") && name.size() > 4 && is_upper(name[4])) {
    bool graph = name.starts_with("cudaGraph") || name.starts_with("cudaStream");
    if (graph && name.find("Conditional") != std::string_view::npos) {
      ctx.add("GP-EXEC-007", i, std::string(name));
    } else if (is_call(ctx, i)) {
      bool unmapped_graph = graph && (name.ends_with("_v2") || name.ends_with("_v3") ||
                                      name == "cudaStreamBeginCaptureToGraph");
      ctx.add(unmapped_graph ? "GP-EXEC-007" : "GP-EXEC-011", i, std::string(name));
    }
    return true;
  }
  if (name.starts_with("cu") && is_upper(name[2])) {
    if (name.starts_with("cuC") && !name.starts_with("cuCtx") && !name.starts_with("cuCoredump")) {
      return true;  // cuComplex helpers (cuCadd, cuCrealf): header math, not the driver
    }
    if (is_call(ctx, i)) {
      ctx.add("GP-EXEC-009", i, std::string(name));
    }
    return true;
  }
  if (name.starts_with("nvrtc") && name.size() > 5 && is_upper(name[5])) {
    if (is_call(ctx, i)) {
      ctx.add("GP-EXEC-010", i, std::string(name));
    }
    return true;
  }
  return false;
}

const SourceFamily& execution_family() {
  return k_family;
}

}  // namespace gpuport::source_rules
