// Identifier and in-comment word renaming.
#include "hipify/identifier_rename.h"

#include <array>

#include "hipify/call_context.h"
#include "hipify/symbol_arguments.h"
#include "hipify/token_walk.h"
#include "hipify/value_types.h"

namespace gpuport {

namespace {

// Families whose names are declared by hip_runtime.h: using one means the file needs it.
bool needs_runtime_header(ApiFamily family) {
  return family == ApiFamily::Runtime || family == ApiFamily::Driver ||
         family == ApiFamily::DeviceFunction || family == ApiFamily::DeviceType;
}

bool is_member_access(const TokenStream& ts, std::size_t before) {
  return is_punct(ts, before, ".") || is_punct(ts, before, "->") || is_punct(ts, before, ".*") ||
         is_punct(ts, before, "->*");
}

// `q::name`: renamed only when q is a CUDA (or already HIP) namespace or another table name, or
// when `::name` is global.
bool qualified_elsewhere(const FileTranslation& ft, std::size_t before) {
  if (!is_punct(ft.ts, before, "::")) {
    return false;
  }
  std::size_t qualifier = prev_code(ft.ts, before);
  if (qualifier == k_no_token) {
    return false;
  }
  const Token& token = ft.ts.tokens[qualifier];
  if (token.kind == TokenKind::Identifier) {
    return !ft.names.is_api_qualifier(ft.ts.text(token));
  }
  // `T<X>::name`, `f()::name`, `a[0]::name`: a class scope, never a CUDA API.
  return is_punct(ft.ts, qualifier, ">") || is_punct(ft.ts, qualifier, ">>") ||
         is_punct(ft.ts, qualifier, ")") || is_punct(ft.ts, qualifier, "]");
}

// A Namespace entry is renamed where it names the namespace: `cub::x`, `using namespace cub`,
// `namespace cub {`, `namespace alias = cub;`.
bool used_as_namespace(const TokenStream& ts, std::size_t index) {
  std::size_t after = next_code(ts, index);
  if (is_punct(ts, after, "::")) {
    return true;
  }
  std::size_t before = prev_code(ts, index);
  if (before != k_no_token && is_punct(ts, before, "=")) {
    std::size_t alias = prev_code(ts, before);
    before = alias != k_no_token && ts.tokens[alias].kind == TokenKind::Identifier
                 ? prev_code(ts, alias)
                 : k_no_token;
  }
  return before != k_no_token && is_identifier(ts, before, "namespace");
}

bool is_word_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_word_char(unsigned char c) {
  return is_word_start(c) || (c >= '0' && c <= '9');
}

// How a call's argument count meets HIP's counterpart: for cuBLAS's legacy names (cublasSgemm's
// handle-less form, 13 arguments, against the handle form's 14: legacy_cublas_arguments) and the
// names whose HIP function takes another number than a current CUDA signature
// (hip_argument_range). Counted, not inferred from the includes: a project header often brings
// cublas.h in.
struct CallShape {
  enum Kind : std::uint8_t {
    Fits,           // rename as the table says (also: not a call, or not countable)
    OtherFunction,  // another HIP function takes this count (cudaGraphInstantiate with 3)
    DropArgument,   // one argument more than HIP's: the one HIP lacks, dropped when null
    LegacyCublas,   // cublas.h's handle-less call: hipBLAS has only the handle API
    Unportable,     // none of these: left as written and reported
  } kind = Fits;
  std::string_view hip;  // OtherFunction: its name
};

CallShape call_shape(const FileTranslation& ft, std::size_t index, const Mapping& entry) {
  if (entry.kind != MappingKind::Function) {
    return {};
  }
  const std::optional<std::size_t> legacy =
      entry.family == ApiFamily::Blas ? legacy_cublas_arguments(entry.cuda) : std::nullopt;
  const std::optional<ArgumentRange> range = hip_argument_range(entry.cuda);
  if (!legacy && !range) {
    return {};
  }
  const std::optional<std::size_t> count = count_arguments(ft.ts, next_code(ft.ts, index));
  if (!count) {
    return {};
  }
  if (legacy && *count == *legacy) {
    return {CallShape::LegacyCublas, {}};
  }
  if (!range || range->contains(*count)) {
    return {};
  }
  if (const std::string_view form = hip_call_form(entry.cuda, *count); !form.empty()) {
    return {CallShape::OtherFunction, form};
  }
  if (dropped_argument_of(entry.cuda) && *count > 0 && range->contains(*count - 1)) {
    return {CallShape::DropArgument, {}};
  }
  return {CallShape::Unportable, {}};
}

}  // namespace

void rename_identifier(FileTranslation& ft, std::size_t index, const Mapping& entry) {
  const TokenStream& ts = ft.ts;
  const Token& token = ts.tokens[index];
  std::size_t before = prev_code(ts, index);
  if (before != k_no_token && (is_member_access(ts, before) || qualified_elsewhere(ft, before))) {
    return;
  }
  if (entry.kind == MappingKind::Namespace && !used_as_namespace(ts, index)) {
    return;
  }
  std::string_view written = ts.text(token);
  std::string_view chosen = contextual_target(ft, index, entry);
  const CallShape shape = call_shape(ft, index, entry);
  if (shape.kind == CallShape::LegacyCublas) {
    ft.review(index, entry.family, entry.lifecycle,
              "a legacy cuBLAS call (cublas.h, no handle): hipBLAS has only the handle API; left "
              "as written, port it to the cublas_v2.h form first");
    return;
  }
  if (shape.kind == CallShape::Unportable) {
    ft.review(index, entry.family, entry.lifecycle,
              "HIP's counterpart takes the arguments of an older CUDA signature and this call "
              "passes another number: left as written; port the call to HIP's signature");
    return;
  }
  if (shape.kind == CallShape::OtherFunction) {
    chosen = shape.hip;
  }
  std::string_view to = ft.record_use(entry, written, token.offset, token.line, true, chosen);
  if (to.empty()) {
    return;
  }
  // hipBLAS's own value types (hipBLAS 5.x's hipblasComplex, hipblasHalf): the macro that makes
  // them HIP's. (Under --roc the arguments are cast to rocBLAS's types instead.)
  if (entry.family == ApiFamily::Blas && to.starts_with("hipblas")) {
    if (const std::string_view why = hipblas_value_type_macro(to, ft.options.rocm); !why.empty()) {
      ft.review(index, entry.family, entry.lifecycle, why);
    }
  }
  // A condition macro (`#if !defined(__CUDACC__)` in a plain C header) is no use of the runtime.
  if (needs_runtime_header(entry.family) && entry.kind != MappingKind::Condition) {
    ft.needs_runtime_header = true;
  }
  if (to != written) {
    ft.edits.replace(token.offset, end_of(token), to);
  }
  if (shape.kind == CallShape::DropArgument) {
    ft.symbol_calls.push_back({index,
                               dropped_argument_of(entry.cuda)->argument,
                               ArgumentWrap::DropNull,
                               {},
                               entry.family});
  }
  if (ft.options.roc && entry.kind == MappingKind::Function && to == entry.roc &&
      has_value_parameters(to)) {
    ft.symbol_calls.push_back({index, 0, ArgumentWrap::RocValueTypes, to, entry.family});
  }
  if (entry.family == ApiFamily::Runtime) {
    if (auto argument = symbol_argument_of(entry.cuda)) {
      ft.symbol_calls.push_back({index, *argument, ArgumentWrap::HipSymbol});
    } else if (auto kernel = kernel_argument_of(entry.cuda)) {
      ft.symbol_calls.push_back({index, *kernel, ArgumentWrap::KernelPointer});
    }
  }
}

void rename_words(FileTranslation& ft, std::size_t index) {
  const Token& token = ft.ts.tokens[index];
  std::string_view text = ft.ts.text(token);
  std::size_t p = 0;
  while (p < text.size()) {
    auto c = static_cast<unsigned char>(text[p]);
    if (!is_word_start(c) || (p > 0 && is_word_char(static_cast<unsigned char>(text[p - 1])))) {
      ++p;
      continue;
    }
    std::size_t end = p + 1;
    while (end < text.size() && is_word_char(static_cast<unsigned char>(text[end]))) {
      ++end;
    }
    std::string_view word = text.substr(p, end - p);
    const Mapping* entry = ft.names.find(word);
    bool namespace_use = entry != nullptr && entry->kind == MappingKind::Namespace;
    if (entry != nullptr && (!namespace_use || text.substr(end, 2) == "::")) {
      std::uint32_t at = token.offset + static_cast<std::uint32_t>(p);
      std::string_view to = ft.record_use(*entry, word, at, 0, false);
      if (!to.empty()) {
        if (to != word) {
          ft.edits.replace(at, at + static_cast<std::uint32_t>(word.size()), to);
        }
      }
    }
    p = end;
  }
}

}  // namespace gpuport
