// `gpuport bench --serve-mock`: runs the mock OpenAI-compatible server (bench/mock_server.h) on
// the command line, for calibrating gpuport bench and for scripts (bench/bench_vs_wrk.sh).
#pragma once

#include <cstdint>
#include <string>

#include <tl/expected.hpp>

#include "bench/mock_options.h"
#include "cli/command_table.h"
#include "cli/scan_command.h"

namespace gpuport {

struct ServeMockConfig {
  MockServerOptions server;
  std::int64_t duration_ns = 0;  // 0: until SIGINT or SIGTERM
};

// `args` are the words after `gpuport bench`; "--serve-mock" among them is accepted.
tl::expected<ServeMockConfig, UsageError> parse_serve_mock_args(const CommandArgs& args,
                                                                std::string* help);
std::string serve_mock_help();

// Serves until --duration ends or SIGINT/SIGTERM. Prints "gpuport mock: listening on
// http://HOST:PORT ..." (stdout, flushed, so a script can read the port of --port 0) and a
// one-line summary at the end (stderr). 0 on a clean stop, 2 on bad usage or a failed bind.
int run_serve_mock(const CommandArgs& args);
// The same, for a caller holding argc/argv: argv[0] (the program or "bench") is skipped.
int run_serve_mock(int argc, char** argv);

}  // namespace gpuport
