// Placeholder until the sqlite readers land: refuses every file of this family.
#include "profile/readers/readers.h"

namespace gpuport {

tl::expected<Trace, TraceError> read_sqlite_trace(const std::string& path,
                                                  std::optional<TraceFormat> forced) {
  (void)forced;
  return tl::unexpected(TraceError{path + ": sqlite traces are not read yet"});
}

}  // namespace gpuport
