// Joining trace kernels to the kernel definitions `gpuport scan` found, so the profile says which
// source kernel a hot kernel is (`src/kernels/rmsnorm.cu:42`).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "profile/kernel_name.h"
#include "profile/trace.h"

namespace gpuport {

struct SourceKernel {
  std::string name;  // as the scan reports it (may be qualified)
  std::string file;  // relative to the scanned root
  std::uint32_t line = 0;
};

struct SourceMatch {
  const SourceKernel* kernel = nullptr;  // null when nothing matched; else the first candidate
  std::uint32_t candidates = 0;          // definitions with that name left after namespaces
                                         // broke ties (> 1: ambiguous)
};

class SourceIndex {
 public:
  SourceIndex() = default;
  explicit SourceIndex(std::vector<SourceKernel> kernels);
  // By base name; where several definitions share it, those whose namespaces agree with the
  // trace name's over the most levels (innermost first) win, when both sides have namespaces.
  SourceMatch find(const KernelName& name) const;
  bool empty() const { return m_kernels.empty(); }
  std::size_t size() const { return m_kernels.size(); }

 private:
  std::vector<SourceKernel> m_kernels;                // in file and line order
  std::multimap<std::string, std::size_t> m_by_base;  // base name -> index, in that order
};

// The `kernels` array of a `gpuport scan --format json` file (docs/json-schema.md). Errors are
// one line naming the file: "scan.json: byte 12: not valid JSON", "scan.json: not a gpuport scan
// JSON (no schema_version)", "scan.json: kernels[3]: \"line\" is missing or not a line number".
tl::expected<std::vector<SourceKernel>, TraceError> load_scan_kernels(const std::string& path);

}  // namespace gpuport
