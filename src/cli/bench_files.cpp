// `gpuport bench compare` and `gpuport bench merge`: read saved results, combine, write.
#include "cli/bench_files.h"
#include "source/bounded_read.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "bench/compare.h"
#include "bench/compare_markdown.h"
#include "bench/result_json.h"
#include "bench/summary_text.h"
#include "cli/command_line.h"
#include "cli/command_output.h"
#include "report/text_util.h"

namespace gpuport {

namespace {

constexpr std::string_view k_compare_description =
    "Compare two bench results (e.g. the NVIDIA and the AMD deployment under the same load):\n"
    "each metric side by side with the ratio B/A.";

constexpr std::string_view k_compare_footer =
    "Examples:\n"
    "  gpuport bench compare h100.json mi300x.json\n"
    "  gpuport bench compare h100.json mi300x.json --format markdown > compare.md\n"
    "  gpuport bench compare h100.json mi300x.json --format json -o compare.json\n"
    "\n"
    "Exit codes:\n"
    "  0  comparison written\n"
    "  2  bad usage or an unreadable result (one line names the file and the position)";

constexpr std::string_view k_merge_description =
    "Merge bench results of several client machines that loaded one server at the same time:\n"
    "counts add, latency histograms merge exactly (percentiles of the union, not averages),\n"
    "the duration is the longest. Results must agree on API, model, streaming and load.";

constexpr std::string_view k_merge_footer =
    "Examples:\n"
    "  gpuport bench merge client1.json client2.json client3.json -o all.json\n"
    "  gpuport bench merge a.json b.json --format text\n"
    "\n"
    "Exit codes:\n"
    "  0  merged result written\n"
    "  2  bad usage, an unreadable result, or results that cannot be merged";

tl::expected<BenchResult, std::string> read_result(const std::string& path) {
  auto text = read_bounded_file(path, k_result_file_limit, "gpuport bench result");
  if (!text) {
    return tl::unexpected(fmt::format("cannot read '{}': {}", path, text.error().message));
  }
  return bench_result_from_json(*text, path);
}

int usage_error(const std::string& message) {
  std::fprintf(stderr, "gpuport: error: %s\n", printable(message).c_str());
  return 2;
}

}  // namespace

int run_bench_compare(const CommandArgs& args) {
  CLI::App app("", "gpuport bench compare");
  app.description(std::string(k_compare_description));
  app.footer(std::string(k_compare_footer));
  std::vector<std::string> files;
  std::string format = "text";
  std::string output;
  app.add_option("RESULTS", files, "Result A, then result B")->expected(0, 2);
  app.add_option("--format", format, "text, json or markdown (md)")
      ->type_name("FORMAT")
      ->capture_default_str();
  app.add_option("-o,--output", output, "Write to FILE (atomically) instead of stdout")
      ->type_name("FILE");
  std::string help;
  if (auto parsed = parse_command_line(app, args, &help); !parsed) {
    if (!help.empty()) {
      std::fputs(help.c_str(), stdout);
      return 0;
    }
    return usage_error(parsed.error().message);
  }
  if (files.size() != 2) {
    return usage_error("give two results: gpuport bench compare A.json B.json");
  }
  if (format != "text" && format != "json" && format != "markdown" && format != "md") {
    return usage_error(
        fmt::format("invalid --format '{}' (valid: text, json, markdown)", printable(format)));
  }
  if (const std::optional<int> status = unwritable_output(output)) {
    return *status;
  }
  auto a = read_result(files[0]);
  if (!a) {
    return usage_error(a.error());
  }
  auto b = read_result(files[1]);
  if (!b) {
    return usage_error(b.error());
  }
  const BenchComparison comparison = compare_bench_results(*a, *b, files[0], files[1]);
  const std::string rendered = format == "json"   ? render_comparison_json(comparison)
                               : format == "text" ? render_comparison_text(comparison)
                                                  : render_comparison_markdown(comparison);
  return write_command_output(rendered, output);
}

int run_bench_merge(const CommandArgs& args) {
  CLI::App app("", "gpuport bench merge");
  app.description(std::string(k_merge_description));
  app.footer(std::string(k_merge_footer));
  std::vector<std::string> files;
  std::string output;
  std::string format = "json";
  app.add_option("RESULTS", files, "Two or more results of `gpuport bench -o`");
  app.add_option("-o,--output", output, "Write the merged result to FILE (atomically)")
      ->type_name("FILE");
  app.add_option("--format", format, "Standard output when there is no -o: json or text")
      ->type_name("FORMAT")
      ->capture_default_str();
  std::string help;
  if (auto parsed = parse_command_line(app, args, &help); !parsed) {
    if (!help.empty()) {
      std::fputs(help.c_str(), stdout);
      return 0;
    }
    return usage_error(parsed.error().message);
  }
  if (files.size() < 2) {
    return usage_error("give two or more results: gpuport bench merge A.json B.json -o OUT.json");
  }
  if (format != "json" && format != "text") {
    return usage_error(fmt::format("invalid --format '{}' (valid: json, text)", printable(format)));
  }
  if (const std::optional<int> status = unwritable_output(output)) {
    return *status;
  }
  std::vector<BenchResult> results;
  for (const std::string& file : files) {
    auto result = read_result(file);
    if (!result) {
      return usage_error(result.error());
    }
    results.push_back(std::move(*result));
  }
  auto merged = merge_bench_results(results, files);
  if (!merged) {
    return usage_error(merged.error());
  }
  const std::string json = bench_result_to_json(*merged);
  if (!output.empty()) {
    return write_command_output(json, output);
  }
  return write_command_output(format == "text" ? render_bench_text(*merged) : json, "");
}

}  // namespace gpuport
