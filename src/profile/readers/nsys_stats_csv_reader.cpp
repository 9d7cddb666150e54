// `nsys stats --report cuda_gpu_kern_sum --format csv` (and cuda_gpu_kern_gb_sum, one row per
// name and launch shape, summed here per name). Column spellings changed over nsys versions
// ("Time (%)"/"Time(%)", "Avg (ns)"/"Average"); times are in the unit the header names
// ("Total Time (us)" with --timeunit usec), nanoseconds when it names none.
#include <string>

#include "profile/csv/csv_numbers.h"
#include "profile/readers/csv_formats.h"
#include "profile/readers/reader_support.h"

namespace gpuport {
namespace {

// "Total Time (ns)" -> "totaltime(ns)": the spellings differ in spaces and case only.
std::string squeeze(std::string_view column) {
  std::string out;
  for (char c : column) {
    if (c == ' ' || c == '\t')
      continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

std::optional<std::size_t> find_squeezed(const CsvTable& table, std::string_view wanted) {
  for (std::size_t i = 0; i < table.columns().size(); ++i) {
    if (squeeze(table.columns()[i]) == wanted)
      return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> find_total_time(const CsvTable& table) {
  for (std::size_t i = 0; i < table.columns().size(); ++i) {
    const std::string column = squeeze(table.columns()[i]);
    if (column == "totaltime" || column.starts_with("totaltime("))
      return i;
  }
  return std::nullopt;
}

}  // namespace

bool looks_like_nsys_stats(const CsvTable& table) {
  return find_total_time(table) || find_squeezed(table, "time(%)") ||
         find_squeezed(table, "instances");
}

std::optional<TraceError> check_nsys_kernel_summary(const CsvTable& table) {
  constexpr std::string_view kNeeds =
      "an nsys stats cuda_gpu_kern_sum CSV needs Total Time (ns), Instances, Name";
  if (!find_total_time(table))
    return table.missing_column("Total Time (ns)", kNeeds);
  if (!find_squeezed(table, "instances"))
    return table.missing_column("Instances", kNeeds);
  if (!find_squeezed(table, "name"))
    return table.missing_column("Name", kNeeds);
  return std::nullopt;
}

tl::expected<void, TraceError> read_nsys_stats_csv(CsvTable& table, Trace& trace) {
  if (auto missing = check_nsys_kernel_summary(table))
    return tl::unexpected(*missing);
  const auto total = find_total_time(table);
  const auto instances = find_squeezed(table, "instances");
  const auto name = find_squeezed(table, "name");

  std::int64_t unit_ns = 1;
  const std::string total_column = squeeze(table.columns()[*total]);
  if (total_column != "totaltime") {
    const std::string unit = total_column.substr(10, total_column.size() - 11);
    unit_ns = total_column.ends_with(")") ? unit_nanoseconds(unit) : 0;
    if (unit_ns == 0) {
      return tl::unexpected(table.header_error("unknown time unit in column \"" +
                                               printable_text(table.columns()[*total], 60) +
                                               "\" (expected ns, us, ms or s)"));
    }
  }

  SummaryBuilder summaries(trace);
  for (;;) {
    auto more = table.next();
    if (!more)
      return tl::unexpected(more.error());
    if (!*more)
      return {};
    auto calls = table.count(*instances);
    if (!calls)
      return tl::unexpected(calls.error());
    auto total_ns = table.nanoseconds(*total, unit_ns);
    if (!total_ns)
      return tl::unexpected(total_ns.error());
    if (*total_ns < 0)
      return tl::unexpected(table.field_error(*total, "negative"));
    if (!summaries.add(table.text(*name), *calls, *total_ns))
      return tl::unexpected(table.error("the totals of this name overflow 64 bits"));
  }
}

}  // namespace gpuport
