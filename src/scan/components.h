// Builds the portability table: findings and kernels grouped by the component they belong to.
#pragma once

#include <vector>

#include "scan/scan_result.h"

namespace gpuport {

inline constexpr std::string_view k_custom_kernels_component = "Custom CUDA kernels";

// Reads result.findings and result.kernels; returns rows sorted by layer (highest first), then
// by effort, then by name.
std::vector<Component> build_components(const ScanResult& result);

}  // namespace gpuport
