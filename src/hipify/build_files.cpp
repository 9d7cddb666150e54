// Build-file kinds, names, and the edit collector both rewriters share.
#include "hipify/build_files.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "hipify/build_file_editor.h"

namespace gpuport {

namespace {

std::string_view base_name(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The terminator of the line that starts at `start`: "\r\n", "\n", or "" for a last line.
std::string_view terminator_of_line(std::string_view source, std::size_t start) {
  const std::size_t newline = source.find('\n', start);
  if (newline == std::string_view::npos) {
    return {};
  }
  return newline > start && source[newline - 1] == '\r' ? "\r\n" : "\n";
}

}  // namespace

std::string lower_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return out;
}

std::optional<BuildFileKind> build_file_kind(std::string_view path) {
  const std::string name = lower_ascii(base_name(path));
  if (name == "cmakelists.txt" || (name.size() > 6 && name.ends_with(".cmake"))) {
    return BuildFileKind::CMake;
  }
  if (name == "setup.py") {
    return BuildFileKind::SetupPy;
  }
  return std::nullopt;
}

std::string_view build_file_kind_name(BuildFileKind kind) {
  return kind == BuildFileKind::CMake ? "cmake" : "setup.py";
}

std::string_view build_change_name(BuildChange change) {
  switch (change) {
    case BuildChange::Rewrite:
      return "rewrite";
    case BuildChange::Insert:
      return "insert";
    case BuildChange::Manual:
      return "manual";
    case BuildChange::Note:
      return "note";
  }
  return "note";
}

BuildFileResult analyze_build_file(BuildFileKind kind, std::string_view source,
                                   const BuildFileOptions& options) {
  return kind == BuildFileKind::CMake ? analyze_cmake_file(source, options)
                                      : analyze_setup_py(source, options);
}

BuildFileEditor::BuildFileEditor(std::string_view source) : m_source(source) {
  m_line_starts.push_back(0);
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\n') {
      m_line_starts.push_back(i + 1);
    }
  }
}

std::uint32_t BuildFileEditor::line_of(std::size_t offset) const {
  const auto it = std::upper_bound(m_line_starts.begin(), m_line_starts.end(), offset);
  return static_cast<std::uint32_t>(it - m_line_starts.begin());
}

std::string_view BuildFileEditor::indentation_at(std::size_t offset) const {
  const std::size_t start = m_line_starts[line_of(offset) - 1];
  std::size_t end = start;
  while (end < m_source.size() && (m_source[end] == ' ' || m_source[end] == '\t')) {
    ++end;
  }
  return m_source.substr(start, end - start);
}

void BuildFileEditor::report(std::size_t offset, BuildChange change, std::string cuda,
                             std::string hip) {
  m_items.emplace_back(offset,
                       BuildFileItem{line_of(offset), change, std::move(cuda), std::move(hip)});
}

void BuildFileEditor::replace(std::size_t offset, std::size_t length, std::string text) {
  m_edits.push_back(Edit{offset, length, std::move(text), m_edits.size()});
}

void BuildFileEditor::remove(std::size_t begin, std::size_t end) {
  auto blank = [this](std::size_t i) { return m_source[i] == ' ' || m_source[i] == '\t'; };
  std::size_t line_begin = begin;
  while (line_begin > 0 && blank(line_begin - 1)) {
    --line_begin;
  }
  std::size_t line_end = end;
  while (line_end < m_source.size() && (blank(line_end) || m_source[line_end] == '\r')) {
    ++line_end;
  }
  const bool starts_line = line_begin == 0 || m_source[line_begin - 1] == '\n';
  if (starts_line && line_end < m_source.size() && m_source[line_end] == '\n') {
    replace(line_begin, line_end + 1 - line_begin, {});
    return;
  }
  replace(begin, end - begin, {});
}

void BuildFileEditor::remove_with_leading_blanks(std::size_t offset, std::size_t length) {
  std::size_t start = offset;
  while (start > 0 && (m_source[start - 1] == ' ' || m_source[start - 1] == '\t')) {
    --start;
  }
  remove(start, offset + length);
}

void BuildFileEditor::insert_line_before(std::size_t offset, std::string_view line) {
  const std::size_t start = m_line_starts[line_of(offset) - 1];
  std::string_view terminator = terminator_of_line(m_source, start);
  std::string text(indentation_at(offset));
  text += line;
  text += terminator.empty() ? "\n" : terminator;
  replace(start, 0, std::move(text));
}

void BuildFileEditor::insert_line_after(std::size_t offset, std::string_view line) {
  const std::uint32_t number = line_of(offset);
  const std::size_t start = m_line_starts[number - 1];
  const std::string_view terminator = terminator_of_line(m_source, start);
  std::string text(indentation_at(offset));
  text += line;
  if (terminator.empty()) {
    replace(m_source.size(), 0, "\n" + text);
  } else {
    replace(m_line_starts[number], 0, text + std::string(terminator));
  }
}

BuildFileResult BuildFileEditor::finish(BuildFileKind kind) && {
  std::sort(m_edits.begin(), m_edits.end(), [](const Edit& a, const Edit& b) {
    if (a.offset != b.offset) {
      return a.offset < b.offset;
    }
    if ((a.length == 0) != (b.length == 0)) {
      return a.length == 0;  // an inserted line goes before an edit of the line it precedes
    }
    return a.sequence < b.sequence;
  });
  BuildFileResult result;
  result.kind = kind;
  result.rewritten.reserve(m_source.size());
  std::size_t copied = 0;
  for (const Edit& edit : m_edits) {
    if (edit.offset < copied) {
      continue;  // overlaps an edit already applied
    }
    result.rewritten.append(m_source.substr(copied, edit.offset - copied));
    result.rewritten += edit.text;
    copied = edit.offset + edit.length;
  }
  result.rewritten.append(m_source.substr(std::min(copied, m_source.size())));
  result.changed = result.rewritten != m_source;
  std::stable_sort(m_items.begin(), m_items.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  // The same change twice on one line ("${CMAKE_CUDA_FLAGS}" in set(CMAKE_CUDA_FLAGS ...)).
  std::set<std::tuple<std::uint32_t, BuildChange, std::string, std::string>> seen;
  for (auto& [offset, item] : m_items) {
    if (seen.emplace(item.line, item.change, item.cuda, item.hip).second) {
      result.items.push_back(std::move(item));
    }
  }
  return result;
}

}  // namespace gpuport
