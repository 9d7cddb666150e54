#include "report/audit/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/audit/html_text.h"
#include "report/text_util.h"

namespace gpuport {

namespace {

// One geometry for the bar charts: labels right-aligned left of x = 200, bars up to 300 px.
constexpr double k_width = 640;
constexpr double k_bar_x = 200;
constexpr double k_bar_span = 300;
constexpr double k_row = 26;
constexpr double k_bar_height = 18;
constexpr double k_pad = 8;
constexpr std::size_t k_label_columns = 28;
constexpr double k_axis_limit = 1e300;

// The line chart's plot area.
constexpr double k_line_height = 320;
constexpr double k_plot_left = 70;
constexpr double k_plot_right = 620;
constexpr double k_plot_top = 36;
constexpr double k_plot_bottom = 270;

std::string_view color(Tone tone) {
  switch (tone) {
    case Tone::Accent:
      return "#e8590c";
    case Tone::Muted:
      return "#adb5bd";
    case Tone::Second:
      return "#2b8a3e";
    case Tone::Base:
      break;
  }
  return "#3b5bdb";
}

std::string open_svg(const std::string& id, const std::string& title, double height) {
  const std::string escaped_id = html_escape(id);
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"{0}\" class=\"chart\" viewBox=\"0 0 {1} "
      "{2}\" width=\"{1}\" height=\"{2}\" role=\"img\" aria-labelledby=\"{0}-title\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<title id=\"{0}-title\">{3}</title>\n",
      escaped_id, svg_number(k_width), svg_number(height), html_escape(title));
}

std::string label_text(const std::string& label, double baseline) {
  return fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                     svg_number(k_bar_x - 8), svg_number(baseline),
                     html_escape(truncate_to_width(valid_utf8(label), k_label_columns)));
}

std::string tooltip(const std::string& label, const std::string& value_text) {
  return html_escape(value_text.empty() ? label : label + ": " + value_text);
}

// Maps [ticks.front(), ticks.back()] onto [from, to].
struct Scale {
  double low = 0;
  double high = 1;
  double from = 0;
  double to = 1;
  double operator()(double value) const {
    return from + (value - low) / (high - low) * (to - from);
  }
};

Scale scale_over(const std::vector<double>& ticks, double from, double to) {
  Scale scale{ticks.front(), ticks.back(), from, to};
  if (!(scale.high > scale.low)) {
    scale.high = scale.low + 1;
  }
  return scale;
}

double finite_or_zero(double value) {
  return std::isfinite(value) ? value : 0;
}

// A value an axis can span: finite, bounded so that high - low stays finite, and zero below
// 1e-12 so that the tick step's power of ten stays a normal double.
double axis_value(double value) {
  value = std::clamp(finite_or_zero(value), -k_axis_limit, k_axis_limit);
  return std::fabs(value) < 1e-12 ? 0.0 : value;
}

}  // namespace

std::vector<double> axis_ticks(double low, double high, int max_ticks) {
  low = axis_value(low);
  high = axis_value(high);
  if (high < low) {
    std::swap(low, high);
  }
  if (low == high) {
    if (low == 0) {
      return {0};
    }
    low = std::min(low, 0.0);
    high = std::max(high, 0.0);
  }
  const double raw_step = (high - low) / std::max(1, max_ticks);
  const int exponent = static_cast<int>(std::floor(std::log10(raw_step)));
  const double magnitude = std::pow(10, exponent);
  const double fraction = raw_step / magnitude;
  const double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  const double step = nice * magnitude;
  const double first = std::floor(low / step + 1e-9);
  const double last = std::ceil(high / step - 1e-9);
  // At most max_ticks + 2 marks; counted with an integer, since k += 1 stops moving a double
  // above 2^53.
  const double span = last - first;
  const int count = span >= 0 ? static_cast<int>(std::min(span, max_ticks + 2.0)) : 0;
  std::vector<double> ticks;
  for (int i = 0; i <= count; ++i) {
    const double k = first + i;
    // Dividing by an exact power of ten keeps 0.3 as 0.3 (3 * 0.1 is not).
    const double tick = exponent >= 0 ? k * nice * magnitude : k * nice / std::pow(10, -exponent);
    ticks.push_back(tick == 0 ? 0 : tick);  // no -0
  }
  if (ticks.empty()) {
    ticks.push_back(0);
  }
  return ticks;
}

std::string tick_label(double value) {
  value = finite_or_zero(value);
  const double magnitude = std::fabs(value);
  std::string_view suffix;
  double scaled = value;
  if (magnitude >= 1e6) {
    scaled = value / 1e6;
    suffix = "M";
  } else if (magnitude >= 1e3) {
    scaled = value / 1e3;
    suffix = "k";
  }
  std::string number = std::fabs(scaled) < 10 && std::round(scaled) != scaled
                           ? svg_number(scaled)
                           : fmt::format("{:.0f}", std::round(scaled));
  if (number == "-0") {
    number = "0";
  }
  return number + std::string(suffix);
}

std::string render_bar_chart(const BarChart& chart) {
  const double height = 2 * k_pad + static_cast<double>(chart.bars.size()) * k_row;
  double largest = 0;
  for (const Bar& bar : chart.bars) {
    largest = std::max(largest, finite_or_zero(bar.value));
  }
  std::string out = open_svg(chart.id, chart.title, height);
  for (std::size_t i = 0; i < chart.bars.size(); ++i) {
    const Bar& bar = chart.bars[i];
    const double y = k_pad + static_cast<double>(i) * k_row;
    const double value = std::max(0.0, finite_or_zero(bar.value));
    const double length = largest > 0 ? value / largest * k_bar_span : 0;
    out += fmt::format("<g class=\"bar\"><title>{}</title>", tooltip(bar.label, bar.value_text));
    out += label_text(bar.label, y + 13);
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                       svg_number(k_bar_x), svg_number(y), svg_number(length),
                       svg_number(k_bar_height), color(bar.tone));
    const double accent = std::clamp(finite_or_zero(bar.accent), 0.0, value);
    if (accent > 0) {
      out += fmt::format(
          "<rect class=\"accent\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
          svg_number(k_bar_x), svg_number(y), svg_number(accent / largest * k_bar_span),
          svg_number(k_bar_height), color(Tone::Accent));
    }
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text></g>\n", svg_number(k_bar_x + length + 6),
                       svg_number(y + 13), html_escape(bar.value_text));
  }
  out += "</svg>\n";
  return out;
}

std::string render_range_chart(const RangeChart& chart) {
  const double rows_end = k_pad + static_cast<double>(chart.bars.size()) * k_row;
  const double height = rows_end + 40;
  double largest = 0;
  for (const RangeBar& bar : chart.bars) {
    largest = std::max({largest, finite_or_zero(bar.low), finite_or_zero(bar.high)});
  }
  const std::vector<double> ticks = axis_ticks(0, largest);
  const Scale x = scale_over(ticks, k_bar_x, k_bar_x + k_bar_span);
  std::string out = open_svg(chart.id, chart.title, height);
  for (std::size_t i = 0; i < chart.bars.size(); ++i) {
    const RangeBar& bar = chart.bars[i];
    const double y = k_pad + static_cast<double>(i) * k_row;
    const double low = std::max(0.0, finite_or_zero(bar.low));
    const double high = std::max(low, finite_or_zero(bar.high));
    const double likely = std::clamp(finite_or_zero(bar.likely), low, high);
    out += fmt::format("<g class=\"range\"><title>{}</title>", tooltip(bar.label, bar.value_text));
    out += label_text(bar.label, y + 13);
    out += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" fill-opacity=\"0.35\"/>",
        svg_number(x(low)), svg_number(y), svg_number(x(high) - x(low)), svg_number(k_bar_height),
        color(bar.tone));
    out += fmt::format(
        "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"3\"/>",
        svg_number(x(likely)), svg_number(y), svg_number(y + k_bar_height), color(bar.tone));
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text></g>\n", svg_number(x(high) + 6),
                       svg_number(y + 13), html_escape(bar.value_text));
  }
  const double axis_y = rows_end + 2;
  out += fmt::format(
      "<g class=\"axis\"><line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" "
      "stroke=\"#495057\"/>",
      svg_number(k_bar_x), svg_number(k_bar_x + k_bar_span), svg_number(axis_y));
  for (double tick : ticks) {
    out += fmt::format(
        "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#495057\"/><text x=\"{0}\" "
        "y=\"{3}\" text-anchor=\"middle\">{4}</text>",
        svg_number(x(tick)), svg_number(axis_y), svg_number(axis_y + 4), svg_number(axis_y + 16),
        tick_label(tick));
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text></g>\n",
                     svg_number(k_bar_x + k_bar_span / 2), svg_number(axis_y + 32),
                     html_escape(chart.axis_label));
  out += "</svg>\n";
  return out;
}

std::string render_line_chart(const LineChart& chart) {
  double min_x = 0;
  double max_x = 0;
  double min_y = 0;
  double max_y = 0;
  for (const LineSeries& series : chart.series) {
    for (const LinePoint& point : series.points) {
      min_x = std::min(min_x, finite_or_zero(point.x));
      max_x = std::max(max_x, finite_or_zero(point.x));
      min_y = std::min(min_y, finite_or_zero(point.y));
      max_y = std::max(max_y, finite_or_zero(point.y));
    }
  }
  const std::vector<double> x_ticks = axis_ticks(min_x, max_x, 8);
  const std::vector<double> y_ticks = axis_ticks(min_y, max_y, 5);
  const Scale x = scale_over(x_ticks, k_plot_left, k_plot_right);
  const Scale y = scale_over(y_ticks, k_plot_bottom, k_plot_top);

  std::string out = open_svg(chart.id, chart.title, k_line_height);
  out += "<g class=\"grid\">";
  for (double tick : y_ticks) {
    out += fmt::format(
        "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\" stroke=\"{3}\"/><text x=\"{4}\" "
        "y=\"{5}\" "
        "text-anchor=\"end\">{6}</text>",
        svg_number(k_plot_left), svg_number(k_plot_right), svg_number(y(tick)),
        tick == 0 ? "#495057" : "#dee2e6", svg_number(k_plot_left - 6), svg_number(y(tick) + 4),
        tick_label(tick));
  }
  for (double tick : x_ticks) {
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                       svg_number(x(tick)), svg_number(k_plot_bottom + 16), tick_label(tick));
  }
  out += fmt::format(
      "<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#495057\"/>"
      "<text x=\"{3}\" y=\"{4}\" text-anchor=\"middle\">{5}</text>"
      "<text x=\"{6}\" y=\"{7}\">{8}</text></g>\n",
      svg_number(k_plot_left), svg_number(k_plot_top), svg_number(k_plot_bottom),
      svg_number((k_plot_left + k_plot_right) / 2), svg_number(k_plot_bottom + 36),
      html_escape(chart.x_label), svg_number(8), svg_number(k_plot_top - 10),
      html_escape(chart.y_label));

  double legend_x = k_plot_left + 80;
  for (const LineSeries& series : chart.series) {
    const std::string dash = series.dashed ? " stroke-dasharray=\"6 4\"" : "";
    std::string points;
    for (const LinePoint& point : series.points) {
      points +=
          fmt::format("{}{},{}", points.empty() ? "" : " ", svg_number(x(finite_or_zero(point.x))),
                      svg_number(y(finite_or_zero(point.y))));
    }
    out += fmt::format(
        "<g class=\"series\"><title>{0}</title><polyline points=\"{1}\" fill=\"none\" "
        "stroke=\"{2}\" stroke-width=\"2\"{3}/><line x1=\"{4}\" x2=\"{5}\" y1=\"{6}\" y2=\"{6}\" "
        "stroke=\"{2}\" stroke-width=\"2\"{3}/><text x=\"{7}\" y=\"{8}\">{0}</text></g>\n",
        html_escape(series.name), points, color(series.tone), dash, svg_number(legend_x),
        svg_number(legend_x + 20), svg_number(k_plot_top - 14), svg_number(legend_x + 24),
        svg_number(k_plot_top - 10));
    legend_x += 40 + 7 * static_cast<double>(display_width(valid_utf8(series.name)));
  }
  if (chart.marker && std::isfinite(chart.marker->x) && chart.marker->x >= x_ticks.front() &&
      chart.marker->x <= x_ticks.back()) {
    const double at = x(chart.marker->x);
    const bool right_half = at > (k_plot_left + k_plot_right) / 2;
    out += fmt::format(
        "<g class=\"marker\"><line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#c92a2a\" "
        "stroke-dasharray=\"3 3\"/><text x=\"{3}\" y=\"{4}\" text-anchor=\"{5}\" "
        "fill=\"#c92a2a\">{6}</text></g>\n",
        svg_number(at), svg_number(k_plot_top), svg_number(k_plot_bottom),
        svg_number(right_half ? at - 4 : at + 4), svg_number(k_plot_bottom - 6),
        right_half ? "end" : "start", html_escape(chart.marker->label));
  }
  out += "</svg>\n";
  return out;
}

}  // namespace gpuport
