// rocprof results.stats.csv ("Name","Calls","TotalDurationNs","AverageNs","Percentage") and
// rocprofv3 *_kernel_stats.csv (the same plus "MinNs","MaxNs","StdDev"): per-name totals only.
#include "profile/readers/csv_formats.h"
#include "profile/readers/reader_support.h"

namespace gpuport {

tl::expected<void, TraceError> read_rocprof_stats_csv(CsvTable& table, Trace& trace) {
  constexpr std::string_view kNeeds = "a rocprof stats CSV needs Name, Calls, TotalDurationNs";
  const auto name = table.find("Name");
  const auto calls = table.find("Calls");
  const auto total = table.find("TotalDurationNs");
  if (!name)
    return tl::unexpected(table.missing_column("Name", kNeeds));
  if (!calls)
    return tl::unexpected(table.missing_column("Calls", kNeeds));
  if (!total)
    return tl::unexpected(table.missing_column("TotalDurationNs", kNeeds));

  SummaryBuilder summaries(trace);
  for (;;) {
    auto more = table.next();
    if (!more)
      return tl::unexpected(more.error());
    if (!*more)
      return {};
    auto call_count = table.count(*calls);
    if (!call_count)
      return tl::unexpected(call_count.error());
    auto total_ns = table.count(*total);
    if (!total_ns)
      return tl::unexpected(total_ns.error());
    if (!summaries.add(table.text(*name), *call_count, *total_ns))
      return tl::unexpected(table.error("the totals of this name overflow 64 bits"));
  }
}

}  // namespace gpuport
