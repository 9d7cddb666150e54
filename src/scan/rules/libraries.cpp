// Host-library rules (GP-LIB-*): cuBLAS(Lt), cuDNN, NCCL, math libraries, CUB/Thrust, TensorRT,
// CUTLASS/CuTe, NVML, AmgX; and the #include dispatch for every source family.
#include <string>

#include "scan/rules/source_rules.h"

namespace gpuport::source_rules {

namespace {

bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}

// `prefix` followed by an upper-case letter: cublasSgemm, ncclAllReduce.
bool has_api_prefix(std::string_view name, std::string_view prefix) {
  return name.size() > prefix.size() && name.starts_with(prefix) && is_upper(name[prefix.size()]);
}

void call_finding(SourceContext& ctx, std::size_t i, std::string_view rule) {
  if (is_call(ctx, i)) {
    ctx.add(rule, i, std::string(ctx.text(i)));
  }
}

// `ns::` uses counted for a once-per-file rule.
void on_namespace(SourceContext& ctx, std::size_t i, std::string_view) {
  if (!ctx.is_punct(next_code(ctx, i), "::")) {
    return;
  }
  std::string_view name = ctx.text(i);
  if (name == "cub" || name == "thrust") {
    note_once(ctx, ctx.cub_thrust, i);
  } else if (name == "cutlass" || name == "cute") {
    note_once(ctx, ctx.cutlass, i);
  } else if (name == "nvinfer1") {
    note_once(ctx, ctx.nvinfer, i);
  } else if (name == "cudnn_frontend") {
    ctx.add_once_per_line(k_slot_library, "GP-LIB-003", i, "cudnn_frontend::");
  }
}

bool is_tensorrt_header(std::string_view header) {
  std::size_t slash = header.rfind('/');
  std::string_view file = slash == std::string_view::npos ? header : header.substr(slash + 1);
  return file.starts_with("NvInfer") || file == "NvOnnxParser.h" || file == "NvUffParser.h" ||
         file == "NvCaffeParser.h" || file == "NvOnnxConfig.h";
}

}  // namespace

bool library_prefix(SourceContext& ctx, std::size_t i, std::string_view name) {
  if (name[0] == 'c') {
    if (has_api_prefix(name, "cublasLt")) {
      call_finding(ctx, i, "GP-LIB-002");
    } else if (has_api_prefix(name, "cublas")) {
      call_finding(ctx, i, "GP-LIB-001");
    } else if (has_api_prefix(name, "cudnn")) {
      call_finding(ctx, i, "GP-LIB-003");
    } else if (has_api_prefix(name, "cufft") || has_api_prefix(name, "cusparse") ||
               has_api_prefix(name, "cusolver") || has_api_prefix(name, "curand") ||
               name.starts_with("curand_") || name == "curand") {
      call_finding(ctx, i, "GP-LIB-005");
    } else {
      return false;
    }
    return true;
  }
  if (has_api_prefix(name, "nccl")) {
    call_finding(ctx, i, "GP-LIB-004");
    return true;
  }
  if (has_api_prefix(name, "nvml")) {
    call_finding(ctx, i, "GP-LIB-010");
    return true;
  }
  if (name.starts_with("AMGX_") && name.size() > 5 && name[5] >= 'a' && name[5] <= 'z') {
    call_finding(ctx, i, "GP-LIB-011");  // AMGX_solver_setup (functions are lower-case)
    return true;
  }
  return false;
}

void on_include(SourceContext& ctx, std::size_t i, std::string_view header) {
  if (header.starts_with("cutlass/") || header.starts_with("cute/")) {
    note_once(ctx, ctx.cutlass, i);
  } else if (header.starts_with("cub/") || header.starts_with("thrust/")) {
    note_once(ctx, ctx.cub_thrust, i);
  } else if (is_tensorrt_header(header)) {
    note_once(ctx, ctx.tensorrt_include, i);
  } else {
    on_type_header(ctx, i, header);
  }
}

void finish_libraries(SourceContext& ctx) {
  if (ctx.cub_thrust.count > 0) {
    ctx.add("GP-LIB-006", ctx.cub_thrust.first,
            std::to_string(ctx.cub_thrust.count) + " CUB/Thrust includes and uses");
  }
  if (ctx.cutlass.count > 0) {
    ctx.add("GP-LIB-009", ctx.cutlass.first,
            std::to_string(ctx.cutlass.count) + " CUTLASS/CuTe includes and uses");
  }
  if (ctx.tensorrt_include.count > 0) {
    ctx.add("GP-LIB-007", ctx.tensorrt_include.first,
            std::to_string(ctx.tensorrt_include.count) + " TensorRT includes, " +
                std::to_string(ctx.nvinfer.count) + " nvinfer1:: uses");
  } else if (ctx.nvinfer.count > 0) {
    ctx.add("GP-LIB-008", ctx.nvinfer.first,
            std::to_string(ctx.nvinfer.count) + " nvinfer1:: uses without a TensorRT include");
  }
}

void register_libraries(HandlerTable& table) {
  for (std::string_view name : {"cub", "thrust", "cutlass", "cute", "nvinfer1", "cudnn_frontend"}) {
    table.add(name, on_namespace);
  }
}

}  // namespace gpuport::source_rules
