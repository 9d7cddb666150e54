// Itanium C++ ABI symbols (`_Z…`) as source spelling. ROCm traces often carry kernel names raw
// (`_ZN7ck_tile6kentryI…`, `_ZN5aiter24add_rmsnorm_quant_kernelI…`).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuport {

// True for `_Z…` (what the demangler is asked to read).
bool looks_mangled(std::string_view name);

// The demangled symbol (libstdc++'s abi::__cxa_demangle), or nothing when it is not a symbol the
// demangler reads. Builtin types newer than the demangler (`DF16b` = std::bfloat16_t, `DF16_` =
// _Float16) are read too. Symbols over 32 KiB are not demangled (none is that long in practice,
// and the demangler's time and output grow with the input).
std::optional<std::string> demangle_symbol(std::string_view mangled);

// For symbols the demangler rejects: the leading nested name's components joined by `::`
// (`_ZN7sgl_hip10activation18act_and_mul_kernelI…` -> "sgl_hip::activation::act_and_mul_kernel"),
// stopping at the first template argument list; empty when none can be read.
std::string mangled_qualified_name(std::string_view mangled);

}  // namespace gpuport
