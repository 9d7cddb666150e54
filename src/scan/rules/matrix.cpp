// Matrix-core and low-precision rules: WMMA, TMA/cluster memory (GP-MMA-*), FP8/bf16/fp16
// (GP-TYPE-*).
#include <string>

#include "scan/rules/source_rules.h"

namespace gpuport::source_rules {

namespace {

void note_wmma(SourceContext& ctx) {
  if (KernelFeatures* features = ctx.current_features()) {
    features->wmma = true;
  }
}

void on_nvcuda(SourceContext& ctx, std::size_t i, std::string_view) {
  ctx.nvcuda_namespace = true;
  if (ctx.is_punct(next_code(ctx, i), "::")) {
    note_wmma(ctx);
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
  return ctx.nvcuda_namespace;
}

void on_wmma_compute(SourceContext& ctx, std::size_t i, std::string_view) {
  if (is_wmma_function(ctx, i) && is_call(ctx, i)) {
    note_wmma(ctx);
    ctx.add("GP-MMA-001", i, "wmma::" + std::string(ctx.text(i)));
  }
}

void on_wmma_memory(SourceContext& ctx, std::size_t i, std::string_view) {
  if (is_wmma_function(ctx, i)) {
    note_wmma(ctx);
  }
}

void on_bf16_type(SourceContext& ctx, std::size_t i, std::string_view) {
  note_once(ctx, ctx.bf16, i);
}

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
    note_once(ctx, ctx.fp8, i);
    return true;
  }
  if (rest.starts_with("bfloat16")) {
    note_once(ctx, ctx.bf16, i);
    return true;
  }
  return false;
}

void on_type_header(SourceContext& ctx, std::size_t i, std::string_view header) {
  if (header == "cuda_fp8.h" || header == "cuda_fp8.hpp" || header == "cuda_fp6.h" ||
      header == "cuda_fp4.h") {
    note_once(ctx, ctx.fp8, i);
  } else if (header == "cuda_bf16.h" || header == "cuda_bf16.hpp") {
    note_once(ctx, ctx.bf16, i);
  } else if (header == "cuda_fp16.h" || header == "cuda_fp16.hpp") {
    ctx.add("GP-TYPE-003", i, std::string(header));
  }
}

void finish_matrix(SourceContext& ctx) {
  if (ctx.fp8.count > 0) {
    ctx.add("GP-TYPE-001", ctx.fp8.first, std::to_string(ctx.fp8.count) + " FP8/FP6/FP4 uses");
  }
  if (ctx.bf16.count > 0) {
    ctx.add("GP-TYPE-002", ctx.bf16.first, std::to_string(ctx.bf16.count) + " bf16 uses");
  }
}

void register_matrix(HandlerTable& table) {
  table.add("nvcuda", on_nvcuda);
  table.add("wmma", on_wmma_namespace);
  table.add("mma_sync", on_wmma_compute);
  table.add("bmma_sync", on_wmma_compute);
  for (std::string_view name :
       {"load_matrix_sync", "store_matrix_sync", "fill_fragment", "fragment"}) {
    table.add(name, on_wmma_memory);
  }
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

}  // namespace gpuport::source_rules
