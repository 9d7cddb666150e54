// Placeholder until the classification rules land: everything is Unknown.
#include "profile/classify.h"

namespace gpuport {

LaunchApi launch_api_of(std::string_view) {
  return LaunchApi::Unknown;
}
std::string_view launch_api_name(LaunchApi) {
  return "unknown";
}
std::string_view class_name(KernelClass) {
  return "unknown";
}

Classification classify_kernel(const KernelName&, LaunchApi) {
  return {};
}

}  // namespace gpuport
