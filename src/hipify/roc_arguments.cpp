// The roc libraries' value types at the arguments of roc calls: roc_arguments.inc and its use.
#include "hipify/roc_arguments.h"

#include <algorithm>
#include <string>
#include <type_traits>

#include "hipify/symbol_arguments.h"

namespace gpuport {
namespace {

struct DataTypeRow {
  std::string_view cuda;
  std::string_view roc;
  RocmRelease since;
};

#define A(function, index, type, count, first, last) \
  RocParameter{function, index, type, count, first, last},
#define D(cuda, roc, since)

constexpr RocParameter k_parameters[] = {
#include "hipify/tables/roc_arguments.inc"
};

#undef A
#undef D
#define A(function, index, type, count, first, last)
#define D(cuda, roc, since) DataTypeRow{cuda, roc, since},

constexpr DataTypeRow k_data_types[] = {
#include "hipify/tables/roc_arguments.inc"
};

#undef A
#undef D

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

// `x` and `&x` take a cast as they are; anything longer is parenthesized.
bool needs_parentheses(const TokenStream& ts, const TokenRange& argument) {
  std::size_t first = argument.first;
  if (is_punct(ts, first, "&")) {
    ++first;
  }
  return !(first == argument.last && (ts.tokens[first].kind == TokenKind::Identifier ||
                                      ts.tokens[first].kind == TokenKind::Number));
}

void report(FileTranslation& ft, const SymbolCall& call, std::string_view reason) {
  const Token& callee = ft.ts.tokens[call.token];
  ft.stats.needs_review.push_back({std::string(ft.ts.text(callee)), ft.path, callee.line,
                                   ft.ts.column(callee), call.family, Lifecycle::Current, reason,
                                   0});
}

}  // namespace

std::vector<RocParameter> roc_value_parameters(std::string_view roc_function, RocmRelease target) {
  const RocmRelease release = effective(target);
  auto [begin, end] =
      std::equal_range(std::begin(k_parameters), std::end(k_parameters), roc_function,
                       [](const auto& a, const auto& b) {
                         auto name = [](const auto& x) -> std::string_view {
                           if constexpr (std::is_same_v<std::decay_t<decltype(x)>, RocParameter>) {
                             return x.function;
                           } else {
                             return x;
                           }
                         };
                         return name(a) < name(b);
                       });
  std::vector<RocParameter> out;
  for (auto it = begin; it != end; ++it) {
    if (it->first <= release && release <= it->last) {
      out.push_back(*it);
    }
  }
  return out;
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
  const std::vector<RocParameter> parameters =
      roc_value_parameters(call.roc_function, ft.options.rocm);
  if (parameters.empty()) {
    return;
  }
  const std::vector<TokenRange> parts = split_top_level(ts, match, open, close);
  if (parts.size() != parameters.front().count) {
    return;  // not the call the table describes (a macro supplies arguments, or a typo)
  }
  for (const RocParameter& parameter : parameters) {
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
