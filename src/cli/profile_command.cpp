// `gpuport profile`: each flag defined once (with its help), validated into a ProfileConfig,
// then read -> (scan join) -> analyze -> write.
#include "cli/profile_command.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "cli/command_line.h"
#include "cli/command_output.h"
#include "cli/progress.h"
#include "cli/scan_command.h"
#include "cli/scan_exclusions.h"
#include "profile/analysis/profile.h"
#include "profile/source_join.h"
#include "profile/trace_reader.h"
#include "report/profile/profile_csv.h"
#include "report/profile/profile_json.h"
#include "report/profile/profile_markdown.h"
#include "report/profile/profile_text.h"
#include "report/text_util.h"
#include "scan/coverage.h"
#include "source/file_system.h"

namespace gpuport {

namespace {

constexpr std::string_view k_description =
    "Read a profiler trace and report where the GPU time goes: every kernel with its calls,\n"
    "total and mean time, share of GPU time, class (vendor library, framework, attention, JIT,\n"
    "communication, ...) and owner, and which kernels are the team's own code. With --source or\n"
    "--scan, own kernels are joined to their definition in the repository. Steps give p50, p95\n"
    "and p99 step time and what the slow steps spend their GPU time on.";

constexpr std::string_view k_footer =
    "Inputs (the format is detected from the content; --input-format forces one):\n"
    "  kineto             PyTorch profiler / Kineto trace, .json or .json.gz (CUDA and ROCm)\n"
    "  nsys-sqlite        nsys export --type sqlite\n"
    "  nsys-stats-csv     nsys stats --report cuda_gpu_kern_sum --format csv (totals only)\n"
    "  rocprof-csv        rocprof results.csv;  rocprof-stats-csv: results.stats.csv (totals)\n"
    "  rocprofv3-csv      rocprofv3 *_kernel_trace.csv;  rocprofv3-json: *_results.json\n"
    "  rocpd-sqlite       rocpd SQLite database\n"
    "\n"
    "Kernel table columns:\n"
    "  share   the kernel's part of GPU time (kernels, copies and fills, summed over streams)\n"
    "  total   summed duration of its dispatches; mean = total / calls\n"
    "  class   vendor-blas, vendor-dnn, vendor-other, framework, attention, communication, jit,\n"
    "          tensorrt, serving-engine, cutlass, memory or unknown (docs/kernel-classes.md)\n"
    "  owner   the library or project the kernel comes from (cuBLAS, PyTorch ATen, vLLM, ...)\n"
    "  own     yes: the team's own code, or a candidate (no library rule, runtime launch)\n"
    "  launch  how the host launched it: runtime, runtime-ex, module (JIT/cubin), graph\n"
    "  The line under each row is the kernel's demangled name; JSON and CSV list every kernel\n"
    "  with its raw name, min/max and launch counts.\n"
    "\n"
    "Steps: ProfilerStep#N ranges (the GPU-projected ones when present), else the outermost\n"
    "NVTX ranges of nsys/rocprof inputs, or --step REGEX on range names. Kernels belong to the\n"
    "step they start in. Percentiles are nearest-rank; \"slow\" steps are those at or above\n"
    "p95, \"typical\" ones lie between p25 and p75.\n"
    "\n"
    "Examples:\n"
    "  gpuport profile trace.json.gz\n"
    "  gpuport profile trace.json.gz --source ~/src/server --top 40\n"
    "  gpuport profile trace.json.gz --source . --exclude third_party/ --config .gpuport.toml\n"
    "  gpuport profile trace.json.gz --scan scan.json --format json -o profile.json\n"
    "  gpuport profile report.sqlite --step '^decode' --format md > profile.md\n"
    "  gpuport profile results.csv --format csv > kernels.csv\n"
    "  gpuport compare h100.json.gz mi300x.json.gz      two GPUs side by side\n"
    "\n"
    "The --source scan leaves out paths matching --exclude GLOB (gitignore syntax, repeatable)\n"
    "and the [scan] exclude list of a --config file (the .gpuport.toml that 'gpuport audit'\n"
    "reads); .gitignore files are honoured.\n"
    "\n"
    "Colour: --color always/never are final; auto colours a terminal unless NO_COLOR is set.\n"
    "\n"
    "Exit codes:\n"
    "  0  report written\n"
    "  2  bad usage or unreadable input, an invalid --config file included (one line names the\n"
    "     file and the position); no output file is written";

struct RawProfileArgs {
  std::string trace;
  std::string source;
  std::string scan;
  std::vector<std::string> excludes;
  std::string config;
  std::string input_format;
  std::string step;
  std::size_t top = 20;
  std::string format = "text";
  std::string output;
  std::string color = "auto";
  unsigned jobs = 1;
  bool quiet = false;
  std::string max_filesize = "16M";
};

void define_flags(CLI::App& app, RawProfileArgs& raw) {
  app.description(std::string(k_description));
  app.footer(std::string(k_footer));
  app.add_option("TRACE", raw.trace, "The profiler output to read (plain or .gz)");
  app.add_option("--source", raw.source,
                 "Scan this repository and join its kernel definitions to the trace")
      ->type_name("REPO");
  app.add_option("--scan", raw.scan,
                 "Join the kernels of a 'gpuport scan --format json' file instead")
      ->type_name("FILE");
  add_exclude_option(app, raw.excludes);
  app.add_option("--max-filesize", raw.max_filesize,
                 "With --source: larger files are not read (a warning lists product sources "
                 "among them); bytes or K/M/G")
      ->type_name("SIZE")
      ->capture_default_str();
  add_scan_config_option(app, raw.config);
  app.add_option("--input-format", raw.input_format,
                 "Read TRACE as this format instead of detecting it (list below)")
      ->type_name("FORMAT");
  app.add_option("--step", raw.step,
                 "Steps are the ranges whose name matches REGEX (RE2 syntax, anywhere)")
      ->type_name("REGEX");
  app.add_option("--top", raw.top, "Kernels in the text and Markdown tables (0: all)")
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
  app.add_option("-j,--jobs", raw.jobs, "Threads for the --source scan (default: all cores)")
      ->type_name("N")
      ->check(CLI::Range(1u, 1024u));
  app.add_flag("-q,--quiet", raw.quiet, "No progress line on stderr");
}

tl::expected<ProfileConfig, UsageError> validate(const RawProfileArgs& raw) {
  ProfileConfig config;
  if (raw.trace.empty()) {
    return tl::unexpected(UsageError{"missing TRACE: give the profiler output to read"});
  }
  config.trace = raw.trace;
  if (!raw.source.empty() && !raw.scan.empty()) {
    return tl::unexpected(UsageError{"--source and --scan cannot be combined"});
  }
  config.source_root = raw.source;
  config.scan_json = raw.scan;
  if (!raw.excludes.empty() && raw.source.empty()) {
    return tl::unexpected(
        UsageError{"--exclude applies to the --source scan: give --source REPO with it"});
  }
  config.excludes = raw.excludes;
  if (!raw.config.empty()) {
    config.config_file = raw.config;
  }
  auto input_format = parse_input_format(raw.input_format);
  if (!input_format) {
    return tl::unexpected(input_format.error());
  }
  config.input_format = *input_format;
  if (!raw.step.empty()) {
    auto compiled = StepPattern::compile(raw.step);
    if (!compiled) {
      return tl::unexpected(UsageError{
          fmt::format("invalid --step '{}': {}", printable(raw.step), compiled.error())});
    }
    config.step = std::move(*compiled);
  }
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
  config.jobs = raw.jobs;
  auto max_size = parse_size(raw.max_filesize);
  if (!max_size) {
    return tl::unexpected(UsageError{fmt::format("invalid --max-filesize '{}': {}",
                                                 printable(raw.max_filesize), max_size.error())});
  }
  config.max_file_size = *max_size;
  config.quiet = raw.quiet;
  return config;
}

// The kernel definitions to join: from an in-process scan or a scan JSON file. Prints the
// error and returns nothing when they cannot be had.
std::optional<std::vector<SourceKernel>> source_kernels(const ProfileConfig& config) {
  if (!config.scan_json.empty()) {
    auto loaded = load_scan_kernels(config.scan_json);
    if (!loaded) {
      std::fprintf(stderr, "gpuport: error: %s\n", printable(loaded.error().message).c_str());
      return std::nullopt;
    }
    return std::move(*loaded);
  }
  DiskFileSystem disk;
  ScanOptions options;
  options.walk.jobs = config.jobs;
  options.walk.excludes = config.excludes;
  options.walk.max_file_size = config.max_file_size;
  ScanProgress progress;
  tl::expected<ScanResult, IoError> result;
  {
    ProgressLine line(progress, decide_progress_display(config.quiet));
    result = scan(disk, config.source_root, options, &progress);
  }
  if (!result) {
    std::fprintf(stderr, "gpuport: error: cannot read '%s': %s\n",
                 printable(config.source_root).c_str(), printable(result.error().message).c_str());
    return std::nullopt;
  }
  if (const std::string gap = coverage_gap(scan_coverage(*result)); !gap.empty()) {
    std::fprintf(stderr, "gpuport: warning: --source: %s; their kernels are not joined\n",
                 gap.c_str());
  }
  std::vector<SourceKernel> kernels;
  kernels.reserve(result->kernels.size());
  for (const Kernel& kernel : result->kernels) {
    kernels.push_back({kernel.name, kernel.file, kernel.line});
  }
  return kernels;
}

std::string render(const Profile& profile, const ProfileConfig& config) {
  ReportOptions options;
  options.max_kernels = config.top;
  const bool to_stdout = config.output.empty();
  options.color = to_stdout ? decide_stdout_color(config.color) : Color::Off;
  options.width = to_stdout ? terminal_width() : 100;
  switch (config.format) {
    case ProfileFormat::Json:
      return render_profile_json(profile);
    case ProfileFormat::Markdown:
      return render_profile_markdown(profile, options);
    case ProfileFormat::Csv:
      return render_profile_csv(profile);
    case ProfileFormat::Text:
      break;
  }
  return render_profile_text(profile, options);
}

}  // namespace

tl::expected<std::optional<TraceFormat>, UsageError> parse_input_format(const std::string& name) {
  if (name.empty()) {
    return std::optional<TraceFormat>();
  }
  if (auto format = parse_format_name(name)) {
    return format;
  }
  std::string valid;
  for (std::string_view known : format_names()) {
    valid += (valid.empty() ? "" : ", ") + std::string(known);
  }
  return tl::unexpected(
      UsageError{fmt::format("invalid --input-format '{}' (valid: {})", printable(name), valid)});
}

tl::expected<ProfileConfig, UsageError> parse_profile_args(const CommandArgs& args,
                                                           std::string* help) {
  CLI::App app("", "gpuport profile");
  RawProfileArgs raw;
  raw.jobs = std::max(1u, std::thread::hardware_concurrency());
  define_flags(app, raw);
  if (auto parsed = parse_command_line(app, args, help); !parsed) {
    return tl::unexpected(parsed.error());
  }
  return validate(raw);
}

std::string profile_help() {
  CLI::App app("", "gpuport profile");
  RawProfileArgs raw;
  define_flags(app, raw);
  return app.help();
}

int run_profile_command(const CommandArgs& args) {
  std::string help;
  auto config = parse_profile_args(args, &help);
  if (const std::optional<int> status = usage_exit(config, help)) {
    return *status;
  }
  if (const std::optional<int> status = unwritable_output(config->output)) {
    return *status;
  }
  if (const std::optional<int> status =
          add_config_excludes(config->config_file, config->excludes)) {
    return *status;
  }

  ReadOptions read_options;
  read_options.format = config->input_format;
  auto trace = read_trace(config->trace, read_options);
  if (!trace) {
    std::fprintf(stderr, "gpuport: error: %s\n", printable(trace.error().message).c_str());
    return 2;
  }

  std::optional<SourceIndex> index;
  if (!config->source_root.empty() || !config->scan_json.empty()) {
    auto kernels = source_kernels(*config);
    if (!kernels) {
      return 2;
    }
    index.emplace(std::move(*kernels));
  }
  ProfileOptions options;
  options.source = index ? &*index : nullptr;
  options.step = config->step ? &*config->step : nullptr;
  const Profile profile = analyze_trace(*trace, options);
  return write_command_output(render(profile, *config), config->output);
}

}  // namespace gpuport
