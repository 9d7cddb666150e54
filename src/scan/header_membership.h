// Headers the AMD build never compiles: build files list sources, not headers, so a header's
// membership comes from the files that include it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "scan/scan_result.h"

namespace gpuport {

// One C/C++/CUDA file of a scan, as the header pass sees it.
struct IncluderFile {
  std::string_view path;
  bool named_by_build = false;               // some build file lists it: its own membership decides
  const ExcludedSource* excluded = nullptr;  // set when the AMD build leaves it out
  // The project headers it includes where the AMD build may compile the #include, and the file
  // names of such #includes that name a project file but were not resolved.
  const std::vector<std::string>* includes = nullptr;
  const std::vector<std::string>* unresolved = nullptr;
};

// The files no build file lists whose every includer is left out of the AMD build (directly,
// or in turn through its own includers), each with the first includer as `via` and its build
// line as `where`; `alternative` when every includer has one. Never guessed: a file nobody
// includes, or whose name an unresolved #include of a file the AMD build may compile could
// mean, is not left out. `files` in any order; the result is sorted by path.
std::vector<ExcludedSource> headers_left_out(const std::vector<IncluderFile>& files);

}  // namespace gpuport
