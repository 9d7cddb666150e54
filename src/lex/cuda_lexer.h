// Lexer for C, C++ and CUDA: every token with its line, column and #if branch context.
#pragma once

#include <string_view>

#include "lex/token.h"

namespace gpuport {

// Lexes `source` into `out` (cleared first). Never fails: malformed input (unterminated
// comments, strings or raw strings, unbalanced #endif, deep nesting) is lexed to the end of
// the file and reported in out.diagnostics.
//
// Preprocessor directives become DirectiveStart ("#include", "#  define"), then ordinary tokens
// flagged k_token_in_directive (HeaderName after #include), then a zero-length DirectiveEnd.
// Each token's context tells whether it sits in a HIP-only branch, a CUDA-only branch, or
// neither (see BranchContext); #else and #elif flip the branch of the #if they belong to.
void lex_cuda(std::string_view source, TokenStream& out);

}  // namespace gpuport
