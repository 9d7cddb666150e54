// Byte scanners shared by the lexers and the scanner: line starts, byte counts and substring
// search, 16 bytes at a time where SSE2 is available.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gpuport::char_scan {

// Appends base + (offset just after each '\n' in text) to `out`, in order.
inline void append_line_starts(std::string_view text, std::uint32_t base,
                               std::vector<std::uint32_t>& out) {
  const char* begin = text.data();
  const char* p = begin;
  const char* end = begin + text.size();
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  while (end - p >= 16) {
    unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(
        _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), newline)));
    while (mask != 0) {
      const auto bit = static_cast<std::uint32_t>(__builtin_ctz(mask));
      out.push_back(base + static_cast<std::uint32_t>(p - begin) + bit + 1);
      mask &= mask - 1;
    }
    p += 16;
  }
#endif
  for (; p < end; ++p) {
    if (*p == '\n') {
      out.push_back(base + static_cast<std::uint32_t>(p - begin) + 1);
    }
  }
}

// Number of `byte` in text.
inline std::size_t count_byte(std::string_view text, char byte) {
  const char* p = text.data();
  const char* end = p + text.size();
  std::size_t count = 0;
#if defined(__SSE2__)
  // Per-lane byte counters (a match is -1, so subtracting adds one), summed every 255 blocks
  // before they can wrap; baseline x86-64 has no popcnt instruction.
  const __m128i wanted = _mm_set1_epi8(byte);
  while (end - p >= 16) {
    __m128i lanes = _mm_setzero_si128();
    for (int block = 0; block < 255 && end - p >= 16; ++block, p += 16) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(x, wanted));
    }
    const __m128i sums = _mm_sad_epu8(lanes, _mm_setzero_si128());
    count += static_cast<std::size_t>(_mm_cvtsi128_si64(sums)) +
             static_cast<std::size_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
#endif
  for (; p < end; ++p) {
    count += *p == byte ? 1 : 0;
  }
  return count;
}

// Offset of the first occurrence of `needle` in `hay` at or after `from`, or
// npos, like std::string_view::find. Candidates are positions where both the first and the last
// byte of the needle match, found 16 at a time (64 while none is found); a rare pair, so few are
// compared in full.
inline std::size_t find(std::string_view hay, std::string_view needle, std::size_t from = 0) {
  if (needle.size() < 2) {
    return hay.find(needle, from);
  }
  if (from > hay.size() || hay.size() - from < needle.size()) {
    return std::string_view::npos;
  }
  const std::size_t last = needle.size() - 1;
  const char* begin = hay.data();
  const char* p = begin + from;
  const char* stop = begin + hay.size() - needle.size();  // last possible start
#if defined(__SSE2__)
  const __m128i first_byte = _mm_set1_epi8(needle.front());
  const __m128i last_byte = _mm_set1_epi8(needle.back());
  // Lanes where a candidate starts, for the 16 starts at q.
  const auto candidates = [&](const char* q) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + last));
    return _mm_and_si128(_mm_cmpeq_epi8(a, first_byte), _mm_cmpeq_epi8(b, last_byte));
  };
  // The first full match among the starts of `mask` (bits from q), or nullptr.
  const auto first_match = [&](const char* q, unsigned mask) -> const char* {
    while (mask != 0) {
      const char* at = q + __builtin_ctz(mask);
      if (std::string_view(at, needle.size()) == needle) {
        return at;
      }
      mask &= mask - 1;
    }
    return nullptr;
  };
  // 64 starts per step while no candidate shows up (the usual case: files are searched whole
  // for a marker few of them hold); the blocks are looked at one by one only when one does.
  while (stop - p >= 64) {
    const __m128i c0 = candidates(p);
    const __m128i c1 = candidates(p + 16);
    const __m128i c2 = candidates(p + 32);
    const __m128i c3 = candidates(p + 48);
    if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(c0, c1), _mm_or_si128(c2, c3))) != 0) {
      for (const __m128i& block : {c0, c1, c2, c3}) {
        if (const char* at = first_match(p, static_cast<unsigned>(_mm_movemask_epi8(block)))) {
          return static_cast<std::size_t>(at - begin);
        }
        p += 16;
      }
      continue;
    }
    p += 64;
  }
  while (stop - p >= 16) {
    if (const char* at = first_match(p, static_cast<unsigned>(_mm_movemask_epi8(candidates(p))))) {
      return static_cast<std::size_t>(at - begin);
    }
    p += 16;
  }
#endif
  for (; p <= stop; ++p) {
    if (*p == needle.front() && p[last] == needle.back() &&
        std::string_view(p, needle.size()) == needle) {
      return static_cast<std::size_t>(p - begin);
    }
  }
  return std::string_view::npos;
}

// The first byte at or after p (before end) that cannot continue an identifier: identifiers are
// [A-Za-z0-9_] and bytes >= 0x80, plus '$' when `dollar` (C and C++ accept it). 16 bytes at a time
// where SSE2 is available: no loop, and so no mispredicted loop exit, for the usual short name.
template <bool dollar>
inline const char* ident_end(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  const __m128i digit_bias = _mm_set1_epi8(static_cast<char>(-'0' - 128));
  const __m128i digit_limit = _mm_set1_epi8(static_cast<char>(10 - 128));
  const __m128i letter_bias = _mm_set1_epi8(static_cast<char>(-'a' - 128));
  const __m128i letter_limit = _mm_set1_epi8(static_cast<char>(26 - 128));
  const __m128i case_bit = _mm_set1_epi8(0x20);
  const __m128i underscore = _mm_set1_epi8('_');
  const __m128i dollar_sign = _mm_set1_epi8('$');
  while (end - p >= 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Unsigned range tests as signed compares after moving the range to the bottom.
    const __m128i digit = _mm_cmplt_epi8(_mm_add_epi8(x, digit_bias), digit_limit);
    const __m128i letter =
        _mm_cmplt_epi8(_mm_add_epi8(_mm_or_si128(x, case_bit), letter_bias), letter_limit);
    __m128i ident =
        _mm_or_si128(_mm_or_si128(digit, letter),
                     _mm_or_si128(_mm_cmplt_epi8(x, zero), _mm_cmpeq_epi8(x, underscore)));
    if constexpr (dollar) {
      ident = _mm_or_si128(ident, _mm_cmpeq_epi8(x, dollar_sign));
    }
    const unsigned stops = ~static_cast<unsigned>(_mm_movemask_epi8(ident)) & 0xFFFFu;
    if (stops != 0) {
      return p + __builtin_ctz(stops);
    }
    p += 16;
  }
#endif
  for (; p < end; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    const bool ident = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '_' || c >= 0x80 || (dollar && c == '$');
    if (!ident) {
      break;
    }
  }
  return p;
}

// The first byte at or after p (before end) that is a, b or c; end when there is none.
inline const char* find_any_of(const char* p, const char* end, char a, char b, char c) {
#if defined(__SSE2__)
  const __m128i first = _mm_set1_epi8(a);
  const __m128i second = _mm_set1_epi8(b);
  const __m128i third = _mm_set1_epi8(c);
  while (end - p >= 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i hit =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, first), _mm_cmpeq_epi8(x, second)),
                     _mm_cmpeq_epi8(x, third));
    const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (mask != 0) {
      return p + __builtin_ctz(mask);
    }
    p += 16;
  }
#endif
  while (p < end && *p != a && *p != b && *p != c) {
    ++p;
  }
  return p;
}

// The first byte at or after p (before end) that is not ' ', '\t', '\v', '\f' or '\r'.
inline const char* blank_end(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(' ');
  const __m128i tab = _mm_set1_epi8('\t');
  const __m128i vertical_tab = _mm_set1_epi8('\v');
  const __m128i form_feed = _mm_set1_epi8('\f');
  const __m128i carriage_return = _mm_set1_epi8('\r');
  while (end - p >= 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i blank = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(x, space), _mm_cmpeq_epi8(x, tab)),
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, vertical_tab), _mm_cmpeq_epi8(x, form_feed)),
                     _mm_cmpeq_epi8(x, carriage_return)));
    const unsigned stops = ~static_cast<unsigned>(_mm_movemask_epi8(blank)) & 0xFFFFu;
    if (stops != 0) {
      return p + __builtin_ctz(stops);
    }
    p += 16;
  }
#endif
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\v' || *p == '\f' || *p == '\r')) {
    ++p;
  }
  return p;
}

}  // namespace gpuport::char_scan
