// `gpuport profile --format json` (schema_version "1", documented in docs/profile-json.md).
#pragma once

#include <string>

#include "profile/analysis/profile.h"
#include "report/json_writer.h"

namespace gpuport {

inline constexpr std::string_view k_profile_schema_version = "1";

std::string render_profile_json(const Profile& profile);

// The pieces compare's JSON shares: {path, format, vendor, devices, summary_only} and the totals.
void write_trace_info(JsonWriter& json, const TraceInfo& trace);
void write_totals(JsonWriter& json, const ProfileTotals& totals);
// {"name": "gpuport", "version": ...}
void write_tool(JsonWriter& json);

}  // namespace gpuport
