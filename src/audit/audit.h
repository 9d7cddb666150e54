// run_audit(): the scan, a dry-run of the translation, each trace's profile joined to the scan,
// then the effort, cost and verdict models, into one AuditResult. Writes nothing, prints nothing.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

#include "audit/audit_result.h"
#include "audit/config.h"
#include "source/file_system.h"

namespace gpuport {

enum class AuditStage : std::uint8_t { Config, Scan, Translate, Trace, Estimate };
std::string_view audit_stage_name(AuditStage stage);  // "reading the config", "scanning", ...

struct AuditInputs {
  std::string repo;
  std::vector<std::string> traces;
  std::optional<std::string> config_path;  // a project's .gpuport.toml; none: the defaults
  unsigned jobs = 1;                       // worker threads for the scan and the translation
  // --exclude: gitignore-syntax globs the scan and the translation dry run leave out, after the
  // config's [scan] exclude ones (so a "!glob" here re-includes what the config left out).
  std::vector<std::string> excludes;
  // --max-filesize: larger files are not read (and make the verdict incomplete when they are
  // product files); none: the walker's default.
  std::optional<std::uint64_t> max_file_size;
  // `gpuport bench` results whose throughput at the SLO replaces the config's throughput_rps.
  std::optional<std::string> bench_nvidia;
  std::optional<std::string> bench_amd;
  // Called as each stage starts (`detail` names the trace for AuditStage::Trace); may be empty.
  std::function<void(AuditStage stage, std::string_view detail)> progress;
};

// One line, printed as is (exit status 2): "repo: cannot read: No such file or directory",
// "trace.json: byte 12: ...", ".gpuport.toml:7: unknown key 'x'".
struct AuditError {
  std::string message;
};

// Loads inputs.config_path (or the defaults) and runs the audit.
tl::expected<AuditResult, AuditError> run_audit(const AuditInputs& inputs);

// With a config already loaded, on any file system (tests use an in-memory one for the repo;
// traces are read from disk).
tl::expected<AuditResult, AuditError> run_audit(const AuditInputs& inputs,
                                                const AuditConfig& config, const FileSystem& fs);

}  // namespace gpuport
