// The preprocessor view of a C/C++/CUDA file: which of its #if branches the CUDA build and the
// AMD build compile, with the project's own macros followed through its headers.
#pragma once

#include <cstddef>
#include <string_view>

#include "lex/pp_directives.h"
#include "lex/pp_expression.h"
#include "lex/pp_macros.h"
#include "lex/pp_memo.h"
#include "lex/token.h"

namespace gpuport {

// Finds the headers a file includes. The scan implements it over the project's files (include
// paths resolved against the file's folder, the build's include directories, then a unique
// match of the path's tail) and caches each header's skeleton for the whole scan.
class IncludeSource {
 public:
  virtual ~IncludeSource() = default;
  // The skeleton of `target` included from the file at `from` (a path relative to the scan
  // root); nullptr when it is not a file of the project (a system or toolkit header).
  virtual const HeaderSkeleton* find(std::string_view from, const IncludeTarget& target) = 0;
  // Where header walks are recorded and replayed across files; none when null.
  virtual HeaderMemo* memo() { return nullptr; }
  // Whether some project file has this file name (an #include that find() could not resolve
  // may still mean one of them).
  virtual bool names_project_file(std::string_view file_name) const {
    (void)file_name;
    return false;
  }
};

struct PreprocessorSetup {
  std::string_view path;                 // the file, relative to the scan root
  const ProjectMacros* build = nullptr;  // -D flags of the CUDA and AMD builds; none when null
  IncludeSource* includes = nullptr;     // headers are not followed when null
  std::size_t max_include_depth = 64;    // a deeper chain is cut, with a warning
  std::size_t max_directives = 100000;   // directives walked for one file, headers included
  ExpressionLimits limits;
};

// Walks the directives `lex_cuda` recorded in `stream` as a preprocessor would, in every world
// at once (pp_worlds.h), and fills `stream.regions`; sets each token's context and the
// k_token_off_path flag, drops the anchors of dead code, sets first_hip_token, and adds the
// diagnostics of unbalanced conditionals and of include chains it had to cut. Never fails:
// what it cannot decide is unknown.
void resolve_branches(TokenStream& stream, const PreprocessorSetup& setup);

// The definition the AMD build gives `name` once `stream`'s walk ended (that of the first AMD
// world defining it), or nullptr: what a rule reads to learn that a project's header redefines
// a CUDA name for AMD (`#define __shfl_xor_sync(mask, v, m, w) __shfl_xor(v, m, w)`) or what a
// mask macro is worth there. Valid until the walking thread's next walk.
const MacroDefinition* amd_definition_at_end(const TokenStream& stream, std::string_view name);

// The context a region's reach gives its code: Hip when only AMD worlds may compile it,
// CudaDevice when only non-AMD worlds may, Dead when none may, else Neutral.
BranchContext context_of_reach(WorldMask may_true);

}  // namespace gpuport
