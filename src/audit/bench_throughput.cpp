// Reading a bench result for the audit's cost model. The cost per request is only meaningful at
// the latency the service promises, so the preferred number is the result's throughput_at_slo
// (the highest load at which every SLO term held); a run without any SLO is used with a note
// that says what it is, and a run whose SLO was missed at every load is refused rather than
// priced at a latency nobody would accept.
#include "audit/bench_throughput.h"
#include "source/bounded_read.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "bench/result_json.h"

namespace gpuport {

namespace {

std::string load_text(const BenchConfig& c) {
  return c.mode == LoadMode::rate ? fmt::format("rate {} req/s", c.rate)
                                  : fmt::format("concurrency {}", c.concurrency);
}

std::string rps_text(double rps) {
  return fmt::format("{:.2f} req/s", rps);
}

}  // namespace

tl::expected<BenchThroughput, std::string> read_bench_throughput(const std::string& path) {
  auto text = read_bounded_file(path, k_result_file_limit, "gpuport bench result");
  if (!text) {
    return tl::unexpected(path + ": cannot read: " + text.error().message);
  }
  auto result = bench_result_from_json(*text, path);
  if (!result) {
    return tl::unexpected(result.error());
  }
  BenchThroughput bench;
  ThroughputSource& source = bench.source;
  source.file = path;
  source.slo = result->config.slo;
  source.model = result->config.model;
  if (result->throughput_at_slo) {
    bench.throughput_rps = *result->throughput_at_slo;
    source.slo_qualified = true;
    // The load of the level that gave the throughput, not the sweep's last one.
    BenchConfig at_load = result->config;
    if (result->load_at_slo) {
      if (at_load.mode == LoadMode::rate) {
        at_load.rate = *result->load_at_slo;
      } else {
        at_load.concurrency = static_cast<std::int64_t>(*result->load_at_slo);
      }
    }
    source.load = load_text(at_load);
  } else if (!result->config.slo.empty()) {
    return tl::unexpected(fmt::format(
        "{}: no load met its SLO {}, so it has no throughput at the SLO (rerun gpuport bench at "
        "a lower load, or with --sweep)",
        path, result->config.slo));
  } else {
    bench.throughput_rps = result->measurement.request_throughput;
    source.load = load_text(result->config);
  }
  if (!(bench.throughput_rps > 0)) {
    return tl::unexpected(path + ": no request completed, so it has no throughput");
  }
  if (source.slo_qualified) {
    source.note = fmt::format(
        "{} from the bench result {}: the highest throughput that met the SLO {} (at {}, model "
        "'{}').",
        rps_text(bench.throughput_rps), path, source.slo, source.load, source.model);
  } else {
    source.note = fmt::format(
        "{} from the bench result {} is its request throughput at {} (model '{}'), measured "
        "without an SLO: not a throughput at your latency target. Rerun gpuport bench with --slo "
        "(and --sweep) for one.",
        rps_text(bench.throughput_rps), path, source.load, source.model);
  }
  return bench;
}

void use_bench_throughput(PlatformConfig& platform, const BenchThroughput& bench) {
  platform.throughput_rps = bench.throughput_rps;
  platform.throughput_assumed = false;
  platform.throughput_source = bench.source;
}

}  // namespace gpuport
