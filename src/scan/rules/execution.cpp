// Execution-model rules (GP-EXEC-*): launches, arch guards, graphs, driver API, NVRTC, runtime.
#include <cctype>
#include <string>

#include "lex/pp_worlds.h"
#include "scan/inventory.h"
#include "scan/rules/source_rules.h"

namespace gpuport::source_rules {

namespace {

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
  std::size_t name = next_code(ctx, i);
  if (ctx.kind(name) != TokenKind::Identifier) {
    return;
  }
  std::string_view from = ctx.text(name);
  if (!(from.starts_with("cu") || from.starts_with("CU") || from.starts_with("__shfl") ||
        from.starts_with("nccl") || from.starts_with("__nv"))) {
    return;
  }
  std::size_t to = next_code(ctx, name);
  if (ctx.is_punct(to, "(") && ctx.tok[to].offset == ctx.tok[name].offset + ctx.tok[name].length) {
    std::size_t close = match_forward(ctx, to, 64);
    if (close == SIZE_MAX) {
      return;
    }
    to = next_code(ctx, close);
  }
  std::string_view target = ctx.text(to);
  if (ctx.kind(to) == TokenKind::Identifier &&
      (target.starts_with("hip") || target.starts_with("HIP") || target.starts_with("roc") ||
       target.starts_with("rccl") || target.starts_with("__hip") ||
       (from.starts_with("__shfl") && target.starts_with("__shfl")))) {
    if (ctx.shim_defines++ == 0) {
      ctx.first_shim_define = name;
    }
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
    ctx.hip_guard_directive = true;
    std::string condition(make_excerpt(ctx.ts.line_text(ctx.tok[i].line)));
    ctx.add_sign(AmdPathKind::HipGuard, i, condition);
    return;
  }
  if (!arch_compare && cuda_only != SIZE_MAX) {
    ctx.add("GP-EXEC-004", cuda_only, std::string(ctx.text(cuda_only)));
  }
}

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

void on_directive(SourceContext& ctx, std::size_t i) {
  std::string_view name = directive_name(ctx.text(i));
  if (name == "include" || name == "include_next" || name == "import") {
    std::size_t header = next_code(ctx, i);
    if (ctx.kind(header) == TokenKind::HeaderName || ctx.kind(header) == TokenKind::String) {
      std::string_view text = ctx.text(header);
      if (text.size() >= 2) {
        on_include(ctx, header, text.substr(1, text.size() - 2));
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

void finish_execution(SourceContext& ctx) {
  if (ctx.shim_defines >= 3) {
    ctx.add_sign(AmdPathKind::VendorShimHeader, ctx.first_shim_define,
                 std::to_string(ctx.shim_defines) + " #defines of CUDA names to HIP names");
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

}  // namespace gpuport::source_rules
