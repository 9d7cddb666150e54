#include "hipify/call_context.h"

#include <algorithm>
#include <array>

#include "hipify/token_walk.h"
#include "hipify/value_types.h"

namespace gpuport {
namespace {

// A statement-sized look-back: arguments further than this from their call are not searched.
constexpr std::size_t k_max_look_back = 512;

struct SolverEnum {
  std::string_view cublas;
  std::string_view hipsolver;
};

// cuSOLVER's cuBLAS-typed enums and their hipSOLVER names (hipSOLVER API reference, "Types":
// hipsolverOperation_t, hipsolverFillMode_t, hipsolverSideMode_t).
constexpr std::array<SolverEnum, 7> k_solver_enums{{
    {"CUBLAS_OP_N", "HIPSOLVER_OP_N"},
    {"CUBLAS_OP_T", "HIPSOLVER_OP_T"},
    {"CUBLAS_OP_C", "HIPSOLVER_OP_C"},
    {"CUBLAS_FILL_MODE_UPPER", "HIPSOLVER_FILL_MODE_UPPER"},
    {"CUBLAS_FILL_MODE_LOWER", "HIPSOLVER_FILL_MODE_LOWER"},
    {"CUBLAS_SIDE_LEFT", "HIPSOLVER_SIDE_LEFT"},
    {"CUBLAS_SIDE_RIGHT", "HIPSOLVER_SIDE_RIGHT"},
}};

std::string_view solver_spelling(std::string_view cublas_name) {
  for (const SolverEnum& pair : k_solver_enums) {
    if (pair.cublas == cublas_name) {
      return pair.hipsolver;
    }
  }
  return {};
}

bool is_solver_call(std::string_view callee) {
  return callee.starts_with("cusolver") || callee.starts_with("hipsolver");
}

}  // namespace

std::size_t enclosing_call(const TokenStream& ts, std::size_t index) {
  if (index >= ts.tokens.size()) {
    return k_no_token;  // k_no_token itself, from a failed look-up
  }
  std::size_t depth = 0;
  std::size_t i = index;
  for (std::size_t steps = 0; steps < k_max_look_back; ++steps) {
    i = prev_code(ts, i);
    if (i == k_no_token) {
      return k_no_token;
    }
    const Token& token = ts.tokens[i];
    if (token.kind == TokenKind::DirectiveStart || token.kind == TokenKind::DirectiveEnd) {
      return k_no_token;
    }
    if (token.kind != TokenKind::Punct) {
      continue;
    }
    std::string_view text = ts.text(token);
    if (text == ")" || text == "]") {
      ++depth;
    } else if (text == "(" || text == "[") {
      if (depth == 0) {
        if (text == "[") {
          return k_no_token;
        }
        std::size_t callee = prev_code(ts, i);
        if (callee != k_no_token && ts.tokens[callee].kind == TokenKind::Identifier) {
          return callee;
        }
        continue;  // a grouping `(x + y)`: the call, if any, is further out
      }
      --depth;
    } else if (depth == 0 && (text == ";" || text == "{" || text == "}")) {
      return k_no_token;
    }
  }
  return k_no_token;
}

namespace {

// Whether the token at `index` is an argument of a cuBLAS call that becomes a roc function
// taking rocblas_datatype (rocblas_axpy_ex, ...).
bool in_call_taking_rocblas_datatype(const FileTranslation& ft, std::size_t index) {
  const std::size_t callee = enclosing_call(ft.ts, index);
  if (callee == k_no_token) {
    return false;
  }
  const Mapping* call = ft.names.find(ft.ts.text(ft.ts.tokens[callee]));
  if (call == nullptr || call->roc.empty() || call->kind != MappingKind::Function) {
    return false;
  }
  const std::vector<ValueParameter> parameters = value_parameters(call->roc, ft.options.rocm);
  return std::any_of(parameters.begin(), parameters.end(), [](const ValueParameter& parameter) {
    return parameter.type == "rocblas_datatype";
  });
}

}  // namespace

std::string_view contextual_target(const FileTranslation& ft, std::size_t index,
                                   const Mapping& entry) {
  if (entry.kind != MappingKind::Constant) {
    return {};
  }
  const RocmRelease target = ft.options.rocm;
  if (ft.options.roc && (entry.family == ApiFamily::Runtime || entry.family == ApiFamily::Blas)) {
    if (const std::string_view roc_type = rocblas_datatype_of(entry.cuda, target);
        !roc_type.empty() && in_call_taking_rocblas_datatype(ft, index)) {
      return roc_type;
    }
  }
  if (target != 0 && target < k_hipblas_v2_api_release &&
      (entry.family == ApiFamily::Runtime || entry.family == ApiFamily::Blas)) {
    const std::string_view hipblas = hipblas_5_datatype_of(entry.cuda);
    const std::size_t callee = hipblas.empty() ? k_no_token : enclosing_call(ft.ts, index);
    const std::string_view name =
        callee == k_no_token ? std::string_view{} : ft.ts.text(ft.ts.tokens[callee]);
    const Mapping* call = name.starts_with("cublas") ? ft.names.find(name) : nullptr;
    // Under --roc, a call that becomes rocblas_* takes rocBLAS's types, not hipBLAS's.
    if (call != nullptr && !(ft.options.roc && !call->roc.empty())) {
      return hipblas;
    }
  }
  if (entry.support == Support::Unsupported || entry.family != ApiFamily::Blas) {
    return {};
  }
  const std::size_t callee_token = enclosing_call(ft.ts, index);
  if (callee_token == k_no_token) {
    return {};
  }
  std::string_view callee = ft.ts.text(ft.ts.tokens[callee_token]);
  if (is_solver_call(callee)) {
    return solver_spelling(entry.cuda);
  }
  if (ft.options.roc && !entry.roc.empty()) {
    const Mapping* call = ft.names.find(callee);
    if (call != nullptr && call->kind == MappingKind::Function && call->roc.empty() &&
        !call->hip.empty()) {
      return entry.hip;
    }
  }
  return {};
}

}  // namespace gpuport
