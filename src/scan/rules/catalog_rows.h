// The catalog's stack rows (catalog_stack.cpp), merged by catalog.cpp with the rows each C/C++
// source family keeps in its own file (source_family.h).
#pragma once

#include <span>

#include "scan/rules/catalog.h"

namespace gpuport {

// Rules on the stack around the code: FW (Python frameworks), BUILD, DEPLOY, ART families.
std::span<const RuleInfo> stack_rule_rows();
std::span<const ComponentInfo> stack_component_rows();

}  // namespace gpuport
