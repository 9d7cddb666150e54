// Applies a translation's edits: unchanged spans are appended whole, never copied per token.
#include "hipify/edit_list.h"

#include <algorithm>

namespace gpuport {

std::string_view EditList::own(std::string text) {
  return m_owned.emplace_back(std::move(text));
}

std::string EditList::apply(const TokenStream& tokens, std::uint64_t& changed_lines) {
  std::string_view source = tokens.source;
  std::stable_sort(m_edits.begin(), m_edits.end(), [](const Edit& a, const Edit& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  std::size_t extra = 0;
  for (const Edit& edit : m_edits) {
    extra += edit.text.size();
  }
  std::string out;
  out.reserve(source.size() + extra);
  // line_starts[n] is where line n + 1 begins (lines are 1-based).
  auto next_line_start = [&](std::uint32_t line) {
    return line < tokens.line_starts.size() ? tokens.line_starts[line] : UINT32_MAX;
  };
  std::uint32_t position = 0;
  std::uint32_t last_counted_line = 0;  // lines are 1-based, so 0 means none yet
  for (const Edit& edit : m_edits) {
    if (edit.begin < position || edit.end > source.size()) {
      continue;  // overlaps an applied edit; the passes never produce this, but stay safe
    }
    out.append(source.substr(position, edit.begin - position));
    out.append(edit.text);
    position = edit.end;
    if (edit.new_line) {
      ++changed_lines;
      continue;
    }
    // Most edits sit on the line of the previous one and span one line: skip the searches.
    std::uint32_t first = last_counted_line > 0 && edit.begin < next_line_start(last_counted_line)
                              ? last_counted_line
                              : tokens.line_of(edit.begin);
    std::uint32_t last_byte = edit.end > edit.begin ? edit.end - 1 : edit.begin;
    std::uint32_t last = last_byte < next_line_start(first) ? first : tokens.line_of(last_byte);
    first = std::max(first, last_counted_line + 1);
    if (last >= first) {
      changed_lines += last - first + 1;
      last_counted_line = last;
    }
  }
  out.append(source.substr(std::min<std::size_t>(position, source.size())));
  return out;
}

}  // namespace gpuport
