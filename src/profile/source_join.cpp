// Placeholder until the scan join lands: matches nothing, reads nothing.
#include "profile/source_join.h"

namespace gpuport {

SourceIndex::SourceIndex(std::vector<SourceKernel> kernels) : m_kernels(std::move(kernels)) {}

SourceMatch SourceIndex::find(const KernelName&) const {
  return {};
}

tl::expected<std::vector<SourceKernel>, TraceError> load_scan_kernels(const std::string& path) {
  return tl::unexpected(TraceError{path + ": reading scan JSON is not implemented yet"});
}

}  // namespace gpuport
