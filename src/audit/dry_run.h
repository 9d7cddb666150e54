// What the translation dry-run (gpuport hipify, nothing written) leaves for a person, reduced to
// what the effort model prices: unsupported APIs, uses to review, files changed, and the
// findings the translation fixes by itself.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "hipify/hipify_tree.h"
#include "scan/scan_result.h"

namespace gpuport {

struct ApiUse {
  std::string name;  // "cublasSetMathMode"
  std::string file;  // relative to the repo
  std::uint32_t line = 0;
  std::uint32_t uses = 0;
};

struct DryRunDigest {
  std::vector<ApiUse> unsupported;   // one per distinct name, at its first use, sorted by name
  std::vector<ApiUse> needs_review;  // one per use, in file order
  std::vector<std::string> changed_files;  // translated sources whose text changes
  std::uint64_t translatable_files = 0;
  // (rule, file, line) of the scan findings the translation resolves on its own.
  std::set<std::tuple<std::uint16_t, std::string, std::uint32_t>> resolved;
};

// `scan` is the audit's scan of the same tree: the findings the translation resolves on its own
// (resolved_by_translation) in the files it translates are read from it.
DryRunDigest digest_dry_run(const HipifyRun& run, const ScanResult& scan);

}  // namespace gpuport
