// Host-library rules (GP-LIB-*): cuBLAS(Lt), cuDNN, NCCL, math libraries, CUB/Thrust, TensorRT,
// CUTLASS/CuTe, NVML, AmgX; and the #include dispatch for every source family.
#include <string>

#include "scan/rules/source_family.h"

namespace gpuport::source_rules {

namespace {

using namespace catalog_rows;

// Provenance: hazards, AMD behaviour and equivalents from the project's reference notes
// porting-hazards.md (section 4.6: rows L1-L11, citing the HIP porting guide, HIP C++ language
// extensions, the HIPIFY tables and ROCm/clr headers) and real-world-lessons.md (section 3: the
// traps these rules must not fire on); tiers from ARCHITECTURE.md. Effort weights are
// engineer-hours per occurrence (per file for the once-per-file rules); each docs/rules/<id>.md
// page states the basis of its number.
// clang-format off
constexpr RuleInfo k_rules[] = {
  {"GP-LIB-001", "LIB",  "cuBLAS / cuBLASLt",      k_mech, k_med,   0.50,
   "A cuBLAS call that maps to hipBLAS (portable) or rocBLAS (native).",
   "hipify it to hipblas* (or rocblas*) and check the handle, stream and math-mode calls."},
  {"GP-LIB-002", "LIB",  "cuBLAS / cuBLASLt",      k_mech, k_med,   1.00,
   "A cuBLASLt call that maps to hipBLASLt, whose algorithm heuristics and epilogues differ.",
   "Port it to hipblasLt* and re-run the algorithm selection on the AMD GPU."},
  {"GP-LIB-003", "LIB",  "cuDNN",                  k_ret,  k_high,  4.00,
   "A cuDNN call has no drop-in AMD counterpart, because MIOpen is a different API.",
   "Port it to MIOpen (different descriptors and find/tuning APIs), or move the op into PyTorch or MIGraphX."},
  {"GP-LIB-004", "LIB",  "NCCL",                   k_mech, k_low,   0.10,
   "An NCCL call that RCCL implements with the same API.",
   "Build against RCCL (<rccl/rccl.h>) and re-tune collectives for the AMD topology."},
  {"GP-LIB-005", "LIB",  "CUDA math libraries",    k_mech, k_low,   0.25,
   "A cuFFT, cuRAND, cuSPARSE or cuSOLVER call that maps to hipFFT, hipRAND, hipSPARSE or hipSOLVER.",
   "hipify it to the hip* library and check the plan, handle and status types."},
  {"GP-LIB-006", "LIB",  "CUB / Thrust",           k_mech, k_low,   0.50,
   "The file uses CUB or Thrust, which map to hipCUB and rocThrust.",
   "Include hipcub/hipcub.hpp (namespace hipcub) or rocThrust's thrust headers and re-tune block sizes."},
  {"GP-LIB-007", "LIB",  "TensorRT",               k_rw,   k_high, 40.00,
   "The file uses the TensorRT C++ API (NvInfer headers), which has no AMD build.",
   "Rebuild the inference path on MIGraphX (or ONNX Runtime with the MIGraphX provider) and port the plugins to HIP."},
  {"GP-LIB-008", "LIB",  "TensorRT-derived code",  k_mech, k_info,  0.50,
   "The file names nvinfer1:: without including a TensorRT header, typically vendored TensorRT-LLM code.",
   "Replace the nvinfer1 types and enums with local definitions."},
  {"GP-LIB-009", "LIB",  "CUTLASS / CuTe",         k_rw,   k_high, 40.00,
   "The file uses CUTLASS or CuTe, which have no AMD translation.",
   "Replace the kernels with Composable Kernel (CK or CK-Tile), hipBLASLt or rocWMMA equivalents."},
  {"GP-LIB-010", "LIB",  "NVML",                   k_mech, k_low,   0.25,
   "An NVML call; AMD SMI (amdsmi, rocm_smi) is the counterpart with a different API.",
   "Port it to amdsmi_* (or rsmi_*) calls."},
  {"GP-LIB-012", "LIB",  "TensorRT",               k_rw,   k_high, 40.00,
   "The file implements a TensorRT plugin (a class derived from IPluginV2*, IPluginV3* or a plugin creator).",
   "Drop the plugin where MIGraphX has the op, else re-express it as a MIGraphX custom op with a HIP kernel."},
  {"GP-LIB-011", "LIB",  "AmgX",                   k_ret,  k_med,   2.00,
   "An AmgX call; rocALUTION is the AMD counterpart with a different API.",
   "Port the solver setup to rocALUTION."},
};

constexpr ComponentInfo k_components[] = {
  {"AmgX",                   "partial",      "rocALUTION (different API)",                                         "days per solver"},
  {"CUB / Thrust",           "supported",    "hipCUB / rocPRIM, rocThrust",                                        "hours"},
  {"CUDA math libraries",    "supported",    "hipFFT/rocFFT, hipRAND/rocRAND, hipSPARSE, hipSOLVER",               "hours"},
  {"CUTLASS / CuTe",         "none",         "Composable Kernel (CK, CK-Tile), hipBLASLt, rocWMMA",                "weeks per kernel family"},
  {"NCCL",                   "supported",    "RCCL",                                                               "hours"},
  {"NVML",                   "supported",    "AMD SMI (amdsmi, rocm_smi)",                                         "hours"},
  {"TensorRT-derived code",  "partial",      "local replacements for nvinfer1 types",                              "hours"},
  {"cuBLAS / cuBLASLt",      "supported",    "hipBLAS / rocBLAS, hipBLASLt",                                       "hours"},
  {"cuDNN",                  "partial",      "MIOpen (different API)",                                             "weeks"},
};
// clang-format on

// Per-file state, one per scan thread; reset by begin_libraries.
struct State {
  OncePerFile cub_thrust;        // GP-LIB-006
  OncePerFile cutlass;           // GP-LIB-009
  OncePerFile tensorrt_include;  // GP-LIB-007
  OncePerFile nvinfer;           // GP-LIB-007 (with a TensorRT include) or GP-LIB-008
  OncePerFile plugin;            // GP-LIB-012

  void clear() {
    cub_thrust = {};
    cutlass = {};
    tensorrt_include = {};
    nvinfer = {};
    plugin = {};
  }
};

thread_local State t_state;

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

// `ns::` uses counted for a once-per-file rule; `namespace nvinfer1 {` (declaring TensorRT's
// types locally, a stub) counts as a use of nvinfer1.
void on_namespace(SourceContext& ctx, std::size_t i, std::string_view) {
  std::string_view name = ctx.text(i);
  const bool declares_nvinfer1 = name == "nvinfer1" && ctx.is_ident(prev_code(ctx, i), "namespace");
  if (!ctx.is_punct(next_code(ctx, i), "::") && !declares_nvinfer1) {
    return;
  }
  if (name == "cub" || name == "thrust") {
    note_once(ctx, t_state.cub_thrust, i);
  } else if (name == "cutlass" || name == "cute") {
    note_once(ctx, t_state.cutlass, i);
  } else if (name == "nvinfer1") {
    note_once(ctx, t_state.nvinfer, i);
  } else if (name == "cudnn_frontend") {
    ctx.add_once_per_line(k_slot_library, "GP-LIB-003", i, "cudnn_frontend::");
  }
}

// `public IPluginV2DynamicExt`, `public nvinfer1::IPluginV3`, `, protected IPluginCreator`: a
// base-class specifier, not a pointer or a parameter of that type.
void on_plugin_interface(SourceContext& ctx, std::size_t i, std::string_view) {
  std::size_t before = prev_code(ctx, i);
  if (before < i && ctx.is_punct(before, "::")) {
    const std::size_t ns = prev_code(ctx, before);
    if (ns >= before || !ctx.is_ident(ns, "nvinfer1")) {
      return;
    }
    before = prev_code(ctx, ns);
  }
  if (before >= i) {
    return;
  }
  const std::string_view access = ctx.text(before);
  if (access == "public" || access == "protected" || access == "private" ||
      ctx.is_punct(before, ":") || ctx.is_punct(before, ",")) {
    // `:` and `,` alone also open a base list; a parameter list never puts a bare type there.
    const std::size_t after = next_code(ctx, i);
    if (after < ctx.size() &&
        (ctx.is_punct(after, "{") || ctx.is_punct(after, ",") || ctx.is_punct(after, "<"))) {
      note_once(ctx, t_state.plugin, i);
    }
  }
}

// ONNX Runtime's C and C++ API headers (onnxruntime_c_api.h, onnxruntime_cxx_api.h, and the
// provider headers such as cuda_provider_factory.h under onnxruntime/).
bool is_onnxruntime_header(std::string_view header) {
  const std::size_t slash = header.rfind('/');
  const std::string_view file = slash == std::string_view::npos ? header : header.substr(slash + 1);
  return file.starts_with("onnxruntime_") && file.ends_with(".h");
}

// Asking ONNX Runtime's C/C++ API for the CUDA or TensorRT execution provider: the call site.
// `options.AppendExecutionProvider_CUDA(...)` is a member call of Ort::SessionOptions.
void on_ort_provider(SourceContext& ctx, std::size_t i, std::string_view name) {
  const std::size_t before = prev_code(ctx, i);
  const bool member =
      before < ctx.size() && (ctx.is_punct(before, ".") || ctx.is_punct(before, "->"));
  if ((member && ctx.is_punct(next_code(ctx, i), "(")) || is_call(ctx, i)) {
    ctx.add("GP-FW-003", i, std::string(name));
  }
}

void begin_libraries(SourceContext&) {
  t_state.clear();
}

void finish_libraries(SourceContext& ctx) {
  const State& state = t_state;
  if (state.cub_thrust.count > 0) {
    ctx.add("GP-LIB-006", state.cub_thrust.first,
            std::to_string(state.cub_thrust.count) + " CUB/Thrust includes and uses");
  }
  if (state.cutlass.count > 0) {
    ctx.add("GP-LIB-009", state.cutlass.first,
            std::to_string(state.cutlass.count) + " CUTLASS/CuTe includes and uses");
  }
  ctx.out.tensorrt_includes = state.tensorrt_include.count;
  if (state.tensorrt_include.count > 0) {
    ctx.add("GP-LIB-007", state.tensorrt_include.first,
            std::to_string(state.tensorrt_include.count) + " TensorRT includes, " +
                std::to_string(state.nvinfer.count) + " nvinfer1:: uses");
  } else if (state.nvinfer.count > 0) {
    ctx.add("GP-LIB-008", state.nvinfer.first,
            std::to_string(state.nvinfer.count) + " nvinfer1:: uses without a TensorRT include");
  }
  if (state.plugin.count > 0) {
    ctx.add("GP-LIB-012", state.plugin.first,
            std::to_string(state.plugin.count) + " TensorRT plugin classes");
  }
}

void register_libraries(HandlerTable& table) {
  for (std::string_view name : {"cub", "thrust", "cutlass", "cute", "nvinfer1", "cudnn_frontend"}) {
    table.add(name, on_namespace);
  }
  for (std::string_view name :
       {"OrtSessionOptionsAppendExecutionProvider_CUDA",
        "OrtSessionOptionsAppendExecutionProvider_CUDA_V2",
        "OrtSessionOptionsAppendExecutionProvider_Tensorrt",
        "OrtSessionOptionsAppendExecutionProvider_TensorRT",
        "OrtSessionOptionsAppendExecutionProvider_TensorRT_V2", "AppendExecutionProvider_CUDA",
        "AppendExecutionProvider_CUDA_V2", "AppendExecutionProvider_TensorRT",
        "AppendExecutionProvider_TensorRT_V2"}) {
    table.add(name, on_ort_provider);
  }
  for (std::string_view name :
       {"IPluginV2", "IPluginV2Ext", "IPluginV2IOExt", "IPluginV2DynamicExt", "IPluginV3",
        "IPluginV3OneCore", "IPluginV3OneBuild", "IPluginV3OneRuntime", "IPluginCreator",
        "IPluginCreatorV3One", "IPluginCreatorInterface"}) {
    table.add(name, on_plugin_interface);
  }
}

constexpr SourceFamily k_family = {
    .name = "LIB",
    .rules = k_rules,
    .components = k_components,
    .register_handlers = register_libraries,
    .begin = begin_libraries,
    .finish = finish_libraries,
};

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

bool is_tensorrt_header(std::string_view header) {
  std::size_t slash = header.rfind('/');
  std::string_view file = slash == std::string_view::npos ? header : header.substr(slash + 1);
  return file.starts_with("NvInfer") || file == "NvOnnxParser.h" || file == "NvUffParser.h" ||
         file == "NvCaffeParser.h" || file == "NvOnnxConfig.h";
}

void on_include(SourceContext& ctx, std::size_t i, std::string_view header) {
  on_backend_header(ctx, i, header);
  if (header.starts_with("cutlass/") || header.starts_with("cute/")) {
    note_once(ctx, t_state.cutlass, i);
  } else if (header.starts_with("cub/") || header.starts_with("thrust/")) {
    note_once(ctx, t_state.cub_thrust, i);
  } else if (is_tensorrt_header(header)) {
    note_once(ctx, t_state.tensorrt_include, i);
  } else if (is_onnxruntime_header(header)) {
    ctx.add("GP-FW-023", i, std::string(header));
  } else {
    on_type_header(ctx, i, header);
  }
}

const SourceFamily& library_family() {
  return k_family;
}

}  // namespace gpuport::source_rules
