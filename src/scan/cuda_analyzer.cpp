// analyze_cuda: one pass over a C/C++/CUDA file's anchor tokens (TokenStream::anchors), dispatching
// to the rule families and filling the kernel inventory.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <string_view>
#include <vector>

#include "scan/file_analysis.h"
#include "scan/inventory.h"
#include "scan/kernel_macros.h"
#include "scan/rules/source_family.h"
#include "scan/rules/source_rules.h"

namespace gpuport {

namespace {

using namespace source_rules;

void close_kernel(SourceContext& ctx) {
  if (Kernel* kernel = ctx.current_kernel()) {
    if (ctx.kernel_shared_unknown) {
      kernel->features.static_shared_bytes.reset();
    } else {
      kernel->features.static_shared_bytes = ctx.kernel_shared_sum;
    }
  }
  ctx.kernel = -1;
  ctx.kernel_end = 0;
}

// GP-EXEC-012 (second half): kernel parameters HIP rejects.
void check_kernel_parameters(SourceContext& ctx, const FunctionShape& shape) {
  for (std::size_t j = shape.params_open + 1; j < shape.params_close && j < ctx.size(); ++j) {
    std::string_view t = ctx.text(j);
    TokenKind kind = ctx.kind(j);
    bool bad = (kind == TokenKind::Punct && (t == "&" || t == "&&")) ||
               (kind == TokenKind::Identifier &&
                (t == "va_list" || t == "initializer_list" ||
                 (t == "double" && ctx.is_ident(prev_code(ctx, j), "long"))));
    if (bad) {
      ctx.add("GP-EXEC-012", j, "kernel parameter: " + std::string(t));
      return;
    }
  }
}

// Makes the last kernel the one the pass fills until `body_close`.
void open_kernel(SourceContext& ctx, std::size_t body_close) {
  ctx.kernel = static_cast<std::ptrdiff_t>(ctx.out.kernels.size() - 1);
  ctx.kernel_end = body_close;
  ctx.kernel_shared_sum = 0;
  ctx.kernel_shared_unknown = false;
  ctx.kernel_shared_flagged = false;
  ctx.current_kernel()->features.static_shared_bytes = 0;
  if (body_close + 1 > ctx.device_end) {
    ctx.device_end = body_close + 1;
  }
}

void on_global(SourceContext& ctx, std::size_t i, std::string_view) {
  auto shape = read_function(ctx.ts, i);
  if (!shape) {
    return;
  }
  bool has_body = shape->body_close != SIZE_MAX;
  bool named = shape->name_begin != SIZE_MAX;
  if (!named || (!has_body && !ctx.tok[i].in_directive())) {
    return;  // a declaration: the definition is counted where it is
  }
  if (ctx.kernel >= 0) {
    close_kernel(ctx);
  }
  ctx.out.kernels.push_back(make_kernel(ctx.path, ctx.ts, i, *shape));
  if (ctx.tok[i].in_directive()) {
    note_kernel_macro(ctx, i, ctx.out.kernels.size() - 1, *shape);
  }
  check_kernel_parameters(ctx, *shape);
  if (has_body) {
    open_kernel(ctx, shape->body_close);
  }
}

// An expansion of a kernel macro; one of a signature macro starts a kernel whose body follows.
void on_kernel_macro_use(SourceContext& ctx, std::size_t i, std::string_view name) {
  std::optional<ExpandedKernel> started = note_kernel_macro_use(ctx, i, name);
  if (!started) {
    return;
  }
  if (ctx.kernel >= 0) {
    close_kernel(ctx);
  }
  ctx.out.kernels.push_back(std::move(started->kernel));
  open_kernel(ctx, started->body_close);
}

void on_device(SourceContext& ctx, std::size_t i, std::string_view) {
  if (ctx.in_device(i)) {
    return;
  }
  auto shape = read_function(ctx.ts, i);
  if (!shape || shape->body_close == SIZE_MAX) {
    return;
  }
  if (shape->body_close + 1 > ctx.device_end) {
    ctx.device_end = shape->body_close + 1;
  }
  if (shape->name_begin != SIZE_MAX && ctx.kernel < 0) {
    ctx.device_functions.push_back({ctx.text(shape->name_end - 1), {}});
    ctx.device_function = static_cast<std::ptrdiff_t>(ctx.device_functions.size() - 1);
    ctx.device_function_end = shape->body_close;
  }
}

// Remembers `name (` inside a kernel or helper body as a possible call of a same-file helper.
void note_callee(SourceContext& ctx, std::size_t i, std::string_view name) {
  if (!ctx.is_punct(i + 1, "(")) {
    return;
  }
  if (ctx.kernel >= 0) {
    ctx.kernel_calls.push_back({static_cast<std::uint32_t>(ctx.kernel), name});
  } else if (ctx.device_function >= 0) {
    ctx.helper_calls.push_back({static_cast<std::uint32_t>(ctx.device_function), name});
  }
}

void merge_features(KernelFeatures& into, const KernelFeatures& from) {
  for (const std::string& mnemonic : from.ptx_instructions) {
    add_distinct(into.ptx_instructions, mnemonic);
  }
  for (const std::string& intrinsic : from.warp_intrinsics) {
    add_distinct(into.warp_intrinsics, intrinsic);
  }
  into.wmma |= from.wmma;
  into.mma_ptx |= from.mma_ptx;
  into.atomics |= from.atomics;
  into.textures |= from.textures;
  into.surfaces |= from.surfaces;
  into.cooperative_groups |= from.cooperative_groups;
  into.dynamic_parallelism |= from.dynamic_parallelism;
}

// The pass numbers kernels and helpers as it meets them, so each list arrives in ascending
// caller order already; sorted (stably, by caller) only if that ever fails.
void sort_calls_by_caller(std::vector<CallSite>& calls) {
  const auto by_caller = [](const CallSite& a, const CallSite& b) { return a.caller < b.caller; };
  if (!std::is_sorted(calls.begin(), calls.end(), by_caller)) {
    std::stable_sort(calls.begin(), calls.end(), by_caller);  // not expected; kept correct
  }
}

// Gives each kernel the features of the same-file helpers it reaches through calls, at any depth.
// Helpers are matched by name (all overloads of a name count); shared-memory bytes stay the
// kernel's own, since a helper's __shared__ arrays are usually the kernel's under another name.
// Out of line: inlined, it costs the anchor loop of analyze_cuda registers (measured: six more
// instructions per anchor).
[[gnu::noinline]] void inherit_helper_features(SourceContext& ctx, SourceScratch& scratch) {
  if (ctx.device_functions.empty() || ctx.kernel_calls.empty()) {
    return;
  }
  // Call sites grouped by caller, each group in pass order; helper indices by name, ascending
  // within a name: a binary search per call name instead of a scan of every helper (a file may
  // hold hundreds of helpers and thousands of calls).
  sort_calls_by_caller(ctx.kernel_calls);
  sort_calls_by_caller(ctx.helper_calls);
  std::vector<std::uint32_t>& helpers_by_name = scratch.helpers_by_name;
  helpers_by_name.resize(ctx.device_functions.size());
  std::iota(helpers_by_name.begin(), helpers_by_name.end(), 0u);
  // The index breaks ties, so this is the order a stable sort by name gives, without the
  // buffer std::stable_sort allocates.
  std::sort(helpers_by_name.begin(), helpers_by_name.end(), [&](std::uint32_t a, std::uint32_t b) {
    const std::string_view name_a = ctx.device_functions[a].name;
    const std::string_view name_b = ctx.device_functions[b].name;
    return name_a != name_b ? name_a < name_b : a < b;
  });
  std::vector<std::string_view>& pending = scratch.pending_calls;
  auto push_calls_of = [&](const std::vector<CallSite>& calls, std::uint32_t caller) {
    auto first = std::lower_bound(
        calls.begin(), calls.end(), caller,
        [](const CallSite& call, std::uint32_t value) { return call.caller < value; });
    for (; first != calls.end() && first->caller == caller; ++first) {
      pending.push_back(first->name);
    }
  };
  std::vector<bool>& visited = scratch.visited_helpers;
  for (std::size_t k = 0; k < ctx.out.kernels.size(); ++k) {
    pending.clear();
    push_calls_of(ctx.kernel_calls, static_cast<std::uint32_t>(k));
    visited.assign(ctx.device_functions.size(), false);
    while (!pending.empty()) {
      std::string_view name = pending.back();
      pending.pop_back();
      auto named = std::lower_bound(helpers_by_name.begin(), helpers_by_name.end(), name,
                                    [&](std::uint32_t d, std::string_view value) {
                                      return ctx.device_functions[d].name < value;
                                    });
      for (; named != helpers_by_name.end() && ctx.device_functions[*named].name == name; ++named) {
        const std::uint32_t d = *named;
        if (visited[d]) {
          continue;
        }
        visited[d] = true;
        merge_features(ctx.out.kernels[k].features, ctx.device_functions[d].features);
        push_calls_of(ctx.helper_calls, d);
      }
    }
  }
}

void on_template(SourceContext& ctx, std::size_t i, std::string_view) {
  if (is_explicit_instantiation(ctx.ts, i)) {
    ++ctx.out.template_instantiations;
  }
}

// The analyzer's own handlers and every family's, in one exact-name table: one hash look-up per
// identifier, whichever family it belongs to. No two entries share a name (a later add() would
// replace the earlier one).
HandlerTable build_table() {
  HandlerTable table;
  table.add("__global__", on_global);
  table.add("__device__", on_device);
  table.add("template", on_template);
  for (const SourceFamily* family : source_families()) {
    family->register_handlers(table);
  }
  return table;
}

// Structural dispatch stays direct calls into the families (source_family.h): identifiers no
// table entry names go to the prefix detectors chosen by their first letter, numbers to warp's
// on_warp_number, `<<<` to execution's on_launch_open and directives to execution's on_directive.
void dispatch_prefix(SourceContext& ctx, std::size_t i, std::string_view name) {
  if (name.size() < 4) {
    return;
  }
  switch (name[0]) {
    case 'c':
      if (name[1] == 'u') {
        if (!library_prefix(ctx, i, name)) {
          execution_prefix(ctx, i, name);
        }
      }
      return;
    case 'n':
      if (!library_prefix(ctx, i, name) && !execution_prefix(ctx, i, name)) {
        device_prefix(ctx, i, name);
      }
      return;
    case 'A':
      library_prefix(ctx, i, name);
      return;
    case 'a':
      if (name.starts_with("atomic")) {
        if (KernelFeatures* features = ctx.current_features()) {
          features->atomics = true;
        }
      }
      return;
    case '_':
      if (name[1] == '_' && !matrix_prefix(ctx, i, name)) {
        device_prefix(ctx, i, name);
      }
      return;
    case 's':
    case 't':
      device_prefix(ctx, i, name);
      return;
    default:
      return;
  }
}

// Cheap prefilter before parsing: 1, 5, 31, 32, 64 (with suffixes) or a hex literal.
bool may_be_warp_literal(std::string_view text) {
  if (text.size() > 12 || text.empty()) {
    return false;
  }
  char c = text[0];
  if (c == '0') {
    return text.size() >= 4 && (text[1] == 'x' || text[1] == 'X');
  }
  return text.size() <= 5 && (c == '1' || c == '3' || c == '5' || c == '6');
}

bool is_warp_literal(std::uint64_t value) {
  return value == 32 || value == 64 || value == 31 || value == 5 || value == 1 ||
         value == 0xffffffffu;
}

}  // namespace

void analyze_cuda(const SharedString& path, const TokenStream& tokens, FileAnalysis& out) {
  static const HandlerTable table = build_table();
  static const std::span<const SourceFamily* const> families = source_families();
  thread_local SourceScratch scratch;
  SourceContext ctx(path, tokens, out, scratch);
  for (const SourceFamily* family : families) {
    if (family->begin != nullptr) {
      family->begin(ctx);
    }
  }
  // Only the anchors start a rule; a kernel or helper body that ends between two anchors is
  // closed at the next one, before anything else can see it. The tokens and the source are
  // read through locals: through `tokens`, every read would reload the vector's data pointer.
  const Token* const all = tokens.tokens.data();
  const std::string_view source = tokens.source;
  for (const std::uint32_t anchor : tokens.anchors) {
    const std::size_t i = anchor;
    if (ctx.kernel >= 0 && i > ctx.kernel_end) {
      close_kernel(ctx);
    }
    if (ctx.device_function >= 0 && i > ctx.device_function_end) {
      ctx.device_function = -1;
    }
    const Token& t = all[i];
    switch (t.kind) {
      case TokenKind::Identifier: {
        const std::string_view name = source.substr(t.offset, t.length);
        if (const HandlerEntry* entry = table.find(name)) {
          entry->handler(ctx, i, entry->rule);
        } else {
          dispatch_prefix(ctx, i, name);
        }
        if (ctx.kernel >= 0 || ctx.device_function >= 0) {
          note_callee(ctx, i, name);
        }
        // Warp-size names are 8 characters or more: most identifiers skip the call.
        if (name.size() >= 8 && ctx.in_device(i)) {
          note_warp_size_use(ctx, i, name);
        }
        if (!ctx.kernel_macros.empty() && !t.in_directive()) {
          on_kernel_macro_use(ctx, i, name);
        }
        break;
      }
      case TokenKind::Number: {
        const std::string_view text = source.substr(t.offset, t.length);
        if (may_be_warp_literal(text)) {
          auto value = integer_value(text);
          if (value && is_warp_literal(*value)) {
            on_warp_number(ctx, i, *value);
          }
        }
        break;
      }
      case TokenKind::LaunchOpen:
        on_launch_open(ctx, i);
        break;
      case TokenKind::DirectiveStart:
        on_directive(ctx, i);
        break;
      default:
        break;
    }
  }
  close_kernel(ctx);
  inherit_helper_features(ctx, scratch);
  if (!ctx.kernel_macros.empty()) {
    expand_kernel_macros(ctx);
  }
  for (const SourceFamily* family : families) {
    if (family->finish != nullptr) {
      family->finish(ctx);
    }
  }
}

}  // namespace gpuport
