// rocprof v1/v2 results.csv: one row per kernel dispatch, times in nanoseconds.
#include "profile/readers/csv_formats.h"
#include "profile/readers/reader_support.h"

namespace gpuport {

tl::expected<void, TraceError> read_rocprof_csv(CsvTable& table, Trace& trace) {
  constexpr std::string_view kNeeds = "a rocprof results.csv needs KernelName, BeginNs, EndNs";
  const auto name = table.find("KernelName");
  const auto begin = table.find("BeginNs");
  const auto end = table.find("EndNs");
  if (!name)
    return tl::unexpected(table.missing_column("KernelName", kNeeds));
  if (!begin)
    return tl::unexpected(table.missing_column("BeginNs", kNeeds));
  if (!end)
    return tl::unexpected(table.missing_column("EndNs", kNeeds));
  const auto device = table.find("gpu-id");
  const auto queue = table.find("queue-id");
  const auto index = table.find("Index");

  for (;;) {
    auto more = table.next();
    if (!more)
      return tl::unexpected(more.error());
    if (!*more)
      return {};
    auto begin_ns = table.integer(*begin);
    if (!begin_ns)
      return tl::unexpected(begin_ns.error());
    auto end_ns = table.integer(*end);
    if (!end_ns)
      return tl::unexpected(end_ns.error());
    GpuActivity activity;
    if (__builtin_sub_overflow(*end_ns, *begin_ns, &activity.duration_ns) ||
        activity.duration_ns < 0) {
      return tl::unexpected(table.error("EndNs " + std::to_string(*end_ns) + " is before BeginNs " +
                                        std::to_string(*begin_ns)));
    }
    auto device_id = table.id(device);
    if (!device_id)
      return tl::unexpected(device_id.error());
    auto queue_id = table.id(queue);
    if (!queue_id)
      return tl::unexpected(queue_id.error());
    auto correlation = table.id(index);
    if (!correlation)
      return tl::unexpected(correlation.error());
    activity.start_ns = *begin_ns;
    activity.correlation = *correlation;
    activity.name = trace.names.intern(table.text(*name));
    activity.device = to_id32(*device_id);
    activity.stream = to_id32(*queue_id);
    activity.kind = ActivityKind::Kernel;
    trace.activities.push_back(activity);
  }
}

}  // namespace gpuport
