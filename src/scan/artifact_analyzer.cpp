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
constexpr std::size_t k_min_literals = 200;

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

// The line of the array: the line of the last '{' before the first literal after the first '{'.
std::uint32_t array_line(std::string_view source) {
  std::string_view head = source.substr(0, k_probe_bytes);
  const std::size_t brace = head.find('{');
  if (brace == std::string_view::npos) {
    return 1;
  }
  Density d = measure(head.substr(brace + 1));
  std::size_t at = d.first_literal == std::string_view::npos ? brace : brace + 1 + d.first_literal;
  std::size_t open = head.rfind('{', at);
  if (open == std::string_view::npos) {
    open = brace;
  }
  return 1 + static_cast<std::uint32_t>(std::count(head.begin(), head.begin() + open, '\n'));
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

bool looks_like_embedded_binary(std::string_view source) {
  if (source.size() < k_min_embedded_size) {
    return false;
  }
  std::string_view head = source.substr(0, k_probe_bytes);
  const std::size_t brace = head.find('{');
  if (brace == std::string_view::npos) {
    return false;
  }
  const std::string_view first = head.substr(brace + 1);
  if (cannot_be_dense(first) || !dense(measure(first, true))) {
    return false;
  }
  // A lookup table at the top of ordinary code is not enough: the middle must be data too.
  std::string_view middle = source.substr(source.size() / 2, k_probe_bytes);
  return !cannot_be_dense(middle) && dense(measure(middle, true));
}

namespace {

// The first integer literals after the first '{' (up to `count`), or fewer when they run out.
std::vector<std::uint64_t> first_values(std::string_view source, std::size_t count) {
  std::vector<std::uint64_t> values;
  std::size_t i = source.find('{');
  if (i == std::string_view::npos) {
    return values;
  }
  const std::size_t end = std::min(source.size(), i + 512);
  while (i < end && values.size() < count) {
    if (!is_digit(source[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    int base = 10;
    if (source[i] == '0' && i + 1 < end && (source[i + 1] == 'x' || source[i + 1] == 'X')) {
      base = 16;
      j = i + 2;
    }
    std::uint64_t value = 0;
    while (j < end && (base == 16 ? is_hex(source[j]) : is_digit(source[j]))) {
      const char c = source[j];
      const unsigned digit = is_digit(c) ? static_cast<unsigned>(c - '0')
                                         : static_cast<unsigned>((c | 0x20) - 'a' + 10);
      value = value * static_cast<std::uint64_t>(base) + digit;
      ++j;
    }
    values.push_back(value);
    while (j < end && is_ident(source[j])) {
      ++j;  // suffixes: u, ull
    }
    i = j;
  }
  return values;
}

// An ELF (cubin) or fatbin header as the first bytes, 32-bit or 64-bit words of the array.
bool starts_with_gpu_magic(std::string_view source) {
  const std::vector<std::uint64_t> v = first_values(source, 4);
  if (v.size() >= 4 && v[0] == 0x7f && v[1] == 0x45 && v[2] == 0x4c && v[3] == 0x46) {
    return true;  // "\x7fELF" as bytes
  }
  if (v.size() >= 4 && v[0] == 0x50 && v[1] == 0xed && v[2] == 0x55 && v[3] == 0xba) {
    return true;  // fatbin magic 0xba55ed50, little-endian bytes
  }
  if (!v.empty()) {
    const std::uint64_t low = v[0] & 0xffffffffu;
    return low == 0x464c457fu || low == 0xba55ed50u || low == 0x466243b1u;
  }
  return false;
}

}  // namespace

bool holds_nvidia_binary(std::string_view path, std::string_view source) {
  if (!looks_like_embedded_binary(source)) {
    return false;
  }
  // Dense numeric data alone is not a GPU binary (Unicode tables, weights, CRC tables): the
  // array must carry an ELF or fatbin header, or the file must say it holds one.
  if (starts_with_gpu_magic(source)) {
    return true;
  }
  const std::string name = to_lower_ascii(path);
  const std::size_t brace = source.find('{');
  const std::string head = to_lower_ascii(
      source.substr(0, brace == std::string_view::npos ? 0 : std::min(brace, k_probe_bytes)));
  for (std::string_view word : {"cubin", "fatbin", "ptx"}) {
    if (name.find(word) != std::string::npos || head.find(word) != std::string::npos) {
      return true;
    }
  }
  return false;
}

void analyze_embedded_binary(const SharedString& path, std::string_view source, FileAnalysis& out) {
  const std::uint32_t line = array_line(source);
  out.skip_lexing = true;
  out.artifacts.push_back({path, ArtifactKind::EmbeddedCubin, source.size(), line});
  add_line_finding(out, "GP-ART-003", path, line, 1, line_at(source, line),
                   "embedded binary array, " + std::to_string(source.size()) + " bytes of source");
}

void analyze_artifact(const SharedString& path, std::uint64_t size, FileAnalysis& out) {
  std::string_view name = base_name(path);
  ArtifactKind kind;
  std::string_view what;
  if (ends_with_ci(name, ".engine") || ends_with_ci(name, ".plan") || ends_with_ci(name, ".trt")) {
    kind = ArtifactKind::TensorRtEngine;
    what = "TensorRT engine";
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
  out.artifacts.push_back({path, kind, size, 0});
  const std::string_view rule = kind == ArtifactKind::TensorRtEngine ? "GP-ART-001" : "GP-ART-002";
  add_line_finding(out, rule, path, 1, 1, {},
                   std::string(what) + ", " + std::to_string(size) + " bytes");
}

}  // namespace gpuport
