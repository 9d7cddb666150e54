// `gpuport compare`: each flag defined once (with its help), validated into a CompareConfig,
// then read both -> analyze both -> compare -> write.
#include "cli/compare_command.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdio>

#include "cli/command_line.h"
#include "cli/command_output.h"
#include "cli/profile_command.h"
#include "profile/analysis/compare.h"
#include "profile/trace_reader.h"
#include "report/profile/compare_csv.h"
#include "report/profile/compare_json.h"
#include "report/profile/compare_markdown.h"
#include "report/profile/compare_text.h"
#include "report/text_util.h"

namespace gpuport {

namespace {

constexpr std::string_view k_description =
    "Compare two traces of the same workload on two platforms (an NVIDIA run and an AMD run):\n"
    "kernel and GPU time with the ratio B/A, time per kernel class side by side, the kernels\n"
    "both ran (matched by normalized name) and, per class, the kernels only one side ran.";

constexpr std::string_view k_footer =
    "How to read it:\n"
    "  B/A      B's time divided by A's; above 1 means B spends longer (\"-\": A has none)\n"
    "  share    the class's part of that trace's GPU time\n"
    "  Kernels rarely match across vendors (cuBLAS sm90_xmma_* vs Tensile Cijk_*), so the\n"
    "  classes are the comparison; matched kernels are mostly framework (ATen) kernels.\n"
    "\n"
    "Examples:\n"
    "  gpuport compare h100.json.gz mi300x.json.gz\n"
    "  gpuport compare h100.json.gz mi300x.json.gz --format json -o compare.json\n"
    "  gpuport compare before.sqlite after.sqlite --format md > compare.md\n"
    "\n"
    "Exit codes:\n"
    "  0  report written\n"
    "  2  bad usage or an unreadable trace (one line names the file and the position)";

struct RawCompareArgs {
  std::vector<std::string> traces;
  std::string input_format;
  std::size_t top = 20;
  std::string format = "text";
  std::string output;
  std::string color = "auto";
};

void define_flags(CLI::App& app, RawCompareArgs& raw) {
  app.description(std::string(k_description));
  app.footer(std::string(k_footer));
  app.add_option("TRACES", raw.traces, "Trace A, then trace B")->expected(0, 2);
  app.add_option("--input-format", raw.input_format,
                 "Read both traces as this format (see 'gpuport profile --help')")
      ->type_name("FORMAT");
  app.add_option("--top", raw.top, "Matched kernels listed by text and Markdown (0: all)")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--format", raw.format, "Report format: text, json, markdown (md) or csv")
      ->type_name("FORMAT")
      ->capture_default_str();
  app.add_option("-o,--output", raw.output,
                 "Write the report to FILE (atomically, never partial), not stdout")
      ->type_name("FILE");
  app.add_option("--color", raw.color, "Colour the text report: auto, always or never")
      ->type_name("WHEN")
      ->capture_default_str();
}

tl::expected<CompareConfig, UsageError> validate(const RawCompareArgs& raw) {
  CompareConfig config;
  if (raw.traces.size() != 2) {
    return tl::unexpected(UsageError{"give two traces: gpuport compare A B"});
  }
  config.trace_a = raw.traces[0];
  config.trace_b = raw.traces[1];
  auto input_format = parse_input_format(raw.input_format);
  if (!input_format) {
    return tl::unexpected(input_format.error());
  }
  config.input_format = *input_format;
  config.top = raw.top == 0 ? SIZE_MAX : raw.top;
  auto format = parse_profile_format(raw.format);
  if (!format) {
    return tl::unexpected(UsageError{fmt::format(
        "invalid --format '{}' (valid: text, json, markdown, csv)", printable(raw.format))});
  }
  config.format = *format;
  config.output = raw.output;
  auto color = parse_color_mode(raw.color);
  if (!color) {
    return tl::unexpected(UsageError{
        fmt::format("invalid --color '{}' (valid: auto, always, never)", printable(raw.color))});
  }
  config.color = *color;
  return config;
}

std::optional<Profile> profile_of(const std::string& path, const CompareConfig& config) {
  ReadOptions options;
  options.format = config.input_format;
  auto trace = read_trace(path, options);
  if (!trace) {
    std::fprintf(stderr, "gpuport: error: %s\n", printable(trace.error().message).c_str());
    return std::nullopt;
  }
  return analyze_trace(*trace, ProfileOptions{});
}

std::string render(const Comparison& comparison, const CompareConfig& config) {
  ReportOptions options;
  options.max_kernels = config.top;
  const bool to_stdout = config.output.empty();
  options.color = to_stdout ? decide_stdout_color(config.color) : Color::Off;
  options.width = to_stdout ? terminal_width() : 100;
  switch (config.format) {
    case ProfileFormat::Json:
      return render_compare_json(comparison);
    case ProfileFormat::Markdown:
      return render_compare_markdown(comparison, options);
    case ProfileFormat::Csv:
      return render_compare_csv(comparison);
    case ProfileFormat::Text:
      break;
  }
  return render_compare_text(comparison, options);
}

}  // namespace

tl::expected<CompareConfig, UsageError> parse_compare_args(const CommandArgs& args,
                                                           std::string* help) {
  CLI::App app("", "gpuport compare");
  RawCompareArgs raw;
  define_flags(app, raw);
  if (auto parsed = parse_command_line(app, args, help); !parsed) {
    return tl::unexpected(parsed.error());
  }
  return validate(raw);
}

std::string compare_help() {
  CLI::App app("", "gpuport compare");
  RawCompareArgs raw;
  define_flags(app, raw);
  return app.help();
}

int run_compare_command(const CommandArgs& args) {
  std::string help;
  auto config = parse_compare_args(args, &help);
  if (const std::optional<int> status = usage_exit(config, help)) {
    return *status;
  }
  if (const std::optional<int> status = unwritable_output(config->output)) {
    return *status;
  }
  const auto a = profile_of(config->trace_a, *config);
  if (!a) {
    return 2;
  }
  const auto b = profile_of(config->trace_b, *config);
  if (!b) {
    return 2;
  }
  return write_command_output(render(compare_profiles(*a, *b), *config), config->output);
}

}  // namespace gpuport
