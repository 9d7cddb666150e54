#include "profile/trace.h"

#include <array>

namespace gpuport {
namespace {

struct FormatSpelling {
  TraceFormat format;
  std::string_view name;
};

constexpr std::array<FormatSpelling, 8> kFormats{{
    {TraceFormat::KinetoJson, "kineto"},
    {TraceFormat::Rocprofv3Json, "rocprofv3-json"},
    {TraceFormat::NsysSqlite, "nsys-sqlite"},
    {TraceFormat::NsysStatsCsv, "nsys-stats-csv"},
    {TraceFormat::RocprofCsv, "rocprof-csv"},
    {TraceFormat::RocprofStatsCsv, "rocprof-stats-csv"},
    {TraceFormat::Rocprofv3Csv, "rocprofv3-csv"},
    {TraceFormat::RocpdSqlite, "rocpd-sqlite"},
}};

}  // namespace

std::string_view format_name(TraceFormat format) {
  for (const FormatSpelling& spelling : kFormats) {
    if (spelling.format == format)
      return spelling.name;
  }
  return "unknown";
}

std::optional<TraceFormat> parse_format_name(std::string_view name) {
  for (const FormatSpelling& spelling : kFormats) {
    if (spelling.name == name)
      return spelling.format;
  }
  return std::nullopt;
}

std::vector<std::string_view> format_names() {
  std::vector<std::string_view> names;
  for (const FormatSpelling& spelling : kFormats)
    names.push_back(spelling.name);
  return names;
}

std::string_view vendor_name(Vendor vendor) {
  switch (vendor) {
    case Vendor::Nvidia:
      return "nvidia";
    case Vendor::Amd:
      return "amd";
    case Vendor::Unknown:
      break;
  }
  return "unknown";
}

NameId NameTable::intern(std::string_view name) {
  if (auto found = m_index.find(name); found != m_index.end())
    return found->second;
  const std::string& stored = m_storage.emplace_back(name);
  const auto id = static_cast<NameId>(m_by_id.size());
  m_by_id.push_back(stored);
  m_index.emplace(stored, id);
  return id;
}

}  // namespace gpuport
