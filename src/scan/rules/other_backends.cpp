// BACKEND: sources of other GPU backends (GP-BACKEND-001). They are not CUDA: their `__global__`
// functions are not CUDA kernels, and a CUDA port leaves them alone.
#include "scan/rules/other_backends.h"

#include "scan/rules/source_family.h"

namespace gpuport {

OtherBackend backend_of_header(std::string_view header) {
  if (header == "sycl/sycl.hpp" || header == "CL/sycl.hpp" || header == "sycl.hpp" ||
      header.starts_with("sycl/ext/") || header == "dpct/dpct.hpp") {
    return {"SYCL", false};
  }
  if (header == "kernel_operator.h" || header == "acl/acl.h" || header.starts_with("aclnn")) {
    return {"Ascend C", false};
  }
  if (header == "musa_runtime.h" || header == "musa.h" || header == "mublas.h" ||
      header == "mudnn.h" || header == "musa_fp16.h") {
    return {"MUSA", false};
  }
  if (header == "metal_stdlib" || header.starts_with("Metal/") || header.starts_with("MetalKit/")) {
    return {"Metal", false};
  }
  if (header == "vulkan/vulkan.h" || header == "vulkan/vulkan.hpp" ||
      header == "vulkan/vulkan_core.h") {
    return {"Vulkan", true};
  }
  if (header == "CL/cl.h" || header == "CL/opencl.h" || header == "CL/cl2.hpp" ||
      header == "CL/opencl.hpp" || header == "OpenCL/opencl.h") {
    return {"OpenCL", true};
  }
  return {};
}

OtherBackend backend_of_identifier(std::string_view name, bool before_scope) {
  if (name == "__aicore__") {
    return {"Ascend C", false};
  }
  if (name == "sycl" && before_scope) {
    return {"SYCL", false};
  }
  return {};
}

OtherBackend other_backend_of(const TokenStream& tokens) {
  OtherBackend found;
  for (const DirectiveRecord& record : tokens.directives) {
    if (record.kind != Directive::Include) {
      continue;
    }
    const IncludeTarget target = parse_include(tokens.directive_list().rest(record));
    if (target.valid) {
      OtherBackend backend = backend_of_header(target.header);
      if (!backend.name.empty() && (found.name.empty() || !backend.also_used_beside_cuda)) {
        found = backend;
      }
    }
  }
  if (!found.name.empty() && !found.also_used_beside_cuda) {
    return found;
  }
  bool cuda = false;
  for (std::size_t a = 0; a < tokens.anchors.size(); ++a) {
    const Token& token = tokens.tokens[tokens.anchors[a]];
    if (token.kind != TokenKind::Identifier || token.in_directive()) {
      if (token.kind == TokenKind::LaunchOpen) {
        cuda = true;
      }
      continue;
    }
    const std::string_view text = tokens.text(token);
    cuda = cuda || text == "__global__";
    const std::size_t next = tokens.anchors[a] + 1;
    const bool scope = next < tokens.tokens.size() && tokens.text(tokens.tokens[next]) == "::";
    OtherBackend backend = backend_of_identifier(text, scope);
    if (!backend.name.empty()) {
      return backend;
    }
  }
  return found.also_used_beside_cuda && cuda ? OtherBackend{} : found;
}

namespace source_rules {

namespace {

// clang-format off
// Provenance: the backends beside CUDA that ML repositories carry (ggml's SYCL, CANN, MUSA,
// Metal, Vulkan and OpenCL folders; project reference notes, frameworks.md); tier framework:
// nothing of a CUDA port.
constexpr RuleInfo k_rules[] = {
  {"GP-BACKEND-001", "BACKEND", "Other GPU backends", Tier::Framework, Severity::Info, 0.00,
   "The file is written for another GPU backend (SYCL, Ascend C, MUSA, Metal, Vulkan or OpenCL), not CUDA, so a CUDA port leaves it alone.",
   "Nothing to port: that backend has its own build. SYCL, Vulkan and OpenCL also run on AMD GPUs through their own runtimes; Ascend C, MUSA and Metal do not."},
};

constexpr ComponentInfo k_components[] = {
  {"Other GPU backends",     "not CUDA",     "their own runtimes (SYCL, Vulkan and OpenCL run on AMD)",             "none for the CUDA port"},
};
// clang-format on

// Per-file state, one per scan thread; reset by begin_backends.
struct State {
  OtherBackend backend;
  std::size_t first = SIZE_MAX;  // token of the first evidence

  void clear() {
    backend = {};
    first = SIZE_MAX;
  }
};

thread_local State t_state;

void note(const OtherBackend& backend, std::size_t i) {
  if (backend.name.empty()) {
    return;
  }
  // A backend that never appears beside CUDA outranks Vulkan/OpenCL interop headers.
  if (t_state.backend.name.empty() ||
      (t_state.backend.also_used_beside_cuda && !backend.also_used_beside_cuda)) {
    t_state.backend = backend;
    t_state.first = i;
  }
}

void on_backend_identifier(SourceContext& ctx, std::size_t i, std::string_view) {
  if (ctx.tok[i].in_directive()) {
    return;  // `#if defined(__MUSA_ARCH__)` in a CUDA header is a guard, not MUSA code
  }
  note(backend_of_identifier(ctx.text(i), ctx.is_punct(next_code(ctx, i), "::")), i);
}

void begin_backends(SourceContext&) {
  t_state.clear();
}

// Another backend's file reports that one fact and nothing CUDA: its `__global__` functions,
// launches and hazards belong to its own build.
void finish_backends(SourceContext& ctx) {
  const State& state = t_state;
  if (state.backend.name.empty()) {
    return;
  }
  if (state.backend.also_used_beside_cuda &&
      (!ctx.out.kernels.empty() || !ctx.out.launches.empty())) {
    return;  // a CUDA file that shares memory with Vulkan or OpenCL
  }
  ctx.out.findings.clear();
  ctx.out.kernels.clear();
  ctx.out.launches.clear();
  ctx.out.template_instantiations = 0;
  add_finding(ctx.out, "GP-BACKEND-001", ctx.path, ctx.ts, ctx.tok[state.first],
              std::string(state.backend.name));
}

void register_backends(HandlerTable& table) {
  table.add("__aicore__", on_backend_identifier);
  table.add("sycl", on_backend_identifier);
}

constexpr SourceFamily k_family = {
    "BACKEND", k_rules, k_components, register_backends, begin_backends, finish_backends,
};

}  // namespace

void on_backend_header(SourceContext&, std::size_t i, std::string_view header) {
  note(backend_of_header(header), i);
}

const SourceFamily& backend_family() {
  return k_family;
}

}  // namespace source_rules

}  // namespace gpuport
