// Kernels defined through function-like macros: `#define DEFINE_KERNEL(N) __global__ void
// k_##N(...) {...}` then `DEFINE_KERNEL(8) DEFINE_KERNEL(16)` is two kernels, k_8 and k_16, each
// located at its expansion. A macro the file never expands keeps its one kernel at the #define
// (a header's macro expanded in other files).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "scan/inventory.h"
#include "scan/rules/source_rules.h"

namespace gpuport {

// `__global__` at `marker` sits in a #define: when the directive defines a function-like macro
// and the kernel has a body, remembers the macro (the kernel at ctx.out.kernels[kernel]).
void note_kernel_macro(source_rules::SourceContext& ctx, std::size_t marker, std::size_t kernel,
                       const FunctionShape& shape);

// A kernel whose body follows a signature macro's expansion: the caller opens it as it would a
// `__global__` definition.
struct ExpandedKernel {
  Kernel kernel;
  std::size_t body_close = 0;
};

// Identifier `i` (outside directives) named `name`: an expansion of a kernel macro when it is
// one's name followed by its arguments. A macro with a body is recorded for
// expand_kernel_macros; a signature macro followed by `{` returns the kernel it starts.
std::optional<ExpandedKernel> note_kernel_macro_use(source_rules::SourceContext& ctx, std::size_t i,
                                                    std::string_view name);

// At the end of the file (after the kernels have their helpers' features): the first expansion
// of a macro with a body takes the kernel the #define recorded, each further one is a copy of
// it; the #define's kernel of an expanded signature macro is dropped (its expansions are the
// kernels).
void expand_kernel_macros(source_rules::SourceContext& ctx);

}  // namespace gpuport
