// `gpuport bench`: dispatch of the subcommands (compare, merge, --serve-mock), then a run:
// options -> client -> one level or a sweep -> result (text/JSON, -o, --requests-jsonl).
#include "cli/bench_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>

#include "bench/http_client.h"
#include "bench/metrics.h"
#include "bench/openai_protocol.h"
#include "bench/request_jsonl.h"
#include "bench/result_json.h"
#include "bench/summary_text.h"
#include "bench/sweep.h"
#include "cli/bench_files.h"
#include "cli/bench_options.h"
#include "cli/bench_serve_mock.h"
#include "cli/command_line.h"
#include "cli/command_output.h"
#include "cli/progress.h"
#include "report/text_util.h"
#include "source/atomic_write.h"
#include "version.h"

namespace gpuport {

namespace {

constexpr int k_exit_nothing_completed = 1;
constexpr int k_exit_interrupted = 130;
constexpr std::size_t k_jsonl_flush_bytes = 64 * 1024;

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// --requests-jsonl: lines buffered and written to a temporary file, renamed into place at the
// end (also after Ctrl-C), so readers never see half a file.
class JsonlWriter {
 public:
  static tl::expected<JsonlWriter, std::string> open(const std::string& path) {
    auto file = AtomicFile::create(path);
    if (!file) {
      return tl::unexpected(file.error().message);
    }
    return JsonlWriter(std::move(*file));
  }
  void add(const RequestRecord& record, double load) {
    buffer_ += request_jsonl_line(record, load);
    if (buffer_.size() >= k_jsonl_flush_bytes) {
      flush();
    }
  }
  tl::expected<void, std::string> commit() {
    flush();
    if (!error_.empty()) {
      return tl::unexpected(error_);
    }
    if (auto done = file_.commit(); !done) {
      return tl::unexpected(done.error().message);
    }
    return {};
  }

 private:
  explicit JsonlWriter(AtomicFile file) : file_(std::move(file)) {}
  void flush() {
    if (error_.empty() && !buffer_.empty()) {
      if (auto written = file_.write(buffer_); !written) {
        error_ = written.error().message;
      }
    }
    buffer_.clear();
  }
  AtomicFile file_;
  std::string buffer_;
  std::string error_;
};

// The progress line on stderr: "bench: 12.3s / 120s  1,234 done  2 failed  32 in flight".
class BenchProgress {
 public:
  explicit BenchProgress(bool show) : show_(show) {}
  ~BenchProgress() { clear(); }
  void level(std::string label) { label_ = std::move(label); }
  void draw(const ProgressSnapshot& s) {
    if (!show_) {
      return;
    }
    std::string text = "\r\x1b[Kbench";
    if (!label_.empty()) {
      text += " [" + label_ + "]";
    }
    text += fmt::format(": {:.1f}s", s.elapsed_s);
    if (s.planned_s > 0) {
      text += fmt::format(" / {:.0f}s", s.planned_s);
    }
    text += fmt::format("  {} sent", s.sent);
    if (s.planned_requests > 0) {
      text += fmt::format(" / {}", s.planned_requests);
    }
    text += fmt::format("  {} done  {} failed  {} in flight", s.completed, s.failed, s.in_flight);
    if (s.warming_up) {
      text += "  (warming up)";
    } else if (s.stopping) {
      text += "  (finishing)";
    }
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
    drawn_ = true;
  }
  void clear() {
    if (drawn_) {
      std::fputs("\r\x1b[K", stderr);
      std::fflush(stderr);
      drawn_ = false;
    }
  }

 private:
  bool show_;
  bool drawn_ = false;
  std::string label_;
};

PreparedRequest prepare_request(const BenchRunConfig& config, std::uint64_t index) {
  GenerationRequest request;
  request.kind = config.result_config.api;
  request.model = config.result_config.model;
  request.stream = config.result_config.stream;
  request.ignore_eos = config.ignore_eos;
  request.max_tokens = config.result_config.output_tokens;
  PreparedRequest prepared;
  if (config.dataset.empty()) {
    request.prompt = synthetic_prompt(config.result_config.input_tokens, index);
    prepared.prompt_tokens = config.result_config.input_tokens;
  } else {
    const DatasetPrompt& prompt = config.dataset[index % config.dataset.size()];
    request.prompt = prompt.prompt;
    if (prompt.output_tokens > 0) {
      request.max_tokens = prompt.output_tokens;
    }
    prepared.prompt_tokens = estimate_tokens(prompt.prompt.size());
  }
  prepared.body = build_request_body(request, config.body_template);
  return prepared;
}

int run_bench(const BenchRunConfig& config) {
  const std::uint64_t open_files = raise_open_file_limit();
  const auto needed = static_cast<std::uint64_t>(std::max<std::int64_t>(
      config.load.concurrency, config.sweep_levels.empty() || config.load.mode == LoadMode::rate
                                   ? 0
                                   : static_cast<std::int64_t>(config.sweep_levels.back())));
  if (!config.quiet && open_files > 0 && needed + 64 > open_files) {
    std::fprintf(stderr,
                 "gpuport: note: the open-file limit is %llu, below what %llu connections need "
                 "(raise it with 'ulimit -n')\n",
                 static_cast<unsigned long long>(open_files),
                 static_cast<unsigned long long>(needed));
  }
  HttpClientOptions options;
  options.url = config.url;
  options.headers = config.headers;
  options.ca_file = config.ca_file;
  options.connect_timeout_ns = config.connect_timeout_ns;
  auto client = HttpClient::create(options);
  if (!client) {
    std::fprintf(stderr, "gpuport: error: %s\n", printable(client.error()).c_str());
    return 2;
  }
  std::optional<JsonlWriter> jsonl;
  if (!config.requests_jsonl.empty()) {
    auto writer = JsonlWriter::open(config.requests_jsonl);
    if (!writer) {
      std::fprintf(stderr, "gpuport: error: --requests-jsonl: %s\n",
                   printable(writer.error()).c_str());
      return 2;
    }
    jsonl.emplace(std::move(*writer));
  }

  BenchProgress progress(decide_progress_display(config.quiet) == ProgressDisplay::On);
  double current_load = config.load.mode == LoadMode::concurrency
                            ? static_cast<double>(config.load.concurrency)
                            : config.load.rate;
  SweepCallbacks callbacks;
  callbacks.load.prepare = [&](std::uint64_t index) { return prepare_request(config, index); };
  if (jsonl) {
    callbacks.load.on_record = [&](const RequestRecord& record) {
      jsonl->add(record, current_load);
    };
  }
  callbacks.load.on_progress = [&](const ProgressSnapshot& snapshot) { progress.draw(snapshot); };

  BenchResult result;
  result.tool_version = k_version;
  result.date = utc_now_iso8601();
  result.config = config.result_config;
  if (config.sweep_levels.empty()) {
    LoadOutcome outcome = run_load(**client, config.load, config.slo, callbacks.load);
    result.measurement = std::move(outcome.measurement);
    result.interrupted = outcome.interrupted;
  } else {
    callbacks.on_level_start = [&](double load) {
      current_load = load;
      progress.level(describe_load(config.result_config, load));
    };
    SweepOutcome outcome =
        run_sweep(**client, config.load, config.sweep_levels, config.slo, callbacks);
    result.sweep = std::move(outcome.points);
    result.interrupted = outcome.interrupted;
  }
  progress.clear();
  apply_slo(result, config.slo);

  int status = 0;
  if (jsonl) {
    if (auto done = jsonl->commit(); !done) {
      std::fprintf(stderr, "gpuport: error: --requests-jsonl: %s\n",
                   printable(done.error()).c_str());
      status = 2;
    }
  }
  const std::string json = bench_result_to_json(result);
  if (!config.output.empty()) {
    if (auto written = write_file_atomically(config.output, json); !written) {
      std::fprintf(stderr, "gpuport: error: %s\n", printable(written.error().message).c_str());
      status = 2;
    }
  }
  std::string out = config.format == BenchFormat::Json ? json : render_bench_text(result);
  if (config.format == BenchFormat::Text && !config.output.empty() && status == 0) {
    out += "\nResult: " + config.output + "\n";
  }
  if (const int written = write_command_output(out, ""); written != 0 && status == 0) {
    status = written;
  }
  if (status != 0) {
    return status;
  }
  if (result.interrupted) {
    return k_exit_interrupted;
  }
  return result.measurement.completed == 0 ? k_exit_nothing_completed : 0;
}

}  // namespace

int run_bench_command(const CommandArgs& args) {
  if (!args.empty() && args.front() == "compare") {
    return run_bench_compare(CommandArgs(args.begin() + 1, args.end()));
  }
  if (!args.empty() && args.front() == "merge") {
    return run_bench_merge(CommandArgs(args.begin() + 1, args.end()));
  }
  if (std::find(args.begin(), args.end(), "--serve-mock") != args.end()) {
    return run_serve_mock(args);
  }
  std::string help;
  auto config = parse_bench_args(args, &help);
  if (const std::optional<int> status = usage_exit(config, help)) {
    return *status;
  }
  for (const std::string* path : {&config->output, &config->requests_jsonl}) {
    if (const std::optional<int> status = unwritable_output(*path)) {
      return *status;
    }
  }
  return run_bench(*config);
}

}  // namespace gpuport
