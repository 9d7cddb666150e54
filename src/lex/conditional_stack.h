// The #if nesting of one C/C++/CUDA file and the branch context it puts each token in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "lex/branch_context.h"
#include "lex/token.h"

namespace gpuport {

enum class Directive : std::uint8_t {
  None,
  Include,  // #include, #include_next, #import: a header name follows
  If,
  Ifdef,
  Ifndef,
  Elif,
  Elifdef,
  Elifndef,
  Else,
  Endif,
  Other,
};

// The directive a name after '#' introduces.
Directive directive_of(std::string_view name);
// #elif, #elifdef, #elifndef, #else and #endif: they belong to the chain of an open #if.
bool continues_chain(Directive directive);

// Open #if levels, each with its chain state and the class of the branch being lexed. Levels
// past k_max_depth are only counted (and neutral).
class ConditionalStack {
 public:
  static constexpr std::size_t k_max_depth = 4096;

  // The class of tokens outside directive lines: Hip inside any HIP-only branch, else
  // CudaDevice inside any CUDA-only branch, else Neutral.
  BranchContext context() const { return context_of(m_hip_levels, m_cuda_levels); }
  // True when a chain is open to continue (#elif/#else/#endif then belong to its level).
  bool in_chain() const { return m_overflow_levels == 0 && !m_levels.empty(); }
  // The class of the levels around the innermost one (needs in_chain()).
  BranchContext context_below_top() const;

  // Applies a finished conditional directive whose '#' is at (line, column); `name` is the
  // directive's name and `condition` the rest of its line. Returns a diagnostic for a stray
  // #elif/#else/#endif or for the first level nested too deep, else nullptr.
  const char* apply(Directive directive, std::string_view name, std::string_view condition,
                    std::uint32_t line, std::uint32_t column);

  // "unterminated #if", at the #if, for every level still open.
  void report_unterminated(std::vector<LexDiagnostic>& out) const;

 private:
  struct Level {
    ConditionalChain chain;
    BranchContext context = BranchContext::Neutral;
    std::uint32_t line = 0;
    std::uint32_t column = 0;
  };

  static BranchContext context_of(std::size_t hip, std::size_t cuda) {
    if (hip > 0) {
      return BranchContext::Hip;
    }
    return cuda > 0 ? BranchContext::CudaDevice : BranchContext::Neutral;
  }
  void push_level(Level level);
  void set_top_context(BranchContext context);

  std::vector<Level> m_levels;
  std::size_t m_hip_levels = 0;
  std::size_t m_cuda_levels = 0;
  std::size_t m_overflow_levels = 0;
};

}  // namespace gpuport
