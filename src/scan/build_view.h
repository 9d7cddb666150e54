// Gives every item of a file's analysis (findings, kernels, launches) its AMD-build state and
// its scope: the one place the preprocessor view and the build model reach the rules' output.
#pragma once

#include <string_view>

#include "lex/token.h"
#include "scan/file_analysis.h"
#include "scan/project/build_model.h"
#include "scan/project/scope.h"

namespace gpuport {

// C/C++/CUDA: each item takes the state of the preprocessor region holding its line; a source
// the build leaves out (`membership`, may be null) makes every item excluded, and is recorded
// in out.excluded. The #if lines that exclude items are copied into out.guards.
void stamp_source_items(std::string_view path, const TokenStream& tokens,
                        const FileMembership* membership, FileAnalysis& out);

// Build files (CMake, build scripts): each finding takes the state of its line's if-branch;
// `text` is the file, for the guard lines' text.
void stamp_build_file_items(std::string_view path, std::string_view text, const BuildModel& model,
                            FileAnalysis& out);

// Every item of the file gets `scope`.
void stamp_scope(Scope scope, FileAnalysis& out);

}  // namespace gpuport
