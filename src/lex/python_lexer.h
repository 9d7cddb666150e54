// Lexer for Python source: strings of every form, comments, identifiers, logical lines.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lex/token.h"

namespace gpuport {

// Lexes `source` into `out` (cleared first). Never fails; unterminated strings are reported in
// out.diagnostics. Emits Newline at the end of each logical line (not inside brackets or after
// a backslash continuation).
void lex_python(std::string_view source, TokenStream& out);

struct PythonImport {
  std::string module;  // "torch.cuda" for `import torch.cuda` and `from torch.cuda import amp`
  std::string name;    // "amp" for the from-form; empty for `import x`
  std::uint32_t line = 0;
};

struct PythonDotted {
  std::string name;  // "triton.jit", "torch.backends.cudnn.benchmark"
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

// What the Python rules look at, taken from the tokens in one pass.
struct PythonFacts {
  std::vector<PythonImport> imports;
  std::vector<PythonDotted> decorators;        // "@triton.jit" -> "triton.jit"
  std::vector<PythonDotted> attribute_chains;  // maximal a.b.c chains of two or more names
};

// Attribute chains are most of the facts of a file (every `self.x`). A caller that reads only
// some of them names their first components in `chain_roots`; empty keeps every chain.
struct PythonFactsOptions {
  std::span<const std::string_view> chain_roots;
};

PythonFacts extract_python_facts(const TokenStream& tokens, const PythonFactsOptions& options = {});

}  // namespace gpuport
