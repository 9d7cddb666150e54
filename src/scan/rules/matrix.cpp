// Matrix-core and low-precision rules: WMMA, TMA/cluster memory (GP-MMA-*), FP8/bf16/fp16
// (GP-TYPE-*).
#include <string>

#include "scan/rules/source_family.h"

namespace gpuport::source_rules {

namespace {

using namespace catalog_rows;

// Provenance: hazards, AMD behaviour and equivalents from the project's reference notes
// porting-hazards.md (section 4.2: rows M2-M6, citing the HIP porting guide, HIP C++ language
// extensions, the HIPIFY tables and ROCm/clr headers) and real-world-lessons.md (section 3: the
// traps these rules must not fire on); tiers from ARCHITECTURE.md. Effort weights are
// engineer-hours per occurrence (per file for the once-per-file rules); each docs/rules/<id>.md
// page states the basis of its number.
// clang-format off
constexpr RuleInfo k_rules[] = {
  {"GP-MMA-001", "MMA",  "WMMA",                   k_rw,   k_high, 16.00,
   "nvcuda::wmma matrix operations are used, and HIP does not support CUDA's warp matrix functions.",
   "Port to rocWMMA (same function names, different fragment shapes and wave64 layout) or Composable Kernel."},
  {"GP-MMA-002", "MMA",  "Hopper features",        k_rw,   k_high, 24.00,
   "Hopper tensor-memory features (TMA tensor maps, thread-block-cluster shared memory) are used, which have no HIP equivalent.",
   "Restructure the kernel for AMD (LDS tiling, CK-Tile pipelines); there is no mechanical mapping."},
  {"GP-TYPE-001","TYPE", "Low-precision types",    k_ret,  k_high,  8.00,
   "The file uses CUDA FP8/FP6/FP4 types (cuda_fp8.h, __nv_fp8_*), which hipify does not map and whose AMD encodings differ by GPU.",
   "Map to __hip_fp8_* types per target (FNUZ on MI300, OCP on gfx950), check the ranges, and re-validate accuracy."},
  {"GP-TYPE-002","TYPE", "Low-precision types",    k_mech, k_med,   1.00,
   "The file uses CUDA bf16 types (__nv_bfloat16, cuda_bf16.h), whose HIP counterpart is __hip_bfloat16, not the older hip_bfloat16.",
   "Map to __hip_bfloat16/__hip_bfloat162 from hip/hip_bf16.h and check the intrinsics used."},
  {"GP-TYPE-003","TYPE", "Low-precision types",    k_mech, k_low,   0.10,
   "cuda_fp16.h is included; HIP provides the same __half API in hip/hip_fp16.h.",
   "Swap the header (hipify does) and spot-check the half intrinsics used."},
};

constexpr ComponentInfo k_components[] = {
  {"Low-precision types",    "partial",      "__hip_fp8_* (FNUZ/OCP), __hip_bfloat16, __half",                     "days + accuracy validation"},
  {"WMMA",                   "partial",      "rocWMMA",                                                            "days to weeks per kernel"},
};
// clang-format on

// Per-file state, one per scan thread; reset by begin_matrix.
struct State {
  OncePerFile fp8;                // GP-TYPE-001
  OncePerFile bf16;               // GP-TYPE-002
  bool nvcuda_namespace = false;  // `nvcuda` seen: unqualified mma_sync is WMMA

  void clear() {
    fp8 = {};
    bf16 = {};
    nvcuda_namespace = false;
  }
};

thread_local State t_state;

void note_wmma(SourceContext& ctx) {
  if (KernelFeatures* features = ctx.current_features()) {
    features->wmma = true;
  }
}

// `nvcuda` names the WMMA namespace; `using namespace nvcuda[::wmma]` and a namespace alias
// (`namespace wmma = nvcuda::wmma;`) are WMMA use in their own right.
void on_nvcuda(SourceContext& ctx, std::size_t i, std::string_view) {
  t_state.nvcuda_namespace = true;
  if (ctx.is_punct(next_code(ctx, i), "::")) {
    note_wmma(ctx);
  }
  const std::size_t before = prev_code(ctx, i);
  const bool using_directive =
      ctx.is_ident(before, "namespace") && ctx.is_ident(prev_code(ctx, before), "using");
  if (using_directive || ctx.is_punct(before, "=")) {
    ctx.add("GP-MMA-001", i, using_directive ? "using namespace nvcuda" : "namespace alias nvcuda");
  }
}

void on_wmma_namespace(SourceContext& ctx, std::size_t i, std::string_view) {
  if (ctx.is_punct(next_code(ctx, i), "::")) {
    note_wmma(ctx);
  }
}

// True when a WMMA function name is qualified by `wmma::`, or unqualified after `nvcuda` was
// named in the file (using namespace nvcuda::wmma).
bool is_wmma_function(const SourceContext& ctx, std::size_t i) {
  std::size_t before = prev_code(ctx, i);
  if (ctx.is_punct(before, "::")) {
    return ctx.is_ident(prev_code(ctx, before), "wmma");
  }
  if (ctx.is_punct(before, ".") || ctx.is_punct(before, "->")) {
    return false;
  }
  return t_state.nvcuda_namespace;
}

// Every WMMA call is a finding of the family: fill_fragment, load/store_matrix_sync as well as
// the multiply-accumulate, since each changes shape or layout under rocWMMA.
void on_wmma_call(SourceContext& ctx, std::size_t i, std::string_view) {
  if (is_wmma_function(ctx, i) && is_call(ctx, i)) {
    note_wmma(ctx);
    ctx.add("GP-MMA-001", i, "wmma::" + std::string(ctx.text(i)));
  }
}

// A fragment type (`wmma::fragment<matrix_a, 16, 16, 16, half, row_major>`) in a declaration,
// parameter or template argument.
void on_wmma_fragment(SourceContext& ctx, std::size_t i, std::string_view) {
  if (is_wmma_function(ctx, i) && ctx.is_punct(next_code(ctx, i), "<")) {
    note_wmma(ctx);
    ctx.add("GP-MMA-001", i, "wmma::fragment");
  }
}

void on_bf16_type(SourceContext& ctx, std::size_t i, std::string_view) {
  note_once(ctx, t_state.bf16, i);
}

void begin_matrix(SourceContext&) {
  t_state.clear();
}

void finish_matrix(SourceContext& ctx) {
  const State& state = t_state;
  if (state.fp8.count > 0) {
    ctx.add("GP-TYPE-001", state.fp8.first, std::to_string(state.fp8.count) + " FP8/FP6/FP4 uses");
  }
  if (state.bf16.count > 0) {
    ctx.add("GP-TYPE-002", state.bf16.first, std::to_string(state.bf16.count) + " bf16 uses");
  }
}

void register_matrix(HandlerTable& table) {
  table.add("nvcuda", on_nvcuda);
  table.add("wmma", on_wmma_namespace);
  for (std::string_view name :
       {"mma_sync", "bmma_sync", "load_matrix_sync", "store_matrix_sync", "fill_fragment"}) {
    table.add(name, on_wmma_call);
  }
  table.add("fragment", on_wmma_fragment);
  table.add("nv_bfloat16", on_bf16_type);
  table.add("nv_bfloat162", on_bf16_type);
  for (std::string_view name :
       {"cuTensorMapEncodeTiled", "cuTensorMapEncodeIm2col", "cuTensorMapEncodeIm2colWide",
        "cuTensorMapReplaceAddress", "this_cluster"}) {
    table.add(name, on_call, "GP-MMA-002");
  }
  table.add("CUtensorMap", on_name, "GP-MMA-002");
  table.add("cluster_group", on_name, "GP-MMA-002");
  table.add("map_shared_rank", on_name, "GP-MMA-002");
}

constexpr SourceFamily k_family = {
    .name = "MMA/TYPE",
    .rules = k_rules,
    .components = k_components,
    .register_handlers = register_matrix,
    .begin = begin_matrix,
    .finish = finish_matrix,
};

}  // namespace

bool matrix_prefix(SourceContext& ctx, std::size_t i, std::string_view name) {
  if (!name.starts_with("__nv_")) {
    return false;
  }
  std::string_view rest = name.substr(5);
  if (rest.starts_with("fp8") || rest.starts_with("fp6") || rest.starts_with("fp4") ||
      (rest.starts_with("cvt_") &&
       (rest.find("fp8") != std::string_view::npos || rest.find("fp6") != std::string_view::npos ||
        rest.find("fp4") != std::string_view::npos))) {
    note_once(ctx, t_state.fp8, i);
    return true;
  }
  if (rest.starts_with("bfloat16")) {
    note_once(ctx, t_state.bf16, i);
    return true;
  }
  return false;
}

void on_type_header(SourceContext& ctx, std::size_t i, std::string_view header) {
  if (header == "cuda_fp8.h" || header == "cuda_fp8.hpp" || header == "cuda_fp6.h" ||
      header == "cuda_fp4.h") {
    note_once(ctx, t_state.fp8, i);
  } else if (header == "cuda_bf16.h" || header == "cuda_bf16.hpp") {
    note_once(ctx, t_state.bf16, i);
  } else if (header == "cuda_fp16.h" || header == "cuda_fp16.hpp") {
    ctx.add("GP-TYPE-003", i, std::string(header));
  } else if ((header == "mma.h" && ctx.text(i).starts_with("<")) || header == "crt/mma.h" ||
             header == "crt/mma.hpp") {
    // The toolkit's WMMA header (a project's own "mma.h" is not it).
    ctx.add("GP-MMA-001", i, "#include <" + std::string(header) + ">");
  }
}

const SourceFamily& matrix_family() {
  return k_family;
}

}  // namespace gpuport::source_rules
