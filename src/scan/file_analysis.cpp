// A file's lists as a worker reuses and hands them on, and the finding construction shared by
// every analyzer.
#include "scan/file_analysis.h"

#include <iterator>

#include "scan/rules/catalog.h"

namespace gpuport {

namespace {
constexpr std::size_t k_max_excerpt = 160;

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f';
}
// Leaves `from` holding moved-from items: take_exact clears every list after moving them all.
template <typename T>
void move_exact(std::vector<T>& from, std::vector<T>& to) {
  if (from.empty()) {
    return;
  }
  to.reserve(from.size());
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}
}  // namespace

void FileAnalysis::clear() {
  findings.clear();
  kernels.clear();
  launches.clear();
  template_instantiations = 0;
  tensorrt_includes = 0;
  unused_warp_size_defines.clear();
  device_warp_size_names.clear();
  artifacts.clear();
  amd_path.clear();
  warnings.clear();
  guards.clear();
  excluded.clear();
  includes.clear();
  include_lines.clear();
  unresolved_includes.clear();
  named_by_build = false;
  lines = 0;
  skip_lexing = false;
}

FileAnalysis FileAnalysis::take_exact(std::span<const std::uint32_t> finding_order) {
  FileAnalysis exact;
  if (finding_order.empty()) {
    move_exact(findings, exact.findings);
  } else {
    exact.findings.reserve(findings.size());
    for (const std::uint32_t index : finding_order) {
      exact.findings.push_back(std::move(findings[index]));
    }
  }
  move_exact(kernels, exact.kernels);
  move_exact(launches, exact.launches);
  move_exact(artifacts, exact.artifacts);
  move_exact(amd_path, exact.amd_path);
  move_exact(warnings, exact.warnings);
  move_exact(guards, exact.guards);
  move_exact(excluded, exact.excluded);
  move_exact(includes, exact.includes);
  move_exact(include_lines, exact.include_lines);
  move_exact(unresolved_includes, exact.unresolved_includes);
  exact.named_by_build = named_by_build;
  exact.template_instantiations = template_instantiations;
  exact.tensorrt_includes = tensorrt_includes;
  move_exact(unused_warp_size_defines, exact.unused_warp_size_defines);
  move_exact(device_warp_size_names, exact.device_warp_size_names);
  exact.lines = lines;
  exact.skip_lexing = skip_lexing;
  clear();
  return exact;
}

std::string make_excerpt(std::string_view line) {
  while (!line.empty() && is_blank(line.front())) {
    line.remove_prefix(1);
  }
  while (!line.empty() && is_blank(line.back())) {
    line.remove_suffix(1);
  }
  if (line.size() > k_max_excerpt) {
    std::size_t cut = k_max_excerpt;
    // Do not split a UTF-8 sequence: back up over continuation bytes.
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) {
      --cut;
    }
    line = line.substr(0, cut);
  }
  std::string out(line);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t') {
      c = ' ';
    }
  }
  return out;
}

void add_finding(FileAnalysis& out, std::string_view rule_id, const SharedString& path,
                 const TokenStream& tokens, const Token& at, std::string detail) {
  add_line_finding(out, rule_id, path, at.line, tokens.column(at), tokens.line_text(at.line),
                   std::move(detail));
  out.findings.back().context = at.context;
}

void add_line_finding(FileAnalysis& out, std::string_view rule_id, const SharedString& path,
                      std::uint32_t line, std::uint32_t column, std::string_view line_text,
                      std::string detail) {
  const std::uint16_t rule = rule_index(rule_id);  // first: it throws on an id not in the catalog
  Finding& finding = out.findings.emplace_back();
  finding.rule = rule;
  finding.file = path;
  finding.line = line;
  finding.column = column == 0 ? 1 : column;
  if (out.excerpts) {
    finding.excerpt = make_excerpt(line_text);
  }
  finding.detail = std::move(detail);
}

}  // namespace gpuport
