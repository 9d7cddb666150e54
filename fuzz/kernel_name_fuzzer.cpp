// libFuzzer target: arbitrary bytes as a kernel name through parsing, classification (with every
// launch API) and the source join; aborts on a broken invariant. Hangs show up as timeouts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "profile/classify.h"
#include "profile/demangle.h"
#include "profile/kernel_name.h"
#include "profile/source_join.h"

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "invariant violated: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  const gpuport::KernelName name = gpuport::parse_kernel_name(raw);
  check(name.raw == raw, "raw is the input");
  check(name.qualified.size() >= name.base.size() &&
            name.qualified.compare(name.qualified.size() - name.base.size(), std::string::npos,
                                   name.base) == 0,
        "qualified ends with base");
  const std::string_view argument = gpuport::first_template_argument(name);
  check(argument.empty() || name.display.find(argument) != std::string::npos,
        "the first template argument is part of display");

  for (const gpuport::LaunchApi api :
       {gpuport::LaunchApi::Unknown, gpuport::LaunchApi::Runtime, gpuport::LaunchApi::RuntimeEx,
        gpuport::LaunchApi::Module, gpuport::LaunchApi::Graph}) {
    const gpuport::Classification c = gpuport::classify_kernel(name, api);
    check(static_cast<int>(c.klass) <= static_cast<int>(gpuport::KernelClass::Unknown),
          "class in range");
    const bool decided = !c.rule.empty();
    check(decided == (c.klass != gpuport::KernelClass::Unknown || c.rule == "launch.runtime"),
          "a rule decided every known class");
    check(c.klass != gpuport::KernelClass::Unknown || c.owner.empty(), "unknown has no owner");
  }
  gpuport::launch_api_of(raw);
  gpuport::demangle_symbol(raw);
  gpuport::mangled_qualified_name(raw);

  // The name as a definition of a scan, looked up by itself and by a plain name.
  const gpuport::SourceIndex index({{std::string(raw), "a.cu", 1}, {"k", "b.cu", 2}});
  const gpuport::SourceMatch match = index.find(name);
  check((match.kernel == nullptr) == (match.candidates == 0), "a match has candidates");
  index.find(gpuport::parse_kernel_name("k"));
  return 0;
}
