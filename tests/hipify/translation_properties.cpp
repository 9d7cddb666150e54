// Byte-level alignment of a source with its translation: every difference must be explained by
// one of the edits the translator is allowed to make.
#include "translation_properties.h"

#include <algorithm>
#include <vector>

#include "hipify/symbol_arguments.h"
#include "hipify/value_types.h"
#include "lex/cuda_lexer.h"

namespace gpuport::testing {

namespace {

constexpr std::string_view k_runtime_line = "#include <hip/hip_runtime.h>";
constexpr std::string_view k_symbol_open = "HIP_SYMBOL(";
constexpr std::string_view k_kernel_pointer_open = "reinterpret_cast<const void*>(";

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string_view target_of(const Mapping& entry, const TranslateOptions& options) {
  if (entry.support == Support::Unsupported) {
    return {};
  }
  return options.roc && !entry.roc.empty() ? entry.roc : entry.hip;
}

std::string excerpt(std::string_view text, std::size_t at) {
  std::size_t begin = at > 20 ? at - 20 : 0;
  std::string out(text.substr(begin, 60));
  std::replace(out.begin(), out.end(), '\n', '|');
  return out;
}

class Aligner {
 public:
  Aligner(std::string_view input, std::string_view output, const MappingTable& table,
          const TranslateOptions& options)
      : m_in(input), m_out(output), m_table(table), m_options(options) {
    lex_cuda(input, m_tokens);
  }

  std::string run() {
    std::size_t p = 0;
    std::size_t q = 0;
    while (p < m_in.size() || q < m_out.size()) {
      if (p < m_in.size() && q < m_out.size() && m_in[p] == m_out[q]) {
        ++p;
        ++q;
        continue;
      }
      if (!explain(p, q)) {
        return "unexplained difference at input byte " + std::to_string(p) + " [" +
               excerpt(m_in, p) + "] / output byte " + std::to_string(q) + " [" +
               excerpt(m_out, q) + "]";
      }
    }
    return m_open_symbols == 0 ? std::string() : "an argument wrapper without its )";
  }

 private:
  // Tries every start `s` the difference at (p, q) may have begun at: the starts of the tokens
  // (and of words inside comments) around p on its line, and the line start.
  bool explain(std::size_t& p, std::size_t& q) {
    if (q < m_out.size() && m_out[q] == ')' && m_open_symbols > 0) {
      --m_open_symbols;
      ++q;
      return true;
    }
    std::vector<std::size_t> starts;
    std::size_t line_start = p;
    while (line_start > 0 && m_in[line_start - 1] != '\n') {
      --line_start;
    }
    for (const Token& token : m_tokens.tokens) {
      if (token.offset >= line_start && token.offset <= p) {
        starts.push_back(token.offset);
      }
      bool words = m_options.translate_comments &&
                   (token.kind == TokenKind::Comment || token.kind == TokenKind::String);
      if (words && token.offset <= p && token.offset + token.length >= p) {
        for (std::size_t w = token.offset; w <= p && w < token.offset + token.length; ++w) {
          if (is_word_char(m_in[w]) && (w == token.offset || !is_word_char(m_in[w - 1]))) {
            starts.push_back(w);
          }
        }
      }
    }
    starts.push_back(line_start);
    std::sort(starts.begin(), starts.end(), std::greater<>());
    for (std::size_t s : starts) {
      std::size_t qs = q - (p - s);
      if (qs > q) {
        continue;
      }
      // Most specific first: a removed line or a rename cannot be mistaken for the others.
      if (try_removed_line(s, qs, p, q) || try_rename(s, qs, p, q) || try_insertion(s, qs, p, q) ||
          try_symbol(s, qs, p, q) || try_roc_cast(s, qs, p, q) || try_dropped_macro(s, qs, p, q) ||
          try_dropped_argument(s, qs, p, q)) {
        return true;
      }
    }
    return false;
  }

  bool try_insertion(std::size_t s, std::size_t qs, std::size_t& p, std::size_t& q) {
    if (m_inserted) {
      return false;
    }
    std::string_view rest = m_out.substr(qs);
    std::size_t skip = 0;
    if (rest.starts_with("\r\n")) {
      skip = 2;
    } else if (rest.starts_with("\n")) {
      skip = 1;
    }
    for (std::size_t lead : {std::size_t{0}, skip}) {
      std::string_view line = rest.substr(lead);
      if (!line.starts_with(k_runtime_line)) {
        continue;
      }
      std::string_view after = line.substr(k_runtime_line.size());
      std::size_t eol = after.starts_with("\r\n") ? 2 : after.starts_with("\n") ? 1 : 0;
      if (eol == 0) {
        continue;
      }
      m_inserted = true;
      p = s;
      q = qs + lead + k_runtime_line.size() + eol;
      return true;
    }
    return false;
  }

  // `CUDART_CB ` dropped (HIP has no calling-convention macro for callbacks).
  bool try_dropped_macro(std::size_t s, std::size_t qs, std::size_t& p, std::size_t& q) {
    constexpr std::string_view k_dropped = "CUDART_CB";
    if (!m_in.substr(s).starts_with(k_dropped)) {
      return false;
    }
    p = s + k_dropped.size() + (m_in.substr(s + k_dropped.size()).starts_with(" ") ? 1 : 0);
    q = qs;
    return true;
  }

  // `, NULL` (or nullptr, 0) dropped from a call on the same line whose HIP form lacks the
  // argument (dropped_argument_of): the occupancy calls' shared-memory callback.
  bool try_dropped_argument(std::size_t s, std::size_t qs, std::size_t& p, std::size_t& q) {
    std::size_t line_start = m_in.rfind('\n', s);
    line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
    const bool call_on_line =
        std::any_of(m_tokens.tokens.begin(), m_tokens.tokens.end(), [&](const Token& token) {
          return token.kind == TokenKind::Identifier && token.offset >= line_start &&
                 token.offset < s && dropped_argument_of(m_tokens.text(token)).has_value();
        });
    if (!call_on_line || !m_in.substr(s).starts_with(",")) {
      return false;
    }
    std::size_t at = s + 1;
    while (at < m_in.size() && m_in[at] == ' ') {
      ++at;
    }
    for (const std::string_view null : {"NULL", "nullptr", "0"}) {
      if (m_in.substr(at).starts_with(null) &&
          (at + null.size() >= m_in.size() || !is_word_char(m_in[at + null.size()]))) {
        p = at + null.size();
        q = qs;
        return true;
      }
    }
    return false;
  }

  // An argument wrapped: HIP_SYMBOL(sym) or reinterpret_cast<const void*>(kernel).
  bool try_symbol(std::size_t s, std::size_t qs, std::size_t& p, std::size_t& q) {
    for (const std::string_view open : {k_symbol_open, k_kernel_pointer_open}) {
      if (!m_out.substr(qs).starts_with(open) || m_in.substr(s).starts_with(open)) {
        continue;
      }
      ++m_open_symbols;
      p = s;
      q = qs + open.size();
      return true;
    }
    return false;
  }

  // A cast to a roc value type, `(const rocblas_float_complex*)x` or `(T)(expr)`, of an argument
  // of a call (within a statement's reach before it) whose roc form takes that type there.
  bool try_roc_cast(std::size_t s, std::size_t qs, std::size_t& p, std::size_t& q) {
    if (!m_options.roc || !m_out.substr(qs).starts_with("(")) {
      return false;
    }
    constexpr std::size_t k_reach = 2048;
    for (const Token& token : m_tokens.tokens) {
      if (token.offset > s) {
        break;
      }
      if (token.kind != TokenKind::Identifier || token.offset + k_reach < s) {
        continue;
      }
      const Mapping* entry = m_table.find(m_tokens.text(token));
      if (entry == nullptr || entry->roc.empty()) {
        continue;
      }
      for (const ValueParameter& parameter : value_parameters(entry->roc, m_options.rocm)) {
        const std::string cast = "(" + std::string(parameter.type) + ")";
        if (!m_out.substr(qs).starts_with(cast)) {
          continue;
        }
        p = s;
        q = qs + cast.size();
        // Only a parenthesized argument is followed by `(`: `x` and `&x` are cast as they are.
        if (m_out.substr(q).starts_with("(")) {
          ++m_open_symbols;
          ++q;
        }
        return true;
      }
    }
    return false;
  }

  bool try_rename(std::size_t s, std::size_t qs, std::size_t& p, std::size_t& q) {
    for (const Token& token : m_tokens.tokens) {
      if (token.offset > s) {
        break;
      }
      std::uint32_t end = token.offset + token.length;
      if (end < s) {
        continue;
      }
      std::string_view text = m_tokens.text(token);
      std::string_view written;
      std::string expected;
      if (token.kind == TokenKind::Identifier && token.offset == s) {
        const Mapping* entry = m_table.find(text);
        if (entry == nullptr || target_of(*entry, m_options).empty()) {
          continue;
        }
        written = text;
        expected = target_of(*entry, m_options);
        // A call whose argument count picks another HIP function (cudaGraphInstantiate with 3
        // arguments -> hipGraphInstantiateWithFlags).
        for (std::size_t count = 0; count <= 16; ++count) {
          const std::string_view form = hip_call_form(text, count);
          if (!form.empty() && m_out.substr(qs).starts_with(form)) {
            expected = form;
          }
        }
        // A CUDA data type passed to a roc call taking rocblas_datatype (call_context.h).
        if (const std::string_view roc_type = rocblas_datatype_of(text, m_options.rocm);
            m_options.roc && !roc_type.empty() && m_out.substr(qs).starts_with(roc_type)) {
          expected = roc_type;
        }
        // A cuBLAS enum's spelling depends on the call it is passed to (call_context.h): the
        // hip* name inside a call that has no roc* form, the hipSOLVER name in a cusolver call.
        if (entry->family == ApiFamily::Blas && entry->kind == MappingKind::Constant) {
          for (std::string alternative :
               {std::string(entry->hip), "HIPSOLVER_" + std::string(text.substr(7))}) {
            if (!m_out.substr(qs).starts_with(expected) &&
                m_out.substr(qs).starts_with(alternative)) {
              expected = alternative;
            }
          }
        }
      } else if (token.kind == TokenKind::HeaderName && token.offset == s) {
        const Mapping* entry = m_table.find_header(text.substr(1, text.size() - 2));
        if (entry == nullptr || target_of(*entry, m_options).empty()) {
          continue;
        }
        written = text;
        expected = text.front() + std::string(target_of(*entry, m_options)) + text.back();
      } else if (m_options.translate_comments &&
                 (token.kind == TokenKind::Comment || token.kind == TokenKind::String) &&
                 s > token.offset && s < end && !is_word_char(m_in[s - 1])) {
        std::size_t word_end = s;
        while (word_end < end && is_word_char(m_in[word_end])) {
          ++word_end;
        }
        written = m_in.substr(s, word_end - s);
        const Mapping* entry = m_table.find(written);
        if (entry == nullptr || target_of(*entry, m_options).empty()) {
          continue;
        }
        expected = target_of(*entry, m_options);
      } else {
        continue;
      }
      if (written == expected || !m_out.substr(qs).starts_with(expected)) {
        continue;
      }
      p = s + written.size();
      q = qs + expected.size();
      return true;
    }
    return false;
  }

  // A whole `#include` line of a header the output already included above.
  bool try_removed_line(std::size_t s, std::size_t qs, std::size_t& p, std::size_t& q) {
    if (s > 0 && m_in[s - 1] != '\n') {
      return false;
    }
    std::size_t eol = m_in.find('\n', s);
    std::size_t end = eol == std::string_view::npos ? m_in.size() : eol + 1;
    std::string_view line = m_in.substr(s, end - s);
    std::size_t hash = line.find_first_not_of(" \t");
    if (hash == std::string_view::npos || !line.substr(hash).starts_with("#")) {
      return false;
    }
    std::size_t open = line.find_first_of("<\"");
    std::size_t close = open == std::string_view::npos ? open : line.find_first_of(">\"", open + 1);
    if (close == std::string_view::npos || line.find("include") == std::string_view::npos) {
      return false;
    }
    std::string_view path = line.substr(open + 1, close - open - 1);
    if (const Mapping* entry = m_table.find_header(path)) {
      if (!target_of(*entry, m_options).empty()) {
        path = target_of(*entry, m_options);
      }
    }
    std::string_view before = m_out.substr(0, qs);
    bool included = before.find("<" + std::string(path) + ">") != std::string_view::npos ||
                    before.find("\"" + std::string(path) + "\"") != std::string_view::npos;
    if (!included) {
      return false;
    }
    p = end;
    q = qs;
    return true;
  }

  std::string_view m_in;
  std::string_view m_out;
  const MappingTable& m_table;
  const TranslateOptions& m_options;
  TokenStream m_tokens;
  bool m_inserted = false;
  std::size_t m_open_symbols = 0;
};

}  // namespace

std::string unexplained_difference(std::string_view input, std::string_view output,
                                   const MappingTable& table, const TranslateOptions& options) {
  return Aligner(input, output, table, options).run();
}

std::string idempotence_failure(const std::string& path, const std::string& output,
                                const MappingTable& table, const TranslateOptions& options) {
  TranslationResult again = translate_cuda(path, output, table, options);
  if (again.output == output && !again.changed) {
    return {};
  }
  std::size_t at = 0;
  while (at < output.size() && at < again.output.size() && output[at] == again.output[at]) {
    ++at;
  }
  return "second translation differs at byte " + std::to_string(at) + ": [" + excerpt(output, at) +
         "] became [" + excerpt(again.output, at) + "]";
}

}  // namespace gpuport::testing
