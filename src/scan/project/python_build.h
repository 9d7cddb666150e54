// Reads a Python build script (setup.py, a torch-extension builder) into BuildFacts: the sources
// and -D flags it lists under a ROCm or a CUDA branch.
#pragma once

#include <string_view>

#include "scan/project/build_facts.h"

namespace gpuport {

// A build script is setup.py, or a Python file whose name or folder says setup or build
// (setup_cuda.py, build_ext.py, op_builder/fused_adam.py).
bool is_python_build_script(std::string_view path);

// True when the script branches on ROCm (torch.version.hip, IS_HIP_EXTENSION, ROCM_HOME,
// is_rocm_pytorch(), BUILD_TARGET == "rocm") or hipifies sources.
bool python_mentions_amd_build(std::string_view text);

// Evaluates `if`/`elif`/`else` blocks on both sides from the names in their conditions (a name
// with a hip or rocm segment selects the AMD build; torch.version.cuda, CUDA_HOME and CUDA
// switch names the CUDA build; anything else is unknown). String literals naming a source file
// or a glob of the project (relative to the script's folder or to the root) become source
// references; "-DNAME" literals definitions; folders named on lines that mention "include",
// include directories. f-strings are completed from simple `NAME = "text"` assignments.
void read_python_build(std::string_view path, std::string_view text, const BuildContext& context,
                       const PathLookup& paths, BuildFacts& out);

}  // namespace gpuport
