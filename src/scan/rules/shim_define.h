// `#define cudaMalloc hipMalloc`: a line of a project's own CUDA-to-HIP shim. The scan counts
// them (three in a file make it a vendor shim header, an AMD-path sign); hipify leaves such a
// file as it is, since renaming its CUDA names would define HIP names as themselves.
#pragma once

#include <cstddef>

#include "lex/token.h"

namespace gpuport {

// True when the #define directive starting at token `directive` defines a CUDA name (cu*, CU*,
// __shfl*, nccl*, __nv*), object-like or function-like, whose replacement starts with a HIP or
// ROCm name (hip*, HIP*, roc*, rccl*, __hip*; __shfl* for __shfl*).
bool is_shim_define(const TokenStream& ts, std::size_t directive);

// How many shim #defines the file has; a file with k_shim_header_defines or more is a shim.
std::size_t count_shim_defines(const TokenStream& ts);
inline constexpr std::size_t k_shim_header_defines = 3;

}  // namespace gpuport
