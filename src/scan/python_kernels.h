// The kernel inventory of a Python file: the NVIDIA-only ways to write a kernel in Python.
// CuTe DSL kernels (@cute.kernel), Numba CUDA kernels (@cuda.jit, not device=True) and CUDA C++
// kernels in strings compiled at run time (NVRTC, cuda.core's Program, CuPy's RawKernel).
#pragma once

#include "lex/python_lexer.h"
#include "lex/token.h"
#include "scan/file_analysis.h"

namespace gpuport {

// The decorated kernels (CuTe DSL, Numba).
void inventory_python_kernels(const SharedString& path, const TokenStream& tokens,
                              const PythonFacts& facts, FileAnalysis& out);

// The `__global__` definitions of CUDA C++ source held in a Python string that starts on
// `line` (called where GP-FW-021 finds such a string).
void inventory_string_kernels(const SharedString& path, std::string_view source, std::uint32_t line,
                              FileAnalysis& out);

// Whether a Python import is of CUTLASS's Python packages (the CuTe DSL): `cutlass`,
// `cutlass.cute`.
bool imports_cutlass(const PythonFacts& facts);

}  // namespace gpuport
