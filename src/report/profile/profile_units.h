// How the profile writers spell times, shares, ratios and platforms, and how they escape a
// kernel name for CSV and Markdown.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "profile/analysis/profile.h"

namespace gpuport {

// "850 ns", "53.07 µs", "12.79 ms", "4.159 s".
std::string format_duration(std::int64_t ns);
// A fraction as a percentage with one decimal: 0.2815 -> "28.2%".
std::string format_share(double fraction);
// "0.95x", "<0.01x", "240x"; "-" when there is no ratio.
std::string format_ratio(std::optional<double> ratio);
// 1234567 -> "1,234,567".
std::string format_count(std::int64_t count);
// Shares and ratios in JSON and CSV: rounded to 6 decimals.
double round6(double value);
// "0.281523" (CSV): fixed six decimals.
std::string fixed6(double value);

// "kernel", "memcpy", "memset".
std::string_view activity_kind_name(ActivityKind kind);

// "nvidia, NVIDIA H100 80GB HBM3" / "amd, 8x gfx950" / "unknown vendor".
std::string platform_summary(const TraceInfo& trace);

// One CSV field (RFC 4180): control bytes replaced by '?', a leading =, +, - or @ (a formula
// to a spreadsheet) behind an apostrophe, quoted when it holds a comma or quote or starts so;
// quotes doubled.
std::string csv_field(std::string_view text);
// Text for a Markdown table cell: printable, pipes, emphasis and HTML characters escaped.
std::string markdown_cell(std::string_view text);

}  // namespace gpuport
