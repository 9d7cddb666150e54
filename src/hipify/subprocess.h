// Running a compiler as a child process: argv (no shell), merged stdout/stderr, a time limit.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <tl/expected.hpp>

namespace gpuport {

struct ProcessResult {
  int exit_code = -1;  // -1 when killed by a signal
  bool timed_out = false;
  std::string output;  // stdout and stderr interleaved, at most `max_output` bytes
};

enum class SpawnFailure : std::uint8_t { NotFound, NotExecutable, Other };

struct SpawnError {
  SpawnFailure failure = SpawnFailure::Other;
  std::string message;  // strerror text
};

struct ProcessLimits {
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  std::size_t max_output = 256 * 1024;  // the rest is read and discarded
};

// Runs argv[0] (looked up in PATH when it has no '/') with stdin from /dev/null, in its own
// process group so a timeout kills the compiler's children too. Safe to call from many threads.
tl::expected<ProcessResult, SpawnError> run_process(const std::vector<std::string>& argv,
                                                    const ProcessLimits& limits = {});

// The executable `name` resolves to: itself when it has a '/', else the first executable match
// in PATH; nullopt when there is none.
std::optional<std::string> find_executable(const std::string& name);

}  // namespace gpuport
