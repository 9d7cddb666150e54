// Finding construction shared by every analyzer.
#include "scan/file_analysis.h"

#include "scan/rules/catalog.h"

namespace gpuport {

namespace {
constexpr std::size_t k_max_excerpt = 160;

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f';
}
}  // namespace

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

Finding make_finding(std::string_view rule_id, const std::string& path, const TokenStream& tokens,
                     const Token& at, std::string detail) {
  Finding finding;
  finding.rule = rule_index(rule_id);
  finding.file = path;
  finding.line = at.line;
  finding.column = tokens.column(at);
  finding.excerpt = make_excerpt(tokens.line_text(at.line));
  finding.detail = std::move(detail);
  finding.context = at.context;
  return finding;
}

}  // namespace gpuport
