// The kernel-class rules as data: one ordered table (classify_rules.cpp), first match wins.
// docs/kernel-classes.md describes every row; tests check that each row's example is classified
// by that row.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "profile/classify.h"

namespace gpuport {

// Which form of the name a rule looks at (see KernelName).
enum class RuleField : std::uint8_t { Display, Qualified, Base };

enum class RuleMatch : std::uint8_t {
  Prefix,    // the field starts with one of the `|`-separated alternatives
  Contains,  // the field contains one of them
  Exact,     // the field is one of them
  Glob,      // the field matches one of them whole (`*` any run, `#` one or more digits)
  // The qualified name is one of the alternatives (a wrapper template such as
  // `cutlass::device_kernel`); the kernel belongs to its first template argument: to what another
  // rule says that argument is, else to the argument's outermost namespace (the team's code).
  TemplateOwner,
};

struct ClassRule {
  std::string_view id;  // "blas.cublas-xmma"
  KernelClass klass;
  std::string_view owner;
  RuleField field;
  RuleMatch match;
  std::string_view pattern;
  bool own_code;             // the rule's kernels are user-level code (ggml) or likely the team's
  std::string_view example;  // a name the rule classifies (a real one wherever one was found)
  std::string_view seen_in;  // where that example comes from
};

std::span<const ClassRule> class_rules();

}  // namespace gpuport
