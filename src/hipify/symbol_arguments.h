// Wraps the symbol argument of the CUDA symbol APIs in HIP_SYMBOL(...), as HIP requires:
//   cudaMemcpyToSymbol(sym, ...), cudaMemcpyToSymbolAsync(sym, ...)        first argument
//   cudaMemcpyFromSymbol(dst, sym, ...), cudaMemcpyFromSymbolAsync(...),
//   cudaGetSymbolAddress(&p, sym), cudaGetSymbolSize(&s, sym)               second argument
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "hipify/file_translation.h"
#include "hipify/token_walk.h"

namespace gpuport {

// Which argument of a CUDA symbol API names the symbol; nullopt for any other name.
std::optional<std::size_t> symbol_argument_of(std::string_view cuda_name);

// Adds HIP_SYMBOL( ) around each recorded call's symbol argument when the call's argument list
// is visible in the tokens, the argument is not already HIP_SYMBOL(...), and no `<`, `>`, `#`
// or `##` before it makes the argument boundaries uncertain.
void wrap_symbol_arguments(FileTranslation& ft, const BracketMatch& match);

}  // namespace gpuport
