// Memory rules (GP-MEM-*): LDS limits, managed memory, memory-type enums, fences, symbols, IPC.
#include <string>
#include <vector>

#include "scan/inventory.h"
#include "scan/rules/source_family.h"

namespace gpuport::source_rules {

namespace {

using namespace catalog_rows;

// Provenance: hazards, AMD behaviour and equivalents from the project's reference notes
// porting-hazards.md (section 4.3: rows S1-S8, citing the HIP porting guide, HIP C++ language
// extensions, the HIPIFY tables and ROCm/clr headers) and real-world-lessons.md (section 3: the
// traps these rules must not fire on); tiers from ARCHITECTURE.md. Effort weights are
// engineer-hours per occurrence (per file for the once-per-file rules); each docs/rules/<id>.md
// page states the basis of its number.
// clang-format off
constexpr RuleInfo k_rules[] = {
  {"GP-MEM-001", "MEM",  "Shared memory (LDS)",    k_ret,  k_high,  8.00,
   "A kernel declares more than 64 KiB of static shared memory, the LDS limit per workgroup on MI300X (160 KiB on MI350X).",
   "Re-tile for 64 KiB, or select tiles per architecture after querying hipDeviceAttributeMaxSharedMemoryPerBlock."},
  {"GP-MEM-002", "MEM",  "Shared memory (LDS)",    k_ret,  k_high,  8.00,
   "cudaFuncSetAttribute raises a kernel's dynamic shared memory above 64 KiB, more than an MI300X workgroup can have.",
   "Re-tile for 64 KiB, or choose the tile per architecture from hipDeviceAttributeMaxSharedMemoryPerBlock."},
  {"GP-MEM-003", "MEM",  "Managed memory",         k_ret,  k_med,   2.00,
   "Managed memory is used; on AMD it migrates on demand only with XNACK and HMM, and is otherwise pinned host memory.",
   "Test with HSA_XNACK=1 on a supported GPU, or use hipMalloc and explicit copies on hot paths."},
  {"GP-MEM-004", "MEM",  "CUDA runtime API",       k_mech, k_med,   0.50,
   "Memory types are compared as numbers, or cudaMemoryTypeUnregistered is used, but the HIP enum values differ.",
   "Compare against named hipMemoryType enumerators only."},
  {"GP-MEM-005", "MEM",  "Device functions",       k_mech, k_low,   0.50,
   "__threadfence_system() is used; HIP support has varied by version, so host-visible signalling must be re-validated.",
   "Keep it on current ROCm and test the host-visible flag protocol on the AMD GPU."},
  {"GP-MEM-006", "MEM",  "Device functions",       k_mech, k_info,  0.00,
   "__ldg() is used; on AMD it is an ordinary load, so any read-only-cache benefit is gone.",
   "Nothing to port; re-measure kernels that relied on the read-only cache."},
  {"GP-MEM-007", "MEM",  "CUDA runtime API",       k_mech, k_low,   0.10,
   "A symbol copy (cudaMemcpyToSymbol and relatives) needs HIP_SYMBOL() around the symbol in HIP.",
   "Wrap the symbol: hipMemcpyToSymbol(HIP_SYMBOL(sym), ...); hipify does this."},
  {"GP-MEM-008", "MEM",  "CUDA runtime API",       k_mech, k_low,   0.50,
   "CUDA IPC or 3D peer copies are used; IPC maps to hipIpc*, but cudaMemcpy3DPeer has no HIP mapping.",
   "Map the IPC calls to hipIpc* and replace 3D peer copies with per-slice hipMemcpyPeer or a copy kernel."},
};

constexpr ComponentInfo k_components[] = {
  {"Managed memory",         "partial",      "hipMallocManaged with XNACK + HMM",                                  "days"},
  {"Shared memory (LDS)",    "needs rework", "re-tiling for 64 KiB LDS (160 KiB on MI350X)",                       "days per kernel"},
};
// clang-format on

// Per-file state, one per scan thread; reset by begin_memory (clear() keeps the vector's memory).
struct State {
  std::vector<std::size_t> memory_type_compares;  // `.type == 2` candidates (GP-MEM-004)
  bool pointer_attributes = false;  // cudaPointerAttributes named: `.type` is a memory type

  void clear() {
    memory_type_compares.clear();
    pointer_attributes = false;
  }
};

thread_local State t_state;

constexpr std::uint64_t k_lds_limit = 64 * 1024;  // LDS per workgroup on MI300X (gfx942)

bool is_type_word(std::string_view word) {
  return word == "unsigned" || word == "signed" || word == "long" || word == "short" ||
         word == "int" || word == "char" || word == "double";
}

bool is_qualifier(std::string_view word) {
  return word == "static" || word == "volatile" || word == "const" || word == "__device__" ||
         word == "__restrict__" || word == "inline";
}

// One `__shared__` declaration: its static size for the kernel inventory, GP-MEM-001 (over the
// LDS limit) and GP-WARP-005 (a one-slot-per-warp [32] array).
void on_shared(SourceContext& ctx, std::size_t i, std::string_view) {
  std::size_t before = prev_code(ctx, i);
  if (ctx.is_ident(before, "extern")) {
    return;  // dynamic shared memory, sized at launch
  }
  bool directive = ctx.tok[i].in_directive();
  std::size_t j = next_code(ctx, i);
  std::size_t limit = std::min(ctx.size(), i + 96);
  // Qualifiers and alignment attributes.
  while (j < limit && ctx.kind(j) == TokenKind::Identifier) {
    std::string_view word = ctx.text(j);
    if (word == "extern") {
      return;
    }
    if ((word == "__align__" || word == "alignas") && ctx.is_punct(next_code(ctx, j), "(")) {
      std::size_t close = match_forward(ctx, next_code(ctx, j), 32);
      if (close == SIZE_MAX) {
        return;
      }
      j = next_code(ctx, close);
      continue;
    }
    if (!is_qualifier(word)) {
      break;
    }
    j = next_code(ctx, j);
  }
  // The type: builtin words joined by one space, or one identifier.
  std::string type;
  bool known_shape = true;
  if (ctx.kind(j) == TokenKind::Identifier && is_type_word(ctx.text(j))) {
    while (j < limit && ctx.kind(j) == TokenKind::Identifier && is_type_word(ctx.text(j))) {
      if (!type.empty()) {
        type.push_back(' ');
      }
      type += ctx.text(j);
      j = next_code(ctx, j);
    }
    if (type == "long int" || type == "long long int" || type == "unsigned long long int") {
      type = type.substr(0, type.size() - 4);
    }
  } else if (ctx.kind(j) == TokenKind::Identifier) {
    type = ctx.text(j);
    j = next_code(ctx, j);
    if (ctx.is_punct(j, "::") || ctx.is_punct(j, "<")) {
      known_shape = false;  // a qualified or templated type: size unknown
    }
  } else {
    return;
  }
  std::optional<std::uint64_t> element = known_shape ? scalar_type_size(type) : std::nullopt;
  // Declarators: name [dim]... , name [dim]... ;
  while (j < limit) {
    while (j < limit && !(ctx.kind(j) == TokenKind::Identifier)) {
      if (ctx.is_punct(j, ";") || ctx.is_punct(j, "{") || ctx.is_punct(j, "}") ||
          (directive && ctx.kind(j) == TokenKind::DirectiveEnd)) {
        return;
      }
      j = next_code(ctx, j);
    }
    if (j >= limit) {
      return;
    }
    std::size_t name = j;
    bool computable = element.has_value();
    std::uint64_t bytes = element.value_or(0);
    std::size_t dims = 0;
    std::size_t warp_dim = SIZE_MAX;
    j = next_code(ctx, j);
    while (ctx.is_punct(j, "[")) {
      std::size_t close = match_forward(ctx, j, 32);
      if (close == SIZE_MAX) {
        return;
      }
      auto extent = constant_value(ctx, j + 1, close);
      if (extent && computable && *extent <= (1ull << 32) && bytes <= (1ull << 32)) {
        bytes *= *extent;
      } else {
        computable = false;
      }
      if (close == j + 2 && integer_value(ctx.text(j + 1)) == 32u) {
        warp_dim = j + 1;
      }
      ++dims;
      j = next_code(ctx, close);
    }
    if (dims == 1 && warp_dim != SIZE_MAX) {
      ctx.add("GP-WARP-005", warp_dim, std::string(ctx.text(name)) + "[32]");
    }
    if (ctx.kernel >= 0 && i < ctx.kernel_end) {
      if (computable) {
        ctx.kernel_shared_sum += bytes;
      } else {
        ctx.kernel_shared_unknown = true;
      }
      if (ctx.kernel_shared_sum > k_lds_limit && !ctx.kernel_shared_flagged) {
        ctx.kernel_shared_flagged = true;
        ctx.add("GP-MEM-001", name,
                std::to_string(ctx.kernel_shared_sum) + " bytes of static shared memory");
      }
    } else if (computable && bytes > k_lds_limit) {
      ctx.add("GP-MEM-001", name, std::to_string(bytes) + " bytes of static shared memory");
    }
    // Skip an initializer, then continue after a comma.
    while (j < limit && !ctx.is_punct(j, ",") && !ctx.is_punct(j, ";") &&
           !(directive && ctx.kind(j) == TokenKind::DirectiveEnd)) {
      j = next_code(ctx, j);
    }
    if (!ctx.is_punct(j, ",")) {
      return;
    }
    j = next_code(ctx, j);
  }
}

// cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes > 64 KiB).
void on_func_set_attribute(SourceContext& ctx, std::size_t i, std::string_view rule) {
  if (!is_call(ctx, i)) {
    return;
  }
  auto args = call_arguments(ctx, next_code(ctx, i));
  for (std::size_t a = 0; a + 1 < args.size(); ++a) {
    bool dynamic_smem = false;
    for (std::size_t k = args[a].first; k < args[a].second; ++k) {
      std::string_view word = ctx.text(k);
      dynamic_smem = dynamic_smem || word == "cudaFuncAttributeMaxDynamicSharedMemorySize" ||
                     word == "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES";
    }
    if (!dynamic_smem) {
      continue;
    }
    auto bytes = constant_value(ctx, args[a + 1].first, args[a + 1].second);
    if (bytes && *bytes > k_lds_limit) {
      ctx.add("GP-MEM-002", i, std::to_string(*bytes) + " bytes of dynamic shared memory");
      return;
    }
    break;
  }
  ctx.add(rule, i, std::string(ctx.text(i)));  // an ordinary runtime/driver call
}

// `attributes.type == 2`: memory types compared as numbers (the enums differ) (GP-MEM-004).
void on_memory_type_field(SourceContext& ctx, std::size_t i, std::string_view) {
  std::size_t before = prev_code(ctx, i);
  if (!(ctx.is_punct(before, ".") || ctx.is_punct(before, "->"))) {
    return;
  }
  std::size_t op = next_code(ctx, i);
  if (!(ctx.is_punct(op, "==") || ctx.is_punct(op, "!="))) {
    return;
  }
  std::size_t value = next_code(ctx, op);
  if (ctx.kind(value) != TokenKind::Number) {
    return;
  }
  if (ctx.text(i) == "memoryType") {
    ctx.add("GP-MEM-004", i, "memoryType compared with a number");
  } else if (State& state = t_state; state.memory_type_compares.size() < 256) {
    state.memory_type_compares.push_back(i);  // `.type` is ambiguous: decided at the end
  }
}

void on_pointer_attributes(SourceContext& ctx, std::size_t i, std::string_view rule) {
  t_state.pointer_attributes = true;
  if (!rule.empty()) {
    on_call(ctx, i, rule);
  }
}

void begin_memory(SourceContext&) {
  t_state.clear();
}

void finish_memory(SourceContext& ctx) {
  const State& state = t_state;
  if (!state.pointer_attributes) {
    return;  // `.type == 2` in a file that never names cudaPointerAttributes: some other type
  }
  for (std::size_t i : state.memory_type_compares) {
    ctx.add("GP-MEM-004", i, "type compared with a number");
  }
}

void register_memory(HandlerTable& table) {
  table.add("cudaPointerAttributes", on_pointer_attributes);
  table.add("cudaPointerGetAttributes", on_pointer_attributes, "GP-EXEC-011");
  table.add("__shared__", on_shared);
  table.add("cudaFuncSetAttribute", on_func_set_attribute, "GP-EXEC-011");
  table.add("cuFuncSetAttribute", on_func_set_attribute, "GP-EXEC-009");
  for (std::string_view name :
       {"cudaMallocManaged", "cudaMemPrefetchAsync", "cudaMemAdvise", "cudaMemPrefetchAsync_v2",
        "cudaMemAdvise_v2", "cuMemAllocManaged", "cuMemPrefetchAsync", "cuMemAdvise"}) {
    table.add(name, on_call, "GP-MEM-003");
  }
  table.add("__managed__", on_name, "GP-MEM-003");
  table.add("cudaMemoryTypeUnregistered", on_name, "GP-MEM-004");
  table.add("type", on_memory_type_field);
  table.add("memoryType", on_memory_type_field);
  table.add("__threadfence_system", on_call, "GP-MEM-005");
  table.add("__ldg", on_call, "GP-MEM-006");
  for (std::string_view name :
       {"cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cudaMemcpyToSymbolAsync",
        "cudaMemcpyFromSymbolAsync", "cudaGetSymbolAddress", "cudaGetSymbolSize"}) {
    table.add(name, on_call, "GP-MEM-007");
  }
  for (std::string_view name :
       {"cudaIpcGetMemHandle", "cudaIpcOpenMemHandle", "cudaIpcCloseMemHandle",
        "cudaIpcGetEventHandle", "cudaIpcOpenEventHandle", "cuIpcGetMemHandle",
        "cuIpcOpenMemHandle", "cuIpcCloseMemHandle", "cuIpcGetEventHandle", "cuIpcOpenEventHandle",
        "cudaMemcpy3DPeer", "cudaMemcpy3DPeerAsync"}) {
    table.add(name, on_call, "GP-MEM-008");
  }
}

constexpr SourceFamily k_family = {
    .name = "MEM",
    .rules = k_rules,
    .components = k_components,
    .register_handlers = register_memory,
    .begin = begin_memory,
    .finish = finish_memory,
};

}  // namespace

const SourceFamily& memory_family() {
  return k_family;
}

}  // namespace gpuport::source_rules
