// The custom-CUDA inventory read from tokens: kernel definitions, launch sites, instantiations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lex/token.h"
#include "scan/scan_result.h"

namespace gpuport {

// Token positions of a function definition or declaration introduced by a marker such as
// `__global__` or `__device__`. Positions are token indices; SIZE_MAX when absent.
struct FunctionShape {
  std::size_t name_begin = SIZE_MAX;  // first token of the name as written (`NAME ## _kernel`)
  std::size_t name_end = SIZE_MAX;    // one past the last token of the name
  std::size_t params_open = SIZE_MAX;
  std::size_t params_close = SIZE_MAX;
  std::size_t body_open = SIZE_MAX;   // SIZE_MAX for a declaration
  std::size_t body_close = SIZE_MAX;  // the closing brace (or the last brace before EOF)
};

// Reads the function that `marker` starts. nullopt when the marker does not start a function
// (a `__device__` variable, a macro fragment). Never reads past the directive that holds a
// marker inside a #define. Robust to unbalanced braces: the body ends at its matching brace, or
// before the next `__global__`, or at the last brace before the end of the file.
std::optional<FunctionShape> read_function(const TokenStream& ts, std::size_t marker);

// A Kernel for a `__global__` definition (features left empty for the caller to fill).
Kernel make_kernel(const SharedString& path, const TokenStream& ts, std::size_t marker,
                   const FunctionShape& shape);

// The callee of a `<<<` at token `launch` as written: `ns::kernel<T, 4>`.
std::string chevron_callee(const TokenStream& ts, std::size_t launch);

// The kernel named by the argument [begin, end) of a launch API call, casts and `&` removed.
std::string argument_callee(const TokenStream& ts, std::size_t begin, std::size_t end);

// True when token i (`template`) starts an explicit instantiation definition:
// `template void f<...>(...);`, `template __global__ ...;`, `template struct S<...>;`.
bool is_explicit_instantiation(const TokenStream& ts, std::size_t i);

// Bytes of a scalar or vector type named by one identifier (`float4` -> 16); nullopt when
// unknown. Multi-word types (`unsigned char`) are passed joined by one space.
std::optional<std::uint64_t> scalar_type_size(std::string_view type);

// Adds `value` to a distinct list, keeping first-seen order.
void add_distinct(std::vector<std::string>& list, std::string_view value);

}  // namespace gpuport
