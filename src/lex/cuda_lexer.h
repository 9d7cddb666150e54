// Lexer for C, C++ and CUDA: every token with its line, column and #if branch context.
#pragma once

#include <string_view>

#include "lex/token.h"

namespace gpuport {

struct PreprocessorSetup;

// Lexes `source` into `out` (cleared first). Never fails: malformed input (unterminated
// comments, strings or raw strings, unbalanced #endif, deep nesting) is lexed to the end of
// the file and reported in out.diagnostics.
//
// Preprocessor directives become DirectiveStart ("#include", "#  define"), then ordinary tokens
// flagged k_token_in_directive (HeaderName after #include), then a zero-length DirectiveEnd;
// the conditionals, #define, #undef, #include and #pragma are listed in out.directives.
// Then the preprocessor view (resolve_branches) gives each token its context: whether it sits
// in a HIP-only branch, a CUDA-only branch, dead code, or none of these (see BranchContext).
// This form sees the file alone: the platform's macros and the file's own #defines.
void lex_cuda(std::string_view source, TokenStream& out);
// The same, with the project's build macros and headers (the scan's form).
void lex_cuda(std::string_view source, TokenStream& out, const PreprocessorSetup& setup);
// Tokens and directives only, every token Neutral (a header read for its macros).
void lex_cuda_tokens(std::string_view source, TokenStream& out);

}  // namespace gpuport
