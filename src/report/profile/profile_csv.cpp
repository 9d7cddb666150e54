#include "report/profile/profile_csv.h"

#include <fmt/format.h>

#include "report/profile/profile_units.h"

namespace gpuport {

namespace {

std::string optional_number(const std::optional<std::int64_t>& value) {
  return value ? std::to_string(*value) : std::string();
}

// "cudaLaunchKernel=207;cuLaunchKernel=3"
std::string launches(const KernelRow& row) {
  std::string text;
  for (const LaunchCount& launch : row.launches) {
    if (!text.empty()) {
      text += ';';
    }
    text += fmt::format("{}={}", launch.api, launch.calls);
  }
  return text;
}

}  // namespace

std::string render_profile_csv(const Profile& profile) {
  std::string out =
      "rank,name,display,kind,class,owner,own_code,calls,total_ns,mean_ns,min_ns,max_ns,share,"
      "launch_api,launches,source_file,source_line\r\n";
  for (std::size_t i = 0; i < profile.kernels.rows.size(); ++i) {
    const KernelRow& row = profile.kernels.rows[i];
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\r\n", i + 1,
                       csv_field(row.name.raw), csv_field(row.name.display),
                       activity_kind_name(row.kind), class_name(row.classification.klass),
                       csv_field(row.classification.owner),
                       row.classification.own_code ? "true" : "false", row.calls, row.total_ns,
                       row.mean_ns(), optional_number(row.min_ns), optional_number(row.max_ns),
                       fixed6(row.share), launch_api_name(row.launch_api), csv_field(launches(row)),
                       row.source ? csv_field(row.source->file) : std::string(),
                       row.source ? std::to_string(row.source->line) : std::string());
  }
  return out;
}

}  // namespace gpuport
