// Which GPU backend other than CUDA a C/C++ file is written for: SYCL, Ascend C, MUSA, Metal,
// Vulkan or OpenCL. Shared by the BACKEND rule family (in the scan's one pass) and hipify (which
// leaves such files as they are).
#pragma once

#include <string_view>

#include "lex/token.h"

namespace gpuport {

struct OtherBackend {
  std::string_view name;  // "SYCL", "Ascend C", "MUSA", "Metal", "Vulkan", "OpenCL"; empty: none
  // Vulkan and OpenCL headers also appear in CUDA code that shares buffers with them: such a file
  // is another backend's only when it defines no CUDA kernel and launches none.
  bool also_used_beside_cuda = false;
};

// The backend a header names (<sycl/sycl.hpp>, <kernel_operator.h>, <musa_runtime.h>, ...).
OtherBackend backend_of_header(std::string_view header);
// The backend an identifier in code names: `sycl` before `::`, `__aicore__` (Ascend C).
OtherBackend backend_of_identifier(std::string_view name, bool before_scope);

// The backend a lexed file is written for, looking at its includes and identifiers; for callers
// outside the scan's pass (hipify).
OtherBackend other_backend_of(const TokenStream& tokens);

}  // namespace gpuport
