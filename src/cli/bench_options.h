// `gpuport bench URL` options: each flag defined once with its help, then validated into a
// BenchRunConfig (nothing below the CLI sees argv). Header values may be secrets: they live in
// `headers` only, never in `result_config`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tl/expected.hpp>

#include "bench/bench_result.h"
#include "bench/load_runner.h"
#include "bench/prompts.h"
#include "bench/slo.h"
#include "bench/url.h"
#include "cli/command_table.h"
#include "cli/scan_command.h"

namespace gpuport {

enum class BenchFormat : std::uint8_t { Text, Json };

struct BenchRunConfig {
  Url url;                    // with the request path resolved
  BenchConfig result_config;  // what the result file records
  LoadOptions load;
  std::vector<double> sweep_levels;  // empty: one run
  Slo slo;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string ca_file;
  std::int64_t connect_timeout_ns = 10'000'000'000;
  std::string body_template;  // the --body-template file's text (generic API)
  std::vector<DatasetPrompt> dataset;
  bool ignore_eos = false;
  std::string output;          // -o: the JSON result, written atomically
  std::string requests_jsonl;  // --requests-jsonl
  BenchFormat format = BenchFormat::Text;
  bool quiet = false;
};

// "120s", "2m", "500ms", "1.5h", "250us"; a bare number is seconds.
tl::expected<std::int64_t, std::string> parse_bench_duration_ns(std::string_view text);

// Parses and validates the words after `bench`; `help` is set when --help was asked for.
// `getenv` reads --header-env variables (tests pass their own).
tl::expected<BenchRunConfig, UsageError> parse_bench_args(
    const CommandArgs& args, std::string* help, const char* (*getenv)(const char*) = nullptr);
std::string bench_help();

}  // namespace gpuport
