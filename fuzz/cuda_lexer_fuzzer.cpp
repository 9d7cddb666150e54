// libFuzzer target: lexes arbitrary bytes as C/C++/CUDA and aborts on any broken invariant.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "../tests/lex/token_invariants.h"
#include "lex/cuda_lexer.h"
#include "lex/pp_expression.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  static gpuport::TokenStream out;  // reused, as a scan worker does
  gpuport::lex_cuda(source, out);
  std::string problem = gpuport::check_token_invariants(out);
  if (!problem.empty()) {
    std::fprintf(stderr, "invariant violated: %s\n", problem.c_str());
    std::abort();
  }
  for (const gpuport::Token& token : out.tokens) {
    if (static_cast<int>(token.context) > static_cast<int>(gpuport::BranchContext::Dead) ||
        static_cast<int>(token.kind) > static_cast<int>(gpuport::TokenKind::Other)) {
      std::abort();
    }
  }
  // The condition evaluator also sees raw bytes (it is handed directive text).
  const gpuport::PlatformResolver platform;
  gpuport::evaluate_condition(gpuport::Directive::If, source, platform, gpuport::k_all_worlds);
  gpuport::evaluate_condition(gpuport::Directive::Ifndef, source, platform, gpuport::k_all_worlds);
  return 0;
}
