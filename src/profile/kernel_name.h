// The forms of a kernel name: what the profiler wrote, what a person reads, and the key that
// makes nsys, Kineto and rocprof spellings of the same kernel compare equal.
#pragma once

#include <string>
#include <string_view>

namespace gpuport {

struct KernelName {
  std::string raw;         // exactly as recorded (shown with --raw-names and in JSON)
  std::string display;     // demangled if it was mangled, `void `, `[clone .kd]`, `.kd` and
                           // SFINAE return types removed
  std::string normalized;  // display in one canonical spelling (`<unnamed>` and `(anonymous
                           // namespace)`, `(int)4` and `4`, `char *` and `char*`, lambda forms...)
  std::string qualified;   // namespaces and the function name, no template arguments or
                           // parameters: "at::native::vectorized_elementwise_kernel"
  std::string base;        // the function name alone: "vectorized_elementwise_kernel"
};

KernelName parse_kernel_name(std::string_view raw);

}  // namespace gpuport
