// libFuzzer target: read_csv_trace() on arbitrary bytes (plain, or gzip when they start with the
// magic), detected and forced to each CSV layout in turn; aborts on any broken invariant.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "profile/byte_stream.h"
#include "profile/readers/readers.h"
#include "table_trace_invariants.h"

namespace {

constexpr std::optional<gpuport::TraceFormat> kFormats[] = {
    std::nullopt,
    gpuport::TraceFormat::RocprofCsv,
    gpuport::TraceFormat::RocprofStatsCsv,
    gpuport::TraceFormat::Rocprofv3Csv,
    gpuport::TraceFormat::NsysStatsCsv,
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::string path = "fuzz.csv";
  // Detection on every input; one forced layout, chosen by the size, to keep runs fast.
  for (const auto forced : {kFormats[0], kFormats[1 + size % 4]}) {
    gpuport::ByteStream in = gpuport::ByteStream::from_memory(path, bytes);
    gpuport::fuzzing::check_trace_result(gpuport::read_csv_trace(in, forced), path);
  }
  return 0;
}
