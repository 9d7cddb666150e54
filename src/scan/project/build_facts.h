// What a project's build files say about its CUDA and AMD builds: which sources each compiles,
// which macros each defines, where headers are searched, and where the AMD build is set up.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lex/pp_expression.h"

namespace gpuport {

// A build scope's truth on the two sides, as a TruthMask over two "worlds": the CUDA build
// (bit 0) and the AMD build (bit 1). True on a side: every configuration of that build runs
// the scope; false: none does; unknown: it depends on an option.
inline constexpr WorldMask k_side_cuda = 1;
inline constexpr WorldMask k_side_amd = 2;
inline constexpr WorldMask k_both_sides = 3;

// A line of a build file that decides something, for reports: "CMakeLists.txt:262".
struct BuildLine {
  std::string file;  // relative to the scan root
  std::uint32_t line = 0;
  std::string text;  // the command or statement, trimmed ("enable_language(HIP)")
};

// A source (or a glob of sources) a build compiles.
struct SourceReference {
  std::string pattern;     // relative to the scan root; may hold * ? [...] (a glob)
  bool recursive = false;  // a recursive glob: `*` also matches '/'
  TruthMask truth;         // on which sides it is compiled
  BuildLine where;
  // When the AMD side leaves it out: a sibling branch of the deciding `if` (or another build
  // file) compiles other sources for AMD, so the source is replaced there, not missing.
  bool amd_alternative = false;
};

// -DNAME[=value] set by a build file in a scope.
struct BuildDefinition {
  std::string name;
  std::string value = "1";
  bool unknown_value = false;  // the value is a variable
  TruthMask truth;
  BuildLine where;
};

// Lines of a build file under one if-branch (or the whole file), with where each build runs
// them: a finding on a CMake line inside `if(BUILD_CUDA)` is left out of the AMD build.
struct ScopeRange {
  std::string file;
  std::uint32_t first_line = 1;
  std::uint32_t last_line = UINT32_MAX;
  TruthMask truth;
  std::uint32_t guard_line = 0;  // the if/elseif that decides it (the if, for an else)
  bool amd_alternative = false;  // a sibling branch runs in the AMD build
};

struct BuildFacts {
  std::vector<SourceReference> sources;
  std::vector<BuildDefinition> definitions;
  std::vector<std::string> include_dirs;  // relative to the scan root
  std::vector<BuildLine> amd_setup;       // where the AMD build is set up (enable_language(HIP))
  std::vector<BuildLine> cuda_setup;      // where the CUDA build is set up
  std::vector<BuildLine> amd_switches;    // the option or variable that selects the AMD build
  std::vector<ScopeRange> scopes;
};

// Which files and folders the project holds (root-relative paths), for readers that must tell
// a source path from other strings.
class PathLookup {
 public:
  virtual ~PathLookup() = default;
  virtual bool has_file(std::string_view path) const = 0;
  virtual bool has_folder(std::string_view path) const = 0;
};

// What a reader needs to know of the whole project.
struct BuildContext {
  // Some build file sets up an AMD build; then a CUDA switch (BUILD_CUDA, GGML_CUDA) is off
  // in the AMD build. Without one, the AMD build is the port of the CUDA build, and takes
  // everything the CUDA build does.
  bool amd_build_exists = false;
};

}  // namespace gpuport
