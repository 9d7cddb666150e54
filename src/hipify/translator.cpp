// translate_cuda: lex once, one pass over the tokens that renames and records, then the include,
// launch and HIP_SYMBOL passes, then one copy of the source with the edits applied.
//
// Choices worth knowing:
// * Code in a HIP-only #if branch (#ifdef __HIP_PLATFORM_AMD__, USE_ROCM, ...) is already HIP:
//   it is left byte for byte and counts nothing (no conversion, no unsupported use). A shim like
//   `#define cudaMalloc hipMalloc` there must not become `#define hipMalloc hipMalloc`.
// * Every other branch is translated, CUDA-only ones included: we lex, there is no preprocessor.
// * #if / #ifdef / #elif conditions keep their names (`__CUDA_ARCH__ >= 800` has no HIP
//   spelling with the same values), except the table's condition macros (MappingKind::
//   Condition): `__CUDACC__` becomes `__HIPCC__`, and the include guards helper headers test
//   (`__DRIVER_TYPES_H__`) become HIP's, so that code written for nvcc's helpers is compiled
//   by hipcc. A condition that names a HIP or ROCm macro is dual-path code, and one that names a
//   macro only nvcc defines (`__CUDACC_VER_MAJOR__`) would change meaning: both stay as they are.
//   Translating the output again changes nothing: a renamed condition selects a HIP branch,
//   whose code was translated already.
#include "hipify/translator.h"

#include <memory>
#include <optional>
#include <tuple>
#include <unordered_set>

#include "hipify/file_translation.h"
#include "hipify/identifier_rename.h"
#include "hipify/include_fixup.h"
#include "hipify/launch_rewrite.h"
#include "hipify/name_index.h"
#include "hipify/symbol_arguments.h"
#include "hipify/token_walk.h"
#include "hipify/unknown_names.h"
#include "lex/cuda_lexer.h"
#include "scan/file_analysis.h"
#include "scan/rules/catalog.h"
#include "scan/rules/other_backends.h"
#include "scan/rules/shim_define.h"
#include "scan/suppression.h"

namespace gpuport {

namespace {

// Kernel code: the file needs hip_runtime.h. The shortest keyword is 10 bytes.
bool is_kernel_keyword(std::string_view text) {
  if (text.size() < 10 || text[0] != '_' || text[1] != '_') {
    return false;
  }
  return text == "__global__" || text == "__device__" || text == "__shared__" ||
         text == "__constant__";
}

bool is_condition(std::string_view name) {
  return name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" ||
         name == "elifdef" || name == "elifndef";
}

// Whether the condition starting at `start` must stay as written: it names a HIP or ROCm macro
// (`__HIP_PLATFORM_AMD__`, `USE_ROCM`, `GGML_USE_HIP`: written for both paths), or a macro
// only nvcc defines (`__CUDACC_VER_MAJOR__`, `__CUDA_ARCH__`, `__NVCC__`, `CUDA_VERSION`), with
// which `defined(__CUDACC__) && __CUDACC_VER_MAJOR__ <= 11` would turn true under hipcc.
bool keeps_its_condition(const TokenStream& ts, std::size_t start) {
  for (std::size_t j = start + 1;
       j < ts.tokens.size() && ts.tokens[j].kind != TokenKind::DirectiveEnd; ++j) {
    if (ts.tokens[j].kind != TokenKind::Identifier) {
      continue;
    }
    const std::string_view text = ts.text(ts.tokens[j]);
    const bool hip =
        text.find("HIP") != std::string_view::npos || text.find("ROCM") != std::string_view::npos ||
        text.find("hip") != std::string_view::npos || text.find("rocm") != std::string_view::npos;
    const bool nvcc_only = (text.starts_with("__CUDACC_") && text != "__CUDACC__") ||
                           text.starts_with("__CUDA_ARCH") || text == "__NVCC__" ||
                           text == "CUDA_VERSION" || text == "CUDART_VERSION";
    if (hip || nvcc_only) {
      return true;
    }
  }
  return false;
}

// Lines as the scanner counts them; the lexer already recorded every line start.
std::uint64_t count_lines(const TokenStream& tokens) {
  std::string_view source = tokens.source;
  if (source.empty()) {
    return 0;
  }
  return tokens.line_starts.size() - (source.back() == '\n' ? 1 : 0);
}

// CUDA-looking names the tables do not know, called as functions: each call a "needs review"
// entry, unless the file declares the name itself. The file's declarations are collected at
// the first candidate.
class UnknownNames {
 public:
  void check(FileTranslation& ft, std::size_t index, std::string_view text) {
    const std::optional<ApiFamily> family = cuda_api_family(text);
    if (!family) {
      return;
    }
    const TokenStream& ts = ft.ts;
    // Calls only: the project's variables and classes borrow the prefixes too (`cudaGraph`,
    // `cublasLtWrapper`), an API of a newer CUDA is mostly functions.
    if (!is_punct(ts, next_code(ts, index), "(")) {
      return;
    }
    const std::size_t before = prev_code(ts, index);
    if (is_punct(ts, before, ".") || is_punct(ts, before, "->") || is_punct(ts, before, "::")) {
      return;  // a member, or a name in a namespace of the project's
    }
    if (!m_declared) {
      m_declared = names_declared_in(ts);
    }
    if (m_declared->contains(text)) {
      return;
    }
    ft.review(index, *family, Lifecycle::Current,
              "a CUDA-looking name the tables do not know (a newer CUDA's API?): left as written; "
              "port it by hand, or rename it if it is the project's own");
  }

 private:
  std::optional<std::unordered_set<std::string_view>> m_declared;
};

void token_pass(FileTranslation& ft, IncludeFixup& includes) {
  const TokenStream& ts = ft.ts;
  const bool comments = ft.options.translate_comments;
  const bool hip_launches = ft.options.launch_syntax == LaunchSyntax::Hip;
  bool in_condition = false;
  bool dual_path_condition = false;  // a condition that names a HIP macro: left as written
  // The name a #define or #undef names is the project's, not a use: `#define cudaX hipX` and
  // `#ifndef CUDART_PI_F / #define CUDART_PI_F ...` keep it, as conditions keep theirs.
  bool macro_name_next = false;
  UnknownNames unknown;
  for (std::size_t i = 0; i < ts.tokens.size(); ++i) {
    const Token& token = ts.tokens[i];
    switch (token.kind) {
      case TokenKind::Identifier: {
        if (macro_name_next) {
          macro_name_next = false;
          break;
        }
        if (token.context == BranchContext::Hip) {
          break;
        }
        std::string_view text = ts.text(token);
        // CUDA's calling-convention macro for callbacks (`void CUDART_CB done(...)`): empty
        // on Linux, __stdcall on Windows; HIP has none, so it goes with one following space.
        if (!in_condition && text == "CUDART_CB") {
          std::uint32_t end = end_of(token);
          if (end < ts.source.size() && ts.source[end] == ' ') {
            ++end;
          }
          ft.edits.replace(token.offset, end, "");
          break;
        }
        if (in_condition) {
          const Mapping* entry = dual_path_condition || !ft.names.might_contain(text)
                                     ? nullptr
                                     : ft.names.table().find(text);
          if (entry != nullptr && entry->kind == MappingKind::Condition) {
            rename_identifier(ft, i, *entry);
          }
          break;
        }
        if (!ft.names.might_contain(text)) {
          if (!ft.needs_runtime_header && is_kernel_keyword(text)) {
            ft.needs_runtime_header = true;
          }
          unknown.check(ft, i, text);
          break;
        }
        if (is_kernel_keyword(text)) {
          ft.needs_runtime_header = true;
        }
        if (const Mapping* entry = ft.names.table().find(text);
            entry != nullptr && entry->kind != MappingKind::Condition) {
          rename_identifier(ft, i, *entry);
        } else if (entry == nullptr) {
          unknown.check(ft, i, text);
        }
        break;
      }
      case TokenKind::DirectiveStart: {
        std::string_view name = directive_name(ts.text(token));
        in_condition = is_condition(name);
        dual_path_condition = in_condition && keeps_its_condition(ts, i);
        macro_name_next = name == "define" || name == "undef";
        includes.on_directive(i, name);
        break;
      }
      case TokenKind::DirectiveEnd:
        in_condition = false;
        macro_name_next = false;
        break;
      case TokenKind::LaunchOpen:
        if (token.context != BranchContext::Hip) {
          ft.needs_runtime_header = true;
          if (hip_launches) {
            ft.launches.push_back(i);
          }
        }
        break;
      case TokenKind::Comment:
      case TokenKind::String:
        if (comments && token.context != BranchContext::Hip) {
          rename_words(ft, i);
        }
        break;
      default:
        break;
    }
  }
}

// The scan's rule catalog over the same tokens: one implementation of every warning.
void add_warnings(const std::string& path, std::string_view source, const TokenStream& tokens,
                  TranslationResult& result) {
  FileAnalysis analysis;
  if (holds_nvidia_binary(path, source)) {
    analyze_embedded_binary(path, source, analysis);
  } else {
    analyze_cuda(path, tokens, analysis);
  }
  apply_suppressions(source, analysis.findings);
  const auto catalog = rule_catalog();
  for (Finding& finding : analysis.findings) {
    const bool resolved =
        finding.rule < catalog.size() && resolved_by_translation(catalog[finding.rule].id);
    (resolved ? result.resolved : result.warnings).push_back(std::move(finding));
  }
}

}  // namespace

std::string_view kept_as_is_name(KeptAsIs kept) {
  switch (kept) {
    case KeptAsIs::OtherBackend:
      return "other_backend";
    case KeptAsIs::HipShim:
      return "hip_shim";
    case KeptAsIs::No:
      break;
  }
  return "";
}

bool resolved_by_translation(std::string_view rule_id) {
  return rule_id == "GP-EXEC-011" || rule_id == "GP-MEM-007" || rule_id == "GP-TYPE-002" ||
         rule_id == "GP-TYPE-003";
}

TranslationResult translate_cuda(const std::string& path, std::string_view source,
                                 const MappingTable& table, const TranslateOptions& options) {
  // One token buffer per thread, reused: memory follows the largest file, not the tree.
  thread_local TokenStream tokens;
  lex_cuda(source, tokens);

  TranslationResult result;
  // SYCL, Ascend C, MUSA, Metal, Vulkan or OpenCL code is not CUDA (the scan's GP-BACKEND-001
  // says why); a project's own CUDA-to-HIP shim header (`#define cudaMalloc hipMalloc`, three or
  // more) is the AMD path itself: renaming its CUDA names would define HIP names as themselves
  // (`#define HIPBLAS_OP_N HIPBLAS_OP_N`). Both are copied as they are.
  const bool other_backend = !other_backend_of(tokens).name.empty();
  if (other_backend || count_shim_defines(tokens) >= k_shim_header_defines) {
    result.kept_as_is = other_backend ? KeptAsIs::OtherBackend : KeptAsIs::HipShim;
    result.stats.lines = count_lines(tokens);
    result.output.assign(source);
    result.diagnostics = tokens.diagnostics;
    if (options.warnings) {
      add_warnings(path, source, tokens, result);
    }
    tokens.clear();
    return result;
  }
  std::unique_ptr<NameIndex> index_storage;
  const NameIndex& names = name_index_for(table, index_storage);
  FileTranslation ft(path, tokens, names, options, result.stats);
  IncludeFixup includes(ft);
  token_pass(ft, includes);
  includes.finish();
  if (!ft.launches.empty() || !ft.symbol_calls.empty()) {
    BracketMatch match(tokens);
    rewrite_launches(ft, match);
    wrap_symbol_arguments(ft, match);
  }
  ft.finish_stats();

  result.stats.lines = count_lines(tokens);
  if (ft.edits.empty()) {
    result.output.assign(source);
  } else {
    result.output = ft.edits.apply(tokens, result.stats.changed_lines);
  }
  result.changed = !ft.edits.empty();
  result.diagnostics = tokens.diagnostics;
  if (options.warnings) {
    add_warnings(path, source, tokens, result);
  }
  tokens.clear();
  return result;
}

void merge_stats(TranslationStats& into, const TranslationStats& from) {
  into.converted += from.converted;
  into.kept += from.kept;
  for (std::size_t i = 0; i < k_api_family_count; ++i) {
    into.kept_by_family[i] += from.kept_by_family[i];
  }
  for (std::size_t i = 0; i < k_api_family_count; ++i) {
    into.converted_by_family[i] += from.converted_by_family[i];
  }
  std::vector<ConversionCount> merged;
  merged.reserve(into.converted_by_name.size() + from.converted_by_name.size());
  auto key = [](const ConversionCount& c) { return std::tie(c.cuda, c.hip); };
  auto a = into.converted_by_name.begin();
  auto b = from.converted_by_name.begin();
  while (a != into.converted_by_name.end() || b != from.converted_by_name.end()) {
    if (b == from.converted_by_name.end() ||
        (a != into.converted_by_name.end() && key(*a) < key(*b))) {
      merged.push_back(std::move(*a++));
    } else if (a == into.converted_by_name.end() || key(*b) < key(*a)) {
      merged.push_back(*b++);
    } else {
      merged.push_back(std::move(*a++));
      merged.back().count += (b++)->count;
    }
  }
  into.converted_by_name = std::move(merged);
  into.unsupported.insert(into.unsupported.end(), from.unsupported.begin(), from.unsupported.end());
  into.needs_review.insert(into.needs_review.end(), from.needs_review.begin(),
                           from.needs_review.end());
  into.deprecated_uses += from.deprecated_uses;
  into.lines += from.lines;
  into.changed_lines += from.changed_lines;
  into.launches_rewritten += from.launches_rewritten;
  into.launches_not_rewritten += from.launches_not_rewritten;
  into.symbol_arguments_wrapped += from.symbol_arguments_wrapped;
  into.kernel_arguments_cast += from.kernel_arguments_cast;
  into.roc_arguments_cast += from.roc_arguments_cast;
  into.arguments_dropped += from.arguments_dropped;
  into.hip_deprecated_uses += from.hip_deprecated_uses;
  into.includes_added += from.includes_added;
  into.includes_removed += from.includes_removed;
}

}  // namespace gpuport
