// `gpuport bench` flags and their validation into a BenchRunConfig.
#include "cli/bench_options.h"
#include "source/bounded_read.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "bench/openai_protocol.h"
#include "bench/secrets.h"
#include "cli/command_line.h"
#include "report/text_util.h"
#include "source/ascii_text.h"

namespace gpuport {

namespace {

// The largest load settings taken: far beyond any server, small enough that schedules, prompts
// and connection tables stay finite and fit in memory.
constexpr double k_max_rate = 1e6;        // requests per second
constexpr double k_max_burstiness = 1e6;  // gamma shape
constexpr std::int64_t k_max_concurrency = 1'000'000;
constexpr std::int64_t k_max_tokens = 10'000'000;  // a prompt or an answer, in tokens

constexpr std::string_view k_description =
    "Measure an inference server under load: TTFT, TPOT, ITL and end-to-end latency at\n"
    "p50/p90/p95/p99/p99.9, request and token throughput, errors by kind. Speaks the OpenAI API\n"
    "(/v1/completions, /v1/chat/completions; streaming SSE or not) or any JSON POST from a\n"
    "template. Run it against the NVIDIA and the AMD deployment with the same options, then\n"
    "'gpuport bench compare a.json b.json'.\n"
    "\n"
    "Load: closed loop (--concurrency N requests always in flight) or open loop (--rate R\n"
    "requests/s on a seeded schedule, Poisson by default). Latencies are measured from the\n"
    "actual send (vLLM's definitions) and from the intended send time (coordinated omission\n"
    "corrected, as wrk2): when the server or the --concurrency cap delays requests, only the\n"
    "second shows it.";

constexpr std::string_view k_footer =
    "Durations: 500ms, 30s, 2m, 1h (a bare number is seconds). --warmup 10s warms up for a\n"
    "time, --warmup 20 for a number of requests; warm-up requests are sent but not measured.\n"
    "Without --duration or --requests a run lasts 60s.\n"
    "\n"
    "Prompts: synthetic prompts of --input-tokens common English words (about one token each\n"
    "with Llama/GPT/Qwen tokenizers; each prompt has its own prefix so prefix caching does not\n"
    "help), or --dataset FILE.jsonl with one {\"prompt\": \"...\", \"output_tokens\": N} per\n"
    "line. Token counts come from the server's usage; without it, 1 token per 4 bytes of text.\n"
    "\n"
    "Secrets: --header-env 'Authorization=API_KEY_HEADER' reads the header's value from the\n"
    "environment variable; header values are never printed or saved.\n"
    "\n"
    "Examples:\n"
    "  gpuport bench http://h100:8000 --model meta-llama/Llama-3.1-8B-Instruct \\\n"
    "      --input-tokens 512 --output-tokens 128 --concurrency 32 --duration 120s -o h100.json\n"
    "  gpuport bench http://mi300x:8000 --api chat --model M --rate 20 --duration 2m \\\n"
    "      --concurrency 256 --warmup 10s -o mi300x.json\n"
    "  gpuport bench https://llm.example.com --model M --sweep 1,2,4,8,16,32 \\\n"
    "      --slo p95_ttft=500ms,p95_e2el=4s --header-env 'Authorization=LLM_AUTH' -o sweep.json\n"
    "  gpuport bench http://host:8000 --model M --sweep rate=5,10,20,40 --concurrency 512 \\\n"
    "      --slo p99_ttft=1s --requests 500\n"
    "  gpuport bench http://host:8000/v2/models/m/infer --api generic --body-template body.json "
    "\\\n"
    "      --no-stream --concurrency 8 --requests 1000 --requests-jsonl requests.jsonl\n"
    "  gpuport bench compare h100.json mi300x.json\n"
    "  gpuport bench merge client1.json client2.json -o all.json\n"
    "  gpuport bench --serve-mock --help        (a loopback mock server for trying it out)\n"
    "\n"
    "Ctrl-C stops sending, cancels what is in flight and writes the partial result (marked\n"
    "\"interrupted\"). Result JSON: docs/bench-json.md; metric definitions: docs/bench.md.\n"
    "\n"
    "Exit codes:\n"
    "  0    the run finished (failed requests are counted in the result, not fatal)\n"
    "  1    no request completed (the result and its errors are still written)\n"
    "  2    bad usage or an unreadable input (one line names the option or file)\n"
    "  130  interrupted with Ctrl-C (the partial result is written)";

struct RawBenchArgs {
  std::string url;
  std::string api = "completions";
  std::string path;
  std::string model;
  std::int64_t input_tokens = 512;
  std::int64_t output_tokens = 128;
  std::string dataset;
  std::string body_template;
  bool no_stream = false;
  bool ignore_eos = false;
  std::int64_t concurrency = -1;  // -1: not given
  double rate = -1;
  std::string arrival = "poisson";
  double burstiness = 1.0;
  std::uint64_t seed = 0;
  std::string duration;
  std::int64_t requests = 0;
  std::string warmup;
  std::string timeout = "300s";
  std::string connect_timeout = "10s";
  std::string sweep;
  std::string slo;
  std::vector<std::string> headers;
  std::vector<std::string> header_envs;
  std::string ca_file;
  std::string output;
  std::string requests_jsonl;
  std::string format = "text";
  bool quiet = false;
};

void define_flags(CLI::App& app, RawBenchArgs& raw) {
  app.description(std::string(k_description));
  app.footer(std::string(k_footer));
  app.add_option("URL", raw.url,
                 "Server base URL, e.g. http://host:8000 (https verifies the "
                 "certificate)");
  app.add_option("--api", raw.api, "API: completions, chat or generic (a --body-template POST)")
      ->type_name("KIND")
      ->capture_default_str();
  app.add_option("--path", raw.path,
                 "Request path (default: /v1/completions or /v1/chat/completions, or the URL's "
                 "own path)")
      ->type_name("PATH");
  app.add_option("--model", raw.model, "Model name sent in each request")->type_name("NAME");
  app.add_option("--input-tokens", raw.input_tokens, "Synthetic prompt length in tokens")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--output-tokens", raw.output_tokens, "max_tokens of each request")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--dataset", raw.dataset, "Prompts from a JSONL file instead of synthetic ones")
      ->type_name("FILE");
  app.add_option("--body-template", raw.body_template,
                 "JSON body with {prompt}, {max_tokens}, {model} placeholders (--api generic)")
      ->type_name("FILE");
  app.add_flag("--no-stream", raw.no_stream, "Ask for whole responses (TTFT then equals E2EL)");
  app.add_flag("--ignore-eos", raw.ignore_eos,
               "Send ignore_eos so every answer is --output-tokens long (vLLM, SGLang)");
  app.add_option("-c,--concurrency", raw.concurrency,
                 "Closed loop: requests in flight (default 1); with --rate: the cap")
      ->type_name("N");
  app.add_option("-r,--rate", raw.rate, "Open loop: requests per second on a seeded schedule")
      ->type_name("R");
  app.add_option("--arrival", raw.arrival, "Open-loop arrivals: poisson, gamma or constant")
      ->type_name("KIND")
      ->capture_default_str();
  app.add_option("--burstiness", raw.burstiness,
                 "Gamma shape for --arrival gamma: below 1 burstier, above 1 more even")
      ->type_name("B")
      ->capture_default_str();
  app.add_option("--seed", raw.seed, "Seed of the arrival schedule")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("-d,--duration", raw.duration, "Measured time, after warm-up (e.g. 120s, 2m)")
      ->type_name("TIME");
  app.add_option("-n,--requests", raw.requests, "Measured requests, after warm-up")->type_name("N");
  app.add_option("--warmup", raw.warmup, "Warm-up before measuring: a time (10s) or a count (20)")
      ->type_name("TIME|N");
  app.add_option("--timeout", raw.timeout, "Per-request limit for the whole response")
      ->type_name("TIME")
      ->capture_default_str();
  app.add_option("--connect-timeout", raw.connect_timeout, "Limit for TCP connect + TLS handshake")
      ->type_name("TIME")
      ->capture_default_str();
  app.add_option("--sweep", raw.sweep,
                 "Levels to run one after another: 1,2,4,8 (concurrencies) or rate=5,10,20; "
                 "stops when the server saturates")
      ->type_name("LIST");
  app.add_option("--slo", raw.slo,
                 "Service-level objective, e.g. p95_ttft=500ms,p95_e2el=4s: goodput, and with "
                 "--sweep the highest load meeting it")
      ->type_name("TERMS");
  app.add_option(
         "-H,--header", raw.headers,
         "Extra request header 'Name: value' (repeatable; not Host, Content-Length or other "
         "framing headers)")
      ->type_name("HEADER")
      ->allow_extra_args(false);
  app.add_option("--header-env", raw.header_envs,
                 "Header whose value is read from an environment variable: 'Name=VAR' "
                 "(repeatable; never printed or saved)")
      ->type_name("NAME=VAR")
      ->allow_extra_args(false);
  app.add_option("--ca-file", raw.ca_file,
                 "PEM CA certificates to trust besides the system's (https; verification is "
                 "always on)")
      ->type_name("FILE");
  app.add_option("-o,--output", raw.output, "Write the result JSON to FILE (atomically)")
      ->type_name("FILE");
  app.add_option("--requests-jsonl", raw.requests_jsonl,
                 "Write one JSON line per request to FILE (times, latencies, errors, tokens)")
      ->type_name("FILE");
  app.add_option("--format", raw.format, "Standard output: text (summary) or json (the result)")
      ->type_name("FORMAT")
      ->capture_default_str();
  app.add_flag("-q,--quiet", raw.quiet, "No progress line and no notes on stderr");
}

tl::unexpected<UsageError> usage(std::string message) {
  return tl::unexpected(UsageError{std::move(message)});
}

tl::expected<std::string, UsageError> read_whole_file(const std::string& path,
                                                      std::string_view option) {
  auto text = read_bounded_file(path, k_config_file_limit, "request body template");
  if (!text) {
    return usage(
        fmt::format("{} '{}': cannot read: {}", option, printable(path), text.error().message));
  }
  return std::move(*text);
}

bool is_header_name(std::string_view name) {
  if (name.empty()) {
    return false;
  }
  for (char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte >= 0x7f || std::strchr("()<>@,;:\\\"/[]?={}", c) != nullptr) {
      return false;
    }
  }
  return true;
}

bool is_header_value(std::string_view value) {
  for (char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\t') || byte == 0x7f) {
      return false;
    }
  }
  return true;
}

std::string trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

tl::expected<double, std::string> parse_number(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return tl::unexpected("'" + printable(text) + "' is not a number");
  }
  return value;
}

tl::expected<std::vector<double>, UsageError> parse_sweep(std::string_view text, bool rates) {
  std::vector<double> levels;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    auto value = parse_number(item);
    const double most = rates ? k_max_rate : static_cast<double>(k_max_concurrency);
    if (!value || *value <= 0 || *value > most || (!rates && std::floor(*value) != *value)) {
      return usage(fmt::format("--sweep '{}': level {} ('{}') must be a positive {}",
                               printable(text), levels.size() + 1, printable(item),
                               rates ? fmt::format("rate of at most {:g}", k_max_rate)
                                     : fmt::format("whole number of requests in flight, at "
                                                   "most {}",
                                                   k_max_concurrency)));
    }
    if (!levels.empty() && *value <= levels.back()) {
      return usage(fmt::format("--sweep '{}': levels must increase ('{}' after {:g})",
                               printable(text), printable(item), levels.back()));
    }
    levels.push_back(*value);
    start = comma + 1;
  }
  return levels;
}

// Headers that frame the request (where it goes, how long the body is, how the connection is
// kept): the client writes them itself, so a second copy from the command line would make a
// request whose two framings disagree (request smuggling, a body cut short).
bool is_framing_header(std::string_view name) {
  const std::string lower = to_lower_ascii(name);
  return lower == "host" || lower == "content-length" || lower == "transfer-encoding" ||
         lower == "connection" || lower == "keep-alive" || lower == "upgrade" || lower == "te" ||
         lower == "trailer" || lower == "proxy-connection";
}

tl::expected<void, UsageError> refuse_framing(std::string_view option, std::string_view name) {
  if (is_framing_header(name)) {
    return usage(
        fmt::format("{} '{}': gpuport writes the request's framing headers itself "
                    "(Host, Content-Length, Transfer-Encoding, Connection); leave it out",
                    option, name));
  }
  return {};
}

tl::expected<void, UsageError> add_headers(const RawBenchArgs& raw, BenchRunConfig& config,
                                           const char* (*getenv)(const char*)) {
  std::vector<std::string> from_environment;
  for (const std::string& header : raw.headers) {
    const std::size_t colon = header.find(':');
    const std::string name = colon == std::string::npos ? "" : trimmed(header.substr(0, colon));
    if (colon == std::string::npos || !is_header_name(name)) {
      return usage(fmt::format("--header '{}': expected 'Name: value'", printable(header)));
    }
    if (auto framing = refuse_framing("--header", name); !framing) {
      return framing;
    }
    const std::string value = trimmed(std::string_view(header).substr(colon + 1));
    if (!is_header_value(value)) {
      return usage(fmt::format("--header '{}': control characters in the value", name));
    }
    config.headers.emplace_back(name, value);
  }
  for (const std::string& spec : raw.header_envs) {
    const std::size_t equals = spec.find('=');
    const std::string name = equals == std::string::npos ? "" : trimmed(spec.substr(0, equals));
    const std::string variable =
        equals == std::string::npos ? "" : trimmed(spec.substr(equals + 1));
    if (!is_header_name(name) || variable.empty()) {
      return usage(
          fmt::format("--header-env '{}': expected 'Name=ENVIRONMENT_VARIABLE'", printable(spec)));
    }
    if (auto framing = refuse_framing("--header-env", name); !framing) {
      return framing;
    }
    const char* value = getenv(variable.c_str());
    if (value == nullptr) {
      return usage(fmt::format("--header-env '{}': environment variable {} is not set",
                               printable(spec), printable(variable)));
    }
    // The value is a secret: the message names the variable, never the value.
    if (!is_header_value(value)) {
      return usage(fmt::format("--header-env '{}': the value of {} has control characters",
                               printable(spec), printable(variable)));
    }
    config.headers.emplace_back(name, trimmed(value));
    from_environment.push_back(name);
  }
  config.load.secrets = secrets_of(config.headers, from_environment);
  return {};
}

tl::expected<void, UsageError> set_bounds(const RawBenchArgs& raw, BenchRunConfig& config) {
  LoadOptions& load = config.load;
  if (raw.requests < 0) {
    return usage("--requests must be at least 1");
  }
  load.requests = static_cast<std::uint64_t>(raw.requests);
  if (!raw.duration.empty()) {
    auto duration = parse_bench_duration_ns(raw.duration);
    if (!duration || *duration <= 0) {
      return usage(fmt::format("--duration '{}': {}", printable(raw.duration),
                               duration ? "must be above 0" : duration.error()));
    }
    load.duration_ns = *duration;
  } else if (load.requests == 0) {
    load.duration_ns = 60'000'000'000;
  }
  if (!raw.warmup.empty()) {
    const bool count = raw.warmup.find_first_not_of("0123456789") == std::string::npos;
    if (count) {
      load.warmup_requests = std::strtoull(raw.warmup.c_str(), nullptr, 10);
    } else {
      auto warmup = parse_bench_duration_ns(raw.warmup);
      if (!warmup) {
        return usage(fmt::format("--warmup '{}': {} (or a request count such as 20)",
                                 printable(raw.warmup), warmup.error()));
      }
      load.warmup_ns = *warmup;
    }
  }
  auto timeout = parse_bench_duration_ns(raw.timeout);
  if (!timeout || *timeout <= 0) {
    return usage(fmt::format("--timeout '{}': {}", printable(raw.timeout),
                             timeout ? "must be above 0" : timeout.error()));
  }
  load.timeout_ns = *timeout;
  auto connect_timeout = parse_bench_duration_ns(raw.connect_timeout);
  if (!connect_timeout || *connect_timeout <= 0) {
    return usage(fmt::format("--connect-timeout '{}': {}", printable(raw.connect_timeout),
                             connect_timeout ? "must be above 0" : connect_timeout.error()));
  }
  config.connect_timeout_ns = *connect_timeout;
  config.result_config.duration_s = static_cast<double>(load.duration_ns) / 1e9;
  config.result_config.requests = static_cast<std::int64_t>(load.requests);
  config.result_config.warmup_s = static_cast<double>(load.warmup_ns) / 1e9;
  return {};
}

tl::expected<void, UsageError> set_load(const RawBenchArgs& raw, BenchRunConfig& config) {
  LoadOptions& load = config.load;
  const bool rate_sweep = raw.sweep.starts_with("rate=");
  std::string_view sweep_list = raw.sweep;
  if (rate_sweep) {
    sweep_list.remove_prefix(5);
  } else if (sweep_list.starts_with("concurrency=")) {
    sweep_list.remove_prefix(12);
  }
  if (!raw.sweep.empty() && !rate_sweep && raw.rate >= 0) {
    return usage("--sweep lists concurrencies; to sweep rates write --sweep rate=5,10,20");
  }
  if (raw.rate >= 0 || rate_sweep) {
    if (!rate_sweep && !(raw.rate > 0 && raw.rate <= k_max_rate)) {
      return usage(fmt::format("--rate {:g}: must be above 0 and at most {:g} requests/s", raw.rate,
                               k_max_rate));
    }
    load.mode = LoadMode::rate;
    load.rate = raw.rate;
    if (raw.concurrency == 0 || raw.concurrency < -1) {
      return usage("--concurrency must be at least 1");
    }
    load.concurrency = raw.concurrency < 0 ? 0 : raw.concurrency;
  } else {
    if (raw.concurrency == 0 || raw.concurrency < -1) {
      return usage("--concurrency must be at least 1");
    }
    load.mode = LoadMode::concurrency;
    load.concurrency = raw.concurrency < 0 ? 1 : raw.concurrency;
  }
  if (raw.arrival == "poisson") {
    load.arrival = Arrival::poisson;
  } else if (raw.arrival == "gamma") {
    load.arrival = Arrival::gamma;
  } else if (raw.arrival == "constant") {
    load.arrival = Arrival::constant;
  } else {
    return usage(fmt::format("invalid --arrival '{}' (valid: poisson, gamma, constant)",
                             printable(raw.arrival)));
  }
  if (!(raw.burstiness > 0 && raw.burstiness <= k_max_burstiness)) {
    return usage(fmt::format("--burstiness must be above 0 and at most {:g}", k_max_burstiness));
  }
  if (raw.concurrency > k_max_concurrency) {
    return usage(fmt::format("--concurrency must be at most {}", k_max_concurrency));
  }
  load.burstiness = raw.arrival == "gamma" ? raw.burstiness : 1.0;
  load.seed = raw.seed;
  if (!raw.sweep.empty()) {
    auto levels = parse_sweep(sweep_list, load.mode == LoadMode::rate);
    if (!levels) {
      return tl::unexpected(levels.error());
    }
    config.sweep_levels = std::move(*levels);
    if (load.mode == LoadMode::rate) {
      load.rate = config.sweep_levels.front();
    } else {
      load.concurrency = static_cast<std::int64_t>(config.sweep_levels.front());
    }
  }
  BenchConfig& result = config.result_config;
  result.mode = load.mode;
  result.concurrency = load.concurrency;
  result.rate = load.rate;
  result.arrival = load.arrival;
  result.burstiness = load.burstiness;
  result.seed = load.seed;
  return {};
}

tl::expected<void, UsageError> set_requests(const RawBenchArgs& raw, BenchRunConfig& config) {
  BenchConfig& result = config.result_config;
  if (raw.api == "completions") {
    result.api = ApiKind::completions;
  } else if (raw.api == "chat") {
    result.api = ApiKind::chat;
  } else if (raw.api == "generic") {
    result.api = ApiKind::generic;
  } else {
    return usage(
        fmt::format("invalid --api '{}' (valid: completions, chat, generic)", printable(raw.api)));
  }
  // A prompt is built in memory: a length no model takes would only exhaust it.
  if (raw.input_tokens < 1 || raw.input_tokens > k_max_tokens) {
    return usage(fmt::format("--input-tokens must be from 1 to {}", k_max_tokens));
  }
  if (raw.output_tokens < 1 || raw.output_tokens > k_max_tokens) {
    return usage(fmt::format("--output-tokens must be from 1 to {}", k_max_tokens));
  }
  if (result.api == ApiKind::generic) {
    if (raw.body_template.empty()) {
      return usage("--api generic needs --body-template FILE (a JSON body with {prompt})");
    }
    auto text = read_whole_file(raw.body_template, "--body-template");
    if (!text) {
      return tl::unexpected(text.error());
    }
    config.body_template = std::move(*text);
  } else if (!raw.body_template.empty()) {
    return usage("--body-template is for --api generic");
  }
  if (!raw.dataset.empty()) {
    auto dataset = load_prompt_dataset(raw.dataset);
    if (!dataset) {
      return usage(printable(dataset.error()));
    }
    if (dataset->empty()) {
      return usage(fmt::format("--dataset '{}': no prompts in the file", printable(raw.dataset)));
    }
    config.dataset = std::move(*dataset);
    result.dataset = raw.dataset;
  } else {
    result.input_tokens = raw.input_tokens;
  }
  result.output_tokens = raw.output_tokens;
  result.model = raw.model;
  result.stream = !raw.no_stream;
  config.ignore_eos = raw.ignore_eos;
  config.load.api = result.api;
  config.load.stream = result.stream;
  return {};
}

tl::expected<BenchRunConfig, UsageError> validate(const RawBenchArgs& raw,
                                                  const char* (*getenv)(const char*)) {
  BenchRunConfig config;
  if (raw.url.empty()) {
    return usage("give the server's URL: gpuport bench http://host:8000 --model M");
  }
  auto url = parse_url(raw.url);
  if (!url) {
    return usage(printable(url.error()));
  }
  config.url = std::move(*url);
  if (auto done = set_requests(raw, config); !done) {
    return tl::unexpected(done.error());
  }
  if (!raw.path.empty()) {
    if (raw.path.front() != '/') {
      return usage(fmt::format("--path '{}': must start with '/'", printable(raw.path)));
    }
    config.url.path = raw.path;
  } else if (config.url.path == "/") {
    config.url.path = std::string(default_path(config.result_config.api));
  }
  if (config.url.path.find_first_of(" \r\n\t") != std::string::npos) {
    return usage(fmt::format("--path '{}': spaces and line breaks are not allowed",
                             printable(config.url.path)));
  }
  config.result_config.url = config.url.redacted();
  if (auto done = set_load(raw, config); !done) {
    return tl::unexpected(done.error());
  }
  if (auto done = set_bounds(raw, config); !done) {
    return tl::unexpected(done.error());
  }
  if (!raw.slo.empty()) {
    auto slo = parse_slo(raw.slo);
    if (!slo) {
      return usage("--slo: " + printable(slo.error()));
    }
    config.slo = std::move(*slo);
    config.result_config.slo = config.slo.to_string();
  }
  if (auto done = add_headers(raw, config, getenv); !done) {
    return tl::unexpected(done.error());
  }
  if (!raw.ca_file.empty() && !config.url.tls) {
    return usage("--ca-file is for https:// URLs");
  }
  config.ca_file = raw.ca_file;
  if (raw.format == "text") {
    config.format = BenchFormat::Text;
  } else if (raw.format == "json") {
    config.format = BenchFormat::Json;
  } else {
    return usage(fmt::format("invalid --format '{}' (valid: text, json)", printable(raw.format)));
  }
  config.output = raw.output;
  config.requests_jsonl = raw.requests_jsonl;
  config.quiet = raw.quiet;
  return config;
}

}  // namespace

tl::expected<std::int64_t, std::string> parse_bench_duration_ns(std::string_view text) {
  std::size_t unit_start = 0;
  while (unit_start < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[unit_start])) || text[unit_start] == '.')) {
    ++unit_start;
  }
  const std::string_view unit = text.substr(unit_start);
  auto value = parse_number(text.substr(0, unit_start));
  if (unit_start == 0 || !value) {
    return tl::unexpected(std::string("expected a duration such as 500ms, 30s, 2m or 1h"));
  }
  double scale = 0;
  if (unit.empty() || unit == "s") {
    scale = 1e9;
  } else if (unit == "ms") {
    scale = 1e6;
  } else if (unit == "us") {
    scale = 1e3;
  } else if (unit == "m" || unit == "min") {
    scale = 60e9;
  } else if (unit == "h") {
    scale = 3600e9;
  } else {
    return tl::unexpected("unknown unit '" + printable(unit) + "' (use ms, s, m or h)");
  }
  const double ns = *value * scale;
  if (ns > 1e18) {
    return tl::unexpected(std::string("too long"));
  }
  return static_cast<std::int64_t>(std::llround(ns));
}

tl::expected<BenchRunConfig, UsageError> parse_bench_args(const CommandArgs& args,
                                                          std::string* help,
                                                          const char* (*getenv)(const char*)) {
  CLI::App app("", "gpuport bench");
  RawBenchArgs raw;
  define_flags(app, raw);
  if (auto parsed = parse_command_line(app, args, help); !parsed) {
    return tl::unexpected(parsed.error());
  }
  return validate(
      raw, getenv != nullptr ? getenv : [](const char* name) -> const char* {
        return std::getenv(name);
      });
}

std::string bench_help() {
  CLI::App app("", "gpuport bench");
  RawBenchArgs raw;
  define_flags(app, raw);
  return app.help();
}

}  // namespace gpuport
