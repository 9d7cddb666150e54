// Reads a CMake file into BuildFacts: which sources each build compiles, its -D macros, its
// include directories, and where the AMD build is set up.
#pragma once

#include <string_view>
#include <vector>

#include "lex/cmake_commands.h"
#include "scan/project/build_facts.h"

namespace gpuport {

// True when the file sets up an AMD build anywhere (enable_language(HIP), find_package(hip),
// a HIP language property, hip:: or roc:: targets, an `if()` on the HIP switch).
// `commands` are parse_cmake_commands(text).
bool cmake_mentions_amd_build(std::string_view text, const std::vector<CMakeCommand>& commands);

// Evaluates the file's if()/elseif()/else() scopes on both sides (build_switches.h): names of
// backends decide, everything else is unknown. The file's top level is the CUDA build only when
// it sets up CUDA and never mentions HIP and the project has an AMD build elsewhere (a
// ggml-cuda/CMakeLists.txt beside a ggml-hip/ one); another backend's file (MUSA, SYCL) is in
// neither build. Function and macro bodies are not followed (they run where they are called).
void read_cmake_build(std::string_view path, std::string_view text,
                      const std::vector<CMakeCommand>& commands, const BuildContext& context,
                      BuildFacts& out);

}  // namespace gpuport
