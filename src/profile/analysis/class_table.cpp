#include "profile/analysis/class_table.h"

#include <algorithm>

namespace gpuport {

const ClassRow* ClassTable::find(KernelClass klass) const {
  for (const ClassRow& row : rows) {
    if (row.klass == klass) {
      return &row;
    }
  }
  return nullptr;
}

ClassTable build_class_table(const KernelTable& kernels) {
  constexpr std::size_t k_classes = static_cast<std::size_t>(KernelClass::Unknown) + 1;
  std::vector<ClassRow> by_class(k_classes);
  for (std::size_t i = 0; i < k_classes; ++i) {
    by_class[i].klass = static_cast<KernelClass>(i);
  }
  for (const KernelRow& kernel : kernels.rows) {
    ClassRow& row = by_class[static_cast<std::size_t>(kernel.classification.klass)];
    row.time_ns += kernel.total_ns;
    row.calls += kernel.calls;
    row.kernels += 1;
  }

  ClassTable table;
  table.gpu_ns = kernels.gpu_ns;
  table.communication_ns = by_class[static_cast<std::size_t>(KernelClass::Communication)].time_ns;
  table.compute_ns = table.gpu_ns - table.communication_ns;
  for (ClassRow& row : by_class) {
    if (row.kernels == 0) {
      continue;
    }
    const auto time = static_cast<double>(row.time_ns);
    row.share = table.gpu_ns > 0 ? time / static_cast<double>(table.gpu_ns) : 0.0;
    if (row.klass != KernelClass::Communication && table.compute_ns > 0) {
      row.compute_share = time / static_cast<double>(table.compute_ns);
    }
    table.rows.push_back(row);
  }
  std::stable_sort(table.rows.begin(), table.rows.end(),
                   [](const ClassRow& a, const ClassRow& b) { return a.time_ns > b.time_ns; });
  return table;
}

}  // namespace gpuport
