// `gpuport audit`: each flag defined once (with its help), validated into an
// AuditCommandConfig, then audit -> render -> write, and one line saying where the report went.
#include "cli/audit_command.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "audit/audit.h"
#include "audit/config.h"
#include "cli/command_line.h"
#include "cli/command_output.h"
#include "cli/progress.h"
#include "cli/scan_command.h"
#include "cli/scan_exclusions.h"
#include "report/audit/audit_html.h"
#include "report/audit/audit_json.h"
#include "report/audit/audit_markdown.h"
#include "report/text_util.h"

namespace gpuport {

namespace {

constexpr std::string_view k_description =
    "Decide whether moving a CUDA inference stack to AMD GPUs is worth it. The audit scans REPO,\n"
    "dry-runs its translation to HIP, reads the profiler traces of its serving path, and turns\n"
    "them with the team's prices and load numbers into one report: a verdict (config change,\n"
    "validate the existing AMD build, validation pass, bounded project of N-M engineer-days,\n"
    "major project, or not worth it at these prices) with the three reasons that weigh most,\n"
    "the effort by tier with every line item traceable to a finding or a kernel and checked\n"
    "against the size of the kernel code, the CUDA-only features the AMD build does without,\n"
    "the library work to measure before committing, the cost per 1M requests on each\n"
    "platform, the monthly saving, the payback time and the AMD throughput at which the move\n"
    "breaks even.";

constexpr std::string_view k_footer =
    "Inputs:\n"
    "  REPO         the repository to port (scanned, and translated in memory: nothing is\n"
    "               written into it)\n"
    "  --trace      a profile of the serving path on NVIDIA (any format 'gpuport profile'\n"
    "               reads: Kineto JSON, nsys SQLite, rocprof, ...). Kernels at or above 2 % of\n"
    "               GPU time, or in the p95 steps, are hot and get tuning days; without a trace\n"
    "               the estimate comes from the scan alone, with wider ranges.\n"
    "  --config     a .gpuport.toml with your numbers: prices per GPU-hour, GPUs per replica,\n"
    "               sustained throughput at the p95 SLO, monthly requests, engineer day rate,\n"
    "               any effort weight. Keys you do not set keep the shipped defaults; the report\n"
    "               lists the ones you changed. --print-default-config shows every key with\n"
    "               where its number comes from. Its [scan] exclude globs are added to\n"
    "               --exclude (scan, hipify and profile read the same file with --config).\n"
    "  --exclude    paths the scan and the translation dry run leave out (gitignore syntax,\n"
    "               repeatable): vendored code, build trees. .gitignore files are honoured.\n"
    "  --bench-nvidia, --bench-amd\n"
    "               a 'gpuport bench' result (-o FILE.json) of the serving deployment on each\n"
    "               platform. Its throughput at the SLO (the highest load that met --slo)\n"
    "               replaces the config's throughput_rps, and the report says which result and\n"
    "               SLO it came from. A result run without an SLO gives its request throughput,\n"
    "               with a note; a result whose SLO no load met is refused.\n"
    "\n"
    "Output:\n"
    "  html         (default) one self-contained page: no script, no external resource, opens\n"
    "               offline. Without -o it is written to ./gpuport-report.html.\n"
    "  markdown     the same values as a pull-request comment (stdout without -o)\n"
    "  json         every value, for other tools (docs/audit-json.md; stdout without -o)\n"
    "  -o FILE is written atomically (never partial); -o - writes any format to stdout.\n"
    "  When the report goes to a file, the verdict and the file's path are printed.\n"
    "\n"
    "Examples:\n"
    "  gpuport audit . --trace prof/h100.pt.trace.json.gz --config .gpuport.toml\n"
    "  gpuport audit ~/src/server --trace a.json.gz --trace b.json.gz -o audit.html\n"
    "  gpuport audit . --format markdown > audit.md        for a pull-request comment\n"
    "  gpuport audit . --format json -o audit.json\n"
    "  gpuport audit . --exclude third_party/ --exclude 'build*/'   leave vendored code out\n"
    "  gpuport audit --print-default-config > .gpuport.toml   start your own config\n"
    "  gpuport audit . --config .gpuport.toml --bench-nvidia h100.json --bench-amd mi300x.json\n"
    "\n"
    "Exit codes:\n"
    "  0  report written\n"
    "  2  bad usage, an unreadable repository, trace or bench result, an invalid config, or a\n"
    "     bench result without a usable throughput (one line names the file and the\n"
    "     position); no report file is written";

struct RawAuditArgs {
  std::string repo;
  std::vector<std::string> traces;
  std::vector<std::string> excludes;
  std::string config;
  std::string bench_nvidia;
  std::string bench_amd;
  std::string output;
  std::string format = "html";
  bool print_default_config = false;
  unsigned jobs = 1;
  bool quiet = false;
  std::string max_filesize = "16M";
};

void define_flags(CLI::App& app, RawAuditArgs& raw) {
  app.description(std::string(k_description));
  app.footer(std::string(k_footer));
  app.add_option("REPO", raw.repo, "The repository to audit");
  app.add_option("--trace", raw.traces,
                 "A profiler trace of the serving path (plain or .gz); repeatable")
      ->type_name("TRACE")
      ->allow_extra_args(false);
  app.add_option("--config", raw.config,
                 "Prices, load numbers, weights and [scan] exclude globs (TOML) over the shipped "
                 "defaults")
      ->type_name("FILE");
  add_exclude_option(app, raw.excludes);
  app.add_option("--bench-nvidia", raw.bench_nvidia,
                 "A gpuport bench result (JSON) of the NVIDIA deployment: its throughput at the "
                 "SLO replaces the config's")
      ->type_name("FILE");
  app.add_option("--bench-amd", raw.bench_amd,
                 "A gpuport bench result (JSON) of the AMD deployment: its throughput at the SLO "
                 "replaces the config's")
      ->type_name("FILE");
  app.add_option("-o,--output", raw.output, "Write the report to FILE (atomically); '-' for stdout")
      ->type_name("FILE");
  app.add_option("--format", raw.format, "Report format: html, markdown (md) or json")
      ->type_name("FORMAT")
      ->capture_default_str();
  app.add_flag("--print-default-config", raw.print_default_config,
               "Print the shipped defaults (every key, commented with its source) and exit");
  app.add_option("--max-filesize", raw.max_filesize,
                 "Files larger than this are not read; a product source among them makes the "
                 "verdict incomplete. Bytes or K/M/G")
      ->type_name("SIZE")
      ->capture_default_str();
  app.add_option("-j,--jobs", raw.jobs, "Threads for the scan (default: all cores)")
      ->type_name("N")
      ->check(CLI::Range(1u, 1024u));
  app.add_flag("-q,--quiet", raw.quiet, "No progress line on stderr");
}

tl::expected<AuditCommandConfig, UsageError> validate(const RawAuditArgs& raw) {
  AuditCommandConfig config;
  if (raw.print_default_config) {
    config.print_default_config = true;
    config.output = raw.output == "-" ? std::string() : raw.output;
    return config;
  }
  if (raw.repo.empty()) {
    return tl::unexpected(UsageError{"missing REPO: give the repository to audit"});
  }
  config.repo = raw.repo;
  for (const std::string& trace : raw.traces) {
    if (trace.empty()) {
      return tl::unexpected(UsageError{"--trace needs a file name"});
    }
  }
  config.traces = raw.traces;
  config.excludes = raw.excludes;
  if (!raw.config.empty()) {
    config.config_file = raw.config;
  }
  if (!raw.bench_nvidia.empty()) {
    config.bench_nvidia = raw.bench_nvidia;
  }
  if (!raw.bench_amd.empty()) {
    config.bench_amd = raw.bench_amd;
  }
  auto format = parse_audit_format(raw.format);
  if (!format) {
    return tl::unexpected(UsageError{
        fmt::format("invalid --format '{}' (valid: html, markdown, json)", printable(raw.format))});
  }
  config.format = *format;
  config.output = raw.output;
  if (config.output.empty() && config.format == AuditFormat::Html) {
    config.output = std::string(k_default_audit_report);
  } else if (config.output == "-") {
    config.output.clear();
  }
  config.jobs = raw.jobs;
  config.quiet = raw.quiet;
  auto max_size = parse_size(raw.max_filesize);
  if (!max_size) {
    return tl::unexpected(UsageError{fmt::format("invalid --max-filesize '{}': {}",
                                                 printable(raw.max_filesize), max_size.error())});
  }
  config.max_file_size = *max_size;
  return config;
}

std::string render(const AuditResult& result, AuditFormat format) {
  switch (format) {
    case AuditFormat::Markdown:
      return render_audit_markdown(result);
    case AuditFormat::Json:
      return render_audit_json(result);
    case AuditFormat::Html:
      break;
  }
  return render_audit_html(result);
}

// One stderr line naming the audit's current stage ("auditing: reading the trace t.json.gz"),
// redrawn at each stage and cleared at the end; drawn only on a terminal and without --quiet.
class StageLine {
 public:
  explicit StageLine(ProgressDisplay display) : m_on(display == ProgressDisplay::On) {}
  StageLine(const StageLine&) = delete;
  StageLine& operator=(const StageLine&) = delete;
  ~StageLine() { clear(); }

  void show(AuditStage stage, std::string_view detail) {
    if (!m_on) {
      return;
    }
    const std::string line = fmt::format("\r\x1b[Kauditing: {}{}{}", audit_stage_name(stage),
                                         detail.empty() ? "" : " ", printable(detail));
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    m_drawn = true;
  }

  void clear() {
    if (m_drawn) {
      std::fputs("\r\x1b[K", stderr);
      std::fflush(stderr);
      m_drawn = false;
    }
  }

 private:
  bool m_on = false;
  bool m_drawn = false;
};

// The absolute path a user can open, without "./" noise.
std::string shown_path(const std::string& path) {
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(path, error);
  return error ? path : absolute.lexically_normal().string();
}

}  // namespace

std::optional<AuditFormat> parse_audit_format(std::string_view name) {
  if (name == "html") {
    return AuditFormat::Html;
  }
  if (name == "markdown" || name == "md") {
    return AuditFormat::Markdown;
  }
  if (name == "json") {
    return AuditFormat::Json;
  }
  return std::nullopt;
}

tl::expected<AuditCommandConfig, UsageError> parse_audit_args(const CommandArgs& args,
                                                              std::string* help) {
  CLI::App app("", "gpuport audit");
  RawAuditArgs raw;
  raw.jobs = std::max(1u, std::thread::hardware_concurrency());
  define_flags(app, raw);
  if (auto parsed = parse_command_line(app, args, help); !parsed) {
    return tl::unexpected(parsed.error());
  }
  return validate(raw);
}

std::string audit_help() {
  CLI::App app("", "gpuport audit");
  RawAuditArgs raw;
  define_flags(app, raw);
  return app.help();
}

int run_audit_command(const CommandArgs& args) {
  std::string help;
  auto config = parse_audit_args(args, &help);
  if (const std::optional<int> status = usage_exit(config, help)) {
    return *status;
  }
  if (const std::optional<int> status = unwritable_output(config->output)) {
    return *status;
  }
  if (config->print_default_config) {
    return write_command_output(default_config_text(), config->output);
  }

  StageLine line(decide_progress_display(config->quiet));
  AuditInputs inputs;
  inputs.repo = config->repo;
  inputs.traces = config->traces;
  inputs.excludes = config->excludes;  // the config's [scan] exclude globs join them in run_audit
  inputs.config_path = config->config_file;
  inputs.bench_nvidia = config->bench_nvidia;
  inputs.bench_amd = config->bench_amd;
  inputs.jobs = config->jobs;
  inputs.max_file_size = config->max_file_size;
  inputs.progress = [&line](AuditStage stage, std::string_view detail) {
    line.show(stage, detail);
  };
  const tl::expected<AuditResult, AuditError> result = run_audit(inputs);
  line.clear();
  if (!result) {
    std::fprintf(stderr, "gpuport: error: %s\n", printable(result.error().message).c_str());
    return 2;
  }

  if (const int status = write_command_output(render(*result, config->format), config->output);
      status != 0 || config->output.empty()) {
    return status;
  }
  std::printf("Verdict: %s\nReport:  %s\n", printable(result->verdict.headline).c_str(),
              printable(shown_path(config->output)).c_str());
  return 0;
}

}  // namespace gpuport
