// Placeholder until name normalisation lands: every form is the raw name.
#include "profile/kernel_name.h"

namespace gpuport {

KernelName parse_kernel_name(std::string_view raw) {
  KernelName name;
  name.raw = std::string(raw);
  name.display = name.raw;
  name.normalized = name.raw;
  name.qualified = name.raw;
  name.base = name.raw;
  return name;
}

}  // namespace gpuport
