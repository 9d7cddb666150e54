// `hipify --verify`: compiles each translated translation unit with hipcc -fsyntax-only for an
// AMD target and sorts the outcome into pass / fail / an environment problem.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hipify/mapping.h"
#include "scan/scanner.h"
#include "source/file_system.h"

namespace gpuport {

enum class VerifyStatus : std::uint8_t {
  Pass,
  Fail,            // the translated code does not compile: `detail` is the first error line
  MissingHeader,   // a header is not installed (hipblas.h, ...): `detail` is its name
  MissingHipcc,    // no hipcc to run
  ToolchainError,  // hipcc failed without pointing at the source (unknown target, no device libs)
  Timeout,
  Skipped,  // a header, or a source the translation left unchanged: `detail` says which
};
std::string_view verify_status_name(VerifyStatus status);  // "pass", "fail", "missing-header", ...

struct VerifyOptions {
  std::string hipcc = "hipcc";          // a path, or a name looked up in PATH
  std::string offload_arch = "gfx90a";  // --offload-arch
  std::vector<std::string> extra_args;  // -I/-D/... from --hipcc-arg
  unsigned jobs = 1;                    // compiles at a time
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};  // per file
};

struct VerifyInput {
  std::string file;       // as reported (the translated file's path as the user sees it)
  std::string disk_path;  // what hipcc compiles
  bool changed = false;   // the translation changed it
};

struct VerifyResult {
  std::string file;
  VerifyStatus status = VerifyStatus::Skipped;
  std::string detail;
};

// What hipcc's output says about one compile. `exit_code` 0 is a pass whatever was printed.
struct CompileOutcome {
  VerifyStatus status = VerifyStatus::Pass;
  std::string detail;
};
CompileOutcome classify_compile_output(int exit_code, std::string_view output);

// The argv of one check: hipcc --offload-arch=A -fsyntax-only -x hip|c [extra] FILE.
std::vector<std::string> verify_command(const VerifyOptions& options, const std::string& path);

// The ROCm release `hipcc --version` names ("HIP version: 5.2.21153-0" -> 502); nullopt when
// the output has no such line.
std::optional<RocmRelease> hip_release_of_version_output(std::string_view output);

// The release --verify translates for when --rocm is not given: hipcc's, brought within the
// releases the tables cover; the newest when hipcc names none.
struct RocmTarget {
  RocmRelease release = 0;
  std::optional<RocmRelease> reported;  // what `hipcc --version` says
};
RocmTarget rocm_target_of_hipcc(const std::string& hipcc);

// One result per input, in input order. Sources (.cu .hip .cpp .cc .cxx .c) are compiled, up to
// options.jobs at a time; an unchanged source without CUDA in its name (.cpp, .c, ...) is
// skipped. Headers are skipped: "compiled through <source>" when a compiled source includes a
// file of that name, else "not included by any translated source".
// `progress`, when given, counts the files compiled and their bytes.
std::vector<VerifyResult> verify_sources(const FileSystem& fs, std::span<const VerifyInput> inputs,
                                         const VerifyOptions& options,
                                         ScanProgress* progress = nullptr);

}  // namespace gpuport
