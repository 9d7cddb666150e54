// Position helpers shared by every lexer.
#include "lex/token.h"

#include <algorithm>

namespace gpuport {

std::uint32_t TokenStream::line_of(std::uint32_t offset) const {
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  return static_cast<std::uint32_t>(it - line_starts.begin());
}

std::uint32_t TokenStream::column_of(std::uint32_t offset) const {
  std::uint32_t line = line_of(offset);
  if (line == 0) {
    return offset + 1;
  }
  return offset - line_starts[line - 1] + 1;
}

std::string_view TokenStream::line_text(std::uint32_t line) const {
  if (line == 0 || line > line_starts.size()) {
    return {};
  }
  std::size_t begin = line_starts[line - 1];
  std::size_t end = line < line_starts.size() ? line_starts[line] : source.size();
  std::string_view text = source.substr(begin, end - begin);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

const BranchRegion* TokenStream::region_of(std::size_t index) const {
  if (regions.empty()) {
    return nullptr;
  }
  auto it = std::upper_bound(
      regions.begin(), regions.end(), index,
      [](std::size_t value, const BranchRegion& region) { return value < region.first_token; });
  return it == regions.begin() ? &regions.front() : &*(it - 1);
}

const BranchRegion* TokenStream::region_at_line(std::uint32_t line) const {
  if (regions.empty()) {
    return nullptr;
  }
  auto it = std::upper_bound(
      regions.begin(), regions.end(), line,
      [](std::uint32_t value, const BranchRegion& region) { return value < region.line; });
  return it == regions.begin() ? &regions.front() : &*(it - 1);
}

void TokenStream::clear() {
  source = {};
  tokens.clear();
  line_starts.clear();
  diagnostics.clear();
  anchors.clear();
  first_hip_token = k_no_token;
  directives.clear();
  regions.clear();
  has_off_path = false;
  amd_includes.clear();
  amd_include_lines.clear();
  unresolved_amd_includes.clear();
  macros_at_end = nullptr;
}

}  // namespace gpuport
