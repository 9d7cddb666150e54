// Kernels defined through function-like macros, one per expansion (see kernel_macros.h).
#include "scan/kernel_macros.h"

#include <algorithm>
#include <string>

namespace gpuport {

using source_rules::KernelExpansion;
using source_rules::KernelMacro;
using source_rules::SourceContext;

namespace {

// The DirectiveStart token of the directive holding token `i`.
std::size_t directive_start(const SourceContext& ctx, std::size_t i) {
  while (i > 0 && ctx.kind(i) != TokenKind::DirectiveStart) {
    --i;
  }
  return ctx.kind(i) == TokenKind::DirectiveStart ? i : SIZE_MAX;
}

// An argument's text as the preprocessor pastes it: its tokens without blanks or comments.
std::string argument_text(const SourceContext& ctx, std::size_t begin, std::size_t end) {
  std::string text;
  for (std::size_t j = begin; j < end && text.size() < 256; ++j) {
    if (ctx.kind(j) != TokenKind::Comment) {
      text += ctx.text(j);
    }
  }
  return text;
}

}  // namespace

void note_kernel_macro(SourceContext& ctx, std::size_t marker, std::size_t kernel,
                       const FunctionShape& shape) {
  if (shape.name_begin == SIZE_MAX || ctx.kernel_macros.size() >= 256) {
    return;
  }
  const std::size_t start = directive_start(ctx, marker);
  if (start == SIZE_MAX || !ctx.text(start).ends_with("define")) {
    return;
  }
  const std::size_t name = start + 1;
  const std::size_t open = name + 1;
  // Function-like: the `(` touches the name.
  if (ctx.kind(name) != TokenKind::Identifier || !ctx.is_punct(open, "(") ||
      ctx.tok[open].offset != ctx.tok[name].offset + ctx.tok[name].length) {
    return;
  }
  KernelMacro macro;
  macro.name = ctx.text(name);
  std::size_t j = open + 1;
  for (; j < marker && !ctx.is_punct(j, ")"); ++j) {
    if (ctx.kind(j) == TokenKind::Identifier) {
      macro.params.push_back(ctx.text(j));
    } else if (ctx.is_punct(j, "...")) {
      macro.params.push_back("__VA_ARGS__");
    }
  }
  if (j >= marker) {
    return;
  }
  macro.has_body = shape.body_close != SIZE_MAX;
  macro.kernel = kernel;
  macro.name_begin = shape.name_begin;
  macro.name_end = shape.name_end;
  ctx.kernel_macros.push_back(std::move(macro));
}

std::optional<ExpandedKernel> note_kernel_macro_use(SourceContext& ctx, std::size_t i,
                                                    std::string_view name) {
  for (std::size_t m = 0; m < ctx.kernel_macros.size(); ++m) {
    KernelMacro& macro = ctx.kernel_macros[m];
    if (macro.name != name) {
      continue;
    }
    const std::size_t open = source_rules::next_code(ctx, i);
    if (!ctx.is_punct(open, "(") || ctx.kernel_expansions.size() >= 4096) {
      return std::nullopt;
    }
    const auto args = source_rules::call_arguments(ctx, open);
    // The kernel's name with the arguments pasted in for the parameters; `##` joins.
    std::string expanded;
    for (std::size_t j = macro.name_begin; j < macro.name_end; ++j) {
      if (ctx.is_punct(j, "##") || ctx.kind(j) == TokenKind::Comment) {
        continue;
      }
      const std::string_view text = ctx.text(j);
      const auto param = std::find(macro.params.begin(), macro.params.end(), text);
      if (ctx.kind(j) == TokenKind::Identifier && param != macro.params.end()) {
        const auto k = static_cast<std::size_t>(param - macro.params.begin());
        if (k < args.size()) {
          expanded += argument_text(ctx, args[k].first, args[k].second);
        }
      } else {
        expanded += text;
      }
    }
    if (macro.has_body) {
      macro.expanded = true;
      ctx.kernel_expansions.push_back({m, std::move(expanded), ctx.tok[i].line});
      return std::nullopt;
    }
    // A signature: a kernel when a body follows the arguments.
    const std::size_t close = source_rules::match_forward(ctx, open);
    const std::size_t brace = close == SIZE_MAX ? SIZE_MAX : source_rules::next_code(ctx, close);
    if (!ctx.is_punct(brace, "{")) {
      return std::nullopt;
    }
    const std::size_t body_close = source_rules::match_forward(ctx, brace, ctx.size());
    if (body_close == SIZE_MAX) {
      return std::nullopt;
    }
    macro.expanded = true;
    ExpandedKernel started{ctx.out.kernels[macro.kernel], body_close};
    started.kernel.features = {};
    started.kernel.name = std::move(expanded);
    started.kernel.line = ctx.tok[i].line;
    started.kernel.lines_of_code = ctx.tok[body_close].line - ctx.tok[i].line + 1;
    return started;
  }
  return std::nullopt;
}

void expand_kernel_macros(SourceContext& ctx) {
  std::vector<bool> taken(ctx.kernel_macros.size(), false);
  std::vector<std::size_t> dropped;
  for (const KernelMacro& macro : ctx.kernel_macros) {
    if (macro.expanded && !macro.has_body) {
      dropped.push_back(macro.kernel);
    }
  }
  for (KernelExpansion& expansion : ctx.kernel_expansions) {
    const std::size_t index = ctx.kernel_macros[expansion.macro].kernel;
    if (!taken[expansion.macro]) {
      taken[expansion.macro] = true;
      Kernel& kernel = ctx.out.kernels[index];
      kernel.name = std::move(expansion.name);
      kernel.line = expansion.line;
      continue;
    }
    Kernel copy = ctx.out.kernels[index];
    copy.name = std::move(expansion.name);
    copy.line = expansion.line;
    ctx.out.kernels.push_back(std::move(copy));
  }
  // Last, so that no index above moved; descending, so that none below moves.
  std::sort(dropped.rbegin(), dropped.rend());
  for (std::size_t index : dropped) {
    ctx.out.kernels.erase(ctx.out.kernels.begin() + static_cast<std::ptrdiff_t>(index));
  }
}

}  // namespace gpuport
