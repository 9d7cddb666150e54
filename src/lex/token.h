// Tokens produced by every lexer: a kind, a byte range into the source and the #if context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lex/pp_directives.h"
#include "lex/pp_worlds.h"

namespace gpuport {

class MacroTable;

enum class TokenKind : std::uint8_t {
  Identifier,      // names and keywords
  Number,          // pp-number: 0x1f, 32u, 1.0e-3f, 1'000
  String,          // "..." with any prefix (L, u8, u, U, R"d(...)d"); Python strings of every form
  Char,            // 'x' with any prefix
  Comment,         // // ..., /* ... */, Python # ...
  Punct,           // operators and punctuation, longest match (<<= , ->*, ::)
  DirectiveStart,  // '#' plus the directive name ("#include", "# if"); C/C++/CUDA only
  DirectiveEnd,    // zero-length token at the end of a directive (after continuations)
  HeaderName,      // <cuda_runtime.h> or "x.h" after #include
  LaunchOpen,      // <<<  (only where it cannot be a shift: see cuda_lexer.h)
  LaunchClose,     // >>>
  Newline,         // Python logical end of line (not emitted by the C/C++ lexer)
  Other,           // a byte no rule above accepts (stray '@', '$', '\\', non-ASCII)
};

// Which platform branch of an #if a token sits in. The preprocessor view of a C/C++ file sets
// it (resolve_branches); other lexers leave Neutral.
enum class BranchContext : std::uint8_t {
  Neutral,     // compiled for every platform (as far as the guards tell)
  Hip,         // inside a HIP/ROCm-only branch (__HIP_PLATFORM_AMD__, USE_ROCM, __gfx942__, ...)
  CudaDevice,  // inside a CUDA-only branch (__CUDA_ARCH__, __CUDACC__, !USE_ROCM, #else of HIP)
  Dead,        // compiled nowhere (#if 0, #if false, a project macro decided off everywhere)
};

inline constexpr std::uint8_t k_token_in_directive = 1;  // part of a preprocessor directive
inline constexpr std::uint8_t k_token_unterminated = 2;  // comment/string that ran to end of file
// In an #if alternative that brace matching does not follow: when every alternative opens a
// brace, only one of them (the AMD one where it is decided, else the first) is read, so a
// body ends at its real closing brace. Dead code is off the path too.
inline constexpr std::uint8_t k_token_off_path = 4;

// How the AMD build treats a piece of code.
enum class AmdBuildState : std::uint8_t {
  Unknown,   // cannot be decided (a macro the scan cannot see, a build option)
  Compiled,  // the AMD build compiles it (for at least one target)
  Excluded,  // the AMD build leaves it out: a CUDA-only #if branch, a source left out of the build
};

struct AmdBuild {
  AmdBuildState state = AmdBuildState::Unknown;
  // Excluded: a sibling #if branch (or a source of the same build branch) the AMD build does
  // compile, i.e. the code is already handled for AMD.
  bool alternative = false;
  // Excluded by an #if: the line of the directive that decides it (the #if, #ifdef or #elif of
  // the branch; for an #else, the #if of its chain). 0 when a build file excludes the source.
  std::uint32_t guard_line = 0;
};

// A run of tokens between two conditional directives, as the preprocessor view resolved it.
struct BranchRegion {
  std::uint32_t first_token = 0;  // index of its first token (its end is the next region's start)
  std::uint32_t line = 0;         // line of that token's position
  WorldMask may_true = 0;         // worlds in which the code may be compiled
  WorldMask may_false = 0;        // worlds in which it may be left out
  BranchContext context = BranchContext::Neutral;
  bool on_path = true;  // see k_token_off_path
  AmdBuild amd;
};

struct Token {
  std::uint32_t offset = 0;  // byte offset into the source
  std::uint32_t length = 0;
  std::uint32_t line = 0;  // 1-based line of the first byte
  TokenKind kind = TokenKind::Other;
  BranchContext context = BranchContext::Neutral;
  std::uint8_t flags = 0;
  std::uint8_t reserved = 0;

  bool in_directive() const { return (flags & k_token_in_directive) != 0; }
  bool off_path() const { return (flags & k_token_off_path) != 0; }
};
static_assert(sizeof(Token) == 16);

// A problem the lexer met. Lexing always completes; these become warnings.
struct LexDiagnostic {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string message;  // "unterminated block comment", "#endif without #if", ...
};

// The tokens of one file. Buffers are reused between files by a worker, so memory is bounded
// by the largest file a worker reads.
struct TokenStream {
  std::string_view source;
  std::vector<Token> tokens;
  std::vector<std::uint32_t> line_starts;  // line_starts[i] = offset of line i+1
  std::vector<LexDiagnostic> diagnostics;
  // Indices of the tokens where rules start, ascending. Most tokens are punctuation, which the
  // rules only read around these. lex_cuda: the Identifier, Number, LaunchOpen and
  // DirectiveStart tokens. lex_python: the Identifier and String tokens and the `@` operator
  // (decorators).
  std::vector<std::uint32_t> anchors;
  // Index of the first token in a HIP-only branch (BranchContext::Hip), or k_no_token; set by
  // the preprocessor view, which sees each branch open, so that nobody reads every token to
  // find it.
  static constexpr std::uint32_t k_no_token = UINT32_MAX;
  std::uint32_t first_hip_token = k_no_token;
  // lex_cuda: the preprocessor directives the preprocessor view reads (conditionals, #define,
  // #undef, #include, #pragma), in order, with offsets into `source`.
  std::vector<DirectiveRecord> directives;
  // The preprocessor view's regions, in token order; the first starts at token 0. Empty for
  // streams no view was computed for (Python).
  std::vector<BranchRegion> regions;
  // Some token is k_token_off_path: brace matching must look at the flag (most files: no).
  bool has_off_path = false;
  // The preprocessor view: the project headers this file includes where the AMD build may
  // compile the #include (their paths), and the file names of such #includes that name a
  // project file but could not be resolved to one. What decides a header's membership through
  // its includers.
  std::vector<std::string> amd_includes;
  std::vector<std::uint32_t> amd_include_lines;  // the #include line of each amd_includes entry
  std::vector<std::string> unresolved_amd_includes;
  // The preprocessor view: the macros in force once the walk ended (read them with
  // amd_definition_at_end). Owned by the walking thread, valid until its next walk.
  const MacroTable* macros_at_end = nullptr;

  DirectiveList directive_list() const { return {source, directives}; }
  // The region holding token `index` (nullptr when there are no regions).
  const BranchRegion* region_of(std::size_t index) const;
  // The region holding the first token at or after `line` begins (for findings made at a line).
  const BranchRegion* region_at_line(std::uint32_t line) const;

  std::string_view text(const Token& token) const {
    return source.substr(token.offset, token.length);
  }
  // text(token) == expected, for a token of this stream; the length is compared first, so most
  // calls read no source byte.
  bool text_is(const Token& token, std::string_view expected) const {
    if (token.length != expected.size()) {
      return false;
    }
    // A byte loop, not memcmp: the texts compared are a few bytes (punctuators, keywords), and
    // the loop unrolls for literals instead of becoming a library call.
    const char* text = source.data() + token.offset;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (text[i] != expected[i]) {
        return false;
      }
    }
    return true;
  }
  // 1-based byte column of an offset.
  std::uint32_t column_of(std::uint32_t offset) const;
  std::uint32_t line_of(std::uint32_t offset) const;
  // A token knows its line, so its column needs no search of line_starts; the search is the
  // fallback for a token whose line does not hold its offset (none of the lexers make one).
  std::uint32_t column(const Token& token) const {
    const std::size_t line = token.line;
    if (line >= 1 && line <= line_starts.size() && line_starts[line - 1] <= token.offset &&
        (line == line_starts.size() || token.offset < line_starts[line])) {
      return token.offset - line_starts[line - 1] + 1;
    }
    return column_of(token.offset);
  }
  // The whole source line (without its line break) that holds `line`.
  std::string_view line_text(std::uint32_t line) const;
  void clear();
};

}  // namespace gpuport
