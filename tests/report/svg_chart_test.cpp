// The inline-SVG charts byte for byte on tiny inputs, their axis ticks and labels, and the HTML
// text helpers they escape with.
#include <gtest/gtest.h>

#include <limits>

#include "report/audit/html_text.h"
#include "report/audit/svg_chart.h"

namespace gpuport {
namespace {

TEST(HtmlText, EscapesEveryCharacterThatCanBreakMarkupOrAnAttribute) {
  EXPECT_EQ(html_escape("k<T&, \"x\">'y'"), "k&lt;T&amp;, &quot;x&quot;&gt;&#39;y&#39;");
  EXPECT_EQ(html_escape("a\x1b[31mb"), "a?[31mb");  // no terminal or control bytes
  EXPECT_EQ(html_escape("\xff"), "\xef\xbf\xbd");   // invalid UTF-8 repaired
  EXPECT_EQ(html_escape("µs ✓"), "µs ✓");           // valid UTF-8 kept
}

TEST(HtmlText, IdsAreLowerCaseWordsJoinedByDashes) {
  EXPECT_EQ(html_id("GP-ASM-001"), "gp-asm-001");
  EXPECT_EQ(html_id("  csrc/a.cu:12  "), "csrc-a-cu-12");
  EXPECT_EQ(html_id("<>"), "x");
}

TEST(HtmlText, SvgNumbersHaveAtMostOneDecimalAndNoNegativeZero) {
  EXPECT_EQ(svg_number(312.5), "312.5");
  EXPECT_EQ(svg_number(150.04), "150");
  EXPECT_EQ(svg_number(-0.01), "0");
  EXPECT_EQ(svg_number(-2.25), "-2.3");  // rounds half away from zero
  EXPECT_EQ(svg_number(1.0 / 0.0), "0");
}

TEST(SvgChart, AxisTicksUseOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_EQ(axis_ticks(0, 8), (std::vector<double>{0, 2, 4, 6, 8}));
  EXPECT_EQ(axis_ticks(0, 11, 8), (std::vector<double>{0, 2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(axis_ticks(-1200, 4500), (std::vector<double>{-2000, 0, 2000, 4000, 6000}));
  EXPECT_EQ(axis_ticks(0, 0), (std::vector<double>{0}));
  EXPECT_EQ(axis_ticks(0, 0.3), (std::vector<double>{0, 0.1, 0.2, 0.3}));
  EXPECT_EQ(axis_ticks(5, 5), (std::vector<double>{0, 1, 2, 3, 4, 5}));
}

// Regression: a denormal largest value made the tick step 0 and the tick list empty (found by
// audit_report_fuzzer); huge or infinite ones must not overflow the span.
TEST(SvgChart, AxisTicksSurviveDenormalHugeAndNonFiniteValues) {
  EXPECT_EQ(axis_ticks(0, 1e-320), (std::vector<double>{0}));
  EXPECT_EQ(axis_ticks(-1e308, 1e308).size(), 5u);  // -1e300 .. 1e300 in steps of 5e299
  EXPECT_EQ(axis_ticks(0, std::numeric_limits<double>::quiet_NaN()), (std::vector<double>{0}));
  EXPECT_EQ(axis_ticks(0, std::numeric_limits<double>::infinity()), (std::vector<double>{0}));
  const std::string svg =
      render_range_chart({"d", "d", "days", {{"x", 0, 1e-320, 1e-320, "", Tone::Base}}});
  EXPECT_NE(svg.find("<rect x=\"200\" y=\"8\" width=\"0\""), std::string::npos);
}

TEST(SvgChart, TickLabelsAreShort) {
  EXPECT_EQ(tick_label(0), "0");
  EXPECT_EQ(tick_label(250), "250");
  EXPECT_EQ(tick_label(1500), "1.5k");
  EXPECT_EQ(tick_label(12000), "12k");
  EXPECT_EQ(tick_label(3.2e6), "3.2M");
  EXPECT_EQ(tick_label(-40000), "-40k");
  EXPECT_EQ(tick_label(0.5), "0.5");
}

TEST(SvgChart, BarChartStacksTheAccentPartAndScalesToTheLongestBar) {
  const BarChart chart{
      "c",
      "GPU <time>",
      {{"own & co", 3, 1, "3 ms", Tone::Base}, {"blas", 6, 0, "6 ms", Tone::Muted}}};
  EXPECT_EQ(
      render_bar_chart(chart),
      "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"c\" class=\"chart\" viewBox=\"0 0 640 68\" "
      "width=\"640\" height=\"68\" role=\"img\" aria-labelledby=\"c-title\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<title id=\"c-title\">GPU &lt;time&gt;</title>\n"
      "<g class=\"bar\"><title>own &amp; co: 3 ms</title><text x=\"192\" y=\"21\" "
      "text-anchor=\"end\">own &amp; co</text><rect x=\"200\" y=\"8\" width=\"150\" height=\"18\" "
      "fill=\"#3b5bdb\"/><rect class=\"accent\" x=\"200\" y=\"8\" width=\"50\" height=\"18\" "
      "fill=\"#e8590c\"/><text x=\"356\" y=\"21\">3 ms</text></g>\n"
      "<g class=\"bar\"><title>blas: 6 ms</title><text x=\"192\" y=\"47\" "
      "text-anchor=\"end\">blas</text><rect x=\"200\" y=\"34\" width=\"300\" height=\"18\" "
      "fill=\"#adb5bd\"/><text x=\"506\" y=\"47\">6 ms</text></g>\n"
      "</svg>\n");
}

TEST(SvgChart, BarChartOfNothingButZerosDrawsEmptyBars) {
  const BarChart chart{"z", "zero", {{"a", 0, 0, "", Tone::Base}, {"b", -5, 0, "", Tone::Base}}};
  const std::string svg = render_bar_chart(chart);
  EXPECT_NE(svg.find("<rect x=\"200\" y=\"8\" width=\"0\""), std::string::npos);
  EXPECT_NE(svg.find("<rect x=\"200\" y=\"34\" width=\"0\""), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
}

TEST(SvgChart, LongLabelsAreCutButTheTooltipKeepsThemWhole) {
  const std::string label = "a_very_long_class_name_that_goes_on_and_on";
  const std::string svg = render_bar_chart({"l", "long", {{label, 1, 0, "1 ms", Tone::Base}}});
  EXPECT_NE(svg.find("<title>" + label + ": 1 ms</title>"), std::string::npos);
  EXPECT_NE(svg.find(">a_very_long_class_name_that…</text>"), std::string::npos);
}

TEST(SvgChart, RangeChartDrawsLowToHighWithATickAtLikelyAndAnAxis) {
  const RangeChart chart{
      "e", "Effort", "days", {{"Rewrite", 2, 3, 8, "2 / 3 / 8 days", Tone::Base}}};
  EXPECT_EQ(
      render_range_chart(chart),
      "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"e\" class=\"chart\" viewBox=\"0 0 640 74\" "
      "width=\"640\" height=\"74\" role=\"img\" aria-labelledby=\"e-title\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<title id=\"e-title\">Effort</title>\n"
      "<g class=\"range\"><title>Rewrite: 2 / 3 / 8 days</title><text x=\"192\" y=\"21\" "
      "text-anchor=\"end\">Rewrite</text><rect x=\"275\" y=\"8\" width=\"225\" height=\"18\" "
      "fill=\"#3b5bdb\" fill-opacity=\"0.35\"/><line x1=\"312.5\" x2=\"312.5\" y1=\"8\" "
      "y2=\"26\" stroke=\"#3b5bdb\" stroke-width=\"3\"/><text x=\"506\" y=\"21\">2 / 3 / 8 "
      "days</text></g>\n"
      "<g class=\"axis\"><line x1=\"200\" x2=\"500\" y1=\"36\" y2=\"36\" stroke=\"#495057\"/>"
      "<line x1=\"200\" x2=\"200\" y1=\"36\" y2=\"40\" stroke=\"#495057\"/><text x=\"200\" "
      "y=\"52\" text-anchor=\"middle\">0</text><line x1=\"275\" x2=\"275\" y1=\"36\" y2=\"40\" "
      "stroke=\"#495057\"/><text x=\"275\" y=\"52\" text-anchor=\"middle\">2</text><line "
      "x1=\"350\" x2=\"350\" y1=\"36\" y2=\"40\" stroke=\"#495057\"/><text x=\"350\" y=\"52\" "
      "text-anchor=\"middle\">4</text><line x1=\"425\" x2=\"425\" y1=\"36\" y2=\"40\" "
      "stroke=\"#495057\"/><text x=\"425\" y=\"52\" text-anchor=\"middle\">6</text><line "
      "x1=\"500\" x2=\"500\" y1=\"36\" y2=\"40\" stroke=\"#495057\"/><text x=\"500\" y=\"52\" "
      "text-anchor=\"middle\">8</text><text x=\"350\" y=\"68\" "
      "text-anchor=\"middle\">days</text></g>\n"
      "</svg>\n");
}

TEST(SvgChart, RangeChartPutsAnOutOfOrderLikelyBetweenLowAndHigh) {
  const std::string svg =
      render_range_chart({"r", "r", "d", {{"x", 2, 9, 4, "", Tone::Base}}});  // likely > high
  // Axis 0..4 over 300 px: low 2 -> 350, high 4 -> 500; likely clamped to 4.
  EXPECT_NE(svg.find("<rect x=\"350\" y=\"8\" width=\"150\""), std::string::npos);
  EXPECT_NE(svg.find("<line x1=\"500\" x2=\"500\" y1=\"8\""), std::string::npos);
}

TEST(SvgChart, LineChartDrawsSeriesLegendAndTheMarker) {
  const LineChart chart{"p",
                        "Payback",
                        "months",
                        "USD",
                        {{"saving", {{0, 0}, {10, 100}}, Tone::Second, false},
                         {"cost", {{0, 50}, {10, 50}}, Tone::Accent, true}},
                        LineMarker{5, "break-even: 5.0 months"}};
  EXPECT_EQ(
      render_line_chart(chart),
      "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"p\" class=\"chart\" viewBox=\"0 0 640 "
      "320\" width=\"640\" height=\"320\" role=\"img\" aria-labelledby=\"p-title\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<title id=\"p-title\">Payback</title>\n"
      "<g class=\"grid\"><line x1=\"70\" x2=\"620\" y1=\"270\" y2=\"270\" stroke=\"#495057\"/>"
      "<text x=\"64\" y=\"274\" text-anchor=\"end\">0</text><line x1=\"70\" x2=\"620\" "
      "y1=\"223.2\" y2=\"223.2\" stroke=\"#dee2e6\"/><text x=\"64\" y=\"227.2\" "
      "text-anchor=\"end\">20</text><line x1=\"70\" x2=\"620\" y1=\"176.4\" y2=\"176.4\" "
      "stroke=\"#dee2e6\"/><text x=\"64\" y=\"180.4\" text-anchor=\"end\">40</text><line "
      "x1=\"70\" x2=\"620\" y1=\"129.6\" y2=\"129.6\" stroke=\"#dee2e6\"/><text x=\"64\" "
      "y=\"133.6\" text-anchor=\"end\">60</text><line x1=\"70\" x2=\"620\" y1=\"82.8\" "
      "y2=\"82.8\" stroke=\"#dee2e6\"/><text x=\"64\" y=\"86.8\" text-anchor=\"end\">80</text>"
      "<line x1=\"70\" x2=\"620\" y1=\"36\" y2=\"36\" stroke=\"#dee2e6\"/><text x=\"64\" "
      "y=\"40\" text-anchor=\"end\">100</text><text x=\"70\" y=\"286\" "
      "text-anchor=\"middle\">0</text><text x=\"180\" y=\"286\" text-anchor=\"middle\">2</text>"
      "<text x=\"290\" y=\"286\" text-anchor=\"middle\">4</text><text x=\"400\" y=\"286\" "
      "text-anchor=\"middle\">6</text><text x=\"510\" y=\"286\" text-anchor=\"middle\">8</text>"
      "<text x=\"620\" y=\"286\" text-anchor=\"middle\">10</text><line x1=\"70\" x2=\"70\" "
      "y1=\"36\" y2=\"270\" stroke=\"#495057\"/><text x=\"345\" y=\"306\" "
      "text-anchor=\"middle\">months</text><text x=\"8\" y=\"26\">USD</text></g>\n"
      "<g class=\"series\"><title>saving</title><polyline points=\"70,270 620,36\" "
      "fill=\"none\" stroke=\"#2b8a3e\" stroke-width=\"2\"/><line x1=\"150\" x2=\"170\" "
      "y1=\"22\" y2=\"22\" stroke=\"#2b8a3e\" stroke-width=\"2\"/><text x=\"174\" "
      "y=\"26\">saving</text></g>\n"
      "<g class=\"series\"><title>cost</title><polyline points=\"70,153 620,153\" "
      "fill=\"none\" stroke=\"#e8590c\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/><line "
      "x1=\"232\" x2=\"252\" y1=\"22\" y2=\"22\" stroke=\"#e8590c\" stroke-width=\"2\" "
      "stroke-dasharray=\"6 4\"/><text x=\"256\" y=\"26\">cost</text></g>\n"
      "<g class=\"marker\"><line x1=\"345\" x2=\"345\" y1=\"36\" y2=\"270\" stroke=\"#c92a2a\" "
      "stroke-dasharray=\"3 3\"/><text x=\"349\" y=\"264\" text-anchor=\"start\" "
      "fill=\"#c92a2a\">break-even: 5.0 months</text></g>\n"
      "</svg>\n");
}

TEST(SvgChart, LineChartLeavesOutAMarkerBeyondTheAxisAndHandlesNegativeValues) {
  const LineChart chart{"n",
                        "n",
                        "m",
                        "USD",
                        {{"loss", {{0, 0}, {4, -1000}}, Tone::Second, false}},
                        LineMarker{50, "never"}};
  const std::string svg = render_line_chart(chart);
  EXPECT_EQ(svg.find("class=\"marker\""), std::string::npos);
  EXPECT_NE(svg.find(">-1k</text>"), std::string::npos);
  // The zero line is the dark one, at the top of a plot that only goes down.
  EXPECT_NE(svg.find("y1=\"36\" y2=\"36\" stroke=\"#495057\""), std::string::npos);
}

}  // namespace
}  // namespace gpuport
