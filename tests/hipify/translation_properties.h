// Property checks for translations: what may differ between a source and its translation.
#pragma once

#include <string>
#include <string_view>

#include "hipify/mapping.h"
#include "hipify/translator.h"

namespace gpuport::testing {

// Empty when `output` differs from `input` only by edits the translator may make with
// LaunchSyntax::Keep: identifiers, include paths (and, with translate_comments, words in comments
// and strings) replaced by their table targets, one added `#include <hip/hip_runtime.h>` line,
// removed #include lines of a header already included above, and HIP_SYMBOL( ... ) around an
// argument. Otherwise a description of the first difference no such edit explains.
std::string unexplained_difference(std::string_view input, std::string_view output,
                                   const MappingTable& table, const TranslateOptions& options);

// Empty when translating `output` again gives `output`; else where the second pass differs.
std::string idempotence_failure(const std::string& path, const std::string& output,
                                const MappingTable& table, const TranslateOptions& options);

}  // namespace gpuport::testing
