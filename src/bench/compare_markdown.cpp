#include "bench/compare_markdown.h"

#include <fmt/format.h>

#include <cmath>

namespace gpuport {

namespace {

// Table cells cannot hold '|' or line breaks.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string value(const std::optional<double>& v, const std::string& unit) {
  if (!v || !std::isfinite(*v)) {
    return "-";
  }
  return fmt::format("{:.2f} {}", *v, unit);
}

}  // namespace

std::string render_comparison_markdown(const BenchComparison& c) {
  std::string out = fmt::format("**A:** `{}` ({})  \n**B:** `{}` ({})\n\n", cell(c.name_a),
                                cell(c.model_a), cell(c.name_b), cell(c.model_b));
  out += "| metric | A | B | B/A | better |\n|---|---:|---:|---:|---|\n";
  for (const CompareRow& r : c.rows) {
    const std::string better = r.winner.empty()     ? "-"
                               : r.winner == "same" ? "same"
                               : r.winner == "a"    ? "A"
                                                    : "B";
    out +=
        fmt::format("| {} | {} | {} | {} | {} |\n", cell(r.metric), value(r.a, r.unit),
                    value(r.b, r.unit), r.ratio ? fmt::format("{:.2f}x", *r.ratio) : "-", better);
  }
  if (!c.notes.empty()) {
    out += "\n";
    for (const std::string& note : c.notes) {
      out += "- " + cell(note) + "\n";
    }
  }
  return out;
}

}  // namespace gpuport
