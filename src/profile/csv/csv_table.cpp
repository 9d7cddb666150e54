#include "profile/csv/csv_table.h"

#include "profile/csv/csv_numbers.h"

namespace gpuport {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return text;
}

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equal_any_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i]))
      return false;
  }
  return true;
}

}  // namespace

std::string printable_text(std::string_view text, std::size_t limit) {
  std::string out;
  for (char c : text.substr(0, limit)) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += '?';
    } else {
      out += c;
    }
  }
  if (text.size() > limit)
    out += "...";
  return out;
}

namespace {

std::string quote_field(std::string_view field) {
  return "\"" + printable_text(field, 60) + "\"";
}

}  // namespace

CsvTable::CsvTable(CsvReader& reader, const CsvRecord& header)
    : m_reader(reader), m_header_line(header.line()) {
  m_columns.reserve(header.size());
  for (std::size_t i = 0; i < header.size(); ++i)
    m_columns.emplace_back(trim(header[i]));
}

std::optional<std::size_t> CsvTable::find(std::string_view name) const {
  for (std::size_t i = 0; i < m_columns.size(); ++i) {
    if (m_columns[i] == name)
      return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> CsvTable::find_any_case(std::string_view name) const {
  for (std::size_t i = 0; i < m_columns.size(); ++i) {
    if (equal_any_case(m_columns[i], name))
      return i;
  }
  return std::nullopt;
}

tl::expected<bool, TraceError> CsvTable::next() {
  while (!m_ended) {
    auto got = m_reader.next(m_row);
    if (!got)
      return tl::unexpected(got.error());
    if (!*got) {
      m_ended = true;
      break;
    }
    if (m_row.blank() ||
        (m_blank_lines == BlankLines::EndTable && m_row.size() == 1 && m_columns.size() > 1)) {
      if (m_blank_lines == BlankLines::EndTable) {
        m_ended = true;
        break;
      }
      continue;
    }
    if (m_row.size() != m_columns.size()) {
      return tl::unexpected(error(std::to_string(m_row.size()) + " fields where the header has " +
                                  std::to_string(m_columns.size())));
    }
    return true;
  }
  return false;
}

TraceError CsvTable::error(const std::string& what) const {
  return TraceError{m_reader.path() + ": line " + std::to_string(m_row.line()) + ": " + what};
}

TraceError CsvTable::header_error(const std::string& what) const {
  return TraceError{m_reader.path() + ": line " + std::to_string(m_header_line) + ": " + what};
}

TraceError CsvTable::missing_column(std::string_view name, std::string_view needs) const {
  return header_error("missing column \"" + std::string(name) + "\" in the header (" +
                      std::string(needs) + ")");
}

TraceError CsvTable::field_error(std::size_t column, std::string_view what) const {
  return TraceError{m_reader.path() + ": line " + std::to_string(m_row.line()) + ", column \"" +
                    m_columns[column] + "\": " + std::string(what) + ": " +
                    quote_field(m_row[column])};
}

tl::expected<std::int64_t, TraceError> CsvTable::integer(std::size_t column) const {
  auto value = parse_integer(m_row[column]);
  if (!value) {
    return tl::unexpected(field_error(column, value.error() == NumberProblem::OutOfRange
                                                  ? "number out of range"
                                                  : "not a number"));
  }
  return *value;
}

tl::expected<std::int64_t, TraceError> CsvTable::count(std::size_t column) const {
  auto value = integer(column);
  if (value && *value < 0)
    return tl::unexpected(field_error(column, "negative"));
  return value;
}

tl::expected<std::int64_t, TraceError> CsvTable::nanoseconds(std::size_t column,
                                                             std::int64_t unit_ns) const {
  auto value = parse_decimal_ns(m_row[column], unit_ns);
  if (!value) {
    return tl::unexpected(field_error(column, value.error() == NumberProblem::OutOfRange
                                                  ? "number out of range"
                                                  : "not a number"));
  }
  return *value;
}

tl::expected<std::int64_t, TraceError> CsvTable::id(std::optional<std::size_t> column) const {
  if (!column || trim(m_row[*column]).empty())
    return -1;
  auto value = parse_labelled_integer(m_row[*column]);
  if (!value) {
    return tl::unexpected(field_error(
        *column, value.error() == NumberProblem::OutOfRange ? "number out of range" : "not an id"));
  }
  return *value;
}

std::string describe_header(const std::vector<std::string>& columns, std::size_t limit) {
  std::string out;
  for (const std::string& column : columns) {
    if (!out.empty())
      out += ',';
    if (out.size() + column.size() + 2 > limit) {
      out += "...";
      break;
    }
    out += '"';
    out += printable_text(column, limit);
    out += '"';
  }
  return out;
}

}  // namespace gpuport
