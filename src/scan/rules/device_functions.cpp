// Device-function rules (GP-DEV-*): traps, sleeps, timers, textures, surfaces, SIMD, NVTX.
#include <string>

#include "scan/rules/source_rules.h"

namespace gpuport::source_rules {

namespace {

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

}  // namespace gpuport::source_rules
