// `gpuport bench --serve-mock`: each flag defined once (with its help), validated into a
// ServeMockConfig, then the server runs until --duration or a signal.
#include "cli/bench_serve_mock.h"
#include "source/bounded_read.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/resource.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

#include "bench/mock_responses.h"
#include "bench/mock_server.h"
#include "cli/command_line.h"
#include "report/text_util.h"

namespace gpuport {

namespace {

constexpr std::string_view k_description =
    "Serve a mock OpenAI-compatible inference server: POST /v1/completions and\n"
    "/v1/chat/completions (streamed as SSE with the include_usage chunk and [DONE], or one JSON\n"
    "body), GET /v1/models, GET /health, and a fixed JSON answer to a POST on any other path\n"
    "(generic, after one TTFT). Latency follows the options below; tests and benchmarks of\n"
    "gpuport bench run against it. Details and formulas: docs/bench-mock.md.";

constexpr std::string_view k_footer =
    "Distributions (--ttft, --itl): 50ms | constant:50ms | normal:MEAN,STDDEV |\n"
    "  lognormal:MEAN,STDDEV (the mean and standard deviation of the samples). Units us, ms, s;\n"
    "  a bare number is ms. normal is cut at 0.\n"
    "Capacity: with --knee K every TTFT and ITL is multiplied by 1 + max(0, active - K) / K,\n"
    "  active = requests generating at that moment; with --max-batch B at most B generate at\n"
    "  once and the rest queue (FIFO) before their TTFT starts.\n"
    "Faults (--fault, repeatable, the first that fires wins): KIND:every=N or KIND:p=P,\n"
    "  KIND = close (connection closed mid-response), malformed (an SSE event that is not\n"
    "  JSON), 500, 429, hang (never answered). Requests are numbered from 1 over all\n"
    "  connections.\n"
    "\n"
    "Examples:\n"
    "  gpuport bench --serve-mock --port 8000 --ttft normal:200ms,30ms --itl 20ms\n"
    "  gpuport bench --serve-mock --port 0 --ttft 0 --itl 0     # trivial: answers at once\n"
    "  gpuport bench --serve-mock --knee 32 --max-batch 256 --stall-at 10s --stall-for 1s\n"
    "  gpuport bench --serve-mock --fault 500:every=50 --fault close:p=0.01 --seed 7\n"
    "\n"
    "Exit codes:\n"
    "  0  stopped by --duration, SIGINT or SIGTERM\n"
    "  2  bad usage, an unreadable --generic-response file, or the address cannot be bound";

struct RawServeMockArgs {
  bool serve_mock = false;
  std::string host = "127.0.0.1";
  int port = 8000;
  int threads = 1;
  std::string model = "mock-model";
  std::string ttft = "constant:20ms";
  std::string itl = "constant:10ms";
  std::int64_t output_tokens = 0;
  std::int64_t default_max_tokens = 16;
  std::int64_t tokens_per_chunk = 1;
  std::int64_t knee = 0;
  std::int64_t max_batch = 0;
  std::string stall_at = "0";
  std::string stall_for = "0";
  std::string stall_every = "0";
  std::vector<std::string> faults;
  std::string generic_response;
  std::uint64_t seed = 0;
  std::string duration = "0";
};

void define_flags(CLI::App& app, RawServeMockArgs& raw) {
  app.description(std::string(k_description));
  app.footer(std::string(k_footer));
  app.add_flag("--serve-mock", raw.serve_mock, "Serve the mock (this mode of gpuport bench)");
  app.add_option("--host", raw.host, "Address to listen on")
      ->type_name("ADDR")
      ->capture_default_str();
  app.add_option("--port", raw.port, "Port to listen on (0: any free port, printed at start)")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--threads", raw.threads, "Event loops (connections are spread over them)")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--model", raw.model, "Model name served by /v1/models and put in responses")
      ->type_name("NAME")
      ->capture_default_str();
  app.add_option("--ttft", raw.ttft, "Time to first token (also the generic POST's latency)")
      ->type_name("DIST")
      ->capture_default_str();
  app.add_option("--itl", raw.itl, "Gap between streamed chunks")
      ->type_name("DIST")
      ->capture_default_str();
  app.add_option("--output-tokens", raw.output_tokens,
                 "Tokens per response (0: the request's max_tokens)")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--default-max-tokens", raw.default_max_tokens,
                 "Tokens when the request has no max_tokens")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--tokens-per-chunk", raw.tokens_per_chunk,
                 "Tokens in each streamed chunk (as speculative decoding sends)")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--knee", raw.knee, "Active requests above which latency grows (0: never)")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--max-batch", raw.max_batch,
                 "Requests generating at once; more queue (0: no limit)")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--stall-at", raw.stall_at, "Start of a stall, from the server's start")
      ->type_name("TIME");
  app.add_option("--stall-for", raw.stall_for, "Length of the stall: no byte is written in it")
      ->type_name("TIME");
  app.add_option("--stall-every", raw.stall_every, "Repeat the stall with this period")
      ->type_name("TIME");
  app.add_option("--fault", raw.faults, "Inject a fault: KIND:every=N or KIND:p=P (repeatable)")
      ->type_name("FAULT");
  app.add_option("--generic-response", raw.generic_response,
                 "JSON file answered to a POST on any other path")
      ->type_name("FILE");
  app.add_option("--seed", raw.seed, "Seed of the latency draws and fault probabilities")
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--duration", raw.duration, "Stop after this long (0: at SIGINT or SIGTERM)")
      ->type_name("TIME");
}

tl::unexpected<UsageError> usage(std::string message) {
  return tl::unexpected(UsageError{printable(message)});
}

tl::expected<std::int64_t, UsageError> duration_flag(std::string_view flag,
                                                     const std::string& text) {
  auto ns = parse_mock_duration_ns(text);
  if (!ns) {
    return usage(fmt::format("{}: {}", flag, ns.error()));
  }
  return *ns;
}

tl::expected<std::string, UsageError> read_generic_response(const std::string& path) {
  auto text = read_bounded_file(path, k_result_file_limit, "response body");
  if (!text) {
    return usage(
        fmt::format("--generic-response: cannot read '{}': {}", path, text.error().message));
  }
  std::string body = std::move(*text);
  try {
    [[maybe_unused]] const auto parsed = nlohmann::json::parse(body);
  } catch (const nlohmann::json::parse_error& error) {
    // error.byte is 1-based; name the line and column it falls on.
    const std::size_t offset =
        std::min<std::size_t>(error.byte == 0 ? 0 : error.byte - 1, body.size());
    const std::size_t line_start = body.rfind('\n', offset == 0 ? 0 : offset - 1);
    const std::size_t line =
        1 + static_cast<std::size_t>(std::count(body.begin(), body.begin() + offset, '\n'));
    const std::size_t column =
        line_start == std::string::npos || offset == 0 ? offset + 1 : offset - line_start;
    return usage(fmt::format("{}:{}:{}: not valid JSON", path, line, column));
  } catch (const nlohmann::json::exception& error) {
    // Valid syntax the library cannot hold, e.g. a number beyond a double's range.
    const std::string_view what = error.what();
    return usage(fmt::format("{}: {}", path, what.substr(what.find("] ") + 2)));
  }
  while (!body.empty() && (body.back() == '\n' || body.back() == '\r')) {
    body.pop_back();
  }
  return body;
}

tl::expected<ServeMockConfig, UsageError> validate(const RawServeMockArgs& raw) {
  ServeMockConfig config;
  MockServerOptions& server = config.server;
  server.host = raw.host;
  if (raw.port < 0 || raw.port > 65535) {
    return usage(fmt::format("--port {}: use 0 to 65535", raw.port));
  }
  server.port = static_cast<std::uint16_t>(raw.port);
  if (raw.threads < 1 || raw.threads > 64) {
    return usage(fmt::format("--threads {}: use 1 to 64", raw.threads));
  }
  server.threads = raw.threads;
  server.model = raw.model;
  auto ttft = parse_latency_distribution(raw.ttft);
  if (!ttft) {
    return usage("--ttft: " + ttft.error());
  }
  server.ttft = *ttft;
  auto itl = parse_latency_distribution(raw.itl);
  if (!itl) {
    return usage("--itl: " + itl.error());
  }
  server.itl = *itl;
  if (raw.output_tokens < 0 || raw.output_tokens > k_mock_max_output_tokens) {
    return usage(fmt::format("--output-tokens {}: use 0 to {}", raw.output_tokens,
                             k_mock_max_output_tokens));
  }
  server.output_tokens = raw.output_tokens;
  if (raw.default_max_tokens < 1 || raw.default_max_tokens > k_mock_max_output_tokens) {
    return usage(fmt::format("--default-max-tokens {}: use 1 to {}", raw.default_max_tokens,
                             k_mock_max_output_tokens));
  }
  server.default_max_tokens = raw.default_max_tokens;
  if (raw.tokens_per_chunk < 1 || raw.tokens_per_chunk > 4096) {
    return usage(fmt::format("--tokens-per-chunk {}: use 1 to 4096", raw.tokens_per_chunk));
  }
  server.tokens_per_chunk = raw.tokens_per_chunk;
  if (raw.knee < 0) {
    return usage(fmt::format("--knee {}: must be 0 or more", raw.knee));
  }
  if (raw.max_batch < 0) {
    return usage(fmt::format("--max-batch {}: must be 0 or more", raw.max_batch));
  }
  server.capacity = CapacityModel{raw.knee, raw.max_batch};
  auto stall_at = duration_flag("--stall-at", raw.stall_at);
  auto stall_for = duration_flag("--stall-for", raw.stall_for);
  auto stall_every = duration_flag("--stall-every", raw.stall_every);
  for (const auto* parsed : {&stall_at, &stall_for, &stall_every}) {
    if (!*parsed) {
      return tl::unexpected(parsed->error());
    }
  }
  server.stall = StallWindow{*stall_at, *stall_for, *stall_every};
  if (server.stall.every_ns > 0 && server.stall.every_ns <= server.stall.duration_ns) {
    return usage(fmt::format("--stall-every {} must be longer than --stall-for {}", raw.stall_every,
                             raw.stall_for));
  }
  if (server.stall.duration_ns == 0 && (server.stall.at_ns > 0 || server.stall.every_ns > 0)) {
    return usage("--stall-at/--stall-every need --stall-for (the length of the stall)");
  }
  for (const std::string& text : raw.faults) {
    auto rule = parse_fault_rule(text);
    if (!rule) {
      return usage("--fault: " + rule.error());
    }
    server.faults.push_back(*rule);
  }
  if (!raw.generic_response.empty()) {
    auto body = read_generic_response(raw.generic_response);
    if (!body) {
      return tl::unexpected(body.error());
    }
    server.generic_response = *body;
  }
  server.seed = raw.seed;
  auto duration = duration_flag("--duration", raw.duration);
  if (!duration) {
    return tl::unexpected(duration.error());
  }
  config.duration_ns = *duration;
  return config;
}

// Many concurrent connections need as many descriptors: take the hard limit.
void raise_open_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

// Waits for SIGINT/SIGTERM (blocked in every thread, so only this wait sees them) or the end
// of `duration_ns`.
void wait_for_stop(const sigset_t& signals, std::int64_t duration_ns) {
  timespec deadline{};
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  const std::int64_t end_ns =
      static_cast<std::int64_t>(deadline.tv_sec) * 1'000'000'000 + deadline.tv_nsec + duration_ns;
  while (true) {
    timespec wait{1, 0};
    if (duration_ns > 0) {
      timespec now{};
      clock_gettime(CLOCK_MONOTONIC, &now);
      const std::int64_t left =
          end_ns - (static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec);
      if (left <= 0) {
        return;
      }
      if (left < 1'000'000'000) {
        wait = timespec{0, static_cast<long>(left)};
      }
    }
    if (sigtimedwait(&signals, nullptr, &wait) > 0) {
      return;
    }
  }
}

std::string summary(const MockServerStats& stats) {
  std::string faults;
  for (int i = 0; i < 5; ++i) {
    if (stats.faults[i] > 0) {
      faults += fmt::format(", {} {}", stats.faults[i], fault_kind_name(static_cast<FaultKind>(i)));
    }
  }
  return fmt::format(
      "gpuport mock: {} connections, {} requests, {} generation requests, {} completed{}, {} bad "
      "requests, at most {} generating at once",
      stats.connections, stats.requests, stats.generation_requests, stats.completed, faults,
      stats.bad_requests, stats.max_active);
}

}  // namespace

tl::expected<ServeMockConfig, UsageError> parse_serve_mock_args(const CommandArgs& args,
                                                                std::string* help) {
  CLI::App app("", "gpuport bench --serve-mock");
  RawServeMockArgs raw;
  define_flags(app, raw);
  if (auto parsed = parse_command_line(app, args, help); !parsed) {
    return tl::unexpected(parsed.error());
  }
  return validate(raw);
}

std::string serve_mock_help() {
  CLI::App app("", "gpuport bench --serve-mock");
  RawServeMockArgs raw;
  define_flags(app, raw);
  return app.help();
}

int run_serve_mock(const CommandArgs& args) {
  std::string help;
  auto config = parse_serve_mock_args(args, &help);
  if (const std::optional<int> status = usage_exit(config, help)) {
    return *status;
  }
  raise_open_file_limit();
  // Blocked before the server's threads start, so they inherit the mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigset_t previous;
  pthread_sigmask(SIG_BLOCK, &signals, &previous);
  MockServer server(config->server);
  auto port = server.start();
  if (!port) {
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    std::fprintf(stderr, "gpuport: error: %s\n", printable(port.error()).c_str());
    return 2;
  }
  const MockServerOptions& options = config->server;
  const bool ipv6 = options.host.find(':') != std::string::npos;
  std::printf("gpuport mock: listening on http://%s:%u (model %s, ttft %s, itl %s)\n",
              ipv6 ? ("[" + options.host + "]").c_str() : options.host.c_str(), *port,
              options.model.c_str(), options.ttft.to_string().c_str(),
              options.itl.to_string().c_str());
  std::fflush(stdout);
  wait_for_stop(signals, config->duration_ns);
  server.stop();
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  std::fprintf(stderr, "%s\n", summary(server.stats()).c_str());
  return 0;
}

int run_serve_mock(int argc, char** argv) {
  CommandArgs args;
  for (int i = 1; i < argc; ++i) {
    args.emplace_back(argv[i]);
  }
  return run_serve_mock(args);
}

}  // namespace gpuport
