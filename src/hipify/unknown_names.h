// CUDA-looking names the tables do not know (a newer CUDA's API, a misspelling, a name the
// generator missed), called as functions: reported as "needs review", never passed through
// silently. A name the file itself declares (`#define cudaCheck(x) ...`, `static void
// cudaCheckError(...)`) is the project's own and is not reported.
#pragma once

#include <optional>
#include <string_view>
#include <unordered_set>

#include "hipify/mapping.h"
#include "lex/token.h"

namespace gpuport {

// The family a name's prefix says it belongs to: cudaX (runtime), cuX (driver), cublasX,
// cublasLtX, cusparseX, curandX, cufftX, cusolverX, cudnnX, ncclX, each followed by an upper-case
// letter (cuX: an upper-case then a lower-case letter); nullopt for any other name.
std::optional<ApiFamily> cuda_api_family(std::string_view name);

// Names the file declares itself: the name of each #define, and of each function it declares or
// defines (an identifier followed by `(` and preceded by a type: an identifier, `*`, `&` or `>`).
std::unordered_set<std::string_view> names_declared_in(const TokenStream& ts);

}  // namespace gpuport
