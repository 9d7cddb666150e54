// The state of one file's translation, shared by the passes that rewrite it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hipify/edit_list.h"
#include "hipify/name_index.h"
#include "hipify/translator.h"
#include "lex/token.h"

namespace gpuport {

// A call whose argument `argument` gets wrapped: HIP_SYMBOL(sym) for the symbol APIs, or
// reinterpret_cast<const void*>(kernel) for the APIs HIP declares with `const void*`; or
// dropped, when HIP's form lacks the argument and the call passes null (DropNull); or a roc
// call whose arguments get the roc value types (RocValueTypes, value_types.h).
enum class ArgumentWrap : std::uint8_t { HipSymbol, KernelPointer, DropNull, RocValueTypes };

struct SymbolCall {
  std::size_t token = 0;
  std::size_t argument = 0;
  ArgumentWrap wrap = ArgumentWrap::HipSymbol;
  std::string_view roc_function = {};  // RocValueTypes: the roc function called
  ApiFamily family = ApiFamily::Runtime;
};

class FileTranslation {
 public:
  FileTranslation(const std::string& path, const TokenStream& tokens, const NameIndex& names,
                  const TranslateOptions& options, TranslationStats& stats)
      : path(path), ts(tokens), names(names), options(options), stats(stats) {}

  // The name an entry translates to under the options (roc or hip); empty when unsupported.
  std::string_view target(const Mapping& entry) const;
  // Records one use of a table entry; returns its target (empty: left as written, reported).
  // A word in a comment or string (`in_code` false) is counted but never reported.
  // `line` is the 1-based line of `offset` when the caller knows it (0: look it up).
  // `chosen` replaces the table's target when the call context decides it (call_context.h).
  std::string_view record_use(const Mapping& entry, std::string_view written, std::uint32_t offset,
                              std::uint32_t line, bool in_code = true,
                              std::string_view chosen = {});
  // Records the use at token `index` (its text, line and column) as needing review for `why`
  // (static text).
  void review(std::size_t index, ApiFamily family, Lifecycle lifecycle, std::string_view why);
  // Fills stats.converted_by_name from the counts gathered so far.
  void finish_stats();

  const std::string& path;
  const TokenStream& ts;
  const NameIndex& names;
  const TranslateOptions& options;
  TranslationStats& stats;
  EditList edits;
  bool needs_runtime_header = false;  // kernel code or runtime API names outside HIP branches
  std::vector<std::size_t> launches;  // LaunchOpen tokens to rewrite (LaunchSyntax::Hip)
  std::vector<SymbolCall> symbol_calls;

 private:
  // One per conversion (entry, target); counted in finish_stats().
  std::vector<std::pair<const Mapping*, std::string_view>> m_converted;
};

}  // namespace gpuport
