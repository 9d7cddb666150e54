// Small inline-SVG charts for the HTML report: horizontal bars, ranged bars (low / likely /
// high) and lines with a vertical marker. Pure functions from values to markup: no scripts, no
// external references, every text escaped; the same input always gives the same bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuport {

// The fill of a bar or the stroke of a line, so charts share one palette.
enum class Tone : std::uint8_t { Base, Accent, Muted, Second };

struct Bar {
  std::string label;       // left of the bar (cut to 28 columns; the full text is its tooltip)
  double value = 0;        // length; negative values draw as zero
  double accent = 0;       // the part of `value` stacked first in the Accent colour (0: none)
  std::string value_text;  // right of the bar, e.g. "12.3 ms (45.6%)"
  Tone tone = Tone::Base;
};

struct BarChart {
  std::string id;     // the svg's id; its <title> gets id + "-title"
  std::string title;  // the svg's accessible name (<title>)
  std::vector<Bar> bars;
};

// A bar from `low` to `high` with a tick at `likely` (low <= likely <= high expected; the
// values are clamped into that order when they are not).
struct RangeBar {
  std::string label;
  double low = 0;
  double likely = 0;
  double high = 0;
  std::string value_text;  // e.g. "3 / 5 / 9 days"
  Tone tone = Tone::Base;
};

struct RangeChart {
  std::string id;
  std::string title;
  std::string axis_label;  // under the axis, e.g. "engineer-days"
  std::vector<RangeBar> bars;
};

struct LinePoint {
  double x = 0;
  double y = 0;
};

struct LineSeries {
  std::string name;  // in the legend
  std::vector<LinePoint> points;
  Tone tone = Tone::Base;
  bool dashed = false;
};

// A vertical line across the plot at `x`, labelled at its top.
struct LineMarker {
  double x = 0;
  std::string label;
};

struct LineChart {
  std::string id;
  std::string title;
  std::string x_label;  // e.g. "months after the move"
  std::string y_label;  // e.g. "USD"
  std::vector<LineSeries> series;
  std::optional<LineMarker> marker;
};

std::string render_bar_chart(const BarChart& chart);
std::string render_range_chart(const RangeChart& chart);
std::string render_line_chart(const LineChart& chart);

// Axis ticks: 0 (or the range's lower end) and multiples of a 1, 2 or 5 x 10^n step that
// cover [low, high] in at most `max_ticks` + 1 marks. {0} when low == high == 0.
std::vector<double> axis_ticks(double low, double high, int max_ticks = 5);

// A tick label: "0", "250", "1.5k", "12k", "3.2M", "-40k".
std::string tick_label(double value);

}  // namespace gpuport
