// JsonWriter: buffered, pretty-printed like nlohmann::json::dump(2, ' ', false, replace).
#include "report/json_writer.h"

#include <nlohmann/json.hpp>

#include <array>
#include <charconv>
#include <cstring>
#include <deque>
#include <future>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "report/text_util.h"

namespace gpuport {

namespace {

constexpr std::size_t k_buffer_bytes = 64 * 1024;
constexpr std::size_t k_elements_per_chunk = 2048;        // a few hundred KiB of findings
constexpr std::size_t k_chunk_reserve = 2 * 1024 * 1024;  // above a chunk of findings or kernels
constexpr std::size_t k_indent_width = 2;
constexpr std::size_t k_max_fast_depth = 100;  // deeper levels indent in pieces

// ",\n" and then enough spaces for any indentation up to k_max_fast_depth levels: a separator,
// a line break and an indentation are one copy out of this.
constexpr std::array<char, 2 + k_max_fast_depth * k_indent_width> make_breaks() {
  std::array<char, 2 + k_max_fast_depth * k_indent_width> text{};
  text[0] = ',';
  text[1] = '\n';
  for (std::size_t i = 2; i < text.size(); ++i) {
    text[i] = ' ';
  }
  return text;
}
constexpr auto k_breaks = make_breaks();

// Bytes a string cannot be copied verbatim with: control bytes, '"', '\\', and bytes >= 0x80
// (which need a UTF-8 check first).
constexpr std::array<bool, 256> make_special() {
  std::array<bool, 256> table{};
  for (int c = 0; c < 0x20; ++c) {
    table[static_cast<std::size_t>(c)] = true;
  }
  for (int c = 0x80; c < 0x100; ++c) {
    table[static_cast<std::size_t>(c)] = true;
  }
  table['"'] = true;
  table['\\'] = true;
  return table;
}
constexpr std::array<bool, 256> k_special = make_special();

// True when one of the 8 bytes of `word` is special: below 0x20, at or above 0x80, '"' or '\\'.
// The classic has-zero-byte tests, exact as a yes/no answer for the whole word.
bool any_special(std::uint64_t word) {
  constexpr std::uint64_t ones = 0x0101010101010101ull;
  constexpr std::uint64_t highs = 0x8080808080808080ull;
  const auto has_zero = [](std::uint64_t v) { return ((v - ones) & ~v & highs) != 0; };
  const bool below_space = ((word - ones * 0x20) & ~word & highs) != 0;
  return (word & highs) != 0 || below_space || has_zero(word ^ (ones * '"')) ||
         has_zero(word ^ (ones * '\\'));
}

std::uint64_t load64(const char* p) {
  std::uint64_t word;
  std::memcpy(&word, p, sizeof word);
  return word;
}

std::size_t plain_prefix_bytewise(std::string_view text, std::size_t i) {
  while (i < text.size() && !k_special[static_cast<unsigned char>(text[i])]) {
    ++i;
  }
  return i;
}

// Length of the prefix of `text` free of k_special bytes. Reports hold hundreds of thousands of
// excerpts and a dozen keys per finding, so both paths avoid a loop over single bytes: 16 bytes
// at a time where SSE2 is available, and two overlapping 8- or 4-byte words for the short keys
// and values (a special byte is rare; where there is one, its place is found byte by byte).
std::size_t plain_prefix(std::string_view text) {
  const std::size_t size = text.size();
  if (size < 16) {
    if (size >= 8) {
      const bool special =
          any_special(load64(text.data())) || any_special(load64(text.data() + size - 8));
      return special ? plain_prefix_bytewise(text, 0) : size;
    }
    if (size >= 4) {
      std::uint32_t first;
      std::uint32_t final;
      std::memcpy(&first, text.data(), sizeof first);
      std::memcpy(&final, text.data() + size - 4, sizeof final);
      const bool special = any_special(first | (std::uint64_t{final} << 32));
      return special ? plain_prefix_bytewise(text, 0) : size;
    }
    return plain_prefix_bytewise(text, 0);
  }
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i control = _mm_set1_epi8(0x20);
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  // A signed compare: bytes >= 0x80 are negative, so this also flags them.
  const auto special_mask = [&](const char* p) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i special =
        _mm_or_si128(_mm_cmplt_epi8(x, control),
                     _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)));
    return static_cast<unsigned>(_mm_movemask_epi8(special));
  };
  for (; i + 16 <= size; i += 16) {
    if (const unsigned mask = special_mask(text.data() + i); mask != 0) {
      return i + static_cast<std::size_t>(__builtin_ctz(mask));
    }
  }
  if (i == size) {
    return size;
  }
  // The last 16 bytes, overlapping what was checked: only bits past `i` are new.
  const std::size_t last = size - 16;
  const unsigned mask = special_mask(text.data() + last) >> (i - last);
  return mask != 0 ? i + static_cast<std::size_t>(__builtin_ctz(mask)) : size;
#else
  return plain_prefix_bytewise(text, i);
#endif
}

}  // namespace

JsonWriter::JsonWriter(OutputSink& sink) : m_sink(sink), m_buffer(k_buffer_bytes) {}

JsonWriter::JsonWriter(OutputSink& sink, std::size_t depth, std::size_t members)
    : m_sink(sink), m_buffer(k_buffer_bytes), m_levels(depth, Level{true, 1}) {
  m_levels.back() = Level{false, members};
}

void JsonWriter::elements(std::size_t count, unsigned jobs,
                          const std::function<void(JsonWriter&, std::size_t)>& element) {
  if (jobs <= 1 || count <= k_elements_per_chunk) {
    for (std::size_t i = 0; i < count; ++i) {
      element(*this, i);
    }
    return;
  }
  const std::size_t depth = m_levels.size();
  const std::size_t members = m_levels.back().members;
  const auto render = [&element, depth, members, count](std::size_t begin) {
    StringSink bytes;
    bytes.text().reserve(k_chunk_reserve);  // no copies while the chunk grows
    JsonWriter fragment(bytes, depth, members + begin);
    const std::size_t end = std::min(count, begin + k_elements_per_chunk);
    for (std::size_t i = begin; i < end; ++i) {
      element(fragment, i);
    }
    fragment.flush();
    return std::move(bytes.text());
  };
  // At most `jobs` chunks in flight; this thread writes them out in order as they complete.
  std::deque<std::future<std::string>> ahead;
  std::size_t next = 0;
  while (next < count || !ahead.empty()) {
    while (next < count && ahead.size() < jobs) {
      ahead.push_back(std::async(std::launch::async, render, next));
      next += k_elements_per_chunk;
    }
    const std::string chunk = ahead.front().get();
    ahead.pop_front();
    put(chunk);
  }
  m_levels.back().members += count;
}

void JsonWriter::put(std::string_view bytes) {
  if (bytes.size() > m_buffer.size() - m_used) {
    flush();
    if (bytes.size() > m_buffer.size()) {
      m_sink.write(bytes);
      return;
    }
  }
  std::memcpy(m_buffer.data() + m_used, bytes.data(), bytes.size());
  m_used += bytes.size();
}

void JsonWriter::flush() {
  if (m_used > 0) {
    m_sink.write(std::string_view(m_buffer.data(), m_used));
    m_used = 0;
  }
}

// A ",\n" (when `comma`) or "\n", then the indentation of `depth` levels.
void JsonWriter::line_break(bool comma, std::size_t depth) {
  const std::size_t skip = comma ? 0 : 1;
  if (depth <= k_max_fast_depth) {
    put(std::string_view(k_breaks.data() + skip, 2 - skip + depth * k_indent_width));
    return;
  }
  put(std::string_view(k_breaks.data() + skip, 2 - skip));
  for (std::size_t level = 0; level < depth; ++level) {
    put(std::string_view(k_breaks.data() + 2, k_indent_width));
  }
}

// Array elements start on their own line, separated by ",\n"; an object member's value
// follows its key on the same line.
void JsonWriter::before_value() {
  if (m_after_key) {
    m_after_key = false;
    return;
  }
  if (m_levels.empty()) {
    return;
  }
  Level& level = m_levels.back();
  line_break(level.members > 0, m_levels.size());
  ++level.members;
}

void JsonWriter::open(char bracket, bool object) {
  before_value();
  put(bracket);
  m_levels.push_back(Level{object, 0});
}

// Empty containers stay "{}" / "[]"; others close on a line of their own.
void JsonWriter::close(char bracket) {
  const Level level = m_levels.back();
  m_levels.pop_back();
  if (level.members > 0) {
    line_break(false, m_levels.size());
  }
  put(bracket);
}

void JsonWriter::begin_object() {
  open('{', true);
}

void JsonWriter::end_object() {
  close('}');
}

void JsonWriter::begin_array() {
  open('[', false);
}

void JsonWriter::end_array() {
  close(']');
}

void JsonWriter::key(std::string_view name) {
  Level& level = m_levels.back();
  const bool comma = level.members > 0;
  ++level.members;
  m_after_key = true;
  const std::size_t depth = m_levels.size();
  // The usual key (plain ASCII, shallow) is one copy of separator, indentation, quoted name and
  // ": " straight into the buffer.
  const std::size_t breaks = (comma ? 2 : 1) + depth * k_indent_width;
  const std::size_t bytes = breaks + name.size() + 4;
  if (depth <= k_max_fast_depth && plain_prefix(name) == name.size() && bytes <= m_buffer.size()) {
    if (bytes > m_buffer.size() - m_used) {
      flush();
    }
    char* out = m_buffer.data() + m_used;
    std::memcpy(out, k_breaks.data() + (comma ? 0 : 1), breaks);
    out += breaks;
    *out++ = '"';
    std::memcpy(out, name.data(), name.size());
    out += name.size();
    std::memcpy(out, "\": ", 3);
    m_used += bytes;
    return;
  }
  line_break(comma, depth);
  write_escaped(name);
  put(": ");
}

void JsonWriter::value(std::string_view text) {
  before_value();
  write_escaped(text);
}

void JsonWriter::value(bool flag) {
  before_value();
  put(flag ? std::string_view("true") : std::string_view("false"));
}

void JsonWriter::value(double number) {
  before_value();
  // Doubles are few (timings, effort hours); nlohmann formats them so the bytes match exactly.
  put(nlohmann::json(number).dump());
}

void JsonWriter::value(std::uint64_t number) {
  before_value();
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof digits, number);
  put(std::string_view(digits, static_cast<std::size_t>(result.ptr - digits)));
}

void JsonWriter::null() {
  before_value();
  put("null");
}

void JsonWriter::write_escaped(std::string_view text) {
  // Most strings are plain ASCII: one copy.
  const std::size_t plain = plain_prefix(text);
  if (plain == text.size() && text.size() + 2 <= m_buffer.size() - m_used) {
    char* out = m_buffer.data() + m_used;
    out[0] = '"';
    std::memcpy(out + 1, text.data(), text.size());
    out[text.size() + 1] = '"';
    m_used += text.size() + 2;
    return;
  }
  if (!is_valid_utf8(text.substr(plain))) {
    const std::string repaired = valid_utf8(text);
    write_escaped(repaired);
    return;
  }
  put('"');
  std::size_t run = 0;  // start of the bytes not yet copied
  for (std::size_t i = plain; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (!k_special[c] || c >= 0x80) {
      continue;
    }
    put(text.substr(run, i - run));
    run = i + 1;
    switch (c) {
      case '"':
        put("\\\"");
        break;
      case '\\':
        put("\\\\");
        break;
      case '\b':
        put("\\b");
        break;
      case '\f':
        put("\\f");
        break;
      case '\n':
        put("\\n");
        break;
      case '\r':
        put("\\r");
        break;
      case '\t':
        put("\\t");
        break;
      default: {
        static constexpr char k_hex[] = "0123456789abcdef";
        const char escape[] = {'\\', 'u', '0', '0', k_hex[c >> 4], k_hex[c & 0xF]};
        put(std::string_view(escape, sizeof escape));
        break;
      }
    }
  }
  put(text.substr(run));
  put('"');
}

void JsonWriter::finish() {
  put('\n');
  flush();
}

}  // namespace gpuport
