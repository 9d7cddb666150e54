// Parses gpuport-ignore markers and drops the findings they cover.
#include "scan/suppression.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "lex/char_scan.h"
#include "scan/rules/catalog.h"

namespace gpuport {

namespace {

constexpr std::string_view k_marker = "gpuport-ignore";

enum class MarkerScope : std::uint8_t { Line, NextLine, Begin, End };

struct Marker {
  std::uint32_t line = 0;
  MarkerScope scope = MarkerScope::Line;
  std::vector<std::string> rules;  // empty: every rule
};

struct Range {
  std::uint32_t first = 0;
  std::uint32_t last = 0;
  std::vector<std::string> rules;
};

bool id_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

std::vector<std::string> parse_rule_list(std::string_view text) {
  std::vector<std::string> rules;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !id_char(text[i])) {
      ++i;
    }
    std::size_t start = i;
    while (i < text.size() && id_char(text[i])) {
      ++i;
    }
    if (i > start) {
      rules.emplace_back(text.substr(start, i - start));
    }
  }
  return rules;
}

// Offset of the first marker at or after `from`, or npos. Every file with findings is searched,
// so this uses the vectorised search rather than std::string_view::find (a memchr per 'g').
std::size_t find_marker(std::string_view source, std::size_t from) {
  return char_scan::find(source, k_marker, from);
}

std::vector<Marker> find_markers(std::string_view source) {
  std::vector<Marker> markers;
  std::uint32_t line = 1;
  std::size_t counted_to = 0;
  for (std::size_t at = find_marker(source, 0); at != std::string_view::npos;
       at = find_marker(source, at + k_marker.size())) {
    line += static_cast<std::uint32_t>(
        std::count(source.begin() + counted_to, source.begin() + at, '\n'));
    counted_to = at;
    std::string_view rest = source.substr(at + k_marker.size());
    Marker marker;
    marker.line = line;
    if (rest.starts_with("-next-line")) {
      marker.scope = MarkerScope::NextLine;
      rest.remove_prefix(10);
    } else if (rest.starts_with("-begin")) {
      marker.scope = MarkerScope::Begin;
      rest.remove_prefix(6);
    } else if (rest.starts_with("-end")) {
      marker.scope = MarkerScope::End;
      rest.remove_prefix(4);
    }
    if (!rest.empty() && rest.front() == '(') {
      std::size_t close = rest.find_first_of(")\n");
      if (close != std::string_view::npos && rest[close] == ')') {
        marker.rules = parse_rule_list(rest.substr(1, close - 1));
      }
    } else if (!rest.empty() && id_char(rest.front())) {
      continue;  // part of a longer word such as "gpuport-ignored"
    }
    markers.push_back(std::move(marker));
  }
  return markers;
}

bool covers(const std::vector<std::string>& rules, std::string_view id) {
  return rules.empty() || std::find(rules.begin(), rules.end(), id) != rules.end();
}

}  // namespace

void apply_suppressions(std::string_view source, std::vector<Finding>& findings) {
  if (findings.empty() || find_marker(source, 0) == std::string_view::npos) {
    return;
  }
  std::vector<Range> ranges;
  std::vector<Marker> open;
  for (Marker& marker : find_markers(source)) {
    switch (marker.scope) {
      case MarkerScope::Line:
        ranges.push_back({marker.line, marker.line, std::move(marker.rules)});
        break;
      case MarkerScope::NextLine:
        ranges.push_back({marker.line + 1, marker.line + 1, std::move(marker.rules)});
        break;
      case MarkerScope::Begin:
        open.push_back(std::move(marker));
        break;
      case MarkerScope::End: {
        // Close the most recent begin with the same rule list (or any, if none matches).
        auto match = std::find_if(open.rbegin(), open.rend(),
                                  [&](const Marker& m) { return m.rules == marker.rules; });
        if (match == open.rend() && !open.empty()) {
          match = open.rbegin();
        }
        if (match != open.rend()) {
          ranges.push_back({match->line, marker.line, match->rules});
          open.erase(std::next(match).base());
        }
        break;
      }
    }
  }
  for (Marker& unclosed : open) {  // a begin without an end runs to the end of the file
    ranges.push_back({unclosed.line, UINT32_MAX, std::move(unclosed.rules)});
  }
  std::span<const RuleInfo> catalog = rule_catalog();
  std::erase_if(findings, [&](const Finding& finding) {
    std::string_view id = catalog[finding.rule].id;
    return std::any_of(ranges.begin(), ranges.end(), [&](const Range& range) {
      return finding.line >= range.first && finding.line <= range.last && covers(range.rules, id);
    });
  });
}

}  // namespace gpuport
