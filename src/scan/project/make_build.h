// Reads a Makefile into BuildFacts: sources and -D flags under ifeq/ifdef blocks that select a
// ROCm or a CUDA build.
#pragma once

#include <string_view>

#include "scan/project/build_facts.h"

namespace gpuport {

// Makefile, makefile, GNUmakefile, *.mk.
bool is_makefile(std::string_view path);

// True when the Makefile builds for AMD somewhere (hipcc, ROCM_PATH, --offload-arch, or a
// conditional on a HIP switch).
bool make_mentions_amd_build(std::string_view text);

// Conditionals (`ifdef USE_ROCM`, `ifeq ($(BACKEND),rocm)`, `else`, `endif`) are evaluated on
// both sides like CMake's; words naming a source of the project become source references,
// -DNAME words definitions; `hipcc` and `nvcc` mark where each build is set up.
void read_make_build(std::string_view path, std::string_view text, const BuildContext& context,
                     const PathLookup& paths, BuildFacts& out);

}  // namespace gpuport
