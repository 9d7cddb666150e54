// Wraps the symbol argument of the CUDA symbol APIs in HIP_SYMBOL(...), as HIP requires:
//   cudaMemcpyToSymbol(sym, ...), cudaMemcpyToSymbolAsync(sym, ...)        first argument
//   cudaMemcpyFromSymbol(dst, sym, ...), cudaMemcpyFromSymbolAsync(...),
//   cudaGetSymbolAddress(&p, sym), cudaGetSymbolSize(&s, sym)               second argument
//   the graph memcpy-node calls (cudaGraphAddMemcpyNodeToSymbol, ...)       where HIP has it
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "hipify/file_translation.h"
#include "hipify/token_walk.h"

namespace gpuport {

// Which argument of a CUDA symbol API names the symbol; nullopt for any other name.
std::optional<std::size_t> symbol_argument_of(std::string_view cuda_name);

// Which argument of a CUDA API names a kernel that HIP takes as `const void*` with no template
// overload (hip_runtime_api.h): cudaFuncGetAttributes (second), cudaFuncSetAttribute,
// cudaFuncSetCacheConfig, cudaFuncSetSharedMemConfig, cudaLaunchKernel (first). A function
// does not convert to `const void*` implicitly, so the kernel is wrapped in
// reinterpret_cast<const void*>(...). nullopt for any other name.
std::optional<std::size_t> kernel_argument_of(std::string_view cuda_name);

// The argument a CUDA call passes that its HIP form lacks, and why a non-null one cannot be
// dropped: the block-size-to-dynamic-shared-memory callback (argument 3) of
// cuOccupancyMaxPotentialBlockSize and ...WithFlags, which hipModuleOccupancyMaxPotentialBlockSize
// (WithFlags) do not take; the edge data CUDA 12.3 added to the graph dependency calls
// (cudaGraphAddDependencies, cudaGraphAddNode, ...), which HIP's do not take. Dropped only from a
// call that passes CUDA's count (hip_argument_range). nullopt for any other name.
struct DroppedArgument {
  std::size_t argument = 0;
  std::string_view why_kept;  // the review reason when the argument is not null
};
std::optional<DroppedArgument> dropped_argument_of(std::string_view cuda_name);

// Whether the comma split of tokens [first, last] can be trusted: no `<` or `>` that may be
// template brackets around a comma (a cast's brackets are checked), no # or ##, no directive.
bool boundaries_certain(const TokenStream& ts, std::size_t first, std::size_t last);

// An argument that is only NULL, nullptr or 0.
bool is_null_argument(const TokenStream& ts, const TokenRange& part);

// Adds HIP_SYMBOL( ) (or reinterpret_cast<const void*>( )) around each recorded call's
// argument when the call's argument list is visible in the tokens, the argument is not already
// wrapped (HIP_SYMBOL(...), a cast), and no `<`, `>`, `#` or `##` before it makes the argument
// boundaries uncertain. A DropNull argument is removed, with its comma, when it is NULL,
// nullptr or 0; anything else is a callback HIP cannot call, reported as needing review.
void wrap_symbol_arguments(FileTranslation& ft, const BracketMatch& match);

}  // namespace gpuport
