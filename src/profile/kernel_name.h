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
                           // without parameter lists (nsys writes them as `(int, T2, T3)`);
                           // profiles of one workload from different tools join on it
  std::string qualified;   // namespaces and the function name, no template arguments or
                           // parameters: "at::native::vectorized_elementwise_kernel"
  std::string base;        // the function name alone: "vectorized_elementwise_kernel"
};

// Never fails: a name that is not C++ (`Memcpy HtoD (Host -> Device)`, arbitrary bytes) keeps
// its text in every form (spaces collapsed in `normalized`). A mangled name the demangler rejects
// keeps its mangled text, with `qualified` and `base` read from its leading nested name. Linear in
// the length of the name (plus the demangler's time on `_Z…` names up to 32 KiB).
KernelName parse_kernel_name(std::string_view raw);

// The first template argument of the kernel function itself, as `display` spells it
// (`flash::FlashAttnBwd<…>` for `cutlass::device_kernel<flash::FlashAttnBwd<…>>(…)`); empty when
// the function has no template arguments.
std::string_view first_template_argument(const KernelName& name);

}  // namespace gpuport
