// `gpuport scan`: each flag defined once (with its help), validated into a ScanConfig, then run.
#include "cli/scan_command.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <thread>

#include "cli/command_line.h"
#include "cli/command_output.h"
#include "cli/keep_until_exit.h"
#include "cli/malloc_tuning.h"
#include "cli/progress.h"
#include "cli/scan_exclusions.h"
#include "report/json_report.h"
#include "report/markdown_report.h"
#include "report/output_sink.h"
#include "report/report_groups.h"
#include "report/sarif_report.h"
#include "report/text_report.h"
#include "report/text_util.h"
#include "scan/coverage.h"
#include "source/atomic_write.h"

namespace gpuport {

namespace {

constexpr std::size_t k_max_warning_lines = 20;

constexpr std::string_view k_description =
    "Scan a source tree and report what moving it from NVIDIA CUDA to AMD ROCm/HIP involves:\n"
    "the portability table (each component by layer, its status on AMD, the cost, the evidence),\n"
    "the inventory of custom CUDA (kernels, inline PTX, WMMA/MMA, warp-32 code, TensorRT,\n"
    "precompiled binaries) and every finding with its rule id (see 'gpuport rules').";

constexpr std::string_view k_footer =
    "Examples:\n"
    "  gpuport scan                          scan the current directory, text report\n"
    "  gpuport scan ~/src/server --format json -o scan.json\n"
    "  gpuport scan . --format sarif -o gpuport.sarif   for code-scanning upload\n"
    "  gpuport scan . --format md > comment.md          for a pull-request comment\n"
    "  gpuport scan . --exclude 'third_party/' --max-filesize 4M --fail-on rewrite\n"
    "  gpuport scan . --config .gpuport.toml   leave out its [scan] exclude globs too\n"
    "\n"
    "Excluding: --exclude GLOB (gitignore syntax, repeatable) and the [scan] exclude list of a\n"
    "--config file (the .gpuport.toml that 'gpuport audit' reads) add up; .gitignore files are\n"
    "honoured unless --no-ignore. A '!GLOB' on the command line re-includes what the config\n"
    "left out.\n"
    "\n"
    "Tiers, cheapest first: framework, config, mechanical, retune, rewrite.\n"
    "Colour: --color always/never are final; auto colours a terminal unless NO_COLOR is set.\n"
    "\n"
    "Exit codes:\n"
    "  0  scan completed (and no finding reached --fail-on)\n"
    "  1  product code the AMD build may compile has a finding at or above the --fail-on tier\n"
    "  2  bad usage or unreadable input (e.g. PATH does not exist, an invalid --config file);\n"
    "     no output file is written";

// The raw strings the flags fill before validation.
struct RawScanArgs {
  std::string root = ".";
  std::string format = "text";
  std::string output;
  unsigned jobs = 1;
  std::vector<std::string> excludes;
  std::string config;
  bool no_ignore = false;
  bool follow_symlinks = false;
  std::string max_filesize = "16M";
  std::string fail_on;
  std::string color = "auto";
  bool quiet = false;
};

unsigned default_jobs() {
  return std::max(1u, std::thread::hardware_concurrency());
}

void define_flags(CLI::App& app, RawScanArgs& raw) {
  app.description(std::string(k_description));
  app.footer(std::string(k_footer));
  app.add_option("PATH", raw.root, "Directory (or single file) to scan")->capture_default_str();
  app.add_option("--format", raw.format, "Report format: text, json, sarif or md (Markdown)")
      ->type_name("FORMAT")
      ->capture_default_str();
  app.add_option("-o,--output", raw.output,
                 "Write the report to FILE (atomically, never partial), not stdout")
      ->type_name("FILE");
  app.add_option("-j,--jobs", raw.jobs, "Worker threads (default: all cores)")
      ->type_name("N")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  add_exclude_option(app, raw.excludes);
  add_scan_config_option(app, raw.config);
  app.add_flag("--no-ignore", raw.no_ignore, "Do not honour .gitignore and .git/info/exclude");
  app.add_flag("--follow-symlinks", raw.follow_symlinks,
               "Follow symbolic links (loops are detected and skipped)");
  app.add_option("--max-filesize", raw.max_filesize,
                 "Skip larger files; bytes or K/M/G: 4096, 512K, 16M, 1G")
      ->type_name("SIZE")
      ->capture_default_str();
  app.add_option("--fail-on", raw.fail_on,
                 "Exit 1 when product code the AMD build may compile has a finding of this tier or "
                 "higher (tiers below)")
      ->type_name("TIER");
  app.add_option("--color", raw.color, "Colour the text report: auto, always or never")
      ->type_name("WHEN")
      ->capture_default_str();
  app.add_flag("-q,--quiet", raw.quiet, "No progress line on stderr");
}

std::string tier_list() {
  std::string names;
  for (int i = 0; i < 5; ++i) {
    names += (i > 0 ? ", " : "") + std::string(tier_name(static_cast<Tier>(i)));
  }
  return names;
}

tl::expected<ScanConfig, UsageError> validate(const RawScanArgs& raw) {
  ScanConfig config;
  config.root = raw.root.empty() ? "." : raw.root;
  auto format = parse_report_format(raw.format);
  if (!format) {
    return tl::unexpected(UsageError{fmt::format(
        "invalid --format '{}' (valid: text, json, sarif, md)", printable(raw.format))});
  }
  config.format = *format;
  config.output = raw.output;
  auto max_size = parse_size(raw.max_filesize);
  if (!max_size) {
    return tl::unexpected(UsageError{fmt::format("invalid --max-filesize '{}': {}",
                                                 printable(raw.max_filesize), max_size.error())});
  }
  config.scan.walk.max_file_size = *max_size;
  config.scan.walk.jobs = raw.jobs;
  config.scan.walk.excludes = raw.excludes;
  if (!raw.config.empty()) {
    config.config_file = raw.config;
  }
  config.scan.walk.ignore_files = raw.no_ignore ? IgnoreFiles::Disregard : IgnoreFiles::Honour;
  config.scan.walk.symlinks = raw.follow_symlinks ? Symlinks::Follow : Symlinks::Skip;
  if (!raw.fail_on.empty()) {
    config.fail_on = parse_tier(raw.fail_on);
    if (!config.fail_on) {
      return tl::unexpected(UsageError{fmt::format("invalid --fail-on tier '{}' (valid: {})",
                                                   printable(raw.fail_on), tier_list())});
    }
  }
  auto color = parse_color_mode(raw.color);
  if (!color) {
    return tl::unexpected(UsageError{
        fmt::format("invalid --color '{}' (valid: auto, always, never)", printable(raw.color))});
  }
  config.color = *color;
  config.progress = raw.quiet ? Progress::Quiet : Progress::Show;
  return config;
}

// The directory finding paths are relative to, as an absolute path.
std::string root_directory(const std::string& root) {
  std::error_code error;
  std::filesystem::path path = std::filesystem::absolute(root, error).lexically_normal();
  if (error) {
    return {};
  }
  if (!std::filesystem::is_directory(path, error)) {
    path = path.parent_path();
  }
  std::string text = path.string();
  if (text.size() > 1 && text.back() == '/') {
    text.pop_back();
  }
  return text;
}

// Text and Markdown reports are a few screens and rendered whole; JSON and SARIF, which list
// every finding, are streamed.
void write_report(const ScanResult& result, ReportFormat format, const ReportOptions& options,
                  OutputSink& sink) {
  switch (format) {
    case ReportFormat::Text:
      sink.write(render_text(result, options));
      return;
    case ReportFormat::Json:
      write_json(result, options, sink);
      return;
    case ReportFormat::Sarif:
      write_sarif(result, options, sink);
      return;
    case ReportFormat::Markdown:
      sink.write(render_markdown(result, options));
      return;
  }
}

// Unreadable directories, lexer diagnostics and unreadable files, capped for a terminal.
void print_warnings(const ScanResult& result) {
  std::vector<std::string> lines;
  for (const FileWarning& warning : result.warnings) {
    if (warning.line > 0) {
      lines.push_back(fmt::format("{}:{}:{}: {}", printable(warning.file), warning.line,
                                  warning.column, printable(warning.message)));
    } else {
      lines.push_back(fmt::format("{}: {}", printable(warning.file), printable(warning.message)));
    }
  }
  for (const SkippedEntry& skipped : result.skipped) {
    if (skipped.reason == SkipReason::Unreadable) {
      lines.push_back(
          fmt::format("{}: cannot read: {}", printable(skipped.path), printable(skipped.detail)));
    }
  }
  for (std::size_t i = 0; i < lines.size() && i < k_max_warning_lines; ++i) {
    std::fprintf(stderr, "gpuport: warning: %s\n", lines[i].c_str());
  }
  if (lines.size() > k_max_warning_lines) {
    std::fprintf(stderr,
                 "gpuport: warning: \xE2\x80\xA6 and %zu more warnings (see --format json)\n",
                 lines.size() - k_max_warning_lines);
  }
}

// Standard output; keeps the errno of the first failed write (EPIPE: the reader went away) and
// drops everything after it.
class StdoutSink final : public OutputSink {
 public:
  void write(std::string_view bytes) override {
    if (m_error != 0) {
      return;
    }
    errno = 0;
    if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size()) {
      fail();
    }
  }
  // 0 when everything was written, else the errno of the failure.
  int finish() {
    errno = 0;
    if (m_error == 0 && std::fflush(stdout) != 0) {
      fail();
    }
    return m_error;
  }

 private:
  void fail() {
    m_error = errno != 0 ? errno : EIO;
    std::clearerr(stdout);
  }
  int m_error = 0;
};

// The -o file; keeps the first write error and drops everything after it.
class FileSink final : public OutputSink {
 public:
  explicit FileSink(AtomicFile& file) : m_file(file) {}
  void write(std::string_view bytes) override {
    if (m_error) {
      return;
    }
    if (auto written = m_file.write(bytes); !written) {
      m_error = written.error();
    }
  }
  const std::optional<IoError>& error() const { return m_error; }

 private:
  AtomicFile& m_file;
  std::optional<IoError> m_error;
};

// Writes the report to stdout or atomically to config.output. Returns the exit code when the
// command ends here (the output failed, or its reader went away), nothing when it goes on.
std::optional<int> emit_report(const ScanResult& result, const ScanConfig& config,
                               const ReportOptions& options) {
  if (config.output.empty()) {
    StdoutSink sink;
    write_report(result, config.format, options, sink);
    const int error = sink.finish();
    if (error == EPIPE) {
      return 0;  // `gpuport scan . | head -1`: the reader has what it wanted
    }
    if (error != 0) {
      std::fprintf(stderr, "gpuport: error: cannot write the report: %s\n", std::strerror(error));
      return 2;
    }
    return std::nullopt;
  }
  const auto fail = [](const IoError& error) -> std::optional<int> {
    std::fprintf(stderr, "gpuport: error: cannot write '%s': %s\n", printable(error.path).c_str(),
                 printable(error.message).c_str());
    return 2;
  };
  // A report is regenerated by running the scan again: no wait for the disk.
  auto file = AtomicFile::create(config.output, Durability::Regenerable);
  if (!file) {
    return fail(file.error());
  }
  FileSink sink(*file);
  write_report(result, config.format, options, sink);
  if (sink.error()) {
    return fail(*sink.error());
  }
  if (auto committed = file->commit(); !committed) {
    return fail(committed.error());
  }
  return std::nullopt;
}

// Port work only: product code the AMD build may compile. Tests, vendored code and branches the
// AMD build leaves out stay in the report but do not trip the gate.
std::uint64_t findings_at_or_above(const ScanResult& result, Tier threshold) {
  std::uint64_t count = 0;
  for (const Finding& finding : result.findings) {
    if (!finding.is_port_work()) {
      continue;
    }
    const RuleInfo* rule = rule_of(finding);
    if (rule != nullptr && rule->tier >= threshold) {
      ++count;
    }
  }
  return count;
}

}  // namespace

tl::expected<std::uint64_t, std::string> parse_size(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    ++digits;
  }
  if (digits == 0) {
    return tl::unexpected(std::string("expected a number of bytes, optionally with K, M or G"));
  }
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) {
      return tl::unexpected(std::string("number too large"));
    }
    value = value * 10 + digit;
  }
  std::string suffix;
  for (char c : text.substr(digits)) {
    suffix.push_back(static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c));
  }
  std::uint64_t multiplier = 1;
  if (suffix.empty() || suffix == "B") {
    multiplier = 1;
  } else if (suffix == "K" || suffix == "KB" || suffix == "KIB") {
    multiplier = 1024;
  } else if (suffix == "M" || suffix == "MB" || suffix == "MIB") {
    multiplier = 1024 * 1024;
  } else if (suffix == "G" || suffix == "GB" || suffix == "GIB") {
    multiplier = 1024 * 1024 * 1024;
  } else {
    return tl::unexpected(
        fmt::format("unknown unit '{}' (use K, M or G)", printable(text.substr(digits))));
  }
  if (value > std::numeric_limits<std::uint64_t>::max() / multiplier) {
    return tl::unexpected(std::string("number too large"));
  }
  return value * multiplier;
}

std::optional<ReportFormat> parse_report_format(std::string_view name) {
  if (name == "text") {
    return ReportFormat::Text;
  }
  if (name == "json") {
    return ReportFormat::Json;
  }
  if (name == "sarif") {
    return ReportFormat::Sarif;
  }
  if (name == "md" || name == "markdown") {
    return ReportFormat::Markdown;
  }
  return std::nullopt;
}

tl::expected<ScanConfig, UsageError> parse_scan_args(const CommandArgs& args, std::string* help) {
  CLI::App app("", "gpuport scan");
  RawScanArgs raw;
  raw.jobs = default_jobs();
  define_flags(app, raw);
  if (auto parsed = parse_command_line(app, args, help); !parsed) {
    return tl::unexpected(parsed.error());
  }
  return validate(raw);
}

std::string scan_help() {
  CLI::App app("", "gpuport scan");
  RawScanArgs raw;
  raw.jobs = default_jobs();
  define_flags(app, raw);
  return app.help();
}

// Writes the report, then the exit status: 1 when --fail-on finds something, 2 when the report
// could not be written, else 0.
int report_and_status(const ScanResult& result, const ScanConfig& config,
                      const ReportOptions& options) {
  if (const std::optional<int> ended = emit_report(result, config, options)) {
    return *ended;
  }
  if (config.format != ReportFormat::Json) {
    print_warnings(result);
  }
  if (config.fail_on) {
    // The gate judged what it read; say so when product files are missing from it.
    if (const std::string gap = coverage_gap(scan_coverage(result)); !gap.empty()) {
      std::fprintf(stderr, "gpuport: warning: --fail-on judged an incomplete scan: %s\n",
                   gap.c_str());
    }
    const std::uint64_t count = findings_at_or_above(result, *config.fail_on);
    if (count > 0) {
      std::fprintf(stderr, "gpuport: --fail-on %s: %llu finding%s at or above this tier\n",
                   std::string(tier_name(*config.fail_on)).c_str(),
                   static_cast<unsigned long long>(count), count == 1 ? "" : "s");
      return 1;
    }
  }
  return 0;
}

int run_scan_command(const CommandArgs& args) {
  std::string help;
  auto config = parse_scan_args(args, &help);
  if (const std::optional<int> status = usage_exit(config, help)) {
    return *status;
  }
  if (const std::optional<int> status = unwritable_output(config->output)) {
    return *status;
  }
  if (const std::optional<int> status =
          add_config_excludes(config->config_file, config->scan.walk.excludes)) {
    return *status;
  }

  config->scan.prefault_heap = tune_malloc_for_one_shot_command();
  config->scan.excerpts = config->format != ReportFormat::Text;  // the text report shows none
  DiskFileSystem disk;
  ScanProgress progress;
  tl::expected<ScanResult, IoError> result;
  {
    ProgressLine line(progress, decide_progress_display(config->progress == Progress::Quiet));
    result = scan(disk, config->root, config->scan, &progress);
  }
  if (!result) {
    std::fprintf(stderr, "gpuport: error: cannot read '%s': %s\n", printable(config->root).c_str(),
                 printable(result.error().message).c_str());
    return 2;
  }
  // A file named on the command line that cannot be read is an input error, not a clean scan.
  if (result->files_scanned == 0 && result->skipped.size() == 1 &&
      !std::filesystem::is_directory(config->root)) {
    const SkippedEntry& entry = result->skipped.front();
    if (left_unread(entry.reason)) {
      return unread_input_error(config->root, entry.reason, entry.size, entry.detail);
    }
  }

  ReportOptions options;
  const bool to_stdout = config->output.empty();
  options.color = to_stdout ? decide_stdout_color(config->color)
                            : decide_color(config->color, IsTerminal::No, std::getenv("NO_COLOR"));
  options.width = to_stdout ? terminal_width() : 100;
  options.root_uri = directory_uri(root_directory(config->root));
  options.jobs = config->scan.walk.jobs;
  const int status = report_and_status(*result, *config, options);
  keep_until_exit(std::move(*result));
  return status;
}

}  // namespace gpuport
