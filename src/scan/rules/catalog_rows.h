// The catalog's rows, kept with the detectors of each rule family and merged by catalog.cpp.
#pragma once

#include <span>

#include "scan/rules/catalog.h"

namespace gpuport {

// Rules on C/C++/CUDA source: WARP, ASM, MMA, TYPE, MEM, EXEC, DEV, LIB families.
std::span<const RuleInfo> source_rule_rows();
std::span<const ComponentInfo> source_component_rows();

// Rules on the stack around the code: FW (Python frameworks), BUILD, DEPLOY, ART families.
std::span<const RuleInfo> stack_rule_rows();
std::span<const ComponentInfo> stack_component_rows();

}  // namespace gpuport
