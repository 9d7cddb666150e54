// The math libraries' value types at the arguments of their calls: value_types.inc and its use.
#include "hipify/value_types.h"

#include <algorithm>
#include <string>

#include "hipify/symbol_arguments.h"

namespace gpuport {
namespace {

struct DataTypeRow {
  std::string_view cuda;
  std::string_view roc;
  RocmRelease since;
};

#define A(function, index, type, count, first, last) \
  ValueParameter{function, index, type, count, first, last},
#define D(cuda, roc, since)
#define H(cuda, hipblas)

constexpr ValueParameter k_parameters[] = {
#include "hipify/tables/value_types.inc"
};

#undef A
#undef D
#define A(function, index, type, count, first, last)
#define D(cuda, roc, since) DataTypeRow{cuda, roc, since},

constexpr DataTypeRow k_data_types[] = {
#include "hipify/tables/value_types.inc"
};

#undef D
#undef H
#define D(cuda, roc, since)
#define H(cuda, hipblas) DataTypeRow{cuda, hipblas, 0},

constexpr DataTypeRow k_hipblas_5_data_types[] = {
#include "hipify/tables/value_types.inc"
};

#undef A
#undef D
#undef H

// hipblas.h tests HIPBLAS_USE_HIP_HALF from rocm-6.0.2's on; before, hipblasHalf is always
// uint16_t.
constexpr RocmRelease k_hipblas_hip_half_release = 600;

RocmRelease effective(RocmRelease target) {
  return target == 0 ? newest_rocm_release() : target;
}

// The identifier a type names: `const rocblas_float_complex* const*` -> rocblas_float_complex.
std::string_view base_type(std::string_view type) {
  std::string_view rest = type;
  if (rest.starts_with("const ")) {
    rest.remove_prefix(6);
  }
  return rest.substr(0, rest.find_first_of("* "));
}

bool mentions(const TokenStream& ts, const TokenRange& argument, std::string_view word) {
  for (std::size_t i = argument.first; i <= argument.last; ++i) {
    if (ts.tokens[i].kind == TokenKind::Identifier && ts.text(ts.tokens[i]) == word) {
      return true;
    }
  }
  return false;
}

// `x` and `&x` take a cast as they are; anything longer is parenthesized, and so is every
// argument in a macro's body, where `x` may be a parameter that expands to `p + 1`.
bool needs_parentheses(const TokenStream& ts, const TokenRange& argument) {
  if (ts.tokens[argument.first].in_directive()) {
    return true;
  }
  std::size_t first = argument.first;
  if (is_punct(ts, first, "&")) {
    ++first;
  }
  return !(first == argument.last && (ts.tokens[first].kind == TokenKind::Identifier ||
                                      ts.tokens[first].kind == TokenKind::Number));
}

void report(FileTranslation& ft, const SymbolCall& call, std::string_view reason) {
  ft.review(call.token, call.family, Lifecycle::Current, reason);
}

}  // namespace

namespace {

// The first row of `function` (value_types.inc is sorted by function), or the end. Not
// std::ranges::equal_range: clang 15 (the fuzzing build) cannot instantiate libstdc++ 12's
// subrange of it.
const ValueParameter* first_row(std::string_view function) {
  return std::lower_bound(
      std::begin(k_parameters), std::end(k_parameters), function,
      [](const ValueParameter& row, std::string_view name) { return row.function < name; });
}

}  // namespace

std::vector<ValueParameter> value_parameters(std::string_view function, RocmRelease target) {
  const RocmRelease release = effective(target);
  std::vector<ValueParameter> out;
  for (const ValueParameter* it = first_row(function);
       it != std::end(k_parameters) && it->function == function; ++it) {
    if (it->first <= release && release <= it->last) {
      out.push_back(*it);
    }
  }
  return out;
}

bool has_value_parameters(std::string_view function) {
  const ValueParameter* it = first_row(function);
  return it != std::end(k_parameters) && it->function == function;
}

std::string_view hipblas_5_datatype_of(std::string_view cuda_name) {
  for (const DataTypeRow& row : k_hipblas_5_data_types) {
    if (row.cuda == cuda_name) {
      return row.roc;
    }
  }
  return {};
}

std::string_view hipblas_value_type_macro(std::string_view hip_function, RocmRelease target) {
  for (const ValueParameter& parameter : value_parameters(hip_function, target)) {
    const std::string_view type = base_type(parameter.type);
    if (type == "hipblasComplex" || type == "hipblasDoubleComplex") {
      return "hipBLAS before ROCm 6.0 takes hipblasComplex here: define "
             "ROCM_MATHLIBS_API_USE_HIP_COMPLEX (-D, or before hipblas.h) so hipComplex "
             "arguments match";
    }
    if (type == "hipblasHalf") {
      return effective(target) >= k_hipblas_hip_half_release
                 ? "hipBLAS takes hipblasHalf (uint16_t) here: define HIPBLAS_USE_HIP_HALF (-D, "
                   "or before hipblas.h) so __half arguments match"
                 : "hipBLAS before ROCm 6.0 takes hipblasHalf (uint16_t) here: cast the __half "
                   "pointers to hipblasHalf* (same layout)";
    }
  }
  return {};
}

std::string_view rocblas_datatype_of(std::string_view cuda_name, RocmRelease target) {
  for (const DataTypeRow& row : k_data_types) {
    if (row.cuda == cuda_name) {
      return row.since <= effective(target) ? row.roc : std::string_view{};
    }
  }
  return {};
}

void cast_roc_arguments(FileTranslation& ft, const BracketMatch& match, const SymbolCall& call,
                        std::size_t open, std::size_t close) {
  const TokenStream& ts = ft.ts;
  const std::vector<ValueParameter> parameters =
      value_parameters(call.roc_function, ft.options.rocm);
  if (parameters.empty()) {
    return;
  }
  const std::vector<TokenRange> parts = split_top_level(ts, match, open, close);
  if (parts.size() != parameters.front().count) {
    return;  // not the call the table describes (a macro supplies arguments, or a typo)
  }
  for (const ValueParameter& parameter : parameters) {
    if (parts[parameter.index].empty()) {
      return;
    }
    const TokenRange& argument = parts[parameter.index];
    const std::string_view type = base_type(parameter.type);
    if (parameter.type.find('*') == std::string_view::npos) {
      const bool data_type = type == "rocblas_datatype";
      if (data_type && argument.first == argument.last &&
          ts.tokens[argument.first].kind == TokenKind::Identifier &&
          !rocblas_datatype_of(ts.text(ts.tokens[argument.first]), ft.options.rocm).empty()) {
        continue;  // a CUDA data type, renamed where it stands (call_context.cpp)
      }
      if (!mentions(ts, argument, type)) {
        report(ft, call,
               data_type ? "the roc call takes a rocblas_datatype here: pass "
                           "rocblas_datatype_f32_r, ... (a hipDataType holds other numbers)"
                         : "the roc call takes a roc value type by value here (rocblas_bfloat16, "
                           "rocsparse_float_complex): convert the argument");
      }
      continue;
    }
    if (is_null_argument(ts, argument) || mentions(ts, argument, type)) {
      continue;
    }
    if (!boundaries_certain(ts, open + 1, argument.last)) {
      report(ft, call,
             "the roc call takes rocblas_float_complex, rocblas_half, ... here and the argument "
             "could not be delimited: cast it (hipFloatComplex and __half have the same layout)");
      continue;
    }
    const bool parenthesize = needs_parentheses(ts, argument);
    ft.edits.insert(
        ts.tokens[argument.first].offset,
        ft.edits.own("(" + std::string(parameter.type) + ")" + (parenthesize ? "(" : "")));
    if (parenthesize) {
      ft.edits.insert(end_of(ts.tokens[argument.last]), ")");
    }
    ++ft.stats.roc_arguments_cast;
  }
}

}  // namespace gpuport
