// Precompiled NVIDIA artifacts: engine/cubin/PTX/fatbin files by extension, and C/C++ sources
// that are byte-array dumps of GPU binaries (detected cheaply, counted, never lexed).
#include <algorithm>
#include <string>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "scan/file_analysis.h"
#include "scan/rules/stack_rules.h"
#include "source/ascii_text.h"

namespace gpuport {

namespace {

constexpr std::size_t k_probe_bytes = 4096;
// Smaller files are ordinary sources even when they hold a table: a cubin is kilobytes of
// binary, so its text dump is tens of kilobytes at least.
constexpr std::size_t k_min_embedded_size = 16 * 1024;
// 64-bit words (`0x00100001ba55ed50ull, `) fit about 170 in the 4 KiB probed.
constexpr std::size_t k_min_literals = 128;
// Where the data array's '{' is looked for: past license headers and nested namespaces.
constexpr std::size_t k_array_search_bytes = 64 * 1024;

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_ident(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

struct Density {
  std::size_t literal_bytes = 0;  // bytes of numeric literals and commas
  std::size_t other_bytes = 0;    // every other non-blank byte
  std::size_t literals = 0;
  std::size_t first_literal = std::string_view::npos;  // offset in the window
};

// `stop_when_sparse`: give up (the result is then not dense()) once non-literal bytes are more
// than 40% of the window, since literals could no longer reach 60% of the non-blank bytes.
Density measure(std::string_view window, bool stop_when_sparse = false) {
  Density d;
  std::size_t i = 0;
  const std::size_t sparse_limit = window.size() * 2 / 5;
  while (i < window.size()) {
    if (stop_when_sparse && d.other_bytes > sparse_limit) {
      break;
    }
    const char c = window[i];
    if (is_blank(c)) {
      ++i;
    } else if (c == ',') {
      ++d.literal_bytes;
      ++i;
    } else if (is_digit(c) && (i == 0 || !is_ident(window[i - 1]))) {
      std::size_t j = i + 1;
      if (c == '0' && j < window.size() && (window[j] == 'x' || window[j] == 'X')) {
        ++j;
        while (j < window.size() && is_hex(window[j])) {
          ++j;
        }
      } else {
        while (j < window.size() && is_digit(window[j])) {
          ++j;
        }
      }
      while (j < window.size() && (window[j] == 'u' || window[j] == 'U')) {
        ++j;
      }
      if (d.first_literal == std::string_view::npos) {
        d.first_literal = i;
      }
      d.literal_bytes += j - i;
      ++d.literals;
      i = j;
    } else {
      ++d.other_bytes;
      ++i;
    }
  }
  return d;
}

// Whether a byte can be part of what measure() counts as literal bytes: a digit, a hex letter,
// 'x', 'u' (either case) or a comma.
bool maybe_literal_byte(unsigned char c) {
  const auto folded = static_cast<unsigned char>(c | 0x20);
  return static_cast<unsigned char>(c - '0') < 10 || static_cast<unsigned char>(folded - 'a') < 6 ||
         folded == 'x' || folded == 'u' || c == ',';
}

// True when measure(window) cannot be dense(): the bytes a literal or a comma can consist of
// bound literal_bytes from above, and the other non-blank bytes bound other_bytes from below.
// 16 bytes at a time, where measure() steps byte by byte; most C/C++ files end here.
bool cannot_be_dense(std::string_view window) {
  std::size_t maybe_literal = 0;
  std::size_t other = 0;
  const char* p = window.data();
  const char* const end = p + window.size();
#if defined(__SSE2__)
  auto range = [](__m128i x, char low, int count) {  // low <= x < low + count, unsigned
    const __m128i shifted = _mm_add_epi8(x, _mm_set1_epi8(static_cast<char>(-low - 128)));
    return _mm_cmplt_epi8(shifted, _mm_set1_epi8(static_cast<char>(count - 128)));
  };
  auto equal = [](__m128i x, char c) { return _mm_cmpeq_epi8(x, _mm_set1_epi8(c)); };
  for (; end - p >= 16; p += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i folded = _mm_or_si128(x, _mm_set1_epi8(0x20));
    const __m128i literal = _mm_or_si128(
        _mm_or_si128(range(x, '0', 10), range(folded, 'a', 6)),
        _mm_or_si128(_mm_or_si128(equal(folded, 'x'), equal(folded, 'u')), equal(x, ',')));
    const __m128i blank = _mm_or_si128(_mm_or_si128(equal(x, ' '), range(x, '\t', 2)),  // '\t' '\n'
                                       _mm_or_si128(equal(x, '\r'), equal(x, '\f')));
    const auto literal_bits = static_cast<unsigned>(_mm_movemask_epi8(literal));
    const auto blank_bits = static_cast<unsigned>(_mm_movemask_epi8(blank));
    maybe_literal += static_cast<std::size_t>(__builtin_popcount(literal_bits));
    other += static_cast<std::size_t>(__builtin_popcount(~(literal_bits | blank_bits) & 0xFFFFu));
  }
#endif
  for (; p < end; ++p) {
    const bool literal = maybe_literal_byte(static_cast<unsigned char>(*p));
    maybe_literal += literal ? 1 : 0;
    other += !literal && !is_blank(*p) ? 1 : 0;
  }
  return 2 * maybe_literal < 3 * other;  // dense() needs literal_bytes >= 1.5 * other_bytes
}

bool dense(const Density& d) {
  const std::size_t total = d.literal_bytes + d.other_bytes;
  return d.literals >= k_min_literals && total > 0 && d.literal_bytes * 10 >= total * 6;
}

// The first offset at or after `i` that is neither blank nor inside a comment.
std::size_t skip_blanks_and_comments(std::string_view source, std::size_t i) {
  while (i < source.size()) {
    if (is_blank(source[i])) {
      ++i;
    } else if (source.compare(i, 2, "//") == 0) {
      const std::size_t newline = source.find('\n', i);
      i = newline == std::string_view::npos ? source.size() : newline + 1;
    } else if (source.compare(i, 2, "/*") == 0) {
      const std::size_t close = source.find("*/", i + 2);
      i = close == std::string_view::npos ? source.size() : close + 2;
    } else {
      break;
    }
  }
  return i;
}

// Where the first data array's initializer opens: a '{' after '=' or ']' whose first element is
// a numeric literal (not a namespace's or a function's brace). npos when none in `source`.
std::size_t data_array_open(std::string_view source) {
  for (std::size_t brace = source.find('{'); brace != std::string_view::npos;
       brace = source.find('{', brace + 1)) {
    std::size_t before = brace;
    while (before > 0 && is_blank(source[before - 1])) {
      --before;
    }
    if (before == 0 || (source[before - 1] != '=' && source[before - 1] != ']')) {
      continue;
    }
    const std::size_t after = skip_blanks_and_comments(source, brace + 1);
    if (after < source.size() &&
        (is_digit(source[after]) ||
         (source[after] == '-' && after + 1 < source.size() && is_digit(source[after + 1])))) {
      return brace;
    }
  }
  return std::string_view::npos;
}

// The start of the declaration whose initializer opens at `open`: after the previous ';', '{'
// or '}' (a namespace's brace, the previous declaration), past blanks and comments, so that an
// `alignas(16)` or a multi-line declaration is reported at its first line.
std::size_t declaration_start(std::string_view source, std::size_t open) {
  const std::size_t end = source.find_last_of(";{}", open == 0 ? 0 : open - 1);
  std::size_t i = end == std::string_view::npos || open == 0 ? 0 : end + 1;
  while (i < open) {
    if (is_blank(source[i])) {
      ++i;
    } else if (source.compare(i, 2, "//") == 0) {
      const std::size_t newline = source.find('\n', i);
      i = newline == std::string_view::npos ? open : newline + 1;
    } else if (source.compare(i, 2, "/*") == 0) {
      const std::size_t close = source.find("*/", i + 2);
      i = close == std::string_view::npos ? open : close + 2;
    } else if (source[i] == '#') {
      const std::size_t newline = source.find('\n', i);  // a directive line before it
      i = newline == std::string_view::npos ? open : newline + 1;
    } else {
      break;
    }
  }
  return std::min(i, open);
}

// The line of the array's declaration (1 when the file holds no data array).
std::uint32_t array_line(std::string_view source) {
  const std::size_t open = data_array_open(source.substr(0, k_array_search_bytes));
  if (open == std::string_view::npos) {
    return 1;
  }
  const std::size_t start = declaration_start(source, open);
  return 1 + static_cast<std::uint32_t>(std::count(source.begin(), source.begin() + start, '\n'));
}

std::string_view line_at(std::string_view source, std::uint32_t line) {
  std::size_t start = 0;
  for (std::uint32_t l = 1; l < line; ++l) {
    start = source.find('\n', start);
    if (start == std::string_view::npos) {
      return {};
    }
    ++start;
  }
  std::size_t end = source.find('\n', start);
  return source.substr(start, end == std::string_view::npos ? source.size() - start : end - start);
}

bool ends_with_ci(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         starts_with_ci(text.substr(text.size() - suffix.size()), suffix);
}

}  // namespace

namespace {

// The data array's '{' when the file is a numeric array dump, else npos (see
// looks_like_embedded_binary): one search serves both that test and the content check.
std::size_t embedded_array_open(std::string_view source) {
  if (source.size() < k_min_embedded_size) {
    return std::string_view::npos;
  }
  const std::size_t brace = data_array_open(source.substr(0, k_array_search_bytes));
  if (brace == std::string_view::npos) {
    return brace;
  }
  const std::string_view first = source.substr(brace + 1, k_probe_bytes);
  if (cannot_be_dense(first) || !dense(measure(first, true))) {
    return std::string_view::npos;
  }
  // A lookup table at the top of ordinary code is not enough: the middle must be data too.
  std::string_view middle = source.substr(source.size() / 2, k_probe_bytes);
  return !cannot_be_dense(middle) && dense(measure(middle, true)) ? brace : std::string_view::npos;
}

}  // namespace

bool looks_like_embedded_binary(std::string_view source) {
  return embedded_array_open(source) != std::string_view::npos;
}

namespace {

// The first integer literals of the array whose initializer opens at `open` (up to `count`):
// decimal or hex, any suffix, a leading '-' (a signed char's byte).
std::vector<std::uint64_t> first_values(std::string_view source, std::size_t open,
                                        std::size_t count) {
  std::vector<std::uint64_t> values;
  std::size_t i = skip_blanks_and_comments(source, open + 1);
  const std::size_t end = std::min(source.size(), i + count * 24);
  while (i < end && values.size() < count) {
    const char c = source[i];
    if (c == '}') {
      break;
    }
    if (c == '/') {
      i = skip_blanks_and_comments(source, i);
      if (i < end && source[i] == '/') {
        ++i;  // a lone '/': not a comment
      }
      continue;
    }
    if (!is_digit(c) || is_ident(source[i - 1])) {
      ++i;
      continue;
    }
    const bool negative = source[i - 1] == '-';
    std::size_t j = i;
    int base = 10;
    if (c == '0' && i + 1 < end && (source[i + 1] == 'x' || source[i + 1] == 'X')) {
      base = 16;
      j = i + 2;
    }
    std::uint64_t value = 0;
    while (j < end && (base == 16 ? is_hex(source[j]) : is_digit(source[j]))) {
      const char d = source[j];
      const unsigned digit = is_digit(d) ? static_cast<unsigned>(d - '0')
                                         : static_cast<unsigned>((d | 0x20) - 'a' + 10);
      value = value * static_cast<std::uint64_t>(base) + digit;
      ++j;
    }
    values.push_back(negative ? static_cast<std::uint64_t>(-static_cast<std::int64_t>(value))
                              : value);
    while (j < end && is_ident(source[j])) {
      ++j;  // suffixes: u, ull
    }
    i = j;
  }
  return values;
}

// Bytes per element of the array declared in `declaration` (the text before its '{'): from the
// element type, else from the largest of its first values.
std::size_t element_bytes(std::string_view declaration, const std::vector<std::uint64_t>& values) {
  const std::string type = to_lower_ascii(declaration.substr(0, declaration.rfind('[')));
  for (auto [name, bytes] : {std::pair{std::string_view("uint64_t"), std::size_t{8}},
                             {"long long", 8},
                             {"size_t", 8},
                             {"uint32_t", 4},
                             {"int32_t", 4},
                             {"uint16_t", 2},
                             {"short", 2},
                             {"uint8_t", 1},
                             {"int8_t", 1},
                             {"char", 1},
                             {"unsigned int", 4},
                             {"int ", 4},
                             {"unsigned ", 4}}) {
    if (type.find(name) != std::string::npos) {
      return bytes;
    }
  }
  std::uint64_t largest = 0;
  for (std::uint64_t value : values) {
    largest = std::max(largest, value);
  }
  return largest <= 0xff ? 1 : largest <= 0xffff ? 2 : largest <= 0xffffffffu ? 4 : 8;
}

// The first bytes of the array as the machine holds them (little-endian elements).
std::string array_bytes(std::string_view source, std::size_t open, std::size_t wanted) {
  const std::size_t start = declaration_start(source, open);
  const std::vector<std::uint64_t> values = first_values(source, open, wanted);
  const std::size_t width = element_bytes(source.substr(start, open - start), values);
  std::string bytes;
  for (std::size_t v = 0; v < values.size() && bytes.size() < wanted; ++v) {
    for (std::size_t b = 0; b < width; ++b) {
      bytes.push_back(static_cast<char>((values[v] >> (8 * b)) & 0xffu));
    }
  }
  return bytes;
}

std::uint32_t le32(std::string_view bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t b = 0; b < 4 && at + b < bytes.size(); ++b) {
    value |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + b])) << (8 * b);
  }
  return value;
}

constexpr std::uint16_t k_em_cuda = 190;  // ELF e_machine of NVIDIA cubins

// What the array's bytes are: an NVIDIA cubin (ELF, machine EM_CUDA), a fatbinary (magic
// 0xBA55ED50, or the 0x466243B1 wrapper) or PTX text; anything else is data.
bool bytes_are_nvidia_binary(std::string_view bytes) {
  if (bytes.size() >= 20 && bytes.substr(0, 4) == std::string_view("\x7f"
                                                                   "ELF",
                                                                   4)) {
    const auto machine = static_cast<std::uint16_t>(static_cast<unsigned char>(bytes[18]) |
                                                    static_cast<unsigned char>(bytes[19]) << 8);
    return machine == k_em_cuda;
  }
  const std::uint32_t magic = le32(bytes, 0);
  if (bytes.size() >= 4 && (magic == 0xba55ed50u || magic == 0x466243b1u)) {
    return true;
  }
  // PTX text: the directives every PTX module opens with, in its first bytes.
  return bytes.find(".version ") != std::string_view::npos &&
         (bytes.find(".target sm_") != std::string_view::npos ||
          bytes.find(".target compute_") != std::string_view::npos);
}

}  // namespace

bool holds_nvidia_binary(std::string_view, std::string_view source) {
  // Decided by content: dense numeric data (Unicode tables, Sobol direction numbers, weights) is
  // data, whatever the file is named; an AMD code object (ELF machine EM_AMDGPU) is not NVIDIA's.
  const std::size_t open = embedded_array_open(source);
  return open != std::string_view::npos && bytes_are_nvidia_binary(array_bytes(source, open, 512));
}

void analyze_embedded_binary(const SharedString& path, std::string_view source, FileAnalysis& out) {
  const std::uint32_t line = array_line(source);
  out.skip_lexing = true;
  out.artifacts.push_back({path, ArtifactKind::EmbeddedCubin, source.size(), line});
  add_line_finding(out, "GP-ART-003", path, line, 1, line_at(source, line),
                   "embedded binary array, " + std::to_string(source.size()) + " bytes of source");
}

namespace {

// A serialized TensorRT plan: the "ftrt" tag at its start, or after a little-endian 32-bit
// length and that many bytes of metadata (the wrapper some exporters write, e.g. JSON).
bool is_tensorrt_plan(std::string_view head) {
  constexpr std::string_view k_tag = "ftrt";
  if (head.starts_with(k_tag)) {
    return true;
  }
  if (head.size() < 8) {
    return false;
  }
  const std::uint64_t metadata = le32(head, 0);
  return metadata > 0 && 4 + metadata + k_tag.size() <= head.size() &&
         head.substr(4 + metadata, k_tag.size()) == k_tag;
}

}  // namespace

void analyze_artifact(const SharedString& path, std::uint64_t size, std::string_view head,
                      FileAnalysis& out) {
  std::string_view name = base_name(path);
  ArtifactKind kind;
  std::string_view what;
  if (ends_with_ci(name, ".engine") || ends_with_ci(name, ".plan") || ends_with_ci(name, ".trt")) {
    kind = ArtifactKind::TensorRtEngine;
    what = "TensorRT engine";
    if (!is_tensorrt_plan(head)) {
      return;  // another file with the extension: a text note, an unrelated format
    }
  } else if (ends_with_ci(name, ".cubin")) {
    kind = ArtifactKind::Cubin;
    what = "cubin";
  } else if (ends_with_ci(name, ".fatbin")) {
    kind = ArtifactKind::Fatbin;
    what = "fatbin";
  } else if (ends_with_ci(name, ".ptx")) {
    kind = ArtifactKind::Ptx;
    what = "PTX";
  } else {
    return;
  }
  if (kind != ArtifactKind::TensorRtEngine && !bytes_are_nvidia_binary(head.substr(0, 512))) {
    return;  // not a cubin, fatbinary or PTX module whatever its name
  }
  out.artifacts.push_back({path, kind, size, 0});
  const std::string_view rule = kind == ArtifactKind::TensorRtEngine ? "GP-ART-001" : "GP-ART-002";
  add_line_finding(out, rule, path, 1, 1, {},
                   std::string(what) + ", " + std::to_string(size) + " bytes");
}

}  // namespace gpuport
