#include "hipify/unknown_names.h"

#include <array>
#include <utility>

#include "hipify/token_walk.h"

namespace gpuport {

namespace {

bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}

bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}

// Words before a call that are not a type: `return cudaFoo(x)` calls, it does not declare.
bool is_expression_keyword(std::string_view word) {
  return word == "return" || word == "else" || word == "case" || word == "throw" ||
         word == "co_return" || word == "co_await" || word == "new" || word == "delete" ||
         word == "sizeof" || word == "decltype" || word == "do" || word == "typeid";
}

}  // namespace

std::optional<ApiFamily> cuda_api_family(std::string_view name) {
  // Called for every identifier the tables do not know: most leave at the first letter.
  if (name.size() < 4 || (name[0] != 'c' && name[0] != 'n')) {
    return std::nullopt;
  }
  static constexpr std::array<std::pair<std::string_view, ApiFamily>, 10> k_prefixes{{
      {"cublasLt", ApiFamily::BlasLt},
      {"cublas", ApiFamily::Blas},
      {"cusparse", ApiFamily::Sparse},
      {"curand", ApiFamily::Rand},
      {"cufft", ApiFamily::Fft},
      {"cusolver", ApiFamily::Solver},
      {"cudnn", ApiFamily::Dnn},
      {"nccl", ApiFamily::Nccl},
      {"cuda", ApiFamily::Runtime},
      {"cu", ApiFamily::Driver},
  }};
  for (const auto& [prefix, family] : k_prefixes) {
    if (name.size() <= prefix.size() + 1 || !name.starts_with(prefix) ||
        !is_upper(name[prefix.size()])) {
      continue;
    }
    // cuX: an upper-case letter then a lower-case one (cuMemAlloc), not CUDA-style acronyms a
    // project might use (cuBLAS, cuDNN in its own names).
    if (family == ApiFamily::Driver && !is_lower(name[prefix.size() + 1])) {
      return std::nullopt;
    }
    return family;
  }
  return std::nullopt;
}

std::unordered_set<std::string_view> names_declared_in(const TokenStream& ts) {
  std::unordered_set<std::string_view> declared;
  const std::size_t size = ts.tokens.size();
  for (std::size_t i = 0; i < size; ++i) {
    const Token& token = ts.tokens[i];
    if (token.kind == TokenKind::DirectiveStart) {
      const std::string_view name = directive_name(ts.text(token));
      const std::size_t next = next_code(ts, i);
      if ((name == "define" || name == "undef") && next < size &&
          ts.tokens[next].kind == TokenKind::Identifier) {
        declared.insert(ts.text(ts.tokens[next]));
      }
      continue;
    }
    if (token.kind != TokenKind::Identifier || !is_punct(ts, next_code(ts, i), "(")) {
      continue;
    }
    const std::size_t before = prev_code(ts, i);
    if (before == k_no_token) {
      continue;
    }
    const Token& previous = ts.tokens[before];
    const bool type_before =
        (previous.kind == TokenKind::Identifier && !is_expression_keyword(ts.text(previous))) ||
        is_punct(ts, before, "*") || is_punct(ts, before, "&") || is_punct(ts, before, ">");
    if (type_before) {
      declared.insert(ts.text(token));
    }
  }
  return declared;
}

}  // namespace gpuport
