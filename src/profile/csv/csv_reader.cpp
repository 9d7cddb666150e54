#include "profile/csv/csv_reader.h"

#include <algorithm>

namespace gpuport {

std::string_view CsvRecord::operator[](std::size_t index) const {
  const std::size_t begin = index == 0 ? 0 : m_ends[index - 1];
  return std::string_view(m_text).substr(begin, m_ends[index] - begin);
}

bool CsvRecord::blank() const {
  if (m_ends.size() != 1 || m_first_quoted)
    return false;
  return std::all_of(m_text.begin(), m_text.end(), [](char c) { return c == ' ' || c == '\t'; });
}

void CsvRecord::clear() {
  m_text.clear();
  m_ends.clear();
  m_first_quoted = false;
}

CsvReader::CsvReader(ByteStream& in) : m_in(in), m_buffer(std::size_t{1} << 16) {}

TraceError CsvReader::error_at(std::uint64_t line, const std::string& what) const {
  return TraceError{m_in.path() + ": line " + std::to_string(line) + ": " + what};
}

TraceError CsvReader::too_long(const CsvRecord& record) const {
  return error_at(record.m_line, "a row longer than " + std::to_string(kMaxRecordBytes >> 20) +
                                     " MiB (is this a CSV file?)");
}

tl::expected<bool, TraceError> CsvReader::fill() {
  if (m_pos < m_end)
    return true;
  if (m_eof)
    return false;
  auto got = m_in.read(m_buffer.data(), m_buffer.size());
  if (!got)
    return tl::unexpected(got.error());
  m_pos = 0;
  m_end = *got;
  if (*got == 0) {
    m_eof = true;
    return false;
  }
  return true;
}

tl::expected<bool, TraceError> CsvReader::next(CsvRecord& record) {
  enum class State { FieldStart, Unquoted, Quoted, QuoteInQuoted };
  record.clear();

  if (!m_started) {
    m_started = true;
    // A UTF-8 byte order mark (spreadsheet exports) is not part of the first field.
    auto head = m_in.peek(3);
    if (!head)
      return tl::unexpected(head.error());
    if (*head == "\xEF\xBB\xBF") {
      char bom[3];
      std::size_t have = 0;
      while (have < 3) {
        auto got = m_in.read(bom + have, 3 - have);
        if (!got)
          return tl::unexpected(got.error());
        if (*got == 0)
          break;
        have += *got;
      }
    }
  }
  if (m_skip_lf) {
    auto more = fill();
    if (!more)
      return tl::unexpected(more.error());
    if (*more && m_buffer[m_pos] == '\n')
      ++m_pos;
    m_skip_lf = false;
  }
  {
    auto more = fill();
    if (!more)
      return tl::unexpected(more.error());
    if (!*more)
      return false;
  }

  record.m_line = m_line;
  State state = State::FieldStart;
  std::uint64_t quote_line = m_line;  // where the open quoted field began
  auto end_field = [&]() -> tl::expected<void, TraceError> {
    if (record.m_ends.size() >= kMaxFields) {
      return tl::unexpected(error_at(
          record.m_line, "more than " + std::to_string(kMaxFields) + " fields in one row"));
    }
    record.m_ends.push_back(record.m_text.size());
    return {};
  };

  for (;;) {
    auto more = fill();
    if (!more)
      return tl::unexpected(more.error());
    if (!*more)
      break;
    if (record.m_text.size() > kMaxRecordBytes)  // line breaks and quotes, one at a time
      return tl::unexpected(too_long(record));
    // Copy runs of ordinary bytes at once; stop at the bytes that change the state.
    const char* data = m_buffer.data();
    const char c = data[m_pos];
    if (state == State::Unquoted || state == State::Quoted) {
      std::size_t stop = m_pos;
      if (state == State::Unquoted) {
        while (stop < m_end && data[stop] != ',' && data[stop] != '\n' && data[stop] != '\r')
          ++stop;
      } else {
        while (stop < m_end && data[stop] != '"' && data[stop] != '\n')
          ++stop;
      }
      if (stop > m_pos) {
        if (record.m_text.size() + (stop - m_pos) > kMaxRecordBytes)
          return tl::unexpected(too_long(record));
        record.m_text.append(data + m_pos, stop - m_pos);
        m_pos = stop;
        continue;
      }
    }
    ++m_pos;
    switch (state) {
      case State::FieldStart:
      case State::Unquoted:
        if (c == '"' && state == State::FieldStart) {
          state = State::Quoted;
          quote_line = m_line;
          if (record.m_ends.empty())
            record.m_first_quoted = true;
        } else if (c == ',') {
          if (auto ended = end_field(); !ended)
            return tl::unexpected(ended.error());
          state = State::FieldStart;
        } else if (c == '\n' || c == '\r') {
          if (auto ended = end_field(); !ended)
            return tl::unexpected(ended.error());
          ++m_line;
          m_skip_lf = c == '\r';
          return true;
        } else {
          // A quote inside an unquoted field is kept as text (tolerated, as most readers do).
          record.m_text.push_back(c);
          state = State::Unquoted;
        }
        break;
      case State::Quoted:
        if (c == '"') {
          state = State::QuoteInQuoted;
        } else {  // '\n': part of the field, and a new line of the file
          record.m_text.push_back(c);
          ++m_line;
        }
        break;
      case State::QuoteInQuoted:
        if (c == '"') {
          record.m_text.push_back('"');
          state = State::Quoted;
        } else if (c == ',') {
          if (auto ended = end_field(); !ended)
            return tl::unexpected(ended.error());
          state = State::FieldStart;
        } else if (c == '\n' || c == '\r') {
          if (auto ended = end_field(); !ended)
            return tl::unexpected(ended.error());
          ++m_line;
          m_skip_lf = c == '\r';
          return true;
        } else {
          // Text after a closing quote ("a"b) is kept, as most readers do.
          record.m_text.push_back(c);
          state = State::Unquoted;
        }
        break;
    }
  }
  if (state == State::Quoted) {
    return tl::unexpected(
        error_at(quote_line, "a quoted field is not closed (the file ends inside it)"));
  }
  if (auto ended = end_field(); !ended)
    return tl::unexpected(ended.error());
  return true;
}

}  // namespace gpuport
