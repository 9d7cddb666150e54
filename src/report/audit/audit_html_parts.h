// The sections of the HTML audit report, one function each (audit_html.cpp assembles them;
// the tables live in audit_html_tables.cpp).
#pragma once

#include <string>
#include <string_view>

#include "audit/audit_result.h"

namespace gpuport::html {

// `<a href="#anchor">text</a>`, text escaped; plain escaped text when the anchor is empty.
std::string link(std::string_view anchor, std::string_view text);
// `file:line` (line omitted when 0), escaped, in <code>.
std::string location(std::string_view file, std::uint32_t line);
// A table cell with a number, right-aligned.
std::string number_cell(std::string_view text);

std::string portability_section(const AuditResult& result);
std::string items_section(const AuditResult& result);
std::string kernels_section(const AuditResult& result);
// The CUDA-only features the AMD build does without; empty when there are none.
std::string feature_gaps_section(const AuditResult& result);
std::string measure_first_section(const AuditResult& result);
std::string findings_section(const AuditResult& result);

}  // namespace gpuport::html
