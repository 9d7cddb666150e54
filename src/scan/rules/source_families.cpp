// The one list of C/C++/CUDA source rule families. Adding a family is one line here.
#include <array>

#include "scan/rules/source_family.h"

namespace gpuport::source_rules {

std::span<const SourceFamily* const> source_families() {
  // The order is the order of the end-of-file rules (finish): it decides the order in which a
  // file's per-file findings are appended, before the scanner sorts them. BACKEND is last: its
  // finish drops everything the CUDA families found in another backend's file.
  static const std::array<const SourceFamily*, 8> k_families = {
      &warp_family(),      &asm_family(),    &matrix_family(), &library_family(),
      &execution_family(), &memory_family(), &device_family(), &backend_family(),
  };
  return k_families;
}

}  // namespace gpuport::source_rules
