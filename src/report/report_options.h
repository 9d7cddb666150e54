// How a report is rendered: colour, width and links. Every writer takes the same options.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpuport {

enum class Color : std::uint8_t { Off, On };

struct ReportOptions {
  Color color = Color::Off;  // ANSI escapes in text output only
  std::size_t width = 100;   // columns available to the text report
  // Prefix of the rule pages in SARIF helpUri and Markdown links; "<prefix><ID>.md".
  std::string rule_doc_base = "docs/rules/";
  // file:// URI of the directory finding paths are relative to (SARIF originalUriBaseIds);
  // empty when unknown.
  std::string root_uri;
  std::size_t max_kernels = 20;  // kernels listed by the text and Markdown reports
  // Threads the JSON and SARIF writers may render long lists on; the output is the same.
  unsigned jobs = 1;
};

}  // namespace gpuport
