// Text for HTML and SVG: escaping (kernel names carry <, >, & and quotes) and anchor ids.
#pragma once

#include <string>
#include <string_view>

namespace gpuport {

// `text` made printable (valid UTF-8, control characters as '?') with &, <, >, " and '
// replaced by entities: safe inside element content and inside double- or single-quoted
// attribute values.
std::string html_escape(std::string_view text);

// An id for an anchor: ASCII letters and digits kept (lower-cased), every other run of bytes
// one '-', no leading or trailing '-'; "x" when nothing is left. "GP-ASM-001" -> "gp-asm-001".
std::string html_id(std::string_view text);

// A number for an SVG coordinate: at most one decimal, no trailing ".0", never "-0".
std::string svg_number(double value);

}  // namespace gpuport
