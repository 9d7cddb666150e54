// Myers' diff with the linear-space middle-snake refinement, over line ids, and the unified
// format printer.
#include "hipify/unified_diff.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>

namespace gpuport {

namespace {

using Index = std::ptrdiff_t;

struct Point {
  Index x = 0;
  Index y = 0;
};

// Marks which old lines are deleted and which new lines are inserted.
class Differ {
 public:
  Differ(std::span<const int> a, std::span<const int> b)
      : m_a(a), m_b(b), m_deleted(a.size(), false), m_inserted(b.size(), false) {}

  void run() { compare(0, static_cast<Index>(m_a.size()), 0, static_cast<Index>(m_b.size())); }

  const std::vector<bool>& deleted() const { return m_deleted; }
  const std::vector<bool>& inserted() const { return m_inserted; }

 private:
  void compare(Index x0, Index x1, Index y0, Index y1) {
    while (x0 < x1 && y0 < y1 && m_a[x0] == m_b[y0]) {
      ++x0;
      ++y0;
    }
    while (x0 < x1 && y0 < y1 && m_a[x1 - 1] == m_b[y1 - 1]) {
      --x1;
      --y1;
    }
    if (x0 == x1 || y0 == y1) {
      mark(x0, x1, y0, y1);
      return;
    }
    const auto split = middle_snake(x0, x1, y0, y1);
    const Index n = x1 - x0;
    const Index m = y1 - y0;
    if (!split || (split->x == 0 && split->y == 0) || (split->x == n && split->y == m)) {
      mark(x0, x1, y0, y1);  // no common line at all
      return;
    }
    compare(x0, x0 + split->x, y0, y0 + split->y);
    compare(x0 + split->x, x1, y0 + split->y, y1);
  }

  void mark(Index x0, Index x1, Index y0, Index y1) {
    for (Index x = x0; x < x1; ++x) {
      m_deleted[static_cast<std::size_t>(x)] = true;
    }
    for (Index y = y0; y < y1; ++y) {
      m_inserted[static_cast<std::size_t>(y)] = true;
    }
  }

  // A point on a shortest edit path through the middle of the range, found by searching
  // forward from the start and backward from the end until the two searches overlap.
  // Backward positions are kept as distances from the end.
  std::optional<Point> middle_snake(Index x0, Index x1, Index y0, Index y1) {
    const Index n = x1 - x0;
    const Index m = y1 - y0;
    const Index max_d = (n + m + 1) / 2 + 1;
    const Index offset = max_d + 1;
    const auto length = static_cast<std::size_t>(2 * offset + 2);
    m_forward.assign(length, -1);
    m_backward.assign(length, -1);
    m_forward[static_cast<std::size_t>(offset + 1)] = 0;
    m_backward[static_cast<std::size_t>(offset + 1)] = 0;
    const Index delta = n - m;
    const bool odd = (delta % 2) != 0;
    auto at = [offset](std::vector<Index>& v, Index k) -> Index& {
      return v[static_cast<std::size_t>(offset + k)];
    };
    auto in_range = [offset, length](Index k) {
      return offset + k >= 0 && static_cast<std::size_t>(offset + k) < length;
    };
    Index f_start = 0;
    Index f_end = 0;
    Index b_start = 0;
    Index b_end = 0;
    for (Index d = 0; d < max_d; ++d) {
      for (Index k = -d + f_start; k <= d - f_end; k += 2) {
        Index x = (k == -d || (k != d && at(m_forward, k - 1) < at(m_forward, k + 1)))
                      ? at(m_forward, k + 1)
                      : at(m_forward, k - 1) + 1;
        Index y = x - k;
        while (x < n && y < m && m_a[x0 + x] == m_b[y0 + y]) {
          ++x;
          ++y;
        }
        at(m_forward, k) = x;
        if (x > n) {
          f_end += 2;
        } else if (y > m) {
          f_start += 2;
        } else if (odd) {
          const Index kb = delta - k;
          if (in_range(kb) && at(m_backward, kb) != -1 && x >= n - at(m_backward, kb)) {
            return Point{x, y};
          }
        }
      }
      for (Index k = -d + b_start; k <= d - b_end; k += 2) {
        Index x = (k == -d || (k != d && at(m_backward, k - 1) < at(m_backward, k + 1)))
                      ? at(m_backward, k + 1)
                      : at(m_backward, k - 1) + 1;
        Index y = x - k;
        while (x < n && y < m && m_a[x1 - x - 1] == m_b[y1 - y - 1]) {
          ++x;
          ++y;
        }
        at(m_backward, k) = x;
        if (x > n) {
          b_end += 2;
        } else if (y > m) {
          b_start += 2;
        } else if (!odd) {
          const Index kf = delta - k;
          if (in_range(kf) && at(m_forward, kf) != -1) {
            const Index fx = at(m_forward, kf);
            if (fx >= n - x) {
              return Point{fx, fx - kf};
            }
          }
        }
      }
    }
    return std::nullopt;
  }

  std::span<const int> m_a;
  std::span<const int> m_b;
  std::vector<bool> m_deleted;
  std::vector<bool> m_inserted;
  std::vector<Index> m_forward;
  std::vector<Index> m_backward;
};

void append_range(std::string& out, char marker, std::size_t start, std::size_t count) {
  // An empty range names the line before it (0 at the start of the file), as diff -u does.
  const std::size_t first = count == 0 ? start : start + 1;
  out += marker;
  out += std::to_string(first);
  if (count != 1) {
    out += ',';
    out += std::to_string(count);
  }
}

void append_line(std::string& out, char marker, std::string_view line) {
  out += marker;
  out += line;
  if (line.empty() || line.back() != '\n') {
    out += "\n\\ No newline at end of file\n";
  }
}

// A file name as git writes it in a diff header: as it is, or, when it holds a control byte, a
// quote or a backslash, in double quotes with C escapes (an ESC byte is written \033). Raw
// escape sequences reached the terminal, and patch and git apply failed on them.
std::string diff_path(std::string_view prefix, std::string_view path) {
  const bool plain = std::none_of(path.begin(), path.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f || c == '"' || c == '\\';
  });
  if (plain) {
    return std::string(prefix) + std::string(path);
  }
  std::string out = "\"" + std::string(prefix);
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        if (byte < 0x20 || byte == 0x7f) {
          out += '\\';
          out += static_cast<char>('0' + ((byte >> 6) & 7));
          out += static_cast<char>('0' + ((byte >> 3) & 7));
          out += static_cast<char>('0' + (byte & 7));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t newline = text.find('\n', start);
    const std::size_t end = newline == std::string_view::npos ? text.size() : newline + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

std::vector<LineEdit> diff_lines(std::span<const std::string_view> old_lines,
                                 std::span<const std::string_view> new_lines) {
  std::unordered_map<std::string_view, int> ids;
  auto intern = [&ids](std::span<const std::string_view> lines) {
    std::vector<int> out;
    out.reserve(lines.size());
    for (std::string_view line : lines) {
      out.push_back(ids.emplace(line, static_cast<int>(ids.size())).first->second);
    }
    return out;
  };
  const std::vector<int> a = intern(old_lines);
  const std::vector<int> b = intern(new_lines);
  Differ differ(a, b);
  differ.run();

  std::vector<LineEdit> edits;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && differ.deleted()[i]) {
      edits.push_back({LineEditKind::Delete, i++, j});
    } else if (j < b.size() && differ.inserted()[j]) {
      edits.push_back({LineEditKind::Insert, i, j++});
    } else {
      edits.push_back({LineEditKind::Keep, i++, j++});
    }
  }
  return edits;
}

std::string unified_diff(std::string_view old_text, std::string_view new_text,
                         std::string_view old_path, std::string_view new_path,
                         std::size_t context) {
  if (old_text == new_text) {
    return {};
  }
  const std::vector<std::string_view> old_lines = split_lines(old_text);
  const std::vector<std::string_view> new_lines = split_lines(new_text);
  const std::vector<LineEdit> edits = diff_lines(old_lines, new_lines);

  std::string out =
      "--- " + diff_path("a/", old_path) + "\n+++ " + diff_path("b/", new_path) + "\n";
  const std::size_t count = edits.size();
  auto is_change = [&edits](std::size_t p) { return edits[p].kind != LineEditKind::Keep; };
  std::size_t p = 0;
  while (p < count) {
    while (p < count && !is_change(p)) {
      ++p;
    }
    if (p == count) {
      break;
    }
    const std::size_t start = p >= context ? p - context : 0;
    std::size_t end = p;
    for (;;) {
      while (end < count && is_change(end)) {
        ++end;
      }
      std::size_t next = end;
      while (next < count && !is_change(next)) {
        ++next;
      }
      // Changes separated by at most two contexts' worth of lines share one hunk.
      if (next < count && next - end <= 2 * context) {
        end = next;
        continue;
      }
      break;
    }
    const std::size_t stop = std::min(count, end + context);

    std::size_t old_count = 0;
    std::size_t new_count = 0;
    for (std::size_t q = start; q < stop; ++q) {
      old_count += edits[q].kind != LineEditKind::Insert ? 1 : 0;
      new_count += edits[q].kind != LineEditKind::Delete ? 1 : 0;
    }
    out += "@@ ";
    append_range(out, '-', edits[start].old_index, old_count);
    out += ' ';
    append_range(out, '+', edits[start].new_index, new_count);
    out += " @@\n";
    for (std::size_t q = start; q < stop; ++q) {
      const LineEdit& edit = edits[q];
      switch (edit.kind) {
        case LineEditKind::Keep:
          append_line(out, ' ', old_lines[edit.old_index]);
          break;
        case LineEditKind::Delete:
          append_line(out, '-', old_lines[edit.old_index]);
          break;
        case LineEditKind::Insert:
          append_line(out, '+', new_lines[edit.new_index]);
          break;
      }
    }
    p = stop;
  }
  return out;
}

}  // namespace gpuport
