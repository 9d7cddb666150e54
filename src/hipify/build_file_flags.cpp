// In-place translation of nvcc flags written in a build file (a CMake string, a generator
// expression list): token replacements and removals that keep every other byte.
#include <algorithm>

#include "hipify/build_file_editor.h"
#include "hipify/nvcc_flags.h"

namespace gpuport {

namespace {

std::string join(std::span<const std::string> parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    out += i > 0 ? std::string(separator) : std::string();
    out += parts[i];
  }
  return out;
}

std::string join_tokens(std::span<const FlagToken> tokens) {
  std::string out;
  for (const FlagToken& token : tokens) {
    out += out.empty() ? "" : " ";
    out += token.text;
  }
  return out;
}

}  // namespace

std::vector<FlagToken> flag_tokens(std::string_view source, std::size_t begin, std::size_t end,
                                   bool semicolons) {
  auto separator = [semicolons](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || (semicolons && c == ';');
  };
  std::vector<FlagToken> tokens;
  std::size_t i = begin;
  while (i < end) {
    while (i < end && separator(source[i])) {
      ++i;
    }
    const std::size_t start = i;
    while (i < end && !separator(source[i])) {
      ++i;
    }
    if (i > start) {
      tokens.push_back(FlagToken{start, source.substr(start, i - start)});
    }
  }
  return tokens;
}

void edit_nvcc_flags(BuildFileEditor& editor, std::span<const FlagToken> tokens,
                     std::string_view separator, const BuildFileOptions& options,
                     bool& architecture_written) {
  const std::string_view source = editor.source();
  std::vector<std::string_view> texts;
  for (const FlagToken& token : tokens) {
    texts.push_back(token.text);
  }
  auto inline_separator = [](char c) { return c == ' ' || c == '\t' || c == ';'; };
  auto token_end = [&tokens](std::size_t i) { return tokens[i].offset + tokens[i].text.size(); };
  std::vector<std::pair<std::size_t, std::size_t>> removals;  // [begin, end)
  // A removed flag takes the separator before it on its line, or (for the first flag) the one
  // after it, so no doubled or dangling separators remain.
  auto remove = [&](std::size_t i) {
    std::size_t begin = tokens[i].offset;
    std::size_t end = token_end(i);
    std::size_t before = begin;
    while (i > 0 && before > token_end(i - 1) && inline_separator(source[before - 1])) {
      --before;
    }
    if (i > 0 && before < begin) {
      begin = before;
    } else if (i + 1 < tokens.size()) {
      while (end < tokens[i + 1].offset && inline_separator(source[end])) {
        ++end;
      }
    } else {
      while (begin > 0 && (source[begin - 1] == ' ' || source[begin - 1] == '\t')) {
        --begin;  // the only flag: its leading blanks go too
      }
    }
    removals.emplace_back(begin, end);
  };

  std::size_t i = 0;
  while (i < tokens.size()) {
    const FlagTranslation step =
        translate_nvcc_flag(std::span(texts).subspan(i), options.offload_arch);
    const std::size_t consumed =
        std::min(std::max<std::size_t>(1, step.consumed), tokens.size() - i);
    const auto used = tokens.subspan(i, consumed);
    const std::string original = join_tokens(used);
    const bool computed = std::any_of(used.begin(), used.end(), [](const FlagToken& token) {
      return token.text.find('$') != std::string_view::npos;  // ${VAR} or $<...>
    });
    if (computed && step.action != FlagAction::Keep) {
      editor.report(used[0].offset, BuildChange::Manual, original,
                    step.architecture
                        ? "computed architecture: set --offload-arch=" + options.offload_arch
                        : "computed value: translate by hand");
      i += consumed;
      continue;
    }
    switch (step.action) {
      case FlagAction::Keep:
        break;
      case FlagAction::Manual:
        editor.report(used[0].offset, BuildChange::Manual, original, step.note);
        break;
      case FlagAction::Replace:
        if (step.architecture && architecture_written) {
          for (std::size_t j = i; j < i + consumed; ++j) {
            remove(j);
          }
          editor.report(used[0].offset, BuildChange::Rewrite, original,
                        "(removed: one --offload-arch flag names the AMD target)");
          break;
        }
        architecture_written = architecture_written || step.architecture;
        if (step.replacement.empty()) {
          remove(i);
        } else {
          editor.replace(used[0].offset, used[0].text.size(), join(step.replacement, separator));
        }
        for (std::size_t j = i + 1; j < i + consumed; ++j) {
          remove(j);
        }
        editor.report(used[0].offset, BuildChange::Rewrite, original,
                      step.replacement.empty() ? "(removed)" : join(step.replacement, " "));
        break;
      case FlagAction::Drop:
        for (std::size_t j = i; j < i + consumed; ++j) {
          remove(j);
        }
        editor.report(used[0].offset, BuildChange::Rewrite, original,
                      step.architecture ? "(removed: --offload-arch names the AMD target)"
                                        : "(removed: nvcc-only, not needed by HIP-Clang)");
        break;
    }
    i += consumed;
  }
  // Overlapping removals (neighbouring flags) are merged so that none is lost.
  std::sort(removals.begin(), removals.end());
  std::size_t k = 0;
  while (k < removals.size()) {
    auto [begin, end] = removals[k];
    while (++k < removals.size() && removals[k].first <= end) {
      end = std::max(end, removals[k].second);
    }
    editor.remove(begin, end);
  }
}

}  // namespace gpuport
