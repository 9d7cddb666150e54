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
// byte of the needle match, found 16 at a time; a rare pair, so few are compared in full.
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
  while (stop - p >= 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + last));
    unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(
        _mm_and_si128(_mm_cmpeq_epi8(a, first_byte), _mm_cmpeq_epi8(b, last_byte))));
    while (mask != 0) {
      const auto bit = static_cast<std::size_t>(__builtin_ctz(mask));
      if (std::string_view(p + bit, needle.size()) == needle) {
        return static_cast<std::size_t>(p + bit - begin);
      }
      mask &= mask - 1;
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

}  // namespace gpuport::char_scan
