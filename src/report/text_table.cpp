// Width-fitting table layout for the text report.
#include "report/text_table.h"

#include <algorithm>

#include "report/text_util.h"

namespace gpuport {

std::string styled(std::string_view text, std::string_view style, Color color) {
  if (color == Color::Off || style.empty()) {
    return std::string(text);
  }
  std::string out(style);
  out.append(text);
  out.append(k_ansi_reset);
  return out;
}

std::string_view tier_color(std::string_view tier) {
  if (tier == "rewrite") {
    return k_ansi_red;
  }
  if (tier == "retune") {
    return k_ansi_yellow;
  }
  if (tier == "mechanical") {
    return k_ansi_cyan;
  }
  if (tier == "config") {
    return k_ansi_blue;
  }
  if (tier == "framework") {
    return k_ansi_green;
  }
  return {};
}

std::string render_table(const std::vector<TableColumn>& columns,
                         const std::vector<std::vector<std::string>>& rows, std::size_t indent,
                         std::size_t width, Color color, const std::vector<std::string>& notes) {
  const std::size_t count = columns.size();
  std::vector<std::size_t> widths(count);
  for (std::size_t c = 0; c < count; ++c) {
    widths[c] = display_width(columns[c].header);
    for (const auto& row : rows) {
      if (c < row.size()) {
        widths[c] = std::max(widths[c], display_width(row[c]));
      }
    }
    if (columns[c].max_width > 0) {
      widths[c] = std::min(widths[c], std::max(columns[c].max_width, columns[c].min_width));
    }
  }
  const std::size_t gaps = count > 0 ? 2 * (count - 1) : 0;
  auto total = [&] {
    std::size_t sum = indent + gaps;
    for (std::size_t w : widths) {
      sum += w;
    }
    return sum;
  };
  // Shrink the widest shrinkable column one column at a time until the table fits.
  while (total() > width) {
    std::size_t widest = count;
    for (std::size_t c = 0; c < count; ++c) {
      if (columns[c].shrink == Shrink::Allowed && widths[c] > columns[c].min_width &&
          (widest == count || widths[c] > widths[widest])) {
        widest = c;
      }
    }
    if (widest == count) {
      break;  // nothing left to shrink: the caller asked for too narrow a width
    }
    --widths[widest];
  }

  std::string out;
  auto emit_row = [&](const std::vector<std::string>& cells, bool header) {
    std::string line(indent, ' ');
    for (std::size_t c = 0; c < count; ++c) {
      const std::string_view raw = c < cells.size() ? std::string_view(cells[c]) : "";
      const std::string text = columns[c].keep == KeepEnd::End
                                   ? truncate_start_to_width(raw, widths[c])
                                   : truncate_to_width(raw, widths[c]);
      const bool last = c + 1 == count;
      std::string cell = columns[c].align == Align::Right ? pad_left(text, widths[c])
                         : last                           ? text
                                                          : pad_right(text, widths[c]);
      if (header) {
        cell = styled(cell, k_ansi_bold, color);
      } else if (columns[c].color_of != nullptr) {
        cell = styled(cell, columns[c].color_of(text), color);
      }
      line += cell;
      if (!last) {
        line += "  ";
      }
    }
    while (!line.empty() && line.back() == ' ') {
      line.pop_back();
    }
    out += line;
    out += '\n';
  };
  std::vector<std::string> headers;
  for (const TableColumn& column : columns) {
    headers.push_back(column.header);
  }
  emit_row(headers, true);
  const std::size_t note_indent = count > 1 ? indent + widths[0] + 2 : indent;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    emit_row(rows[r], false);
    if (r < notes.size() && !notes[r].empty()) {
      const std::size_t room = width > note_indent ? width - note_indent : 1;
      out += std::string(note_indent, ' ');
      out += styled(truncate_to_width(notes[r], room), k_ansi_dim, color);
      out += '\n';
    }
  }
  return out;
}

}  // namespace gpuport
