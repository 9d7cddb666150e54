// The names of the AMD-path sign kinds, shared by the reports and the scan's fixtures.
#include "scan/scan_result.h"

namespace gpuport {

std::string_view amd_path_kind_name(AmdPathKind kind) {
  switch (kind) {
    case AmdPathKind::HipGuard:
      return "hip_guard";
    case AmdPathKind::VendorShimHeader:
      return "vendor_shim_header";
    case AmdPathKind::HipCMake:
      return "hip_cmake";
    case AmdPathKind::RocmImage:
      return "rocm_image";
    case AmdPathKind::RocmPackage:
      return "rocm_package";
    case AmdPathKind::AmdAsm:
      return "amd_asm";
    case AmdPathKind::HipInclude:
      return "hip_include";
    case AmdPathKind::ShimInclude:
      return "shim_include";
  }
  return "hip_guard";
}

}  // namespace gpuport
