// rocprofv3 *_kernel_trace.csv, both column vintages (newer: "Agent 4", Stream_Id, Dispatch_Id;
// older: bare agent numbers, no Stream_Id), and rocprofv2's file-plugin CSV (GPU_ID,
// Correlation_ID), which names its columns the same way. Times are nanoseconds.
#include "profile/readers/csv_formats.h"
#include "profile/readers/reader_support.h"

namespace gpuport {
namespace {

std::optional<std::size_t> first_of(const CsvTable& table,
                                    std::initializer_list<std::string_view> names) {
  for (std::string_view name : names) {
    if (auto column = table.find_any_case(name))
      return column;
  }
  return std::nullopt;
}

}  // namespace

tl::expected<void, TraceError> read_rocprofv3_csv(CsvTable& table, Trace& trace) {
  constexpr std::string_view kNeeds =
      "a rocprofv3 kernel_trace.csv needs Kernel_Name, Start_Timestamp, End_Timestamp";
  const auto name = table.find_any_case("Kernel_Name");
  const auto start = table.find_any_case("Start_Timestamp");
  const auto end = table.find_any_case("End_Timestamp");
  if (!name)
    return tl::unexpected(table.missing_column("Kernel_Name", kNeeds));
  if (!start)
    return tl::unexpected(table.missing_column("Start_Timestamp", kNeeds));
  if (!end)
    return tl::unexpected(table.missing_column("End_Timestamp", kNeeds));
  const auto kind = table.find_any_case("Kind");
  const auto device = first_of(table, {"Agent_Id", "GPU_ID"});
  const auto stream = first_of(table, {"Stream_Id", "Queue_Id"});
  const auto correlation = first_of(table, {"Correlation_Id", "Dispatch_Id"});

  for (;;) {
    auto more = table.next();
    if (!more)
      return tl::unexpected(more.error());
    if (!*more)
      return {};
    // A kernel trace holds only dispatches; anything else a future version mixes in is not one.
    if (kind && !table.text(*kind).empty() && table.text(*kind) != "KERNEL_DISPATCH")
      continue;
    auto start_ns = table.integer(*start);
    if (!start_ns)
      return tl::unexpected(start_ns.error());
    auto end_ns = table.integer(*end);
    if (!end_ns)
      return tl::unexpected(end_ns.error());
    GpuActivity activity;
    if (__builtin_sub_overflow(*end_ns, *start_ns, &activity.duration_ns) ||
        activity.duration_ns < 0) {
      return tl::unexpected(table.error("End_Timestamp " + std::to_string(*end_ns) +
                                        " is before Start_Timestamp " + std::to_string(*start_ns)));
    }
    auto device_id = table.id(device);
    if (!device_id)
      return tl::unexpected(device_id.error());
    auto stream_id = table.id(stream);
    if (!stream_id)
      return tl::unexpected(stream_id.error());
    auto correlation_id = table.id(correlation);
    if (!correlation_id)
      return tl::unexpected(correlation_id.error());
    activity.start_ns = *start_ns;
    activity.correlation = *correlation_id;
    activity.name = trace.names.intern(table.text(*name));
    activity.device = to_id32(*device_id);
    activity.stream = to_id32(*stream_id);
    activity.kind = ActivityKind::Kernel;
    trace.activities.push_back(activity);
  }
}

}  // namespace gpuport
