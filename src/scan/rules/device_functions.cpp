// Device-function rules (GP-DEV-*): traps, sleeps, timers, textures, surfaces, SIMD, NVTX.
#include <string>

#include "scan/rules/source_family.h"

namespace gpuport::source_rules {

namespace {

using namespace catalog_rows;

// Provenance: hazards, AMD behaviour and equivalents from the project's reference notes
// porting-hazards.md (section 4.5: rows D1-D9, citing the HIP porting guide, HIP C++ language
// extensions, the HIPIFY tables and ROCm/clr headers) and real-world-lessons.md (section 3: the
// traps these rules must not fire on); tiers from ARCHITECTURE.md. Effort weights are
// engineer-hours per occurrence (per file for the once-per-file rules); each docs/rules/<id>.md
// page states the basis of its number.
// clang-format off
constexpr RuleInfo k_rules[] = {
  {"GP-DEV-001", "DEV",  "Device functions",       k_mech, k_med,   0.50,
   "__trap() or __brkpt() is used; HIPIFY has no mapping and a trap ends the whole process on AMD.",
   "Use abort() or __builtin_trap(), accepting that the process, not only the launch, ends."},
  {"GP-DEV-002", "DEV",  "Device functions",       k_mech, k_med,   0.50,
   "__nanosleep() is used; HIP has no mapping, and __builtin_amdgcn_s_sleep counts cycles, not nanoseconds.",
   "Replace it with __builtin_amdgcn_s_sleep(n) sized in cycles, or restructure the spin-wait."},
  {"GP-DEV-003", "DEV",  "Device functions",       k_ret,  k_low,   0.50,
   "A device clock (clock64, or clock in device code) is read; its rate varies on AMD and it misbehaves on RDNA3.",
   "Use wall_clock64() with hipDeviceAttributeWallClockRate to measure time."},
  {"GP-DEV-004", "DEV",  "Device functions",       k_mech, k_low,   0.25,
   "__prof_trigger() is used, which HIP does not support.",
   "Remove it; use roctx markers or rocprof counters instead."},
  {"GP-DEV-005", "DEV",  "Textures and surfaces",  k_ret,  k_med,   4.00,
   "Texture references (texture<...>, cudaBindTexture*) are used; they are removed in CUDA 12 and deprecated in HIP.",
   "Move to texture objects, or to plain global loads on GPUs without image support."},
  {"GP-DEV-006", "DEV",  "Textures and surfaces",  k_ret,  k_med,   1.00,
   "A texture object is created or fetched; texture functions are unavailable on AMD GPUs without image support (CDNA).",
   "Check __HIP_NO_IMAGE_SUPPORT for the targets; use plain loads (with __restrict__) where images are unsupported."},
  {"GP-DEV-007", "DEV",  "Textures and surfaces",  k_ret,  k_low,   1.00,
   "Surface reads or writes are used; HIP support depends on the version and on image support.",
   "Verify surface objects on the target ROCm version, or replace them with global-memory stores."},
  {"GP-DEV-008", "DEV",  "Device functions",       k_mech, k_low,   1.00,
   "A SIMD video intrinsic or __dp4a/__dp2a/__hfma_relu is used, and several of these have no HIP mapping.",
   "Implement it with integer math, or with __builtin_amdgcn_sdot4 and similar builtins where the target has them."},
  {"GP-DEV-009", "DEV",  "Profiling hooks (NVTX)", k_mech, k_low,   0.10,
   "NVTX ranges or the CUDA profiler API are used; roctx is the AMD counterpart.",
   "Swap nvToolsExt for roctx (roctxRangePush/Pop) and drop cudaProfilerStart/Stop."},
};

constexpr ComponentInfo k_components[] = {
  {"Device functions",       "partial",      "HIP device functions; a few unmapped",                               "hours"},
  {"Profiling hooks (NVTX)", "supported",    "roctx",                                                              "hours"},
  {"Textures and surfaces",  "partial",      "texture objects; no image support on CDNA",                          "days"},
};
// clang-format on

// `name(` or `name<T>(`.
bool is_call_maybe_templated(const SourceContext& ctx, std::size_t i) {
  std::size_t after = next_code(ctx, i);
  if (ctx.is_punct(after, "<")) {
    std::size_t close = match_forward(ctx, after, 32);
    return close != SIZE_MAX && ctx.is_punct(next_code(ctx, close), "(");
  }
  return is_call(ctx, i);
}

void on_clock(SourceContext& ctx, std::size_t i, std::string_view) {
  if (!is_call(ctx, i)) {
    return;
  }
  // clock() is also the C library's; only device code makes it the GPU counter.
  if (ctx.text(i) == "clock64" || ctx.in_device(i)) {
    ctx.add("GP-DEV-003", i, std::string(ctx.text(i)));
  }
}

void on_reference_template(SourceContext& ctx, std::size_t i, std::string_view rule) {
  if (ctx.is_punct(next_code(ctx, i), "<")) {
    ctx.add(rule, i, std::string(ctx.text(i)) + "<...> reference");
  }
}

void note_texture(SourceContext& ctx) {
  if (KernelFeatures* features = ctx.current_features()) {
    features->textures = true;
  }
}

void note_surface(SourceContext& ctx) {
  if (KernelFeatures* features = ctx.current_features()) {
    features->surfaces = true;
  }
}

void on_texture_object(SourceContext& ctx, std::size_t i, std::string_view) {
  if (is_call(ctx, i)) {
    ctx.add("GP-DEV-006", i, std::string(ctx.text(i)));
  }
}

void on_surface_object(SourceContext& ctx, std::size_t i, std::string_view) {
  if (is_call(ctx, i)) {
    ctx.add("GP-DEV-007", i, std::string(ctx.text(i)));
  }
}

bool is_simd_video(std::string_view name) {
  // __vabsdiffu4, __vadd2, __vcmpgeu2, __vsetne4, __viaddmax_s32, __vimax3_s32 ...
  static constexpr std::string_view k_roots[] = {"abs",  "add",  "avg",   "cmp",   "hadd", "max",
                                                 "min",  "neg",  "sad",   "set",   "sub",  "iadd",
                                                 "imax", "imin", "ibmax", "ibmin", "shl",  "shr"};
  if (!name.starts_with("__v") || name.size() < 6) {
    return false;
  }
  std::string_view rest = name.substr(3);
  for (std::string_view root : k_roots) {
    if (rest.starts_with(root)) {
      char last = name.back();
      return last == '2' || last == '4' || name.find("_s32") != std::string_view::npos ||
             name.find("_u32") != std::string_view::npos ||
             name.find("_s16x2") != std::string_view::npos ||
             name.find("_u16x2") != std::string_view::npos;
    }
  }
  return false;
}

void on_nvtx_namespace(SourceContext& ctx, std::size_t i, std::string_view) {
  if (ctx.is_punct(next_code(ctx, i), "::")) {
    ctx.add_once_per_line(k_slot_nvtx, "GP-DEV-009", i, "nvtx3::");
  }
}

void register_device_functions(HandlerTable& table) {
  table.add("__trap", on_call, "GP-DEV-001");
  table.add("__brkpt", on_call, "GP-DEV-001");
  table.add("__nanosleep", on_call, "GP-DEV-002");
  table.add("clock64", on_clock);
  table.add("clock", on_clock);
  table.add("__prof_trigger", on_call, "GP-DEV-004");
  table.add("texture", on_reference_template, "GP-DEV-005");
  for (std::string_view name : {"cudaBindTexture", "cudaBindTexture2D", "cudaBindTextureToArray",
                                "cudaBindTextureToMipmappedArray", "cudaUnbindTexture",
                                "cudaGetTextureReference", "cudaGetTextureAlignmentOffset"}) {
    table.add(name, on_call, "GP-DEV-005");
  }
  table.add("cudaCreateTextureObject", on_texture_object);
  table.add("surface", on_reference_template, "GP-DEV-007");
  table.add("cudaCreateSurfaceObject", on_surface_object);
  for (std::string_view name : {"__dp4a", "__dp2a_lo", "__dp2a_hi", "__hfma_relu"}) {
    table.add(name, on_call, "GP-DEV-008");
  }
  table.add("nvtx3", on_nvtx_namespace);
  table.add("cudaProfilerStart", on_call, "GP-DEV-009");
  table.add("cudaProfilerStop", on_call, "GP-DEV-009");
}

// No per-file state and no end-of-file rule.
constexpr SourceFamily k_family = {
    .name = "DEV",
    .rules = k_rules,
    .components = k_components,
    .register_handlers = register_device_functions,
    .begin = nullptr,
    .finish = nullptr,
};

}  // namespace

bool device_prefix(SourceContext& ctx, std::size_t i, std::string_view name) {
  switch (name[0]) {
    case '_':
      if (name.starts_with("__builtin_amdgcn_")) {
        ctx.add_sign(AmdPathKind::AmdAsm, i, std::string(name));
        return true;
      }
      if (is_simd_video(name) && is_call(ctx, i)) {
        ctx.add("GP-DEV-008", i, std::string(name));
        return true;
      }
      return false;
    case 'n':
      if (name.starts_with("nvtx") && name.size() > 4 && name[4] >= 'A' && name[4] <= 'Z') {
        if (is_call(ctx, i)) {
          ctx.add("GP-DEV-009", i, std::string(name));
        }
        return true;
      }
      return false;
    case 's':
      if (name.starts_with("surf") && name.size() > 5 &&
          (name[4] == '1' || name[4] == '2' || name[4] == '3' || name[4] == 'C')) {
        note_surface(ctx);
        if (is_call_maybe_templated(ctx, i)) {
          ctx.add("GP-DEV-007", i, std::string(name));
        }
        return true;
      }
      return false;
    case 't':
      if (name.starts_with("tex") && name.size() > 4 &&
          (name[3] == '1' || name[3] == '2' || name[3] == '3' || name[3] == 'C')) {
        note_texture(ctx);
        if (is_call_maybe_templated(ctx, i)) {
          ctx.add("GP-DEV-006", i, std::string(name));
        }
        return true;
      }
      return false;
    default:
      return false;
  }
}

const SourceFamily& device_family() {
  return k_family;
}

}  // namespace gpuport::source_rules
