// CUDA in a PyTorch setup.py -> ROCm. On ROCm builds of PyTorch, CUDAExtension/BuildExtension
// hipify the sources and compile them with hipcc, passing the 'nvcc' flags on; so the extension
// classes stay, and what changes is nvcc-only flags, architecture flags and CUDA paths.
#include <algorithm>

#include "hipify/build_file_editor.h"
#include "hipify/nvcc_flags.h"

namespace gpuport {

namespace {

enum class PyKind : std::uint8_t { String, Identifier, Punct, Other };

struct PyToken {
  PyKind kind = PyKind::Other;
  std::size_t offset = 0;
  std::size_t length = 0;
  std::size_t content_offset = 0;  // strings: between the quotes
  std::size_t content_length = 0;
  bool plain = false;  // a single-quoted, non-f, non-bytes string: safe to edit
  std::size_t end() const { return offset + length; }
};

bool is_identifier_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool is_identifier_char(char c) {
  return is_identifier_start(c) || (c >= '0' && c <= '9');
}

bool is_string_prefix(std::string_view word) {
  const std::string lower = lower_ascii(word);
  return lower == "r" || lower == "u" || lower == "b" || lower == "f" || lower == "br" ||
         lower == "rb" || lower == "fr" || lower == "rf";
}

std::vector<PyToken> tokenize_python(std::string_view s) {
  std::vector<PyToken> tokens;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '#') {
      const std::size_t newline = s.find('\n', i);
      i = newline == std::string_view::npos ? s.size() : newline;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\\') {
      ++i;
      continue;
    }
    std::size_t start = i;
    std::string_view prefix;
    if (is_identifier_start(c)) {
      while (i < s.size() && is_identifier_char(s[i])) {
        ++i;
      }
      prefix = s.substr(start, i - start);
      if (i >= s.size() || (s[i] != '\'' && s[i] != '"') || !is_string_prefix(prefix)) {
        tokens.push_back(PyToken{PyKind::Identifier, start, i - start});
        continue;
      }
    }
    if (i < s.size() && (s[i] == '\'' || s[i] == '"')) {
      const char quote = s[i];
      const bool triple = s.substr(i).starts_with(std::string(3, quote));
      const std::size_t open = triple ? 3 : 1;
      PyToken token{PyKind::String, start, 0, i + open, 0};
      std::size_t j = i + open;
      while (j < s.size()) {
        if (s[j] == '\\') {
          j += 2;
        } else if (triple ? s.substr(j).starts_with(std::string(3, quote)) : s[j] == quote) {
          break;
        } else if (!triple && s[j] == '\n') {
          break;  // unterminated: ends with the line
        } else {
          ++j;
        }
      }
      j = std::min(j, s.size());
      token.content_length = j - token.content_offset;
      const bool closed = j < s.size() && s[j] == quote;
      i = closed ? j + open : j;
      token.length = i - start;
      const std::string lower = lower_ascii(prefix);
      token.plain = closed && !triple && lower.find('f') == std::string::npos &&
                    lower.find('b') == std::string::npos;
      tokens.push_back(token);
      continue;
    }
    const bool augmented = (c == '+') && i + 1 < s.size() && s[i + 1] == '=';
    tokens.push_back(PyToken{augmented ? PyKind::Punct : PyKind::Other, i, augmented ? 2u : 1u});
    if (c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}' || c == ':' ||
        c == ',' || c == '=' || c == '.') {
      tokens.back().kind = PyKind::Punct;
    }
    i += augmented ? 2 : 1;
  }
  return tokens;
}

class SetupPyRewriter {
 public:
  SetupPyRewriter(std::string_view source, const BuildFileOptions& options)
      : m_source(source), m_options(options), m_editor(source), m_tokens(tokenize_python(source)) {}

  BuildFileResult run() && {
    for (std::size_t i = 0; i < m_tokens.size(); ++i) {
      const PyToken& token = m_tokens[i];
      if (token.kind == PyKind::Identifier) {
        identifier(i);
      } else if (token.kind == PyKind::String) {
        string(i);
      }
    }
    std::sort(m_flag_regions.begin(), m_flag_regions.end());
    std::size_t done = 0;
    for (auto [begin, end] : m_flag_regions) {
      if (begin >= done) {  // a region inside one already done is not done twice
        rewrite_flags(begin, end);
        done = end;
      }
    }
    rename_sources();
    apply_removals();
    return std::move(m_editor).finish(BuildFileKind::SetupPy);
  }

 private:
  std::string_view text(const PyToken& token) const {
    return m_source.substr(token.offset, token.length);
  }
  std::string_view content(const PyToken& token) const {
    return m_source.substr(token.content_offset, token.content_length);
  }
  bool punct(std::size_t i, std::string_view what) const {
    return i < m_tokens.size() && m_tokens[i].kind == PyKind::Punct && text(m_tokens[i]) == what;
  }

  // Token index one past the bracket that closes the one at `open`.
  std::size_t closing(std::size_t open) const {
    int depth = 0;
    for (std::size_t i = open; i < m_tokens.size(); ++i) {
      const std::string_view t = text(m_tokens[i]);
      if (m_tokens[i].kind != PyKind::Punct) {
        continue;
      }
      depth += (t == "(" || t == "[" || t == "{") ? 1 : 0;
      depth -= (t == ")" || t == "]" || t == "}") ? 1 : 0;
      if (depth == 0) {
        return i + 1;
      }
    }
    return m_tokens.size();
  }

  void identifier(std::size_t i) {
    const std::string_view word = text(m_tokens[i]);
    if (word == "CUDAExtension" && punct(i + 1, "(")) {
      m_editor.report(m_tokens[i].offset, BuildChange::Note, "CUDAExtension",
                      "keep it: on ROCm PyTorch it hipifies the sources and builds with hipcc");
    } else if (word == "CUDA_HOME") {
      m_editor.report(m_tokens[i].offset, BuildChange::Manual, "CUDA_HOME",
                      "ROCM_HOME (torch.utils.cpp_extension.ROCM_HOME) on ROCm");
    }
    const std::string lower = lower_ascii(word);
    if (lower.find("nvcc") == std::string::npos && lower != "extra_cuda_cflags") {
      return;
    }
    // nvcc_flags = [...], nvcc_flags += [...], extra_cuda_cflags=[...], nvcc_flags.append(...)
    std::size_t next = i + 1;
    if (punct(next, "=") || punct(next, "+=")) {
      ++next;
    } else if (punct(next, ".") && next + 2 < m_tokens.size() &&
               m_tokens[next + 1].kind == PyKind::Identifier) {
      next += 2;
    } else {
      return;
    }
    if (punct(next, "[") || punct(next, "(")) {
      m_flag_regions.emplace_back(next, closing(next));
    }
  }

  void string(std::size_t i) {
    const PyToken& token = m_tokens[i];
    const std::string_view value = content(token);
    if (value == "nvcc" && punct(i + 1, ":")) {
      m_editor.report(token.offset, BuildChange::Note, "'nvcc' compile args",
                      "ROCm PyTorch passes them to hipcc; nvcc-only flags are translated here");
      if (punct(i + 2, "[") || punct(i + 2, "(")) {
        m_flag_regions.emplace_back(i + 2, closing(i + 2));
      }
    }
    if (value.find("TORCH_CUDA_ARCH_LIST") != std::string_view::npos) {
      m_editor.report(token.offset, BuildChange::Manual, "TORCH_CUDA_ARCH_LIST",
                      "ROCm PyTorch reads PYTORCH_ROCM_ARCH (e.g. " + m_options.offload_arch + ")");
    }
    if (!token.plain && (value.find("compute_") != std::string_view::npos ||
                         value.find("sm_") != std::string_view::npos)) {
      m_editor.report(token.offset, BuildChange::Manual, std::string(text(token)),
                      "build --offload-arch=" + m_options.offload_arch + " instead");
    }
    if (token.plain && value.ends_with(".cu") && m_options.rename_sources) {
      m_cu_strings.push_back(i);  // renamed once the flag lists are known
    }
  }

  // "kernels.cu" -> "kernels.hip" in source lists (a string in a flag list is a flag).
  void rename_sources() {
    for (std::size_t i : m_cu_strings) {
      const bool in_flags =
          std::any_of(m_flag_regions.begin(), m_flag_regions.end(),
                      [i](const auto& region) { return i >= region.first && i < region.second; });
      if (in_flags) {
        continue;
      }
      const PyToken& token = m_tokens[i];
      const std::string_view value = content(token);
      const std::string renamed = std::string(value.substr(0, value.size() - 3)) + ".hip";
      m_editor.replace(token.content_offset + value.size() - 3, 3, ".hip");
      m_editor.report(token.offset, BuildChange::Rewrite, std::string(value), renamed);
    }
  }

  struct Piece {
    std::size_t token = 0;  // index into m_tokens
    FlagToken flag;
    bool whole = false;   // the flag is the string's entire content: a list element
    bool opaque = false;  // an f-string or a name: its value is only known at build time
  };

  void rewrite_flags(std::size_t begin, std::size_t end) {
    std::vector<Piece> pieces;
    for (std::size_t i = begin; i < end; ++i) {
      const PyToken& token = m_tokens[i];
      if ((token.kind == PyKind::String && !token.plain) || token.kind == PyKind::Identifier) {
        pieces.push_back(Piece{i, FlagToken{token.offset, text(token)}, false, true});
        continue;
      }
      if (token.kind != PyKind::String) {
        continue;
      }
      const auto flags = flag_tokens(m_source, token.content_offset,
                                     token.content_offset + token.content_length, false);
      for (const FlagToken& flag : flags) {
        pieces.push_back(Piece{i, flag, flags.size() == 1 && flag.text == content(token)});
      }
    }
    std::vector<std::string_view> texts;
    for (const Piece& piece : pieces) {
      texts.push_back(piece.flag.text);
    }
    bool architecture_written = false;
    std::size_t i = 0;
    while (i < pieces.size()) {
      const FlagTranslation step =
          translate_nvcc_flag(std::span(texts).subspan(i), m_options.offload_arch);
      const std::size_t consumed =
          std::min(std::max<std::size_t>(1, step.consumed), pieces.size() - i);
      std::string original;
      for (std::size_t j = i; j < i + consumed; ++j) {
        original += (j > i ? " " : "") + std::string(texts[j]);
      }
      const std::size_t at = pieces[i].flag.offset;
      const bool redundant = step.architecture && architecture_written;
      const bool computed = std::any_of(pieces.begin() + static_cast<std::ptrdiff_t>(i),
                                        pieces.begin() + static_cast<std::ptrdiff_t>(i + consumed),
                                        [](const Piece& piece) { return piece.opaque; });
      if (computed) {
        if (step.action != FlagAction::Keep && !pieces[i].opaque) {
          m_editor.report(at, BuildChange::Manual, original,
                          step.architecture ? "computed architecture: build --offload-arch=" +
                                                  m_options.offload_arch + " instead"
                                            : "computed value: translate by hand");
        }
      } else if (step.action == FlagAction::Manual) {
        m_editor.report(at, BuildChange::Manual, original, step.note);
      } else if (step.action == FlagAction::Drop || redundant ||
                 (step.action == FlagAction::Replace && step.replacement.empty())) {
        for (std::size_t j = i; j < i + consumed; ++j) {
          remove(pieces[j]);
        }
        m_editor.report(at, BuildChange::Rewrite, original,
                        step.architecture ? "(removed: one --offload-arch names the AMD target)"
                                          : "(removed: nvcc-only, not needed by HIP-Clang)");
      } else if (step.action == FlagAction::Replace) {
        architecture_written = architecture_written || step.architecture;
        replace(pieces[i], step.replacement);
        for (std::size_t j = i + 1; j < i + consumed; ++j) {
          remove(pieces[j]);
        }
        std::string hip;
        for (const std::string& flag : step.replacement) {
          hip += (hip.empty() ? "" : " ") + flag;
        }
        m_editor.report(at, BuildChange::Rewrite, original, hip);
      }
      i += consumed;
    }
  }

  void replace(const Piece& piece, const std::vector<std::string>& flags) {
    const PyToken& token = m_tokens[piece.token];
    if (!piece.whole || flags.size() == 1) {
      std::string joined;
      for (const std::string& flag : flags) {
        joined += (joined.empty() ? "" : " ") + flag;
      }
      m_editor.replace(piece.flag.offset, piece.flag.text.size(), joined);
      return;
    }
    // Several flags for one list element: one quoted element each.
    const char quote = m_source[token.content_offset - 1];
    std::string elements;
    for (const std::string& flag : flags) {
      elements += (elements.empty() ? "" : ", ") + std::string(1, quote) + flag + quote;
    }
    m_editor.replace(token.content_offset - 1, token.content_length + 2, elements);
  }

  void remove(const Piece& piece) {
    if (!piece.whole) {
      std::size_t begin = piece.flag.offset;
      while (begin > m_tokens[piece.token].content_offset && m_source[begin - 1] == ' ') {
        --begin;
      }
      m_removals.emplace_back(begin, piece.flag.offset + piece.flag.text.size());
      return;
    }
    // A whole list element: the string and its comma; the separator before it when it is not
    // the first on its line.
    const PyToken& token = m_tokens[piece.token];
    std::size_t begin = token.offset;
    std::size_t end = token.end();
    std::size_t after = end;
    while (after < m_source.size() && (m_source[after] == ' ' || m_source[after] == '\t')) {
      ++after;
    }
    if (after < m_source.size() && m_source[after] == ',') {
      end = after + 1;
    }
    std::size_t before = begin;
    while (before > 0 && (m_source[before - 1] == ' ' || m_source[before - 1] == '\t')) {
      --before;
    }
    if (before > 0 && m_source[before - 1] == ',') {
      begin = before;
    } else {
      while (end < m_source.size() && (m_source[end] == ' ' || m_source[end] == '\t')) {
        ++end;
      }
    }
    m_removals.emplace_back(begin, end);
  }

  // Merges overlapping removals; a removal that ends the list takes the comma before it.
  void apply_removals() {
    std::sort(m_removals.begin(), m_removals.end());
    std::size_t k = 0;
    while (k < m_removals.size()) {
      auto [begin, end] = m_removals[k];
      while (++k < m_removals.size() && m_removals[k].first <= end) {
        end = std::max(end, m_removals[k].second);
      }
      std::size_t after = end;
      while (after < m_source.size() && (m_source[after] == ' ' || m_source[after] == '\t')) {
        ++after;
      }
      const bool closes =
          after < m_source.size() && (m_source[after] == ']' || m_source[after] == ')');
      if (closes && begin > 0 && m_source[begin - 1] == ',') {
        --begin;
      }
      m_editor.remove(begin, end);
    }
  }

  std::string_view m_source;
  const BuildFileOptions& m_options;
  BuildFileEditor m_editor;
  std::vector<PyToken> m_tokens;
  std::vector<std::pair<std::size_t, std::size_t>> m_flag_regions;  // token ranges
  std::vector<std::pair<std::size_t, std::size_t>> m_removals;      // byte ranges
  std::vector<std::size_t> m_cu_strings;                            // token indices
};

}  // namespace

BuildFileResult analyze_setup_py(std::string_view source, const BuildFileOptions& options) {
  return SetupPyRewriter(source, options).run();
}

}  // namespace gpuport
