// `gpuport hipify`: each flag defined once (with its help), validated into a HipifyConfig, then
// translate -> check the destinations -> write -> diff / verify / statistics.
#include "cli/hipify_command.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "cli/command_line.h"
#include "cli/command_output.h"
#include "cli/hipify_report.h"
#include "cli/progress.h"
#include "cli/scan_exclusions.h"
#include "hipify/mapping.h"
#include "hipify/unified_diff.h"
#include "report/text_util.h"

namespace gpuport {

namespace {

constexpr std::string_view k_description =
    "Translate CUDA sources to HIP (the mechanical part of a port to AMD GPUs): CUDA runtime,\n"
    "driver and library names become their HIP/ROCm names, includes are fixed, and the scan's\n"
    "rules warn about what still needs a person (warp-32 code, inline PTX, unsupported APIs).\n"
    "C/C++/CUDA sources are translated; CMakeLists.txt, *.cmake and setup.py are reported (and\n"
    "rewritten with --build-files); other files are copied unchanged into an -o tree.";

constexpr std::string_view k_footer =
    "Where the result goes (choose one):\n"
    "  -o DIR       mirror the inputs into DIR (created; must be empty or use --force)\n"
    "  --in-place   rewrite the inputs, keeping each original as FILE.cuda.orig\n"
    "  --stdout     print the translation of one file\n"
    "  --dry-run    write nothing (add --diff to see the changes, --stats for the numbers)\n"
    "\n"
    "Examples:\n"
    "  gpuport hipify kernels.cu --stdout\n"
    "  gpuport hipify src/ --dry-run --diff | less\n"
    "  gpuport hipify src/ include/ -o hip/ --rename --build-files --stats\n"
    "  gpuport hipify . --in-place --exclude third_party/\n"
    "  gpuport hipify . --dry-run --config .gpuport.toml   leave out its [scan] exclude globs\n"
    "  gpuport hipify csrc/ -o ../csrc-hip --verify --offload-arch gfx940 --hipcc-arg=-Icsrc\n"
    "  gpuport hipify csrc/ --dry-run --format json > hipify.json\n"
    "  gpuport hipify csrc/ -o ../csrc-hip --rocm 6.0   for the ROCm release the team runs\n"
    "\n"
    "--rocm X.Y picks the ROCm release the translation is for (default: the newest the tables\n"
    "know; with --verify, hipcc's): a CUDA name that release lacks is left as written and\n"
    "reported 'needs ROCm >= X.Y', and names a release spells differently (hipBLAS's _v2 API\n"
    "on 6.x) take the target's spelling.\n"
    "\n"
    "--exclude GLOB (gitignore syntax, repeatable) and the [scan] exclude list of a --config\n"
    "file (the .gpuport.toml that 'gpuport audit' reads) add up: excluded files are neither\n"
    "translated nor copied.\n"
    "\n"
    "Warnings go to stderr as FILE:LINE:COL: warning: [RULE] message ('gpuport rules RULE').\n"
    "--verify runs hipcc -fsyntax-only on every translated source ($HIPCC or --hipcc picks the\n"
    "compiler); a missing compiler or library header is reported as such, not as a failure.\n"
    "\n"
    "Exit codes:\n"
    "  0  done (and, with --verify, no translated source failed to compile)\n"
    "  1  --verify: a translated source does not compile\n"
    "  2  bad usage or input (missing PATH, -o inside the input, existing backup without\n"
    "     --force, an invalid --config file, ...); one line names the file, and nothing is\n"
    "     written";

struct RawHipifyArgs {
  std::vector<std::string> inputs;
  std::string output;
  bool in_place = false;
  bool to_stdout = false;
  bool dry_run = false;
  bool diff = false;
  bool rename = false;
  bool force = false;
  bool build_files = false;
  bool stats = false;
  std::string format = "text";
  std::string launch_syntax = "keep";
  bool roc = false;
  bool translate_comments = false;
  bool no_warnings = false;
  bool verify = false;
  std::string offload_arch = "gfx90a";
  std::string hipcc;
  std::vector<std::string> hipcc_args;
  unsigned jobs = 1;
  std::vector<std::string> excludes;
  std::string config;
  bool no_ignore = false;
  bool follow_symlinks = false;
  std::string max_filesize = "16M";
  std::string rocm;
  bool quiet = false;
};

void define_flags(CLI::App& app, RawHipifyArgs& raw) {
  app.description(std::string(k_description));
  app.footer(std::string(k_footer));
  app.add_option("PATH", raw.inputs, "Files or directories to translate")->type_name("PATH...");
  app.add_option("-o,--output", raw.output, "Write the translated tree to DIR")->type_name("DIR");
  app.add_flag("--in-place", raw.in_place, "Rewrite the inputs; originals kept as FILE.cuda.orig");
  app.add_flag("--stdout", raw.to_stdout, "Print the translation of one file to stdout");
  app.add_flag("--dry-run", raw.dry_run, "Translate but write nothing");
  app.add_flag("--diff", raw.diff, "Print a unified diff of every change to stdout");
  app.add_flag("--rename", raw.rename, "Name translated .cu files .hip (with -o / --in-place)");
  app.add_flag("--force", raw.force,
               "Write into a non-empty -o DIR; re-run --in-place over files already backed up "
               "(the new original goes to FILE.cuda.orig.N, never over a backup); replace .hip "
               "files");
  app.add_flag("--build-files", raw.build_files,
               "Rewrite CMake files and setup.py for HIP (default: only report them)");
  app.add_flag("--stats", raw.stats,
               "Print statistics: conversions by API family and name, unsupported APIs, "
               "warnings by rule");
  app.add_option("--format", raw.format, "Statistics and report format: text or json")
      ->type_name("FORMAT")
      ->capture_default_str();
  app.add_option("--launch-syntax", raw.launch_syntax,
                 "Kernel launches: keep k<<<...>>> or write hipLaunchKernelGGL (hip)")
      ->type_name("keep|hip")
      ->capture_default_str();
  app.add_flag("--roc", raw.roc, "Use AMD's native libraries (rocBLAS, rocRAND...) not hip*");
  app.add_option("--rocm", raw.rocm,
                 fmt::format("ROCm release to translate for, {} to {} (default: {}; with --verify, "
                             "hipcc's): names it lacks are reported, not written",
                             rocm_release_name(rocm_releases().front()),
                             rocm_release_name(newest_rocm_release()),
                             rocm_release_name(newest_rocm_release())))
      ->type_name("X.Y");
  app.add_flag("--translate-comments", raw.translate_comments,
               "Also rename CUDA names inside comments and string literals");
  app.add_flag("--no-warnings", raw.no_warnings,
               "Do not run the scan's rules or print warnings (statistics still count)");
  app.add_flag("--verify", raw.verify,
               "Compile each translated source with hipcc -fsyntax-only (with -o / --in-place)");
  app.add_option("--offload-arch", raw.offload_arch,
                 "AMD GPU target for --verify and for rewritten build files")
      ->type_name("GFX")
      ->capture_default_str();
  app.add_option("--hipcc", raw.hipcc, "Compiler for --verify (default: $HIPCC, else hipcc)")
      ->type_name("PATH");
  app.add_option("--hipcc-arg", raw.hipcc_args,
                 "Extra argument for hipcc, e.g. --hipcc-arg=-Iinclude; repeatable")
      ->type_name("ARG")
      ->allow_extra_args(false);
  app.add_option("--jobs", raw.jobs, "Worker threads and parallel compiles (default: all cores)")
      ->type_name("N")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  add_exclude_option(app, raw.excludes);
  add_scan_config_option(app, raw.config);
  app.add_flag("--no-ignore", raw.no_ignore, "Do not honour .gitignore and .git/info/exclude");
  app.add_flag("--follow-symlinks", raw.follow_symlinks,
               "Follow symbolic links (default: an -o tree recreates them as links)");
  app.add_option("--max-filesize", raw.max_filesize,
                 "Copy larger files untranslated; bytes or K/M/G: 512K, 16M, 1G")
      ->type_name("SIZE")
      ->capture_default_str();
  app.add_flag("-q,--quiet", raw.quiet, "No progress line and no summary line on stderr");
}

UsageError usage(std::string message) {
  return UsageError{std::move(message)};
}

tl::expected<HipifyConfig, UsageError> validate(const RawHipifyArgs& raw, const char* hipcc_env) {
  HipifyConfig config;
  if (raw.inputs.empty()) {
    return tl::unexpected(usage("missing PATH: give the CUDA files or directories to translate"));
  }
  config.inputs = raw.inputs;
  std::vector<std::string> modes;
  if (!raw.output.empty()) {
    modes.push_back("-o");
    config.output.mode = OutputMode::Directory;
    config.output.directory = raw.output;
  }
  if (raw.in_place) {
    modes.push_back("--in-place");
    config.output.mode = OutputMode::InPlace;
  }
  if (raw.to_stdout) {
    modes.push_back("--stdout");
    config.output.mode = OutputMode::Stdout;
  }
  if (raw.dry_run) {
    modes.push_back("--dry-run");
    config.output.mode = OutputMode::DryRun;
  }
  if (modes.empty()) {
    return tl::unexpected(
        usage("choose where the translation goes: -o DIR, --in-place, --stdout or --dry-run"));
  }
  if (modes.size() > 1) {
    return tl::unexpected(usage(fmt::format("{} and {} cannot be combined", modes[0], modes[1])));
  }
  config.output.rename = raw.rename;
  config.output.force = raw.force;
  if (raw.format == "text") {
    config.format = ReportFormat::Text;
  } else if (raw.format == "json") {
    config.format = ReportFormat::Json;
  } else {
    return tl::unexpected(
        usage(fmt::format("invalid --format '{}' (valid: text, json)", printable(raw.format))));
  }
  if (raw.diff && raw.to_stdout) {
    return tl::unexpected(usage("--diff cannot be combined with --stdout"));
  }
  if (config.format == ReportFormat::Json && (raw.diff || raw.to_stdout)) {
    return tl::unexpected(
        usage("--format json prints the report on stdout; it cannot be "
              "combined with --stdout or --diff"));
  }
  if (raw.verify && (raw.to_stdout || raw.dry_run)) {
    return tl::unexpected(
        usage("--verify compiles the written files: use it with -o DIR or --in-place"));
  }
  if (raw.launch_syntax == "keep") {
    config.hipify.translate.launch_syntax = LaunchSyntax::Keep;
  } else if (raw.launch_syntax == "hip") {
    config.hipify.translate.launch_syntax = LaunchSyntax::Hip;
  } else {
    return tl::unexpected(usage(fmt::format("invalid --launch-syntax '{}' (valid: keep, hip)",
                                            printable(raw.launch_syntax))));
  }
  const std::string& arch = raw.offload_arch;
  const bool arch_ok = arch.starts_with("gfx") && arch.size() > 3 &&
                       std::all_of(arch.begin(), arch.end(), [](char c) {
                         return std::isalnum(static_cast<unsigned char>(c)) || c == ':' ||
                                c == '+' || c == '-' || c == '_';
                       });
  if (!arch_ok) {
    return tl::unexpected(usage(fmt::format(
        "--offload-arch '{}' is not an AMD GPU target (e.g. gfx90a, gfx942)", printable(arch))));
  }
  auto max_size = parse_size(raw.max_filesize);
  if (!max_size) {
    return tl::unexpected(usage(fmt::format("invalid --max-filesize '{}': {}",
                                            printable(raw.max_filesize), max_size.error())));
  }
  if (!raw.rocm.empty()) {
    const std::optional<RocmRelease> rocm = parse_supported_rocm_release(raw.rocm);
    if (!rocm) {
      return tl::unexpected(
          usage(fmt::format("invalid --rocm '{}': gpuport's tables cover {} (MAJOR.MINOR)",
                            printable(raw.rocm), rocm_releases_covered())));
    }
    config.hipify.translate.rocm = *rocm;
  }
  config.hipify.translate.roc = raw.roc;
  config.hipify.translate.translate_comments = raw.translate_comments;
  config.hipify.translate.warnings = !raw.no_warnings;
  config.hipify.build.offload_arch = arch;
  config.hipify.build.rename_sources = raw.rename;
  config.hipify.build.roc = raw.roc;
  config.hipify.rewrite_build_files = raw.build_files;
  config.hipify.walk.max_file_size = *max_size;
  config.hipify.walk.jobs = raw.jobs;
  config.hipify.walk.excludes = raw.excludes;
  if (!raw.config.empty()) {
    config.config_file = raw.config;
  }
  config.hipify.walk.ignore_files = raw.no_ignore ? IgnoreFiles::Disregard : IgnoreFiles::Honour;
  config.hipify.walk.symlinks = raw.follow_symlinks ? Symlinks::Follow : Symlinks::Skip;
  config.diff = raw.diff ? ShowDiff::On : ShowDiff::Off;
  config.stats = raw.stats ? ShowStats::On : ShowStats::Off;
  config.verify = raw.verify ? Verify::On : Verify::Off;
  config.verify_options.offload_arch = arch;
  config.verify_options.jobs = raw.jobs;
  config.verify_options.extra_args = raw.hipcc_args;
  config.verify_options.hipcc = !raw.hipcc.empty()                     ? raw.hipcc
                                : (hipcc_env != nullptr && *hipcc_env) ? hipcc_env
                                                                       : "hipcc";
  config.progress = raw.quiet ? Progress::Quiet : Progress::Show;
  return config;
}

// "unknown option '--in-palce'. Did you mean '--in-place'?" for the first unexpected option.
std::string unknown_option_message(const CLI::App& app, const std::vector<std::string>& extras,
                                   const std::string& fallback) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) {
      names.push_back("--" + name);
    }
  }
  for (const std::string& extra : extras) {
    if (!extra.starts_with("-")) {
      continue;
    }
    const std::string typed = extra.substr(0, extra.find('='));
    std::vector<std::string_view> candidates(names.begin(), names.end());
    std::string message = fmt::format("unknown option '{}'", printable(typed));
    if (auto suggestion = did_you_mean(typed, candidates)) {
      message += fmt::format(". Did you mean '{}'?", *suggestion);
    }
    return message;
  }
  return fallback;
}

// Inputs must exist, not overlap, and be one file for --stdout.
tl::expected<void, UsageError> check_inputs(const HipifyConfig& config) {
  namespace fs = std::filesystem;
  std::vector<fs::path> resolved;
  for (const std::string& input : config.inputs) {
    std::error_code error;
    const fs::file_status status = fs::status(input, error);
    if (!fs::exists(status)) {
      return tl::unexpected(
          usage(fmt::format("cannot read '{}': No such file or directory", printable(input))));
    }
    if (config.output.mode == OutputMode::Stdout && fs::is_directory(status)) {
      return tl::unexpected(
          usage(fmt::format("--stdout takes one file; '{}' is a directory", printable(input))));
    }
    const fs::path path = fs::weakly_canonical(fs::absolute(input), error);
    for (std::size_t i = 0; i < resolved.size(); ++i) {
      const auto [a, b] =
          std::mismatch(resolved[i].begin(), resolved[i].end(), path.begin(), path.end());
      const auto [c, d] =
          std::mismatch(path.begin(), path.end(), resolved[i].begin(), resolved[i].end());
      if (a == resolved[i].end() || c == path.end()) {
        return tl::unexpected(usage(fmt::format("'{}' and '{}' overlap; give each file once",
                                                printable(config.inputs[i]), printable(input))));
      }
    }
    resolved.push_back(path);
  }
  if (config.output.mode == OutputMode::Stdout && config.inputs.size() > 1) {
    return tl::unexpected(
        usage(fmt::format("--stdout takes one file; {} paths were given", config.inputs.size())));
  }
  return {};
}

int write_stdout(std::string_view bytes) {
  errno = 0;
  if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size() ||
      std::fflush(stdout) != 0) {
    const int error = errno != 0 ? errno : EIO;
    std::clearerr(stdout);
    return error;
  }
  return 0;
}

// The text a file has after the run: the new text, or the original read back from disk.
std::string final_text(const FileOutcome& file) {
  if (file.changed) {
    return file.output;
  }
  DiskFileSystem disk;
  auto contents = disk.read(file.disk_path);
  return contents ? std::string(contents->bytes()) : std::string();
}

std::string diffs(const HipifyRun& run, const OutputOptions& output) {
  std::string out;
  DiskFileSystem disk;
  for (const FileOutcome& file : run.files) {
    if (!file.changed) {
      continue;
    }
    auto original = disk.read(file.disk_path);
    if (!original) {
      continue;
    }
    std::string renamed = file.display;
    if (renamed_path(file, output.rename) != file.relative) {
      renamed = renamed.substr(0, renamed.size() - 3) + ".hip";
    }
    out += unified_diff(original->bytes(), file.output, file.display, renamed);
  }
  return out;
}

std::vector<VerifyInput> verify_inputs(const HipifyRun& run, const OutputPlan& plan) {
  std::vector<VerifyInput> inputs;
  for (std::size_t i = 0; i < run.files.size(); ++i) {
    const FileOutcome& file = run.files[i];
    if (file.action != FileAction::Translate) {
      continue;
    }
    std::string path = plan.destinations[i];
    if (path.empty()) {
      path = file.disk_path;  // --in-place, unchanged: the input is the translation
    }
    inputs.push_back(VerifyInput{path, path, file.changed});
  }
  return inputs;
}

}  // namespace

tl::expected<HipifyConfig, UsageError> parse_hipify_args(const CommandArgs& args, std::string* help,
                                                         const char* hipcc_env) {
  CLI::App app("", "gpuport hipify");
  RawHipifyArgs raw;
  raw.jobs = std::max(1u, std::thread::hardware_concurrency());
  define_flags(app, raw);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them reversed
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    if (help != nullptr) {
      *help = app.help();
    }
    return tl::unexpected(UsageError{});
  } catch (const CLI::ExtrasError& error) {
    return tl::unexpected(usage(unknown_option_message(app, app.remaining(), error.what())));
  } catch (const CLI::ParseError& error) {
    return tl::unexpected(usage(printable(error.what())));
  }
  return validate(raw, hipcc_env);
}

std::string hipify_help() {
  CLI::App app("", "gpuport hipify");
  RawHipifyArgs raw;
  raw.jobs = std::max(1u, std::thread::hardware_concurrency());
  define_flags(app, raw);
  return app.help();
}

int run_hipify_command(const CommandArgs& args) {
  std::string help;
  auto config = parse_hipify_args(args, &help, std::getenv("HIPCC"));
  if (const std::optional<int> status = usage_exit(config, help)) {
    return *status;
  }
  if (const std::optional<int> status = add_config_excludes(
          config->config_file, config->hipify.walk.excludes, &config->hipify.translate.rocm)) {
    return *status;
  }
  if (auto inputs = check_inputs(*config); !inputs) {
    std::fprintf(stderr, "gpuport: error: %s\n", inputs.error().message.c_str());
    return 2;
  }
  if (config->verify == Verify::On && config->hipify.translate.rocm == 0) {
    // Translate for the compiler that checks the result, and say so.
    const RocmTarget target = rocm_target_of_hipcc(config->verify_options.hipcc);
    config->hipify.translate.rocm = target.release;
    const std::string hipcc = printable(config->verify_options.hipcc);
    const std::string release = rocm_release_name(target.release);
    std::string note =
        !target.reported
            ? fmt::format("translating for ROCm {}: '{} --version' names no HIP version", release,
                          hipcc)
            : fmt::format("translating for ROCm {}, the HIP of '{}' (--verify)", release, hipcc);
    if (target.reported && *target.reported != target.release) {
      note += fmt::format(", which reports {}, outside the tables' {}",
                          rocm_release_name(*target.reported), rocm_releases_covered());
    }
    std::fprintf(stderr, "gpuport: %s; --rocm X.Y chooses another\n", note.c_str());
  }

  DiskFileSystem disk;
  ScanProgress progress;
  tl::expected<HipifyRun, IoError> run;
  {
    ProgressLine line(progress, decide_progress_display(config->progress == Progress::Quiet),
                      "translating");
    run = hipify_tree(disk, config->inputs, config->hipify,
                      mapping_table_for(config->hipify.translate.rocm), &progress);
  }
  if (!run) {
    std::fprintf(stderr, "gpuport: error: cannot read '%s': %s\n",
                 printable(run.error().path).c_str(), printable(run.error().message).c_str());
    return 2;
  }
  // A file named on the command line that cannot be read or translated is an input error:
  // `hipify FILE --stdout` printed nothing and exited 0.
  for (const FileOutcome& file : run->files) {
    const InputRoot& root = run->roots[file.root];
    if (!root.directory && file.reason && left_unread(*file.reason)) {
      return unread_input_error(root.path, *file.reason, file.size, file.reason_detail);
    }
  }
  auto plan = plan_output(*run, config->output);
  if (!plan) {
    std::fprintf(stderr, "gpuport: error: %s: %s\n", printable(plan.error().path).c_str(),
                 printable(plan.error().message).c_str());
    return 2;
  }

  HipifyReport report{*config, *run, *plan, {}};
  const bool text = config->format == ReportFormat::Text;
  if (text) {
    for (const std::string& line : diagnostic_lines(report)) {
      std::fprintf(stderr, "%s\n", line.c_str());
    }
  }
  std::string out;
  if (config->output.mode == OutputMode::Stdout && !run->files.empty()) {
    out += final_text(run->files.front());
  }
  if (config->diff == ShowDiff::On) {
    out += diffs(*run, config->output);  // before --in-place replaces the originals
  }
  if (auto written = write_output(*run, *plan); !written) {
    std::fprintf(stderr, "gpuport: error: cannot write '%s': %s\n",
                 printable(written.error().path).c_str(),
                 printable(written.error().message).c_str());
    return 2;
  }

  if (config->verify == Verify::On) {
    ScanProgress compiled;
    ProgressLine line(compiled, decide_progress_display(config->progress == Progress::Quiet),
                      "compiling");
    report.verify =
        verify_sources(disk, verify_inputs(*run, *plan), config->verify_options, &compiled);
    line.stop();
    if (text) {
      out += verify_text(report);
    }
  }
  if (!text) {
    out += report_json(report);
  } else if (config->stats == ShowStats::On) {
    std::string stats = stats_text(report);
    if (config->output.mode == OutputMode::Stdout) {
      std::fputs(stats.c_str(), stderr);  // stdout carries the translation
    } else {
      out += stats;
    }
  }
  const int error = write_stdout(out);
  if (error != 0 && error != EPIPE) {
    std::fprintf(stderr, "gpuport: error: cannot write to stdout: %s\n", std::strerror(error));
    return 2;
  }
  if (text && config->progress == Progress::Show) {
    std::fprintf(stderr, "%s\n", summary_line(report).c_str());
  }
  return verify_failures(report) > 0 ? 1 : 0;
}

}  // namespace gpuport
